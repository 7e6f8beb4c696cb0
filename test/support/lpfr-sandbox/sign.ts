/**
 * What the L-PFR sandbox does with an InvoiceRequest: validates it as a PFR does (28xx field codes per
 * property, 2310 for a label not in its current tax rates, totals to the para) and signs it: counters,
 * invoice number, sdcDateTime in Belgrade time, tax items, journal, `vl` verification payload and QR GIF.
 */
import { createHash, createHmac } from 'node:crypto';
import type { TaxGroup } from '../../../electron/sandbox/accounts.ts';
import { findLabel, taxesPerLabel } from '../../../electron/sandbox/accounts.ts';
import { roundDiv, toMilli, toPara, type Para } from '../../../shared/money.ts';
import {
  GSC,
  LPFR_INVOICE_TYPES,
  LPFR_PAYMENT_TYPES,
  LPFR_TRANSACTION_TYPES,
  INVOICE_NUMBER_RE,
  lpfrCounterExtension,
  readEnum,
  type LpfrInvoiceType,
  type LpfrLanguage,
  type LpfrPaymentType,
  type LpfrTransactionType,
} from '../../../electron/lpfr/protocol.ts';
import { wallClock } from '../../../shared/i18n/time.ts';
import { qrGifBase64 } from './gif.ts';
import { buildLpfrJournal } from './journal.ts';
import type { SignedInvoice } from './store.ts';

/** One refused property with its codes, as in the PFR's `modelState`. */
export interface FieldError {
  property: string;
  errors: string[];
}

/** A refusal: the HTTP status and the codes (state errors have the property ""). */
export class LpfrRefusal extends Error {
  readonly status: number;
  readonly fields: FieldError[];
  constructor(status: number, fields: FieldError[], message = 'Bad Request') {
    super(message);
    this.status = status;
    this.fields = fields;
  }
  /** A state error (card, PIN, audit): one code, no property. */
  static state(code: string, status = 400): LpfrRefusal {
    return new LpfrRefusal(status, [{ property: '', errors: [code] }]);
  }
}

/** The L-PFR's identity: its card and the taxpayer it is registered to. */
export interface LpfrIdentity {
  uid: string;
  tin: string;
  businessName: string;
  locationName: string;
  address: string;
  district: string;
  mrc: string;
}

/** A validated request, in integers. */
export interface ValidInvoice {
  invoiceType: LpfrInvoiceType;
  transactionType: LpfrTransactionType;
  cashier: string | null;
  buyerId: string | null;
  esirNumber: string | null;
  esirDateTime: Date | null;
  referentDocumentNumber: string | null;
  referentDocumentDT: string | null;
  omitQr: boolean;
  omitJournal: boolean;
  items: { name: string; gtin: string | null; labels: string[]; quantity: number; unitPrice: Para; total: Para }[];
  payments: { type: LpfrPaymentType; amount: Para }[];
  total: Para;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The decimals of a JSON number as sent (JSON.parse keeps the shortest form). */
function decimals(n: number): number {
  const s = String(n);
  if (s.includes('e')) return 99;
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

const BUYER_ID_RE = /^\d{2}:[^\s]{1,17}$/;

/** Validates an InvoiceRequest against the current tax rates; throws {@link LpfrRefusal} with every field's codes. */
export function validateInvoice(raw: unknown, rates: TaxGroup): ValidInvoice {
  const errors: FieldError[] = [];
  const add = (property: string, code: string) => {
    const hit = errors.find((e) => e.property === property);
    if (hit) {
      if (!hit.errors.includes(code)) hit.errors.push(code);
    } else errors.push({ property, errors: [code] });
  };
  if (!isObject(raw)) throw new LpfrRefusal(400, [{ property: '', errors: [GSC.invalidFormat] }]);
  // camelCase as every client sends it; PascalCase (the DTI C# models) as well.
  const get = (name: string): unknown => raw[name] ?? raw[name[0]?.toUpperCase() + name.slice(1)];

  const str = (name: string, max: number, required = false): string | null => {
    const v = get(name);
    if (v === undefined || v === null || v === '') {
      if (required) add(name, GSC.fieldRequired);
      return null;
    }
    if (typeof v !== 'string') {
      add(name, GSC.invalidFormat);
      return null;
    }
    if (v.length > max) add(name, GSC.tooLong);
    return v;
  };

  const invoiceTypeRaw = get('invoiceType');
  const invoiceType = readEnum(LPFR_INVOICE_TYPES, invoiceTypeRaw);
  if (invoiceTypeRaw === undefined || invoiceTypeRaw === null) add('invoiceType', GSC.fieldRequired);
  else if (!invoiceType) add('invoiceType', GSC.invalidValue);
  const transactionTypeRaw = get('transactionType');
  const transactionType = readEnum(LPFR_TRANSACTION_TYPES, transactionTypeRaw);
  if (transactionTypeRaw === undefined || transactionTypeRaw === null) add('transactionType', GSC.fieldRequired);
  else if (!transactionType) add('transactionType', GSC.invalidValue);

  const cashier = str('cashier', 50);
  const buyerId = str('buyerId', 20);
  if (buyerId && !BUYER_ID_RE.test(buyerId)) add('buyerId', GSC.invalidFormat);
  const buyerCostCenterId = str('buyerCostCenterId', 20);
  if (buyerCostCenterId && !BUYER_ID_RE.test(buyerCostCenterId)) add('buyerCostCenterId', GSC.invalidFormat);
  const esirNumber = str('invoiceNumber', 60);
  let esirDateTime: Date | null = null;
  const issued = str('dateAndTimeOfIssue', 40);
  if (issued) {
    esirDateTime = new Date(issued);
    if (Number.isNaN(esirDateTime.getTime())) add('dateAndTimeOfIssue', GSC.invalidFormat);
  }

  const needsRef = invoiceType === 'Copy' || transactionType === 'Refund';
  const referentDocumentNumber = str('referentDocumentNumber', 50, needsRef);
  if (referentDocumentNumber && !INVOICE_NUMBER_RE.test(referentDocumentNumber))
    add('referentDocumentNumber', GSC.invalidFormat);
  const referentDocumentDT = str('referentDocumentDT', 40, needsRef);
  if (referentDocumentDT && Number.isNaN(Date.parse(referentDocumentDT))) add('referentDocumentDT', GSC.invalidFormat);

  const options = get('options');
  const flag = (name: string): boolean => {
    if (!isObject(options)) return false;
    const v = options[name];
    if (v === undefined || v === null) return false;
    if (v === '1' || v === 1 || v === true) return true;
    if (v !== '0' && v !== 0 && v !== false) add(`options.${name}`, GSC.invalidValue);
    return false;
  };
  if (options !== undefined && options !== null && !isObject(options)) add('options', GSC.invalidFormat);
  const omitQr = flag('omitQRCodeGen');
  const omitJournal = flag('omitTextualRepresentation');

  /**
   * Each element of the array `key` (one to `max` of them) given to `each` as an object with its path, or the
   * array's or the element's refusal added instead.
   */
  const eachOf = (key: string, max: number, each: (el: Json, p: string) => void): void => {
    const raw = get(key);
    if (raw === undefined || raw === null) add(key, GSC.fieldRequired);
    else if (!Array.isArray(raw)) add(key, GSC.invalidFormat);
    else if (raw.length === 0) add(key, GSC.tooFew);
    else if (raw.length > max) add(key, GSC.tooMany);
    else
      raw.forEach((el: unknown, i) => {
        const p = `${key}[${i}]`;
        if (!isObject(el)) add(p, GSC.invalidFormat);
        else each(el, p);
      });
  };

  const items: ValidInvoice['items'] = [];
  eachOf('items', 250, (it, p) => {
    const name = it['name'];
    if (typeof name !== 'string' || name.trim() === '') add(`${p}.name`, GSC.fieldRequired);
    else if (name.length > 2048) add(`${p}.name`, GSC.tooLong);
    const gtin = it['gtin'];
    if (gtin !== undefined && gtin !== null && (typeof gtin !== 'string' || gtin.length < 8 || gtin.length > 14))
      add(`${p}.gtin`, GSC.wrongLength);
    const q = it['quantity'];
    const u = it['unitPrice'];
    const t = it['totalAmount'];
    const num = (v: unknown, field: string, dp: number): number | null => {
      if (v === undefined || v === null) return (add(`${p}.${field}`, GSC.fieldRequired), null);
      if (typeof v !== 'number' || !Number.isFinite(v)) return (add(`${p}.${field}`, GSC.invalidFormat), null);
      if (decimals(v) > dp) return (add(`${p}.${field}`, GSC.invalidFormat), null);
      if (v < 0 || Math.abs(v) > 1e11) return (add(`${p}.${field}`, GSC.outOfRange), null);
      return v;
    };
    const qn = num(q, 'quantity', 3);
    if (qn !== null && qn < 0.001) add(`${p}.quantity`, GSC.outOfRange);
    const un = num(u, 'unitPrice', 2);
    const tn = num(t, 'totalAmount', 2);
    const discount = it['discount'];
    if (discount !== undefined && discount !== null && discount !== 0) add(`${p}.discount`, GSC.invalidValue);
    const labels = it['labels'];
    const labelList: string[] = [];
    if (!Array.isArray(labels) || labels.length === 0) add(`${p}.labels`, GSC.fieldRequired);
    else {
      for (const l of labels) {
        if (typeof l !== 'string' || !findLabel(rates, l)) add(`${p}.labels`, GSC.invalidLabels);
        else labelList.push(l);
      }
    }
    if (qn === null || un === null || tn === null) return;
    const qm = toMilli(qn) ?? 0;
    const up = toPara(un) ?? 0;
    const tp = toPara(tn) ?? 0;
    // The PFR's check: quantity × unitPrice, rounded to the para, is the item's totalAmount.
    if (roundDiv(up * qm, 1000) !== tp) add(`${p}.totalAmount`, GSC.invalidValue);
    items.push({
      name: typeof name === 'string' ? name : '',
      gtin: typeof gtin === 'string' ? gtin : null,
      labels: labelList,
      quantity: qm,
      unitPrice: up,
      total: tp,
    });
  });

  const payments: ValidInvoice['payments'] = [];
  eachOf('payment', 10, (pm, p) => {
    const type = readEnum(LPFR_PAYMENT_TYPES, pm['paymentType']);
    if (pm['paymentType'] === undefined || pm['paymentType'] === null) add(`${p}.paymentType`, GSC.fieldRequired);
    else if (!type) add(`${p}.paymentType`, GSC.invalidValue);
    const amount = pm['amount'];
    if (typeof amount !== 'number' || !Number.isFinite(amount) || decimals(amount) > 4)
      add(`${p}.amount`, GSC.invalidFormat);
    else if (amount < 0) add(`${p}.amount`, GSC.outOfRange);
    else if (type) payments.push({ type, amount: toPara(Math.round(amount * 100) / 100) ?? 0 });
  });

  const total = items.reduce((s, i) => s + i.total, 0);
  const paid = payments.reduce((s, p) => s + p.amount, 0);
  if (errors.length === 0 && paid < total) add('payment', GSC.invalidValue);
  if (errors.length > 0 || !invoiceType || !transactionType) throw new LpfrRefusal(400, errors);
  return {
    invoiceType,
    transactionType,
    cashier,
    buyerId,
    esirNumber,
    esirDateTime: esirDateTime && !Number.isNaN(esirDateTime.getTime()) ? esirDateTime : null,
    referentDocumentNumber,
    referentDocumentDT,
    omitQr,
    omitJournal,
    items,
    payments,
    total,
  };
}

/** `2024-03-12T07:47:09.548+01:00`: the instant in Belgrade local time with its offset. */
export function belgradeIso(ms: number): string {
  const parts = wallClock(new Date(ms));
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMin = Math.round((local - (ms - (ms % 1000))) / 60000);
  const sign = offsetMin >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMin);
  const off = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  const msPart = String(((ms % 1000) + 1000) % 1000).padStart(3, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${msPart}${off}`;
}

/**
 * The `vl` payload of the verification URL, as decoded from a real one: version 3, requestedBy and
 * signedBy (8 ASCII each), totalCounter and transactionTypeCounter (u32 LE), totalAmount × 10000 (u64 LE),
 * sdcDateTime in ms (u64 BE); then (sandbox's stand-ins) invoice and transaction type codes, and a 32-byte
 * "signature" over everything.
 */
export function verificationPayload(v: {
  uid: string;
  totalCounter: number;
  typedCounter: number;
  totalPara: Para;
  sdcMs: number;
  invoiceType: LpfrInvoiceType;
  transactionType: LpfrTransactionType;
}): Buffer {
  const head = Buffer.alloc(1 + 8 + 8 + 4 + 4 + 8 + 8 + 2);
  let o = head.writeUInt8(3, 0);
  o += head.write(v.uid, o, 'ascii');
  o += head.write(v.uid, o, 'ascii');
  o = head.writeUInt32LE(v.totalCounter, o);
  o = head.writeUInt32LE(v.typedCounter, o);
  o = head.writeBigUInt64LE(BigInt(v.totalPara) * 100n, o);
  o = head.writeBigUInt64BE(BigInt(v.sdcMs), o);
  o = head.writeUInt8(LPFR_INVOICE_TYPES.indexOf(v.invoiceType), o);
  head.writeUInt8(LPFR_TRANSACTION_TYPES.indexOf(v.transactionType), o);
  const sig = createHmac('sha256', `lpfr-sandbox:${v.uid}`).update(head).digest();
  return Buffer.concat([head, sig]);
}

/** The base of verification links (the Tax Administration's sandbox verification site). */
export const VERIFY_BASE = 'https://sandbox.suf.purs.gov.rs/v/?vl=';

/** Signs a validated invoice with the next counters: the stored record, whose `result` is the InvoiceResult. */
export function signInvoice(input: {
  v: ValidInvoice;
  id: LpfrIdentity;
  rates: TaxGroup;
  counters: { total: number; typed: number };
  nowMs: number;
  language: LpfrLanguage;
  requestId: string | null;
}): SignedInvoice {
  const { v, id, rates, counters, nowMs, language } = input;
  const extension = lpfrCounterExtension(v.invoiceType, v.transactionType);
  const invoiceNumber = `${id.uid}-${id.uid}-${counters.total}`;
  const invoiceCounter = `${counters.typed}/${counters.total}${extension}`;
  const sdcDateTime = belgradeIso(nowMs);
  const taxes = taxesPerLabel(rates, v.items);
  const vl = verificationPayload({
    uid: id.uid,
    totalCounter: counters.total,
    typedCounter: counters.typed,
    totalPara: v.total,
    sdcMs: nowMs,
    invoiceType: v.invoiceType,
    transactionType: v.transactionType,
  });
  const verificationUrl = VERIFY_BASE + encodeURIComponent(vl.toString('base64'));
  const journal = v.omitJournal
    ? null
    : buildLpfrJournal({
        language,
        tin: id.tin,
        businessName: id.businessName,
        locationName: id.locationName,
        address: id.address,
        district: id.district,
        cashier: v.cashier,
        buyerId: v.buyerId,
        esirNumber: v.esirNumber,
        esirDateTime: v.esirDateTime,
        referentDocumentNumber: v.referentDocumentNumber,
        referentDocumentDT: v.referentDocumentDT,
        invoiceType: v.invoiceType,
        transactionType: v.transactionType,
        items: v.items.map((i) => ({
          name: i.name,
          labels: i.labels,
          quantity: i.quantity,
          unitPrice: i.unitPrice,
          total: i.total,
        })),
        payments: v.payments,
        total: v.total,
        taxes: taxes.map((t) => ({ label: t.label, categoryName: t.categoryName, rate: t.rate, amount: t.amount })),
        sdcDateTime: new Date(nowMs),
        invoiceNumber,
        invoiceCounter,
      });
  const internal = createHash('sha256').update(`${invoiceNumber}|${v.total}|${nowMs}`).digest();
  const result: Record<string, unknown> = {
    requestedBy: id.uid,
    signedBy: id.uid,
    sdcDateTime,
    invoiceCounter,
    invoiceCounterExtension: extension,
    invoiceNumber,
    taxItems: taxes.map((t) => ({
      categoryType: t.categoryType,
      label: t.label,
      amount: t.amount / 100,
      rate: t.rate,
      categoryName: t.categoryName,
    })),
    verificationUrl,
    verificationQRCode: v.omitQr ? null : qrGifBase64(verificationUrl),
    journal,
    messages: language === 'en-US' ? 'Success' : 'Успешно',
    encryptedInternalData: Buffer.concat([internal, internal]).toString('base64'),
    signature: vl.subarray(vl.length - 32).toString('base64'),
    totalCounter: counters.total,
    transactionTypeCounter: counters.typed,
    totalAmount: v.total / 100,
    taxGroupRevision: rates.groupId,
    businessName: id.businessName,
    tin: id.tin,
    locationName: id.locationName,
    address: id.address,
    district: id.district,
    mrc: id.mrc,
  };
  return {
    totalCounter: counters.total,
    transactionTypeCounter: counters.typed,
    requestId: input.requestId,
    invoiceType: v.invoiceType,
    transactionType: v.transactionType,
    invoiceNumber,
    esirNumber: v.esirNumber,
    sdcDateTime,
    totalPara: v.total,
    referentDocumentNumber: v.referentDocumentNumber,
    result,
  };
}
