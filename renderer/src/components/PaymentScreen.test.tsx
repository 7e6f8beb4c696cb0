// @vitest-environment jsdom
/**
 * On the counter, a proforma or a training receipt takes no money. The payment
 * screen shows no amount inputs, no paid/remaining/change, and checks out with no payments (the core
 * sends the nominal one); a normal sale still asks for them.
 */
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CheckoutInput } from '../../../shared/contract/index.ts';
import type { ScanResult } from '../../../shared/contract/catalog.ts';
import { fillRest, ipsRest } from './PaymentScreen.tsx';
import { ok } from '../testing/fake-api.ts';
import { BREAD, INFO, queuedSale } from '../testing/fixtures.ts';
import { chooseOption, testRoot, typeInto } from '../testing/dom.ts';
import { startTill } from '../testing/till.tsx';

const SCAN: ScanResult = {
  product: BREAD,
  kind: 'exact',
  quantityMilli: 1000,
  unitPricePara: 6500,
  code: '8600000100018',
};

const dom = testRoot();

async function till(trainingMode: boolean) {
  const checkouts: CheckoutInput[] = [];
  const { store } = await startTill(dom.root, {
    'app.info': () => ok({ ...INFO, trainingMode }),
    'catalog.byBarcode': () => ok(SCAN),
    ...queuedSale({ totalPara: 6500, changePara: 0 }, checkouts, () => ({
      invoiceType: checkouts.at(-1)?.invoiceType ?? 'normal',
    })),
  });
  const div = dom.container;
  const key = (k: string) =>
    act(
      () => void document.body.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true })),
    );
  for (const ch of SCAN.code) key(ch);
  await act(async () => key('Enter'));
  key('F12');
  expect(div.querySelector('main')?.getAttribute('aria-label')).toBe('Плаћање');
  const invoiceSelect = () =>
    [...div.querySelectorAll('select')].find((s) =>
      s.closest('label')?.textContent?.startsWith('Врста рачуна'),
    ) as HTMLSelectElement;
  const choose = (value: string) => chooseOption(invoiceSelect(), value);
  const amountInputs = () => div.querySelectorAll('fieldset.amounts input');
  return { div, checkouts, key, choose, invoiceSelect, amountInputs, store };
}

describe('the payment screen for proforma and training (#21 case 10d)', () => {
  it('a proforma asks for no payment and checks out without payments', async () => {
    const t = await till(false);
    expect(t.amountInputs().length).toBeGreaterThan(0);
    expect(t.div.querySelector('[data-testid="change"]')).not.toBeNull();
    t.choose('proforma');
    expect(t.amountInputs()).toHaveLength(0);
    expect(t.div.querySelector('input[inputmode="decimal"]')).toBeNull();
    expect(t.div.querySelector('[data-testid="change"]')).toBeNull();
    expect(t.div.querySelector('[data-testid="paid"]')).toBeNull();
    expect(t.div.querySelector('[data-testid="no-money"]')?.textContent).toBe(
      'Предрачун се не наплаћује: без уноса плаћања, без кусура, фиока се не отвара.',
    );
    await act(async () => t.key('F12'));
    expect(t.checkouts).toHaveLength(1);
    expect(t.checkouts[0]).toMatchObject({ invoiceType: 'proforma', payments: [] });
    // The receipt screen shows the total, no paid amount and no change.
    await vi.waitFor(() => expect(t.div.querySelector('[data-testid="receipt-total"]')?.textContent).toBe('65,00'));
    await vi.waitFor(() => expect(t.div.querySelector('[data-testid="receipt-change"]')).toBeNull());
  });

  it('in training mode the screen opens on a training receipt with no payment input', async () => {
    const t = await till(true);
    expect(t.invoiceSelect().value).toBe('training');
    expect(t.amountInputs()).toHaveLength(0);
    expect(t.div.querySelector('input[inputmode="decimal"]')).toBeNull();
    expect(t.div.querySelector('[data-testid="change"]')).toBeNull();
    expect(t.div.querySelector('[data-testid="no-money"]')?.textContent).toContain('Рачун за обуку се не наплаћује');
    await act(async () => t.key('F12'));
    expect(t.checkouts[0]).toMatchObject({ invoiceType: 'training', payments: [] });
  });
});

describe('F5 and F6 fill what is left to pay', () => {
  it('with nothing typed, F6 moves the whole total to the card (the opening cash is only a suggestion)', () => {
    expect(fillRest('card', { cash: '65,00' }, 6500, false)).toEqual({ cash: '', card: '65,00' });
    expect(fillRest('cash', { card: '65,00' }, 6500, true)).toEqual({ card: '65,00', cash: '0,00' });
    expect(fillRest('cash', {}, 6500, true)).toEqual({ cash: '65,00' });
  });

  it('once cash is typed, F6 puts the rest on the card, and F5 the rest in cash after a card amount', () => {
    expect(fillRest('card', { cash: '20' }, 6500, true)).toEqual({ cash: '20', card: '45,00' });
    expect(fillRest('cash', { card: '40,50', cash: '99' }, 6500, true)).toEqual({ card: '40,50', cash: '24,50' });
    // More than due already typed elsewhere: nothing left, never a negative amount.
    expect(fillRest('card', { cash: '100' }, 6500, true)).toEqual({ cash: '100', card: '0,00' });
  });

  it('"20 cash, the rest by card": type 20, F6, F12 checks out both tenders; the F6 button shows the rest', async () => {
    const { div, checkouts, key, amountInputs } = await till(false);
    const cash = amountInputs()[0] as HTMLInputElement;
    typeInto(cash, '20');
    const f6 = [...div.querySelectorAll('.quick-pay button')].find((b) => b.textContent?.includes('F6'));
    expect(f6?.textContent).toContain('= 45,00');
    key('F6');
    expect((amountInputs()[0] as HTMLInputElement).value).toBe('20');
    expect((amountInputs()[1] as HTMLInputElement).value).toBe('45,00');
    await act(async () => key('F12'));
    expect(checkouts.at(-1)?.payments).toEqual([
      { type: 'cash', amount: 20 },
      { type: 'card', amount: 45 },
    ]);
  });

  it('until cash is typed, it follows the total: a scan answered after the screen opened is in it', async () => {
    const { amountInputs, store } = await till(false);
    expect((amountInputs()[0] as HTMLInputElement).value).toBe('65,00');
    const line = store.getState().lines[0]!;
    act(() => store.setState({ lines: [line, { ...line, key: 99 }] }));
    expect((amountInputs()[0] as HTMLInputElement).value).toBe('130,00');
  });
});

describe('F7 pays the rest by IPS QR', () => {
  it('is what the typed tenders leave; the cash suggestion is not a tender', () => {
    expect(ipsRest({ cash: '540,00' }, 54000, false)).toEqual({ restPara: 54000, others: [], error: null });
    expect(ipsRest({ cash: '200' }, 54000, true)).toEqual({
      restPara: 34000,
      others: [{ type: 'cash', amountPara: 20000 }],
      error: null,
    });
    expect(ipsRest({ card: '100', mobileMoney: '999' }, 54000, false)).toMatchObject({ restPara: 44000 });
    expect(ipsRest({ cash: '600' }, 54000, true)).toMatchObject({ restPara: 0, error: 'ips.nothingLeft' });
    expect(ipsRest({ card: '1x' }, 54000, false)).toMatchObject({ error: 'dialog.invalidPrice' });
  });
});
