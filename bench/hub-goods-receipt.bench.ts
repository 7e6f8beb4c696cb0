/**
 * hub-goods-receipt: posting a goods receipt draft of 500 lines at the hub on PGlite (docs/goods.md "At the hub";
 * issue 40: "Posting a goods receipt of 500 lines: under 1 s"). A shop of 5,000 products with stock on hand (one
 * receipt brought every product in first); each timed draft has 500 lines, half of them at a new retail price of
 * goods on hand (a price change record each), a fifth priced from a margin. Saved as a draft (not timed), then
 * posted through the service (timed: one transaction, numbered, stock, KEP, price changes). Median of 5.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openPglite } from '../hub/db/db.ts';
import { createHubService } from '../hub/service.ts';
import { pushTaxRates } from '../test/hub/till-status.ts';
import { benchLine, percentile } from './format.ts';

const PRODUCTS = 5_000;
const LINES = 500;
const RUNS = 5;
const LIMIT_MS = 1_000;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-bench-hub-receipt-'));
try {
  const db = await openPglite(dir);
  const service = createHubService(db, {});
  const shop = await service.ensureDefaultShop('Продавница 1');
  const products = Array.from({ length: PRODUCTS }, (_, i) => ({
    code: `P${i + 1}`,
    name: `Артикал ${i + 1}`,
    pricePara: 10_000 + (i % 100) * 100,
    label: 'Ђ',
    unit: 'piece' as const,
  }));
  await service.upsertProducts(shop, products);
  const till = await service.enrol(await service.newEnrolCode(shop), 'Каса 1');
  await pushTaxRates(service, { id: till.tillId, shopId: shop, name: 'Каса 1' }, ['Ђ'], [{ label: 'Ђ', rate: 20 }]);

  const supplier = { supplier: 'Добављач д.о.о.', pib: '101134702', invoiceDate: '2026-11-27' };
  // Every product on hand first, so the price changes below revalue stock.
  for (let from = 0; from < PRODUCTS; from += 1_000)
    await service.postReceipt(
      shop,
      {
        ...supplier,
        invoiceNumber: `START-${from}`,
        lines: products.slice(from, from + 1_000).map((p) => ({ code: p.code, qtyMilli: 10_000, purchasePara: 5_000 })),
      },
      null,
    );
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const lines = Array.from({ length: LINES }, (_, i) => {
      const p = products[(run * LINES + i * 7) % PRODUCTS] ?? products[0];
      const code = p?.code ?? 'P1';
      if (i % 5 === 0) return { code, qtyMilli: 3_000, purchasePara: 6_000, marginBp: 2_500 + run };
      if (i % 2 === 0) return { code, qtyMilli: 2_000, purchasePara: 6_000, pricePara: 12_000 + run * 10 + i };
      return { code, qtyMilli: 1_500, purchasePara: 6_000 };
    });
    const draft = await service.saveDraft(shop, { ...supplier, invoiceNumber: `B-${run}`, lines }, null);
    const t = performance.now();
    const doc = await service.postDraft(shop, draft.id, true, null);
    times.push(performance.now() - t);
    if (!doc.number) throw new Error('not posted');
  }
  const kep = await service.kep(shop, '2000-01-01', '2100-12-31', 'sr-Cyrl');
  if (kep.closingPara !== kep.stockValuePara) throw new Error('the KEP does not close at the stock value');
  console.log(benchLine('hub-goods-receipt', 'post500_p50', percentile(times, 50), LIMIT_MS, 'ms'));
  await db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
