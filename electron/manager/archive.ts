/**
 * The archive: issued receipts from the local orders or the gateway (`/archive/receipts`), one receipt
 * with its journal, QR link and chain, and the "was this fiscalized?" lookup.
 */
import type { ArchiveDetail, ArchiveRow, LookupRow } from '../../shared/contract/archive.ts';
import type { OrderPayment, OrderState } from '../../shared/domain.ts';
import { toPara } from '../../shared/money.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { IssuedReceiptSchema } from '../gateway/types.ts';
import type { OrderRow, OrderStore } from '../orders/store.ts';
import { countUpTo, toReceiptView } from '../orders/store.ts';
import { CommandError } from '../errors.ts';
import { gatewayCommandError } from '../auth/staff.ts';

export interface ArchiveFilters {
  page?: number | undefined;
  limit?: number | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  orderNumber?: string | undefined;
  invoiceNumber?: string | undefined;
  invoiceType?: string | undefined;
  transactionType?: string | undefined;
  paymentType?: string | undefined;
}

export class Archive {
  readonly #store: OrderStore;
  readonly #client: () => GatewayClient;

  constructor(store: OrderStore, client: () => GatewayClient) {
    this.#store = store;
    this.#client = client;
  }

  /**
   * Local orders, newest first, filtered like the gateway archive (dates on creation time). Every filter
   * is an index range (migration 007): order number exact or prefix on its UNIQUE index, invoice number on
   * `orders_invoice`, dates on `orders_created`, payment type on `order_payments`. The total is counted
   * up to `COUNT_CAP` rows past the page asked for, so a search over years of history stays bounded: when
   * more match, `total` says "at least" and the next page is still offered.
   */
  local(f: ArchiveFilters): { rows: ArchiveRow[]; total: number; page: number; pages: number } {
    const where: string[] = [];
    const args: (string | number)[] = [];
    let from = 'orders';
    if (f.paymentType) {
      from = 'order_payments p JOIN orders ON orders.id = p.order_id';
      where.push('p.type = ?');
      args.push(f.paymentType);
    }
    if (f.startDate) {
      where.push('created_at >= ?');
      args.push(new Date(f.startDate).toISOString());
    }
    if (f.endDate) {
      where.push('created_at <= ?');
      args.push(new Date(f.endDate).toISOString());
    }
    if (f.orderNumber) {
      // Exact or prefix ("T1-20260301" = that till's day): a range on the UNIQUE index.
      where.push('order_number >= ? AND order_number < ?');
      args.push(f.orderNumber, `${f.orderNumber}\uffff`);
    }
    if (f.invoiceNumber) {
      where.push('invoice_number = ?');
      args.push(f.invoiceNumber);
    }
    if (f.invoiceType) {
      where.push('invoice_type = ?');
      args.push(f.invoiceType);
    }
    if (f.transactionType) {
      where.push('transaction_type = ?');
      args.push(f.transactionType);
    }
    const sql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const limit = f.limit ?? 20;
    const page = f.page ?? 1;
    const offset = (page - 1) * limit;
    const db = this.#store.db;
    // Each order walks the index the filter ranges over, so no sort and no scan: a number search goes
    // down the order-number index (newest day first), a payment type down order_payments (type, order_id),
    // a date range down orders_created, else the newest ids first.
    const order = f.orderNumber
      ? 'order_number DESC'
      : f.paymentType
        ? 'p.order_id DESC'
        : f.startDate || f.endDate
          ? 'created_at DESC, orders.id DESC'
          : 'orders.id DESC';
    // Payment type alone: counted on order_payments' own key, without reading an order row per match.
    const countFrom = f.paymentType && where.length === 1 ? 'order_payments p' : from;
    const total = countUpTo(db, `SELECT 1 FROM ${countFrom} ${sql}`, args, offset);
    const rows = db
      .prepare<unknown[], OrderRow>(`SELECT orders.* FROM ${from} ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .all(...args, limit, offset);
    return { rows: rows.map(localRow), total, page, pages: Math.max(1, Math.ceil(total / limit)) };
  }

  /** The gateway archive (`GET /archive/receipts`), paginated. Needs the network. */
  async gateway(f: ArchiveFilters): Promise<{ rows: ArchiveRow[]; total: number; page: number; pages: number }> {
    const limit = f.limit ?? 20;
    const page = f.page ?? 1;
    let res;
    try {
      res = await this.#client().archiveList(
        {
          page,
          limit,
          startDate: f.startDate,
          endDate: f.endDate,
          orderNumber: f.orderNumber,
          invoiceNumber: f.invoiceNumber,
          invoiceType: f.invoiceType,
          transactionType: f.transactionType,
          paymentType: f.paymentType,
        },
        { timeoutMs: 8000 },
      );
    } catch (err) {
      throw gatewayCommandError(err);
    }
    const rows: ArchiveRow[] = [];
    for (const item of res.items) {
      // Items come normalised from the gateway module (flat, payment types in the spec's spelling).
      const parsed = IssuedReceiptSchema.safeParse(item);
      if (!parsed.success) continue;
      const r = parsed.data as typeof parsed.data & { referentDocumentNumber?: string };
      rows.push({
        source: 'gateway',
        orderNumber: r.orderNumber ?? '',
        invoiceNumber: r.invoiceNumber,
        invoiceType: r.invoiceType ?? '',
        transactionType: r.transactionType ?? '',
        state: 'issued',
        sdcDateTime: r.sdcDateTime,
        totalPara: toPara(r.totalAmount ?? 0) ?? 0,
        paymentTypes: r.payments?.map((p) => p.type) ?? [],
        ...(typeof r.referentDocumentNumber === 'string' ? { referentDocumentNumber: r.referentDocumentNumber } : {}),
        ...this.#localId(r.invoiceNumber),
      });
    }
    const total = res.total ?? rows.length;
    return { rows, total, page, pages: Math.max(1, Math.ceil(total / limit)) };
  }

  /** One receipt: the local copy (and the final receipt's companion) or the gateway archive; chain when online. */
  async get(invoiceNumber: string): Promise<ArchiveDetail> {
    const local = this.#store.db
      .prepare<[string], OrderRow>('SELECT * FROM orders WHERE invoice_number = ? LIMIT 1')
      .get(invoiceNumber);
    let archived: Awaited<ReturnType<GatewayClient['archiveGet']>> | null = null;
    try {
      archived = await this.#client().archiveGet(invoiceNumber, { timeoutMs: 5000 });
    } catch (err) {
      if (!local) throw gatewayCommandError(err, 'invoiceNumber', invoiceNumber);
    }
    const localReceipt = local ? this.#store.view(local).receipt : undefined;
    const receipt = localReceipt ?? (archived ? toReceiptView(archived.receipt) : undefined);
    if (!receipt)
      throw new CommandError('not_found', 'invoice_not_found', { invoice: invoiceNumber, field: 'invoiceNumber' });
    const chainRaw = archived?.chain;
    const chain = Array.isArray(chainRaw)
      ? chainRaw.flatMap((c: unknown) => {
          if (!c || typeof c !== 'object') return [];
          const o = c as Record<string, unknown>;
          return [
            {
              invoiceNumber: String(o['invoiceNumber'] ?? ''),
              invoiceType: String(o['invoiceType'] ?? ''),
              transactionType: String(o['transactionType'] ?? ''),
              orderNumber: String(o['orderNumber'] ?? ''),
              totalPara: toPara(Number(o['totalAmount'] ?? 0)) ?? 0,
            },
          ];
        })
      : [];
    return {
      receipt,
      ...(archived?.receipt.qrCodeFileUrl ? { qrCodeFileUrl: archived.receipt.qrCodeFileUrl } : {}),
      ...(local ? { orderId: local.id } : {}),
      chain,
    };
  }

  /** fiscalization-lookup at the gateway, beside what this till knows of each order number. */
  async lookup(orderNumbers: string[]): Promise<LookupRow[]> {
    let records;
    try {
      records = await this.#client().fiscalizationLookup(orderNumbers, { timeoutMs: 8000 });
    } catch (err) {
      throw gatewayCommandError(err);
    }
    const byNumber = new Map(records.map((r) => [r.orderNumber, r]));
    return orderNumbers.map((n) => {
      const r = byNumber.get(n);
      const localState = this.#store.getByNumber(n)?.state as OrderState | undefined;
      return {
        orderNumber: n,
        fiscalized: r?.fiscalized === true,
        ...(r?.invoiceNumber ? { invoiceNumber: r.invoiceNumber } : {}),
        ...(r?.sdcDateTime ? { sdcDateTime: r.sdcDateTime } : {}),
        ...(localState ? { localState } : {}),
      };
    });
  }

  #localId(invoiceNumber: string): { orderId?: number } {
    const row = this.#store.db
      .prepare<[string], { id: number }>('SELECT id FROM orders WHERE invoice_number = ? LIMIT 1')
      .get(invoiceNumber);
    return row ? { orderId: row.id } : {};
  }
}

function localRow(r: OrderRow): ArchiveRow {
  const data = JSON.parse(r.data) as { payments?: OrderPayment[] };
  let referentDocumentNumber: string | undefined;
  if (r.request) {
    const body = JSON.parse(r.request) as { referentDocumentNumber?: unknown };
    if (typeof body.referentDocumentNumber === 'string') referentDocumentNumber = body.referentDocumentNumber;
  }
  return {
    source: 'local',
    orderId: r.id,
    orderNumber: r.order_number,
    ...(r.invoice_number ? { invoiceNumber: r.invoice_number } : {}),
    invoiceType: r.invoice_type,
    transactionType: r.transaction_type,
    state: r.state,
    ...(r.sdc_date_time ? { sdcDateTime: r.sdc_date_time } : {}),
    createdAt: r.created_at,
    totalPara: r.total_para,
    paymentTypes: (data.payments ?? []).map((p) => p.type),
    ...(referentDocumentNumber ? { referentDocumentNumber } : {}),
  };
}
