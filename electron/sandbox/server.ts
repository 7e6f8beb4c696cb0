/**
 * The sandbox Fiscal Receipt Gateway: a faithful, embeddable fake of the cloud API (see
 * ../shared/spec/fiscal-receipt-gateway-api.md and docs/gateway.md) on a plain node:http server, with
 * test controls (faults, offline, clock, latency, async failure, ledger) in-process and under
 * `/__sandbox/`. Never logs; an API key is never written anywhere.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { finished } from 'node:stream/promises';
import {
  authorize,
  isJsonContentType,
  JSON_TYPE,
  parseJson,
  readBody,
  routeTable,
  sendBody,
  type HttpMethod,
} from '../../shared/node/http/index.ts';
import { ACCOUNTS, type Account } from './accounts.ts';
import { FaultPlan, FaultPlanSchema, alterTotals, type FaultRule } from './faults.ts';
import { tinyPdf, qrPng } from './files.ts';
import { variantOf, type SandboxVariant } from './variant.ts';
import {
  issueFinalize,
  issueFullRefund,
  issueReceipt,
  REFUND_TYPES,
  SALE_TYPES,
  SandboxError,
  validateReceipt,
  validationError,
  type IssueContext,
} from './issue.ts';
import {
  CashierCreateSchema,
  CashierUpdateSchema,
  check,
  DraftCreateSchema,
  DraftUpdateSchema,
  LookupSchema,
  PAYMENT_TYPES,
  ReceiptRequestSchema,
  SendEmailSchema,
} from './schemas.ts';
import { Store, type Cashier, type Draft, type StoredReceipt } from './store.ts';
import { createTaxSchedule, TaxGroupSchema } from './tax-schedule.ts';

/**
 * A test-control request must name this server in its Host header (loopback name and port, or the URL it
 * was started with) and come from no other origin (no Origin header, or this server's own).
 */
export function controlCallerOk(req: http.IncomingMessage, baseUrl: string): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  const { port, host: own } = new URL(baseUrl);
  const allowed = new Set([own, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  if (!allowed.has(host)) return false;
  const origin = req.headers.origin;
  return origin === undefined || origin === `http://${host}`;
}

/**
 * The embedded demo gateway's signer for a till: `D` and seven characters of a hash of its terminal id, so
 * each demo till's invoice numbers are its own (8 characters, like a real security element's id).
 */
export function demoSigner(terminalId: string): string {
  let h = 0x811c9dc5;
  for (const ch of terminalId) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return `D${h.toString(36).toUpperCase().padStart(7, '0').slice(-7)}`;
}

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface; default 127.0.0.1. */
  host?: string;
  /** SQLite file to persist the state in; in memory without it. */
  dataFile?: string;
  /** The base clock (ms since epoch); the clock offset is added to it. Default Date.now. */
  now?: () => number;
  /** Latency added before answering every API request. Default 0. */
  latencyMs?: number;
  /**
   * `spec` (default): answers exactly as the spec shows. `sdk`: answers in the shapes the vendor's SDK
   * expects where they differ (see sandbox/variant.ts).
   */
  variant?: SandboxVariant;
  /** Processing time of a bulk request, per receipt in it, in ms (the shop stays locked meanwhile). Default 5. */
  bulkDelayMsPerReceipt?: number;
  /**
   * The security element that signs (the middle of every invoice number, 8 characters). Default: the demo
   * account's. An embedded sandbox takes one of its own per till, as two real tills with their own demo
   * accounts would have, so two demo tills never issue the same invoice number (a store hub refuses that).
   */
  signedBy?: string;
}

/** One ledger line: every receipt issued, in order. */
export interface LedgerEntry {
  orderNumber: string;
  invoiceNumber: string;
  invoiceType: string;
  transactionType: string;
  sdcDateTime: string;
  totalAmount: number;
  referentDocumentNumber: string | null;
  shop: number;
}

/** In-process test controls; each returns what its `/__sandbox/` endpoint returns. */
export interface SandboxControls {
  /** Replaces the fault plan (POST /__sandbox/faults {rules, seed?}). */
  setFaults(rules: FaultRule[], options?: { seed?: number }): void;
  /** While offline every API request's socket is destroyed without processing. */
  setOffline(offline: boolean): void;
  /** Sets the clock offset added to the base clock. */
  setClockOffset(ms: number): void;
  /** Moves the clock forward by `ms` (adds to the offset). */
  advanceClock(ms: number): void;
  /** The sandbox clock now (ms). */
  now(): number;
  /** Latency added before answering every API request. */
  setLatency(ms: number): void;
  /** Makes the async endpoints of this key answer 500 ERR_00002. */
  setAsyncFailure(apiKey: string, fail: boolean): void;
  /** Every receipt issued, in order. */
  ledger(): { receipts: LedgerEntry[] };
  /** Every e-mail recorded (never sent). */
  emails(): { emails: unknown[] };
  /** Request counts by "METHOD /route pattern" of every API request received, dropped ones included. */
  stats(): {
    requests: Record<string, number>;
    total: number;
    async: { queued: number; issued: number; failed: number };
  };
  /** Back to a fresh sandbox: no receipts, drafts, cashiers, e-mails, faults; online; clock offset 0. */
  reset(): void;
  /** Resolves when every queued async receipt has been processed. */
  idle(): Promise<void>;
  /** While true, no reply carries a receipt's `journal`, the archive's neither (POST /__sandbox/journal {withheld}). */
  setJournalWithheld(withheld: boolean): void;
  /**
   * While true, archived receipts carry their `items` and `payments` as the vendor's SDK reads them
   * (`ReceiptDetailsDto`); off by default, as the spec shows none (POST /__sandbox/archive-items {included}).
   */
  setArchiveItems(included: boolean): void;
}

/** A running sandbox. */
export interface Sandbox {
  url: string;
  controls: SandboxControls;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  body?: unknown;
  raw?: { contentType: string; data: Buffer };
}

interface Ctx {
  account: Account;
  params: string[];
  query: URLSearchParams;
  json(): unknown;
  cid: string;
  path: string;
}

/**
 * Who may call a route: anyone (the public file links), any valid API key (the key's own details), a key
 * with access to its shop, or the same for the cashier API, whose refusals carry the spec's shorter body.
 */
type Caller = 'public' | 'key' | 'shop' | 'cashier';

/** The shape of an error body: the cashier API's refusals are `{message}` only. */
type AuthMode = 'api' | 'cashier';

interface Route {
  method: HttpMethod;
  path: string;
  caller: Caller;
  /** One bulk at a time per shop (429 for a second one meanwhile). */
  bulk: boolean;
  handle(c: Ctx): Reply | Promise<Reply>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const MAX_BODY = 10 * 1024 * 1024;

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

function intParam(query: URLSearchParams, name: string, fallback: number, max?: number): number {
  const v = query.get(name);
  if (v === null || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw validationError([{ field: name, message: 'Must be a positive integer' }]);
  return max ? Math.min(n, max) : n;
}

function normalizePaymentType(t: string): string {
  return t.toLowerCase().replace(/_/g, '');
}

function paginate<T>(
  all: T[],
  query: URLSearchParams,
): { data: T[]; meta: { page: number; limit: number; total: number; totalPages: number } } {
  const page = intParam(query, 'page', 1);
  const limit = intParam(query, 'limit', 20, 100);
  return {
    data: all.slice((page - 1) * limit, page * limit),
    meta: { page, limit, total: all.length, totalPages: Math.ceil(all.length / limit) },
  };
}

function dateParam(query: URLSearchParams, name: string): number | null {
  const v = query.get(name);
  if (!v) return null;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw validationError([{ field: name, message: 'Must be an ISO date' }]);
  return t;
}

/** Folds case and diacritics (and Serbian Latin đ) for fuzzy name filters. */
function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').replace(/đ/gi, 'dj').toLowerCase();
}

/** Starts the sandbox gateway. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const baseClock = options.now ?? Date.now;
  let clockOffset = 0;
  let latencyMs = options.latencyMs ?? 0;
  let offline = false;
  const store = new Store(options.dataFile);
  const faults = new FaultPlan();
  const asyncFailing = new Set<string>();
  const bulkLocks = new Set<number>();
  const hung = new Set<http.ServerResponse>();
  const asyncTimers = new Set<NodeJS.Timeout>();
  let asyncWaiters: (() => void)[] = [];
  let requestCounts = new Map<string, number>();
  let asyncCounts = { queued: 0, issued: 0, failed: 0 };
  let url = '';
  const variant = variantOf(options.variant);
  let journalWithheld = false;
  let archiveItems = false;
  const bulkDelayPerReceipt = options.bulkDelayMsPerReceipt ?? 5;

  const now = () => baseClock() + clockOffset;
  const taxSchedule = createTaxSchedule();
  const issueCtx = (account: Account): IssueContext => {
    const shop = taxSchedule.shopAt(account.shop, now());
    return { store, shop: options.signedBy ? { ...shop, signedBy: options.signedBy } : shop, now: now() };
  };

  /** The wire receipt: stored fields plus the URLs of this server. */
  const present = (r: StoredReceipt, archive = false, bulk = false): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      ...r.receipt,
      invoicePdfUrl: `${url}/files/${encodeURIComponent(r.invoiceNumber)}.pdf`,
    };
    if (!bulk) Object.assign(out, variant.receiptLines(r.items, r.payments));
    if (archive) {
      out['qrCodeFileUrl'] = `${url}/files/${encodeURIComponent(r.invoiceNumber)}.png`;
      out['receiptId'] = r.id;
    }
    if (journalWithheld || (!archive && variant.issuedWithoutJournal)) delete out['journal'];
    if (archive && archiveItems) {
      out['items'] = r.items;
      out['payments'] = r.payments;
    }
    return out;
  };

  const ownReceipt = (c: Ctx, invoiceNumber: string): StoredReceipt | undefined => {
    const r = store.byInvoice.get(invoiceNumber);
    return r && r.shopId === c.account.shop.id ? r : undefined;
  };

  const recordSendTo = (r: StoredReceipt, raw: unknown) => {
    const settings = (raw as { settings?: { sendToEmail?: unknown } } | null)?.settings;
    if (typeof settings?.sendToEmail === 'string') {
      store.addEmail({
        shopId: r.shopId,
        invoiceNumber: r.invoiceNumber,
        email: settings.sendToEmail,
        cc: [],
        bcc: [],
        attachment: `${r.invoiceNumber}.pdf`,
        source: 'settings.sendToEmail',
        at: new Date(now()).toISOString(),
      });
    }
  };

  const issued = (c: Ctx, r: StoredReceipt): Reply => ({
    status: 201,
    body: { correlationId: c.cid, receipt: present(r) },
  });

  // ---- async ----------------------------------------------------------------------------------

  const settleAsync = () => {
    if (asyncTimers.size === 0) {
      const waiters = asyncWaiters;
      asyncWaiters = [];
      waiters.forEach((w) => w());
    }
  };

  const queueAsync = (c: Ctx, invoiceType: string, transactionType: string): Reply => {
    if (asyncFailing.has(c.account.apiKey))
      throw new SandboxError(500, 'ERR_00002', 'Async processing is not available for this account');
    const raw = c.json();
    let orderNumber: string;
    if (transactionType === 'finalize') {
      if (invoiceType !== 'advance')
        throw validationError([{ field: 'invoiceType', message: 'Only advance can be finalized' }]);
      const o = check(ReceiptRequestSchema.pick({ orderNumber: true }), raw);
      if (!o.ok) throw validationError(o.errors);
      orderNumber = o.data.orderNumber;
    } else {
      orderNumber = validateReceipt(invoiceType, transactionType, raw).orderNumber;
    }
    const account = c.account;
    asyncCounts.queued += 1;
    const timer = setTimeout(() => {
      asyncTimers.delete(timer);
      try {
        const ctx = issueCtx(account);
        const result =
          transactionType === 'finalize'
            ? issueFinalize(ctx, raw)
            : issueReceipt(ctx, invoiceType, transactionType, raw);
        const last = result.receipts[result.receipts.length - 1];
        if (last && !result.existing) recordSendTo(last, raw);
        asyncCounts.issued += 1;
      } catch {
        asyncCounts.failed += 1;
      }
      settleAsync();
    }, 5);
    asyncTimers.add(timer);
    return { status: 201, body: { correlationId: c.cid, status: 'queued', orderNumber } };
  };

  // ---- archive chain --------------------------------------------------------------------------

  const chainOf = (r: StoredReceipt) => {
    let root = r;
    const seen = new Set<string>([root.invoiceNumber]);
    while (root.referentDocumentNumber) {
      const up = store.byInvoice.get(root.referentDocumentNumber);
      if (!up || up.shopId !== r.shopId || seen.has(up.invoiceNumber)) break;
      seen.add(up.invoiceNumber);
      root = up;
    }
    const members = new Set<string>([root.invoiceNumber]);
    const chain: StoredReceipt[] = [root];
    for (const candidate of store.receipts) {
      if (candidate.shopId !== r.shopId || members.has(candidate.invoiceNumber)) continue;
      if (candidate.referentDocumentNumber && members.has(candidate.referentDocumentNumber)) {
        members.add(candidate.invoiceNumber);
        chain.push(candidate);
      }
    }
    const fiscal = chain.filter((x) => x.invoiceType === 'normal' || x.invoiceType === 'advance');
    const sold = fiscal.filter((x) => x.transactionType === 'sale').reduce((s, x) => s + x.totalPara, 0);
    const refunded = fiscal.filter((x) => x.transactionType === 'refund').reduce((s, x) => s + x.totalPara, 0);
    return {
      chain: chain.map((x) => ({
        invoiceNumber: x.invoiceNumber,
        invoiceCounter: x.receipt['invoiceCounter'],
        invoiceType: x.invoiceType,
        transactionType: x.transactionType,
        orderNumber: x.orderNumber,
        sdcDateTime: x.sdcDateTime,
        totalAmount: x.totalPara / 100,
        referentDocumentNumber: x.referentDocumentNumber,
      })),
      chainMetadata: {
        rootInvoiceNumber: root.invoiceNumber,
        length: chain.length,
        position: chain.findIndex((x) => x.invoiceNumber === r.invoiceNumber),
        soldAmount: sold / 100,
        refundedAmount: refunded / 100,
        remainingAmount: (sold - refunded) / 100,
      },
    };
  };

  // ---- routes ---------------------------------------------------------------------------------

  const routes: Route[] = [];
  const route = (method: HttpMethod, path: string, caller: Caller, handle: Route['handle'], bulk = false): void => {
    routes.push({ method, path, caller, handle, bulk });
  };

  route('GET', '/receipt/tax-rates', 'shop', (c) => ({
    status: 200,
    body: ((shop) => variant.taxRatesReply(shop.current, shop.history))(taxSchedule.shopAt(c.account.shop, now())),
  }));

  // drafts
  route('POST', '/receipt/drafts', 'shop', (c) => {
    const r = check(DraftCreateSchema, c.json());
    if (!r.ok) throw validationError(r.errors);
    const at = new Date(now()).toISOString();
    const draft: Draft = {
      ...r.data,
      id: store.newDraftId(),
      shopId: c.account.shop.id,
      companyId: c.account.shop.companyId,
      status: 'draft',
      createdAt: at,
      updatedAt: at,
    };
    store.saveDraft(draft);
    return { status: 201, body: { id: draft.id, draft } };
  });
  route('GET', '/receipt/drafts', 'shop', (c) => {
    const q = c.query;
    const exact = q.get('orderNumberExact') === 'true';
    const orderNumber = q.get('orderNumber');
    const orderNumbers = q
      .getAll('orderNumbers')
      .flatMap((s) => s.split(','))
      .filter(Boolean);
    const draftName = q.get('draftName');
    const paymentType = q.get('paymentType');
    const start = dateParam(q, 'startDate');
    const end = dateParam(q, 'endDate');
    const metaRaw = q.get('metaFields');
    let meta: Record<string, unknown> | null = null;
    if (metaRaw) {
      try {
        meta = JSON.parse(metaRaw) as Record<string, unknown>;
      } catch {
        throw validationError([{ field: 'metaFields', message: 'Must be a JSON object' }]);
      }
    }
    let list = [...store.drafts.values()].filter((d) => d.shopId === c.account.shop.id);
    if (orderNumber) {
      list = list.filter((d) =>
        exact ? d.orderNumber === orderNumber : d.orderNumber.toLowerCase().includes(orderNumber.toLowerCase()),
      );
    }
    if (orderNumbers.length > 0) list = list.filter((d) => orderNumbers.includes(d.orderNumber));
    if (draftName) list = list.filter((d) => d.draftName.toLowerCase().includes(draftName.toLowerCase()));
    for (const key of ['invoiceType', 'transactionType', 'buyerId', 'invoiceNumber', 'cashier'] as const) {
      const v = q.get(key);
      if (v) list = list.filter((d) => d[key === 'invoiceNumber' ? 'referentDocumentNumber' : key] === v);
    }
    if (paymentType) {
      const want = normalizePaymentType(paymentType);
      list = list.filter((d) =>
        ((d['payments'] as { type: string }[] | undefined) ?? []).some((p) => normalizePaymentType(p.type) === want),
      );
    }
    if (start !== null) list = list.filter((d) => Date.parse(d.createdAt) >= start);
    if (end !== null) list = list.filter((d) => Date.parse(d.createdAt) <= end);
    if (meta) {
      const m = meta;
      list = list.filter((d) => {
        const fields = (d['metaFields'] as Record<string, unknown> | undefined) ?? {};
        return Object.entries(m).every(([k, v]) => JSON.stringify(fields[k]) === JSON.stringify(v));
      });
    }
    const sortBy = q.get('sortBy') ?? 'createdAt';
    const dir = (q.get('sortOrder') ?? 'DESC').toUpperCase() === 'ASC' ? 1 : -1;
    list.sort((a, b) => {
      const av = a[sortBy] as string | number | undefined;
      const bv = b[sortBy] as string | number | undefined;
      if (av === bv || av === undefined || bv === undefined) return dir * (a.id - b.id);
      return dir * (av < bv ? -1 : 1);
    });
    return { status: 200, body: paginate(list, q) };
  });
  const ownDraft = (c: Ctx): Draft => {
    const d = store.drafts.get(Number(c.params[0]));
    if (!d || d.shopId !== c.account.shop.id)
      throw new SandboxError(404, 'NOT_FOUND', `Draft ${c.params[0]} not found`);
    return d;
  };
  route('GET', '/receipt/drafts/{id}', 'shop', (c) => ({ status: 200, body: ownDraft(c) }));
  route('PUT', '/receipt/drafts/{id}', 'shop', (c) => {
    const d = ownDraft(c);
    const r = check(DraftUpdateSchema, c.json());
    if (!r.ok) throw validationError(r.errors);
    const updated: Draft = {
      ...d,
      ...r.data,
      id: d.id,
      shopId: d.shopId,
      companyId: d.companyId,
      status: 'draft',
      createdAt: d.createdAt,
      updatedAt: new Date(now()).toISOString(),
    };
    store.saveDraft(updated);
    return { status: 200, body: updated };
  });
  route('DELETE', '/receipt/drafts/{id}', 'shop', (c) => {
    const d = ownDraft(c);
    store.deleteDraft(d.id);
    return { status: 200, body: { success: true, id: d.id } };
  });

  route('POST', '/receipt/send-email', 'shop', (c) => {
    const r = check(SendEmailSchema, c.json());
    if (!r.ok) throw validationError(r.errors);
    const receipt = ownReceipt(c, r.data.invoiceNumber);
    if (!receipt) throw new SandboxError(404, 'NOT_FOUND', `Receipt ${r.data.invoiceNumber} not found`);
    store.addEmail({
      shopId: receipt.shopId,
      invoiceNumber: receipt.invoiceNumber,
      email: r.data.email,
      cc: r.data.cc ?? [],
      bcc: r.data.bcc ?? [],
      attachment: `${receipt.invoiceNumber}.pdf`,
      source: 'send-email',
      at: new Date(now()).toISOString(),
    });
    return { status: 201, body: variant.sendEmailReply(c.cid) };
  });

  // issuing
  route('POST', '/receipt/advance/finalize', 'shop', (c) => {
    const raw = c.json();
    const result = issueFinalize(issueCtx(c.account), raw);
    const [refund, final] = result.receipts;
    if (!refund || !final) throw new SandboxError(500, 'ERR_00002', 'Internal error');
    if (!result.existing) recordSendTo(final, raw);
    // The advance refund is issued for the same request: it carries its metaFields too.
    const refundReceipt = present(refund);
    const meta = (raw as { metaFields?: unknown } | null)?.metaFields;
    if (meta && typeof meta === 'object' && refundReceipt['metaFields'] === undefined)
      refundReceipt['metaFields'] = meta;
    return { status: 201, body: { correlationId: c.cid, refundReceipt, finalReceipt: present(final) } };
  });
  route('POST', '/receipt/{invoiceNumber}/refund/full', 'shop', (c) => {
    const raw = c.json();
    const result = issueFullRefund(issueCtx(c.account), c.params[0] ?? '', raw);
    const r = result.receipts[0];
    if (!r) throw new SandboxError(500, 'ERR_00002', 'Internal error');
    if (!result.existing) recordSendTo(r, raw);
    return issued(c, r);
  });
  route(
    'POST',
    '/receipt/{invoiceType}/{transactionType}/bulk',
    'shop',
    async (c) => {
      const invoiceType = (c.params[0] ?? '').toLowerCase();
      const transactionType = c.params[1] ?? '';
      const raw = c.json();
      if (transactionType === 'finalize')
        throw validationError([{ field: 'transactionType', message: 'Bulk supports sale and refund' }]);
      if (
        !raw ||
        typeof raw !== 'object' ||
        Array.isArray(raw) ||
        !Array.isArray((raw as { receipts?: unknown }).receipts)
      ) {
        throw validationError([{ field: 'receipts', message: 'Body must be an object {receipts: [...]}' }]);
      }
      const list = (raw as { receipts: unknown[] }).receipts;
      if (list.length === 0)
        throw validationError([{ field: 'receipts', message: 'At least one receipt is required' }]);
      if (list.length > 30)
        throw validationError([{ field: 'receipts', message: 'At most 30 receipts per bulk request' }]);
      if (!(transactionType === 'sale' ? SALE_TYPES : REFUND_TYPES).includes(invoiceType)) {
        throw validationError([
          { field: 'invoiceType', message: `${invoiceType}/${transactionType} is not supported` },
        ]);
      }
      const receipts: Record<string, unknown>[] = [];
      const failedReceipts: {
        orderNumber: string | null;
        error: { status: number; code: string | null; message: string; details?: Record<string, unknown> };
      }[] = [];
      for (const element of list) {
        try {
          const result = issueReceipt(issueCtx(c.account), invoiceType, transactionType, element);
          const r = result.receipts[0];
          if (!r) throw new SandboxError(500, 'ERR_00002', 'Internal error');
          if (!result.existing) recordSendTo(r, element);
          receipts.push(present(r, false, true));
        } catch (e) {
          const err = e instanceof SandboxError ? e : new SandboxError(500, 'ERR_00002', 'Internal error');
          const on = (element as { orderNumber?: unknown } | null)?.orderNumber;
          failedReceipts.push({
            orderNumber: typeof on === 'string' ? on : null,
            error: {
              status: err.status,
              code: err.code,
              message: err.message,
              ...(err.details ? { details: err.details } : {}),
            },
          });
        }
      }
      // A bulk takes time at the Tax Administration; the shop stays locked (429 for a concurrent bulk) meanwhile.
      await sleep(bulkDelayPerReceipt * list.length);
      return {
        status: 201,
        body: {
          receipts,
          failedReceipts: failedReceipts.map((f) => variant.failedReceipt(f)),
          totalProcessed: list.length,
          successful: receipts.length,
          failed: failedReceipts.length,
        },
      };
    },
    true,
  );
  route('POST', '/receipt/{invoiceType}/{transactionType}/async', 'shop', (c) =>
    queueAsync(c, (c.params[0] ?? '').toLowerCase(), c.params[1] ?? ''),
  );
  route('POST', '/receipt/{invoiceType}/{transactionType}', 'shop', (c) => {
    const invoiceType = (c.params[0] ?? '').toLowerCase();
    const transactionType = c.params[1] ?? '';
    const raw = c.json();
    if (transactionType === 'finalize') {
      throw validationError([
        { field: 'invoiceType', message: 'Only advance receipts are finalized: POST /receipt/advance/finalize' },
      ]);
    }
    const result = issueReceipt(issueCtx(c.account), invoiceType, transactionType, raw);
    const r = result.receipts[0];
    if (!r) throw new SandboxError(500, 'ERR_00002', 'Internal error');
    if (!result.existing) recordSendTo(r, raw);
    return issued(c, r);
  });

  // archive
  route('GET', '/archive/receipts', 'shop', (c) => {
    const q = c.query;
    const start = dateParam(q, 'startDate');
    const end = dateParam(q, 'endDate');
    const filters: [string, (r: StoredReceipt, v: string) => boolean][] = [
      ['orderNumber', (r, v) => r.orderNumber === v],
      ['invoiceNumber', (r, v) => r.invoiceNumber === v],
      ['invoiceType', (r, v) => r.invoiceType === v.toLowerCase()],
      ['transactionType', (r, v) => r.transactionType === v.toLowerCase()],
      ['paymentType', (r, v) => r.payments.some((p) => normalizePaymentType(p.type) === normalizePaymentType(v))],
    ];
    const paymentType = q.get('paymentType');
    if (paymentType && !PAYMENT_TYPES.some((p) => normalizePaymentType(p) === normalizePaymentType(paymentType))) {
      throw validationError([{ field: 'paymentType', message: 'Unknown payment type' }]);
    }
    const shopId = c.account.shop.id;
    const list = store.receipts.filter((r) => {
      if (r.shopId !== shopId) return false;
      for (const [name, test] of filters) {
        const v = q.get(name);
        if (v && !test(r, v)) return false;
      }
      if (start !== null && r.issuedAtMs < start) return false;
      if (end !== null && r.issuedAtMs > end) return false;
      return true;
    });
    list.reverse();
    const page = paginate(list, q);
    return { status: 200, body: { data: page.data.map((r) => present(r, true)), meta: page.meta } };
  });
  route('POST', '/archive/receipts/fiscalization-lookup', 'shop', (c) => {
    const r = check(LookupSchema, c.json());
    if (!r.ok) throw validationError(r.errors);
    const records = r.data.orderNumbers.map((orderNumber) => {
      const found = store.byOrder.get(`${c.account.shop.id}|${orderNumber}`);
      const last = variant.lookupPicks === 'first' ? found?.[0] : found?.[found.length - 1];
      return last
        ? {
            orderNumber,
            fiscalized: true,
            invoiceNumber: last.invoiceNumber,
            receiptId: last.id,
            sdcDateTime: last.sdcDateTime,
            invoiceType: last.invoiceType,
            transactionType: last.transactionType,
          }
        : { orderNumber, fiscalized: false, invoiceNumber: null, receiptId: null, sdcDateTime: null };
    });
    return { status: 200, body: { records } };
  });
  route('GET', '/archive/receipts/{invoiceNumber}', 'shop', (c) => {
    const r = ownReceipt(c, c.params[0] ?? '');
    if (!r) throw new SandboxError(404, 'NOT_FOUND', `Receipt ${c.params[0]} not found`);
    return { status: 200, body: variant.archiveRecord(present(r, true), chainOf(r)) };
  });

  // auth
  route('POST', '/auth/verify-api-token', 'key', (c) => ({
    status: 201,
    body: {
      type: 'api-key',
      authable: { shopId: c.account.shop.id, companyId: c.account.shop.companyId, id: c.account.keyId },
      apiKey: { id: c.account.keyId, version: c.account.version, name: c.account.keyName },
      user: null,
    },
  }));
  route('GET', '/auth/api-key/me', 'key', (c) => ({
    status: 200,
    body: {
      apiKeyId: c.account.keyId,
      apiKeyName: c.account.keyName,
      companyId: c.account.shop.companyId,
      companyName: c.account.shop.companyName,
      shopId: c.account.shop.id,
      shopName: c.account.shop.businessName,
    },
  }));

  // cashiers
  const ownCashier = (c: Ctx): Cashier => {
    const x = store.cashiers.get(Number(c.params[0]));
    if (!x || x.shopId !== c.account.shop.id) throw new SandboxError(404, null, `Cashier ${c.params[0]} not found`);
    return x;
  };
  route('POST', '/cashiers', 'cashier', (c) => {
    const r = check(CashierCreateSchema, c.json());
    if (!r.ok) throw validationError(r.errors);
    const at = new Date(now()).toISOString();
    const cashier: Cashier = {
      id: store.newCashierId(),
      shopId: c.account.shop.id,
      ...r.data,
      active: r.data.active ?? true,
      createdAt: at,
      updatedAt: at,
    };
    store.saveCashier(cashier);
    return { status: 200, body: cashier };
  });
  route('GET', '/cashiers', 'cashier', (c) => {
    const q = c.query;
    const search = q.get('search');
    const name = q.get('name');
    let list = [...store.cashiers.values()].filter((x) => x.shopId === c.account.shop.id);
    if (search) {
      const s = fold(search);
      list = list.filter((x) => [x.name, x.email ?? '', x.phone ?? ''].some((f) => fold(f).includes(s)));
    }
    if (name) {
      const tokens = fold(name).split(/\s+/).filter(Boolean);
      list = list.filter((x) => tokens.every((t) => fold(x.name).includes(t)));
    }
    const sortBy = (q.get('sortBy') ?? 'id') as keyof Cashier;
    const dir = (q.get('sortOrder') ?? 'ASC').toUpperCase() === 'DESC' ? -1 : 1;
    list.sort((a, b) => {
      const av = a[sortBy];
      const bv = b[sortBy];
      if (av === bv || av === undefined || bv === undefined) return dir * (a.id - b.id);
      return dir * (av < bv ? -1 : 1);
    });
    return { status: 200, body: paginate(list, q) };
  });
  route('GET', '/cashiers/{id}', 'cashier', (c) => ({ status: 200, body: ownCashier(c) }));
  route('PUT', '/cashiers/{id}', 'cashier', (c) => {
    const x = ownCashier(c);
    const r = check(CashierUpdateSchema, c.json());
    if (!r.ok) throw validationError(r.errors);
    const updated: Cashier = { ...x, ...r.data, id: x.id, shopId: x.shopId, updatedAt: new Date(now()).toISOString() };
    store.saveCashier(updated);
    return { status: 200, body: updated };
  });

  // files (public links, no key)
  route('GET', '/files/{name}', 'public', async (c) => {
    const m = /^(.+)\.(pdf|png)$/.exec(c.params[0] ?? '');
    const r = m ? store.byInvoice.get(m[1] ?? '') : undefined;
    if (!m || !r) throw new SandboxError(404, 'NOT_FOUND', 'File not found');
    if (m[2] === 'png')
      return {
        status: 200,
        raw: { contentType: 'image/png', data: await qrPng(String(r.receipt['verificationUrl'])) },
      };
    const pdf = tinyPdf([
      'Kasa sandbox - fiscal receipt (test environment)',
      `Invoice number: ${r.invoiceNumber}`,
      `Order number: ${r.orderNumber}`,
      `Type: ${r.invoiceType}/${r.transactionType}`,
      `Total: ${(r.totalPara / 100).toFixed(2)} RSD`,
      `Time (UTC): ${r.sdcDateTime}`,
    ]);
    return { status: 200, raw: { contentType: 'application/pdf', data: pdf } };
  });

  // ---- transport ------------------------------------------------------------------------------

  const errorBody = (err: SandboxError, cid: string, path: string, auth: AuthMode): unknown => {
    if (auth === 'cashier' && (err.status === 401 || err.status === 403 || err.status === 404))
      return { message: err.message };
    if (err.status === 403 || err.status === 429)
      return { status: err.status, message: err.message, correlationId: cid };
    return {
      status: err.status,
      code: err.code ?? 'NOT_FOUND',
      message: err.message,
      ...(err.userMessage ? { userMessage: err.userMessage } : {}),
      ...(err.details ? { details: err.details } : {}),
      correlationId: cid,
      path,
    };
  };

  const send = (res: http.ServerResponse, cid: string, reply: Reply, truncate = false) => {
    if (res.destroyed || res.writableEnded) return;
    let data: Buffer;
    let contentType = JSON_TYPE;
    if (reply.raw) {
      data = reply.raw.data;
      contentType = reply.raw.contentType;
    } else {
      const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
      data = Buffer.from(truncate ? text.slice(0, Math.max(1, Math.floor(text.length / 2))) : text, 'utf8');
    }
    // The spec's answers carry no Cache-Control: not the kit's JSON sender, its byte sender.
    sendBody(res, reply.status, data, { 'Content-Type': contentType, 'X-Correlation-Id': cid });
  };

  /** The whole body once it has arrived, or null when it is over the limit or broke off. */
  const bodyOf = (req: http.IncomingMessage): Promise<Buffer | null> =>
    readBody(req, MAX_BODY).catch(async () => {
      // Answer only once the client has sent everything: the refusal is the handler's, not the socket's.
      await finished(req).catch(() => undefined);
      return null;
    });

  const authenticate = (req: http.IncomingMessage): Account | undefined => {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header.trim());
    return m ? ACCOUNTS.get((m[1] ?? '').trim()) : undefined;
  };
  const withKey = (req: http.IncomingMessage): Account => {
    const account = authenticate(req);
    if (!account) throw new SandboxError(401, 'ERR_00101', 'Missing or invalid API key');
    return account;
  };
  const withAccess = (req: http.IncomingMessage): Account => {
    const account = withKey(req);
    if (!account.access)
      throw new SandboxError(403, null, 'Forbidden: this key has no access to this shop or resource');
    return account;
  };
  const callers = { public: authenticate, key: withKey, shop: withAccess, cashier: withAccess };
  const table = routeTable(routes, { params: { id: '\\d+', transactionType: 'sale|refund|finalize' } });

  const handleApi = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    pathname: string,
    query: URLSearchParams,
  ) => {
    const method = req.method ?? 'GET';
    const found = table.match(method, pathname);
    // A path that is not valid percent-encoding fails the request whole (500), as a thrown decode would.
    if (found.kind === 'bad_path') throw new URIError(`malformed path ${pathname}`);
    const matched = found.kind === 'route' ? found : null;
    // Counted even when dropped: the stats are what clients sent.
    const statKey = `${method} ${matched?.route.path ?? pathname}`;
    requestCounts.set(statKey, (requestCounts.get(statKey) ?? 0) + 1);
    if (offline) {
      req.socket.destroy();
      return;
    }
    const bodyBuf = await bodyOf(req);
    if (offline) {
      req.socket.destroy();
      return;
    }
    const cid = randomUUID();
    const fault = faults.pick(`${method} ${pathname}`);
    if (fault?.action === 'drop_before') {
      req.socket.destroy();
      return;
    }
    const auth: AuthMode = matched?.route.caller === 'cashier' ? 'cashier' : 'api';
    let reply: Reply;
    const fail = (e: unknown): Reply => {
      const err = e instanceof SandboxError ? e : new SandboxError(500, 'ERR_00002', 'Internal server error');
      return { status: err.status, body: errorBody(err, cid, pathname, auth) };
    };
    let run: (() => Reply | Promise<Reply>) | null = null;
    if (fault?.action === 'error500') {
      reply = fail(new SandboxError(500, 'ERR_00002', 'Internal server error'));
    } else if (!matched) {
      reply = fail(new SandboxError(404, 'NOT_FOUND', `Cannot ${method} ${pathname}`));
    } else {
      const { route: r, params } = matched;
      let account: Account | undefined;
      let refused: unknown = null;
      try {
        account = (await authorize(r.caller, callers, req, new URL(pathname, url))) as Account | undefined;
      } catch (e) {
        refused = e;
      }
      if (refused !== null) {
        reply = fail(refused);
      } else if (r.bulk && account && bulkLocks.has(account.shop.id)) {
        reply = fail(new SandboxError(429, null, 'A bulk request for this shop is already in progress'));
      } else {
        if (r.bulk && account) {
          const shopId = account.shop.id;
          bulkLocks.add(shopId);
          res.once('close', () => bulkLocks.delete(shopId));
        }
        const ctx: Ctx = {
          account: account ?? (ACCOUNTS.get('demo-key') as Account),
          params,
          query,
          cid,
          path: pathname,
          json() {
            if (bodyBuf === null) throw validationError([{ field: 'body', message: 'Body too large' }]);
            if (bodyBuf.length === 0) return undefined;
            // Spec: requests with a body carry Content-Type: application/json.
            if (!isJsonContentType(req.headers['content-type'])) {
              throw validationError([
                { field: 'Content-Type', message: 'Requests with a body must carry Content-Type: application/json' },
              ]);
            }
            try {
              return variant.readBody(parseJson(bodyBuf, { empty: undefined, bom: 'skipped' }));
            } catch (e) {
              if (e instanceof SandboxError) throw e;
              throw validationError([{ field: 'body', message: 'Body is not valid UTF-8 JSON' }]);
            }
          },
        };
        run = () => r.handle(ctx);
        reply = { status: 500 };
      }
    }
    if (fault?.action === 'hang') {
      hung.add(res);
      res.once('close', () => hung.delete(res));
      return;
    }
    if (run) {
      if (fault?.action === 'delay') await sleep(fault.delayMs ?? 1000);
      try {
        reply = await run();
      } catch (e) {
        reply = fail(e);
      }
      if (fault?.action === 'wrong_total') alterTotals(reply.body);
    }
    await sleep(latencyMs);
    if (fault?.action === 'drop_after') {
      req.socket.destroy();
      return;
    }
    send(res, cid, reply, fault?.action === 'malformed');
  };

  // ---- test controls ---------------------------------------------------------------------------

  /** A test control: what it answers, from the JSON body (an object, or `{}` when there is none). */
  interface Control {
    method: HttpMethod;
    path: string;
    handle(body: Record<string, unknown>): Reply;
  }
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  const answer = (body: unknown, status = 200): Reply => ({ status, body });
  const controlRoute = (method: HttpMethod, name: string, handle: Control['handle']): Control => ({
    method,
    path: `/__sandbox/${name}`,
    handle,
  });
  const controlTable = routeTable<Control>([
    controlRoute('GET', 'ledger', () => answer(controls.ledger())),
    controlRoute('GET', 'emails', () => answer(controls.emails())),
    controlRoute('GET', 'stats', () => answer(controls.stats())),
    controlRoute('GET', 'faults', () => answer({ rules: faults.list() })),
    controlRoute('GET', 'clock', () => answer({ now: new Date(now()).toISOString(), offsetMs: clockOffset })),
    controlRoute('POST', 'faults', (body) => {
      const r = FaultPlanSchema.safeParse(body);
      if (!r.success) return answer({ message: 'Invalid fault plan', issues: r.error.issues }, 400);
      controls.setFaults(r.data.rules, r.data.seed === undefined ? {} : { seed: r.data.seed });
      return answer({ rules: faults.list() });
    }),
    controlRoute('POST', 'offline', (body) => {
      if (typeof body['offline'] !== 'boolean') return answer({ message: '{offline: boolean} required' }, 400);
      controls.setOffline(body['offline']);
      return answer({ offline });
    }),
    controlRoute('POST', 'clock', (body) => {
      if (num(body['offsetMs'])) controls.setClockOffset(body['offsetMs'] as number);
      else if (num(body['advanceMs'])) controls.advanceClock(body['advanceMs'] as number);
      else return answer({ message: '{offsetMs} or {advanceMs} required' }, 400);
      return answer({ now: new Date(now()).toISOString(), offsetMs: clockOffset });
    }),
    controlRoute('POST', 'latency', (body) => {
      if (!num(body['ms']) || (body['ms'] as number) < 0) return answer({ message: '{ms: number >= 0} required' }, 400);
      controls.setLatency(body['ms'] as number);
      return answer({ ms: latencyMs });
    }),
    controlRoute('POST', 'async', (body) => {
      if (typeof body['apiKey'] !== 'string' || typeof body['fail'] !== 'boolean')
        return answer({ message: '{apiKey: string, fail: boolean} required' }, 400);
      controls.setAsyncFailure(body['apiKey'], body['fail']);
      return answer({ fail: body['fail'] });
    }),
    controlRoute('POST', 'journal', (body) => {
      if (typeof body['withheld'] !== 'boolean') return answer({ message: '{withheld: boolean} required' }, 400);
      controls.setJournalWithheld(body['withheld']);
      return answer({ withheld: journalWithheld });
    }),
    controlRoute('POST', 'archive-items', (body) => {
      if (typeof body['included'] !== 'boolean') return answer({ message: '{included: boolean} required' }, 400);
      controls.setArchiveItems(body['included']);
      return answer({ included: archiveItems });
    }),
    controlRoute('POST', 'tax-groups', (body) => {
      const r = TaxGroupSchema.safeParse(body['group']);
      if (!r.success) return answer({ message: '{group: TaxGroup} required', issues: r.error.issues }, 400);
      taxSchedule.announce(r.data);
      return answer({ announced: r.data.groupId });
    }),
    controlRoute('POST', 'reset', () => {
      taxSchedule.clear();
      controls.reset();
      return answer({ reset: true });
    }),
  ]);

  const control = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => {
    const cid = randomUUID();
    const ok = (body: unknown, status = 200) => send(res, cid, { status, body });
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return ok({ message: 'Loopback only' }, 403);
    // The same Host/Origin checks as the browser host: no page of another origin, and no
    // DNS-rebound name, may drive the test controls.
    if (!controlCallerOk(req, url)) return ok({ message: 'Foreign Host or Origin' }, 403);
    const buf = (await bodyOf(req)) ?? Buffer.alloc(0);
    let body: Record<string, unknown>;
    try {
      body = parseJson(buf, { empty: {} }) as Record<string, unknown>;
    } catch {
      return ok({ message: 'Body is not JSON' }, 400);
    }
    const found = controlTable.match(req.method ?? 'GET', pathname);
    if (found.kind !== 'route')
      return ok({ message: `Unknown control ${req.method} ${pathname.slice('/__sandbox'.length)}` }, 404);
    const reply = found.route.handle(body);
    return ok(reply.body, reply.status);
  };

  const server = http.createServer((req, res) => {
    const parsed = new URL(req.url ?? '/', 'http://sandbox');
    const handler = parsed.pathname.startsWith('/__sandbox/')
      ? control(req, res, parsed.pathname)
      : handleApi(req, res, parsed.pathname, parsed.searchParams);
    handler.catch(() => {
      if (!res.headersSent)
        send(res, randomUUID(), {
          status: 500,
          body: { status: 500, code: 'ERR_00002', message: 'Internal server error' },
        });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  const controls: SandboxControls = {
    setFaults(rules, opts) {
      faults.set(rules, opts?.seed);
    },
    setOffline(value) {
      offline = value;
    },
    setClockOffset(ms) {
      clockOffset = ms;
    },
    advanceClock(ms) {
      clockOffset += ms;
    },
    now,
    setLatency(ms) {
      latencyMs = Math.max(0, ms);
    },
    setAsyncFailure(apiKey, fail) {
      if (fail) asyncFailing.add(apiKey);
      else asyncFailing.delete(apiKey);
    },
    ledger() {
      return {
        receipts: store.receipts.map((r) => ({
          orderNumber: r.orderNumber,
          invoiceNumber: r.invoiceNumber,
          invoiceType: r.invoiceType,
          transactionType: r.transactionType,
          sdcDateTime: r.sdcDateTime,
          totalAmount: r.totalPara / 100,
          referentDocumentNumber: r.referentDocumentNumber,
          shop: r.shopId,
        })),
      };
    },
    emails() {
      return { emails: [...store.emails] };
    },
    stats() {
      let total = 0;
      const requests: Record<string, number> = {};
      for (const [k, v] of requestCounts) {
        requests[k] = v;
        total += v;
      }
      return { requests, total, async: { ...asyncCounts } };
    },
    reset() {
      store.reset();
      faults.set([]);
      offline = false;
      clockOffset = 0;
      latencyMs = options.latencyMs ?? 0;
      asyncFailing.clear();
      journalWithheld = false;
      archiveItems = false;
      requestCounts = new Map();
      asyncCounts = { queued: 0, issued: 0, failed: 0 };
      for (const t of asyncTimers) clearTimeout(t);
      asyncTimers.clear();
      settleAsync();
      for (const res of [...hung]) res.socket?.destroy();
    },
    setJournalWithheld(withheld) {
      journalWithheld = withheld;
    },
    setArchiveItems(included) {
      archiveItems = included;
    },
    idle() {
      if (asyncTimers.size === 0) return Promise.resolve();
      return new Promise((resolve) => asyncWaiters.push(resolve));
    },
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';
  url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  let closed: Promise<void> | null = null;
  return {
    url,
    controls,
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const t of asyncTimers) clearTimeout(t);
        asyncTimers.clear();
        settleAsync();
        for (const res of [...hung]) res.socket?.destroy();
        server.close(() => {
          store.close();
          resolve();
        });
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
