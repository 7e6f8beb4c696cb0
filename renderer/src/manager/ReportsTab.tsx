/** The manager's reports tab. */
import { useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { ReportView } from '../../../shared/contract/reports.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatRsd } from '../../../shared/money.ts';
import {
  PAYMENT_NAMES,
  call,
  useAction,
  DateRange,
  dayOrRefuse,
  Field,
  MgrTable,
  NoteAndAlert,
  RowForm,
  RunButton,
  SubmitButton,
} from './common.tsx';
import type { ManagerT } from './i18n.ts';

export function ReportsTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [range, setRange] = useState<{ from: string | null; to: string | null; cashier: string }>({
    from: '',
    to: '',
    cashier: '',
  });
  const [report, setReport] = useState<ReportView | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const input = () => {
    const from = dayOrRefuse(t, range.from, t('date_from'));
    const to = dayOrRefuse(t, range.to, t('date_to'));
    return {
      ...(from ? { from: new Date(`${from}T00:00:00`).toISOString() } : {}),
      ...(to ? { to: new Date(`${to}T23:59:59.999`).toISOString() } : {}),
      ...(range.cashier ? { cashier: range.cashier } : {}),
    };
  };
  return (
    <div className="mgr-tab">
      <RowForm onSubmit={() => void run(async () => setReport(await call(api['reports.summary'](input()))))}>
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
        <RunButton
          run={run}
          busy={busy}
          action={async () => (await call(api['reports.print'](input())), setNote(t('printed')))}
        >
          {t('print')}
        </RunButton>
        <RunButton
          run={run}
          busy={busy}
          action={async () => {
            const { fileName, csv } = await call(api['reports.csv'](input()));
            const a = document.createElement('a');
            a.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
            a.download = fileName;
            a.click();
            URL.revokeObjectURL(a.href);
          }}
        >
          {t('csv')}
        </RunButton>
      </RowForm>
      {report && (
        <section aria-label={t('report')}>
          <MgrTable label={t('report')}>
            {(
              [
                ['sales', report.sales.count, formatRsd(report.sales.totalPara)],
                ['advances', report.advances.count, formatRsd(report.advances.totalPara)],
                ['refunds', report.refunds.count, formatRsd(-report.refunds.totalPara)],
                ['not_fiscalized', report.notFiscalized, null],
                ['training_excluded', report.trainingExcluded, null],
                ['tax_group_changed', report.taxGroupChanged, null],
              ] as const
            ).map(([name, count, amount]) => (
              <tr key={name}>
                <th>{t(name)}</th>
                <td>{count}</td>
                <td>{amount}</td>
              </tr>
            ))}
          </MgrTable>
          <MgrTable label={t('by_payment')}>
            {report.byPayment.map((p) => (
              <tr key={p.type}>
                <th>{PAYMENT_NAMES[lang][p.type] ?? p.type}</th>
                <td>{formatRsd(p.netPara)}</td>
              </tr>
            ))}
          </MgrTable>
          <MgrTable label={t('by_label')}>
            {report.byLabel.map((l) => (
              <tr key={l.label}>
                <th>{l.label.includes('+') ? l.label : `${l.label} ${l.rate}%`}</th>
                <td>{formatRsd(l.netPara)}</td>
                <td>{l.label.includes('+') ? t('tax_in_labels') : `${t('tax')} ${formatRsd(l.taxPara)}`}</td>
              </tr>
            ))}
          </MgrTable>
          <h4>{t('tax_by_rate')}</h4>
          <MgrTable label={t('tax_by_rate')}>
            {report.byTax.map((x) => (
              <tr key={`${x.label} ${x.rate}`}>
                <th>
                  {x.label} {x.rate}%
                </th>
                <td>{formatRsd(x.taxPara)}</td>
              </tr>
            ))}
            <tr>
              <th>{t('tax_total')}</th>
              <td>{formatRsd(report.taxPara)}</td>
            </tr>
          </MgrTable>
        </section>
      )}
      <NoteAndAlert note={note} error={error} />
    </div>
  );
}
