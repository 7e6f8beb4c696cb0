/**
 * Back-office orders: refunds (partial and full), the advance chain's final receipt, and fiscal copies.
 *
 * Each is an order like a sale: captured with its frozen body and outbox row in one transaction
 * (OrderStore.capture) and sent by the sync engine. When the referenced order is still queued the new
 * order waits for it (`dependsOn` + `data.template`): the store fills in its invoiceNumber and
 * sdcDateTime once it is fiscalized, so the gateway always sees the original first.
 *
 * Quantities are thousandths and money para inside; decimals only in the gateway body.
 */
import { randomUUID } from 'node:crypto';
import type {
  OrderKind,
  InvoiceType,
  OrderLine,
  OrderPayment,
  OrderView,
  PaymentType,
  TransactionType,
} from '../../shared/domain.ts';
import type { RefundInput, RefundSource, RefundableLine } from '../../shared/contract/refunds.ts';
import { formatQuantity, formatRsd, paraToDecimal, toMilli, toPara } from '../../shared/money.ts';
import { legacyRefundPara, lineItems, refundLine, type RefundedSoFar } from '../../shared/receipt-items.ts';
import { CommandError, invalidInput } from '../errors.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { GatewayItem, GatewayPayment, ReceiptRequest } from '../gateway/types.ts';
import { createCapturePipeline, type CapturePipeline } from '../outbox/capture.ts';
import type { OrderData, OrderRow } from '../orders/store.ts';
import type { DocumentDeps } from '../sales/service.ts';
import { capturedTaxGroup, stampReceipt, transferEsirTime } from '../sales/receipt-stamp.ts';
import { gatewayCommandError } from '../auth/staff.ts';
import type { HubSale } from '../hub-client/refund.ts';
import type { RefundHoldAnswer } from '../hub-client/sync.ts';
import type { RefundHoldInput } from '../../shared/hub/protocol.ts';
import { archivedRefundLines } from './archive-lines.ts';
import { refundBuyerFields, resolveRefundBuyer } from './refund-buyer.ts';
import { chainView, isAdvance, priceLines, requireOpenAdvance } from './advances.ts';
import { advancePaidBy, documentPayments, finalSaleFullRefund, paidBack } from './refund-payments.ts';

/** What back-office orders keep in `orders.data` beside the sale fields. */
export interface BackOfficeData extends OrderData {
  /**
   * Refunds: the original and the refunded quantities per original line, with the para refunded of
   * each (`totalPara`; refunds stored before it had none, see `refundedPerLine`).
   */
  refundOf?: { orderId?: number; invoiceNumber?: string; lines: RefundOfLine[]; full: boolean; holdId?: string };
  /** Finalize: the chain's last advance, the advance amount applied (the chain net of refunds), the chain's ids. */
  advanceOf?: { orderId: number; advancePara: number; chain?: number[] };
  /** A further advance: the previous advance of the same order (its receipt is referenced). */
  advanceChain?: { previousOrderId: number };
  /** Copy: the original order (local), or its invoice number (another till's sale found through the hub). */
  copyOf?: { orderId?: number; invoiceNumber?: string };
  approvedBy?: string;
  /** A refund made to correct a mistake (no money returned); its buyer ID is the seller's PIB. */
  correction?: boolean;
}

export interface OrdersDeps extends DocumentDeps {
  client: () => GatewayClient;
  now: () => number;
  /**
   * Another till's sale through the store hub by invoice or order number (electron/hub/refund.ts); absent without a
   * hub.
   */
  hubSource?: (key: string) => Promise<HubSale | null>;
  /**
   * Holds a refund's lines at the store hub before it is captured (hub/refund-holds.ts), and lets a hold go when
   * the capture fails; absent without a hub.
   */
  hubHold?: {
    hold(input: RefundHoldInput): Promise<RefundHoldAnswer>;
    release(holdId: string): Promise<void>;
  };
  /** The manager's setting that allows refunds without a buyer ID (default off). */
  allowRefundWithoutBuyerId?: () => boolean;
  /** Training mode (settings): refunds and copies of real receipts are refused. */
  trainingMode?: () => boolean;
  /**
   * Refuses a document that moves the drawer's money (a refund, a further advance, a final sale) when the till
   * works in shifts and none is open (`shift_required`, electron/shifts/service.ts), as a sale is refused.
   */
  requireShift?: () => void;
}

const REFUNDABLE: readonly InvoiceType[] = ['normal', 'training', 'advance'];

type CheckoutLineInput = Parameters<typeof priceLines>[0][number];

export class BackOfficeOrders {
  readonly #d: OrdersDeps;
  readonly #pipeline: CapturePipeline;

  constructor(deps: OrdersDeps) {
    this.#d = deps;
    this.#pipeline = createCapturePipeline(deps);
  }

  /** The original of a refund with what is left per line: a local order, else the gateway archive. */
  async refundSource(q: { orderId?: number | undefined; invoiceNumber?: string | undefined }): Promise<RefundSource> {
    const row = this.#findLocal(q);
    if (row)
      return this.#localSource(
        row,
        await this.#otherTillRefunds(row),
        q.orderId !== undefined ? 'orderId' : 'invoiceNumber',
      );
    const invoice = q.invoiceNumber ?? '';
    const fromHub = invoice ? await this.#d.hubSource?.(invoice) : null;
    if (fromHub) return this.#hubSource(fromHub);
    let archived;
    try {
      archived = await this.#d.client().archiveGet(invoice, { timeoutMs: 5000 });
    } catch (err) {
      throw gatewayCommandError(err, 'invoiceNumber', invoice);
    }
    const r = archived.receipt;
    const invoiceType = (r.invoiceType ?? 'normal').toLowerCase() as InvoiceType;
    const totalPara = toPara(r.totalAmount ?? 0) ?? 0;
    const refunded = this.#refundsOf({ invoiceNumber: r.invoiceNumber });
    return {
      invoiceNumber: r.invoiceNumber,
      sdcDateTime: r.sdcDateTime,
      ...(r.orderNumber ? { orderNumber: r.orderNumber } : {}),
      invoiceType,
      state: 'archived',
      totalPara,
      lines: [],
      payments: [],
      fullRefundAllowed:
        refunded.length === 0 &&
        (r.transactionType ?? 'sale').toLowerCase() === 'sale' &&
        REFUNDABLE.includes(invoiceType),
      ...refundBuyerFields(this.#d.store, { buyerId: r['buyerId'], receipt: r }, this.#allowWithoutBuyer()),
    };
  }

  /**
   * Captures a refund. Partial: the chosen lines and quantities, refused above what is left (sold minus
   * earlier refunds). Full: the gateway's full-refund endpoint. Works offline; waits for a queued original.
   */
  async refund(input: RefundInput, approvedBy: string, cashier: string): Promise<OrderView> {
    this.#d.requireShift?.();
    const row = this.#findLocal(input);
    // Another till's sale through the hub carries its lines and payments: refundable in part like a local one.
    const hub = !row && input.invoiceNumber ? await this.#d.hubSource?.(input.invoiceNumber) : null;
    const otherTills = row ? await this.#otherTillRefunds(row) : [];
    const source = row
      ? this.#localSource(row, otherTills, input.orderId !== undefined ? 'orderId' : 'invoiceNumber')
      : hub
        ? this.#hubSource(hub)
        : await this.refundSource(input);
    const orig = row ? this.#data(row) : hub ? { lines: hub.lines, payments: hub.payments } : null;
    if (!REFUNDABLE.includes(source.invoiceType)) {
      throw new CommandError('conflict', 'refund_not_refundable', {
        id: source.invoiceNumber ?? source.orderNumber ?? '',
        reason: source.invoiceType,
      });
    }
    // Another till's advance may be closed by a final receipt the hub does not report: refunded on its own till.
    if (hub && hub.invoiceType === 'advance')
      throw invalidInput('invoiceNumber', 'refund_advance_other_till', { id: hub.invoiceNumber });
    if (this.#d.trainingMode?.() && source.invoiceType !== 'training') {
      const field = input.orderId !== undefined ? 'orderId' : 'invoiceNumber';
      throw invalidInput(field, 'training_refund_real', { id: source.invoiceNumber ?? source.orderNumber ?? '' });
    }
    const full = input.full === true;
    if (full && !source.fullRefundAllowed) throw invalidInput('full', 'refund_full_after_partial');
    if (!full && !orig) throw invalidInput('lines', 'refund_archive_partial');
    // Who it is refunded to, once it is known what may be refunded (a refusal of the document comes first).
    const buyer = resolveRefundBuyer(input, source, this.#allowWithoutBuyer());

    // The refunded lines, in thousandths and para.
    let lines: OrderLine[];
    let refundLines: RefundOfLine[];
    if (orig && full) {
      lines = orig.lines;
      refundLines = lines.map((l, index) => ({ index, quantityMilli: l.quantityMilli, totalPara: l.totalPara }));
    } else if (orig) {
      const origLines = orig.lines;
      const seen = new Map<number, number>();
      (input.lines ?? []).forEach((l, i) => {
        const quantityMilli = toMilli(l.quantity) as number;
        seen.set(l.index, (seen.get(l.index) ?? 0) + quantityMilli);
        const left = source.lines[l.index];
        if (!left || !origLines[l.index]) throw invalidInput(`lines.${i}.index`, 'refund_line_unknown');
        if ((seen.get(l.index) ?? 0) > left.remainingMilli) {
          throw invalidInput(`lines.${i}.quantity`, 'refund_too_much', {
            remaining: formatQuantity(left.remainingMilli),
            name: left.name,
          });
        }
      });
      // Priced against what earlier refunds of each line took: never more than the line was paid.
      const earlier = refundedPerLine(
        origLines,
        row
          ? [...otherTills, ...this.#refundsOf({ orderId: row.id, invoiceNumber: row.invoice_number ?? undefined })]
          : hub
            ? [...hub.refunds, ...this.#refundsOf({ invoiceNumber: hub.invoiceNumber })]
            : [],
      );
      lines = [...seen].map(([index, quantityMilli]) =>
        refundLine(origLines[index] as OrderLine, earlier[index] as RefundedSoFar, quantityMilli),
      );
      refundLines = [...seen].map(([index, quantityMilli], i) => ({
        index,
        quantityMilli,
        totalPara: (lines[i] as OrderLine).totalPara,
      }));
    } else {
      // Known only to the gateway: the archived receipt's items, else one line per its tax label (archive-lines.ts).
      lines = await archivedRefundLines(this.#d.client(), source.invoiceNumber ?? '', source.totalPara);
      refundLines = [];
    }
    const totalPara = lines.reduce((s, l) => s + l.totalPara, 0);
    // Held at the hub first, so two tills refunding this sale at once never refund more than was sold.
    const holdId = await this.#holdAtHub(source, full, refundLines, input.lines ?? []);
    // What the refund document pays back per type (refund-payments.ts). A full refund pays back what the sale was
    // paid with; a final sale's were only the rest, so its full refund adds what its advances paid, in their types,
    // and goes through the refund endpoint, which carries those payments (the full-refund endpoint copies the
    // original's `advanceAmount`, which pays nothing back in any type). A partial refund pays in the chosen type.
    const finalSale = full && row?.kind === 'finalize';
    const document = documentPayments(
      finalSale
        ? finalSaleFullRefund(orig?.payments ?? [], this.#advancesPaidBy(row, input.paymentType))
        : full && orig
          ? orig.payments
          : [{ type: input.paymentType, amountPara: totalPara }],
    );
    // The till records exactly what the document pays back: the drawer, shift, reports, hub and slip read this.
    const payments = paidBack(document);
    const original = row ?? null;
    const data: BackOfficeData = {
      lines,
      payments,
      ...(buyer.buyerId ? { buyerId: buyer.buyerId } : {}),
      ...(input.correction ? { correction: true } : {}),
      cashier,
      refundOf: {
        ...(original ? { orderId: original.id } : {}),
        ...(source.invoiceNumber ? { invoiceNumber: source.invoiceNumber } : {}),
        lines: refundLines,
        full,
        ...(holdId ? { holdId } : {}),
      },
      approvedBy,
    };
    const body = (orderNumber: string): ReceiptRequest => ({
      orderNumber,
      items: lines.flatMap(toItem),
      payments: document,
      ...(buyer.buyerId ? { buyerId: buyer.buyerId } : {}),
      metaFields: this.#meta(cashier, { refundOf: source.orderNumber ?? source.invoiceNumber ?? '' }),
      settings: { returnIfOrderNumberExists: true, ...(buyer.skip ? { skipBuyerIdValidation: true } : {}) },
    });
    try {
      return await this.#capture({
        kind: full && !finalSale ? 'refund_full' : 'refund',
        invoiceType: source.invoiceType,
        transactionType: 'refund',
        totalPara,
        data,
        body,
        reference: original ?? { invoiceNumber: source.invoiceNumber ?? '', sdcDateTime: source.sdcDateTime ?? '' },
      });
    } catch (err) {
      if (holdId) await this.#d.hubHold?.release(holdId);
      throw err;
    }
  }

  /**
   * Holds the refund's lines at the hub; the hold's id, or null when there is no hub to ask or it cannot be
   * reached (the till's own checks stand). Refused at the field when another till holds or refunded them.
   */
  async #holdAtHub(
    source: RefundSource,
    full: boolean,
    refundLines: RefundOfLine[],
    asked: NonNullable<RefundInput['lines']>,
  ): Promise<string | null> {
    const hub = this.#d.hubHold;
    if (!hub || !source.invoiceNumber || (!full && refundLines.length === 0)) return null;
    const holdId = randomUUID();
    const answer = await hub.hold({
      invoiceNumber: source.invoiceNumber,
      holdId,
      full,
      lines: refundLines.map((l) => ({ index: l.index, quantityMilli: l.quantityMilli })),
    });
    if (answer.outcome === 'away') return null;
    if (answer.outcome === 'held') return holdId;
    if (full) throw invalidInput('full', 'refund_full_taken_elsewhere');
    const left = new Map(answer.remaining.map((r) => [r.index, r.quantityMilli]));
    const seen = new Map<number, number>();
    asked.forEach((l, i) => {
      seen.set(l.index, (seen.get(l.index) ?? 0) + (toMilli(l.quantity) ?? 0));
      const remaining = left.get(l.index) ?? 0;
      if ((seen.get(l.index) ?? 0) > remaining)
        throw invalidInput(`lines.${i}.quantity`, 'refund_taken_elsewhere', {
          remaining: formatQuantity(remaining),
          name: source.lines[l.index]?.name ?? '',
        });
    });
    throw invalidInput('lines', 'refund_taken_elsewhere', { remaining: '0', name: '' });
  }

  /**
   * What the advances of a final sale's chain paid, per type, net of their refunds (not the refused ones): the
   * amount the final sale took as `advanceAmount`, in the types the customer paid it in.
   */
  #advancesPaidBy(finalSale: OrderRow, fallback: PaymentType): OrderPayment[] {
    const { store } = this.#d;
    const advanceOf = this.#data(finalSale).advanceOf;
    if (!advanceOf || advanceOf.advancePara <= 0) return [];
    const head = store.get(advanceOf.orderId);
    const chain = advanceOf.chain
      ? advanceOf.chain.flatMap((id) => store.get(id) ?? [])
      : head
        ? store.queries.chainOf(head)
        : [];
    const refunds = chain.flatMap((a) =>
      store.queries
        .refundsOf({ orderId: a.id, invoiceNumber: a.invoice_number ?? undefined })
        .filter((r) => store.get(r.id)?.state !== 'needs_attention')
        .map((r) => (JSON.parse(r.data) as BackOfficeData).payments),
    );
    return advancePaidBy(
      chain.map((a) => this.#data(a).payments),
      refunds,
      advanceOf.advancePara,
      this.#data(chain[0] ?? finalSale).payments[0]?.type ?? fallback,
    );
  }

  /** Open advances: the last of each chain with no final receipt and no refund (queued or fiscalized). */
  openAdvances(): OrderView[] {
    const { store } = this.#d;
    return store.queries.openAdvances().map((r) => store.view(r));
  }

  /** The chain of an advance (first to last) and what it paid net of refunds. */
  advanceChain(orderId: number): ReturnType<typeof chainView> {
    const row = this.#d.store.get(orderId);
    if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId });
    return chainView(this.#d.store.queries, row);
  }

  /**
   * Finalizes an advance chain in one request, referencing its last advance: the gateway issues the
   * advance refund (АР, cancelling the advances) and the final sale (ПП) and returns both (stored as the
   * receipt and `extraReceipts`). The final items default to the advance's; `advanceAmount` is what the
   * chain paid net of its refunds, `amount` the rest (zero only when the advances cover it all): never the
   * same money twice. docs/advances.md.
   */
  async finalize(
    input: {
      orderId: number;
      lines?: CheckoutLineInput[] | undefined;
      payments?: { type: PaymentType; amount: number }[] | undefined;
      paymentType?: PaymentType | undefined;
    },
    cashier: string,
  ): Promise<OrderView> {
    this.#d.requireShift?.();
    const q = this.#d.store.queries;
    const advance = requireOpenAdvance(q, this.#d.store.get(input.orderId), input.orderId);
    const ad = this.#data(advance);
    const { chain, paidPara } = q.chainPaidPara(advance);
    const lines = input.lines ? priceLines(input.lines, new Set(this.#d.taxRates.labels())) : ad.lines;
    const totalPara = lines.reduce((s, l) => s + l.totalPara, 0);
    const restPara = totalPara - paidPara;
    if (restPara < 0)
      throw invalidInput('lines', 'finalize_below_advance', {
        total: formatRsd(totalPara),
        advance: formatRsd(paidPara),
      });
    // The rest is paid explicitly; without payments only when the advances cover it all (amount 0).
    const type = input.paymentType ?? ad.payments[0]?.type ?? 'cash';
    const payments = input.payments ? enteredPayments(input.payments) : [{ type, amountPara: 0 }];
    requirePaidExactly(payments, restPara, 'finalize_payment_rest', 'rest');
    const data: BackOfficeData = {
      lines,
      payments,
      ...(ad.buyerId ? { buyerId: ad.buyerId } : {}),
      cashier,
      advanceOf: { orderId: advance.id, advancePara: paidPara, chain: chain.map((r) => r.id) },
    };
    const body = (orderNumber: string): ReceiptRequest => ({
      orderNumber,
      items: lines.flatMap(toItem),
      payments: finalPayments(payments, paidPara),
      ...(ad.buyerId ? { buyerId: ad.buyerId } : {}),
      metaFields: this.#meta(cashier, { advanceOf: advance.order_number }),
      settings: { returnIfOrderNumberExists: true, isFinal: true },
    });
    return this.#capture({
      kind: 'finalize',
      invoiceType: 'normal',
      transactionType: 'finalize',
      totalPara,
      data,
      body,
      reference: advance,
    });
  }

  /**
   * A further advance of the same order: an advance sale referencing the chain's last advance (the Tax
   * Administration's rule: each further АП references the previous АП). Waits for a queued previous one.
   */
  async addAdvance(
    input: {
      orderId: number;
      lines: CheckoutLineInput[];
      payments: { type: PaymentType; amount: number }[];
      paidOn?: string | undefined;
    },
    cashier: string,
  ): Promise<OrderView> {
    this.#d.requireShift?.();
    const esirTime = transferEsirTime(
      input.paidOn,
      { invoiceType: 'advance', payments: input.payments },
      this.#d.now(),
    );
    const previous = requireOpenAdvance(this.#d.store.queries, this.#d.store.get(input.orderId), input.orderId);
    const pd = this.#data(previous);
    const lines = priceLines(input.lines, new Set(this.#d.taxRates.labels()));
    const totalPara = lines.reduce((s, l) => s + l.totalPara, 0);
    const payments = enteredPayments(input.payments);
    requirePaidExactly(payments, totalPara, 'advance_payment_exact', 'due');
    const data: BackOfficeData = {
      lines,
      payments,
      ...(pd.buyerId ? { buyerId: pd.buyerId } : {}),
      cashier,
      advanceChain: { previousOrderId: previous.id },
    };
    const body = (orderNumber: string): ReceiptRequest => ({
      orderNumber,
      items: lines.flatMap(toItem),
      payments: payments.map(toPayment),
      ...(pd.buyerId ? { buyerId: pd.buyerId } : {}),
      metaFields: this.#meta(cashier, { advanceAfter: previous.order_number }),
      settings: { returnIfOrderNumberExists: true },
    });
    return this.#capture({
      kind: 'sale',
      invoiceType: 'advance',
      transactionType: 'sale',
      totalPara,
      data,
      body,
      reference: previous,
      ...(esirTime ? { esirTime } : {}),
    });
  }

  /**
   * A fiscal COPY of a sale (invoiceType `copy`, the original's items and payments, referencing it). The
   * gateway issues it; its journal says it is not a fiscal receipt. Queued when offline. Like every document it
   * names the person logged in who issues it (`cashier`), not the original's cashier.
   */
  async copy(
    q: { orderId?: number | undefined; invoiceNumber?: string | undefined },
    cashier: string,
  ): Promise<OrderView> {
    const local = this.#findLocal(q);
    // Not on this till: another till's sale (by invoice or order number) through the hub, also offline.
    const hub = !local && q.invoiceNumber ? await this.#d.hubSource?.(q.invoiceNumber) : null;
    if (!local && !hub)
      throw new CommandError('not_found', 'order_not_found', { id: q.orderId ?? q.invoiceNumber ?? '' });
    // A chain's final sale (kind finalize, a normal sale ПП) is copied like any sale.
    const original = local
      ? {
          invoiceType: local.invoice_type,
          ok: (local.kind === 'sale' || local.kind === 'finalize') && local.state !== 'needs_attention',
          orderNumber: local.order_number,
          totalPara: local.total_para,
          ...this.#data(local),
        }
      : { ...(hub as HubSale), ok: true };
    if (!original.ok || !['normal', 'advance'].includes(original.invoiceType)) {
      throw new CommandError('conflict', 'copy_not_allowed', { id: q.orderId ?? q.invoiceNumber ?? '' });
    }
    if (this.#d.trainingMode?.()) {
      const field = q.orderId !== undefined ? 'orderId' : 'invoiceNumber';
      throw invalidInput(field, 'training_copy_real', {
        id: local?.invoice_number ?? q.invoiceNumber ?? original.orderNumber,
      });
    }
    const od = original;
    const advancePara = local?.kind === 'finalize' ? (this.#data(local).advanceOf?.advancePara ?? 0) : 0;
    const data: BackOfficeData = {
      lines: od.lines,
      payments: od.payments,
      cashier,
      copyOf: local ? { orderId: local.id } : { invoiceNumber: (hub as HubSale).invoiceNumber },
    };
    const body = (orderNumber: string): ReceiptRequest => ({
      orderNumber,
      items: od.lines.flatMap(toItem),
      payments: advancePara > 0 ? finalPayments(od.payments, advancePara) : od.payments.map(toPayment),
      ...(od.buyerId ? { buyerId: od.buyerId } : {}),
      metaFields: this.#meta(cashier, { copyOf: od.orderNumber }),
      settings: { returnIfOrderNumberExists: true },
    });
    const reference = local ?? {
      invoiceNumber: (hub as HubSale).invoiceNumber,
      sdcDateTime: (hub as HubSale).sdcDateTime,
    };
    return this.#capture({
      kind: 'copy',
      invoiceType: 'copy',
      transactionType: 'sale',
      totalPara: od.totalPara,
      data,
      body,
      reference,
    });
  }

  // ---- internals ------------------------------------------------------------------------------

  /**
   * One transaction: the order number, the body (or the template when the reference is still queued)
   * and the outbox row. Then a short online budget, like a sale: the one pipeline (outbox/capture.ts).
   */
  async #capture(o: {
    kind: OrderKind;
    invoiceType: InvoiceType;
    transactionType: TransactionType;
    totalPara: number;
    data: BackOfficeData;
    body: (orderNumber: string) => ReceiptRequest;
    reference: OrderRow | { invoiceNumber: string; sdcDateTime: string };
    /** An advance paid earlier by transfer: its ESIR time (receipt-stamp.ts transferEsirTime). */
    esirTime?: string;
  }): Promise<OrderView> {
    const { store } = this.#d;
    const now = this.#d.now();
    const row = await this.#pipeline.run(() => {
      const orderNumber = store.nextOrderNumber(this.#d.terminalId(), now);
      const template = stampReceipt(o.body(orderNumber), now, o, o.esirTime);
      const ref = o.reference;
      let request: string | null;
      let dependsOn: number | undefined;
      const data: BackOfficeData = { ...o.data, ...capturedTaxGroup(this.#d.taxRates) };
      if ('id' in ref) {
        // Read the reference inside the transaction: fiscalized now, or wait for it.
        const current = store.get(ref.id);
        if (current?.state === 'fiscalized' && current.invoice_number && current.sdc_date_time) {
          request = JSON.stringify(withReference(template, current.invoice_number, current.sdc_date_time));
        } else {
          request = null;
          dependsOn = ref.id;
          data.template = template as unknown as Record<string, unknown>;
        }
      } else {
        request = JSON.stringify(withReference(template, ref.invoiceNumber, ref.sdcDateTime));
      }
      return {
        orderNumber,
        kind: o.kind,
        invoiceType: o.invoiceType,
        transactionType: o.transactionType,
        createdAt: new Date(now).toISOString(),
        totalPara: o.totalPara,
        changePara: 0,
        data,
        request,
        ...(dependsOn !== undefined ? { dependsOn } : {}),
      };
    }, now);
    return store.view(row);
  }

  #findLocal(q: { orderId?: number | undefined; invoiceNumber?: string | undefined }): OrderRow | undefined {
    const { store } = this.#d;
    if (q.orderId !== undefined) {
      const row = store.get(q.orderId);
      if (!row) throw new CommandError('not_found', 'order_not_found', { id: q.orderId });
      return row;
    }
    if (!q.invoiceNumber) return undefined;
    // An invoice number, else one of this till's order numbers (the hub answers the same for other tills).
    return store.queries.byInvoiceOrOrderNumber(q.invoiceNumber);
  }

  /**
   * What other tills of the shop refunded of this till's sale (through the hub; none without one or when it is away).
   */
  async #otherTillRefunds(row: OrderRow): Promise<HubSale['refunds']> {
    if (!row.invoice_number || !this.#d.hubSource || row.kind !== 'sale') return [];
    try {
      return (await this.#d.hubSource(row.invoice_number))?.refunds ?? [];
    } catch {
      return [];
    }
  }

  #localSource(
    row: OrderRow,
    otherTills: HubSale['refunds'] = [],
    field: 'orderId' | 'invoiceNumber' = 'orderId',
  ): RefundSource {
    // An advance closed by a final receipt is not refunded again: its АР was issued with the final sale.
    const closedBy = isAdvance(row) ? this.#d.store.queries.finalOfChain(row) : undefined;
    if (closedBy) {
      throw invalidInput(field, 'refund_advance_finalized', {
        id: row.invoice_number ?? row.order_number,
        final: closedBy.invoice_number ?? closedBy.order_number,
      });
    }
    // The final sale of a chain (kind finalize, a normal sale) is refunded like any sale.
    const refundable = row.kind === 'sale' || row.kind === 'finalize';
    if (!refundable || row.state === 'needs_attention') {
      throw new CommandError('conflict', 'refund_not_refundable', {
        id: row.invoice_number ?? row.order_number,
        reason: !refundable ? row.kind : row.state,
      });
    }
    const data = this.#data(row);
    const refunds = [
      ...otherTills,
      ...this.#refundsOf({ orderId: row.id, invoiceNumber: row.invoice_number ?? undefined }),
    ];
    const anyRefund = refunds.length > 0;
    const lines = remainingLines(data.lines, refunds);
    return {
      orderId: row.id,
      orderNumber: row.order_number,
      ...(row.invoice_number ? { invoiceNumber: row.invoice_number } : {}),
      ...(row.sdc_date_time ? { sdcDateTime: row.sdc_date_time } : {}),
      invoiceType: row.invoice_type,
      state: row.state,
      totalPara: row.total_para,
      lines,
      payments: data.payments,
      fullRefundAllowed: !anyRefund && REFUNDABLE.includes(row.invoice_type),
      ...refundBuyerFields(this.#d.store, { buyerId: data.buyerId, receipt: row.receipt }, this.#allowWithoutBuyer()),
    };
  }

  /** Another till's sale (from the hub): what is left after its refunds on other tills and on this one. */
  #hubSource(h: HubSale): RefundSource {
    const refunds = [...h.refunds, ...this.#refundsOf({ invoiceNumber: h.invoiceNumber })];
    return {
      orderNumber: h.orderNumber,
      invoiceNumber: h.invoiceNumber,
      sdcDateTime: h.sdcDateTime,
      invoiceType: h.invoiceType,
      state: 'archived',
      totalPara: h.totalPara,
      lines: remainingLines(h.lines, refunds),
      payments: h.payments,
      fullRefundAllowed:
        !h.refunded && refunds.length === 0 && h.transactionType === 'sale' && REFUNDABLE.includes(h.invoiceType),
      ...refundBuyerFields(this.#d.store, { buyerId: h.buyerId }, this.#allowWithoutBuyer()),
    };
  }

  /** Earlier refunds of an original (every state: a parked refund may still be resent). */
  #refundsOf(q: {
    orderId?: number | undefined;
    invoiceNumber?: string | undefined;
  }): NonNullable<BackOfficeData['refundOf']>[] {
    return this.#d.store.queries.refundsOf(q).flatMap((r) => {
      const d = JSON.parse(r.data) as BackOfficeData;
      if (!d.refundOf) return [];
      // Refunds stored before para per line was kept have none: their own lines (same order) say what they took.
      const lines = d.refundOf.lines.map((l, i) =>
        l.totalPara === undefined && d.lines[i] ? { ...l, totalPara: d.lines[i].totalPara } : l,
      );
      return [{ ...d.refundOf, lines }];
    });
  }

  #allowWithoutBuyer(): boolean {
    return this.#d.allowRefundWithoutBuyerId?.() ?? false;
  }

  #data(row: OrderRow): BackOfficeData {
    return JSON.parse(row.data) as BackOfficeData;
  }

  /**
   * metaFields: the terminal and the name of the person logged in who issues the document (the spec's request has
   * no cashier field; receipt-stamp.ts copies it to the top-level `cashier` the vendor's request and the PFR take).
   */
  #meta(cashier: string, extra: Record<string, string>): Record<string, unknown> {
    return { terminal: this.#d.terminalId(), cashier, ...extra };
  }
}

/** Each sold line with what its refunds (full ones take back every line) left to refund. */
function remainingLines(
  sold: readonly OrderLine[],
  refunds: readonly { lines: { index: number; quantityMilli: number }[]; full: boolean }[],
): RefundableLine[] {
  const refunded = new Map<number, number>();
  for (const r of refunds) {
    const lines = r.full ? sold.map((l, index) => ({ index, quantityMilli: l.quantityMilli })) : r.lines;
    for (const l of lines) refunded.set(l.index, (refunded.get(l.index) ?? 0) + l.quantityMilli);
  }
  return sold.map((l, index) => {
    const refundedMilli = refunded.get(index) ?? 0;
    return {
      index,
      name: l.name,
      labels: l.labels,
      unitPricePara: l.unitPricePara,
      soldMilli: l.quantityMilli,
      refundedMilli,
      remainingMilli: Math.max(0, l.quantityMilli - refundedMilli),
    };
  });
}

/** One refunded line of a refund: the original line's index, the thousandths and (since #21) the para refunded. */
export interface RefundOfLine {
  index: number;
  quantityMilli: number;
  totalPara?: number;
}

/**
 * What earlier refunds took of each sold line, thousandths and para (full refunds take every line). A
 * refund stored without para per line (another till's before #21) is priced as refunds were then.
 */
export function refundedPerLine(
  sold: readonly OrderLine[],
  refunds: readonly { lines: readonly RefundOfLine[]; full: boolean }[],
): RefundedSoFar[] {
  const out = sold.map((): RefundedSoFar => ({ quantityMilli: 0, totalPara: 0 }));
  for (const r of refunds) {
    const lines: readonly RefundOfLine[] = r.full
      ? sold.map((l, index) => ({ index, quantityMilli: l.quantityMilli, totalPara: l.totalPara }))
      : r.lines;
    for (const l of lines) {
      const line = sold[l.index];
      const acc = out[l.index];
      if (!line || !acc) continue;
      acc.quantityMilli += l.quantityMilli;
      acc.totalPara += l.totalPara ?? legacyRefundPara(line, l.quantityMilli);
    }
  }
  return out;
}

/** A line's gateway items: each multiplies out, the discount folded in and named (shared/receipt-items.ts). */
/** The payments a manager entered (in dinars), in para. */
function enteredPayments(entered: readonly { type: PaymentType; amount: number }[]): OrderPayment[] {
  return entered.map((p) => ({ type: p.type, amountPara: toPara(p.amount) as number }));
}

/** Refuses at `payments` unless they add up to `duePara` exactly: `key`'s message names the sum due as `param`. */
function requirePaidExactly(payments: readonly OrderPayment[], duePara: number, key: string, param: string): void {
  if (payments.reduce((s, p) => s + p.amountPara, 0) !== duePara)
    throw invalidInput('payments', key, { [param]: formatRsd(duePara) });
}

function toItem(l: OrderLine): GatewayItem[] {
  return lineItems(l);
}

/** A final sale's payments: the advances paid as `advanceAmount` on the first, the rest as `amount`. */
function finalPayments(payments: readonly OrderPayment[], advancePara: number): GatewayPayment[] {
  return payments.map((p, i) =>
    i === 0 ? { ...toPayment(p), advanceAmount: paraToDecimal(advancePara) } : toPayment(p),
  );
}

function toPayment(p: OrderPayment): GatewayPayment {
  return { type: p.type, amount: paraToDecimal(p.amountPara) };
}

function withReference(body: ReceiptRequest, invoiceNumber: string, sdcDateTime: string): ReceiptRequest {
  return { ...body, referentDocumentNumber: invoiceNumber, referentDocumentDt: sdcDateTime };
}
