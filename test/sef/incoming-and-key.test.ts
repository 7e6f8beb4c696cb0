/**
 * Incoming e-invoices become goods receipt drafts in one step, once (docs/sef.md, "Incoming invoices"); and the
 * SEF API key is a secret like the gateway's: set through a command, used on every SEF request, and then found
 * in no answer to the UI, no event, no log line and no file of the data dir but its own 0600 file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../electron/core.ts';
import { createLogger } from '../../electron/log/logger.ts';
import { startFakeSef, type FakeSef } from '../../electron/sef/fake-sef.ts';
import { buildSefDocument } from '../../shared/sef/ubl.ts';
import type { SefIncomingResult, SefSettingsView } from '../../shared/contract/sef.ts';
import type { ReceiptView } from '../../shared/contract/goods.ts';
import { BREAD_AND_MILK, closeCore, closeCores, ok, signIn, startCore, tempDir } from '../support/session.ts';
import { SELLER } from './seller.ts';

const fakes: FakeSef[] = [];
afterEach(async () => {
  await closeCores();
  for (const f of fakes.splice(0)) await f.close();
});

/** A supplier's invoice as SEF hands it over: two lines at the 10 % rate (the demo label A). */
function supplierInvoice(number: string): string {
  return buildSefDocument({
    kind: 'invoice',
    number,
    issueDate: '2026-11-27',
    vatPoint: '35',
    seller: { pib: '100002516', name: 'Добављач д.о.о.', street: 'Индустријска 5', city: 'Суботица' },
    buyer: { pib: '100002508', name: 'Демо д.о.о.' },
    lines: [
      { name: 'Брашно Т-500 1 кг', quantityMilli: 20_000, totalPara: 22_000, category: { code: 'S', percent: 10 } },
      { name: 'Шећер 1 кг', quantityMilli: 12_500, totalPara: 13_750, category: { code: 'S', percent: 10 } },
    ],
    fiscalReceipt: { invoiceNumber: 'n/a', issueDate: '2026-11-27' },
  });
}

describe('incoming invoices', () => {
  it('make a goods receipt draft with the supplier found by PIB, lines, quantities and purchase prices, once', async () => {
    const c = await startCore();
    const fake = c.sef.link.fake() as FakeSef;
    fake.controls.addPurchaseInvoice(supplierInvoice('D-2026-771'));
    fake.controls.addPurchaseInvoice('<Invoice><cbc:ID xmlns:cbc="x">1</cbc:ID>'); // unreadable

    const first = await ok<SefIncomingResult>(c, 'sef.incoming', {});
    expect(first.made).toHaveLength(1);
    expect(first.failed).toEqual([{ sefId: 7002, reason: 'Улазна фактура није исправан XML.' }]);
    const receipt = await ok<ReceiptView>(c, 'goods.receipt', { id: first.made[0]?.receiptId });
    expect(receipt).toMatchObject({
      state: 'draft',
      invoiceNumber: 'D-2026-771',
      invoiceDate: '2026-11-27',
      supplier: { pib: '100002516', name: 'Добављач д.о.о.' },
    });
    expect(receipt.lines.map((l) => [l.name, l.quantityMilli, l.purchasePara, l.label])).toEqual([
      ['Брашно Т-500 1 кг', 20_000, 1_000, 'A'],
      ['Шећер 1 кг', 12_500, 1_000, 'A'],
    ]);

    // Fetched again: no second draft of the same invoice.
    const second = await ok<SefIncomingResult>(c, 'sef.incoming', {});
    expect(second).toMatchObject({ made: [], skipped: 1 });
    expect(c.db.prepare('SELECT count(*) AS n FROM goods_receipts').get()).toEqual({ n: 1 });
  }, 60_000);
});

const KEY = 'SEF-LEAK-CANARY-4b7d20e9c1f34a55';
const spellings = (k: string): Buffer[] => [
  Buffer.from(k, 'utf8'),
  Buffer.from(k, 'utf16le'),
  Buffer.from(Buffer.from(k).toString('base64')),
  Buffer.from(k.slice(0, 20)),
];

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('the SEF API key', () => {
  it('reaches SEF on every request and nothing else: no answer, event, log line or file but its own', async () => {
    const fake = await startFakeSef({ apiKey: KEY });
    fakes.push(fake);
    const dataDir = tempDir('kasa-sef-key-');
    const core: Core = await createCore({
      dataDir,
      transport: 'host',
      env: { KASA_SEF_URL: fake.url, KASA_ONLINE_BUDGET_MS: '3000' },
      logger: createLogger({ dir: path.join(dataDir, 'logs'), echo: false }),
    });
    const seen: string[] = [];
    core.subscribe((m) => seen.push(JSON.stringify(m)));
    const answers: string[] = [];
    const run = async <T>(name: string, input: unknown): Promise<T> => {
      const r = await core.dispatch(name, input);
      answers.push(JSON.stringify(r));
      if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
      return r.value as T;
    };
    try {
      await signIn(core);
      const saved = await run<SefSettingsView>('sef.saveSettings', {
        environment: 'demo',
        autoIssue: true,
        sendToCir: false,
        seller: { ...SELLER, bankAccount: '' },
        apiKey: KEY,
      });
      expect(saved).toMatchObject({ hasKey: true, demo: false });
      // Automatic issue: the sale's e-invoice is made when its receipt is issued, and sent with the key.
      await run('sales.checkout', { ...BREAD_AND_MILK, buyerId: '10:101134702' });
      await core.sef.outbox.pass();
      expect(fake.controls.documents()).toHaveLength(1);
      await run('sef.list', {});
      await run('sef.settings', {});
      await run('audit.list', {});
      core.logger.warn(`a careless line with the SEF key ${KEY}`);
      for (const text of [...answers, ...seen])
        for (const s of spellings(KEY)) expect(text).not.toContain(s.toString());
    } finally {
      await closeCore(core).catch(() => core.close());
    }
    const leaks = filesUnder(dataDir).filter((f) => spellings(KEY).some((s) => fs.readFileSync(f).includes(s)));
    expect(leaks.map((f) => path.relative(dataDir, f))).toEqual(['sef-api-key']);
    expect(fs.statSync(path.join(dataDir, 'sef-api-key')).mode & 0o077).toBe(0);
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'kasa.log'), 'utf8');
    expect(log).toMatch(/sef POST \/api\/publicApi\/sales-invoice\/ubl -> 200/);
    expect(log).toContain('[redacted]');
  }, 60_000);
});
