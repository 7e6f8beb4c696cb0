/**
 * What the hub's goods suites ask of one shop over real HTTP with the admin token: a call naming the shop, a count
 * of rows, a product's stock row and the whole KEP; the labels' rates their till reports (Ђ 20 %, Е 10 %), and the
 * shop seeded with its products and tills.
 */
import type { HubService } from '../../hub/service.ts';
import type { AuthedTill } from '../../hub/services/shared.ts';
import type { HubKepView, HubStockView } from '../../shared/hub/goods-protocol.ts';
import type { ProductInput } from '../../shared/hub/protocol.ts';
import { enrolTills, type ServedHub } from './served-hub.ts';
import { pushTaxRates } from './till-status.ts';

export const SHOP_RATES = [
  { label: 'Ђ', rate: 20 },
  { label: 'Е', rate: 10 },
] as const;

/**
 * A goods suite's shop: `name` with `products`, and one till for each of `tillNames` enrolled in it, each reporting
 * the labels' rates (SHOP_RATES) that a receipt's lines are priced by. Answers the shop and its tills.
 */
export async function seedGoodsShop(
  service: HubService,
  name: string,
  products: readonly ProductInput[],
  tillNames: readonly string[],
): Promise<{ shop: number; tills: readonly AuthedTill[] }> {
  const shop = await service.createShop(name);
  await service.upsertProducts(shop, products);
  const tills = await enrolTills(service, shop, tillNames);
  for (const till of tills) await pushTaxRates(service, till, ['Ђ', 'Е'], SHOP_RATES);
  return { shop, tills };
}

/** `shop` is read at each call (a suite's seed sets it after the helpers are made). */
export function shopCalls(hub: ServedHub, shop: () => number) {
  const call = (method: string, p: string, body?: Record<string, unknown>) =>
    hub.call(hub.adminToken, method, p, body === undefined ? undefined : { shopId: shop(), ...body });
  return {
    call,
    count: async (sql: string): Promise<number> =>
      Number((await hub.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`))[0]?.n),
    stockOf: async (code: string, shopId = shop()) =>
      ((await call('GET', `/api/admin/goods/stock?shopId=${shopId}`)).body as unknown as HubStockView).rows.find(
        (r) => r.code === code,
      ),
    kep: async (shopId = shop()): Promise<HubKepView> =>
      (await call('GET', `/api/admin/goods/kep?shopId=${shopId}&from=2000-01-01&to=2100-12-31`))
        .body as unknown as HubKepView,
  };
}
