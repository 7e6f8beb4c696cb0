// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUYER_ID_CODES } from '../../shared/buyer-id.ts';
import type { CheckoutInput } from '../../shared/contract/index.ts';
import type { ScanResult } from '../../shared/contract/catalog.ts';
import { App } from './App.tsx';
import { createI18n } from './i18n/index.ts';
import { createPosStore, type PosStore } from './store/index.ts';
import { createFakeApi, ok, type FakeApi } from './testing/fake-api.ts';
import { BREAD, DEMO_RATES, INFO, MILK, SYNC, queuedSale } from './testing/fixtures.ts';
import { chooseOption, typeInto } from './testing/dom.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const scans: Record<string, ScanResult> = {
  '8600000100018': { product: BREAD, kind: 'exact', quantityMilli: 1000, unitPricePara: 6500, code: '8600000100018' },
  '8600000101855': { product: MILK, kind: 'exact', quantityMilli: 1000, unitPricePara: 13999, code: '8600000101855' },
};

let container: HTMLDivElement;
let root: Root;
let fake: FakeApi;
let checkouts: CheckoutInput[];
let orderState: 'queued' | 'fiscalized';
let store: PosStore;
let approvals: unknown[];
let storage: Map<string, string>;

const ANA = { id: 2, name: 'Ана Анић', role: 'cashier' as const, active: true, mustChangePin: false };

beforeEach(async () => {
  checkouts = [];
  approvals = [];
  storage = new Map();
  orderState = 'queued';
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
  fake = createFakeApi({
    'app.info': () => ok(INFO),
    'taxRates.get': () => ok(DEMO_RATES),
    'sync.status': () =>
      ok({
        ...SYNC,
        online: false,
        queued: 2,
        oldestQueuedAt: new Date(Date.now() - 45 * 60_000 - 30_000).toISOString(),
      }),
    'catalog.favourites': () => ok([BREAD, MILK]),
    'sales.approveDiscount': () => ok({ approved: 0, approvedBy: null }),
    'staff.login': ({ pin }) =>
      pin === '1111' ? ok(ANA) : { ok: false, error: { code: 'forbidden', message: 'Погрешан PIN.' } },
    'staff.approve': (input) => {
      approvals.push(input);
      return input.managerPin === '0000'
        ? ok({ approvedBy: 'Менаџер' })
        : { ok: false, error: { code: 'forbidden', message: 'Потребно је одобрење менаџера.' } };
    },
    'catalog.search': ({ query }) =>
      ok([BREAD, MILK].filter((p) => p.name.toLowerCase().includes(query.toLowerCase()))),
    'catalog.byBarcode': ({ code }) =>
      scans[code] ? ok(scans[code]) : { ok: false, error: { code: 'not_found', message: 'x' } },
    ...queuedSale({ totalPara: 20499, changePara: 1501 }, checkouts, () => ({
      state: orderState,
      ...(orderState === 'fiscalized'
        ? {
            receipt: {
              invoiceNumber: 'AAAA-BBBB-7',
              invoiceCounter: '7/7ПП',
              invoiceCounterExtension: 'ПП',
              invoiceType: 'normal',
              transactionType: 'sale',
              sdcDateTime: '2025-03-01T10:00:00Z',
              verificationUrl: 'https://suf.example/v?vl=abc',
              invoicePdfUrl: 'https://x/pdf',
              totalPara: 20499,
              journal:
                '============ ФИСКАЛНИ РАЧУН ============\nХлеб   65,00\n======== КРАЈ ФИСКАЛНОГ РАЧУНА =========',
              taxItems: [],
              businessName: 'Продавница',
              locationName: 'Београд',
            },
          }
        : {}),
    })),
  });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  store = createPosStore(fake.api, undefined, {
    getItem: (k) => storage.get(k) ?? null,
    setItem: (k, v) => void storage.set(k, v),
  });
  await act(async () => {
    root.render(<App store={store} api={fake.api} i18n={createI18n('sr-Cyrl')} />);
  });
  await act(async () => void (await store.getState().login('1111')));
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

function key(k: string, target: EventTarget = document.body, init: KeyboardEventInit = {}) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init }));
  });
}

async function scan(code: string) {
  for (const ch of code) key(ch);
  await act(async () => key('Enter'));
}

function byLabel<T extends Element = HTMLElement>(label: string): T {
  const el = container.querySelector<HTMLElement>(`[aria-label="${label}"]`);
  if (!el) throw new Error(`no element labelled ${label}`);
  return el as unknown as T;
}

function buttonByText(text: RegExp): HTMLButtonElement {
  const b = [...container.querySelectorAll('button')].find((x) => text.test(x.textContent ?? ''));
  if (!b) throw new Error(`no button ${text}`);
  return b;
}

function inputLabelled(text: string): HTMLInputElement {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(text));
  const input = label?.querySelector('input');
  if (!input) throw new Error(`no input ${text}`);
  return input;
}

/** A control by its ARIA role and accessible name (aria-label, else the text of the label around it). */
function selectByRoleAndName(role: 'combobox', name: string): HTMLSelectElement {
  const found = [...container.querySelectorAll<HTMLSelectElement>('select, [role]')].find((el) => {
    const implicit = el.tagName === 'SELECT' && !el.multiple && el.size <= 1 ? 'combobox' : null;
    const accessibleName =
      el.getAttribute('aria-label') ?? el.closest('label')?.querySelector('span')?.textContent ?? '';
    return (el.getAttribute('role') ?? implicit) === role && accessibleName === name;
  });
  if (!found) throw new Error(`no ${role} named ${name}`);
  return found;
}

describe('the counter', () => {
  it('shows the demo banner and the status bar with queue and age of the oldest order', () => {
    expect(container.textContent).toContain('ДЕМО РЕЖИМ');
    const status = byLabel('Статус');
    expect(status.textContent).toContain('Ван мреже');
    expect(status.textContent).toContain('Чека: 2 рачуна');
    expect(status.textContent).toContain('Најстарији: 45 мин');
  });

  it('adds scanned items from anywhere, pays cash + card with change, and follows the receipt to fiscalized', async () => {
    await scan('8600000100018');
    await scan('8600000101855');
    await scan('8600000100018');
    const rows = container.querySelectorAll('[data-testid="cart-line"]');
    expect([...rows].map((r) => r.getAttribute('aria-label'))).toEqual([
      'Ставка 1: Хлеб бели 500 г',
      'Ставка 2: Млеко 2,8% 1 л',
    ]);
    expect(byLabel('Укупно').textContent).toBe('269,99');

    key('F12');
    expect(container.querySelector('main')?.getAttribute('aria-label')).toBe('Плаћање');
    typeInto(inputLabelled('Платна картица'), '100');
    expect(inputLabelled('Готовина').value).toBe('169,99');
    typeInto(inputLabelled('Готовина'), '200');
    expect(byLabel('Кусур').textContent).toBe('30,01');
    await act(async () => key('F12'));

    expect(checkouts).toEqual([
      {
        lines: [
          { name: 'Хлеб бели 500 г', quantity: 2, unitPrice: 65, labels: ['E'], gtin: '8600000100018', productId: 1 },
          {
            name: 'Млеко 2,8% 1 л',
            quantity: 1,
            unitPrice: 139.99,
            labels: ['E'],
            gtin: '8600000101855',
            productId: 2,
          },
        ],
        payments: [
          { type: 'cash', amount: 200 },
          { type: 'card', amount: 100 },
        ],
        invoiceType: 'normal',
        // No cashier: the core names the person logged in (issue 37 §2).
      },
    ]);
    expect(byLabel('Стање').textContent).toBe('НИЈЕ ЈОШ ФИСКАЛИЗОВАН');
    orderState = 'fiscalized';
    await act(async () => fake.emit('order.updated', { orderId: 7, orderNumber: 'T1-7', state: 'fiscalized' }));
    await vi.waitFor(() => expect(byLabel('Стање').textContent).toBe('ФИСКАЛИЗОВАН'));
    expect(byLabel('Журнал рачуна').tagName).toBe('SECTION');
    expect(container.querySelector('pre')?.textContent).toContain('КРАЈ ФИСКАЛНОГ РАЧУНА');
    expect(byLabel('QR код рачуна').getAttribute('data-url')).toBe('https://suf.example/v?vl=abc');

    key('Enter');
    expect(container.querySelector('main')?.getAttribute('aria-label')).toBe('Каса');
  });

  it('F6 gives a line a discount, never more than the line', async () => {
    await scan('8600000100018');
    key('F6');
    const form = container.querySelector('[role="dialog"] form') as HTMLFormElement;
    typeInto(inputLabelled('Попуст (RSD)'), '66');
    act(() => form.requestSubmit());
    expect(container.querySelector('[role="dialog"] [role="alert"]')?.textContent).toBe(
      'Попуст не може бити већи од износа ставке.',
    );
    typeInto(inputLabelled('Попуст (RSD)'), '5,50');
    await act(async () => form.requestSubmit());
    expect(container.querySelector('[role="dialog"]')).toBeNull();
    expect(byLabel('Укупно').textContent).toBe('59,50');
  });

  it('refuses a buyer ID that is too short or has a wrong check digit', async () => {
    await scan('8600000100018');
    key('F12');
    const select = selectByRoleAndName('combobox', 'Врста ИД купца');
    chooseOption(select, '10');
    typeInto(inputLabelled('ИД купца'), '12345');
    await act(async () => key('F12'));
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(
      'ПИБ није исправан: 9 цифара, последња је контролна.',
    );
    expect(checkouts).toEqual([]);
    typeInto(inputLabelled('ИД купца'), '123456789'); // nine digits, wrong check digit
    await act(async () => key('F12'));
    expect(checkouts).toEqual([]);
    typeInto(inputLabelled('ИД купца'), '123456788');
    await act(async () => key('F12'));
    expect(checkouts[0]?.buyerId).toBe('10:123456788');
  });

  it('offers the Tax Administration buyer ID list at the counter, each code by its rule (issue 21)', async () => {
    await scan('8600000100018');
    key('F12');
    const select = selectByRoleAndName('combobox', 'Врста ИД купца');
    // The Tax Administration's list itself is pinned in shared/buyer-id.test.ts.
    expect([...select.options].map((o) => o.value)).toEqual(['', ...BUYER_ID_CODES]);
    expect(select.querySelector('option[value="20"]')?.textContent).toBe('20 – број личне карте (физичко лице)');
    expect(select.querySelector('option[value="11"]')?.textContent).toBe(
      '11 – ЈМБГ предузетника (самостална делатност)',
    );
    chooseOption(select, '20');
    typeInto(inputLabelled('ИД купца'), 'abc');
    await act(async () => key('F12'));
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('Број документа има тачно 9 цифара.');
    expect(checkouts).toEqual([]);
    chooseOption(select, '12');
    typeInto(inputLabelled('ИД купца'), '101134702');
    await act(async () => key('F12'));
    expect(container.querySelector('[role="alert"]')?.textContent).toContain('ПИБ:ЈБКЈС');
    expect(checkouts).toEqual([]);
    typeInto(inputLabelled('ИД купца'), '101134702:12345');
    await act(async () => key('F12'));
    expect(checkouts[0]?.buyerId).toBe('12:101134702:12345');
  });

  it('switches language', () => {
    const select = container.querySelector<HTMLSelectElement>('.lang select');
    chooseOption(select, 'en');
    expect(buttonByText(/^Pay/).textContent).toContain('F12');
    expect(container.textContent).toContain('DEMO MODE');
    expect(storage.get('kasa.language')).toBe('en');
  });

  it('asks for a PIN before selling; F1 logs the cashier out', async () => {
    expect(byLabel('Статус').textContent).toContain('Касир: Ана Анић');
    await act(async () => key('F1'));
    expect(container.querySelector('main')?.getAttribute('aria-label')).toBe('Пријава касира');
    expect(container.querySelector('[role="combobox"]')).toBeNull();
    const pin = inputLabelled('PIN');
    typeInto(pin, '9999');
    await act(async () => pin.form?.requestSubmit());
    expect(container.querySelector('[role="alert"]')?.textContent).toBe('Пријава није успела: Погрешан PIN.');
    typeInto(pin, '1111');
    await act(async () => pin.form?.requestSubmit());
    expect(container.querySelector('main')?.getAttribute('aria-label')).toBe('Каса');
  });

  it('opening the payment screen and going back takes no money: a line and the sale go without a manager', async () => {
    await scan('8600000100018');
    await scan('8600000101855');
    key('F12');
    key('Escape');
    expect(container.querySelector('main')?.getAttribute('aria-label')).toBe('Каса');
    key('Delete');
    expect(container.querySelector('[role="dialog"]')).toBeNull();
    expect(container.querySelectorAll('[data-testid="cart-line"]')).toHaveLength(1);
    expect(approvals).toEqual([]);
  });

  it('removing a line once a tender was entered (F5 on the payment screen) needs a manager PIN', async () => {
    await scan('8600000100018');
    await scan('8600000101855');
    key('F12');
    key('F5');
    key('Escape');
    expect(container.querySelector('main')?.getAttribute('aria-label')).toBe('Каса');
    key('Delete');
    const dialog = container.querySelector('[role="dialog"]');
    expect(dialog?.textContent).toContain('Уклањање ставке после почетка плаћања: Млеко 2,8% 1 л.');
    const pin = inputLabelled('PIN менаџера');
    typeInto(pin, '1111');
    await act(async () => pin.form?.requestSubmit());
    expect(container.querySelector('[role="dialog"] [role="alert"]')?.textContent).toContain('Није одобрено');
    expect(container.querySelectorAll('[data-testid="cart-line"]')).toHaveLength(2);
    typeInto(pin, '0000');
    await act(async () => pin.form?.requestSubmit());
    expect(container.querySelector('[role="dialog"]')).toBeNull();
    expect(container.querySelectorAll('[data-testid="cart-line"]')).toHaveLength(1);
    expect(approvals).toEqual([
      { managerPin: '1111', action: 'void_line', detail: 'Ана Анић: Млеко 2,8% 1 л' },
      { managerPin: '0000', action: 'void_line', detail: 'Ана Анић: Млеко 2,8% 1 л' },
    ]);
  });

  it('edits the quantity with F4 and rejects fractions of a piece', async () => {
    await scan('8600000100018');
    key('F4');
    const input = container.querySelector<HTMLInputElement>('[role="dialog"] input');
    if (!input) throw new Error('no dialog');
    typeInto(input, '1,5');
    await act(async () => input.form?.requestSubmit());
    expect(container.querySelector('[role="dialog"] [role="alert"]')?.textContent).toBe(
      'Комади се продају у целим бројевима.',
    );
    typeInto(input, '3');
    await act(async () => input.form?.requestSubmit());
    expect(container.querySelector('[role="dialog"]')).toBeNull();
    expect(byLabel('Укупно').textContent).toBe('195,00');
  });
});
