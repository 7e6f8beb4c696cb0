/**
 * The journal of an L-PFR invoice: 40 columns, CRLF line ends, in the language the ESIR asked for
 * (Serbian Cyrillic by default), laid out like the journals of real L-PFRs quoted in public code: the
 * ФИСКАЛНИ РАЧУН banner, PIB and shop, cashier and ESIR number, the type line, items, totals and
 * payments, the tax summary, ПФР време / ПФР број рачуна / Бројач рачуна, and the КРАЈ ФИСКАЛНОГ РАЧУНА
 * banner (before which Kasa prints the QR code). The column helpers are the gateway sandbox's.
 */
import { banner, center, formatDateTime, formatRate, pair, wrap, WIDTH } from '../../../electron/sandbox/journal.ts';
import { formatQuantity, formatRsd, type Milli, type Para } from '../../../shared/money.ts';
import type {
  LpfrInvoiceType,
  LpfrLanguage,
  LpfrPaymentType,
  LpfrTransactionType,
} from '../../../electron/lpfr/protocol.ts';
import type { LpfrIdentity, ValidInvoice } from './sign.ts';

/** The journal's input: the shop's identity, the validated request's fields (sign.ts) and what the signing adds. */
export interface LpfrJournalInput
  extends Omit<LpfrIdentity, 'uid' | 'mrc'>, Omit<ValidInvoice, 'omitQr' | 'omitJournal' | 'items'> {
  language: LpfrLanguage;
  items: { name: string; labels: string[]; quantity: Milli; unitPrice: Para; total: Para }[];
  taxes: { label: string; categoryName: string; rate: number; amount: Para }[];
  sdcDateTime: Date;
  invoiceNumber: string;
  invoiceCounter: string;
}

interface Words {
  title: string;
  end: string;
  notFiscal: string;
  cashier: string;
  buyer: string;
  esirNumber: string;
  esirTime: string;
  refNumber: string;
  refTime: string;
  items: string;
  itemHead: [string, string];
  total: string;
  refundTotal: string;
  taxHead: [string, string];
  taxTotal: string;
  sdcTime: string;
  invoiceNumber: string;
  counter: string;
  signature: string;
  types: Record<LpfrInvoiceType, string>;
  transactions: Record<LpfrTransactionType, string>;
  payments: Record<LpfrPaymentType, string>;
}

const WORDS: Record<LpfrLanguage, Words> = {
  'sr-Cyrl-RS': {
    title: 'ФИСКАЛНИ РАЧУН',
    end: 'КРАЈ ФИСКАЛНОГ РАЧУНА',
    notFiscal: 'ОВО НИЈЕ ФИСКАЛНИ РАЧУН',
    cashier: 'Касир:',
    buyer: 'ИД купца:',
    esirNumber: 'ЕСИР број:',
    esirTime: 'ЕСИР време:',
    refNumber: 'Реф. број:',
    refTime: 'Реф. време:',
    items: 'Артикли',
    itemHead: ['Назив   Цена         Кол.', 'Укупно'],
    total: 'Укупан износ:',
    refundTotal: 'Укупна рефундација:',
    taxHead: ['Ознака      Име', 'Стопа        Порез'],
    taxTotal: 'Укупан износ пореза:',
    sdcTime: 'ПФР време:',
    invoiceNumber: 'ПФР број рачуна:',
    counter: 'Бројач рачуна:',
    signature: 'Потпис купца:',
    types: { Normal: 'ПРОМЕТ', ProForma: 'ПРЕДРАЧУН', Copy: 'КОПИЈА', Training: 'ОБУКА', Advance: 'АВАНС' },
    transactions: { Sale: 'ПРОДАЈА', Refund: 'РЕФУНДАЦИЈА' },
    payments: {
      Other: 'Друго безготовинско плаћање',
      Cash: 'Готовина',
      Card: 'Платна картица',
      Check: 'Чек',
      WireTransfer: 'Пренос на рачун',
      Voucher: 'Ваучер',
      MobileMoney: 'Инстант плаћање',
    },
  },
  'en-US': {
    title: 'FISCAL INVOICE',
    end: 'END OF FISCAL INVOICE',
    notFiscal: 'THIS IS NOT A FISCAL INVOICE',
    cashier: 'Cashier:',
    buyer: 'Buyer ID:',
    esirNumber: 'POS number:',
    esirTime: 'POS time:',
    refNumber: 'Ref. number:',
    refTime: 'Ref. time:',
    items: 'Items',
    itemHead: ['Name    Price        Qty.', 'Total'],
    total: 'Total amount:',
    refundTotal: 'Total refund:',
    taxHead: ['Label       Name', 'Rate          Tax'],
    taxTotal: 'Total tax:',
    sdcTime: 'SDC time:',
    invoiceNumber: 'SDC invoice no:',
    counter: 'Invoice counter:',
    signature: 'Buyer signature:',
    types: { Normal: 'NORMAL', ProForma: 'PROFORMA', Copy: 'COPY', Training: 'TRAINING', Advance: 'ADVANCE' },
    transactions: { Sale: 'SALE', Refund: 'REFUND' },
    payments: {
      Other: 'Other',
      Cash: 'Cash',
      Card: 'Card',
      Check: 'Check',
      WireTransfer: 'Wire transfer',
      Voucher: 'Voucher',
      MobileMoney: 'Mobile money',
    },
  },
};

/** Copy, training and proforma invoices are not fiscal receipts; their journal says so, top and bottom. */
export function isNonFiscal(invoiceType: LpfrInvoiceType): boolean {
  return invoiceType === 'Copy' || invoiceType === 'Training' || invoiceType === 'ProForma';
}

/** A title centred in dashes or equals signs to exactly the width. */
function ruled(title: string, fill: string): string {
  const inner = ` ${title} `;
  const left = Math.floor((WIDTH - inner.length) / 2);
  return fill.repeat(Math.max(0, left)) + inner + fill.repeat(Math.max(0, WIDTH - left - inner.length));
}

/** The journal text, lines joined with CRLF. */
export function buildLpfrJournal(j: LpfrJournalInput): string {
  const w = WORDS[j.language];
  const rule = '-'.repeat(WIDTH);
  const double = '='.repeat(WIDTH);
  const refund = j.transactionType === 'Refund';
  const sign = refund ? -1 : 1;
  const nonFiscal = isNonFiscal(j.invoiceType);
  const lines: string[] = [banner(w.title)];
  for (const text of [j.tin, j.businessName, j.locationName, j.address, j.district]) lines.push(...center(text));
  if (j.cashier) lines.push(...pair(w.cashier, j.cashier));
  if (j.buyerId) lines.push(...pair(w.buyer, j.buyerId));
  if (j.esirNumber) lines.push(...pair(w.esirNumber, j.esirNumber));
  if (j.esirDateTime) lines.push(...pair(w.esirTime, formatDateTime(j.esirDateTime)));
  if (j.referentDocumentNumber) lines.push(...pair(w.refNumber, j.referentDocumentNumber));
  if (j.referentDocumentDT) {
    const d = new Date(j.referentDocumentDT);
    lines.push(...pair(w.refTime, Number.isNaN(d.getTime()) ? j.referentDocumentDT : formatDateTime(d)));
  }
  if (nonFiscal) lines.push(banner(w.notFiscal));
  lines.push(ruled(`${w.types[j.invoiceType]} ${w.transactions[j.transactionType]}`, '-'));
  lines.push(w.items);
  lines.push(double);
  lines.push(...pair(...w.itemHead));
  for (const item of j.items) {
    lines.push(...wrap(`${item.name} (${item.labels.join(', ')})`));
    const left = `${formatRsd(item.unitPrice).padStart(10)}${formatQuantity(item.quantity).padStart(11)}`;
    lines.push(...pair(left, formatRsd(sign * item.total)));
  }
  lines.push(rule);
  lines.push(...pair(refund ? w.refundTotal : w.total, formatRsd(sign * j.total)));
  for (const p of j.payments) lines.push(...pair(`${w.payments[p.type]}:`, formatRsd(sign * p.amount)));
  lines.push(double);
  lines.push(...pair(...w.taxHead));
  let taxTotal = 0;
  for (const t of j.taxes) {
    taxTotal += t.amount;
    const left = `${t.label.padEnd(12)}${t.categoryName}`;
    lines.push(...pair(left, `${formatRate(t.rate).padStart(7)}${formatRsd(sign * t.amount).padStart(13)}`));
  }
  lines.push(rule);
  lines.push(...pair(w.taxTotal, formatRsd(sign * taxTotal)));
  lines.push(double);
  lines.push(...pair(w.sdcTime, formatDateTime(j.sdcDateTime)));
  lines.push(...pair(w.invoiceNumber, j.invoiceNumber));
  lines.push(...pair(w.counter, j.invoiceCounter));
  lines.push(double);
  if (refund) lines.push(w.signature, '', rule);
  if (nonFiscal) lines.push(banner(w.notFiscal));
  lines.push(banner(w.end));
  return lines.join('\r\n');
}
