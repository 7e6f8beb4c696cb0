import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox } from './server.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function post(url: string, p: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(url + p, {
    method: 'POST',
    headers: { Authorization: 'Bearer demo-key', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

describe('dataFile persistence', () => {
  it('keeps receipts, counters, order numbers, drafts, cashiers and e-mails across restarts', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-sandbox-'));
    dirs.push(dir);
    const dataFile = path.join(dir, 'sandbox.sqlite');
    const sale = {
      orderNumber: 'P-1',
      items: [{ name: 'Хлеб', quantity: 1, unitPrice: 80, totalAmount: 80, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 80 }],
    };

    const a = await startSandbox({ dataFile });
    const first = (await post(a.url, '/receipt/normal/sale', sale)).json['receipt'] as Record<string, unknown>;
    expect(
      (await post(a.url, '/receipt/drafts', { draftName: 'Сто', orderNumber: 'D-1', items: sale.items })).status,
    ).toBe(201);
    expect((await post(a.url, '/cashiers', { name: 'Ана' })).status).toBe(200);
    expect(
      (await post(a.url, '/receipt/send-email', { invoiceNumber: first['invoiceNumber'], email: 'a@b.rs' })).status,
    ).toBe(201);
    await a.close();

    const b = await startSandbox({ dataFile });
    expect(b.controls.ledger().receipts.map((r) => r.invoiceNumber)).toEqual([first['invoiceNumber']]);
    expect(b.controls.emails().emails).toHaveLength(1);
    const dup = await post(b.url, '/receipt/normal/sale', sale);
    expect(dup.json['code']).toBe('ERR_00603');
    const second = (await post(b.url, '/receipt/normal/sale', { ...sale, orderNumber: 'P-2' })).json[
      'receipt'
    ] as Record<string, unknown>;
    expect(second['invoiceCounter']).toBe('2/2ОП');
    const archived = await fetch(`${b.url}/archive/receipts/${String(first['invoiceNumber'])}`, {
      headers: { Authorization: 'Bearer demo-key' },
    });
    const rec = (await archived.json()) as { receipt: Record<string, unknown> };
    expect(rec.receipt['journal']).toBe(first['journal']);
    expect(rec.receipt['invoicePdfUrl']).toBe(`${b.url}/files/${String(first['invoiceNumber'])}.pdf`);
    const drafts = await fetch(`${b.url}/receipt/drafts`, { headers: { Authorization: 'Bearer demo-key' } });
    expect(((await drafts.json()) as { meta: { total: number } }).meta.total).toBe(1);
    const cashier = await post(b.url, '/cashiers', { name: 'Бора' });
    expect(cashier.json['id']).toBe(2);
    b.controls.reset();
    await b.close();

    const c = await startSandbox({ dataFile });
    expect(c.controls.ledger().receipts).toHaveLength(0);
    await c.close();
  });
});
