/**
 * Е-фактуре at the hub (docs/sef.md, "Sending from the hub"): the shop's e-invoices the hub sends, with their till,
 * their state at SEF in words and SEF's reason; a refused one sent again, a sent one cancelled or an accepted one
 * stornoed by a hub manager. The list and its words are the till's Менаџер → Е-фактуре's (SefDocumentsTable, the
 * manager's texts); the tab's own name and intro are the hub's. The SEF key never reaches this page.
 */
import { useState } from 'react';
import type { HubSefList } from '../../../shared/hub/sef.ts';
import { NoteAndAlert } from '../ui/forms.tsx';
import { mt, type ManagerT } from '../manager/i18n.ts';
import { SefDocumentsTable, sefStateText, type SefRow } from '../manager/SefTab.tsx';
import { hubApi } from './api.ts';
import { useHubRead } from './useHubRead.ts';
import type { HubTabProps } from './HubBooks.tsx';

export function HubSef(props: HubTabProps) {
  const { t, lang, token } = props;
  const mgrT: ManagerT = (key, params) => mt(lang, key, params);
  const api = hubApi(token);
  const [list, setList] = useState<HubSefList | null>(null);
  // What was done, said in the language shown now (a language chosen after it says it again in that language).
  const [note, setNote] = useState<((t: ManagerT) => string) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const labels = { comment: mgrT('sef_comment_short') };

  const run = (action: () => Promise<((t: ManagerT) => string) | null>) => {
    setBusy(true);
    setNote(null);
    setError(null);
    action()
      .then(async (done) => {
        setList(await api.call('sefDocuments', {}));
        setNote(() => done);
      })
      .catch((err: unknown) => setError(props.errorText(err, labels)))
      .finally(() => setBusy(false));
  };
  useHubRead(
    () => hubApi(token).call('sefDocuments', {}),
    setList,
    (err) => setError(props.errorText(err, {})),
    [token],
  );

  const retry = (d: SefRow) =>
    run(async () => {
      await api.call('sefRetry', { id: d.id });
      return (tr: ManagerT) => tr('sef_retried', { number: d.number });
    });
  const cancel = (d: SefRow, comment: string) =>
    run(async () => {
      const done = await api.call('sefCancel', { id: d.id, comment });
      return (tr: ManagerT) => tr('sef_cancelled', { number: d.number, state: sefStateText(tr, done) });
    });

  return (
    <section aria-label={t('sef')} className="mgr-tab mgr-sef">
      <h2>{mgrT('sef_title')}</h2>
      <p>{list && !list.sending ? t('sefNotSending') : t('sefIntro')}</p>
      <NoteAndAlert note={note?.(mgrT) ?? null} error={error} />
      <section aria-label={mgrT('sef_documents')}>
        <h3>{mgrT('sef_documents')}</h3>
        {list && list.documents.length === 0 ? (
          <p>{mgrT('sef_documents_none')}</p>
        ) : (
          <SefDocumentsTable
            t={mgrT}
            lang={lang}
            docs={list?.documents ?? []}
            busy={busy}
            tillHeader={t('till')}
            onRetry={retry}
            onCancel={cancel}
          />
        )}
        <p>
          <button type="button" disabled={busy} onClick={() => run(async () => null)}>
            {mgrT('sef_refresh')}
          </button>
        </p>
      </section>
    </section>
  );
}
