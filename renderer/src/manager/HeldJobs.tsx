/**
 * Print jobs held for the manager (electron/printer/held.ts): they waited for the printer longer than the
 * hold time, so they do not print by themselves. Shown once the manager's PIN is given (`print.held`);
 * the manager picks some and prints them (queued again, never held again) or drops them, each with the PIN
 * again (`print.resolveHeld`, audited).
 */
import { useEffect, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { HeldJob } from '../../../shared/contract/printer.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatRsd } from '../../../shared/money.ts';
import { Check } from '../components/Check.tsx';
import {
  call,
  localTime,
  pinOf,
  useAction,
  useRunner,
  MgrTable,
  NoteAndAlert,
  PinForm,
  PinInput,
  RowForm,
  Alert,
} from './common.tsx';
import type { ManagerT, ManagerText } from './i18n.ts';

/** What a job is, in words: a slip without an order is a printed report (`reports.print`). */
export function heldKindKey(job: Pick<HeldJob, 'kind' | 'orderId'>): ManagerText {
  if (job.kind === 'slip') return job.orderId === null ? 'held_kind_report' : 'held_kind_slip';
  return job.kind === 'receipt' || job.kind === 'late' ? 'held_kind_receipt' : 'held_kind_test';
}

export function HeldJobs(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  // How many are held, from `print.status` (no PIN needed to know there is something to decide).
  const [count, setCount] = useState<number | null>(null);
  const [jobs, setJobs] = useState<HeldJob[] | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [pin, setPin] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [listError, listRunner] = useRunner(t);
  const [error, busy, run] = useAction();

  useEffect(() => {
    const off = api.on('print.status', (s) => setCount(s.held));
    void api['print.status']({}).then((r) => {
      if (r.ok) setCount(r.value.held);
    });
    return off;
  }, [api]);

  if ((count ?? 0) === 0 && jobs === null && note === null) return null;

  const show = (list: HeldJob[]) => {
    setJobs(list);
    setSelected((old) => new Set(list.filter((j) => old.has(j.id)).map((j) => j.id)));
  };
  const describe = (j: HeldJob) =>
    [t(heldKindKey(j)), j.invoiceNumber ?? '', localTime(j.createdAt, lang)].filter((x) => x !== '').join(' ');
  const toggle = (id: number, on: boolean) =>
    setSelected((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const resolve = (action: 'print' | 'drop') =>
    void run(async () => {
      setNote(null);
      if (selected.size === 0) throw new Error(t('held_pick'));
      const r = await call(api['print.resolveHeld']({ ...pinOf(pin), jobIds: [...selected], action }));
      setNote(
        action === 'print'
          ? t('held_printed', { count: r.printed.length })
          : t('held_dropped', { count: r.dropped.length }),
      );
      // The PIN was just accepted: the list is read again with it, then it is forgotten.
      show((await call(api['print.held']({ ...pinOf(pin) }))).jobs);
      setPin('');
    });
  const all = jobs !== null && jobs.length > 0 && jobs.every((j) => selected.has(j.id));

  return (
    <section className="mgr-held" aria-label={t('held_title')}>
      <h4>{t('held_title')}</h4>
      <p className="mgr-warn" data-testid="held-count">
        {t('held_count', { count: count ?? 0 })}
      </p>
      <p className="mgr-hint">{t('held_intro')}</p>
      <PinForm
        selfApproves
        runner={listRunner}
        button={t('held_show')}
        onPin={async (managerPin) => show((await call(api['print.held']({ ...pinOf(managerPin) }))).jobs)}
      />
      <Alert text={listError} />
      {jobs !== null &&
        (jobs.length === 0 ? (
          <p>{t('held_none')}</p>
        ) : (
          <>
            <Check
              label={t('held_select_all')}
              checked={all}
              onChange={(on) => setSelected(new Set(on ? jobs.map((j) => j.id) : []))}
            />
            <MgrTable
              label={t('held_title')}
              headers={['', t('held_kind'), t('held_number'), t('total'), t('held_when')]}
            >
              {jobs.map((j) => (
                <tr key={j.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t('held_select', { what: describe(j) })}
                      checked={selected.has(j.id)}
                      onChange={(e) => toggle(j.id, e.target.checked)}
                    />
                  </td>
                  <td>{t(heldKindKey(j))}</td>
                  <td>{j.invoiceNumber ?? '—'}</td>
                  <td className="num">{j.totalPara === null ? '—' : formatRsd(j.totalPara)}</td>
                  <td>{localTime(j.createdAt, lang)}</td>
                </tr>
              ))}
            </MgrTable>
            <RowForm label={t('held_title')} onSubmit={() => resolve('print')}>
              <PinInput selfApproves t={t} value={pin} onChange={setPin} />
              <button type="submit" disabled={busy}>
                {t('held_print')}
              </button>
              <button type="button" className="danger" disabled={busy} onClick={() => resolve('drop')}>
                {t('held_drop')}
              </button>
            </RowForm>
            <p className="mgr-hint">{t('held_drop_hint')}</p>
          </>
        ))}
      <NoteAndAlert note={note} error={error} />
    </section>
  );
}
