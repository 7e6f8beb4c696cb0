/**
 * Authorization beyond each command's own rule (its `auth`, declared in its `command()` definition): the
 * core checks both in `dispatch` before any handler runs (electron/auth/guard.ts); the UI only asks for
 * what the rule needs (a login, a manager's PIN). Nothing a transport sends is trusted beyond the core's
 * own session (the person logged in at this till).
 *
 * Some `session` commands escalate by their input (`escalation` below):
 * a checkout (or a further advance, or a final sale) with a line naming a catalog product at another price than
 * the catalog's, by id or barcode, needs `approval`; so does a checkout line with a discount beyond the limit
 * (unless that exact discount was approved when it was entered, `sales.approveDiscount`, which itself
 * escalates); a training receipt is
 * refused unless training mode is on; `catalog.import` and `catalog.bulkPrice` (unless a dry run) and
 * `catalog.barcodeRules` with new rules need `approval`; `emails.send` of an archived receipt (by invoice
 * number) needs `approval`.
 */
import { z } from 'zod';
import { commands, type AppError, type CommandName, type CommandParsedInput } from './index.ts';
import type { AuthRule } from './define.ts';
import type { CheckoutLine } from './sales.ts';
import { lineTotal, toMilli, toPara } from '../money.ts';

export type { AuthRule } from './define.ts';

/** Every command's rule by name, read from the command definitions (a view for tests and readers). */
export const AUTHZ: { readonly [N in CommandName]: AuthRule } = Object.fromEntries(
  Object.entries(commands).map(([name, def]) => [name, def.auth]),
) as { [N in CommandName]: AuthRule };

/** `session` commands audited with the person who ran them (what leaves the shop). */
export const AUDITED: ReadonlySet<CommandName> = new Set<CommandName>(['emails.send']);

/**
 * The manager screens' commands a manager logged in at this till may run without typing her PIN again
 * (issue 38 §7): the core takes her as the approver (electron/auth/guard.ts `selfApprover`). Not here: what the
 * counter asks a manager for over a cashier's shoulder (catalog changes, fiscal copies, the drawer's cash,
 * discounts and prices), and staff and hub changes, whose PIN the hub checks itself.
 */
export const SELF_APPROVED: ReadonlySet<CommandName> = new Set<CommandName>([
  'refunds.create',
  'orders.reissue',
  'orders.lpfrNotSigned',
  'orders.fixLabels',
  'printer.configure',
  'print.held',
  'print.resolveHeld',
  'shifts.list',
  'audit.list',
  'backups.list',
  'backups.restore',
  'backups.create',
  'backups.copy',
  'settings.update',
  'settings.setApiKey',
  'settings.setLpfr',
  'settings.setEsir',
  'suppliers.put',
  'goods.receiptSave',
  'goods.receiptPost',
  'goods.receiptReverse',
  'goods.writeOff',
  'sef.issue',
  'sef.list',
  'sef.forOrder',
  'sef.retry',
  'sef.cancel',
  'sef.settings',
  'sef.saveSettings',
  'sef.incoming',
  'goods.countStart',
  'goods.countPost',
  'goods.countCancel',
  'goods.minimumSet',
  'prices.listPut',
  'prices.listDelete',
  'prices.promotionPut',
  'prices.promotionDelete',
  'prices.schedule',
  'prices.scheduleCancel',
  'exports.build',
  'exports.file',
  'exports.accounts',
  'exports.saveAccounts',
  'exports.schedule',
  'exports.saveSchedule',
  'display.tokens',
  'display.tokenCreate',
  'display.tokenRevoke',
  'labels.overview',
  'labels.preview',
  'labels.print',
  'labels.pdf',
  'labels.printerSet',
  'labels.productSet',
  'exports.mail',
  'exports.saveMail',
  'exports.sendNow',
  'hubGoods.receiptSave',
]);

/** The field a refusal names when a manager's PIN beside the input would let the command through. */
export const APPROVAL_FIELD = 'approval.managerPin';

/** Did the core refuse only for want of a manager's approval (the UI asks for a PIN and sends again)? */
export function needsApproval(error: AppError): boolean {
  return error.code === 'forbidden' && error.field === APPROVAL_FIELD;
}

/** The approval a command may carry beside its own input (stripped by the core before the schema). */
export const Approval = z.strictObject({
  managerPin: z.string({ error: 'text' }).regex(/^\d{4,8}$/, { error: 'pin_format' }),
});
export type Approval = z.infer<typeof Approval>;

/** One discounted line as a manager approves it: an approval covers exactly these figures. */
export interface DiscountedLine {
  name: string;
  gtin: string | null;
  unitPricePara: number;
  quantityMilli: number;
  discountPara: number;
}

/** What escalation needs to know about the till. */
export interface EscalationContext {
  trainingMode: boolean;
  /** A line discount above this share of the line total needs approval (percent). */
  discountLimitPercent: number;
  /**
   * The price (para) each catalog product a checkout line names may be sold at without a manager: the product
   * of its `productId` and the product with exactly its barcode `gtin`, each at its catalog price, or at the
   * price an in-store price barcode of that product (`priceCode`) carries. `unknown` for a `productId` the
   * catalog does not have (its price cannot be checked). Empty: the line names no product (a hand-typed item).
   */
  catalogPrices(line: CatalogRef): (number | 'unknown')[];
  /**
   * Takes (for this call) an unused approval a manager gave when this exact discounted line was entered
   * (`sales.approveDiscount`); false when there is none. Without it, such a line needs approval at checkout.
   */
  claimDiscountApproval?(line: DiscountedLine): boolean;
  /**
   * The limit in hours when receipts have gone unfiscalized too long: the gateway is unreachable and the
   * oldest sale waiting for it is older than `unfiscalizedCashLimitHours`. Null otherwise.
   */
  unfiscalizedTooLong?(): number | null;
  /**
   * The discount (para) the price lists and promotions in force give each checkout line now (electron/prices):
   * that part of a line's discount is the shop's own rule, not the cashier's, and does not count against the limit.
   */
  ruleDiscounts?(checkout: CommandParsedInput<'sales.checkout'>): number[];
}

/** How a checkout line names a catalog product: by its id, by its barcode, by an in-store price barcode. */
export type CatalogRef = Pick<z.infer<typeof CheckoutLine>, 'productId' | 'gtin' | 'priceCode'>;

/**
 * The first line that names a catalog product at a price the catalog does not give it (`lines.<i>.unitPrice`),
 * barcode or not, or null. A hand-typed item (naming no product) is sold at the price typed.
 */
export function priceOverride(
  lines: readonly (CatalogRef & { unitPrice: number })[],
  ctx: Pick<EscalationContext, 'catalogPrices'>,
): string | null {
  for (const [i, line] of lines.entries()) {
    const price = toPara(line.unitPrice) ?? 0;
    if (ctx.catalogPrices(line).some((listed) => listed !== price)) return `lines.${i}.unitPrice`;
  }
  return null;
}

/** Default of `unfiscalizedCashLimitHours`: a day without fiscal receipts, then a manager decides. */
export const UNFISCALIZED_CASH_LIMIT_HOURS = 24;

type DiscountInputLine = Pick<z.infer<typeof CheckoutLine>, 'name' | 'quantity' | 'unitPrice' | 'gtin' | 'discount'>;

/** A checkout line in para and thousandths, as an approval of its discount is kept. */
export function discountedLine(line: DiscountInputLine): DiscountedLine {
  return {
    name: line.name,
    gtin: line.gtin ?? null,
    unitPricePara: toPara(line.unitPrice) ?? 0,
    quantityMilli: toMilli(line.quantity) ?? 0,
    discountPara: toPara(line.discount ?? 0) ?? 0,
  };
}

/**
 * The largest discount a cashier gives alone on a line of `totalPara`: the limit's share of it, rounded up to the
 * para, in the customer's favour. The till shows and takes money only in whole para, so at a 10 % limit 25,00 off
 * 249,99 (whose 10 % is 24,999) is within the limit, and 25,01 is not (docs/counter.md, "Discounts").
 */
export function discountLimitPara(totalPara: number, limitPercent: number): number {
  return Math.floor((totalPara * limitPercent + 99) / 100);
}

/** Is this line's discount beyond the limit (a share of the line's total, in percent, rounded up to the para)? */
export function discountBeyondLimit(line: DiscountedLine, limitPercent: number): boolean {
  return line.discountPara > discountLimitPara(lineTotal(line.unitPricePara, line.quantityMilli), limitPercent);
}

/** A command that needs more than its table rule because of its input: approval, or a refusal. */
export type Escalation = { kind: 'approval'; reason: string } | { kind: 'refuse'; key: string; field: string } | null;

export function escalation(name: CommandName, input: unknown, ctx: EscalationContext): Escalation {
  if (name === 'sales.checkout') {
    const checkout = input as CommandParsedInput<'sales.checkout'>;
    if (checkout.invoiceType === 'training' && !ctx.trainingMode)
      return { kind: 'refuse', key: 'training_off', field: 'invoiceType' };
    // The law has no training advance; in training mode every document is training or refused.
    if (checkout.invoiceType === 'advance' && ctx.trainingMode)
      return { kind: 'refuse', key: 'training_advance', field: 'invoiceType' };
    // The customer leaves without a fiscal receipt while the gateway is away; past the till's bound a manager
    // decides whether cash sales go on (docs/manager.md, "Selling without the internet").
    const takesCash = checkout.payments.some((p) => p.type === 'cash');
    const fiscalDocument =
      checkout.invoiceType === undefined || checkout.invoiceType === 'normal' || checkout.invoiceType === 'advance';
    if (takesCash && fiscalDocument && !ctx.trainingMode && (ctx.unfiscalizedTooLong?.() ?? null) !== null)
      return { kind: 'approval', reason: 'unfiscalized' };
    const rules = ctx.ruleDiscounts?.(checkout) ?? [];
    for (const [i, line] of checkout.lines.entries()) {
      const priced = discountedLine(line);
      // What the cashier gave beyond the rule in force (docs/prices.md) is what the limit is about.
      const own = { ...priced, discountPara: Math.max(0, priced.discountPara - (rules[i] ?? 0)) };
      // Approved when it was entered (and unchanged since), or approved now.
      if (discountBeyondLimit(own, ctx.discountLimitPercent) && !(ctx.claimDiscountApproval?.(priced) ?? false))
        return { kind: 'approval', reason: `lines.${i}.discount` };
      if (priceOverride([line], ctx) !== null) return { kind: 'approval', reason: `lines.${i}.unitPrice` };
    }
  }
  // A further advance and a final sale price their own lines: another price than the catalog's needs a manager too.
  if (name === 'advances.add' || name === 'advances.finalize') {
    const { lines } = input as CommandParsedInput<'advances.add'> | CommandParsedInput<'advances.finalize'>;
    const override = lines && !ctx.trainingMode ? priceOverride(lines, ctx) : null;
    if (override !== null) return { kind: 'approval', reason: override };
  }
  // A discount beyond the limit is approved when it is entered, for exactly the lines that carry it.
  if (name === 'sales.approveDiscount') {
    const { lines } = input as CommandParsedInput<'sales.approveDiscount'>;
    for (const [i, line] of lines.entries())
      if (discountBeyondLimit(discountedLine(line), ctx.discountLimitPercent))
        return { kind: 'approval', reason: `lines.${i}.discount` };
  }
  if ((name === 'advances.finalize' || name === 'advances.add') && ctx.trainingMode)
    return { kind: 'refuse', key: 'training_advance', field: 'orderId' };
  if (name === 'catalog.import' && (input as CommandParsedInput<'catalog.import'>).dryRun !== true)
    return { kind: 'approval', reason: 'catalog.import' };
  // A bulk price change is previewed by anyone logged in and made only with a manager's approval.
  if (name === 'catalog.bulkPrice' && (input as CommandParsedInput<'catalog.bulkPrice'>).dryRun !== true)
    return { kind: 'approval', reason: 'catalog.bulkPrice' };
  // The sale's own receipt is e-mailed by the cashier; any other receipt (by invoice number, from the
  // archive, of any till) goes out of the shop only with a manager's approval.
  if (name === 'emails.send' && (input as CommandParsedInput<'emails.send'>).invoiceNumber !== undefined)
    return { kind: 'approval', reason: 'invoiceNumber' };
  if (name === 'catalog.barcodeRules' && (input as CommandParsedInput<'catalog.barcodeRules'>).rules !== undefined)
    return { kind: 'approval', reason: 'rules' };
  return null;
}
