/**
 * A refusal of the store hub said on the till (docs/goods.md "What a till enrolled at a hub still does itself"): the
 * hub's code as the till's own message key and the hub's field as the till's form field, so it is shown at its
 * field in the user's language (never the hub's English text or its field path).
 */
import type { HubError } from '../../shared/hub/protocol.ts';

/** A refusal kept with a queued draft or entry: the message key, the till's field and the key's parameters. */
export interface Refusal {
  key: string;
  field: string;
  params: Record<string, string | number>;
}

/** The hub's refusal codes as the till's message keys; any other is "refused at this field". */
const KEYS: Readonly<Record<string, string>> = {
  pib_check: 'pib_check',
  pib_format: 'pib_format',
  supplier_unknown: 'hub_goods_supplier_unknown',
  product_unknown: 'goods_unknown_product',
  goods_unknown_product: 'goods_unknown_product',
  goods_count_outside: 'goods_count_outside',
  goods_count_closed: 'goods_count_closed',
  goods_count_not_found: 'hub_goods_count_unknown',
  invoice_known: 'goods_invoice_taken',
  receipt_posted: 'goods_receipt_posted',
  below_purchase: 'hub_goods_below_purchase',
  rate_unknown: 'hub_goods_rate_unknown',
  receipt_other_till: 'hub_goods_other_till',
  receipt_unknown: 'hub_goods_other_till',
  receipt_empty: 'lines',
  pin_unknown: 'hub_pin_not_manager',
  login_paused: 'hub_goods_pin_paused',
};

/** The hub's receipt fields as the till's form's (`lines.0.purchasePara` → `lines.0.purchasePrice`). */
const RECEIPT_FIELDS: Readonly<Record<string, string>> = {
  supplier: 'supplierId',
  pib: 'supplierId',
  qtyMilli: 'quantity',
  purchasePara: 'purchasePrice',
  pricePara: 'retailPrice',
  marginBp: 'marginPercent',
  discountBp: 'discountPercent',
};

function fieldOf(field: string | null | undefined, kind: 'receipt' | 'count'): string {
  if (!field) return kind === 'receipt' ? 'invoiceNumber' : 'code';
  if (field === 'approverPin') return field;
  if (kind === 'count') return field === 'countId' ? 'countId' : 'code';
  const parts = field.split('.');
  const last = parts[parts.length - 1] ?? field;
  if (field === 'id') return 'invoiceNumber';
  return [...parts.slice(0, -1), RECEIPT_FIELDS[last] ?? last].join('.');
}

/** `valueAt`: what the form held at the hub's field, when the hub's refusal does not say it (a line's code). */
export function hubRefusal(
  err: HubError,
  kind: 'receipt' | 'count',
  valueAt: (hubField: string) => string | undefined = () => undefined,
): Refusal {
  const field = fieldOf(err.field, kind);
  const params: Record<string, string | number> = { field };
  const detail = err.params ?? {};
  for (const [k, v] of Object.entries(detail)) if (typeof v === 'string' || typeof v === 'number') params[k] = v;
  params.value ??= valueAt(err.field ?? '') ?? '';
  return { key: KEYS[err.code] ?? 'hub_goods_refused', field, params };
}
