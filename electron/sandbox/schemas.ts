/**
 * Request validation of the sandbox (zod). Every failure becomes `ERR_00202` with
 * `details.validationErrors: [{field, message}]`, field paths written like `items[0].totalAmount`.
 */
import { z } from 'zod';
import { toMilli, toPara } from '../../shared/money.ts';
import { itemArithmeticError } from './item-arithmetic.ts';

/** One validation error as sent in `details.validationErrors`. */
export interface ValidationError {
  field: string;
  message: string;
}

/** Payment types of the spec (the same list Kasa's domain uses). */
export { PAYMENT_TYPES } from '../../shared/domain.ts';
import { PAYMENT_TYPES } from '../../shared/domain.ts';
import { BUYER_ID_CODES } from '../../shared/buyer-id.ts';

const money = z
  .number()
  .finite()
  .refine((n) => toPara(n) !== null, { message: 'Must be an amount with at most 2 decimals' });
const nonNegativeMoney = money.refine((n) => n >= 0, { message: 'Must not be negative' });
const quantity = z
  .number()
  .finite()
  .refine((n) => n > 0, { message: 'Must be greater than 0' })
  .refine((n) => toMilli(n) !== null, { message: 'Must have at most 3 decimals' });
const isoDate = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)), { message: 'Must be an ISO date' });

/** `type:identifier`; `10:` a 9-digit tax id, `11:` a 13-digit personal id number. */
export const BUYER_ID_RE = /^(\d{2}):(\S+)$/;
const buyerId = z.string().superRefine((s, ctx) => {
  const m = BUYER_ID_RE.exec(s);
  if (!m) {
    ctx.addIssue({ code: 'custom', message: 'Must be type:identifier, e.g. 10:123456789 or 11:0101990710000' });
    return;
  }
  // As a PFR: the type is a code of the Tax Administration's buyer ID list (docs/buyer-id.md).
  if (!BUYER_ID_CODES.includes(m[1] ?? ''))
    ctx.addIssue({ code: 'custom', message: `Unknown buyer ID type ${m[1] ?? ''}` });
  if (m[1] === '10' && !/^\d{9}$/.test(m[2] ?? ''))
    ctx.addIssue({ code: 'custom', message: 'A tax id (10:) has 9 digits' });
  if (m[1] === '11' && !/^\d{13}$/.test(m[2] ?? '')) {
    ctx.addIssue({ code: 'custom', message: 'A personal id (11:) has 13 digits' });
  }
});

export const ItemSchema = z
  .object({
    name: z.string().trim().min(1).max(2048),
    quantity,
    unitPrice: nonNegativeMoney,
    totalAmount: nonNegativeMoney,
    labels: z.array(z.string().min(1)).min(1),
    gtin: z.string().optional(),
    discount: nonNegativeMoney.optional(),
  })
  .superRefine((item, ctx) => {
    // The PFR's item arithmetic: refused at the item's totalAmount when it does not add up.
    const message = itemArithmeticError(item);
    if (message) ctx.addIssue({ code: 'custom', path: ['totalAmount'], message });
  });
export type Item = z.infer<typeof ItemSchema>;

export const PaymentSchema = z.object({
  type: z.enum(PAYMENT_TYPES),
  amount: nonNegativeMoney,
  advanceAmount: nonNegativeMoney.optional(),
});
export type Payment = z.infer<typeof PaymentSchema>;

export const SettingsSchema = z.looseObject({
  returnIfOrderNumberExists: z.boolean().optional(),
  skipOrderNumberValidation: z.boolean().optional(),
  skipInvoiceNumberValidation: z.boolean().optional(),
  skipAmountValidation: z.boolean().optional(),
  skipBuyerIdValidation: z.boolean().optional(),
  sendToEmail: z.email().optional(),
  isFinal: z.boolean().optional(),
  orderNumberUnderReceipt: z.boolean().optional(),
  textHeader: z.string().max(500).optional(),
  textFooter: z.string().max(500).optional(),
});

/** The receipt request of sale, refund, bulk element, async and finalize. */
export const ReceiptRequestSchema = z.looseObject({
  orderNumber: z.string().trim().min(1).max(100),
  items: z.array(ItemSchema).min(1, { message: 'At least one item is required' }).max(1000),
  payments: z.array(PaymentSchema).optional(),
  metaFields: z.record(z.string(), z.unknown()).optional(),
  referentDocumentNumber: z.string().min(1).optional(),
  referentDocumentDt: isoDate.optional(),
  buyerId: buyerId.optional(),
  dateTimeOfIssue: isoDate.optional(),
  cashier: z.string().max(100).optional(),
  settings: SettingsSchema.optional(),
});
export type ReceiptRequest = z.infer<typeof ReceiptRequestSchema>;

/** Draft create body: draftName, orderNumber and items required, the rest as for a receipt. */
export const DraftCreateSchema = ReceiptRequestSchema.extend({
  draftName: z.string().trim().min(1).max(200),
  invoiceType: z.enum(['normal', 'training', 'advance', 'proforma', 'copy']).optional(),
  transactionType: z.enum(['sale', 'refund', 'finalize']).optional(),
});
/** Draft update body: any subset of the create fields. */
export const DraftUpdateSchema = DraftCreateSchema.partial();

export const SendEmailSchema = z.object({
  invoiceNumber: z.string().min(1),
  email: z.email(),
  cc: z.array(z.email()).optional(),
  bcc: z.array(z.email()).optional(),
});

export const LookupSchema = z.object({
  orderNumbers: z.array(z.string()).max(1000),
});

export const CashierCreateSchema = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.email().optional(),
  phone: z
    .string()
    .regex(/^\+?[0-9 /-]{5,20}$/, { message: 'Must be a phone number' })
    .optional(),
  active: z.boolean().optional(),
});
export const CashierUpdateSchema = CashierCreateSchema.partial();

/** Formats a zod path as `items[0].totalAmount`. */
export function fieldPath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out || 'body';
}

/** Runs a schema; returns the data or the validation errors. */
export function check<S extends z.ZodType>(
  schema: S,
  value: unknown,
  prefix = '',
): { ok: true; data: z.output<S> } | { ok: false; errors: ValidationError[] } {
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, data: r.data };
  return {
    ok: false,
    errors: r.error.issues.map((i) => ({ field: fieldPath(i.path, prefix), message: i.message })),
  };
}
