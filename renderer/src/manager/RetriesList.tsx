/**
 * Background retries that spent their budget (a receipt's missing journal, an e-mail, a parked cart's
 * draft): what it is, how often it was tried, the gateway's last words, and a button to try again.
 */
import { useEffect } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import { call, useActedList, RunButton, NoteAndAlert } from './common.tsx';
import type { ManagerT } from './i18n.ts';

export function RetriesList(props: { api: PosApi; t: ManagerT }) {
  const { api, t } = props;
  const { list, note, error, busy, run, reload, act } = useActedList(
    async () => (await call(api['retries.list']({}))).items,
  );
  const items = list ?? [];
  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (items.length === 0 && !error && !note) return null;
  return (
    <section aria-label={t('retries_title')}>
      <h3>{t('retries_title')}</h3>
      <ul className="mgr-list" aria-label={t('retries_title')}>
        {items.map((i) => (
          <li
            key={`${i.loop}:${i.item}`}
            className="mgr-attention"
            aria-label={t('retries_item', { loop: t(`retries_loop_${i.loop}`), label: i.label })}
          >
            <p>
              <strong>{t(`retries_loop_${i.loop}`)}</strong> · {i.label}
            </p>
            <p className="mgr-error">{t('retries_tries', { tries: i.tries, error: i.lastError ?? '—' })}</p>
            <RunButton
              run={run}
              busy={busy}
              action={act(
                () => api['retries.resume']({ loop: i.loop, item: i.item }),
                t('retries_resumed', { label: i.label }),
              )}
            >
              {t('retries_resume', { label: i.label })}
            </RunButton>
          </li>
        ))}
      </ul>
      <NoteAndAlert note={note} error={error} />
    </section>
  );
}
