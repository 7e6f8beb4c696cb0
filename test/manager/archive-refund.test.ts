/**
 * A full refund of a receipt known only to the gateway archive (another till's
 * sale) sends the archived receipt's own items, never one invented line with the group's first label.
 * Through the whole core (createCore) on a real SQLite file and the embedded sandbox over HTTP, on both
 * sandbox variants: the spec's archive record has no items, so the lines come from its `taxItems`, one
 * per label, adding up to the total; the vendor SDK's flat record with `items` (the sdk variant, or the
 * spec variant with the sandbox control `archive-items`) gives the original's items exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { makeRefund, closeCores, controlResponse, startCore } from '../support/session.ts';
import type { OrderView } from '../../shared/domain.ts';
import { linesFromTaxItems } from '../../electron/manager/archive-lines.ts';

afterEach(closeCores);

const start = (variant: 'spec' | 'sdk'): Promise<Core> =>
  startCore({
    prefix: 'kasa-archref-',
    env: {
      KASA_LANG: 'en',
      KASA_ONLINE_BUDGET_MS: '5000',
      ...(variant === 'sdk' ? { KASA_SANDBOX_VARIANT: 'sdk' } : {}),
    },
    engine: false,
  });

async function control(c: Core, what: string, body: unknown): Promise<void> {
  expect((await controlResponse(c, what, body)).status).toBe(200);
}

const ITEMS = [
  { name: 'Хлеб', quantity: 3, unitPrice: 80, totalAmount: 240, labels: ['A'] },
  { name: 'Сок', quantity: 2, unitPrice: 123.45, totalAmount: 246.9, labels: ['E'] },
  { name: 'Кафа', quantity: 1, unitPrice: 377.77, totalAmount: 377.77, labels: ['F'] },
];

/** Another till's sale: issued straight to the gateway, so this till knows it only from the archive. */
async function otherTillSale(
  c: Core,
  orderNumber: string,
  items = ITEMS,
): Promise<{ invoiceNumber: string; totalAmount: number }> {
  const total = Math.round(items.reduce((s, i) => s + i.totalAmount, 0) * 100) / 100;
  const res = await fetch(`${c.sandboxUrl}/receipt/normal/sale`, {
    method: 'POST',
    headers: { authorization: 'Bearer demo-key', 'content-type': 'application/json' },
    body: JSON.stringify({ orderNumber, items, payments: [{ type: 'cash', amount: total }] }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { receipt: { invoiceNumber: string; totalAmount: number } }).receipt;
}

type SentItem = { name: string; quantity: number; unitPrice: number; totalAmount: number; labels: string[] };

async function refundFull(c: Core, invoiceNumber: string): Promise<{ view: OrderView; items: SentItem[] }> {
  const view = await makeRefund(c, {
    invoiceNumber,
    full: true,
    buyerId: '20:008123456',
  });
  const request =
    c.db.prepare<[number], string>('SELECT request FROM orders WHERE id = ?').pluck().get(view.orderId) ?? '{}';
  return { view, items: (JSON.parse(request) as { items: SentItem[] }).items };
}

describe('a full refund of an archive-only receipt (#21 case 12)', () => {
  // The spec's archive record has no items; the SDK's always has them (variant.ts), so this is spec only.
  for (const variant of ['spec'] as const) {
    it(`${variant}: without archived items, one line per tax label of the original, adding up to its total`, async () => {
      const c = await start(variant);
      const sold = await otherTillSale(c, `OTHER-${variant}-1`);
      expect(sold.totalAmount).toBe(864.67);
      const { view, items } = await refundFull(c, sold.invoiceNumber);
      expect(view).toMatchObject({ kind: 'refund_full', state: 'fiscalized', totalPara: 86467 });
      // Every label is the original's own; none invented, none dropped.
      expect(items.map((i) => i.labels)).toEqual([['A'], ['E'], ['F']]);
      expect(Math.round(items.reduce((s, i) => s + i.totalAmount, 0) * 100)).toBe(86467);
      // Each label's line is the original's amount for it, give or take the tax's rounding.
      const want: Record<string, number> = { A: 240, E: 246.9, F: 377.77 };
      for (const i of items) {
        expect(Math.abs(i.totalAmount - (want[i.labels[0]!] ?? 0))).toBeLessThanOrEqual(0.12);
        expect(i.quantity * i.unitPrice).toBeCloseTo(i.totalAmount, 2);
        expect(i.name).toContain(sold.invoiceNumber);
      }
    });
  }

  for (const variant of ['sdk', 'spec'] as const) {
    it(`${variant}: an archived receipt with items (the SDK's ReceiptDetailsDto) gives the original's items exactly`, async () => {
      const c = await start(variant);
      // The SDK's archived receipt carries its items on its own; the spec's only with the sandbox control.
      if (variant === 'spec') await control(c, 'archive-items', { included: true });
      const sold = await otherTillSale(c, `OTHER-${variant}-items`);
      const { view, items } = await refundFull(c, sold.invoiceNumber);
      expect(view).toMatchObject({ kind: 'refund_full', state: 'fiscalized', totalPara: 86467 });
      expect(items).toEqual(ITEMS);
      expect(view.lines.map((l) => [l.name, l.quantityMilli, l.totalPara, l.labels])).toEqual([
        ['Хлеб', 3000, 24000, ['A']],
        ['Сок', 2000, 24690, ['E']],
        ['Кафа', 1000, 37777, ['F']],
      ]);
    });
  }

  it('spec: a one-label receipt refunds as one line with that label and the exact total', async () => {
    const c = await start('spec');
    const sold = await otherTillSale(c, 'OTHER-one-label', [
      { name: 'Сок', quantity: 3, unitPrice: 99.99, totalAmount: 299.97, labels: ['E'] },
    ]);
    const { items } = await refundFull(c, sold.invoiceNumber);
    expect(items).toEqual([
      { name: `Поврат ${sold.invoiceNumber} (E)`, quantity: 1, unitPrice: 299.97, totalAmount: 299.97, labels: ['E'] },
    ]);
  });

  it('a 0 % label takes the rest; no tax items, no lines', () => {
    const lines = linesFromTaxItems(
      [
        { label: 'Ђ', rate: 20, amount: 20, categoryType: 0 },
        { label: 'Г', rate: 0, amount: 0, categoryType: 0 },
      ],
      20000,
      'Поврат X',
    );
    expect(lines?.map((l) => [l.labels[0], l.totalPara])).toEqual([
      ['Ђ', 12000],
      ['Г', 8000],
    ]);
    expect(linesFromTaxItems([], 100, 'x')).toBeNull();
    expect(linesFromTaxItems(undefined, 100, 'x')).toBeNull();
  });
});
