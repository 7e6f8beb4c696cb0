/**
 * The receipt pipeline of the sandbox: validation, the spec's rules in a fixed order, and the issued
 * receipt (counters, tax items, signature, verification URL, journal). Pure apart from the store.
 *
 * Order of checks: invoiceType/transactionType -> body (ERR_00202) -> order-number window
 * (returnIfOrderNumberExists / ERR_00603) -> referenced document (ERR_00201) -> amounts (ERR_00701)
 * -> advance labels (409 ERR_00302) -> Tax Administration (ERR_01010) -> issue.
 */
import { createHash, createHmac } from 'node:crypto';
import { KasaError } from '../../shared/errors.ts';
import { paraToDecimal, toMilli, toPara, type Para } from '../../shared/money.ts';
import { findLabel, taxesPerLabel, type LabelTax, type Shop } from './accounts.ts';
import { buildJournal, type JournalTax } from './journal.ts';
import {
  check,
  ReceiptRequestSchema,
  type Item,
  type Payment,
  type ReceiptRequest,
  type ValidationError,
} from './schemas.ts';
import type { Store, StoredReceipt } from './store.ts';

/**
 * A gateway error to be sent as the spec's error body (server.ts). Its own subclass of the one error type:
 * the server and the bulk endpoint branch on it, and the spec lets `code` be null (403, 429).
 */
export class SandboxError extends KasaError<string | null> {
  readonly details: Record<string, unknown> | undefined;
  readonly userMessage: string | undefined;

  constructor(
    status: number,
    code: string | null,
    message: string,
    details?: Record<string, unknown>,
    userMessage?: string,
  ) {
    super(code, message, { status });
    this.name = 'SandboxError';
    this.details = details;
    this.userMessage = userMessage;
  }
}

/** 400 ERR_00202 with validationErrors. */
export function validationError(errors: ValidationError[]): SandboxError {
  return new SandboxError(
    400,
    'ERR_00202',
    'Validation failed',
    { validationErrors: errors },
    'Подаци рачуна нису исправни.',
  );
}

/** Order numbers are unique per scope for this long (the spec's "about 14 days"). */
export const ORDER_NUMBER_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;

export const SALE_TYPES = ['normal', 'training', 'proforma', 'copy', 'advance'];
export const REFUND_TYPES = ['normal', 'training', 'advance'];

/** Counter extension of a receipt (see docs/gateway.md). */
export function counterExtension(invoiceType: string, transactionType: string, chainFinal = false): string {
  if (chainFinal) return 'ПП';
  const sale = transactionType === 'sale';
  switch (invoiceType) {
    case 'normal':
      return sale ? 'ОП' : 'ПР';
    case 'advance':
      return sale ? 'АП' : 'АР';
    case 'training':
      return sale ? 'ТП' : 'ТР';
    case 'copy':
      return sale ? 'КП' : 'КР';
    case 'proforma':
      return sale ? 'РП' : 'РР';
    default:
      return sale ? 'ОП' : 'ПР';
  }
}

/** Everything the pipeline needs from the server. */
export interface IssueContext {
  store: Store;
  shop: Shop;
  now: number;
}

/** The outcome of an issue: the receipt(s), and whether it already existed. */
export interface Issued {
  receipts: StoredReceipt[];
  existing: boolean;
}

interface ParsedLine {
  item: Item;
  total: Para;
}

/** Computes the tax items of a receipt: VAT included in price, aggregated per label, in para. */
export function computeTaxes(shop: Shop, items: readonly Item[]): LabelTax[] {
  return taxesPerLabel(
    shop.current,
    items.map((i) => ({ labels: i.labels, total: toPara(i.totalAmount) ?? 0 })),
  );
}

function sumItems(items: readonly Item[]): Para {
  return items.reduce((s, i) => s + (toPara(i.totalAmount) ?? 0), 0);
}

function sumPayments(payments: readonly Payment[]): Para {
  return payments.reduce((s, p) => s + (toPara(p.amount) ?? 0) + (toPara(p.advanceAmount ?? 0) ?? 0), 0);
}

/** Returns the existing receipt for returnIfOrderNumberExists, throws ERR_00603, or returns null. */
function checkOrderNumber(ctx: IssueContext, scopeKey: string, req: ReceiptRequest): StoredReceipt | null {
  const existing = ctx.store.byScope.get(scopeKey);
  if (!existing || ctx.now - existing.issuedAtMs >= ORDER_NUMBER_WINDOW_MS) return null;
  if (req.settings?.returnIfOrderNumberExists) return existing;
  if (req.settings?.skipOrderNumberValidation) return null;
  throw new SandboxError(
    400,
    'ERR_00603',
    `A receipt with orderNumber ${req.orderNumber} already exists`,
    { orderNumber: req.orderNumber, invoiceNumber: existing.invoiceNumber },
    'Рачун са овим бројем поруџбине већ постоји.',
  );
}

function checkAmounts(req: ReceiptRequest, payments: readonly Payment[]): void {
  if (req.settings?.skipAmountValidation) return;
  const itemsTotal = sumItems(req.items);
  const paymentsTotal = sumPayments(payments);
  if (itemsTotal !== paymentsTotal) {
    throw new SandboxError(
      400,
      'ERR_00701',
      'Sum of item totals does not match sum of payments',
      { itemsTotal: paraToDecimal(itemsTotal), paymentsTotal: paraToDecimal(paymentsTotal) },
      'Збир ставки није једнак збиру плаћања.',
    );
  }
}

function checkAdvanceLabels(shop: Shop, items: readonly Item[]): void {
  if (!shop.advanceLabels) return;
  const allowed = shop.advanceLabels;
  const bad = items.flatMap((i, n) =>
    i.labels.filter((l) => !allowed.has(l)).map((l) => ({ field: `items[${n}].labels`, label: l })),
  );
  if (bad.length > 0) {
    throw new SandboxError(
      409,
      'ERR_00302',
      `Advance items on a demo account must use labels ${[...allowed].join(', ')}`,
      {
        invalidLabels: bad,
        allowedLabels: [...allowed],
      },
    );
  }
}

/** The Tax Administration's verdict: unknown or not-enabled labels (2310), invalid GTIN (2803). */
function checkTaxAdministration(shop: Shop, items: readonly Item[]): void {
  const modelState: { property: string; errors: number[] }[] = [];
  items.forEach((item, n) => {
    if (item.labels.some((l) => !shop.enabledLabels.has(l) || !findLabel(shop.current, l))) {
      modelState.push({ property: `Items[${n}].Labels`, errors: [2310] });
    }
    if (shop.environment === 'production' && item.gtin !== undefined && !/^(\d{8}|\d{12,14})$/.test(item.gtin)) {
      modelState.push({ property: `Items[${n}].GTIN`, errors: [2803] });
    }
  });
  if (modelState.length > 0) {
    throw new SandboxError(400, 'ERR_01010', 'Rejected by the Tax Administration', {
      pursRawResponse: { message: 'One or more validation errors occurred', modelState },
    });
  }
}

function requireReferenced(ctx: IssueContext, invoiceNumber: string | undefined, what: string): StoredReceipt {
  if (!invoiceNumber) {
    throw new SandboxError(400, 'ERR_00201', `${what}: referentDocumentNumber is required`, {
      field: 'referentDocumentNumber',
    });
  }
  const ref = ctx.store.byInvoice.get(invoiceNumber);
  if (!ref || ref.shopId !== ctx.shop.id) {
    throw new SandboxError(400, 'ERR_00201', `Referenced document ${invoiceNumber} does not exist`, {
      referentDocumentNumber: invoiceNumber,
    });
  }
  return ref;
}

/** Validates a sale or refund request (ERR_00202 with every problem found); returns the parsed body. */
export function validateReceipt(invoiceType: string, transactionType: string, raw: unknown): ReceiptRequest {
  const types = transactionType === 'sale' ? SALE_TYPES : transactionType === 'refund' ? REFUND_TYPES : [];
  if (!types.includes(invoiceType)) {
    throw validationError([{ field: 'invoiceType', message: `${invoiceType}/${transactionType} is not supported` }]);
  }
  const parsed = check(ReceiptRequestSchema, raw);
  const errors: ValidationError[] = parsed.ok ? [] : [...parsed.errors];
  const obj = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  if (obj['payments'] === undefined || (Array.isArray(obj['payments']) && obj['payments'].length === 0)) {
    errors.push({ field: 'payments', message: 'At least one payment is required' });
  }
  if (transactionType === 'refund') {
    if (obj['referentDocumentNumber'] === undefined)
      errors.push({ field: 'referentDocumentNumber', message: 'Required for a refund' });
    if (obj['referentDocumentDt'] === undefined)
      errors.push({ field: 'referentDocumentDt', message: 'Required for a refund' });
    const settings = obj['settings'] as Record<string, unknown> | undefined;
    if (obj['buyerId'] === undefined && settings?.['skipBuyerIdValidation'] !== true) {
      errors.push({ field: 'buyerId', message: 'Required for a refund unless settings.skipBuyerIdValidation' });
    }
  }
  if (errors.length > 0 || !parsed.ok) throw validationError(errors);
  return parsed.data;
}

/** POST /receipt/{invoiceType}/{sale|refund}: one receipt. */
export function issueReceipt(ctx: IssueContext, invoiceType: string, transactionType: string, raw: unknown): Issued {
  const req = validateReceipt(invoiceType, transactionType, raw);
  const payments = req.payments ?? [];
  const scopeKey = `${ctx.shop.id}|${invoiceType}|${transactionType}|${req.orderNumber}`;
  const existing = checkOrderNumber(ctx, scopeKey, req);
  if (existing) return { receipts: [existing], existing: true };
  let referentDt = req.referentDocumentDt;
  if (transactionType === 'refund' || invoiceType === 'copy') {
    if (req.referentDocumentNumber || transactionType === 'refund') {
      const ref = requireReferenced(ctx, req.referentDocumentNumber, transactionType);
      referentDt ??= ref.sdcDateTime;
    }
  }
  checkAmounts(req, payments);
  if (invoiceType === 'advance') checkAdvanceLabels(ctx.shop, req.items);
  checkTaxAdministration(ctx.shop, req.items);
  const r = build(ctx, {
    invoiceType,
    transactionType,
    req,
    items: req.items,
    payments,
    scopeKey,
    referentDocumentNumber: req.referentDocumentNumber,
    referentDocumentDt: referentDt,
  });
  ctx.store.addReceipt(r);
  return { receipts: [r], existing: false };
}

/** POST /receipt/{invoiceNumber}/refund/full: refunds 100 % of the original (its items and payments). */
export function issueFullRefund(ctx: IssueContext, invoiceNumber: string, raw: unknown): Issued {
  const original = ctx.store.byInvoice.get(invoiceNumber);
  if (!original || original.shopId !== ctx.shop.id) {
    throw new SandboxError(404, 'NOT_FOUND', `Receipt ${invoiceNumber} not found`);
  }
  const parsed = check(ReceiptRequestSchema, raw);
  const errors: ValidationError[] = parsed.ok ? [] : [...parsed.errors];
  const obj = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const settings = obj['settings'] as Record<string, unknown> | undefined;
  if (obj['buyerId'] === undefined && settings?.['skipBuyerIdValidation'] !== true) {
    errors.push({ field: 'buyerId', message: 'Required for a refund unless settings.skipBuyerIdValidation' });
  }
  if (original.transactionType !== 'sale' || !REFUND_TYPES.includes(original.invoiceType)) {
    errors.push({
      field: 'invoiceNumber',
      message: `A ${original.invoiceType} ${original.transactionType} cannot be refunded`,
    });
  }
  if (errors.length > 0 || !parsed.ok) throw validationError(errors);
  const req = parsed.data;
  const scopeKey = `${ctx.shop.id}|${original.invoiceType}|refund|${req.orderNumber}`;
  const existing = checkOrderNumber(ctx, scopeKey, req);
  if (existing) return { receipts: [existing], existing: true };
  const r = build(ctx, {
    invoiceType: original.invoiceType,
    transactionType: 'refund',
    req,
    items: original.items,
    payments: original.payments,
    scopeKey,
    referentDocumentNumber: original.invoiceNumber,
    referentDocumentDt: original.sdcDateTime,
  });
  ctx.store.addReceipt(r);
  return { receipts: [r], existing: false };
}

/** POST /receipt/advance/finalize: an advance refund (АР) then a normal sale (ПП) referencing it. */
export function issueFinalize(ctx: IssueContext, raw: unknown): Issued {
  const obj = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const parsed = check(ReceiptRequestSchema, raw);
  const errors: ValidationError[] = parsed.ok ? [] : [...parsed.errors];
  if (obj['payments'] === undefined || (Array.isArray(obj['payments']) && obj['payments'].length === 0)) {
    errors.push({ field: 'payments', message: 'At least one payment is required' });
  }
  if (errors.length > 0 || !parsed.ok) throw validationError(errors);
  const req = parsed.data;
  const payments = req.payments ?? [];
  const scopeKey = `${ctx.shop.id}|advance|finalize|${req.orderNumber}`;
  const existing = checkOrderNumber(ctx, scopeKey, req);
  if (existing) {
    const refund = existing.referentDocumentNumber
      ? ctx.store.byInvoice.get(existing.referentDocumentNumber)
      : undefined;
    return { receipts: refund ? [refund, existing] : [existing, existing], existing: true };
  }
  const advance = requireReferenced(ctx, req.referentDocumentNumber, 'Advance finalize');
  if (advance.invoiceType !== 'advance' || advance.transactionType !== 'sale') {
    throw new SandboxError(400, 'ERR_00201', `Referenced document ${advance.invoiceNumber} is not an advance sale`, {
      referentDocumentNumber: advance.invoiceNumber,
    });
  }
  checkAmounts(req, payments);
  checkAdvanceLabels(ctx.shop, req.items);
  checkTaxAdministration(ctx.shop, req.items);
  // The advance refund cancels every advance of the chain net of their refunds (docs/advances.md).
  const chain = advanceChain(ctx, advance);
  const refund = build(ctx, {
    invoiceType: 'advance',
    transactionType: 'refund',
    req: { ...req, buyerId: req.buyerId, metaFields: req.metaFields },
    items: chain.items,
    payments: chain.payments,
    scopeKey: null,
    referentDocumentNumber: advance.invoiceNumber,
    referentDocumentDt: advance.sdcDateTime,
  });
  ctx.store.addReceipt(refund);
  const final = build(ctx, {
    invoiceType: 'normal',
    transactionType: 'sale',
    req,
    items: req.items,
    payments,
    scopeKey,
    referentDocumentNumber: refund.invoiceNumber,
    referentDocumentDt: refund.sdcDateTime,
    chainFinal: true,
    advancePaid: chain.netPara,
  });
  ctx.store.addReceipt(final);
  return { receipts: [refund, final], existing: false };
}

/**
 * The advances of the chain ending at `last` (each further advance sale references the previous one, the
 * Tax Administration's rule) and what the advance refund of a finalize cancels: the chain net of the
 * advance refunds made of its advances. One advance without refunds: its own items and payments.
 */
function advanceChain(ctx: IssueContext, last: StoredReceipt): { items: Item[]; payments: Payment[]; netPara: Para } {
  const chain: StoredReceipt[] = [last];
  for (let cur = last; chain.length < 1000;) {
    const prev = cur.referentDocumentNumber ? ctx.store.byInvoice.get(cur.referentDocumentNumber) : undefined;
    if (!prev || prev.shopId !== ctx.shop.id || prev.invoiceType !== 'advance' || prev.transactionType !== 'sale')
      break;
    chain.unshift(prev);
    cur = prev;
  }
  const numbers = new Set(chain.map((r) => r.invoiceNumber));
  const refunds = ctx.store.receipts.filter(
    (r) =>
      r.shopId === ctx.shop.id &&
      r.invoiceType === 'advance' &&
      r.transactionType === 'refund' &&
      r.referentDocumentNumber !== null &&
      numbers.has(r.referentDocumentNumber),
  );
  const netPara = chain.reduce((s, r) => s + r.totalPara, 0) - refunds.reduce((s, r) => s + r.totalPara, 0);
  if (chain.length === 1 && refunds.length === 0) return { items: last.items, payments: last.payments, netPara };
  // Net per label set, one "Аванс" line each (the Tax Administration's advance lines are per tax rate).
  const perLabels = new Map<string, { labels: string[]; para: Para }>();
  const add = (items: readonly Item[], sign: 1 | -1): void => {
    for (const i of items) {
      const key = i.labels.join('+');
      const e = perLabels.get(key) ?? { labels: [...i.labels], para: 0 };
      e.para += sign * (toPara(i.totalAmount) ?? 0);
      perLabels.set(key, e);
    }
  };
  for (const r of chain) add(r.items, 1);
  for (const r of refunds) add(r.items, -1);
  const items: Item[] = [...perLabels.values()]
    .filter((e) => e.para > 0)
    .map((e) => ({
      name: 'Аванс',
      quantity: 1,
      unitPrice: paraToDecimal(e.para),
      totalAmount: paraToDecimal(e.para),
      labels: e.labels,
    }));
  const type = chain[0]?.payments[0]?.type ?? 'cash';
  return { items, payments: [{ type, amount: paraToDecimal(netPara) }], netPara };
}

interface BuildInput {
  invoiceType: string;
  transactionType: string;
  req: ReceiptRequest;
  items: Item[];
  payments: Payment[];
  scopeKey: string | null;
  referentDocumentNumber: string | undefined;
  referentDocumentDt: string | undefined;
  chainFinal?: boolean;
  advancePaid?: Para;
}

const SIGNING_KEY = 'kasa-sandbox-secure-element';

/** Builds (does not store) one issued receipt. */
function build(ctx: IssueContext, b: BuildInput): StoredReceipt {
  const { shop, store } = ctx;
  const counters = store.nextCounters(shop.id, b.invoiceType, b.transactionType);
  const invoiceNumber = `${shop.requestedBy}-${shop.signedBy}-${counters.total}`;
  const extension = counterExtension(b.invoiceType, b.transactionType, b.chainFinal);
  const invoiceCounter = `${counters.typed}/${counters.total}${extension}`;
  const sdc = new Date(ctx.now);
  const sdcDateTime = sdc.toISOString();
  const lines: ParsedLine[] = b.items.map((item) => ({ item, total: toPara(item.totalAmount) ?? 0 }));
  const totalPara = lines.reduce((s, l) => s + l.total, 0);
  const taxes = computeTaxes(shop, b.items);
  const canonical = [invoiceNumber, sdcDateTime, b.invoiceType, b.transactionType, totalPara, shop.tin].join('|');
  const signature = createHmac('sha256', SIGNING_KEY).update(canonical).digest('base64');
  const verificationUrl = `https://tap.sandbox.suf.purs.gov.rs/v/?vl=${verificationPayload(shop, counters, b, sdc, totalPara, canonical)}`;
  // The spec's request has no cashier field: a client may send `cashier` or `metaFields.cashier`.
  const metaCashier = b.req.metaFields?.['cashier'];
  const cashier =
    b.req.cashier ??
    (typeof metaCashier === 'string' && metaCashier.trim() ? metaCashier.trim().slice(0, 30) : 'Каса 1');
  const journal = buildJournal({
    tin: shop.tin,
    businessName: shop.businessName,
    locationName: shop.locationName,
    address: shop.address,
    city: shop.city,
    cashier,
    esirNumber: `${shop.id}/1.0`,
    buyerId: b.req.buyerId,
    referentDocumentNumber: b.referentDocumentNumber,
    referentDocumentDt: b.referentDocumentDt,
    invoiceType: b.invoiceType,
    transactionType: b.transactionType,
    items: lines.map((l) => ({
      name: l.item.name,
      labels: l.item.labels,
      quantity: toMilli(l.item.quantity) ?? 0,
      unitPrice: toPara(l.item.unitPrice) ?? 0,
      total: l.total,
      discount: l.item.discount !== undefined ? (toPara(l.item.discount) ?? 0) : undefined,
    })),
    payments: b.payments.map((p) => ({ type: p.type, amount: toPara(p.amount) ?? 0 })),
    advancePaid: b.advancePaid,
    total: totalPara,
    taxes: taxes.map((t): JournalTax => ({
      label: t.label,
      categoryName: t.categoryName,
      rate: t.rate,
      amount: t.amount,
    })),
    sdcDateTime: sdc,
    esirDateTime: b.req.dateTimeOfIssue ? new Date(b.req.dateTimeOfIssue) : undefined,
    invoiceNumber,
    invoiceCounter,
    textHeader: b.req.settings?.textHeader,
    textFooter: b.req.settings?.textFooter,
    orderNumber: b.req.settings?.orderNumberUnderReceipt ? b.req.orderNumber : undefined,
  });
  const receipt: Record<string, unknown> = {
    invoiceNumber,
    invoiceCounter,
    invoiceCounterExtension: extension,
    totalCounter: counters.total,
    transactionTypeCounter: counters.typed,
    businessName: shop.businessName,
    locationName: shop.locationName,
    address: shop.address,
    tin: shop.tin,
    sdcDateTime,
    verificationUrl,
    totalAmount: paraToDecimal(totalPara),
    invoiceType: b.invoiceType,
    transactionType: b.transactionType,
    taxItems: taxes.map((t) => ({
      categoryType: t.categoryType,
      label: t.label,
      amount: paraToDecimal(t.amount),
      rate: t.rate,
      categoryName: t.categoryName,
    })),
    additional: {
      mrc: `01-0001-${shop.requestedBy}`,
      tin: shop.tin,
      signedBy: shop.signedBy,
      signature,
      requestedBy: shop.requestedBy,
      taxGroupRevision: shop.current.groupId,
      messages: 'Успешно',
    },
    orderNumber: b.req.orderNumber,
    journal,
  };
  if (b.referentDocumentNumber) receipt['referentDocumentNumber'] = b.referentDocumentNumber;
  if (b.referentDocumentDt) receipt['referentDocumentDt'] = b.referentDocumentDt;
  if (b.req.buyerId) receipt['buyerId'] = b.req.buyerId;
  if (b.req.metaFields !== undefined) receipt['metaFields'] = b.req.metaFields;
  return {
    id: store.nextReceiptId,
    shopId: shop.id,
    invoiceNumber,
    orderNumber: b.req.orderNumber,
    invoiceType: b.invoiceType,
    transactionType: b.transactionType,
    issuedAtMs: ctx.now,
    sdcDateTime,
    totalPara,
    referentDocumentNumber: b.referentDocumentNumber ?? null,
    scopeKey: b.scopeKey,
    items: b.items,
    payments: b.payments,
    receipt,
  };
}

const TYPE_CODES: Record<string, number> = { normal: 0, proforma: 1, copy: 2, training: 3, advance: 4 };

/** The `vl` parameter: a small binary record (ids, counters, time, type, amount, hash), base64url. */
function verificationPayload(
  shop: Shop,
  counters: { total: number; typed: number },
  b: BuildInput,
  sdc: Date,
  totalPara: Para,
  canonical: string,
): string {
  const head = Buffer.alloc(1 + 8 + 8 + 4 + 4 + 8 + 1 + 1 + 8);
  let o = head.writeUInt8(3, 0);
  o += head.write(shop.requestedBy.padEnd(8).slice(0, 8), o, 'ascii');
  o += head.write(shop.signedBy.padEnd(8).slice(0, 8), o, 'ascii');
  o = head.writeUInt32LE(counters.total, o);
  o = head.writeUInt32LE(counters.typed, o);
  o = head.writeBigUInt64LE(BigInt(sdc.getTime()), o);
  o = head.writeUInt8(TYPE_CODES[b.invoiceType] ?? 0, o);
  o = head.writeUInt8(b.transactionType === 'refund' ? 1 : 0, o);
  head.writeBigUInt64LE(BigInt(totalPara), o);
  const hash = createHash('sha256').update(canonical).digest().subarray(0, 16);
  return Buffer.concat([head, hash]).toString('base64url');
}
