/**
 * The shop's (or the chain's) day at the hub: the till's report (shared/reports/view.ts, the same
 * sums) over every till's orders, in total and per shop, till, cashier; payment types and tax labels are
 * the report's own breakdowns. Tax rates come from the gateway's receipts themselves (their taxItems), so
 * the hub needs no gateway access. Also the live status of every till, with the alarms a manager must see.
 */
import { reportCsvWords } from '../shared/i18n/report-csv.ts';
import { csvText, finishReport, reportCsv } from '../shared/reports/view.ts';
import { csvDialect } from '../shared/reports/csv-dialect.ts';
import { emptyTotals, type ReportTotals } from '../shared/reports/totals.ts';
import type { Language, PaymentType } from '../shared/domain.ts';
import { fillFacts } from './report-facts.ts';
import { DEFAULT_HUB_TIME_ZONE, FACT_POS, factItemsWithHours } from './report-days.ts';
import { csvLocalTime } from '../shared/reports/local-time.ts';

export { csvLocalTime };
import type { ReportView } from '../shared/contract/reports.ts';
import type { Queryable } from './db/db.ts';
import type { ReportInput, TillPrinter, TillRefusal, TillStatus } from '../shared/hub/protocol.ts';
import type {
  HubPromotionRow,
  HubReport,
  HubShift,
  InvoiceClaim,
  TillAlarm,
  TillLive,
} from '../shared/hub/contract/results.ts';

// The wire shapes live in the hub's contract (shared/hub/contract/results.ts).
export type { HubReport, HubShift, InvoiceClaim, TillAlarm, TillLive };
import { dayIn, dayStart } from '../shared/i18n/time.ts';

interface ShiftRow {
  till_id: number;
  till_name: string;
  shop_id: number;
  shift_id: number;
  cashier: string;
  opened_at: string;
  closed_at: string | null;
  closed_by: string | null;
  opening_float_para: number;
  cash_in_para: number;
  cash_out_para: number;
  expected_para: number | null;
  counted_para: number | null;
}

/** The shifts of one shop (or of the chain) open at some time in [from, to). */
async function hubShifts(db: Queryable, from: string, to: string, shopId: number | null): Promise<HubShift[]> {
  const rows = await db.query<ShiftRow>(
    `SELECT s.till_id, t.name AS till_name, s.shop_id, s.shift_id, s.cashier, s.opened_at, s.closed_at, s.closed_by,
            s.opening_float_para, s.cash_in_para, s.cash_out_para, s.expected_para, s.counted_para
       FROM shifts s JOIN tills t ON t.id = s.till_id
      WHERE s.opened_at < $2 AND (s.closed_at IS NULL OR s.closed_at >= $1) AND ($3::int4 IS NULL OR s.shop_id = $3)
      ORDER BY t.name, s.till_id, s.opened_at`,
    [from, to, shopId],
  );
  return rows.map((r) => {
    const { opening_float_para: float, cash_in_para: cashIn, cash_out_para: cashOut } = r;
    const { expected_para: expected, counted_para: counted } = r;
    return {
      tillId: r.till_id,
      tillName: r.till_name,
      shopId: r.shop_id,
      shiftId: r.shift_id,
      cashier: r.cashier,
      openedAt: r.opened_at,
      closedAt: r.closed_at,
      closedBy: r.closed_by,
      openingFloatPara: float,
      cashSalesPara: expected === null ? null : expected - float - cashIn + cashOut,
      cashInPara: cashIn,
      cashOutPara: cashOut,
      expectedPara: expected,
      countedPara: counted,
      differencePara: expected === null || counted === null ? null : counted - expected,
    };
  });
}

/** One summed fact of a scope (`g`: which of shop, till, cashier are summed over, as SQL `grouping()`). */
interface SumRow {
  g: number;
  shop_id: number | null;
  till_id: number | null;
  cashier: string | null;
  kind: string;
  k: string;
  rate: number | null;
  a: number;
  b: number;
  /** int8 as text (above 2^53): read with BigInt. */
  first: string;
  last: string;
}

/** One scope's summed facts as the till's totals: entries in the order they first appeared. */
const cmp = (x: bigint, y: bigint): number => (x < y ? -1 : x > y ? 1 : 0);

function totalsOf(rows: readonly SumRow[]): { totals: ReportTotals; first: bigint | null; unreadable: number } {
  const t = emptyTotals();
  const sorted = [...rows].sort((x, y) => cmp(BigInt(x.first), BigInt(y.first)));
  let first: bigint | null = null;
  let unreadable = 0;
  for (const r of sorted) {
    switch (r.kind) {
      case 'o':
        first = BigInt(r.first);
        break;
      case 'x':
        unreadable += r.a;
        break;
      case 'sales':
      case 'refunds':
      case 'advances':
        t[r.kind] = { count: r.a, totalPara: r.b };
        break;
      case 'nf':
        t.notFiscalized = r.a;
        break;
      case 'tr':
        t.trainingExcluded = r.a;
        break;
      case 'tg':
        t.taxGroupChanged = r.a;
        break;
      case 'p':
        t.payments.push([r.k as PaymentType, { sales: r.a, refunds: r.b }]);
        break;
      case 'g':
        (t.gross ??= []).push([r.k, r.rate, r.a]);
        break;
      case 't':
        (t.taxes ??= []).push([r.k, r.rate ?? 0, r.a]);
        break;
      case 'h':
        (t.hours ??= []).push([Number(r.k), { count: Number(r.a), para: Number(r.b) }]);
        break;
    }
  }
  return { totals: t, first, unreadable };
}

/**
 * The report for [from, to) of one shop, or of every shop of the chain when `shopId` is absent. Summed in SQL
 * from the orders' facts (hub/report-facts.ts): closed days from their day rows (hub/report-days.ts), the rest
 * (the ends of the period, today, a till's day that got a late order) from its orders.
 */
export async function hubReport(
  db: Queryable,
  input: ReportInput,
  now = Date.now(),
  zone = DEFAULT_HUB_TIME_ZONE,
): Promise<HubReport> {
  // Today from midnight in the shop's zone, not the hub machine's.
  const start = new Date(dayStart(dayIn(new Date(now), zone), zone));
  const from = input.from ? new Date(input.from).toISOString() : start.toISOString();
  const to = input.to ? new Date(input.to).toISOString() : new Date(now + 1).toISOString();
  const shopId = input.shopId ?? null;
  await fillFacts(db, from, to);
  // Closed days wholly inside the period, and the tills' days among them that got a late order.
  const closed = await db.query<{ day: string; a: string; b: string }>(
    `SELECT to_char(c.day, 'YYYY-MM-DD') AS day, (c.day::timestamp AT TIME ZONE $3) AS a,
            ((c.day + 1)::timestamp AT TIME ZONE $3) AS b
       FROM hub_days_closed c
      WHERE c.day >= ($1::timestamptz AT TIME ZONE $3)::date AND c.day <= ($2::timestamptz AT TIME ZONE $3)::date
        AND (c.day::timestamp AT TIME ZONE $3) >= $1::timestamptz AND ((c.day + 1)::timestamp AT TIME ZONE $3) <= $2::timestamptz
      ORDER BY c.day`,
    [from, to, zone],
  );
  // Closed months wholly inside the period: read from their month rows instead of their days.
  const months = closed.length
    ? (
        await db.query<{ month: string }>(
          `SELECT to_char(m.month, 'YYYY-MM-DD') AS month FROM hub_months_closed m
            WHERE m.month >= ($1::timestamptz AT TIME ZONE $3)::date AND m.month <= ($2::timestamptz AT TIME ZONE $3)::date
              AND (m.month::timestamp AT TIME ZONE $3) >= $1::timestamptz
              AND ((m.month + interval '1 month')::timestamp AT TIME ZONE $3) <= $2::timestamptz
            ORDER BY m.month`,
          [from, to, zone],
        )
      ).map((m) => m.month)
    : [];
  const monthOf = (day: string): string => `${day.slice(0, 8)}01`;
  const inMonths = new Set(months);
  const days = closed.map((c) => c.day);
  const dirty = days.length
    ? await db.query<{ till_id: number; day: string; a: string; b: string }>(
        `SELECT x.till_id, to_char(x.day, 'YYYY-MM-DD') AS day, (x.day::timestamp AT TIME ZONE $3) AS a,
                ((x.day + 1)::timestamp AT TIME ZONE $3) AS b
           FROM hub_days_dirty x JOIN tills t ON t.id = x.till_id
          WHERE x.day = ANY($1::date[]) AND ($2::int4 IS NULL OR t.shop_id = $2)`,
        [days, shopId, zone],
      )
    : [];
  // The period less its closed days: the time ranges read from orders (closed days are consecutive runs).
  const ranges: { a: string; b: string; till: number | null }[] = [];
  let cursor = from;
  for (const c of closed) {
    if (cursor < c.a) ranges.push({ a: cursor, b: c.a, till: null });
    cursor = c.b;
  }
  if (cursor < to) ranges.push({ a: cursor, b: to, till: null });
  for (const d of dirty) ranges.push({ a: d.a, b: d.b, till: d.till_id });
  // A till's month with a dirty day is read from its clean days (and the dirty day from its orders).
  const dirtyMonths = [
    ...new Map(
      dirty.filter((d) => inMonths.has(monthOf(d.day))).map((d) => [`${d.till_id}/${monthOf(d.day)}`, d]),
    ).values(),
  ];
  const params: unknown[] = [
    shopId,
    days.filter((d) => !inMonths.has(monthOf(d))),
    dirty.map((d) => d.till_id),
    dirty.map((d) => d.day),
    zone,
    months,
    dirtyMonths.map((d) => d.till_id),
    dirtyMonths.map((d) => monthOf(d.day)),
  ];
  const branches = ranges.map((r) => {
    params.push(r.a, r.b);
    const range = `o.created_at >= $${params.length - 1}::timestamptz AND o.created_at < $${params.length}::timestamptz`;
    if (r.till !== null) params.push(r.till);
    return `SELECT o.shop_id, o.till_id, coalesce(o.cashier, '') AS cashier, f->>0 AS kind, f->>1 AS k,
                   (f->>2)::float8 AS rate, (f->>3)::int8 AS a, (f->>4)::int8 AS b, ${FACT_POS} AS first, ${FACT_POS} AS last
              FROM orders o CROSS JOIN LATERAL ${factItemsWithHours('$5::text')}
             WHERE ${range} AND ($1::int4 IS NULL OR o.shop_id = $1)${r.till !== null ? ` AND o.till_id = $${params.length}` : ''}`;
  });
  branches.push(`SELECT d.shop_id, d.till_id, d.cashier, d.kind, d.k, d.rate, d.a, d.b, d.first, d.last
                   FROM hub_days d
                  WHERE d.day = ANY($2::date[]) AND ($1::int4 IS NULL OR d.shop_id = $1) AND $5::text IS NOT NULL
                    AND (d.till_id, d.day) NOT IN (SELECT * FROM unnest($3::int4[], $4::date[]))`);
  branches.push(
    `SELECT m.shop_id, m.till_id, m.cashier, m.kind, m.k, m.rate, m.a, m.b, m.first, m.last
         FROM hub_months m
        WHERE m.month = ANY($6::date[]) AND ($1::int4 IS NULL OR m.shop_id = $1)
          AND (m.till_id, m.month) NOT IN (SELECT * FROM unnest($7::int4[], $8::date[]))`,
    `SELECT d.shop_id, d.till_id, d.cashier, d.kind, d.k, d.rate, d.a, d.b, d.first, d.last
         FROM hub_days d
        WHERE (d.till_id, date_trunc('month', d.day)::date) IN (SELECT * FROM unnest($7::int4[], $8::date[]))
          AND ($1::int4 IS NULL OR d.shop_id = $1)
          AND (d.till_id, d.day) NOT IN (SELECT * FROM unnest($3::int4[], $4::date[]))`,
  );
  const sums = await db.query<SumRow>(
    `WITH items AS (${branches.join('\n UNION ALL ')}),
     per AS (SELECT shop_id, till_id, cashier, kind, k, rate, sum(a) AS a, sum(b) AS b, min(first) AS first, max(last) AS last
               FROM items GROUP BY shop_id, till_id, cashier, kind, k, rate)
     SELECT grouping(shop_id, till_id, cashier)::int4 AS g, shop_id, till_id, cashier, kind, k, rate,
            sum(a)::int8 AS a, sum(b)::int8 AS b, min(first)::text AS first, max(last)::text AS last
       FROM per
      GROUP BY GROUPING SETS ((kind, k, rate), (shop_id, kind, k, rate), (shop_id, till_id, kind, k, rate),
                              (cashier, kind, k, rate))`,
    params,
  );
  return reportOf(db, sums, from, to, shopId);
}

/** The report from its summed facts: the totals by shop, till and cashier, named, and the period's shifts. */
async function reportOf(
  db: Queryable,
  sums: readonly SumRow[],
  from: string,
  to: string,
  shopId: number | null,
): Promise<HubReport> {
  const tillName = new Map(
    (await db.query<{ id: number; name: string }>('SELECT id, name FROM tills')).map((t) => [t.id, t.name]),
  );
  const shopName = new Map(
    (await db.query<{ id: number; name: string }>('SELECT id, name FROM shops')).map((t) => [t.id, t.name]),
  );
  const scope = (g: number): Map<string, SumRow[]> => {
    const m = new Map<string, SumRow[]>();
    for (const r of sums) {
      if (r.g !== g) continue;
      const key = `${r.shop_id ?? ''}/${r.till_id ?? ''}/${r.cashier ?? ''}`;
      const list = m.get(key);
      if (list) list.push(r);
      else m.set(key, [r]);
    }
    return m;
  };
  // The rate of a label where no VAT of it was counted: the last one a receipt of the period stated.
  const rates = new Map<string, { rate: number; last: bigint }>();
  for (const r of sums) {
    if (r.g !== 7 || r.kind !== 'r' || r.rate === null) continue;
    const have = rates.get(r.k);
    const last = BigInt(r.last);
    if (!have || last > have.last) rates.set(r.k, { rate: r.rate, last });
  }
  const rateOf = (label: string): number | undefined => rates.get(label)?.rate;
  const head = { from, to };
  const groups = (g: number) =>
    [...scope(g).values()]
      .map((rows) => ({ row: rows[0] as SumRow, ...totalsOf(rows) }))
      .filter((x): x is typeof x & { first: bigint } => x.first !== null)
      .sort((x, y) => cmp(x.first, y.first));
  const totalRows = scope(7).get('//') ?? [];
  const total = totalsOf(totalRows);
  const byProcessor = (['gateway', 'lpfr'] as const).flatMap((processor) => {
    const rows = totalRows.filter((r) => r.kind === 's' && r.k === processor);
    const count = rows.reduce((n, r) => n + Number(r.a), 0);
    return count ? [{ processor, count, netPara: rows.reduce((n, r) => n + Number(r.b), 0) }] : [];
  });
  const cashiers = groups(6);
  // By promotion: the two facts of each rule (lines and quantity; turnover and discount), the largest first.
  const byPromotion = new Map<string, HubPromotionRow>();
  for (const r of totalRows) {
    if (r.kind !== 'pr' && r.kind !== 'pd') continue;
    const [kind, name] = r.k === '' ? [null, null] : (r.k.split('\t', 2) as ['list' | 'promotion', string]);
    const e = byPromotion.get(r.k) ?? { kind, name, lines: 0, quantityMilli: 0, turnoverPara: 0, discountPara: 0 };
    if (r.kind === 'pr') {
      e.lines += Number(r.a);
      e.quantityMilli += Number(r.b);
    } else {
      e.turnoverPara += Number(r.a);
      e.discountPara += Number(r.b);
    }
    byPromotion.set(r.k, e);
  }
  // The total's by-cashier breakdown: each cashier's own sums (orders counted, turnover).
  total.totals.cashiers = cashiers.map(({ row, totals: c }) => [
    row.cashier ?? '',
    {
      count: c.sales.count + c.advances.count + c.refunds.count,
      para: c.sales.totalPara + c.advances.totalPara - c.refunds.totalPara,
    },
  ]);
  return {
    unreadable: total.unreadable,
    byProcessor,
    byPromotion: [...byPromotion]
      .sort(([kx, x], [ky, y]) => y.turnoverPara - x.turnoverPara || (kx < ky ? -1 : kx > ky ? 1 : 0))
      .map(([, row]) => row),
    total: finishReport(total.totals, rateOf, head),
    byShop: groups(3).map(({ row, totals }) => ({
      shopId: row.shop_id ?? 0,
      name: shopName.get(row.shop_id ?? 0) ?? '',
      report: finishReport(totals, rateOf, head),
    })),
    byTill: groups(1).map(({ row, totals }) => ({
      tillId: row.till_id ?? 0,
      name: tillName.get(row.till_id ?? 0) ?? '',
      shopId: row.shop_id ?? 0,
      report: finishReport(totals, rateOf, head),
    })),
    byCashier: cashiers.map(({ row, totals }) => ({
      cashier: row.cashier ?? '',
      report: finishReport(totals, rateOf, { ...head, cashier: row.cashier ?? '' }),
    })),
    shifts: await hubShifts(db, from, to, shopId),
  };
}

/** The shift columns of the CSV, after the till report's; a report line leaves them empty. */
const SHIFT_COLUMNS = [
  'opened',
  'closed',
  'closed_by',
  'float_rsd',
  'cash_sales_rsd',
  'cash_in_rsd',
  'cash_out_rsd',
  'expected_rsd',
  'counted_rsd',
  'difference_rsd',
] as const;

/** The by-promotion columns of the CSV, after the shifts'; other lines leave them empty. */
const PROMOTION_COLUMNS = ['quantity', 'discount_rsd'] as const;

/**
 * The hub report as one CSV: the till report's columns, prefixed by the scope (total, shop:, till:, cashier:),
 * then one `shift` line per till and cashier's shift (scope `till:`, key the cashier) with its own columns:
 * opened and closed in the shop's local time (`timeZone`), the float, cash sales, in, out, expected, counted
 * and the difference (negative: short). A figure not known yet (a shift still open) is empty.
 */
export function hubReportCsv(r: HubReport, timeZone?: string, lang: Language = 'en'): string {
  const q = csvText;
  const { word: w } = reportCsvWords(lang);
  const d = csvDialect(lang);
  const rsd = (para: number | null): string => (para === null ? '' : d.amount(para));
  const when = (iso: string): string => (lang === 'en' ? csvLocalTime(iso, timeZone) : d.moment(iso, timeZone));
  const padding = d.sep.repeat(SHIFT_COLUMNS.length + PROMOTION_COLUMNS.length);
  const out = [
    ['scope', 'section', 'key', 'count', 'amount_rsd', 'tax_rsd', ...SHIFT_COLUMNS, ...PROMOTION_COLUMNS]
      .map(w)
      .join(d.sep),
  ];
  const add = (scope: string, report: ReportView): void => {
    for (const line of reportCsv(report, lang).trimEnd().split('\r\n').slice(1)) {
      out.push(`${q(scope)}${d.sep}${line}${padding}`);
    }
  };
  add(w('total'), r.total);
  for (const p of r.byProcessor)
    out.push([q(w('total')), q(w('processor')), q(p.processor), p.count, rsd(p.netPara), ''].join(d.sep) + padding);
  // Thousandths as a decimal with the dialect's decimal sign, as its amounts.
  const quantity = (milli: number): string => {
    const v = (milli / 1000).toFixed(3);
    return d.sep === ';' ? v.replace('.', ',') : v;
  };
  // By promotion: count the lines, amount the turnover, then the quantity and the discount in their own columns.
  for (const p of r.byPromotion)
    out.push(
      [
        q(w('total')),
        q(w('promotion')),
        q(p.name ?? w('no_promotion')),
        p.lines,
        rsd(p.turnoverPara),
        '',
        ...SHIFT_COLUMNS.map(() => ''),
        quantity(p.quantityMilli),
        rsd(p.discountPara),
      ].join(d.sep),
    );
  for (const s of r.byShop) add(`${w('shop')}:${s.name}`, s.report);
  for (const t of r.byTill) add(`${w('till')}:${t.name}`, t.report);
  for (const c of r.byCashier) add(`${w('cashier')}:${c.cashier}`, c.report);
  for (const s of r.shifts) {
    out.push(
      [
        q(`${w('till')}:${s.tillName}`),
        q(w('shift')),
        q(s.cashier),
        '',
        '',
        '',
        q(when(s.openedAt)),
        s.closedAt === null ? '' : q(when(s.closedAt)),
        s.closedBy === null ? '' : q(s.closedBy),
        rsd(s.openingFloatPara),
        rsd(s.cashSalesPara),
        rsd(s.cashInPara),
        rsd(s.cashOutPara),
        rsd(s.expectedPara),
        rsd(s.countedPara),
        rsd(s.differencePara),
      ].join(d.sep) + d.sep.repeat(PROMOTION_COLUMNS.length),
    );
  }
  return out.join('\r\n') + '\r\n';
}

/** How long a till may stay silent, and an order unfiscalized, before the hub raises an alarm. */
export const ALARM_SILENT_MS = 2 * 60_000;
export const ALARM_UNFISCALIZED_MS = 60 * 60_000;

/** The printer cannot print now: receipts wait (or sit in its buffer) until someone at the till fixes it. */
export function printerStopped(p: TillPrinter): boolean {
  return (
    p.state === 'stopped' ||
    p.state === 'offline' ||
    p.state === 'failed' ||
    p.paper === 'out' ||
    p.coverOpen === true ||
    (p.error !== null && p.error !== 'none')
  );
}

/** The live view of one till from what it last reported. */
export function tillLive(
  t: {
    tillId: number;
    name: string;
    shopId: number;
    lastSeen: string | null;
    status: TillStatus | null;
    gaps: { from: number; to: number }[];
    refusal?: TillRefusal | null;
    claims?: InvoiceClaim[];
    revoked?: boolean;
  },
  now = Date.now(),
): TillLive {
  const online = t.lastSeen !== null && now - Date.parse(t.lastSeen) <= ALARM_SILENT_MS;
  const s = t.status;
  const alarms: TillLive['alarms'] = [];
  if (!online) alarms.push('silent');
  if ((s?.needsAttention ?? 0) > 0) alarms.push('needs_attention');
  if (s?.oldestQueuedAt && now - Date.parse(s.oldestQueuedAt) > ALARM_UNFISCALIZED_MS) alarms.push('old_unfiscalized');
  if (t.gaps.length) alarms.push('gap');
  if (s?.printer && printerStopped(s.printer)) alarms.push('printer_stopped');
  if (s?.printer?.unconfirmed) alarms.push('printer_unconfirmed');
  if (t.refusal) alarms.push('batch_refused');
  if (t.claims?.length) alarms.push('invoice_claimed');
  const revoked = t.revoked ?? false;
  if (revoked) alarms.length = 0;
  return {
    revoked,
    tillId: t.tillId,
    name: t.name,
    shopId: t.shopId,
    online,
    lastSeen: t.lastSeen,
    queued: s?.queued ?? 0,
    needsAttention: s?.needsAttention ?? 0,
    oldestUnfiscalizedAt: s?.oldestQueuedAt ?? null,
    hubQueued: s?.hubQueued ?? 0,
    gaps: t.gaps,
    printer: s?.printer ?? null,
    refusal: t.refusal ?? null,
    claims: t.claims ?? [],
    alarms,
  };
}
