/**
 * Sales: turns a validated checkout into an order with its frozen gateway request, captured durably in
 * one transaction, then gives the sync engine a short online budget to fiscalize it (outbox/capture.ts).
 */
import type { CheckoutInput, CheckoutResult } from '../../shared/contract/index.ts';
import type { InvoiceType, OfflineSales, OrderLine, OrderPayment } from '../../shared/domain.ts';
import { paraToDecimal, toPara, formatRsd } from '../../shared/money.ts';
import { receiptItems } from '../../shared/receipt-items.ts';
import { CommandError, invalidInput } from '../errors.ts';
import type { SyncEngine } from '../outbox/engine.ts';
import { createCapturePipeline, type CapturePipeline } from '../outbox/capture.ts';
import { toReceiptView, type OrderData, type OrderStore } from '../orders/store.ts';
import type { IssuedReceipt, ReceiptRequest } from '../gateway/types.ts';
import type { TaxRatesCache } from './tax-rates.ts';
import { nominalPayments, takesNoMoney } from './no-money.ts';
import { capturedTaxGroup, stampReceipt, transferEsirTime } from './receipt-stamp.ts';
import { priceLines } from './price-lines.ts';
import type { OpenCart } from './open-cart.ts';
import type { DiscountApprovals } from './discount-approvals.ts';

/**
 * What every fiscal document of the till is made with: a sale here, a refund, a further advance, a final sale or
 * a copy in the back office (electron/manager/orders.ts).
 */
export interface DocumentDeps {
  store: OrderStore;
  engine: SyncEngine;
  taxRates: TaxRatesCache;
  terminalId: () => string;
  onlineBudgetMs: () => number;
}

export interface SalesDeps extends DocumentDeps {
  trainingMode: () => boolean;
  /** Throws when the till works in shifts and none is open (electron/shifts): no sale outside a shift. */
  requireShift?: () => void;
  /** The counter's open cart: a checkout with `cartRev` closes it in the order's transaction. */
  openCart?: OpenCart;
  /** Discounts approved when they were entered: the checkout that uses them marks them in its transaction. */
  discountApprovals?: Pick<DiscountApprovals, 'consume'>;
  /** The shop's choice for sales nobody can sign (setting `offlineSales`); default `allowed`. */
  offlineSales?: () => OfflineSales;
  /**
   * A sale that takes money left the checkout unsigned: the core queues the non-fiscal slip (`printing`) or
   * says no printer is set (`no_printer`), and keeps the sale until its fiscal receipt reaches the buyer.
   */
  onUnsigned?: (orderId: number) => 'printing' | 'no_printer';
  /**
   * The price lists and promotions in force (electron/prices): for each checkout line, the rule that prices it
   * now and the discount it gives, or null. A line whose discount covers the rule's is named by it on the receipt.
   * Asked once per checkout: the guard's discount limit read the same answer for this input.
   */
  priceRules?: (input: CheckoutInput) => ({ name: string; kind: 'list' | 'promotion'; discountPara: number } | null)[];
  now?: () => number;
  /**
   * The goods a normal sale takes out, checked before anything is saved: throws at the line when the shop forbids
   * selling counted goods below zero (electron/goods/stocktake.ts).
   */
  stockGuard?: (lines: readonly OrderLine[]) => void;
  /** The catalog code of a line's product (electron/goods/ledger.ts `codeOfLine`), kept on the line for the hub. */
  lineCode?: (line: OrderLine) => string | null;
}

export class SalesService {
  readonly #deps: SalesDeps;
  readonly #now: () => number;
  readonly #pipeline: CapturePipeline;

  constructor(deps: SalesDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#pipeline = createCapturePipeline(deps);
  }

  /**
   * Commits the order, its frozen request and its outbox row in one transaction, then waits at most the
   * online budget for the gateway. Never loses a committed order; never sends it twice. `by.cashier` is the
   * person logged in (the handler passes the session's, never a name from the caller): the receipt, the order
   * and the reports name them. `by.approvals` are the discounts approved at entry that the guard claimed for
   * this sale: used by it, or by none.
   */
  async checkout(
    input: CheckoutInput,
    by: { cashier?: string | undefined; approvals?: readonly number[] } = {},
  ): Promise<CheckoutResult> {
    const approvals = by.approvals ?? [];
    const cashier = by.cashier;
    const { store, engine } = this.#deps;
    this.#deps.requireShift?.();
    const priced = this.price(input);
    let invoiceType: InvoiceType = input.invoiceType ?? 'normal';
    if (this.#deps.trainingMode() && invoiceType === 'normal') invoiceType = 'training';
    // No training advance exists; the guard refuses it first (shared/contract/authz.ts), this is the core's own check.
    if (this.#deps.trainingMode() && invoiceType === 'advance') throw invalidInput('invoiceType', 'training_advance');
    // Nothing can sign it and the shop sells only with a fiscal receipt: refused before anything is saved. Proforma
    // and training take no money (no-money.ts): no customer leaves with goods they paid for without a receipt.
    if (invoiceType === 'normal') this.#deps.stockGuard?.(priced.lines);
    const takesMoney = !takesNoMoney(invoiceType, this.#deps.trainingMode());
    if (takesMoney && !engine.fiscalNow && (this.#deps.offlineSales?.() ?? 'allowed') === 'refused')
      throw new CommandError('unavailable', 'offline_sales_refused');
    // A transfer's reference belongs to a sale paid (in part) by that transfer: never to cash, a card or a proforma.
    if (input.ipsReference !== undefined && !priced.payments.some((p) => p.type === 'mobileMoney'))
      throw invalidInput('ipsReference', 'ips_payment_missing');
    const now = this.#now();
    const esirTime = transferEsirTime(input.paidOn, { invoiceType, payments: input.payments }, now);
    // Captured, kicked and waited for by the one pipeline (outbox/capture.ts); still unsigned as it answers, a sale
    // that takes money gets its outage slip in the same synchronous step as the read of its state.
    let outageSlip: 'printing' | 'no_printer' | undefined;
    const row = await this.#pipeline.run(
      () => {
        // Sold with the order or not at all: a crash cannot bring back a cart that was sold.
        if (input.cartRev !== undefined) this.#deps.openCart?.close(input.cartRev, now);
        const orderNumber = store.nextOrderNumber(this.#deps.terminalId(), now);
        if (approvals.length > 0) this.#deps.discountApprovals?.consume(approvals, orderNumber);
        const body: ReceiptRequest = {
          orderNumber,
          // Items that multiply out, discounts folded in and named (docs/gateway.md, "Discounts").
          items: receiptItems(priced.lines),
          payments: priced.payments.map((p) => ({ type: p.type, amount: paraToDecimal(p.amountPara) })),
          ...(input.buyerId ? { buyerId: input.buyerId } : {}),
          metaFields: {
            terminal: this.#deps.terminalId(),
            ...(cashier ? { cashier } : {}),
            ...(input.ipsReference ? { ipsReference: input.ipsReference } : {}),
          },
          settings: {
            returnIfOrderNumberExists: true,
            ...(input.email ? { sendToEmail: input.email } : {}),
          },
        };
        const data: OrderData = {
          lines: priced.lines,
          payments: priced.payments,
          ...(input.buyerId ? { buyerId: input.buyerId } : {}),
          ...(input.email ? { email: input.email } : {}),
          ...(cashier ? { cashier } : {}),
          ...(input.ipsReference ? { ipsReference: input.ipsReference } : {}),
          ...capturedTaxGroup(this.#deps.taxRates),
        };
        return {
          orderNumber,
          kind: 'sale',
          invoiceType,
          transactionType: 'sale',
          createdAt: new Date(now).toISOString(),
          totalPara: priced.totalPara,
          changePara: priced.changePara,
          data,
          request: JSON.stringify(stampReceipt(body, now, { invoiceType, transactionType: 'sale' }, esirTime)),
        };
      },
      now,
      { onQueued: (r) => (outageSlip = this.#unsigned(r.id, takesMoney).outageSlip) },
    );
    return {
      ...(outageSlip ? { outageSlip } : {}),
      orderId: row.id,
      orderNumber: row.order_number,
      state: row.state,
      totalPara: row.total_para,
      changePara: row.change_para,
      ...(row.receipt ? { receipt: toReceiptView(JSON.parse(row.receipt) as IssuedReceipt) } : {}),
      ...(row.processor ? { processor: row.processor } : {}),
    };
  }

  /**
   * The sale is still unsigned as the checkout answers (read in the same synchronous step as its state, so an
   * engine that signs it a moment later finds it recorded): the customer gets the slip now, the receipt later.
   */
  #unsigned(orderId: number, takesMoney: boolean): { outageSlip?: 'printing' | 'no_printer' } {
    if (!takesMoney || !this.#deps.onUnsigned) return {};
    return { outageSlip: this.#deps.onUnsigned(orderId) };
  }

  /**
   * Prices a checkout in para: line totals, labels checked against the current tax rates, payments
   * covering the total, and cash change (which is never sent as a payment).
   */
  price(input: CheckoutInput): { lines: OrderLine[]; payments: OrderPayment[]; totalPara: number; changePara: number } {
    const known = new Set(this.#deps.taxRates.labels());
    const lines = priceLines(input.lines, known, new Set(this.#deps.taxRates.refused()));
    for (const line of lines) {
      const code = this.#deps.lineCode?.(line);
      if (code) line.code = code;
    }
    // Named by the rule that gave the line its price, when its discount is (at least) that rule's (docs/prices.md).
    const rules = this.#deps.priceRules?.(input) ?? [];
    rules.forEach((rule, i) => {
      const line = lines[i];
      if (line && rule && rule.discountPara > 0 && line.discountPara >= rule.discountPara) {
        line.priceRule = rule.name;
        // Whether a list or a promotion priced it: the hub's report by promotion tells them apart.
        line.priceRuleKind = rule.kind;
      }
    });
    const totalPara = lines.reduce((s, l) => s + l.totalPara, 0);
    // Proforma and training take no money: one nominal payment, no change (no-money.ts).
    if (takesNoMoney(input.invoiceType, this.#deps.trainingMode()))
      return { lines, payments: nominalPayments(totalPara), totalPara, changePara: 0 };
    const paid = input.payments.map((p) => ({ type: p.type, amountPara: toPara(p.amount) as number }));
    const paidTotal = paid.reduce((s, p) => s + p.amountPara, 0);
    if (paidTotal < totalPara) throw invalidInput('payments', 'payments_short', { due: formatRsd(totalPara) });
    let change = paidTotal - totalPara;
    const changePara = change;
    const cashTotal = paid.filter((p) => p.type === 'cash').reduce((s, p) => s + p.amountPara, 0);
    if (change > cashTotal) throw invalidInput('payments', 'change_non_cash');
    // Change comes out of the cash payments, last first; a payment reduced to zero disappears.
    const payments: OrderPayment[] = [];
    for (let i = paid.length - 1; i >= 0; i--) {
      const p = paid[i] as OrderPayment;
      if (p.type === 'cash' && change > 0) {
        const take = Math.min(change, p.amountPara);
        change -= take;
        if (p.amountPara - take > 0) payments.unshift({ type: p.type, amountPara: p.amountPara - take });
      } else payments.unshift(p);
    }
    if (payments.length === 0 && totalPara === 0) payments.push({ type: 'cash', amountPara: 0 });
    return { lines, payments, totalPara, changePara };
  }
}
