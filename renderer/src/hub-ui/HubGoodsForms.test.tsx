// @vitest-environment jsdom
/**
 * The hub's goods receipt posted before the catalog search came back for its line (a slow hub): the form sent the
 * line's code and let the hub decide; it once refused it at the line as „no such product“ without asking the hub.
 * A line the search has answered for and found nothing is still refused at its field, with nothing sent.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { translate } from '../../../shared/i18n/catalog.ts';
import type { HubUiApi } from './api.ts';
import { ReceiptForm } from './HubGoodsForms.tsx';
import { hubMessages, type HubKey } from './i18n.ts';
import { testRoot } from '../testing/dom.ts';

const dom = testRoot();
const t = (key: HubKey, params?: Record<string, string | number>) => translate(hubMessages, 'sr-Cyrl', key, params);

function set(el: HTMLInputElement | HTMLSelectElement, value: string): void {
  act(() => {
    const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}
/** The control a label names (its words first, as a person reads it). */
function field(label: string): HTMLInputElement {
  const found = [...dom.container.querySelectorAll('label')].find((l) => l.textContent?.startsWith(label));
  const control = found?.querySelector('input, select');
  if (!control) throw new Error(`no field „${label}“`);
  return control as HTMLInputElement;
}

/** A hub whose catalog search answers only when `answer` is called; the posts it was sent. */
function slowHub(found: boolean) {
  const posted: unknown[] = [];
  const waiting: (() => void)[] = [];
  const product = { code: '2001', name: 'Хлеб бели', pricePara: 6500, label: 'Ђ', unit: 'piece', barcodes: [] };
  const api = {
    call: (name: string, input: unknown) => {
      if (name === 'products')
        return new Promise((resolve) => waiting.push(() => resolve({ products: found ? [product] : [] })));
      if (name === 'goodsReceipt') {
        posted.push(input);
        return Promise.resolve({ number: '1/2026' });
      }
      return Promise.reject(new Error(`unexpected ${name}`));
    },
  } as unknown as HubUiApi;
  return {
    api,
    posted,
    answer: () =>
      act(async () => {
        for (const w of waiting.splice(0)) w();
      }),
  };
}

function fillReceipt(api: HubUiApi): void {
  act(() =>
    dom.root.render(
      <ReceiptForm
        t={t}
        lang="sr-Cyrl"
        api={api}
        changed={() => undefined}
        text={String}
        data={{
          suppliers: [{ id: 7, name: 'Пекара д.о.о.', pib: '101134702', address: '', bankAccount: '', contact: '' }],
          taxRates: [{ label: 'Ђ', rate: 20 }],
          labels: ['Ђ'],
        }}
      />,
    ),
  );
  set(dom.container.querySelector('select') as HTMLSelectElement, '7');
  set(field(t('gfInvoiceNumber')), 'F-600');
  set(field(t('gfProduct', { n: '1' })), '2001');
  set(field(t('gfQuantity', { n: '1' })), '20');
  set(field(t('gfPurchase', { n: '1' })), '40,00');
  set(field(t('gfMargin', { n: '1' })), '25');
}
const post = () => act(() => dom.container.querySelector('form')?.requestSubmit());
const alerts = () => [...dom.container.querySelectorAll('[role="alert"]')].map((a) => a.textContent);

describe('the hub’s goods receipt', () => {
  it('posts a line the catalog search has not answered for yet: the hub decides', async () => {
    const hub = slowHub(true);
    fillReceipt(hub.api);
    post();
    await act(async () => undefined);
    expect(alerts()).toEqual([]);
    expect(hub.posted).toMatchObject([{ supplierId: 7, lines: [{ code: '2001', qtyMilli: 20_000, marginBp: 2500 }] }]);
  });

  it('refuses at its field a line the search answered for with nothing, and sends nothing', async () => {
    const hub = slowHub(false);
    fillReceipt(hub.api);
    await hub.answer();
    post();
    expect(alerts()).toEqual([t('gfErrProductUnknown')]);
    expect(hub.posted).toEqual([]);
  });
});
