/**
 * A report as people look at it, the same at the till and at the hub: the period's turnover beside the
 * previous period's (sales, advances, refunds, gross, VAT, net), then bar charts (recharts: SVG, so it prints
 * and screenshots crisply and tests read it) by hour, payment type, tax label, cashier and, at the hub, by till
 * and shop. Each chart is a figure named in the UI language; each bar is an image named by what and how much.
 */
import type { ReactElement } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReportView } from '../../../shared/contract/reports.ts';
import type { Language } from '../../../shared/domain.ts';
import { paymentName } from '../../../shared/i18n/enums.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { formatRsd } from '../../../shared/money.ts';
import { HeadedTable } from '../components/HeadedTable.tsx';
import { reportT, type ReportT, type ReportWord } from './words.ts';
import './report.css';

/** One bar group of a chart: its name, this period's figure and the previous period's (para). */
export interface ChartRow {
  key: string;
  name: string;
  current: number;
  previous?: number | undefined;
}

/** The same period just before [from, to): as long, ending where it starts. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const a = Date.parse(from);
  const b = Date.parse(to);
  return { from: new Date(a - (b - a)).toISOString(), to: new Date(a).toISOString() };
}

/** Rows keyed alike from two periods: the current period's order, then keys only the previous period has. */
export function pairRows<T>(
  current: readonly T[],
  previous: readonly T[] | undefined,
  key: (x: T) => string,
  name: (x: T) => string,
  para: (x: T) => number,
): ChartRow[] {
  const rows = new Map<string, ChartRow>();
  for (const x of current) rows.set(key(x), { key: key(x), name: name(x), current: para(x) });
  for (const x of previous ?? []) {
    const row = rows.get(key(x));
    if (row) row.previous = (row.previous ?? 0) + para(x);
    else rows.set(key(x), { key: key(x), name: name(x), current: 0, previous: para(x) });
  }
  if (previous) for (const row of rows.values()) row.previous ??= 0;
  return [...rows.values()];
}

const hourName = (h: number): string => `${String(h).padStart(2, '0')}:00`;

function dinars(t: ReportT, para: number): string {
  return `${formatRsd(para)} ${t('dinars')}`;
}

/** Whole dinars with thousands dots and the currency in the UI language, for an axis: `12.340 дин.`. */
export function axisDinars(t: ReportT, para: number): string {
  return `${formatRsd(Math.round(para / 100) * 100).replace(/,00$/, '')} ${t('dinars')}`;
}

/**
 * How a chart's category names are laid out: level while they are few and short, else slanted (all of them
 * shown, the last one too, ending at its bar instead of running past the chart's right edge).
 */
export function categoryTicks(names: readonly string[]): { slanted: boolean; height: number } {
  const longest = Math.max(0, ...names.map((n) => n.length));
  const slanted = names.length > 4 || (names.length > 1 && longest > 10);
  // A slanted name needs room below the axis: about 7.5 px per letter at 12 px, sin 35° of it downwards.
  return { slanted, height: slanted ? Math.min(120, 24 + Math.ceil(longest * 7.5 * 0.57)) : 30 };
}

/** The periods a chart may show, in the order of their bars, each with its colour. */
const SERIES = ['current', 'previous'] as const;
const FILL: Record<(typeof SERIES)[number], string> = { current: '#1f6fb2', previous: '#a9c4de' };

export function ReportChart(props: { t: ReportT; title: string; rows: readonly ChartRow[]; compare: boolean }) {
  const { t, title, rows, compare } = props;
  /** A bar as an image named by its group, its period and its amount (what a screen reader and a test read). */
  const shape =
    (series: (typeof SERIES)[number]) =>
    (p: unknown): ReactElement => {
      const s = p as { x?: number; y?: number; width?: number; height?: number; fill?: string; payload?: ChartRow };
      const row = s.payload;
      const value = row ? (series === 'current' ? row.current : (row.previous ?? 0)) : 0;
      const label = `${row?.name ?? ''}, ${t(series)}: ${dinars(t, value)}`;
      return (
        <rect
          role="img"
          aria-label={label}
          x={s.x ?? 0}
          y={s.y ?? 0}
          width={Math.max(0, s.width ?? 0)}
          height={Math.max(0, s.height ?? 0)}
          fill={s.fill}
        >
          <title>{label}</title>
        </rect>
      );
    };
  const ticks = categoryTicks(rows.map((r) => r.name));
  const height = Math.max(200, Math.min(320, 60 + rows.length * 14)) + (ticks.slanted ? ticks.height - 30 : 0);
  return (
    <figure className="report-chart" aria-label={title}>
      <figcaption>{title}</figcaption>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={[...rows]} margin={{ top: 8, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          {ticks.slanted ? (
            <XAxis
              dataKey="name"
              tick={{ fontSize: 12 }}
              interval={0}
              angle={-35}
              textAnchor="end"
              height={ticks.height}
            />
          ) : (
            <XAxis dataKey="name" tick={{ fontSize: 12 }} interval="preserveStartEnd" />
          )}
          <YAxis tickFormatter={(para: number) => axisDinars(t, para)} tick={{ fontSize: 12 }} width={92} />
          <Tooltip
            formatter={(value) => dinars(t, Number(value))}
            labelFormatter={(label) => String(label)}
            isAnimationActive={false}
          />
          {compare && <Legend wrapperStyle={{ fontSize: 12 }} />}
          {/* This period's bars, and the previous period's beside them when compared. */}
          {(compare ? SERIES : SERIES.slice(0, 1)).map((series) => (
            <Bar
              key={series}
              dataKey={series}
              name={t(series)}
              fill={FILL[series]}
              isAnimationActive={false}
              shape={shape(series)}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** Extra breakdowns a hub report has: each till's and shop's gross, this period and the previous. */
export interface ReportExtras {
  byTill?: ChartRow[];
  byShop?: ChartRow[];
}

export function ReportCharts(props: {
  lang: Language;
  current: ReportView;
  previous: ReportView | null;
  extras?: ReportExtras;
}) {
  const { lang, current: r, previous: p } = props;
  const t = reportT(lang);
  const compare = p !== null;
  const prev = p ?? undefined;
  const rows: [ReportWord, (x: ReportView) => number, (x: ReportView) => number | null][] = [
    ['sales', (x) => x.sales.totalPara, (x) => x.sales.count],
    ['advances', (x) => x.advances.totalPara, (x) => x.advances.count],
    ['refunds', (x) => (x.refunds.totalPara === 0 ? 0 : -x.refunds.totalPara), (x) => x.refunds.count],
    ['gross', (x) => x.grossPara, (x) => x.sales.count + x.advances.count + x.refunds.count],
    ['tax', (x) => x.taxPara, () => null],
    ['net', (x) => x.netPara, () => null],
  ];
  const when = (iso: string): string => formatMoment(iso, lang);
  const hours = pairRows(
    r.byHour,
    prev?.byHour,
    (h) => String(h.hour),
    (h) => hourName(h.hour),
    (h) => h.grossPara,
  ).sort((a, b) => Number(a.key) - Number(b.key));
  const label = (l: ReportView['byLabel'][number]): string =>
    l.label.includes('+') ? l.label : `${l.label} ${l.rate}%`;
  // The charts in their order, each its title and rows; a hub report's tills and shops only where it has them.
  const charts: readonly (readonly [ReportWord, readonly ChartRow[] | undefined])[] = [
    ['by_hour', hours],
    [
      'by_payment',
      pairRows(
        r.byPayment,
        prev?.byPayment,
        (x) => x.type,
        (x) => paymentName(lang, x.type),
        (x) => x.netPara,
      ),
    ],
    ['by_label', pairRows(r.byLabel, prev?.byLabel, label, label, (x) => x.netPara)],
    [
      'by_cashier',
      pairRows(
        r.byCashier,
        prev?.byCashier,
        (x) => x.cashier,
        (x) => x.cashier || t('no_cashier'),
        (x) => x.grossPara,
      ),
    ],
    ['by_till', props.extras?.byTill],
    ['by_shop', props.extras?.byShop],
  ];
  return (
    <div className="report-view">
      <h3>{t('overview')}</h3>
      <p>
        {t('period', { from: when(r.from), to: when(r.to) })}
        {p && (
          <>
            <br />
            {t('previous_period', { from: when(p.from), to: when(p.to) })}
          </>
        )}
      </p>
      <div className="report-scroll">
        <HeadedTable
          label={t('overview')}
          className="report-totals"
          headers={['', t('receipts'), t('current'), ...(p ? [t('previous'), t('change')] : [])]}
        >
          {rows.map(([key, para, count]) => (
            <tr key={key} className={key === 'gross' || key === 'net' ? 'report-total-line' : undefined}>
              <th scope="row">{t(key)}</th>
              <td>{count(r) ?? ''}</td>
              <td>{dinars(t, para(r))}</td>
              {p && (
                <>
                  <td>{dinars(t, para(p))}</td>
                  <td>{dinars(t, para(r) - para(p))}</td>
                </>
              )}
            </tr>
          ))}
        </HeadedTable>
      </div>
      <div className="report-charts">
        {charts.map(
          ([title, rows]) => rows && <ReportChart key={title} t={t} title={t(title)} rows={rows} compare={compare} />,
        )}
      </div>
    </div>
  );
}
