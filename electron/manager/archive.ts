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
import { toReceiptView } from '../orders/store.ts';
import type { ArchiveFilters } from '../orders/queries.ts';
import { CommandError } from '../errors.ts';
import { gatewayCommandError } from '../auth/staff.ts';

export class Archive {
  readonly #store: OrderStore;
  readonly #client: () => GatewayClient;

  constructor(store: OrderStore, client: () => GatewayClient) {
    this.#store = store;
    this.#client = client;
  }

  /**
   * Local orders, newest first, filtered like the gateway archive (orders/queries.ts: every filter an index
   * range). The total is counted up to `COUNT_CAP` rows past the page asked for, so a search over years of
   * history stays bounded: when more match, `total` says "at least" and the next page is still offered.
   */
  local(f: ArchiveFilters): { rows: ArchiveRow[]; total: number; page: number; pages: number } {
    const limit = f.limit ?? 20;
    const page = f.page ?? 1;
    const { rows, total } = this.#store.queries.archive(f, limit, (page - 1) * limit);
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
      const r = parsed.data as typeof parsed.data & {
        referentDocumentNumber?: string;
        cashier?: unknown;
        metaFields?: Record<string, unknown>;
      };
      // The spec's receipt has no cashier field: the till sends it in `metaFields` (a gateway may add its own).
      const named = [r.cashier, r.metaFields?.['cashier']].find((c) => typeof c === 'string' && c !== '');
      const cashier = typeof named === 'string' ? named : undefined;
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
        ...(cashier ? { cashier } : {}),
        ...(typeof r.referentDocumentNumber === 'string' ? { referentDocumentNumber: r.referentDocumentNumber } : {}),
        ...this.#localId(r.invoiceNumber),
      });
    }
    const total = res.total ?? rows.length;
    return { rows, total, page, pages: Math.max(1, Math.ceil(total / limit)) };
  }

  /** One receipt: the local copy (and the final receipt's companion) or the gateway archive; chain when online. */
  async get(invoiceNumber: string): Promise<ArchiveDetail> {
    const local = this.#store.queries.byInvoice(invoiceNumber);
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
    const orderId = this.#store.queries.idByInvoice(invoiceNumber);
    return orderId !== undefined ? { orderId } : {};
  }
}

function localRow(r: OrderRow): ArchiveRow {
  const data = JSON.parse(r.data) as { payments?: OrderPayment[]; cashier?: string };
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
    ...(data.cashier ? { cashier: data.cashier } : {}),
    ...(referentDocumentNumber ? { referentDocumentNumber } : {}),
  };
}
