/**
 * Authorization beyond each command's own rule (its `auth`, declared in its `command()` definition): the
 * core checks both in `dispatch` before any handler runs (electron/auth/guard.ts); the UI only asks for
 * what the rule needs (a login, a manager's PIN). Nothing a transport sends is trusted beyond the core's
 * own session (the person logged in at this till).
 *
 * Some `session` commands escalate by their input (`escalation` below):
 * a checkout with a price override or a discount beyond the limit needs `approval`; a training receipt is
 * refused unless training mode is on; `catalog.import` (unless a dry run) and `catalog.barcodeRules` with
 * new rules need `approval`; `emails.send` of an archived receipt (by invoice number) needs `approval`.
 */
import { z } from 'zod';
import { commands, type AppError, type CommandName, type CommandParsedInput } from './index.ts';
import type { AuthRule } from './define.ts';
import { lineTotal, toMilli, toPara } from '../money.ts';

export type { AuthRule } from './define.ts';

/** Every command's rule by name, read from the command definitions (a view for tests and readers). */
export const AUTHZ: { readonly [N in CommandName]: AuthRule } = Object.fromEntries(
  Object.entries(commands).map(([name, def]) => [name, def.auth]),
) as { [N in CommandName]: AuthRule };

/** `session` commands audited with the person who ran them (what leaves the shop). */
export const AUDITED: ReadonlySet<CommandName> = new Set<CommandName>(['emails.send']);

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

/** What escalation needs to know about the till. */
export interface EscalationContext {
  trainingMode: boolean;
  /** A line discount above this share of the line total needs approval (percent). */
  discountLimitPercent: number;
  /** The catalog price (para) of the product with exactly this barcode, or null. */
  catalogPricePara(gtin: string): number | null;
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
    for (const [i, line] of checkout.lines.entries()) {
      const unit = toPara(line.unitPrice) ?? 0;
      const total = lineTotal(unit, toMilli(line.quantity) ?? 0);
      const discount = toPara(line.discount ?? 0) ?? 0;
      if (discount * 100 > total * ctx.discountLimitPercent) return { kind: 'approval', reason: `lines.${i}.discount` };
      const listed = line.gtin ? ctx.catalogPricePara(line.gtin) : null;
      if (listed !== null && listed !== unit) return { kind: 'approval', reason: `lines.${i}.unitPrice` };
    }
  }
  if ((name === 'advances.finalize' || name === 'advances.add') && ctx.trainingMode)
    return { kind: 'refuse', key: 'training_advance', field: 'orderId' };
  if (name === 'catalog.import' && (input as CommandParsedInput<'catalog.import'>).dryRun !== true)
    return { kind: 'approval', reason: 'catalog.import' };
  // The sale's own receipt is e-mailed by the cashier; any other receipt (by invoice number, from the
  // archive, of any till) goes out of the shop only with a manager's approval.
  if (name === 'emails.send' && (input as CommandParsedInput<'emails.send'>).invoiceNumber !== undefined)
    return { kind: 'approval', reason: 'invoiceNumber' };
  if (name === 'catalog.barcodeRules' && (input as CommandParsedInput<'catalog.barcodeRules'>).rules !== undefined)
    return { kind: 'approval', reason: 'rules' };
  return null;
}
