/**
 * The till's bulk price change and catalog export (no hub), in Serbian Cyrillic, through the browser host and a
 * real core: on the catalog screen (F8) a manager chooses a group, a percentage with letters is refused at its
 * field, `+5` previews how many products change, a manager approves, and the group's prices (only its) are up
 * 5 % by the shared rule; the export downloads a CSV the import reads back. The dialog is read for language leaks.
 */
import fs from 'node:fs';
import type { ProductPage } from '../../shared/contract/catalog.ts';
import { changePriceByPercent } from '../../shared/catalog/price-change.ts';
import { findLeaks } from '../support/language-leak.ts';
import { approveAsManager, loadSample, login } from './counter-support.ts';
import { expect, test } from './fixtures.ts';
import { shotsAtTillSizes } from './languages.ts';

test('a bulk +5 % on a group at the till, and the catalog exported as CSV', async ({ kasa }) => {
  const { page } = kasa;
  await loadSample(kasa);
  const all = async () => {
    const out: Record<string, { price: number; group: string | null }> = {};
    let after: string | undefined;
    for (;;) {
      const r = await kasa.host.call<ProductPage>('catalog.list', { limit: 100, ...(after ? { after } : {}) });
      for (const p of r.body.value?.products ?? []) out[p.code] = { price: p.pricePara, group: p.group };
      after = r.body.value?.next ?? undefined;
      if (!after) return out;
    }
  };
  const before = await all();
  const groupCounts = new Map<string, number>();
  for (const p of Object.values(before)) if (p.group) groupCounts.set(p.group, (groupCounts.get(p.group) ?? 0) + 1);
  const [group, count] = [...groupCounts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  expect(count).toBeGreaterThan(1);

  await page.reload();
  await login(page);
  await page.keyboard.press('F8');
  const products = page.getByRole('region', { name: 'Производи' });
  await products.getByRole('button', { name: 'Цене групе у %' }).click();
  const dialog = page.getByRole('dialog', { name: 'Промена цена групе у процентима' });
  await dialog.getByLabel('Група производа').selectOption(group);
  await dialog.getByLabel('Проценат промене (%)').fill('пет');
  await dialog.getByRole('button', { name: 'Прегледај' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Унесите проценат бројем, нпр. 5 или −2,5 (од −100 до +1000, не нула).',
  );
  await expect(dialog.getByLabel('Проценат промене (%)')).toHaveAttribute('aria-invalid', 'true');
  expect(await all()).toEqual(before);

  await dialog.getByLabel('Проценат промене (%)').fill('+5');
  await dialog.getByRole('button', { name: 'Прегледај' }).click();
  await expect(dialog.getByRole('status')).toHaveText(
    `Цене ${count} производа групе „${group}“ ће се променити за +5 %. Потврдите.`,
  );
  expect(findLeaks((await dialog.innerText()) ?? '', 'sr-Cyrl', [group])).toEqual([]);
  await shotsAtTillSizes(page, 'catalog-till-bulk');
  await dialog.getByRole('button', { name: 'Промени цене' }).click();
  await approveAsManager(page);
  await expect(dialog).toHaveCount(0);
  await expect(products.getByRole('status')).toHaveText(
    `Промењене су цене ${count} производа групе „${group}“ за +5 %.`,
  );
  const after = await all();
  for (const [code, p] of Object.entries(before))
    expect(after[code]?.price, code).toBe(p.group === group ? changePriceByPercent(p.price, 500) : p.price);

  // The export: a file the import takes back without an error.
  const download = page.waitForEvent('download');
  await products.getByRole('button', { name: 'Извези каталог (CSV)' }).click();
  const csv = fs.readFileSync(await (await download).path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe('\uFEFFШифра;Назив;Бар-код;Цена;Пореска ознака;Јединица мере;Група;Омиљено');
  const back = await kasa.host.call<{ errors: unknown[]; valid: number }>('catalog.import', { csv, dryRun: true });
  expect(back.body.value).toMatchObject({ errors: [], valid: Object.keys(before).length });
});
