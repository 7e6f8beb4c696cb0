// @vitest-environment jsdom
/**
 * The manager's refund form: the buyer ID type selector (found by role and name) is
 * prefilled with the original's buyer ID, a correction without refund of money shows and sends the seller's
 * PIB, and "no buyer ID" is offered only where the manager's setting allows it.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RefundInput, RefundSource } from '../../../shared/contract/refunds.ts';
import type { Language } from '../../../shared/domain.ts';
import { createFakeApi, ok } from '../testing/fake-api.ts';
import { order } from '../testing/fixtures.ts';
import { mt, type ManagerText } from './i18n.ts';
import { RefundTab } from './RefundTab.tsx';
import { testRoot } from '../testing/dom.ts';
import { fieldControl } from './test-dom.ts';
import { SelfApproval } from './common.tsx';

const dom = testRoot();

let refunds: RefundInput[];

const SOURCE: RefundSource = {
  orderId: 7,
  orderNumber: 'T1-20250301-0007',
  invoiceNumber: 'AAAA-BBBB-7',
  sdcDateTime: '2025-03-01T10:00:00Z',
  invoiceType: 'normal',
  state: 'fiscalized',
  totalPara: 54000,
  lines: [
    {
      index: 0,
      name: 'Хлеб',
      labels: ['A'],
      unitPricePara: 8000,
      soldMilli: 3000,
      refundedMilli: 0,
      remainingMilli: 3000,
    },
  ],
  payments: [{ type: 'cash', amountPara: 54000 }],
  fullRefundAllowed: true,
  buyerId: '20:008123456',
  sellerBuyerId: '10:100000017',
  withoutBuyerIdAllowed: false,
};

/** The tab with the receipt looked up; `selfApproval`: a manager is the one logged in at this till. */
async function mount(source: RefundSource, lang: Language = 'sr-Cyrl', selfApproval = false) {
  const fake = createFakeApi({
    'orders.list': () => ok({ orders: [order()], total: 1 }),
    'refunds.source': () => ok(source),
    'refunds.create': (input) => {
      refunds.push(input as RefundInput);
      return ok(order({ orderId: 8, kind: 'refund', transactionType: 'refund' }));
    },
  });
  const t = (key: ManagerText, params?: Record<string, string | number>) => mt(lang, key, params);
  await act(async () =>
    dom.root.render(
      <SelfApproval.Provider value={selfApproval}>
        <RefundTab api={fake.api} t={t} lang={lang} />
      </SelfApproval.Provider>,
    ),
  );
  const query = field<HTMLInputElement>('input', mt(lang, 'original'));
  setValue(query, 'AAAA-BBBB-7');
  await act(async () => query.form?.requestSubmit());
}

beforeEach(() => {
  refunds = [];
});

/** A control by its ARIA role and accessible name (aria-label, else the text of the label around it). */
function byRole<E extends HTMLElement>(role: 'combobox' | 'checkbox', name: string): E {
  const found = [...dom.container.querySelectorAll<HTMLElement>('select, input')].find((el) => {
    const implicit =
      el instanceof HTMLSelectElement
        ? 'combobox'
        : el instanceof HTMLInputElement && el.type === 'checkbox'
          ? 'checkbox'
          : null;
    const label = el.closest('label');
    const accessibleName =
      el.getAttribute('aria-label') ?? (label?.querySelector('span')?.textContent ?? label?.textContent ?? '').trim();
    return (el.getAttribute('role') ?? implicit) === role && accessibleName === name;
  });
  if (!found) throw new Error(`no ${role} named ${name}`);
  return found as E;
}

function field<E extends HTMLElement>(tag: 'input' | 'select', label: string): E {
  const el = fieldControl<E>(dom.container, label, tag);
  if (!el) throw new Error(`no ${tag} ${label}`);
  return el;
}

function setValue(el: HTMLInputElement | HTMLSelectElement, value: string) {
  act(() => {
    const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
}

async function submitRefund() {
  setValue(field<HTMLInputElement>('input', 'PIN менаџера'), '0000');
  const button = [...dom.container.querySelectorAll('button')].find((b) => b.textContent === 'Изврши поврат');
  await act(async () => button?.form?.requestSubmit());
}

describe('the refund form’s buyer ID (issue 21)', () => {
  it('is prefilled with the original’s buyer ID in the type selector, and sends it', async () => {
    await mount(SOURCE);
    const type = byRole<HTMLSelectElement>('combobox', 'Врста ИД купца');
    expect(type.value).toBe('20');
    expect(type.selectedOptions[0]?.textContent).toBe('20 – број личне карте (физичко лице)');
    expect(field<HTMLInputElement>('input', 'ИД купца (број)').value).toBe('008123456');
    // No "without buyer ID" unless the manager's setting allows it.
    expect(() => byRole('checkbox', 'Без ИД купца (дозвољено у подешавањима)')).toThrow();
    act(() => byRole<HTMLInputElement>('checkbox', 'Пун поврат (цео рачун)').click());
    await submitRefund();
    expect(refunds).toEqual([expect.objectContaining({ orderId: 7, full: true, buyerId: '20:008123456' })]);
    expect(refunds[0]).not.toHaveProperty('skipBuyerId');
  });

  it('refuses an identifier against its code’s rule before calling the core', async () => {
    await mount(SOURCE);
    setValue(byRole<HTMLSelectElement>('combobox', 'Врста ИД купца'), '12');
    setValue(field<HTMLInputElement>('input', 'ИД купца (број)'), '101134702');
    await submitRefund();
    expect(dom.container.querySelector('[role="alert"]')?.textContent).toContain('ПИБ:ЈБКЈС');
    expect(refunds).toEqual([]);
  });

  it('a correction without refund of money shows and sends the seller’s PIB', async () => {
    await mount(SOURCE);
    act(() =>
      byRole<HTMLInputElement>('checkbox', 'Исправка грешке без повраћаја новца (ИД купца је ПИБ продавца)').click(),
    );
    const type = byRole<HTMLSelectElement>('combobox', 'Врста ИД купца');
    expect(type.value).toBe('10');
    expect(type.disabled).toBe(true);
    expect(field<HTMLInputElement>('input', 'ИД купца (број)').value).toBe('100000017');
    act(() => byRole<HTMLInputElement>('checkbox', 'Пун поврат (цео рачун)').click());
    await submitRefund();
    expect(refunds).toEqual([expect.objectContaining({ full: true, correction: true })]);
    expect(refunds[0]).not.toHaveProperty('buyerId');
  });

  it('offers "no buyer ID" where the manager allows it, in the UI language', async () => {
    await mount({ ...SOURCE, buyerId: undefined, withoutBuyerIdAllowed: true } as RefundSource, 'en');
    const type = byRole<HTMLSelectElement>('combobox', 'Buyer ID type');
    expect(type.value).toBe('');
    expect(type.querySelector('option[value="23"]')?.textContent).toBe('23 – passport number (Serbian citizen)');
    act(() => byRole<HTMLInputElement>('checkbox', 'No buyer ID (allowed in the settings)').click());
    expect(type.disabled).toBe(true);
  });
});

describe('the refund form at the counter of a busy week (issue 38 §3)', () => {
  const SOLD = order({
    orderId: 7,
    cashier: 'Марко',
    createdAt: '2025-03-01T10:05:00Z',
    totalPara: 54000,
    state: 'fiscalized',
    lines: [
      { name: 'Хлеб', quantityMilli: 3000, unitPricePara: 8000, discountPara: 0, totalPara: 24000, labels: ['A'] },
      { name: 'Млеко', quantityMilli: 2000, unitPricePara: 15000, discountPara: 0, totalPara: 30000, labels: ['A'] },
    ],
  });

  async function mountWith(
    source: RefundSource,
    create: (input: RefundInput) => ReturnType<typeof ok> | { ok: false; error: unknown },
  ) {
    const fake = createFakeApi({
      'orders.list': () => ok({ orders: [SOLD], total: 1 }),
      'refunds.source': () => ok(source),
      'refunds.create': (input) => {
        refunds.push(input as RefundInput);
        return create(input as RefundInput) as never;
      },
    });
    const t = (key: ManagerText, params?: Record<string, string | number>) => mt('sr-Cyrl', key, params);
    await act(async () => dom.root.render(<RefundTab api={fake.api} t={t} lang="sr-Cyrl" />));
  }

  it('the picker says when, who, what and how much: „01.03.2025. 11:05 · Марко · Хлеб, Млеко · 540,00“', async () => {
    await mountWith(SOURCE, () => ok(order()));
    const picker = field<HTMLSelectElement>('select', 'Последње продаје');
    const option = picker.querySelector('option[value="7"]');
    // 10:05 UTC is 11:05 in Belgrade in March.
    expect(option?.textContent).toBe('01.03.2025. 11:05 · Марко · Хлеб, Млеко · 540,00');
  });

  it("the refund is paid back by the original's tender, card here, unless changed", async () => {
    await mountWith({ ...SOURCE, payments: [{ type: 'card', amountPara: 54000 }] }, () => ok(order()));
    const query = field<HTMLInputElement>('input', mt('sr-Cyrl', 'original'));
    setValue(query, 'AAAA-BBBB-7');
    await act(async () => query.form?.requestSubmit());
    expect(field<HTMLSelectElement>('select', 'Начин повраћаја').value).toBe('card');
    act(() => byRole<HTMLInputElement>('checkbox', 'Пун поврат (цео рачун)').click());
    await submitRefund();
    expect(refunds).toEqual([expect.objectContaining({ full: true, paymentType: 'card' })]);
  });

  it('a quantity that is no number, and the core refusing too much, are said under that line; nothing half-sent', async () => {
    await mountWith(SOURCE, () => ({
      ok: false,
      error: {
        code: 'invalid_input',
        field: 'lines.0.quantity',
        message: 'Поврат у пољу „lines.0.quantity“ је већи од преосталог (3) за ставку „Хлеб“.',
        issues: [],
      },
    }));
    const query = field<HTMLInputElement>('input', mt('sr-Cyrl', 'original'));
    setValue(query, 'AAAA-BBBB-7');
    await act(async () => query.form?.requestSubmit());
    const qty = dom.container.querySelector<HTMLInputElement>('input[aria-label="Количина за поврат: Хлеб"]')!;
    setValue(qty, 'два');
    await submitRefund();
    expect(refunds).toEqual([]);
    const said = () => dom.container.querySelector(`#${qty.getAttribute('aria-describedby') ?? 'none'}`)?.textContent;
    expect(qty.getAttribute('aria-invalid')).toBe('true');
    expect(said()).toContain('мора бити број');
    setValue(qty, '5');
    await submitRefund();
    expect(refunds).toHaveLength(1);
    expect(said()).toBe('Поврат у пољу „Количина за поврат: Хлеб“ је већи од преосталог (3) за ставку „Хлеб“.');
  });

  it('no line chosen: said under the lines, not sent', async () => {
    await mountWith(SOURCE, () => ok(order()));
    const query = field<HTMLInputElement>('input', mt('sr-Cyrl', 'original'));
    setValue(query, 'AAAA-BBBB-7');
    await act(async () => query.form?.requestSubmit());
    await submitRefund();
    expect(refunds).toEqual([]);
    expect(dom.container.querySelector('#refund-lines-error')?.textContent).toBe(
      'Упишите количину за бар једну ставку или изаберите потпун поврат.',
    );
  });
});

describe('a manager logged in (issue 38 §7)', () => {
  it('is not asked for her PIN: the field says it is not needed, and an empty one is not sent', async () => {
    await mount(SOURCE, 'sr-Cyrl', true);
    expect(field<HTMLInputElement>('input', 'PIN менаџера (није потребан)').value).toBe('');
    act(() => byRole<HTMLInputElement>('checkbox', 'Пун поврат (цео рачун)').click());
    const button = [...dom.container.querySelectorAll('button')].find((b) => b.textContent === 'Изврши поврат');
    await act(async () => button?.form?.requestSubmit());
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).not.toHaveProperty('managerPin');
  });
});
