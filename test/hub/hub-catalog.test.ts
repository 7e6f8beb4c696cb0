/**
 * The hub's catalog for the manager (#26), on PGlite and on a real PostgreSQL 15, over real HTTP: the list
 * pages in code order with search; a product is saved whole and refused whole (a duplicate barcode, a label
 * none of the shop's tills reports, a negative price) with nothing changed; a group's prices change by a
 * percentage in one transaction with new versions the tills pull, audited; the CSV imports back on a till.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthedTill } from '../../hub/service.ts';
import { changePriceByPercent } from '../../shared/catalog/price-change.ts';
import { validateCatalogCsv } from '../../electron/catalog/csv.ts';
import { foldText } from '../../shared/catalog/fold.ts';
import { BACKENDS } from './backends.ts';
import { serveHub } from './served-hub.ts';

const ADMIN = 'admin-token-for-tests-0123456789ab';

describe.each(BACKENDS)('hub catalog on $name', (backend) => {
  let token = '';
  let till: AuthedTill;
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    staff: [{ name: 'Ана', role: 'manager', pin: '246810' }],
  });
  beforeAll(async () => {
    token = (await hub.login('246810', hub.shop)).token;
    const enrolled = await hub.service.enrol(await hub.service.newEnrolCode(hub.shop), 'Каса 1');
    till = { id: enrolled.tillId, shopId: hub.shop, name: 'Каса 1' };
  });

  const call = (method: string, p: string, body?: unknown) => hub.call(token, method, p, body);
  type Page = { products: { code: string; pricePara: number; name: string }[]; next: string | null; total: number };
  const page = async (qs: string): Promise<Page> => (await call('GET', `/api/admin/products?${qs}`)).body as Page;
  const snapshot = async () => (await page('limit=200')).products;

  it('pages the catalog in code order with search, and counts the whole shop', async () => {
    const products = Array.from({ length: 120 }, (_, i) => ({
      code: `P${String(i).padStart(3, '0')}`,
      name: i % 10 === 0 ? `Млеко ${i}` : `Хлеб ${i}`,
      pricePara: 10_000 + i,
      label: 'A',
      unit: 'piece' as const,
      group: i < 30 ? 'Пиће' : 'Пекара',
    }));
    expect((await call('PUT', '/api/admin/products', { products })).status).toBe(200);
    const first = await page('limit=50');
    expect(first.total).toBe(120);
    expect(first.products.map((p) => p.code)).toEqual(products.slice(0, 50).map((p) => p.code));
    expect(first.next).toBe('P049');
    const second = await page(`limit=50&after=${first.next}`);
    expect(second.products[0]?.code).toBe('P050');
    const last = await page(`limit=50&after=${second.next}`);
    expect(last.products).toHaveLength(20);
    expect(last.next).toBeNull();
    // Search: a part of the name (any case) or the start of the code, paged the same way.
    const milk = await page(`q=${encodeURIComponent('МЛЕКО')}&limit=5`);
    expect(milk.products.map((p) => p.code)).toEqual(['P000', 'P010', 'P020', 'P030', 'P040']);
    expect((await page(`q=${encodeURIComponent('млеко')}&limit=5&after=P040`)).products[0]?.code).toBe('P050');
    expect((await page('q=p11')).products.map((p) => p.code)).toEqual(Array.from({ length: 10 }, (_, i) => `P11${i}`));
    expect((await call('GET', '/api/admin/products/groups')).body.groups).toEqual([
      { name: 'Пекара', products: 90 },
      { name: 'Пиће', products: 30 },
    ]);
  });

  it('searches folded as the till does: Cyrillic and Latin, any case, with or without diacritics, word by word', async () => {
    const extra = [
      { code: 'F01', name: 'Чоколада црна 80%' },
      { code: 'F02', name: 'Šljivovica Đuja 0,7 l' },
      { code: 'F03', name: 'ЏЕМ од кајсије' },
    ].map((p) => ({ ...p, pricePara: 50_000, label: 'A', unit: 'piece' as const }));
    expect((await call('PUT', '/api/admin/products', { products: extra })).status).toBe(200);
    const codes = async (q: string): Promise<string[]> =>
      (await page(`q=${encodeURIComponent(q)}&limit=20`)).products.map((p) => p.code);
    expect(await codes('cokolada')).toEqual(['F01']);
    expect(await codes('ČOKOLADA crna')).toEqual(['F01']);
    expect(await codes('шљивовица ђуја')).toEqual(['F02']);
    expect(await codes('djuja 0,7')).toEqual(['F02']);
    expect(await codes('dzem kajsij')).toEqual(['F03']);
    expect(await codes('čokolada bela')).toEqual([]);
    // Two words, each anywhere: „mleko 11“ is Млеко 110 only (Млеко 10 has no 11 in its name or code).
    expect(await codes('mleko 11')).toEqual(['P110']);
    // The database's fold is the till's, letter for letter (one rule: shared/catalog/fold.ts).
    for (const text of [
      'Шљивовица Ђуја Чачак',
      'ŠLJIVOVICA ĐUJA ČAČAK',
      'Млеко 2,8% — 1 l',
      'ЉУБИЧИЦА Њива џем Ћевап Жуто',
      'Café Crème brûlée Ñandú',
      '  Сок  од   јабуке!! ',
    ]) {
      const [row] = await hub.db.query<{ f: string }>('SELECT kasa_fold($1) AS f', [text]);
      expect(row?.f, text).toBe(foldText(text));
    }
    expect(
      (await call('PUT', '/api/admin/products', { products: extra.map((p) => ({ ...p, deleted: true })) })).status,
    ).toBe(200);
  });

  it('refuses a duplicate barcode, a label no till reports, a negative price, naming the field; nothing changes', async () => {
    const put = (p: Record<string, unknown>) =>
      call('PUT', '/api/admin/products', {
        products: [{ code: 'B1', name: 'Сок', pricePara: 9900, label: 'A', unit: 'piece', ...p }],
      });
    expect((await put({ barcodes: ['8600000100018'] })).status).toBe(200);
    const before = await snapshot();

    const dup = await call('PUT', '/api/admin/products', {
      products: [{ code: 'B2', name: 'Вода', pricePara: 5000, label: 'A', unit: 'piece', barcodes: ['8600000100018'] }],
    });
    expect(dup).toMatchObject({ status: 400, body: { code: 'barcode_taken', field: 'products.0.barcodes' } });
    const twice = await call('PUT', '/api/admin/products', {
      products: [
        { code: 'B3', name: 'А', pricePara: 1, label: 'A', unit: 'piece', barcodes: ['8600000100025'] },
        { code: 'B4', name: 'Б', pricePara: 1, label: 'A', unit: 'piece', barcodes: ['8600000100025'] },
      ],
    });
    expect(twice).toMatchObject({ status: 400, body: { code: 'barcode_taken', field: 'products.1.barcodes' } });
    const negative = await put({ pricePara: -1 });
    expect(negative).toMatchObject({ status: 400, body: { field: 'products.0.pricePara' } });

    // Before any till reports its tax labels any label is taken; once one does, only those.
    await hub.service.push(till, {
      tillId: till.id,
      events: [],
      status: { queued: 0, needsAttention: 0, oldestQueuedAt: null, hubQueued: 0, taxLabels: ['A', 'Ђ', 'Ж'] },
    });
    const label = await put({ label: 'Е', barcodes: ['8600000100018'] });
    expect(label).toMatchObject({ status: 400, body: { code: 'label_not_current', field: 'products.0.label' } });
    expect(await snapshot()).toEqual(before);
    // The same product changed with its own barcode and a reported label is saved.
    expect((await put({ label: 'Ђ', pricePara: 9990, barcodes: ['8600000100018'] })).status).toBe(200);
  });

  it('changes a group by a percentage in one step, new versions reach the till, audited; refusals change nothing', async () => {
    const before = await snapshot();
    const since = (await hub.service.changes(till, 0, 100_000)).cursor;
    const preview = await call('POST', '/api/admin/products/bulk-price', {
      group: 'Пиће',
      percentBp: 500,
      dryRun: true,
    });
    expect(preview).toEqual({ status: 200, body: { group: 'Пиће', percentBp: 500, count: 30, dryRun: true } });
    expect(await snapshot()).toEqual(before);

    for (const bad of [
      { group: 'Воће', percentBp: 500 },
      { group: 'Пиће', percentBp: 0 },
      { group: 'Пиће', percentBp: -10_001 },
      { group: 'Пиће', percentBp: 2.5 },
    ]) {
      const r = await call('POST', '/api/admin/products/bulk-price', bad);
      expect(r.status).toBe(400);
      expect(r.body.field).toBe(bad.group === 'Воће' ? 'group' : 'percentBp');
    }
    expect(await snapshot()).toEqual(before);

    const done = await call('POST', '/api/admin/products/bulk-price', { group: 'Пиће', percentBp: 500 });
    expect(done.body).toMatchObject({ count: 30, dryRun: false });
    const after = await snapshot();
    for (const p of after) {
      const old = before.find((b) => b.code === p.code)?.pricePara ?? -1;
      const inGroup = Number(p.code.slice(1)) < 30 && p.code.startsWith('P');
      expect(p.pricePara).toBe(inGroup ? changePriceByPercent(old, 500) : old);
    }
    const pulled = await hub.service.changes(till, since, 100_000);
    expect(pulled.products.map((p) => p.code).sort()).toEqual(
      Array.from({ length: 30 }, (_, i) => `P${String(i).padStart(3, '0')}`),
    );
    const audit = (await call('GET', '/api/admin/audit')).body.entries as { action: string; detail: unknown }[];
    expect(audit.find((e) => e.action === 'products_bulk_price')?.detail).toEqual({
      group: 'Пиће',
      percentBp: 500,
      count: 30,
    });
  });

  it('exports the catalog as CSV the till imports without an error', async () => {
    const r = await hub.request(token, 'GET', '/api/admin/products/csv?lang=sr-Latn');
    expect(r.headers.get('content-type')).toContain('text/csv');
    const csv = await r.text();
    const checked = validateCatalogCsv(csv, ['A', 'Ђ'], 'sr-Latn');
    expect(checked.errors).toEqual([]);
    const listed = (await page('limit=200')).products;
    expect(checked.products.map((p) => [p.code, p.name, p.pricePara])).toEqual(
      listed.map((p) => [p.code, p.name, p.pricePara]),
    );
  });
});
