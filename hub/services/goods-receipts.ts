/**
 * A goods receipt posted at the hub (пријемница with its калкулација, docs/goods.md "At the hub"): the supplier from
 * the shop's register (or typed, PIB verified), their invoice (once per supplier), and lines of the shop's products
 * with quantity, purchase price, the supplier's discount and either the margin (the retail price with VAT is
 * calculated from the label's rate, shared/goods/calc.ts) or the retail price (kept, the margin it leaves shown).
 */
import { marginOf, netPurchase, retailFromMargin } from '../../shared/goods/calc.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import type { HubReceiptInput } from '../../shared/hub/goods-protocol.ts';
import type { Queryable } from '../db/db.ts';
import { docMove, hubMoveMany, hubPricesChanged } from '../goods/ledger.ts';
import type { OpenHubDoc } from '../goods/post.ts';
import { setProductPrices } from './catalog.ts';
import { productsOf } from './goods.ts';
import { makeReceiptProducts } from './goods-receipt-products.ts';
import { refusePib, shopTaxRates, supplierById } from './goods-register.ts';
import { lockMasterData } from './shared.ts';

interface Product {
  code: string;
  name: string;
  price_para: number;
  label: string;
}

/** A receipt line with its calculation. */
export interface PricedLine {
  code: string;
  name: string;
  qtyMilli: number;
  /** The supplier's price a unit, before their discount. */
  purchasePara: number;
  discountBp: number;
  /** The net purchase price a unit (after the discount, without VAT). */
  netPara: number;
  /** The retail price with VAT the goods come in at. */
  pricePara: number;
  /** The margin the retail price leaves over the net price (bp); null where the label's rate is not known. */
  marginBp: number | null;
  /** The catalog's price before, when the receipt changes it. */
  oldPara: number | null;
  /** The VAT rate of the product's label (percent) as the shop's tills report it; null when none did. */
  ratePercent: number | null;
}

/** The supplier the receipt names: from the register by id, or as typed (both name and PIB, PIB verified). */
export async function receiptSupplier(
  q: Queryable,
  shopId: number,
  input: HubReceiptInput,
): Promise<{ name: string; pib: string }> {
  if (input.supplierId !== undefined) {
    const s = await supplierById(q, shopId, input.supplierId, 'supplierId');
    return { name: s.name, pib: s.pib };
  }
  if (!input.supplier) throw new HubError(400, 'invalid_input', 'the supplier is required', 'supplierId');
  refusePib(input.pib ?? '', 'pib');
  return { name: input.supplier, pib: input.pib ?? '' };
}

/**
 * Each line's calculation, or a refusal at its field: a product the shop does not carry (`code`), a margin for a
 * label whose rate no till of the shop reported (`marginBp`), a retail price below the net purchase price unless
 * the manager confirmed it (`pricePara`).
 */
export function priceLines(
  input: HubReceiptInput,
  products: ReadonlyMap<string, Product>,
  rates: ReadonlyMap<string, number>,
): PricedLine[] {
  return input.lines.map((l, i) => {
    const p = products.get(l.code);
    if (!p) throw new HubError(400, 'product_unknown', `the shop has no product ${l.code}`, `lines.${i}.code`);
    const rate = rates.get(p.label);
    const discountBp = l.discountBp ?? 0;
    const net = netPurchase(l.purchasePara, discountBp);
    let retail = l.pricePara ?? p.price_para;
    if (l.pricePara === undefined && l.marginBp !== undefined) {
      if (rate === undefined)
        throw new HubError(400, 'rate_unknown', `no till reported the rate of label ${p.label}`, `lines.${i}.marginBp`);
      retail = retailFromMargin(net, l.marginBp, rate);
    }
    if (retail < net && !input.confirmBelowPurchase)
      throw new HubError(400, 'below_purchase', 'the retail price is below the purchase price', `lines.${i}.pricePara`);
    return {
      code: p.code,
      name: p.name,
      qtyMilli: l.qtyMilli,
      purchasePara: l.purchasePara,
      discountBp,
      netPara: net,
      pricePara: retail,
      marginBp: rate === undefined ? null : marginOf(net, retail, rate),
      oldPara: retail === p.price_para ? null : p.price_para,
      ratePercent: rate ?? null,
    };
  });
}

/**
 * A receipt's lines posted into the shop's book (in the caller's transaction, on its opened document): the
 * supplier's invoice checked once per supplier (a reversed receipt's invoice may be received again), each line's
 * calculation, the new retail prices (a price change record for goods on hand at another price), the goods moved
 * in at retail value and at their net purchase price. Its value and detail.
 */
export async function postReceiptLines(
  q: Queryable,
  shopId: number,
  input: HubReceiptInput,
  doc: OpenHubDoc,
  actor: string | null,
): Promise<{ valuePara: number; detail: Record<string, unknown> }> {
  const { at, day } = doc;
  const supplier = await receiptSupplier(q, shopId, input);
  const seen = await q.query(
    `SELECT 1 FROM hub_goods_docs d WHERE d.shop_id = $1 AND d.kind = 'receipt' AND d.detail->>'pib' = $2
       AND d.detail->>'invoiceNumber' = $3
       AND NOT EXISTS (SELECT 1 FROM hub_receipts r WHERE r.doc_id = d.id AND r.state = 'reversed')`,
    [shopId, supplier.pib, input.invoiceNumber],
  );
  if (seen.length)
    throw new HubError(409, 'invoice_known', 'this invoice of the supplier was received already', 'invoiceNumber');
  // The lines' new products first: made in this transaction, they are then the shop's products like any other.
  const made = await makeReceiptProducts(q, shopId, input.lines);
  const products = await productsOf(
    q,
    shopId,
    input.lines.map((l) => l.code),
    (i) => `lines.${i}.code`,
  );
  const rates = new Map((await shopTaxRates(q, shopId)).map((r) => [r.label, r.rate]));
  const lines = priceLines(input, products, rates);
  const changed = lines.filter((l) => l.oldPara !== null);
  if (changed.length) {
    await lockMasterData(q);
    await setProductPrices(
      q,
      shopId,
      changed.map((l) => ({ code: l.code, pricePara: l.pricePara })),
    );
    await hubPricesChanged(
      q,
      shopId,
      changed.map((l) => ({ code: l.code, name: l.name, newPara: l.pricePara })),
      { at, day, actor, source: 'receipt' },
    );
  }
  const value = await hubMoveMany(
    q,
    shopId,
    lines.map((l, i) =>
      docMove(doc, 'receipt', i, {
        code: l.code,
        name: l.name,
        qtyMilli: l.qtyMilli,
        pricePara: l.pricePara,
        purchasePara: l.netPara,
      }),
    ),
  );
  const detail = {
    supplier: supplier.name,
    pib: supplier.pib,
    ...(input.supplierId !== undefined ? { supplierId: input.supplierId } : {}),
    invoiceNumber: input.invoiceNumber,
    invoiceDate: input.invoiceDate,
    lines,
    ...(made.length ? { newProducts: made } : {}),
  };
  return { valuePara: value, detail };
}
