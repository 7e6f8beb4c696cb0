/**
 * Products kept by hand on the till (catalog.list / catalog.put / catalog.remove) over a whole core with its
 * real SQLite file and the embedded sandbox gateway: what is added, changed and deleted is what the counter
 * scans and finds; every refusal names its field and leaves the saved product as it was; a till enrolled
 * with a real store hub (over HTTP, through the `hub.enrol` command) refuses to change the hub's catalog.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProductPage, ProductView, ScanResult } from '../../shared/contract/catalog.ts';
import { startHubServer, type HubServer } from '../../hub/server.ts';
import { createHubService } from '../../hub/service.ts';
import { withCheckDigit } from '../../electron/catalog/barcode.ts';
import { createCatalogService } from '../../electron/catalog/service.ts';
import { BACKENDS } from '../hub/backends.ts';
import type { AppError } from '../../shared/contract/index.ts';
import { closeCores, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

const approval = { managerPin: MANAGER_PIN };
const BREAD = withCheckDigit('860123400001');
const SECOND = withCheckDigit('860123400002');

const product = (over: Record<string, unknown> = {}) => ({
  code: '9001',
  create: true,
  name: 'Хлеб домаћи',
  price: 89.9,
  label: 'Ж',
  unit: 'piece',
  group: 'Пекара',
  favourite: true,
  barcodes: [BREAD],
  approval,
  ...over,
});

/** The field a refusal names (not every error code carries one). */
const fieldOf = (e: AppError): string | undefined => ('field' in e ? e.field : undefined);

type Core = Awaited<ReturnType<typeof startCore>>;
const auditOf = (c: Core, action: string) =>
  c.db
    .prepare<[string], { actor: string | null; approver: string | null; detail: string }>(
      'SELECT actor, approver, detail FROM audit_log WHERE action = ? ORDER BY id',
    )
    .all(action);

describe('products on the till', () => {
  it('adds a product then scanned, found and listed; a new price is what the counter sees next', async () => {
    const c = await startCore({ env: { KASA_LANG: 'sr-Cyrl' } });
    const added = await ok<ProductView>(c, 'catalog.put', product());
    expect(added).toMatchObject({ code: '9001', pricePara: 8990, label: 'Ж', unit: 'piece', favourite: true });
    expect((await ok<ScanResult>(c, 'catalog.byBarcode', { code: BREAD })).product.name).toBe('Хлеб домаћи');
    expect((await ok<ProductView[]>(c, 'catalog.search', { query: 'hleb' })).map((p) => p.code)).toEqual(['9001']);
    expect((await ok<ProductView[]>(c, 'catalog.favourites')).map((p) => p.code)).toContain('9001');

    await ok(c, 'catalog.put', product({ create: false, price: 99.5, name: 'Хлеб са семенкама' }));
    expect((await ok<ScanResult>(c, 'catalog.byBarcode', { code: BREAD })).unitPricePara).toBe(9950);
    const found = await ok<ProductView[]>(c, 'catalog.search', { query: 'семенк' });
    expect(found.map((p) => [p.code, p.pricePara])).toEqual([['9001', 9950]]);
    // The old name is no longer in the search index.
    expect(await ok<ProductView[]>(c, 'catalog.search', { query: 'домаћи' })).toEqual([]);

    const list = await ok<ProductPage>(c, 'catalog.list', {});
    expect(list).toMatchObject({ total: 1, hubOwned: false, next: null });
    expect(list.products[0]).toMatchObject({ code: '9001', pricePara: 9950, group: 'Пекара' });

    // Added and changed: audited with the manager who approved and the price before the change.
    const changed = auditOf(c, 'catalog.productChanged');
    expect(changed).toHaveLength(1);
    expect(changed[0]?.approver).toBe('Менаџер');
    expect(JSON.parse(changed[0]?.detail ?? '{}')).toMatchObject({ pricePara: 9950, priceBeforePara: 8990 });
    expect(auditOf(c, 'catalog.productAdded')).toHaveLength(1);
  });

  it('deletes a product: no longer scanned, found or listed, and audited', async () => {
    const c = await startCore();
    await ok(c, 'catalog.put', product());
    expect(await ok(c, 'catalog.remove', { code: '9001', approval })).toEqual({ removed: true });
    expect((await fails(c, 'catalog.byBarcode', { code: BREAD })).code).toBe('not_found');
    expect(await ok<ProductView[]>(c, 'catalog.search', { query: 'hleb' })).toEqual([]);
    expect((await ok<ProductPage>(c, 'catalog.list', {})).total).toBe(0);
    expect(auditOf(c, 'catalog.productRemoved')).toHaveLength(1);
    expect(c.db.prepare('SELECT count(*) AS n FROM products_fts').get()).toEqual({ n: 0 });
    // The barcode is free again for another product.
    await ok(c, 'catalog.put', product({ code: '9002', name: 'Кифла' }));
    expect((await fails(c, 'catalog.remove', { code: '9001', approval })).code).toBe('not_found');
  });

  it('a deletion from the hub takes the same path: barcode and search terms go with the product', async () => {
    const c = await startCore();
    await ok(c, 'catalog.put', product());
    const p = { code: '9001', name: 'Хлеб домаћи', pricePara: 8990, label: 'Ж', unit: 'piece' };
    createCatalogService(c.db).applyHubProducts(
      [{ ...p, group: null, favourite: false, barcodes: [], deleted: true }],
      '2026-01-01T00:00:00Z',
    );
    expect((await fails(c, 'catalog.byBarcode', { code: BREAD })).code).toBe('not_found');
    expect(await ok<ProductView[]>(c, 'catalog.search', { query: 'hleb' })).toEqual([]);
    expect(c.db.prepare('SELECT count(*) AS n FROM product_barcodes').get()).toEqual({ n: 0 });
    expect(c.db.prepare('SELECT count(*) AS n FROM products_fts').get()).toEqual({ n: 0 });
  });

  it('refuses without a manager: a cashier alone changes no price', async () => {
    const c = await startCore();
    const { approval: _none, ...input } = product();
    const e = await fails(c, 'catalog.put', input);
    expect(e).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });
    expect((await ok<ProductPage>(c, 'catalog.list', {})).total).toBe(0);
  });

  it('refuses a label not in the tax rates at `label`, in the user language, keeping the product', async () => {
    const c = await startCore({ env: { KASA_LANG: 'en' } });
    await ok(c, 'catalog.put', product());
    const e = await fails(c, 'catalog.put', product({ create: false, label: 'Q', price: 1 }));
    expect(fieldOf(e)).toBe('label');
    expect(e.message).toMatch(/tax label "Q" in "Tax label" is not among the current tax labels/);
    expect((await ok<ScanResult>(c, 'catalog.byBarcode', { code: BREAD })).product).toMatchObject({
      label: 'Ж',
      pricePara: 8990,
    });
  });

  it('refuses a barcode another product owns at its index, a bad check digit, a code taken by "add"', async () => {
    const c = await startCore({ env: { KASA_LANG: 'sr-Latn' } });
    await ok(c, 'catalog.put', product());
    const taken = await fails(c, 'catalog.put', product({ code: '9002', name: 'Кифла', barcodes: [SECOND, BREAD] }));
    expect(fieldOf(taken)).toBe('barcodes.1');
    expect(taken.message).toMatch(/već pripada proizvodu „Хлеб домаћи“/);
    const wrong = `${SECOND.slice(0, -1)}${(Number(SECOND.at(-1)) + 1) % 10}`;
    expect(fieldOf(await fails(c, 'catalog.put', product({ code: '9002', barcodes: [wrong] })))).toBe('barcodes.0');
    const code = await fails(c, 'catalog.put', product({ name: 'Нешто друго', barcodes: [] }));
    expect(fieldOf(code)).toBe('code');
    // Nothing was written by any refusal: the first product keeps its barcode, 9002 does not exist.
    expect((await ok<ScanResult>(c, 'catalog.byBarcode', { code: BREAD })).product.code).toBe('9001');
    expect((await ok<ProductPage>(c, 'catalog.list', {})).products.map((p) => [p.code, p.name])).toEqual([
      ['9001', 'Хлеб домаћи'],
    ]);
    expect(fieldOf(await fails(c, 'catalog.put', product({ price: 1.234 })))).toBe('price');
  });

  it('pages the list in code order and searches it', async () => {
    const c = await startCore();
    for (let i = 1; i <= 5; i++)
      await ok(c, 'catalog.put', product({ code: `P${i}`, name: `Сок ${i}`, barcodes: [], favourite: false }));
    const first = await ok<ProductPage>(c, 'catalog.list', { limit: 2 });
    expect(first.products.map((p) => p.code)).toEqual(['P1', 'P2']);
    expect(first.next).toBe('P2');
    const second = await ok<ProductPage>(c, 'catalog.list', { limit: 2, after: first.next });
    expect(second.products.map((p) => p.code)).toEqual(['P3', 'P4']);
    const last = await ok<ProductPage>(c, 'catalog.list', { limit: 2, after: second.next });
    expect(last).toMatchObject({ next: null, total: 5 });
    expect(last.products.map((p) => p.code)).toEqual(['P5']);
    const hit = await ok<ProductPage>(c, 'catalog.list', { query: 'сок 3' });
    expect(hit.products.map((p) => p.code)).toEqual(['P3']);
  });
});

describe('a till whose catalog a store hub owns', () => {
  const backend = BACKENDS[0];
  if (!backend) throw new Error('no hub backend');
  let handle: Awaited<ReturnType<typeof backend.open>>;
  let server: HubServer;
  let enrolCode: () => Promise<string>;

  beforeAll(async () => {
    handle = await backend.open();
    const service = createHubService(handle.db);
    const shopId = await service.ensureDefaultShop();
    server = await startHubServer({ service, adminToken: 'kasa-test-admin-token-0123456789abcdef' });
    enrolCode = () => service.newEnrolCode(shopId);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await handle?.dispose();
  });

  it('refuses to add, change or delete once enrolled, in all three languages; the list still works', async () => {
    const c = await startCore();
    await ok(c, 'catalog.put', product());
    await ok(c, 'hub.enrol', { managerPin: MANAGER_PIN, url: server.url, code: await enrolCode() });
    const put = await fails(c, 'catalog.put', product({ create: false, price: 1 }));
    expect(put).toMatchObject({ code: 'forbidden', field: 'code' });
    expect(put.message).toMatch(/хаб продавнице/);
    const removed = await fails(c, 'catalog.remove', { code: '9001', approval });
    expect(fieldOf(removed)).toBe('code');
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, language: 'en' });
    expect((await fails(c, 'catalog.put', product({ create: false }))).message).toMatch(/managed at the store hub/);
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, language: 'sr-Latn' });
    expect((await fails(c, 'catalog.remove', { code: '9001', approval })).message).toMatch(/upravlja hab prodavnice/);
    const list = await ok<ProductPage>(c, 'catalog.list', {});
    expect(list.hubOwned).toBe(true);
    // Whatever the hub sends next, the refusals changed nothing on the till.
    expect(list.products.find((p) => p.code === '9001')?.pricePara).toBe(8990);
  }, 60_000);
});
