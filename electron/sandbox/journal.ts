/**
 * The printable journal of a sandbox receipt: 40 columns of Serbian Cyrillic text with the markers of
 * a real fiscal receipt. Lines are joined with "\n"; no line is longer than 40 UTF-16 units (so also
 * not longer than 40 code points or graphemes), and no character is ever split.
 */
import { formatReceiptDateTime, PAYMENT_TYPE_NAMES } from '../../shared/fiscal-text.ts';
import { formatQuantity, formatRsd, type Milli, type Para } from '../../shared/money.ts';

/** Journal width in characters. */
export const WIDTH = 40;

/** Title and end markers of a fiscal receipt journal. */
export const TITLE_LINE = '============ ФИСКАЛНИ РАЧУН ============';
export const END_LINE = '======== КРАЈ ФИСКАЛНОГ РАЧУНА =========';
/** Marker of training, copy and proforma receipts. */
export const NOT_FISCAL = 'ОВО НИЈЕ ФИСКАЛНИ РАЧУН';

export interface JournalItem {
  name: string;
  labels: string[];
  quantity: Milli;
  unitPrice: Para;
  total: Para;
  /** The item's `discount` (an amount, `total` after it), printed on its own line under the item. */
  discount?: Para | undefined;
}

export interface JournalPayment {
  type: string;
  amount: Para;
}

export interface JournalTax {
  label: string;
  categoryName: string;
  rate: number;
  amount: Para;
}

export interface JournalInput {
  tin: string;
  businessName: string;
  locationName: string;
  address: string;
  city: string;
  cashier: string;
  esirNumber: string;
  buyerId?: string | undefined;
  referentDocumentNumber?: string | undefined;
  referentDocumentDt?: string | undefined;
  invoiceType: string;
  transactionType: string;
  items: JournalItem[];
  payments: JournalPayment[];
  /** Paid earlier by advance (final receipt of an advance chain). */
  advancePaid?: Para;
  total: Para;
  taxes: JournalTax[];
  sdcDateTime: Date;
  /** The ESIR's time of the sale (the request's `dateTimeOfIssue`), printed as `ЕСИР време:`. */
  esirDateTime?: Date | undefined;
  invoiceNumber: string;
  invoiceCounter: string;
  textHeader?: string | undefined;
  textFooter?: string | undefined;
  orderNumber?: string | undefined;
}

const TYPE_NAMES: Record<string, string> = {
  normal: 'ПРОМЕТ',
  training: 'ТРЕНИНГ',
  advance: 'АВАНС',
  proforma: 'ПРЕДРАЧУН',
  copy: 'КОПИЈА',
};

const TX_NAMES: Record<string, string> = { sale: 'ПРОДАЈА', refund: 'РЕФУНДАЦИЈА' };

const segmenter = new Intl.Segmenter('sr', { granularity: 'grapheme' });

/** Splits text into graphemes (a letter with its combining marks is one grapheme). */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text.normalize('NFC')), (s) => s.segment);
}

/**
 * Wraps text to `width`: at spaces when possible, else inside a word, never inside a grapheme.
 * Width is measured in UTF-16 units, which is at least the number of code points and of graphemes.
 */
export function wrap(text: string, width: number = WIDTH): string[] {
  const words = text.normalize('NFC').replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (word === '') continue;
    const candidate = line === '' ? word : `${line} ${word}`;
    if (candidate.length <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    // The word alone may be too long: cut it by graphemes.
    let chunk = '';
    for (const g of graphemes(word)) {
      if (chunk.length + g.length > width) {
        lines.push(chunk);
        chunk = '';
      }
      chunk += g;
    }
    line = chunk;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** Text centered in `width` (wrapped if longer). */
export function center(text: string, width: number = WIDTH): string[] {
  return wrap(text, width).map((l) => {
    const left = Math.floor((width - l.length) / 2);
    return ' '.repeat(left) + l;
  });
}

/** A title padded with '=' on both sides to exactly `width`, e.g. `==== ФИСКАЛНИ РАЧУН ====`. */
export function banner(title: string, width: number = WIDTH): string {
  const inner = ` ${title} `;
  const left = Math.floor((width - inner.length) / 2);
  return '='.repeat(Math.max(0, left)) + inner + '='.repeat(Math.max(0, width - left - inner.length));
}

/** `label` on the left and `value` on the right of one line; two lines when they do not fit. */
export function pair(label: string, value: string, width: number = WIDTH): string[] {
  if (label.length + 1 + value.length <= width) {
    return [label + ' '.repeat(width - label.length - value.length) + value];
  }
  const out = wrap(label, width);
  for (const v of wrap(value, width)) out.push(' '.repeat(width - v.length) + v);
  return out;
}

/** Formats a rate as Serbian text: 20 -> "20,00%", 0.5 -> "0,50%". */
export function formatRate(rate: number): string {
  return `${formatRsd(Math.round(rate * 100))}%`;
}

/** Belgrade local time as on Serbian receipts: `22.11.2024. 10:11:12`. */
export function formatDateTime(date: Date): string {
  return formatReceiptDateTime(date);
}

/** Whether a receipt of this invoiceType is not a fiscal receipt (its journal says so). */
export function isNonFiscal(invoiceType: string): boolean {
  return invoiceType === 'training' || invoiceType === 'copy' || invoiceType === 'proforma';
}

/** Builds the journal text. */
export function buildJournal(input: JournalInput): string {
  const rule = '-'.repeat(WIDTH);
  const double = '='.repeat(WIDTH);
  const nonFiscal = isNonFiscal(input.invoiceType);
  const refund = input.transactionType === 'refund';
  const sign = refund ? -1 : 1;
  const lines: string[] = [TITLE_LINE];
  if (input.textHeader) lines.push(...center(input.textHeader));
  lines.push(...center(input.tin));
  lines.push(...center(input.businessName));
  lines.push(...center(input.locationName));
  lines.push(...center(input.address));
  lines.push(...center(input.city));
  lines.push(...pair('Касир:', input.cashier));
  if (input.buyerId) lines.push(...pair('ИД купца:', input.buyerId));
  lines.push(...pair('ЕСИР број:', input.esirNumber));
  if (input.esirDateTime) lines.push(...pair('ЕСИР време:', formatDateTime(input.esirDateTime)));
  if (input.referentDocumentNumber) lines.push(...pair('Реф. број:', input.referentDocumentNumber));
  if (input.referentDocumentDt) {
    const d = new Date(input.referentDocumentDt);
    lines.push(...pair('Реф. време:', Number.isNaN(d.getTime()) ? input.referentDocumentDt : formatDateTime(d)));
  }
  lines.push(rule);
  if (nonFiscal) lines.push(banner(NOT_FISCAL));
  lines.push(
    ...center(
      `${TYPE_NAMES[input.invoiceType] ?? input.invoiceType.toUpperCase()} ${TX_NAMES[input.transactionType] ?? input.transactionType.toUpperCase()}`,
    ),
  );
  lines.push('Артикли');
  lines.push(double);
  lines.push(...pair('Назив   Цена         Кол.', 'Укупно'));
  for (const item of input.items) {
    lines.push(...wrap(`${item.name} (${item.labels.join(', ')})`));
    const left = `  ${formatQuantity(item.quantity)} x ${formatRsd(item.unitPrice)} =`;
    // A discount sent as `discount`: the gross on the item's line, the discount under it (docs/gateway.md,
    // "Discounts").
    lines.push(...pair(left, formatRsd(sign * (item.total + (item.discount ?? 0)))));
    if (item.discount) lines.push(...pair('  Попуст:', formatRsd(-sign * item.discount)));
  }
  lines.push(rule);
  lines.push(...pair(refund ? 'Укупан износ рефундације:' : 'Укупан износ:', formatRsd(sign * input.total)));
  if (input.advancePaid) lines.push(...pair('Плаћено авансом:', formatRsd(input.advancePaid)));
  for (const p of input.payments) {
    lines.push(...pair(`${PAYMENT_TYPE_NAMES[p.type] ?? p.type}:`, formatRsd(sign * p.amount)));
  }
  lines.push(double);
  lines.push(...pair('Ознака      Име', 'Стопа        Порез'));
  let taxTotal = 0;
  for (const t of input.taxes) {
    taxTotal += t.amount;
    const left = `${t.label.padEnd(6)}${t.categoryName}`;
    const right = `${formatRate(t.rate).padStart(7)}${formatRsd(sign * t.amount).padStart(13)}`;
    lines.push(...pair(left, right));
  }
  lines.push(rule);
  lines.push(...pair('Укупан износ пореза:', formatRsd(sign * taxTotal)));
  lines.push(double);
  lines.push(...pair('ПФР време:', formatDateTime(input.sdcDateTime)));
  lines.push(...pair('ПФР број рачуна:', input.invoiceNumber));
  lines.push(...pair('Бројач рачуна:', input.invoiceCounter));
  if (input.orderNumber) lines.push(...pair('Број поруџбине:', input.orderNumber));
  lines.push(double);
  if (input.textFooter) lines.push(...center(input.textFooter));
  if (refund) {
    lines.push('Потпис купца:');
    lines.push('');
    lines.push(rule);
  }
  if (nonFiscal) lines.push(banner(NOT_FISCAL));
  lines.push(END_LINE);
  return lines.join('\n');
}
