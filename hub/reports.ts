/**
 * The shop's (or the chain's) day at the hub: the till's report (shared/reports/view.ts, the same
 * sums) over every till's orders, in total and per shop, till, cashier; payment types and tax labels are
 * the report's own breakdowns. Tax rates come from the gateway's receipts themselves (their taxItems), so
 * the hub needs no gateway access. Also the live status of every till, with the alarms a manager must see.
 */
import { reportCsvWords } from '../shared/i18n/report-csv.ts';
import { csvText, reportCsv, summarizeOrders, type OrderData, type ReportOrder } from '../shared/reports/view.ts';
import { paraToDecimal } from '../shared/money.ts';
import type { ReportView } from '../shared/contract/reports.ts';
import type { Language, OrderKind } from '../shared/domain.ts';
import type { Queryable } from './db/db.ts';
import { OrderDataSchema, OrderReceiptData } from '../shared/order-data.ts';
import type { ReportInput, TillPrinter, TillRefusal, TillStatus } from '../shared/hub/protocol.ts';

export interface HubReport {
  /**
   * Orders of the period the till's order shape cannot read (stored before the hub checked it): left out of
   * every sum, counted here so a manager knows the report is short.
   */
  unreadable: number;
  total: ReportView;
  byShop: { shopId: number; name: string; report: ReportView }[];
  byTill: { tillId: number; name: string; shopId: number; report: ReportView }[];
  byCashier: { cashier: string; report: ReportView }[];
  /** The tills' shifts open at some time in [from, to), by till and then by the time they opened. */
  shifts: HubShift[];
}

/** A till's shift as the hub shows it: the till's own figures (expected, counted: null while open). */
export interface HubShift {
  tillId: number;
  tillName: string;
  shopId: number;
  shiftId: number;
  cashier: string;
  openedAt: string;
  closedAt: string | null;
  closedBy: string | null;
  openingFloatPara: number;
  /** Closed: the cash the till counted its sales with (expected − float − cash in + cash out). */
  cashSalesPara: number | null;
  cashInPara: number;
  cashOutPara: number;
  expectedPara: number | null;
  countedPara: number | null;
  /** counted − expected: negative is short. */
  differencePara: number | null;
}

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

interface Row {
  shop_id: number;
  shop_name: string;
  till_id: number;
  till_name: string;
  cashier: string | null;
  kind: OrderKind;
  invoice_type: string;
  state: string;
  total_para: number;
  data: OrderData;
  receipt: {
    taxItems?: { label?: unknown; rate?: unknown; amount?: unknown }[];
    transactionType?: string;
    additional?: { taxGroupRevision?: unknown };
  } | null;
}

/** A hub row as the till's report sums it: VAT from its receipt's taxItems, the tax-group note. */
function reportOrder(r: Row): ReportOrder {
  const captured = (r.data as { taxGroup?: { groupId?: unknown } }).taxGroup?.groupId;
  const issued = r.receipt?.additional?.taxGroupRevision;
  return {
    ...r,
    // A finalize's advance refund is not in the hub's snapshot: its final sale alone would count the
    // advance's VAT twice, so a finalize adds no VAT here (today it takes no new money; see docs/hub.md).
    receipts: r.receipt && r.kind !== 'finalize' ? [r.receipt] : [],
    taxGroupChanged:
      r.state === 'fiscalized' && captured != null && issued != null && String(captured) !== String(issued),
  };
}

/** The report for [from, to) of one shop, or of every shop of the chain when `shopId` is absent. */
export async function hubReport(db: Queryable, input: ReportInput, now = Date.now()): Promise<HubReport> {
  const start = new Date(now);
  start.setHours(0, 0, 0, 0);
  const from = input.from ? new Date(input.from).toISOString() : start.toISOString();
  const to = input.to ? new Date(input.to).toISOString() : new Date(now + 1).toISOString();
  const all = await db.query<Row>(
    `SELECT o.shop_id, s.name AS shop_name, o.till_id, t.name AS till_name, o.cashier, o.kind, o.invoice_type, o.state,
            o.total_para, o.data, o.receipt
       FROM orders o JOIN tills t ON t.id = o.till_id JOIN shops s ON s.id = o.shop_id
      WHERE o.created_at >= $1 AND o.created_at < $2 AND ($3::int4 IS NULL OR o.shop_id = $3)
      ORDER BY o.created_at`,
    [from, to, input.shopId ?? null],
  );
  // Each order is read with the till's order shape: one the hub took before it checked pushes is left out
  // (and counted), never allowed to break the report of its whole period.
  const rows = all.filter(
    (r) =>
      OrderDataSchema.safeParse(r.data).success &&
      (r.receipt === null || OrderReceiptData.safeParse(r.receipt).success),
  );
  const rates = new Map<string, number>();
  for (const r of rows) {
    for (const t of r.receipt?.taxItems ?? [])
      if (typeof t.label === 'string' && typeof t.rate === 'number') rates.set(t.label, t.rate);
  }
  const sum = (list: readonly Row[], cashier?: string): ReportView =>
    summarizeOrders(list.map(reportOrder), (label) => rates.get(label), {
      from,
      to,
      ...(cashier !== undefined ? { cashier } : {}),
    });
  const groups = <K>(key: (r: Row) => K): Map<K, Row[]> => {
    const m = new Map<K, Row[]>();
    for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
    return m;
  };
  return {
    unreadable: all.length - rows.length,
    total: sum(rows),
    byShop: [...groups((r) => r.shop_id)].map(([shopId, list]) => ({
      shopId,
      name: list[0]?.shop_name ?? '',
      report: sum(list),
    })),
    byTill: [...groups((r) => r.till_id)].map(([tillId, list]) => ({
      tillId,
      name: list[0]?.till_name ?? '',
      shopId: list[0]?.shop_id ?? 0,
      report: sum(list),
    })),
    byCashier: [...groups((r) => r.cashier ?? '')].map(([cashier, list]) => ({ cashier, report: sum(list, cashier) })),
    shifts: await hubShifts(db, from, to, input.shopId ?? null),
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

/**
 * A time as a spreadsheet reads it, in the shop's local time: `2026-11-26 08:05` in `timeZone` (an IANA name,
 * the hub's own zone when absent). The shop's clock, not UTC: a manager compares it with the till's slip.
 */
export function csvLocalTime(iso: string, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

/**
 * The hub report as one CSV: the till report's columns, prefixed by the scope (total, shop:, till:, cashier:),
 * then one `shift` line per till and cashier's shift (scope `till:`, key the cashier) with its own columns:
 * opened and closed in the shop's local time (`timeZone`), the float, cash sales, in, out, expected, counted
 * and the difference (negative: short). A figure not known yet (a shift still open) is empty.
 */
export function hubReportCsv(r: HubReport, timeZone?: string, lang: Language = 'en'): string {
  const q = csvText;
  const { word: w } = reportCsvWords(lang);
  const rsd = (para: number | null): string => (para === null ? '' : paraToDecimal(para).toFixed(2));
  const padding = ','.repeat(SHIFT_COLUMNS.length);
  const out = [['scope', 'section', 'key', 'count', 'amount_rsd', 'tax_rsd', ...SHIFT_COLUMNS].map(w).join(',')];
  const add = (scope: string, report: ReportView): void => {
    for (const line of reportCsv(report, lang).trimEnd().split('\r\n').slice(1)) {
      out.push(`${q(scope)},${line}${padding}`);
    }
  };
  add(w('total'), r.total);
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
        q(csvLocalTime(s.openedAt, timeZone)),
        s.closedAt === null ? '' : q(csvLocalTime(s.closedAt, timeZone)),
        s.closedBy === null ? '' : q(s.closedBy),
        rsd(s.openingFloatPara),
        rsd(s.cashSalesPara),
        rsd(s.cashInPara),
        rsd(s.cashOutPara),
        rsd(s.expectedPara),
        rsd(s.countedPara),
        rsd(s.differencePara),
      ].join(','),
    );
  }
  return out.join('\r\n') + '\r\n';
}

/** How long a till may stay silent, and an order unfiscalized, before the hub raises an alarm. */
export const ALARM_SILENT_MS = 2 * 60_000;
export const ALARM_UNFISCALIZED_MS = 60 * 60_000;

export interface TillLive {
  tillId: number;
  name: string;
  shopId: number;
  online: boolean;
  lastSeen: string | null;
  queued: number;
  needsAttention: number;
  oldestUnfiscalizedAt: string | null;
  hubQueued: number;
  gaps: { from: number; to: number }[];
  /** The receipt printer as the till last reported it; null for a till that does not report it. */
  printer: TillPrinter | null;
  /** The till's last batch the hub refused whole while it lasts (the till keeps it and stops retrying it). */
  refusal: TillRefusal | null;
  /** Orders of this till refused because their invoice number belongs to another order of the shop. */
  claims: InvoiceClaim[];
  /** The till's credential was revoked at the hub: it is refused on every till route and raises no alarm. */
  revoked: boolean;
  /**
   * Why a manager must look: not seen, sales needing attention, an old unfiscalized sale, lost history, the
   * printer not printing (paper out, cover open, an error, out of reach), a receipt the cashier must confirm.
   */
  alarms: TillAlarm[];
}

/**
 * Why a manager must look. `batch_refused`: the hub refused the till's oldest batch (a malformed order, a NUL
 * …), so its history stopped reaching the hub. `invoice_claimed`: the till pushed an order under an invoice
 * number another order of the shop holds (a forgery, or a re-enrolled till); cleared by a manager.
 */
export type TillAlarm =
  | 'silent'
  | 'needs_attention'
  | 'old_unfiscalized'
  | 'gap'
  | 'printer_stopped'
  | 'printer_unconfirmed'
  | 'batch_refused'
  | 'invoice_claimed';

/** An order refused for its invoice number, with the order that holds the number. */
export interface InvoiceClaim {
  seq: number;
  orderNumber: string;
  invoiceNumber: string;
  holderTillId: number | null;
  holderOrderNumber: string | null;
  at: string;
}

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
