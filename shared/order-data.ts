/**
 * The shape of an order as a till stores it (`orders` columns and the JSON in `orders.data` / `orders.receipt`),
 * as zod schemas: what the store hub parses every pushed order with, so an order its reports or lookups
 * cannot read is refused at the door (400 naming the field) instead of breaking them later. The till writes
 * these shapes (electron/orders/store.ts `OrderData`, electron/manager/orders.ts `BackOfficeData`);
 * unknown keys are kept (a newer till may add some), known ones must have their type.
 */
import { z } from 'zod';
import { INVOICE_TYPES, PAYMENT_TYPES, TRANSACTION_TYPES, type OrderKind, type OrderState } from './domain.ts';

const para = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const nonNegativePara = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** One line of a sale, refund, finalize or copy (`OrderLine`). */
export const OrderLineData = z.looseObject({
  name: z.string().min(1).max(2048),
  quantityMilli: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  unitPricePara: nonNegativePara,
  discountPara: nonNegativePara.optional(),
  totalPara: nonNegativePara,
  labels: z.array(z.string().min(1).max(4)).min(1).max(5),
  gtin: z.string().max(14).optional(),
  /** The catalog product's code (tills since the hub's stock book; the hub falls back to the barcode). */
  code: z.string().min(1).max(64).optional(),
  /** The promotion or price list that priced the line (docs/prices.md). */
  priceRule: z.string().max(100).optional(),
  /** Whether `priceRule` is a price list or a promotion (absent from tills before the hub's prices). */
  priceRuleKind: z.enum(['list', 'promotion']).optional(),
});

/** One payment (`OrderPayment`). */
export const OrderPaymentData = z.looseObject({ type: z.enum(PAYMENT_TYPES), amountPara: nonNegativePara });

/** A refund's link to the sale it refunds (`BackOfficeData.refundOf`). */
export const RefundOfData = z.looseObject({
  orderId: z.number().int().positive().optional(),
  invoiceNumber: z.string().min(1).max(100).optional(),
  lines: z.array(
    z.looseObject({
      index: z.number().int().nonnegative(),
      quantityMilli: z.number().int().positive(),
      totalPara: nonNegativePara.optional(),
    }),
  ),
  full: z.boolean(),
  /** The hold taken at the store hub before the refund was captured (hub/refund-holds.ts). */
  holdId: z.string().max(64).optional(),
});

/** `orders.data`: lines, payments and what a back-office order keeps beside them. */
export const OrderDataSchema = z.looseObject({
  lines: z.array(OrderLineData).max(10_000),
  payments: z.array(OrderPaymentData).max(100),
  buyerId: z.string().max(40).optional(),
  email: z.string().max(320).optional(),
  cashier: z.string().max(100).optional(),
  ipsReference: z.string().max(35).optional(),
  taxGroup: z.looseObject({ groupId: z.union([z.number(), z.string()]), validFrom: z.string().max(60) }).optional(),
  refundOf: RefundOfData.optional(),
});

/** A receipt's VAT line as the gateway issued it (amounts in RSD; read tolerantly by the reports). */
const TaxItemData = z.looseObject({
  label: z.string().max(4).optional(),
  rate: z.union([z.number(), z.string().max(40)]).optional(),
  amount: z.union([z.number(), z.string().max(40)]).optional(),
});

/** `orders.receipt`: the gateway's receipt as stored; the parts the reports read must have their type. */
export const OrderReceiptData = z.looseObject({
  invoiceNumber: z.string().max(100).optional(),
  transactionType: z.string().max(40).optional(),
  taxItems: z.array(TaxItemData).max(100).nullable().optional(),
  additional: z.looseObject({}).nullable().optional(),
});

/** An order's kind and state as the till's domain knows them (shared/domain.ts). */
export const ORDER_KINDS = ['sale', 'refund', 'refund_full', 'finalize', 'copy'] as const;
export const ORDER_STATES = ['queued', 'fiscalized', 'needs_attention'] as const;
// The lists above are the domain's types spelled out: a kind or state added there must be added here.
ORDER_KINDS satisfies readonly OrderKind[];
ORDER_STATES satisfies readonly OrderState[];

/** One order row of a till, as its hub outbox snapshots it (column names as in the till's `orders`). */
export const OrderRowData = z.object({
  order_number: z.string().min(1).max(100),
  kind: z.enum(ORDER_KINDS),
  invoice_type: z.enum(INVOICE_TYPES),
  transaction_type: z.enum(TRANSACTION_TYPES),
  state: z.enum(ORDER_STATES),
  created_at: z.string().min(1).max(40),
  total_para: para,
  data: OrderDataSchema,
  invoice_number: z.string().min(1).max(100).nullable().optional(),
  sdc_date_time: z.string().max(60).nullable().optional(),
  receipt: OrderReceiptData.nullable().optional(),
  /** Which fiscal processor signed it (till migration 019); absent from tills before it. */
  processor: z.enum(['gateway', 'lpfr']).nullable().optional(),
  /** The order's other receipts (a finalize's advance refund, АР; till migration 024); absent from tills before. */
  extra_receipts: z.array(OrderReceiptData).max(10).nullable().optional(),
});

export type OrderRowData = z.infer<typeof OrderRowData>;
export type OrderDataShape = z.infer<typeof OrderDataSchema>;
