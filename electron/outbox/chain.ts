/**
 * What a fiscalization-lookup hit stands for, read from the archive. For most orders it is the one
 * receipt under the order number. A finalize has two under its number — the advance refund (АР) and the
 * final sale (ПП) it was issued with — and a lookup may name either (the vendor's gateway names the first,
 * the АР). The order's receipt is the final sale: an АР hit is followed to it through the archive (the
 * record's `chain` where the gateway gives one, else the archive list by order number), and a ПП hit
 * takes its АР along as the extra receipt, so `checkReceipt` sees the pair a finalize reply carries.
 */
import type { GatewayClient } from '../gateway/client.ts';
import { GatewayError } from '../gateway/errors.ts';
import { IssuedReceiptSchema, type IssuedReceipt } from '../gateway/types.ts';
import type { OrderRow } from '../orders/store.ts';

export interface Resolved {
  receipt: IssuedReceipt;
  extra: IssuedReceipt[];
}

const lower = (v: unknown): string => String(v ?? '').toLowerCase();
const isAdvanceRefund = (r: { invoiceType?: unknown; transactionType?: unknown }): boolean =>
  lower(r.invoiceType) === 'advance' && lower(r.transactionType) === 'refund';
const isSale = (r: { invoiceType?: unknown; transactionType?: unknown }): boolean =>
  lower(r.invoiceType) === 'normal' && lower(r.transactionType) === 'sale';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** The archived receipt(s) that the lookup's `invoiceNumber` settles `row` with. */
export async function resolveLookupHit(
  client: GatewayClient,
  row: Pick<OrderRow, 'kind' | 'order_number'>,
  invoiceNumber: string,
): Promise<Resolved> {
  const archived = await client.archiveGet(invoiceNumber);
  const hit = archived.receipt;
  if (row.kind !== 'finalize') return { receipt: hit, extra: [] };

  if (isAdvanceRefund(hit)) {
    const final = await finalSaleOf(client, row.order_number, hit.invoiceNumber, archived.chain);
    if (!final) {
      // Issued in one request with the АР, so it exists: not found yet is a failed look-up (retried, bounded).
      throw new GatewayError({
        kind: 'malformed',
        status: 200,
        message: `the final sale of advance refund ${hit.invoiceNumber} is not in the archive`,
      });
    }
    return { receipt: final, extra: [hit] };
  }

  // The final sale: its advance refund is the receipt it refers to (best effort; the sale alone settles it).
  const ref = (hit as Json)['referentDocumentNumber'];
  if (isSale(hit) && typeof ref === 'string' && ref) {
    try {
      const refund = (await client.archiveGet(ref)).receipt;
      if (isAdvanceRefund(refund) && refund.orderNumber === row.order_number) return { receipt: hit, extra: [refund] };
    } catch {
      // The final sale is enough to settle the order; its АР only adds a check.
    }
  }
  return { receipt: hit, extra: [] };
}

/** The normal sale of `orderNumber` that refers to advance refund `refundNumber`. */
async function finalSaleOf(
  client: GatewayClient,
  orderNumber: string,
  refundNumber: string,
  chain: unknown,
): Promise<IssuedReceipt | null> {
  const refersToRefund = (r: Json): boolean =>
    isSale(r) &&
    r['referentDocumentNumber'] === refundNumber &&
    (r['orderNumber'] === undefined || r['orderNumber'] === orderNumber);
  if (Array.isArray(chain)) {
    const member = chain.filter(isObject).find(refersToRefund);
    if (member && typeof member['invoiceNumber'] === 'string')
      return (await client.archiveGet(member['invoiceNumber'])).receipt;
  }
  const list = await client.archiveList({ orderNumber, orderNumberExact: true, limit: 20 });
  for (const item of list.items) {
    const parsed = IssuedReceiptSchema.safeParse(item);
    if (parsed.success && refersToRefund(parsed.data as Json)) return parsed.data;
  }
  return null;
}
