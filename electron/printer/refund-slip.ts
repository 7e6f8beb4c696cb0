/**
 * The signed refund slip. A refund that pays money back is followed by a paper the
 * buyer signs („Потпис купца“) and the seller keeps as proof of the payout (docs/printing.md, "Signed
 * refund slip"). The gateway issues no copy of a refund (spec: the copy is an invoice type of a sale
 * only, `POST /receipt/copy/sale`; refunds take `normal`, `training`, `advance`), so Kasa prints a
 * non-fiscal slip: marked ОВО НИЈЕ ФИСКАЛНИ РАЧУН, naming the refund's invoice number and time, what was
 * paid back and how, and the original receipt. Pure: no I/O, no clock.
 *
 * A refund without money back (a correction: no payment, or the seller's own PIB as the buyer ID) gets
 * no slip; nor does a training refund.
 */
import { formatReceiptDateTime, PAYMENT_TYPE_NAMES } from '../../shared/fiscal-text.ts';
import { formatRsd } from '../../shared/money.ts';
import type { OrderPayment } from '../../shared/domain.ts';

/** Width of the slip's lines: the journal's 40 columns. */
const WIDTH = 40;
export const NOT_FISCAL = 'ОВО НИЈЕ ФИСКАЛНИ РАЧУН';
export const SIGNATURE_LABEL = 'Потпис купца:';

/** What the slip says. Dates are ISO 8601 (the gateway's `sdcDateTime`, the request's `referentDocumentDt`). */
export interface RefundSlipInput {
  invoiceNumber: string;
  invoiceCounter?: string | undefined;
  sdcDateTime: string;
  payments: readonly OrderPayment[];
  originalInvoiceNumber?: string | undefined;
  originalDateTime?: string | undefined;
  buyerId?: string | undefined;
  cashier?: string | undefined;
}

/** True when a refund paid money back: a payment above zero, and not a correction carrying the seller's PIB. */
export function paysMoneyBack(
  payments: readonly OrderPayment[],
  buyerId: string | undefined,
  sellerTin: string | undefined,
): boolean {
  if (!payments.some((p) => p.amountPara > 0)) return false;
  return !(sellerTin && buyerId === `10:${sellerTin}`);
}

/** Belgrade local time as on Serbian receipts (`22.11.2024. 10:11:12`); the text as given when not a date. */
export function slipDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return formatReceiptDateTime(d);
}

/**
 * Label left, value right, in 40 columns; on two lines when both do not fit. The outage slip (outage-slip.ts) lays
 * out its pairs by the same rule.
 */
export function slipPair(label: string, value: string): string[] {
  const l = [...label].length;
  const v = [...value].length;
  if (l + 1 + v <= WIDTH) return [label + ' '.repeat(WIDTH - l - v) + value];
  return [label, v >= WIDTH ? value : ' '.repeat(WIDTH - v) + value];
}

function centred(text: string, fill: string): string {
  const inner = ` ${text} `;
  const n = WIDTH - [...inner].length;
  if (n <= 0) return text;
  return fill.repeat(Math.ceil(n / 2)) + inner + fill.repeat(Math.floor(n / 2));
}

/** The slip's lines, at most 40 columns each. */
export function refundSlipLines(input: RefundSlipInput): string[] {
  const total = input.payments.reduce((s, p) => s + p.amountPara, 0);
  const lines: string[] = [
    centred(NOT_FISCAL, '='),
    centred('ПОТВРДА О ПОВРАЋАЈУ НОВЦА', ' ').trimEnd(),
    centred('КОПИЈА РЕФУНДАЦИЈЕ ЗА ПРОДАВЦА', ' ').trimEnd(),
    '-'.repeat(WIDTH),
    ...slipPair('Рефундација:', input.invoiceNumber),
    ...(input.invoiceCounter ? slipPair('Бројач рачуна:', input.invoiceCounter) : []),
    ...slipPair('ПФР време:', slipDateTime(input.sdcDateTime)),
    ...(input.originalInvoiceNumber ? slipPair('Реф. број:', input.originalInvoiceNumber) : []),
    ...(input.originalDateTime ? slipPair('Реф. време:', slipDateTime(input.originalDateTime)) : []),
    ...(input.buyerId ? slipPair('ИД купца:', input.buyerId) : []),
    ...(input.cashier ? slipPair('Касир:', input.cashier.slice(0, 30)) : []),
    '-'.repeat(WIDTH),
    'Враћено купцу:',
    ...input.payments
      .filter((p) => p.amountPara > 0)
      .flatMap((p) => slipPair(`${PAYMENT_TYPE_NAMES[p.type] ?? p.type}:`, formatRsd(p.amountPara))),
    ...slipPair('Укупно враћено:', formatRsd(total)),
    '',
    '',
    `${SIGNATURE_LABEL} ${'_'.repeat(WIDTH - [...SIGNATURE_LABEL].length - 1)}`,
    '',
    centred(NOT_FISCAL, '='),
  ];
  return lines;
}

/** The stored order fields the slip is made of (an `orders` row, electron/outbox/store.ts). */
export interface RefundOrderRow {
  transaction_type: string;
  data: string;
  request: string | null;
  receipt: string | null;
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const parse = (text: string | null): Record<string, unknown> => {
  try {
    return obj(text ? JSON.parse(text) : null);
  } catch {
    return {};
  }
};

/** The slip of a fiscalized refund that paid money back; undefined for anything else (a sale, a correction). */
export function refundSlipOf(row: RefundOrderRow, payments: readonly OrderPayment[]): string[] | undefined {
  if (row.transaction_type !== 'refund') return undefined;
  const data = parse(row.data);
  const request = parse(row.request);
  const receipt = parse(row.receipt);
  const buyerId = str(request['buyerId']) ?? str(data['buyerId']);
  const sellerTin = str(obj(receipt['additional'])['tin']) ?? str(receipt['tin']);
  if (!paysMoneyBack(payments, buyerId, sellerTin)) return undefined;
  // A correction without refund of money (refunds.create {correction: true}) pays nothing back: nothing to sign.
  if (data['correction'] === true) return undefined;
  // A training refund is not a fiscal document and moves no money: nothing to sign.
  if (String(receipt['invoiceType'] ?? '').toLowerCase() === 'training') return undefined;
  const invoiceNumber = str(receipt['invoiceNumber']);
  const sdcDateTime = str(receipt['sdcDateTime']);
  if (!invoiceNumber || !sdcDateTime) return undefined;
  const refundOf = obj(data['refundOf']);
  return refundSlipLines({
    invoiceNumber,
    invoiceCounter: str(receipt['invoiceCounter']),
    sdcDateTime,
    payments,
    originalInvoiceNumber:
      str(request['referentDocumentNumber']) ??
      str(receipt['referentDocumentNumber']) ??
      str(refundOf['invoiceNumber']),
    originalDateTime: str(request['referentDocumentDt']) ?? str(receipt['referentDocumentDt']),
    buyerId,
    cashier: str(data['cashier']),
  });
}
