/**
 * The till's bulk price change by percent (catalog.bulkPrice) and the catalog's CSV export (catalog.export)
 * over a whole core with its real SQLite file: a group's prices change by the shared rule in one step, a
 * dry run changes nothing, every refusal names its field and leaves every price as it was, a cashier alone
 * changes nothing, and the export imports back to the same catalog.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BulkPriceResult, ProductGroup, ProductPage, ImportResult } from '../../shared/contract/catalog.ts';
import { changePriceByPercent } from '../../shared/catalog/price-change.ts';
import { withCheckDigit } from '../../electron/catalog/barcode.ts';
import { newProduct, closeCores, fails, MANAGER_PIN, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

const approval = { managerPin: MANAGER_PIN };
type Core = Awaited<ReturnType<typeof startCore>>;

const put = (c: Core, code: string, price: number, group: string | null, over: Record<string, unknown> = {}) =>
  ok(c, 'catalog.put', newProduct(code, price, group, over));

const prices = async (c: Core): Promise<Record<string, number>> =>
  Object.fromEntries(
    (await ok<ProductPage>(c, 'catalog.list', { limit: 100 })).products.map((p) => [p.code, p.pricePara]),
  );

const auditOf = (c: Core, action: string) =>
  c.db
    .prepare<[string], { approver: string | null; detail: string }>(
      'SELECT approver, detail FROM audit_log WHERE action = ? ORDER BY id',
    )
    .all(action);

async function shopWithGroups(c: Core): Promise<void> {
  await put(c, 'D1', 89.9, 'Пиће');
  await put(c, 'D2', 120, 'Пиће');
  await put(c, 'D3', 0.01, 'Пиће');
  await put(c, 'B1', 55.5, 'Пекара');
  await put(c, 'X1', 10, null);
}

describe('bulk price change on the till', () => {
  it('lists the groups, previews a count, then changes only that group by the shared rule, audited', async () => {
    const c = await startCore();
    await shopWithGroups(c);
    expect(await ok<ProductGroup[]>(c, 'catalog.groups')).toEqual([
      { name: 'Пекара', products: 1 },
      { name: 'Пиће', products: 3 },
    ]);
    const before = await prices(c);
    const preview = await ok<BulkPriceResult>(c, 'catalog.bulkPrice', { group: 'Пиће', percentBp: 500, dryRun: true });
    expect(preview).toEqual({ group: 'Пиће', percentBp: 500, count: 3, dryRun: true });
    expect(await prices(c)).toEqual(before);
    expect(auditOf(c, 'catalog.bulkPrice')).toHaveLength(0);

    const done = await ok<BulkPriceResult>(c, 'catalog.bulkPrice', { group: 'Пиће', percentBp: 500, approval });
    expect(done.count).toBe(3);
    const after = await prices(c);
    expect(after).toEqual({
      D1: changePriceByPercent(8990, 500),
      D2: 12600,
      D3: changePriceByPercent(1, 500),
      B1: 5550,
      X1: 1000,
    });
    expect(after.D1).toBe(9440); // 8990 * 1.05 = 9439.5, halves up
    const audit = auditOf(c, 'catalog.bulkPrice');
    expect(audit).toHaveLength(1);
    expect(audit[0]?.approver).toBe('Менаџер');
    expect(JSON.parse(audit[0]?.detail ?? '{}')).toEqual({ group: 'Пиће', percentBp: 500, count: 3 });

    // A decrease by 12.5 % of the bakery.
    await ok(c, 'catalog.bulkPrice', { group: 'Пекара', percentBp: -1250, approval });
    expect((await prices(c)).B1).toBe(4856); // 5550 * 0.875 = 4856.25
  });

  it('refuses without a manager, an unknown group and a percentage out of range at their fields', async () => {
    const c = await startCore({ env: { KASA_LANG: 'sr-Cyrl' } });
    await shopWithGroups(c);
    const before = await prices(c);

    const cashier = await fails(c, 'catalog.bulkPrice', { group: 'Пиће', percentBp: 500 });
    expect(cashier).toMatchObject({ code: 'forbidden', field: 'approval.managerPin' });

    const unknown = await fails(c, 'catalog.bulkPrice', { group: 'Воће', percentBp: 500, approval });
    expect(unknown).toMatchObject({ code: 'invalid_input', field: 'group' });
    expect(unknown.message).toContain('Воће');

    for (const percentBp of [-10_001, 100_001, 0, 2.5]) {
      const bad = await fails(c, 'catalog.bulkPrice', { group: 'Пиће', percentBp, approval });
      expect(bad).toMatchObject({ code: 'invalid_input', field: 'percentBp' });
    }
    const text = await fails(c, 'catalog.bulkPrice', { group: 'Пиће', percentBp: '5a', approval });
    expect(text).toMatchObject({ code: 'invalid_input', field: 'percentBp' });
    expect(await prices(c)).toEqual(before);
    expect(auditOf(c, 'catalog.bulkPrice')).toHaveLength(0);
  });
});

describe('catalog CSV export', () => {
  it('exports every product with the import columns; importing it back with replace changes nothing', async () => {
    const c = await startCore({ env: { KASA_LANG: 'sr-Cyrl' } });
    await put(c, 'A;1', 1234.5, 'Пиће; газирано', {
      name: 'Кока "кола" 0,5 l',
      favourite: true,
      barcodes: [withCheckDigit('860123400001'), withCheckDigit('860123400002')],
    });
    await put(c, 'K1', 399.99, null, { unit: 'kg', name: 'Сир' });
    const before = (await ok<ProductPage>(c, 'catalog.list', {})).products;

    const out = await ok<{ csv: string; products: number }>(c, 'catalog.export');
    expect(out.products).toBe(2);
    const lines = out.csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('Шифра;Назив;Бар-код;Цена;Пореска ознака;Јединица мере;Група;Омиљено');
    expect(lines[1]).toContain('"A;1";"Кока ""кола"" 0,5 l";');
    expect(lines[1]).toContain(';1234,50;Ж;kom;"Пиће; газирано";da');
    expect(lines[2]).toBe('K1;Сир;;399,99;Ж;kg;;ne');

    const back = await ok<ImportResult>(c, 'catalog.import', { csv: out.csv, replace: true, approval });
    expect(back).toMatchObject({ rows: 2, valid: 2, imported: 2, errors: [] });
    const after = (await ok<ProductPage>(c, 'catalog.list', {})).products;
    const strip = (ps: typeof before) => ps.map(({ id: _id, ...rest }) => rest);
    expect(strip(after)).toEqual(strip(before));
  });
});
