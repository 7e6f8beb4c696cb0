/**
 * The ESIR–PFR local API (L-PFR) as Kasa, its sandbox and its client read it: enum spellings, General Status
 * Codes (GSC) and the counter extensions. Sources and confidence: docs/lpfr.md and
 * ../shared/spec/lpfr-api-notes.md.
 */

/** InvoiceRequest.invoiceType: PascalCase on the wire; the PFR also takes lowercase and the numbers 0–4. */
export const LPFR_INVOICE_TYPES = ['Normal', 'ProForma', 'Copy', 'Training', 'Advance'] as const;
export type LpfrInvoiceType = (typeof LPFR_INVOICE_TYPES)[number];

/** InvoiceRequest.transactionType: Sale = 0, Refund = 1. */
export const LPFR_TRANSACTION_TYPES = ['Sale', 'Refund'] as const;
export type LpfrTransactionType = (typeof LPFR_TRANSACTION_TYPES)[number];

/** Payment.paymentType, in code order: Other = 0, Cash = 1, … MobileMoney = 6. */
export const LPFR_PAYMENT_TYPES = ['Other', 'Cash', 'Card', 'Check', 'WireTransfer', 'Voucher', 'MobileMoney'] as const;
export type LpfrPaymentType = (typeof LPFR_PAYMENT_TYPES)[number];

/**
 * Reads an enum value as a PFR does: the PascalCase name, any case of it (`wiretransfer`), or its index.
 * `ProForma` is also spelt `Proforma` by some clients; case folding covers that.
 */
export function readEnum<T extends string>(values: readonly T[], raw: unknown): T | null {
  if (typeof raw === 'number') return Number.isInteger(raw) ? (values[raw] ?? null) : null;
  if (typeof raw !== 'string') return null;
  if (/^\d$/.test(raw)) return values[Number(raw)] ?? null;
  const folded = raw.toLowerCase();
  return values.find((v) => v.toLowerCase() === folded) ?? null;
}

/** General Status Codes the sandbox answers and the client interprets. */
export const GSC = {
  allOk: '0000',
  pinOk: '0100',
  internetAvailable: '0210',
  internetUnavailable: '0220',
  cardAbsent: '1300',
  auditRequired: '1400',
  pinRequired: '1500',
  pinWrong: '2100',
  cardLocked: '2110',
  auditLocked: '2210',
  seFailure: '2220',
  protocolUnsupported: '2230',
  invalidLabels: '2310',
  notConfigured: '2400',
  fieldRequired: '2800',
  tooLong: '2801',
  tooShort: '2802',
  wrongLength: '2803',
  outOfRange: '2804',
  invalidValue: '2805',
  invalidFormat: '2806',
  tooFew: '2807',
  tooMany: '2808',
} as const;

/** English texts of the codes (DTI's strings.xml), for messages and logs. */
export const GSC_TEXT: Readonly<Record<string, string>> = {
  '0000': 'All OK',
  '0100': 'PIN OK',
  '0210': 'Internet available',
  '0220': 'Internet unavailable',
  '1300': 'Smart card is not present',
  '1400': 'Audit required',
  '1500': 'PIN code required',
  '2100': 'PIN not OK',
  '2110': 'Card locked: PIN entry exceeded',
  '2210': 'Secure element is locked: no additional invoices can be signed before the audit is completed',
  '2220': 'E-SDC cannot connect to the secure element applet',
  '2230': 'Secure element does not support the requested protocol version',
  '2310': 'Invalid tax labels sent by the POS',
  '2400': 'SDC device is not fully configured for signing',
  '2800': 'Field required',
  '2801': 'Field value too long',
  '2802': 'Field value too short',
  '2803': 'Field length wrong',
  '2804': 'Value out of range',
  '2805': 'Invalid value',
  '2806': 'Invalid data format',
  '2807': 'List has too few elements',
  '2808': 'List has too many elements',
};

/**
 * The two-letter counter extension, type then transaction, in Serbian Cyrillic: ПП (Промет Продаја) is
 * verified on real receipts; the others follow the same rule (Промет, Аванс, Копија, Обука, Предрачун ×
 * Продаја, Рефундација) and are NOT verified (docs/lpfr.md).
 */
export function lpfrCounterExtension(invoiceType: LpfrInvoiceType, transactionType: LpfrTransactionType): string {
  const first: Record<LpfrInvoiceType, string> = { Normal: 'П', Advance: 'А', Copy: 'К', Training: 'О', ProForma: 'Р' };
  return first[invoiceType] + (transactionType === 'Sale' ? 'П' : 'Р');
}

/** The languages the L-PFR renders journals and messages in, in its order of preference. */
export const LPFR_LANGUAGES = ['sr-Cyrl-RS', 'en-US'] as const;
export type LpfrLanguage = (typeof LPFR_LANGUAGES)[number];

/** An L-PFR invoice number: `requestedBy-signedBy-totalCounter`, both UIDs the card's on an L-PFR. */
export const INVOICE_NUMBER_RE = /^([A-Za-z0-9]{8})-([A-Za-z0-9]{8})-(\d+)$/;
