/**
 * Another till's sale, found through the store hub on the LAN (works while the internet is down), by
 * invoice number or order number: its lines and payments (from the history the till pushed), and what
 * other tills already refunded of it, so this till can refund it in part or in full, or issue a copy,
 * queued in its own outbox until the gateway is reachable.
 */
import { z } from 'zod';
import { PAYMENT_TYPES, type InvoiceType, type OrderLine, type OrderPayment } from '../../shared/domain.ts';
import { CommandError } from '../errors.ts';
import type { HubSync } from './sync.ts';

const Line = z.object({
  name: z.string().min(1).max(2048),
  quantityMilli: z.number().int().positive(),
  unitPricePara: z.number().int().nonnegative(),
  discountPara: z.number().int().nonnegative(),
  totalPara: z.number().int().nonnegative(),
  labels: z.array(z.string().min(1).max(4)).min(1),
  gtin: z.string().max(14).optional(),
  // What the hub's book and reports know a line by: its product's code (the hub moves the refunded goods back by
  // it; a line without it or a barcode moves nothing), whether it was hand-typed, and the rule that priced it.
  code: z.string().min(1).max(64).optional(),
  handTyped: z.literal(true).optional(),
  priceRule: z.string().min(1).max(200).optional(),
  priceRuleKind: z.enum(['list', 'promotion']).optional(),
});
const SaleData = z.object({
  lines: z.array(Line).min(1),
  payments: z.array(z.object({ type: z.enum(PAYMENT_TYPES), amountPara: z.number().int().nonnegative() })).min(1),
  buyerId: z.string().max(40).optional(),
  cashier: z.string().max(60).optional(),
});
const RefundOf = z.object({
  lines: z.array(
    z.object({
      index: z.number().int().nonnegative(),
      quantityMilli: z.number().int().positive(),
      totalPara: z.number().int().nonnegative().optional(),
    }),
  ),
  full: z.boolean(),
});

/** A fiscalized sale of another till of the shop, as the hub holds it. */
export interface HubSale {
  tillName: string;
  orderNumber: string;
  invoiceNumber: string;
  sdcDateTime: string;
  invoiceType: InvoiceType;
  transactionType: string;
  totalPara: number;
  lines: OrderLine[];
  payments: OrderPayment[];
  buyerId?: string;
  cashier?: string;
  /** True when a refund of it is stored at the hub (any till, this one included). */
  refunded: boolean;
  /** What OTHER tills refunded of it (this till adds its own local refunds). */
  refunds: { lines: { index: number; quantityMilli: number; totalPara?: number | undefined }[]; full: boolean }[];
}

/** The sale with invoice number (else order number) `key` from the hub, or null when no hub knows it. */
export async function hubSale(hub: Pick<HubSync, 'lookup'>, key: string): Promise<HubSale | null> {
  const found = (await hub.lookup({ invoiceNumber: key })) ?? (await hub.lookup({ orderNumber: key }));
  if (!found) return null;
  const o = found.order;
  if (o.kind !== 'sale' || o.state !== 'fiscalized' || !o.invoice_number || !o.sdc_date_time) {
    throw new CommandError('conflict', 'refund_not_refundable', {
      id: o.invoice_number ?? o.order_number,
      reason: o.kind !== 'sale' ? o.kind : o.state,
    });
  }
  const data = SaleData.safeParse(o.data);
  if (!data.success) {
    throw new CommandError('unavailable', 'hub_unreachable', {
      reason: `the hub's copy of ${o.order_number} has no readable lines`,
    });
  }
  const refunds = (found.refunds ?? []).flatMap((r) => {
    const p = RefundOf.safeParse(r.refundOf);
    return p.success ? [p.data] : [];
  });
  const d = data.data;
  return {
    tillName: found.tillName,
    orderNumber: o.order_number,
    invoiceNumber: o.invoice_number,
    sdcDateTime: o.sdc_date_time,
    invoiceType: o.invoice_type as InvoiceType,
    transactionType: o.transaction_type,
    totalPara: o.total_para,
    lines: d.lines.map(
      ({ gtin, code, handTyped, priceRule, priceRuleKind, ...l }) =>
        ({
          ...l,
          ...(gtin ? { gtin } : {}),
          ...(code ? { code } : {}),
          ...(handTyped ? { handTyped } : {}),
          ...(priceRule ? { priceRule } : {}),
          ...(priceRuleKind ? { priceRuleKind } : {}),
        }) as OrderLine,
    ),
    payments: d.payments,
    ...(d.buyerId ? { buyerId: d.buyerId } : {}),
    ...(d.cashier ? { cashier: d.cashier } : {}),
    refunded: found.refunded,
    refunds,
  };
}
