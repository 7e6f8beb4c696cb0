import { describe, expect, it } from 'vitest';
import { ACCOUNTS, type Shop } from './accounts.ts';
import {
  computeTaxes,
  counterExtension,
  issueFinalize,
  issueReceipt,
  ORDER_NUMBER_WINDOW_MS,
  SandboxError,
} from './issue.ts';
import { Store } from './store.ts';

const demo = ACCOUNTS.get('demo-key')?.shop as Shop;
const prod = ACCOUNTS.get('prod-key')?.shop as Shop;
const item = (totalAmount: number, labels: string[]) => ({
  name: 'x',
  quantity: 1,
  unitPrice: totalAmount,
  totalAmount,
  labels,
});

describe('computeTaxes', () => {
  it('computes VAT included in the price per label, in para', () => {
    expect(computeTaxes(demo, [item(120, ['A']), item(99.99, ['E']), item(10, ['A'])])).toEqual([
      { label: 'A', rate: 10, categoryType: 0, categoryName: 'VAT', orderId: 1, amount: 1182 },
      { label: 'E', rate: 6, categoryType: 0, categoryName: 'VAT', orderId: 1, amount: 566 },
    ]);
    const p = computeTaxes(prod, [item(1200, ['Ђ']), item(110, ['Е']), item(50, ['Г']), item(50, ['А'])]);
    expect(p.map((t) => [t.label, t.amount])).toEqual([
      ['Ђ', 20000],
      ['Е', 1000],
      ['Г', 0],
      ['А', 0],
    ]);
    // 0.5 % of 100.00 included: 100 * 0.5 / 100.5 = 0.4975 -> 0.50
    expect(computeTaxes(demo, [item(100, ['P'])])[0]?.amount).toBe(50);
  });
});

describe('counterExtension', () => {
  it.each([
    ['normal', 'sale', false, 'ОП'],
    ['normal', 'refund', false, 'ПР'],
    ['normal', 'sale', true, 'ПП'],
    ['advance', 'sale', false, 'АП'],
    ['advance', 'refund', false, 'АР'],
    ['training', 'sale', false, 'ТП'],
    ['copy', 'refund', false, 'КР'],
    ['proforma', 'sale', false, 'РП'],
  ])('follows the spec and Serbian practice: %s %s, chain final %s: %s', (invoice, transaction, final, ext) => {
    expect(counterExtension(invoice, transaction, final)).toBe(ext);
  });
});

describe('issueReceipt', () => {
  const body = (orderNumber: string, over: Record<string, unknown> = {}) => ({
    orderNumber,
    items: [item(100, ['A'])],
    payments: [{ type: 'cash', amount: 100 }],
    ...over,
  });

  it('applies the order-number window on the given clock', () => {
    const store = new Store();
    const t0 = Date.parse('2024-05-01T00:00:00Z');
    const first = issueReceipt({ store, shop: demo, now: t0 }, 'normal', 'sale', body('A'));
    expect(() =>
      issueReceipt({ store, shop: demo, now: t0 + ORDER_NUMBER_WINDOW_MS - 1 }, 'normal', 'sale', body('A')),
    ).toThrow(SandboxError);
    const again = issueReceipt({ store, shop: demo, now: t0 + ORDER_NUMBER_WINDOW_MS }, 'normal', 'sale', body('A'));
    expect(again.existing).toBe(false);
    expect(again.receipts[0]?.invoiceNumber).not.toBe(first.receipts[0]?.invoiceNumber);
    expect(again.receipts[0]?.sdcDateTime).toBe('2024-05-15T00:00:00.000Z');
  });

  it('finalize returns the stored pair on a retry', () => {
    const store = new Store();
    const adv = issueReceipt({ store, shop: demo, now: 1e12 }, 'advance', 'sale', body('ADV'));
    const fin = {
      ...body('FIN'),
      referentDocumentNumber: adv.receipts[0]?.invoiceNumber,
      settings: { returnIfOrderNumberExists: true },
    };
    const a = issueFinalize({ store, shop: demo, now: 1e12 }, fin);
    const b = issueFinalize({ store, shop: demo, now: 1e12 + 1000 }, fin);
    expect(b.existing).toBe(true);
    expect(b.receipts.map((r) => r.invoiceNumber)).toEqual(a.receipts.map((r) => r.invoiceNumber));
    expect(store.receipts).toHaveLength(3);
  });
});
