/**
 * A hub receipt's lines that make a new product (docs/goods.md "At the hub"): the product is checked as the hub's
 * product form checks it (the till's own product rules, a label among the shop's tax labels its tills report, a
 * barcode no other product owns; hub/till-trust.ts and hub/services/catalog.ts, reused) and, besides, its code
 * must be free in the catalog. A draft is checked when saved and makes nothing; the post makes the products in
 * its own transaction (the master-data lock held), each with a new version, so every till of the shop pulls them.
 */
import { netPurchase, retailFromMargin } from '../../shared/goods/calc.ts';
import type { HubReceiptLine } from '../../shared/hub/goods-protocol.ts';
import { HubError, type ProductInput } from '../../shared/hub/protocol.ts';
import type { Queryable } from '../db/db.ts';
import { checkTillCatalog } from '../till-trust.ts';
import { checkProducts, writeProducts } from './catalog.ts';
import { shopTaxRates } from './goods-register.ts';
import { lockMasterData } from './shared.ts';

/** The line's field a product's field is refused at: its code and price on the line, the rest under `newProduct`. */
function lineField(line: number, field: string): string {
  if (field === 'code') return `lines.${line}.code`;
  if (field === 'pricePara') return `lines.${line}.pricePara`;
  return `lines.${line}.newProduct.${field}`;
}

/** Runs a check of the catalog's, its refusal at `products.<k>.<field>` said again at the receipt line's field. */
async function atLines(lineOf: readonly number[], check: () => Promise<void> | void): Promise<void> {
  try {
    await check();
  } catch (err) {
    const m = err instanceof HubError ? /^products\.(\d+)\.(\w+)$/.exec(err.field ?? '') : null;
    const line = m ? lineOf[Number(m[1])] : undefined;
    if (!(err instanceof HubError) || !m || line === undefined) throw err;
    throw new HubError(
      err.status,
      err.code,
      err.message.replace(/^products\.\d+\.\w+: /, ''),
      lineField(line, m[2] ?? ''),
    );
  }
}

/** The retail price a new product comes in at: the line's own, or the one its margin gives at the label's rate. */
function newRetail(l: HubReceiptLine, i: number, rates: ReadonlyMap<string, number>): number {
  if (l.pricePara !== undefined) return l.pricePara;
  const label = l.newProduct?.label ?? '';
  const rate = rates.get(label);
  if (l.marginBp === undefined)
    throw new HubError(
      400,
      'price_required',
      'a new product needs its retail price or a margin',
      `lines.${i}.pricePara`,
    );
  if (rate === undefined)
    throw new HubError(400, 'rate_unknown', `no till reported the rate of label ${label}`, `lines.${i}.marginBp`);
  return retailFromMargin(netPurchase(l.purchasePara, l.discountBp ?? 0), l.marginBp, rate);
}

/**
 * The products a receipt's lines make, checked (in the caller's transaction), or a refusal at the line's field with
 * nothing written: a code the catalog has already or another new line takes (`product_code_taken` at `code`), no
 * price (`pricePara`), a margin on a label without a reported rate (`marginBp`), then the product form's checks
 * (`too_long`, `barcode_invalid`, `price_invalid`, `label_not_current`, `barcode_taken` at `newProduct.<field>`).
 */
export async function receiptProducts(
  q: Queryable,
  shopId: number,
  lines: readonly HubReceiptLine[],
): Promise<ProductInput[]> {
  const made = lines.flatMap((l, i) => (l.newProduct ? [{ l, i, np: l.newProduct }] : []));
  if (!made.length) return [];
  const held = new Set(
    (
      await q.query<{ code: string }>(
        'SELECT code FROM products WHERE shop_id = $1 AND code = ANY($2::text[]) AND NOT deleted',
        [shopId, made.map((m) => m.l.code)],
      )
    ).map((r) => r.code),
  );
  const seen = new Set<string>();
  for (const { l, i } of made) {
    if (held.has(l.code) || seen.has(l.code))
      throw new HubError(400, 'product_code_taken', `the catalog has a product ${l.code} already`, `lines.${i}.code`);
    seen.add(l.code);
  }
  const lineOf = made.map((m) => m.i);
  const products: ProductInput[] = made.map(({ l, np }) => ({
    code: l.code,
    name: np.name,
    pricePara: l.pricePara ?? 0,
    label: np.label,
    unit: np.unit,
    group: np.group ?? null,
    barcodes: [...new Set(np.barcodes ?? [])],
  }));
  // The label and the barcodes first (a label no till reports has no rate to price a margin with either).
  await atLines(lineOf, () => checkProducts(q, shopId, products));
  const rates = new Map((await shopTaxRates(q, shopId)).map((r) => [r.label, r.rate]));
  made.forEach(({ l, i }, k) => {
    const p = products[k];
    if (p) p.pricePara = newRetail(l, i, rates);
  });
  await atLines(lineOf, () => checkTillCatalog(products));
  return products;
}

/** Makes a posted receipt's new products in the catalog (in the posting transaction), after checking them again. */
export async function makeReceiptProducts(
  q: Queryable,
  shopId: number,
  lines: readonly HubReceiptLine[],
): Promise<string[]> {
  if (!lines.some((l) => l.newProduct)) return [];
  await lockMasterData(q);
  const products = await receiptProducts(q, shopId, lines);
  await writeProducts(q, shopId, products);
  return products.map((p) => p.code);
}
