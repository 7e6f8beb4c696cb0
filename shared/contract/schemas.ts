/** Reusable zod pieces for contract inputs. Custom messages are message keys (their texts: shared/messages.ts). */
import { z } from 'zod';
import { toMilli, toPara } from '../money.ts';
import { INVOICE_TYPES, PAYMENT_TYPES } from '../domain.ts';
import { buyerIdProblem } from '../buyer-id.ts';
import { pibProblem } from '../goods/pib.ts';

/** A decimal RSD amount with at most 2 decimals, e.g. 199.99. */
export const amount = z
  .number({ error: 'number' })
  .finite({ error: 'number' })
  .refine((v) => toPara(v) !== null, { error: 'amount_decimals' });

export const positiveAmount = amount.refine((v) => v > 0, { error: 'positive' });
export const nonNegativeAmount = amount.refine((v) => v >= 0, { error: 'non_negative' });

/** A decimal quantity with at most 3 decimals, greater than zero. */
export const quantity = z
  .number({ error: 'number' })
  .finite({ error: 'number' })
  .refine((v) => toMilli(v) !== null, { error: 'quantity_decimals' })
  .refine((v) => v > 0, { error: 'positive' });

export const text = (max: number) =>
  z.string({ error: 'text' }).trim().min(1, { error: 'required' }).max(max, { error: 'too_long' });

/** Whether a line a person typed holds a C0 control character or DEL (a tab, a line break, an escape). */
export const hasControl = (line: string): boolean =>
  [...line].some((ch) => (ch.codePointAt(0) ?? 0) < 0x20 || ch === '\u007f');

/** `code:identifier` with a code of the Tax Administration's list, each code by its own rule (shared/buyer-id.ts). */
export const buyerId = z
  .string({ error: 'text' })
  .trim()
  .superRefine((v, ctx) => {
    const problem = buyerIdProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const email = z.string({ error: 'text' }).trim().email({ error: 'email' }).max(200, { error: 'too_long' });

export const paymentType = z.enum(PAYMENT_TYPES, { error: 'payment_type' });
export const invoiceType = z.enum(INVOICE_TYPES, { error: 'invoice_type' });

export const labelCode = z.string({ error: 'text' }).min(1, { error: 'required' }).max(4, { error: 'too_long' });

export const id = z.number({ error: 'number' }).int({ error: 'integer' }).positive({ error: 'positive' });

/** A sale named by its local order id or by its invoice number (the till's or another's); one of them is required. */
export const saleRef = z
  .strictObject({
    orderId: id.optional(),
    invoiceNumber: z.string({ error: 'text' }).trim().min(3).max(60).optional(),
  })
  .refine((v) => v.orderId !== undefined || v.invoiceNumber !== undefined, {
    error: 'required',
    path: ['invoiceNumber'],
  });

export const gtin = z.string({ error: 'text' }).regex(/^\d{8,14}$/, { error: 'gtin' });

export const empty = z.strictObject({});

/**
 * Keys no command takes from its caller because the core sets them from the session, each with the message its
 * refusal gives (an unknown key to every strict schema, named at its field): the cashier of a document is the
 * person logged in at the till (docs/manager.md, "Who is named on a document").
 */
export const SESSION_KEYS: Readonly<Record<string, string>> = { cashier: 'cashier_from_session' };

/** A PIN: 4 to 8 digits (a person's own, or a manager's approving one). */
export const pin = z.string({ error: 'text' }).regex(/^\d{4,8}$/, { error: 'pin_format' });

/**
 * The manager's PIN a command that needs a manager carries (`auth: 'manager'` or an approval): optional in the
 * schema, because the core's guard asks for it and checks it (docs/security.md, "Authorization in the core").
 */
export const managerPin = pin.optional();

/**
 * A PIB, trimmed, whose nine digits and check digit hold (shared/goods/pib.ts), refused with `pib_format` or
 * `pib_check`: a supplier's, a buyer's price list's, the shop's own. `clearable`: '' passes too (it clears the PIB).
 */
const pibOf = (clearable: boolean) =>
  z
    .string({ error: 'text' })
    .trim()
    .superRefine((v, ctx) => {
      const problem = clearable && v === '' ? null : pibProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
export const pib = pibOf(false);
export const clearablePib = pibOf(true);

/** A date (or date-time) `Date.parse` reads, e.g. `2026-01-31` or an ISO timestamp. */
/** A calendar day, YYYY-MM-DD. */
export const calendarDate = z.string({ error: 'text' }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'date' });

export const isoDate = z.string({ error: 'text' }).refine((v) => !Number.isNaN(Date.parse(v)), { error: 'date' });

/**
 * A whole number from `min` to `max`: refused as `number`, then `integer`, then at each bound with its own message
 * key (`above` absent: zod's own message).
 */
export const wholeNumber = (min: number, max: number, errors: { below: string; above?: string }) =>
  z
    .number({ error: 'number' })
    .int({ error: 'integer' })
    .min(min, { error: errors.below })
    .max(max, errors.above === undefined ? undefined : { error: errors.above });

/** A page number of a paginated list, from 1. */
export const page = z.number({ error: 'number' }).int({ error: 'integer' }).min(1, { error: 'positive' });

/** Rows per page of a paginated list (at most 100). */
export const pageLimit = wholeNumber(1, 100, { below: 'positive', above: 'too_many' });
