/**
 * The bookkeeper's exports (docs/exports.md, issue 41 part 2): for a period of Belgrade days, the daily turnover by
 * tax rate and payment type from the fiscal documents, the refunds, advances and final sales, goods receipts and
 * price changes, the KEP and the stock value at the period's end; as CSV, an A4 PDF, a posting journal on the
 * accounts the shop maps once, and the journal in Minimax's import layout. A manager's (their PIN travels with each
 * command, or the manager logged in at this till approves it herself).
 */
import { z } from 'zod';
import { command, managerOnly } from './define.ts';
import * as s from './schemas.ts';
import type { Para } from '../money.ts';
import type { PaymentType } from '../domain.ts';
import type { KepEntry, PriceChangeView, PdfFile } from './goods.ts';
import type { ReportView } from './reports.ts';
import type { ReceiptRow } from '../reports/receipts.ts';
import { ACCOUNT_KEYS, ACCOUNT_PATTERN, type AccountMap } from '../exports/accounts.ts';

const { managerPin } = s;

/** A period of whole Belgrade days, both included; an end before the start is refused at `to`. */
const period = {
  managerPin,
  from: s.calendarDate,
  to: s.calendarDate,
};
const Period = z.strictObject(period).refine((p) => p.from <= p.to, { error: 'date_order', path: ['to'] });

/** One day's turnover (the report's arithmetic, shared/reports/totals.ts, over the day's orders). */
export interface ExportDay {
  /** The Belgrade day, YYYY-MM-DD. */
  day: string;
  salesPara: Para;
  refundsPara: Para;
  advancesPara: Para;
  grossPara: Para;
  taxPara: Para;
  byPayment: { type: PaymentType; salesPara: Para; refundsPara: Para; netPara: Para }[];
  /** Per tax label and rate: the gross (VAT included) net of refunds and the VAT the receipts state. */
  byLabel: { label: string; rate: number; grossPara: Para; taxPara: Para }[];
  /** Orders of the day not fiscalized yet (counted as the report counts them, VAT unknown). */
  notFiscalized: number;
}

/** A posted goods receipt or reversal of the period, with its calculation's totals. */
export interface ExportGoodsReceipt {
  day: string;
  number: string;
  kind: 'receipt' | 'reversal';
  supplier: string;
  supplierPib: string;
  invoiceNumber: string;
  /** Signed: a reversal negative. Purchase value without VAT. */
  purchasePara: Para;
  /** Signed: retail value with VAT. */
  retailPara: Para;
  /** The VAT within the retail value (ukalkulisani PDV), signed. */
  vatPara: Para;
  /** Retail − VAT − purchase (ukalkulisana razlika u ceni), signed. */
  marginPara: Para;
}

/** One line of the posting journal. Every document's lines balance: Σ debit = Σ credit. */
export interface Posting {
  /** The journal entry (nalog) it belongs to, 1, 2, … in the period. */
  entry: number;
  day: string;
  /** The document: „Промет 28.11.2026.“, a goods receipt's or a price change's number. */
  document: string;
  account: string;
  description: string;
  debitPara: Para;
  creditPara: Para;
}

export interface ExportView {
  from: string;
  to: string;
  days: ExportDay[];
  /** The period's totals: the report of the period (equal to Σ days). */
  total: ReportView;
  /** Refunds, advances and final sales. */
  documents: ReceiptRow[];
  goodsReceipts: ExportGoodsReceipt[];
  priceChanges: PriceChangeView[];
  kep: { openingPara: Para; debitPara: Para; creditPara: Para; closingPara: Para; entries: KepEntry[] };
  /** The stock at retail value at the end of the period's last day (the KEP's closing balance). */
  stockValuePara: Para;
  journal: Posting[];
  journalTotals: { debitPara: Para; creditPara: Para };
}

export const EXPORT_FILE_KINDS = ['turnover', 'documents', 'goods', 'kep', 'journal', 'minimax', 'pdf'] as const;
export type ExportFileKind = (typeof EXPORT_FILE_KINDS)[number];

export interface AccountsView {
  accounts: AccountMap;
  defaults: AccountMap;
}

/** The accounts a shop maps (each 3 to 10 digits, refused at its key; a key left out keeps its value). */
export const AccountFields = z.strictObject(
  Object.fromEntries(
    ACCOUNT_KEYS.map((k) => [
      k,
      z.string({ error: 'text' }).trim().regex(ACCOUNT_PATTERN, { error: 'account_number' }).optional(),
    ]),
  ) as Record<(typeof ACCOUNT_KEYS)[number], z.ZodOptional<z.ZodString>>,
);

export const AccountsInput = z.strictObject({ managerPin, accounts: AccountFields });

/** The monthly export: on `day` of each month the past month's files go into `folder`, once per month. */
export interface ScheduleView {
  /** 1 to 28; null: not scheduled. */
  day: number | null;
  folder: string | null;
  /** The months written, newest first: when, and into which folder. */
  runs: { month: string; doneAt: string; folder: string; files: string[] }[];
}

export const ScheduleInput = z.strictObject({
  managerPin,
  /** null turns the schedule off. */
  exportDay: s.wholeNumber(1, 28, { below: 'export_day', above: 'export_day' }).nullable(),
  exportFolder: z.string({ error: 'text' }).trim().max(500, { error: 'too_long' }).nullable(),
});

/** How the monthly export reaches the bookkeeper by e-mail (docs/exports.md "By e-mail"). */
export const SMTP_SECURITY = ['starttls', 'tls', 'none'] as const;
export type SmtpSecurityKind = (typeof SMTP_SECURITY)[number];

/** The mail settings as the screen may see them: never the password, only whether one is stored. */
export interface MailView {
  /** null: no e-mail. */
  host: string | null;
  port: number;
  security: SmtpSecurityKind;
  user: string;
  passwordSet: boolean;
  from: string;
  to: string[];
  /** The months queued or sent, newest first. */
  sends: {
    month: string;
    recipients: string[];
    state: 'queued' | 'sent';
    tries: number;
    queuedAt: string;
    sentAt: string | null;
    /** The last failure's reason (the mail server's reply or the network error), null once sent. */
    lastError: string | null;
  }[];
}

const mailAddress = s.email;
export const MailInput = z.strictObject({
  managerPin,
  /** Empty: the month is not sent by e-mail. */
  smtpHost: z
    .string({ error: 'text' })
    .trim()
    .max(200, { error: 'too_long' })
    .regex(/^[A-Za-z0-9.:-]*$/, { error: 'smtp_host' }),
  smtpPort: s.wholeNumber(1, 65535, { below: 'port', above: 'port' }),
  smtpSecurity: z.enum(SMTP_SECURITY, { error: 'smtp_security' }),
  smtpUser: z.string({ error: 'text' }).trim().max(200, { error: 'too_long' }),
  /** Absent or empty: the stored password is kept. */
  smtpPassword: z.string({ error: 'text' }).max(500, { error: 'too_long' }).optional(),
  clearPassword: z.boolean({ error: 'boolean' }).optional(),
  mailFrom: z.union([z.literal(''), mailAddress]),
  /** One or more addresses, separated by commas or spaces. */
  mailTo: z
    .string({ error: 'text' })
    .trim()
    .max(1000, { error: 'too_long' })
    .transform((v) => v.split(/[\s,;]+/).filter(Boolean))
    .refine((list) => list.every((a) => mailAddress.safeParse(a).success), { error: 'email' }),
});
export type MailInput = z.infer<typeof MailInput>;

export const exportsCommands = {
  'exports.build': command<ExportView>('manager')(
    Period,
    "The period's exports as a view: days, documents, goods, the KEP, the stock value and the posting journal.",
  ),
  'exports.file': command<PdfFile>('manager')(
    z
      .strictObject({ ...period, kind: z.enum(EXPORT_FILE_KINDS, { error: 'export_kind' }) })
      .refine((p) => p.from <= p.to, { error: 'date_order', path: ['to'] }),
    'One export of the period as a file (its name and bytes in base64): turnover, documents, goods or the KEP as ' +
      'CSV, the posting journal as CSV, the journal in Minimax\'s import layout ("Knjiženja"), or all as an A4 PDF.',
  ),
  'exports.accounts': managerOnly<AccountsView>("The journal's accounts as the shop mapped them, over the defaults."),
  'exports.saveAccounts': command<AccountsView>('manager')(
    AccountsInput,
    "Maps the journal's accounts (3 to 10 digits each; a key left out keeps its value); audited.",
  ),
  'exports.schedule': managerOnly<ScheduleView>(
    'The monthly export: its day, its folder and the months already written.',
  ),
  'exports.saveSchedule': command<ScheduleView>('manager')(
    ScheduleInput,
    "Sets the day of the month (1–28) on which the past month's exports are written into the folder (an absolute " +
      'path of a folder that exists and can be written, refused at `exportFolder` otherwise); a null day turns it off. Audited.',
  ),
  'exports.mail': managerOnly<MailView>(
    'The e-mail to the bookkeeper: the mail server, the addresses, whether a password is stored (never the password), ' +
      'and the months queued or sent with the last failure of each.',
  ),
  'exports.saveMail': command<MailView>('manager')(
    MailInput,
    "Sets the mail server (host, port, STARTTLS, TLS or none, user; the password kept as a secret) and the bookkeeper's " +
      'addresses the monthly export is sent to; an empty host turns the e-mail off. A host is needed with addresses, ' +
      'addresses and a sender with a host. Audited (never the password).',
  ),
  'exports.sendNow': managerOnly<MailView>(
    'Tries the queued months again now (each month is otherwise tried at every pass of the monthly run).',
  ),
} as const;
