/**
 * Manager and back-office commands: staff and PINs, approvals, refunds, the advance chain, fiscal copies,
 * the archive, e-mail, settings (API key, gateway) and end-of-day reports.
 *
 * Sensitive commands carry `managerPin`: the core checks it against the active managers' scrypt hashes
 * (constant time) and writes the action with the manager's name to the audit log. A cashier's PIN is
 * refused (`forbidden`).
 */
import { z } from 'zod';
import { command, event } from './define.ts';
import * as s from './schemas.ts';
import { CheckoutLine } from './sales.ts';
import type {
  GatewayErrorView,
  InvoiceType,
  Language,
  OrderState,
  OrderView,
  PaymentType,
  ReceiptView,
} from '../domain.ts';
import type { Para, Milli } from '../money.ts';

/** A PIN: 4 to 8 digits. */
export const pin = z.string({ error: 'text' }).regex(/^\d{4,8}$/, { error: 'pin_format' });
export const role = z.enum(['cashier', 'manager'], { error: 'invalid' });
const isoDate = z.string({ error: 'text' }).refine((v) => !Number.isNaN(Date.parse(v)), { error: 'date' });
const page = z.number({ error: 'number' }).int({ error: 'integer' }).min(1, { error: 'positive' });
const limit = z
  .number({ error: 'number' })
  .int({ error: 'integer' })
  .min(1, { error: 'positive' })
  .max(100, { error: 'too_many' });

export type StaffRole = z.infer<typeof role>;

/** A person who can log in at the till. PINs never leave the core. */
export interface StaffView {
  id: number;
  name: string;
  role: StaffRole;
  active: boolean;
  email?: string;
  phone?: string;
  /** The gateway's cashier id, when the person is registered there. */
  gatewayId?: number;
  /** True for the default manager until its first-run PIN is changed. */
  mustChangePin: boolean;
}

/** #21: an open advance's chain (first to last) and what it paid net of refunds: the final receipt's `advanceAmount`. */
export interface AdvanceChainView {
  orderId: number;
  advances: { orderId: number; orderNumber: string; invoiceNumber?: string; totalPara: Para; refundedPara: Para }[];
  paidPara: Para;
}

/** A line of an order that can be refunded, with what is left of it. */
export interface RefundableLine {
  index: number;
  name: string;
  labels: string[];
  unitPricePara: Para;
  soldMilli: Milli;
  refundedMilli: Milli;
  remainingMilli: Milli;
}

/** What a refund would refer to. Lines are known for local orders; an archive-only receipt is refunded in full. */
export interface RefundSource {
  orderId?: number;
  orderNumber?: string;
  invoiceNumber?: string;
  sdcDateTime?: string;
  invoiceType: InvoiceType;
  state: OrderState | 'archived';
  totalPara: Para;
  lines: RefundableLine[];
  payments: { type: PaymentType; amountPara: Para }[];
  /** Full refund is possible only while nothing of it was refunded. */
  fullRefundAllowed: boolean;
  /** #21: the original's buyer ID, which a refund takes over. */
  buyerId?: string;
  /** #21: `10:` + the seller's own PIB, the buyer ID of a correction without refund of money (absent: not known yet). */
  sellerBuyerId?: string;
  /** #21: the manager's setting allows a refund without a buyer ID. */
  withoutBuyerIdAllowed?: boolean;
}

/** One issued (or locally queued) receipt in the archive list. */
export interface ArchiveRow {
  source: 'local' | 'gateway';
  orderId?: number;
  orderNumber: string;
  invoiceNumber?: string;
  invoiceType: string;
  transactionType: string;
  state: OrderState | 'issued';
  sdcDateTime?: string;
  createdAt?: string;
  totalPara: Para;
  paymentTypes: string[];
  referentDocumentNumber?: string;
}

export interface ArchiveDetail {
  receipt: ReceiptView;
  qrCodeFileUrl?: string;
  orderId?: number;
  chain: {
    invoiceNumber: string;
    invoiceType: string;
    transactionType: string;
    orderNumber: string;
    totalPara: Para;
  }[];
}

export interface LookupRow {
  orderNumber: string;
  fiscalized: boolean;
  invoiceNumber?: string;
  sdcDateTime?: string;
  localState?: OrderState;
}

export interface EmailView {
  id: number;
  state: 'queued' | 'sent' | 'failed';
  email: string;
  invoiceNumber?: string;
  orderId?: number;
  lastError?: GatewayErrorView;
}

/** The gateway account as the key reports it. The key itself is never returned: only `maskedKey`. */
export interface AccountView {
  mode: 'demo' | 'live';
  maskedKey: string | null;
  gatewayUrl: string | null;
  shopId?: string;
  shopName?: string;
  companyId?: string;
  companyName?: string;
  keyName?: string;
  keyVersion?: string;
  /** Judged from the tax labels: Latin test labels = demo, Cyrillic = production. */
  environment: 'demo' | 'production' | 'unknown';
  labels: string[];
}

export interface SettingsView {
  language: Language;
  terminalId: string;
  gatewayUrl: string | null;
  trainingMode: boolean;
  outageWarnMinutes: number;
  outageAlarmMinutes: number;
  account: AccountView;
  /** #21: refunds may go without a buyer ID (`settings.skipBuyerIdValidation`); default off. */
  allowRefundWithoutBuyerId?: boolean;
}

export interface ReportView {
  from: string;
  to: string;
  cashier?: string;
  sales: { count: number; totalPara: Para };
  refunds: { count: number; totalPara: Para };
  /** Net per payment type (sales minus refunds). */
  byPayment: { type: PaymentType; salesPara: Para; refundsPara: Para; netPara: Para }[];
  /** Net per tax label, with the VAT contained, from the cached rates. */
  byLabel: { label: string; rate: number; netPara: Para; taxPara: Para }[];
  advances: { count: number; totalPara: Para };
  /** Orders in the period not yet fiscalized (queued or needing attention). */
  notFiscalized: number;
  trainingExcluded: number;
  // #21 reports
  /** VAT per label and rate: the sum of the issued receipts' taxItems, refunds subtracted (a label at two rates across a change: two rows). */
  byTax: { label: string; rate: number; taxPara: Para }[];
  /** The VAT of the period: the sum of `byTax`. */
  taxPara: Para;
  /** Orders issued under another tax-rate group than the one in force at capture. */
  taxGroupChanged: number;
}

export interface BackupsView {
  /** `chain`: a restore point's type and the point it is built on (absent: a whole-database `.sqlite` copy). */
  backups: {
    name: string;
    kind: string;
    createdAt: string;
    bytes: number;
    chain?: { type: string; parent: string | null };
  }[];
  /** `pending`: the check runs in the background after start-up and has not finished yet. */
  integrity: { ok: boolean; problems: string[]; pending?: boolean };
  lastBackupError: string | null;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: string | null;
  /** The manager who approved the action, when one did. */
  approver: string | null;
  action: string;
  detail: string | null;
}

const managerPin = pin;
const refundLine = z.strictObject({
  index: z.number({ error: 'number' }).int({ error: 'integer' }).min(0, { error: 'non_negative' }),
  quantity: s.quantity,
});

export const RefundInput = z
  .strictObject({
    managerPin,
    /** The original: a local order, or an invoice number (local or from the gateway archive). */
    orderId: s.id.optional(),
    invoiceNumber: z
      .string({ error: 'text' })
      .trim()
      .min(3, { error: 'required' })
      .max(60, { error: 'too_long' })
      .optional(),
    /** Partial refund: the lines and quantities (positive) to refund. */
    lines: z
      .array(refundLine, { error: 'lines' })
      .min(1, { error: 'lines' })
      .max(500, { error: 'too_many' })
      .optional(),
    /** Refund everything through the full-refund endpoint. */
    full: z.boolean({ error: 'boolean' }).optional(),
    buyerId: s.buyerId.optional(),
    /** `settings.skipBuyerIdValidation`: only where the manager's setting `allowRefundWithoutBuyerId` allows it. */
    skipBuyerId: z.boolean({ error: 'boolean' }).optional(),
    /** A correction without refund of money (a mistake): the buyer ID is the seller's own PIB. Absent buyerId: the original's. */
    correction: z.boolean({ error: 'boolean' }).optional(),
    paymentType: s.paymentType,
    cashier: s.text(60).optional(),
  })
  .refine((v) => v.orderId !== undefined || v.invoiceNumber !== undefined, {
    error: 'required',
    path: ['invoiceNumber'],
  })
  .refine((v) => v.full === true || v.lines !== undefined, { error: 'lines', path: ['lines'] });
export type RefundInput = z.infer<typeof RefundInput>;

const archiveFilters = {
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  orderNumber: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).optional(),
  invoiceNumber: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).optional(),
  invoiceType: s.invoiceType.optional(),
  transactionType: z.enum(['sale', 'refund', 'finalize'], { error: 'invalid' }).optional(),
  paymentType: s.paymentType.optional(),
};

const reportRange = {
  /** ISO start (inclusive); default: today 00:00 local time. */
  from: isoDate.optional(),
  /** ISO end (exclusive); default: now. */
  to: isoDate.optional(),
  cashier: s.text(60).optional(),
};

export const managerCommands = {
  'staff.login': command<StaffView>()(
    z.strictObject({ pin }),
    'Identifies the person by PIN (scrypt hash, constant-time compare). Wrong PIN: forbidden.',
  ),
  'staff.approve': command<{ approvedBy: string }>()(
    z.strictObject({
      managerPin,
      action: z.string({ error: 'text' }).trim().min(1).max(60),
      detail: z.string().max(500).optional(),
    }),
    'Manager approval for a counter action (void after payment, price override, training toggle); audited.',
  ),
  'staff.logout': command<{ loggedOut: true }>()(s.empty, 'Ends the session of the person logged in at this till.'),
  'staff.list': command<{ staff: StaffView[]; online: boolean }>()(
    z.strictObject({ search: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).optional() }),
    'People who can log in; cashiers are refreshed from the gateway /cashiers when online, else from the local cache.',
  ),
  'staff.create': command<StaffView>()(
    z.strictObject({
      managerPin,
      name: s.text(100),
      role,
      pin,
      email: s.email.optional(),
      phone: z
        .string({ error: 'text' })
        .regex(/^\+?[0-9 /-]{5,20}$/, { error: 'phone' })
        .optional(),
    }),
    'Creates a cashier on the gateway (/cashiers, needs the network) and locally with a hashed PIN.',
  ),
  'staff.update': command<StaffView>()(
    z.strictObject({
      managerPin,
      id: s.id,
      name: s.text(100).optional(),
      role: role.optional(),
      pin: pin.optional(),
      email: s.email.optional(),
      phone: z
        .string({ error: 'text' })
        .regex(/^\+?[0-9 /-]{5,20}$/, { error: 'phone' })
        .optional(),
      active: z.boolean({ error: 'boolean' }).optional(),
    }),
    'Updates a person (on the gateway too when registered there); a new PIN is hashed.',
  ),
  'staff.changePin': command<StaffView>()(
    z.strictObject({ currentPin: pin, newPin: pin }),
    'Changes one’s own PIN (clears the first-run warning). The new PIN must not be 0000 or in use.',
  ),
  'refunds.source': command<RefundSource>()(
    z
      .strictObject({
        orderId: s.id.optional(),
        invoiceNumber: z.string({ error: 'text' }).trim().min(3).max(60).optional(),
      })
      .refine((v) => v.orderId !== undefined || v.invoiceNumber !== undefined, {
        error: 'required',
        path: ['invoiceNumber'],
      }),
    'The original of a refund with what is left to refund per line (local orders, else the gateway archive).',
  ),
  'refunds.create': command<OrderView>()(
    RefundInput,
    'Captures a refund (partial or full) in one transaction; refuses more than is left; waits for a queued original.',
  ),
  'advances.list': command<{ advances: OrderView[]; chains?: AdvanceChainView[] }>()(
    s.empty,
    'Open advances (the last of each chain) and, per open advance, its chain and what it paid net of refunds.',
  ),
  'advances.finalize': command<OrderView>()(
    z.strictObject({
      orderId: s.id,
      // #21 advances: the final items (default: the advance's) and the payment of the rest.
      lines: z
        .array(CheckoutLine, { error: 'lines' })
        .min(1, { error: 'lines' })
        .max(500, { error: 'too_many' })
        .optional(),
      payments: z
        .array(z.strictObject({ type: s.paymentType, amount: s.nonNegativeAmount }), { error: 'payments' })
        .min(1, { error: 'payments' })
        .max(11, { error: 'too_many' })
        .optional(),
      paymentType: s.paymentType.optional(),
      cashier: s.text(60).optional(),
    }),
    'Finalizes the chain of the open advance `orderId` (its last): the gateway issues the advance refund and the final receipt (both stored); `advanceAmount` is what the chain paid net of refunds, `payments` the rest.',
  ),
  'advances.add': command<OrderView>()(
    z.strictObject({
      orderId: s.id,
      lines: z.array(CheckoutLine, { error: 'lines' }).min(1, { error: 'lines' }).max(500, { error: 'too_many' }),
      payments: z
        .array(z.strictObject({ type: s.paymentType, amount: s.positiveAmount }), { error: 'payments' })
        .min(1, { error: 'payments' })
        .max(11, { error: 'too_many' }),
      cashier: s.text(60).optional(),
    }),
    "A further advance of the same order: an advance sale referencing the open advance `orderId` (the chain's last).",
  ),
  'orders.reissue': command<OrderView>()(
    z.strictObject({ managerPin, orderId: s.id }),
    "For an order parked because the gateway returned another sale's receipt for its number: gives it a NEW order number and queues it again. A manager's PIN, checked in the core; audited with the old and new number.",
  ),
  'copies.create': command<OrderView>()(
    z
      .strictObject({
        orderId: s.id.optional(),
        invoiceNumber: z.string({ error: 'text' }).trim().min(3).max(60).optional(),
      })
      .refine((v) => v.orderId !== undefined || v.invoiceNumber !== undefined, {
        error: 'required',
        path: ['invoiceNumber'],
      }),
    "Issues a fiscal COPY of a sale through the gateway (queued when offline; waits for a queued original). By invoice or order number also of another till's sale through the store hub.",
  ),
  'emails.send': command<EmailView>()(
    z
      .strictObject({
        orderId: s.id.optional(),
        invoiceNumber: z.string({ error: 'text' }).trim().min(3).max(60).optional(),
        email: s.email,
        cc: z.array(s.email).max(10, { error: 'too_many' }).optional(),
        bcc: z.array(s.email).max(10, { error: 'too_many' }).optional(),
      })
      .refine((v) => v.orderId !== undefined || v.invoiceNumber !== undefined, {
        error: 'required',
        path: ['invoiceNumber'],
      }),
    'Sends the receipt as PDF through the gateway; kept in a persistent queue while offline or not yet fiscalized.',
  ),
  'emails.list': command<{ emails: EmailView[] }>()(s.empty, 'E-mails waiting, sent or failed (newest first).'),
  'archive.search': command<{ rows: ArchiveRow[]; total: number; page: number; pages: number }>()(
    z.strictObject({
      source: z.enum(['local', 'gateway'], { error: 'invalid' }),
      page: page.optional(),
      limit: limit.optional(),
      ...archiveFilters,
    }),
    'Issued receipts: local orders or the gateway archive, paginated and filtered.',
  ),
  'archive.get': command<ArchiveDetail>()(
    z.strictObject({ invoiceNumber: z.string({ error: 'text' }).trim().min(3).max(60) }),
    'One receipt with its journal, QR link and chain (local copy first, else the gateway archive).',
  ),
  'archive.lookup': command<{ records: LookupRow[] }>()(
    z.strictObject({
      orderNumbers: z
        .array(z.string({ error: 'text' }).trim().min(1).max(100), { error: 'required' })
        .min(1)
        .max(100),
    }),
    '"Was this fiscalized?": fiscalization-lookup at the gateway beside the local state.',
  ),
  'settings.get': command<SettingsView>()(s.empty, 'Settings and the account (the API key only masked).'),
  'settings.update': command<SettingsView>()(
    z.strictObject({
      managerPin,
      language: z.enum(['sr-Cyrl', 'sr-Latn', 'en'], { error: 'invalid' }).optional(),
      terminalId: z
        .string({ error: 'text' })
        .regex(/^[A-Za-z0-9]{1,12}$/, { error: 'terminal_id' })
        .optional(),
      trainingMode: z.boolean({ error: 'boolean' }).optional(),
      outageWarnMinutes: z
        .number({ error: 'number' })
        .int({ error: 'integer' })
        .min(1, { error: 'positive' })
        .max(10_080)
        .optional(),
      outageAlarmMinutes: z
        .number({ error: 'number' })
        .int({ error: 'integer' })
        .min(1, { error: 'positive' })
        .max(40_320)
        .optional(),
      /** How far the till's clock may be from the gateway's before the status bar warns (ms). */
      /** A line discount above this share of the line total needs a manager's approval (percent, default 10). */
      discountLimitPercent: z
        .number({ error: 'number' })
        .int({ error: 'integer' })
        .min(0, { error: 'non_negative' })
        .max(100, { error: 'invalid' })
        .optional(),
      clockDriftMaxMs: z
        .number({ error: 'number' })
        .int({ error: 'integer' })
        .min(10_000, { error: 'invalid' })
        .max(86_400_000, { error: 'invalid' })
        .optional(),
      allowRefundWithoutBuyerId: z.boolean({ error: 'boolean' }).optional(),
    }),
    'Changes settings (manager approval; audited).',
  ),
  'settings.setApiKey': command<AccountView>()(
    z.strictObject({
      managerPin,
      /** Accepted, verified, stored in the secret store; never returned (only a masked form). */
      apiKey: z.string({ error: 'text' }).trim().min(4, { error: 'required' }).max(500, { error: 'too_long' }),
      gatewayUrl: z.string({ error: 'text' }).trim().url({ error: 'url' }).max(300, { error: 'too_long' }),
    }),
    'Verifies a new key (verify-api-token, api-key/me, tax rates) before storing it, then switches the gateway.',
  ),
  'settings.verifyApiKey': command<AccountView>()(
    s.empty,
    'Checks the current key with the gateway and reports the account.',
  ),
  'reports.summary': command<ReportView>()(
    z.strictObject(reportRange),
    'End-of-day or shift totals (training excluded).',
  ),
  'reports.print': command<{ jobId: number }>()(
    z.strictObject(reportRange),
    'Prints the report on the receipt printer.',
  ),
  'reports.csv': command<{ fileName: string; csv: string }>()(z.strictObject(reportRange), 'The report as CSV.'),
  'backups.list': command<BackupsView>()(
    z.strictObject({ managerPin }),
    'The database backups (daily, the last 7 kept) and what the start-up integrity check found.',
  ),
  'backups.restore': command<{ restartRequired: true; name: string }>()(
    z.strictObject({ managerPin, name: z.string({ error: 'text' }).regex(/^[\w.-]{1,100}$/, { error: 'invalid' }) }),
    'Stages a backup (checked with integrity_check first) to replace the database at the next start; ' +
      'the current database is kept as a pre-restore copy. Audited.',
  ),
  'audit.list': command<{ entries: AuditEntry[]; total: number }>()(
    z.strictObject({ managerPin, limit: limit.optional(), offset: z.number().int().min(0).optional() }),
    'The audit log, newest first (managers only).',
  ),
} as const;

export const managerEvents = {
  'email.updated': event<EmailView>('A queued e-mail was sent or failed.'),
  'staff.lockout': event<{ until: string; scope: string }>(
    'PIN entry locked after too many wrong PINs (status-bar alarm).',
  ),
} as const;
