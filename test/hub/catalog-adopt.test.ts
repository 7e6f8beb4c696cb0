/**
 * A till with a catalog enrolling into a store hub (#26), over real HTTP to a hub on PGlite, with the till's
 * whole core on its SQLite file: a shop with no products adopts the till's catalog; a shop with products keeps
 * them and the till's, both counted for the manager, nothing pulled or overwritten until the manager chooses
 * (`hub.catalogChoice`): the till's catalog sent to the hub as the shop's, or the hub's kept and pulled.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProductPage } from '../../shared/contract/catalog.ts';
import type { HubStatusView } from '../../shared/contract/hub.ts';
import { startHubServer, type HubServer } from '../../hub/server.ts';
import { createHubService, type HubService } from '../../hub/service.ts';
import { BACKENDS } from './backends.ts';
import { newProduct, closeCores, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);
type Core = Awaited<ReturnType<typeof startCore>>;

const product = (code: string, price: number) => newProduct(code, price, 'Пиће');
const tillCodes = async (c: Core) =>
  (await ok<ProductPage>(c, 'catalog.list', { limit: 100 })).products.map((p) => [p.code, p.pricePara]);
const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(await check()).toBe(true);
};

describe('adopting a till catalog at enrolment', () => {
  const backend = BACKENDS[0];
  if (!backend) throw new Error('no hub backend');
  let handle: Awaited<ReturnType<typeof backend.open>>;
  let server: HubServer;
  let service: HubService;

  beforeAll(async () => {
    handle = await backend.open();
    service = createHubService(handle.db);
    await service.ensureDefaultShop('A');
    server = await startHubServer({ service, adminToken: 'kasa-test-admin-token-0123456789abcdef' });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await handle?.dispose();
  });
  const hubCodes = async (shopId: number) =>
    (await service.productPage(shopId, { limit: 200 })).products.map((p) => [p.code, p.pricePara]);

  it('a shop with no products adopts the catalog of the first till', async () => {
    const shop = await service.createShop('Празна');
    const c = await startCore();
    await ok(c, 'catalog.put', product('A1', 10));
    await ok(c, 'catalog.put', product('A2', 20.5));
    await ok(c, 'hub.enrol', { managerPin: MANAGER_PIN, url: server.url, code: await service.newEnrolCode(shop) });
    expect(await hubCodes(shop)).toEqual([
      ['A1', 1000],
      ['A2', 2050],
    ]);
    expect((await ok<HubStatusView>(c, 'hub.status')).catalogChoice).toBeNull();
    expect((await fails(c, 'hub.catalogChoice', { managerPin: MANAGER_PIN, keep: 'till' })).code).toBe('conflict');
  });

  it('a shop with products: nothing overwritten, both counted, the manager sends the till catalog', async () => {
    const shop = await service.createShop('Пуна');
    await service.upsertProducts(shop, [
      { code: 'A1', name: 'Хабов', pricePara: 99_00, label: 'Ж', unit: 'piece' },
      { code: 'H1', name: 'Само на хабу', pricePara: 5_00, label: 'Ж', unit: 'piece' },
      { code: 'H2', name: 'И ово', pricePara: 6_00, label: 'Ж', unit: 'piece' },
    ]);
    const c = await startCore();
    await ok(c, 'catalog.put', product('A1', 10));
    await ok(c, 'hub.enrol', { managerPin: MANAGER_PIN, url: server.url, code: await service.newEnrolCode(shop) });
    const status = await ok<HubStatusView>(c, 'hub.status');
    expect(status.catalogChoice).toEqual({ tillProducts: 1, hubProducts: 3 });
    // Sync rounds pass, and neither side's catalog changes until the manager chooses.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await tillCodes(c)).toEqual([['A1', 1000]]);
    expect(await hubCodes(shop)).toEqual([
      ['A1', 9900],
      ['H1', 500],
      ['H2', 600],
    ]);
    // A cashier may not choose.
    expect((await fails(c, 'hub.catalogChoice', { managerPin: '0000', keep: 'till' })).code).toBe('forbidden');
    await ok(c, 'hub.catalogChoice', { managerPin: MANAGER_PIN, keep: 'till' });
    expect(await hubCodes(shop)).toEqual([['A1', 1000]]);
    expect((await ok<HubStatusView>(c, 'hub.status')).catalogChoice).toBeNull();
    await until(async () => JSON.stringify(await tillCodes(c)) === JSON.stringify([['A1', 1000]]));
  });

  it("keeping the hub's catalog replaces the till's with the shop's", async () => {
    const shop = await service.createShop('Трећа');
    await service.upsertProducts(shop, [{ code: 'H1', name: 'Хабов', pricePara: 7_00, label: 'Ж', unit: 'piece' }]);
    const c = await startCore();
    await ok(c, 'catalog.put', product('T1', 10));
    await ok(c, 'hub.enrol', { managerPin: MANAGER_PIN, url: server.url, code: await service.newEnrolCode(shop) });
    expect((await ok<HubStatusView>(c, 'hub.status')).catalogChoice).toEqual({ tillProducts: 1, hubProducts: 1 });
    await ok(c, 'hub.catalogChoice', { managerPin: MANAGER_PIN, keep: 'hub' });
    await until(async () => JSON.stringify(await tillCodes(c)) === JSON.stringify([['H1', 700]]));
    expect(await hubCodes(shop)).toEqual([['H1', 700]]);
  });
});
