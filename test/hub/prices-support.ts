/**
 * What the hub's price tests share (test/hub/hub-prices*.test.ts): the hub's typed client as the admin, the count of
 * the prices it stores, a check retried until it holds, a call expected to be refused, a till enrolled into a
 * shop with its manager mapped to the hub's (so its pulls run), and the chain both seed: two shops, three products.
 */
import { expect } from 'vitest';
import type { HubStatusView } from '../../shared/contract/hub.ts';
import { fetchSend, hubClient } from '../../shared/hub/client.ts';
import type { HubService } from '../../hub/service.ts';
import type { ProductInput } from '../../shared/hub/protocol.ts';
import { MANAGER_PIN, ok, startCore } from '../support/session.ts';
import type { ServedHub } from './served-hub.ts';

type Core = Awaited<ReturnType<typeof startCore>>;

export interface Refusal {
  status: number;
  code: string | undefined;
  field: string | undefined;
  params?: Record<string, string | number> | undefined;
}

/** The hub's typed client as the admin; a refusal is thrown as an Error with its status, code, field and params. */
export const pricesApi = (hub: ServedHub) =>
  hubClient(fetchSend({ fetch: (u, i) => fetch(u, i), baseUrl: hub.url, token: hub.adminToken }), {
    refusal: (status, code, message, field, params) =>
      Object.assign(new Error(message), { status, code, field, params }),
  });

/** How many rows the hub's prices table holds (lists, promotions, scheduled changes): 0 after a refusal. */
export async function storedPrices(hub: ServedHub): Promise<number> {
  return Number((await hub.db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM hub_prices'))[0]?.n);
}

/** Retries `check` every 50 ms, `tries` times, then expects it to hold. */
export async function until(check: () => Promise<boolean> | boolean, tries = 300): Promise<void> {
  for (let i = 0; i < tries && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(await check()).toBe(true);
}

/** The refusal a call ends in (a call that is accepted fails the test). */
export async function refused(p: Promise<unknown>): Promise<Refusal> {
  try {
    await p;
  } catch (e) {
    return e as Refusal;
  }
  throw new Error('accepted');
}

/** Enrols a till into the shop; maps its manager to the shop's (the staff choice), so pulls run. */
export async function enrol(c: Core, service: HubService, url: string, shopId: number): Promise<void> {
  await ok(c, 'hub.enrol', { managerPin: MANAGER_PIN, url, code: await service.newEnrolCode(shopId) });
  const choice = (await ok<HubStatusView>(c, 'hub.status')).staffChoice;
  const hubManager = choice?.hub?.find((p) => p.role === 'manager');
  if (choice && hubManager)
    await ok(c, 'hub.staffChoice', {
      hubPin: MANAGER_PIN,
      choices: choice.till.map((p) => ({ id: p.id, hubId: p.role === 'manager' ? hubManager.id : null })),
    });
}

/**
 * Seeds the chain both price tests start from: the default shop „Центар“ and „Нови Београд“, each with bread (HL, in
 * Пекара), juice (SK, in Пиће) and water (VO, in no group); `water` adds to the water's fields (its barcodes).
 */
export async function seedChain(
  service: HubService,
  water: Partial<ProductInput> = {},
): Promise<{ centre: number; other: number }> {
  const centre = await service.ensureDefaultShop('Центар');
  const other = await service.createShop('Нови Београд');
  const products: ProductInput[] = [
    { code: 'HL', name: 'Хлеб', pricePara: 120_00, label: 'A', unit: 'piece', group: 'Пекара' },
    { code: 'SK', name: 'Сок', pricePara: 200_00, label: 'A', unit: 'piece', group: 'Пиће' },
    { code: 'VO', name: 'Вода', pricePara: 50_00, label: 'A', unit: 'piece', group: null, ...water },
  ];
  await service.upsertProducts(centre, products);
  await service.upsertProducts(other, products);
  return { centre, other };
}
