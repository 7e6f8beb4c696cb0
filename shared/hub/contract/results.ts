/**
 * What the hub answers, as both sides read it: the tills' live status, the report, the enrolment codes, the
 * catalog's pages. The hub's handlers must answer exactly these (hub/router.ts checks it at type-check time), and
 * the hub UI and the till read them through shared/hub/client.ts: no wire shape is copied by hand.
 */
import type { ReportView } from '../../contract/reports.ts';
import type { ProductInput, TillPrinter, TillRefusal } from '../protocol.ts';

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
  /**
   * The period's fiscalized orders by the processor that signed them (docs/lpfr.md): the gateway (a V-PFR in
   * the cloud) or a shop's L-PFR; `netPara` is their turnover (sales and advances less refunds).
   */
  byProcessor: { processor: 'gateway' | 'lpfr'; count: number; netPara: number }[];
  /**
   * The period's sales and refunds by the price list or promotion that priced each line (issue 42; refunds
   * subtracted): lines, quantity (thousandths), turnover and the discount given. `name` null: lines no rule priced
   * („без акције“, every line of an order pushed before tills named the rule). The turnovers add up to the sales
   * less the refunds.
   */
  byPromotion: HubPromotionRow[];
  /** The tills' shifts open at some time in [from, to), by till and then by the time they opened. */
  shifts: HubShift[];
}

/** One rule's share of a report (`HubReport.byPromotion`). */
export interface HubPromotionRow {
  kind: 'list' | 'promotion' | null;
  name: string | null;
  lines: number;
  quantityMilli: number;
  turnoverPara: number;
  discountPara: number;
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
  /**
   * `invoice_claimed`: another order of the shop holds the number; `invoice_unproven`: the number's signer is the
   * holder till's and this till never used it (hub/till-trust.ts). Absent on claims from before.
   */
  code?: string;
}

export type EnrolCodeState = 'open' | 'used' | 'expired' | 'revoked';

/** One code of a shop as the hub UI lists it: no secret in it. */
export interface EnrolCodeRow {
  id: number;
  shopId: number;
  createdAt: string;
  /** When it stops being spendable (ISO). */
  expiresAt: string;
  usedAt: string | null;
  /** The till it enrolled, once used. */
  tillId: number | null;
  revokedAt: string | null;
  state: EnrolCodeState;
}

/** The hub's maintenance alarm: the failing task, its last error and since when; null while every task works. */
export interface MaintenanceAlarm {
  failing: true;
  task: string;
  error: string;
  since: string;
  at: string;
}

/** The hub's health (`GET /api/health`): `maintenance` says whether the day closer works. */
export interface HubHealth {
  ok: boolean;
  db: string;
  /** The SHA-256 of the certificate the hub serves (64 hex digits), null for plain HTTP on loopback. */
  fingerprint: string | null;
  maintenance: 'ok' | 'failing';
}

/** A shop of the hub, as the login's shop picker lists it. */
export interface HubShop {
  id: number;
  name: string;
}

/** A product of the shop as the hub's catalog lists it. */
export type HubProduct = ProductInput & { version: number };

/** A page of the shop's catalog: `next` is the last code shown, null on the last page; `total` the shop's count. */
export interface HubProductPage {
  products: HubProduct[];
  next: string | null;
  total: number;
}
