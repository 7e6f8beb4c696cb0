/**
 * Domain types shared by the core and the UI. Money is integer para, quantities integer thousandths.
 */
import type { Milli, Para } from './money.ts';

/** A line discount above this share of the line (percent) needs a manager, unless the shop sets its own. */
export const DEFAULT_DISCOUNT_LIMIT_PERCENT = 10;

export const PAYMENT_TYPES = [
  'cash',
  'card',
  'wireTransfer',
  'check',
  'voucher',
  'mobileMoney',
  'virman',
  'mobile',
  'factoring',
  'account',
  'other',
] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

export const INVOICE_TYPES = ['normal', 'training', 'advance', 'proforma', 'copy'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];

export const TRANSACTION_TYPES = ['sale', 'refund', 'finalize'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/**
 * The public state of an order.
 * - `queued`: saved, not yet fiscalized (never attempted, retrying, waiting for the network or for a
 *   referenced order). Shown to people as NOT YET FISCALIZED.
 * - `fiscalized`: the gateway issued its receipt; the receipt is stored.
 * - `needs_attention`: the gateway rejected it (validation, Tax Administration); a manager must fix
 *   and resend it.
 */
export type OrderState = 'queued' | 'fiscalized' | 'needs_attention';

/** What kind of gateway request an order becomes. */
export type OrderKind = 'sale' | 'refund' | 'refund_full' | 'finalize' | 'copy';

/**
 * Which fiscal processor signs an order (docs/lpfr.md): the Fiscal Receipt Gateway (a V-PFR in the cloud)
 * or the shop's local processor (L-PFR) on its LAN.
 */
export type Processor = 'gateway' | 'lpfr';

/**
 * True for an invoice number signed on an L-PFR: `requestedBy-signedBy-counter` where the same smart card
 * requested and signed, so both parts are equal. A V-PFR signs with its own UID, which differs
 * (../shared/spec/lpfr-api-notes.md, section 5).
 */
export function isLpfrInvoiceNumber(invoiceNumber: string): boolean {
  const [requestedBy, signedBy, counter] = invoiceNumber.split('-');
  return requestedBy !== undefined && requestedBy.length > 0 && requestedBy === signedBy && counter !== undefined;
}

export interface OrderLine {
  name: string;
  quantityMilli: Milli;
  unitPricePara: Para;
  discountPara: Para;
  totalPara: Para;
  labels: string[];
  gtin?: string;
  /** The catalog product the line sold (its price checked against the catalog's at checkout). */
  productId?: number;
  /** That product's code, kept with the sale: the store hub's stock book knows products by code (docs/goods.md). */
  code?: string;
  /** A hand-typed item: the line named no catalog product (neither `productId` nor `gtin`). */
  handTyped?: true;
  /**
   * The promotion or price list that gave the line its price (its name), when its discount is the rule's: the
   * receipt item names it with the regular price it replaces (docs/prices.md, "On the receipt").
   */
  priceRule?: string;
  /** What `priceRule` names: a price list or a promotion (the hub's report by promotion, docs/prices.md). */
  priceRuleKind?: 'list' | 'promotion';
}

export interface OrderPayment {
  type: PaymentType;
  amountPara: Para;
}

export interface TaxItemView {
  label: string;
  rate: number;
  amountPara: Para;
  categoryName: string;
}

/** The fiscal receipt as stored with the order. */
export interface ReceiptView {
  invoiceNumber: string;
  invoiceCounter: string;
  invoiceCounterExtension: string;
  invoiceType: string;
  transactionType: string;
  sdcDateTime: string;
  verificationUrl: string;
  invoicePdfUrl: string;
  totalPara: Para;
  journal: string;
  taxItems: TaxItemView[];
  businessName: string;
  locationName: string;
}

/** The gateway's last complaint about an order, in its own words. */
export interface GatewayErrorView {
  status: number | null;
  code: string | null;
  message: string;
  userMessage?: string;
  correlationId?: string;
  /** Tax Administration reason (e.g. "2310") when the gateway forwarded one. */
  reason?: string;
  fields?: { field: string; message: string }[];
}

export interface OrderView {
  orderId: number;
  orderNumber: string;
  kind: OrderKind;
  invoiceType: InvoiceType;
  transactionType: TransactionType;
  state: OrderState;
  createdAt: string;
  totalPara: Para;
  changePara: Para;
  lines: OrderLine[];
  payments: OrderPayment[];
  buyerId?: string;
  email?: string;
  cashier?: string;
  /** Paid by an IPS instant transfer: the reference (model 97) the transfer carries, tying it to this order. */
  ipsReference?: string;
  /** The order this one refers to (refund, copy, finalize), if any. */
  referencedOrderId?: number;
  referentDocumentNumber?: string;
  receipt?: ReceiptView;
  /** Which fiscal processor signed it: the gateway, or the shop's L-PFR (set once fiscalized). */
  processor?: Processor;
  /** For finalize: the advance refund receipt the gateway issued first. */
  extraReceipts?: ReceiptView[];
  lastError?: GatewayErrorView;
  attempts: number;
  /** True when an attempt's outcome is unknown (crash or lost response) and not yet reconciled. */
  unknown: boolean;
  /** Issued under another tax-rate group than the one in force at capture (a note for the manager, not a park). */
  taxGroupChanged?: { capturedGroupId: number; issuedGroupId: string };
  /** Fiscalized with its own receipt, whose items/payments differ from what was sent ("differs — check"). */
  receiptCheck?: ReceiptCheckView;
}

/** What differs between the receipt and the order, field by field (docs/outbox.md). */
export interface ReceiptCheckView {
  invoiceNumber: string;
  at: string;
  fields: { field: string; expected: string; got: string }[];
}

export interface SyncStatus {
  online: boolean;
  /** Set when the engine is paused: `auth` after 401/403 until the key is fixed. */
  paused: 'auth' | null;
  queued: number;
  needsAttention: number;
  /** ISO time of the oldest order not yet fiscalized, or null. */
  oldestQueuedAt: string | null;
  lastSuccessAt: string | null;
  lastError: string | null;
  /**
   * The gateway's clock (`sdcDateTime` of the last freshly issued receipt) minus the till's clock at
   * that moment, in ms; null until a receipt was issued in this run.
   */
  clockDriftMs?: number | null;
  /**
   * The L-PFR's clock (its status' `sdcDateTime`, read just before a signing) minus the till's clock, in ms; null
   * until the L-PFR signed in this run, or when none is set up.
   */
  lpfrClockDriftMs?: number | null;
  /**
   * Set (localized) when |clockDriftMs| or |lpfrClockDriftMs| exceeds the `clockDriftMaxMs` setting (default 5
   * minutes): one sentence per clock that is off, naming it (the fiscal service's, the local PFR's).
   */
  clockWarning?: string | null;
  /** The shop's local fiscal processor: null when none is set up (docs/lpfr.md). */
  lpfr?: LpfrState | null;
}

/**
 * How the shop's L-PFR is, as the engine last found it: `ready` signs now; the others say why not (it does not
 * answer; its card is out; it waits for the PIN; it refused the stored PIN; the card is locked after wrong PINs;
 * the secure element waits for an audit; any other refusal). `unknown`: not asked yet.
 */
export type LpfrState =
  | 'unknown'
  | 'ready'
  | 'unreachable'
  | 'card_absent'
  | 'pin_required'
  | 'pin_wrong'
  | 'card_locked'
  | 'audit_locked'
  | 'error';

export interface TaxLabel {
  label: string;
  rate: number;
  categoryName: string;
  categoryType: number;
}

export interface TaxRatesView {
  groupId: number;
  validFrom: string;
  labels: TaxLabel[];
  fetchedAt: string;
  /**
   * The shop's usual label, the one a new item starts with: the current label most used by the catalog's
   * products, else the general rate's (the highest rate). Set by `taxRates.get`.
   */
  usualLabel?: string;
}

export type Language = 'sr-Cyrl' | 'sr-Latn' | 'en';
export const LANGUAGES: readonly Language[] = ['sr-Cyrl', 'sr-Latn', 'en'];

/**
 * Whether a sale that takes money may be made while neither the gateway nor an L-PFR can sign it (setting
 * `offlineSales`, Менаџер → Подешавања): `allowed` with the non-fiscal slip and the unfiscalized limits
 * (default), or `refused`. Decided in the core at checkout (electron/sales/service.ts).
 */
export type OfflineSales = 'allowed' | 'refused';
export const DEFAULT_OFFLINE_SALES: OfflineSales = 'allowed';

export interface AppInfo {
  version: string;
  /** `demo` when the embedded sandbox gateway is in use (no API key configured). */
  mode: 'demo' | 'live';
  /** True when the account's tax labels are the test group (a demo account, even with a real key). */
  demoAccount: boolean;
  language: Language;
  terminalId: string;
  trainingMode: boolean;
  transport: 'electron' | 'host';
  /**
   * A new till: no manager has set a PIN yet (only the first-run manager with PIN 0000 exists). The login
   * screen then says how to begin. The first-run PIN is public knowledge (README), so this reveals nothing.
   */
  firstRun: boolean;
  /**
   * The till was new and its setup flow (shop and till names, language, printer, catalog) is not finished:
   * a manager who logs in is shown it. Never true on a till that was set up before the flow existed.
   */
  setupPending?: boolean;
  /** The names the owner gave the shop and the till in the setup flow or the settings ('' or absent: none). */
  shopName?: string;
  tillName?: string;
  /** The shop's choice for sales nobody can sign (the counter's outage banner says which applies). */
  offlineSales?: OfflineSales;
  /**
   * The till has opened a shift once: from then on a sale, a refund and an advance need an open shift (the core
   * refuses them with `shift_required`, docs/shifts.md); the counter says so before anything is rung up.
   */
  worksInShifts?: boolean;
}
