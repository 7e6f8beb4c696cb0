/**
 * The tables of a bookkeeper's export (docs/exports.md), the same at the till (Менаџер → Књиговођа) and at the hub
 * (Књиговођа): the period's totals with the stock value, and its days.
 */
import type { ExportView } from '../../../shared/contract/exports.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatRsd } from '../../../shared/money.ts';
import { formatDay } from '../dates.ts';
import { MgrTable } from '../ui/forms.tsx';
import type { ManagerT, ManagerText } from './i18n.ts';

/** The period's title and totals. */
export function ExportTotals(props: { t: ManagerT; lang: Language; view: ExportView }) {
  const { t, lang, view } = props;
  return (
    <>
      <h4>
        {t('books_totals')}: {formatDay(view.from, lang)} – {formatDay(view.to, lang)}
      </h4>
      <MgrTable label={t('books_totals')}>
        {(
          [
            ['books_gross', view.total.grossPara],
            ['books_tax', view.total.taxPara],
            ['books_net', view.total.netPara],
            ['books_sales', view.total.sales.totalPara],
            ['books_advances', view.total.advances.totalPara],
            ['books_refunds', view.total.refunds.totalPara],
            ['books_stock', view.stockValuePara],
          ] as [ManagerText, number][]
        ).map(([key, para]) => (
          <tr key={key}>
            <th scope="row">{t(key)}</th>
            <td className="num">{formatRsd(para)}</td>
          </tr>
        ))}
      </MgrTable>
    </>
  );
}

/** The period's days with turnover. */
export function ExportDays(props: { t: ManagerT; lang: Language; view: ExportView }) {
  const { t, lang, view } = props;
  return (
    <>
      <h4>{t('books_days')}</h4>
      <MgrTable
        label={t('books_days')}
        scroll
        headers={[t('books_col_day'), t('books_gross'), t('books_tax'), t('books_net'), t('books_refunds')]}
      >
        {view.days.map((d) => (
          <tr key={d.day}>
            <td>{formatDay(d.day, lang)}</td>
            <td className="num">{formatRsd(d.grossPara)}</td>
            <td className="num">{formatRsd(d.taxPara)}</td>
            <td className="num">{formatRsd(d.grossPara - d.taxPara)}</td>
            <td className="num">{formatRsd(d.refundsPara)}</td>
          </tr>
        ))}
      </MgrTable>
    </>
  );
}
