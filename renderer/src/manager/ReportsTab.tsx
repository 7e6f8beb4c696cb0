/** The manager's reports tab: a day, a period or the current shift, with the previous one beside it. */
import { useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { ReportView } from '../../../shared/contract/reports.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatRsd } from '../../../shared/money.ts';
import {
  call,
  useAction,
  DateRange,
  dayOrRefuse,
  Field,
  MgrTable,
  NoteAndAlert,
  RowForm,
  RunButton,
  saveFile,
  SubmitButton,
} from './common.tsx';
import { ReportCharts, previousPeriod } from '../reports/ReportCharts.tsx';
import { reportT } from '../reports/words.ts';
import { addDays } from '../dates.ts';
import { dayStart } from '../../../shared/i18n/time.ts';
import type { ManagerT } from './i18n.ts';

type Range = { from?: string; to?: string; cashier?: string };

export function ReportsTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const rt = reportT(lang);
  const [range, setRange] = useState<{ from: string | null; to: string | null; cashier: string }>({
    from: '',
    to: '',
    cashier: '',
  });
  const [report, setReport] = useState<{ current: ReportView; previous: ReportView; input: Range } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const input = (): Range => {
    const from = dayOrRefuse(t, range.from, t('date_from'));
    const to = dayOrRefuse(t, range.to, t('date_to'));
    return {
      // Whole days of the shop: Belgrade midnight to the last millisecond before the next one.
      ...(from ? { from: new Date(dayStart(from)).toISOString() } : {}),
      ...(to ? { to: new Date(dayStart(addDays(to, 1)) - 1).toISOString() } : {}),
      ...(range.cashier ? { cashier: range.cashier } : {}),
    };
  };
  /** The period's report, and the one of the same length just before it. */
  const show = async (which: Range): Promise<void> => {
    const current = await call(api['reports.summary'](which));
    const before = previousPeriod(current.from, current.to);
    const previous = await call(
      api['reports.summary']({ ...before, ...(which.cashier ? { cashier: which.cashier } : {}) }),
    );
    setReport({ current, previous, input: which });
    setNote(null);
  };
  const shift = async (): Promise<void> => {
    const open = await call(api['shifts.current']({}));
    if (!open) {
      setReport(null);
      setNote(rt('no_shift'));
      return;
    }
    await show({ from: open.openedAt, cashier: open.cashier });
  };
  /** Downloads one of the period's CSV files: the one shown, else the one the form asks for. */
  const saveCsv = (command: 'reports.csv' | 'reports.receiptsCsv') => async (): Promise<void> => {
    const { fileName, csv } = await call(api[command](report?.input ?? input()));
    saveFile(fileName, new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  };
  return (
    <div className="mgr-tab">
      <RowForm onSubmit={() => void run(() => show(input()))}>
        <DateRange
          t={t}
          lang={lang}
          from={range.from}
          to={range.to}
          onFrom={(from) => setRange({ ...range, from })}
          onTo={(to) => setRange({ ...range, to })}
        />
        <Field label={t('cashier')}>
          <input value={range.cashier} onChange={(e) => setRange({ ...range, cashier: e.target.value })} />
        </Field>
        <SubmitButton busy={busy}>{t('show')}</SubmitButton>
        <RunButton run={run} busy={busy} action={shift}>
          {rt('shift')}
        </RunButton>
        <RunButton
          run={run}
          busy={busy}
          action={async () => (await call(api['reports.print'](report?.input ?? input())), setNote(t('printed')))}
        >
          {t('print')}
        </RunButton>
        <RunButton run={run} busy={busy} action={saveCsv('reports.csv')}>
          {t('csv')}
        </RunButton>
        <RunButton run={run} busy={busy} action={saveCsv('reports.receiptsCsv')}>
          {rt('receipts_csv')}
        </RunButton>
      </RowForm>
      <NoteAndAlert note={note} error={error} />
      {report && (
        <section aria-label={t('report')}>
          <ReportCharts lang={lang} current={report.current} previous={report.previous} />
          <h4>{t('tax_by_rate')}</h4>
          <MgrTable label={t('tax_by_rate')}>
            {report.current.byTax.map((x) => (
              <tr key={`${x.label} ${x.rate}`}>
                <th>
                  {x.label} {x.rate}%
                </th>
                <td>{formatRsd(x.taxPara)}</td>
              </tr>
            ))}
            <tr>
              <th>{t('tax_total')}</th>
              <td>{formatRsd(report.current.taxPara)}</td>
            </tr>
          </MgrTable>
          <MgrTable label={t('report')}>
            {(['not_fiscalized', 'training_excluded', 'tax_group_changed'] as const).map((name) => (
              <tr key={name}>
                <th>{t(name)}</th>
                <td>
                  {name === 'not_fiscalized'
                    ? report.current.notFiscalized
                    : name === 'training_excluded'
                      ? report.current.trainingExcluded
                      : report.current.taxGroupChanged}
                </td>
              </tr>
            ))}
          </MgrTable>
        </section>
      )}
    </div>
  );
}
