// @vitest-environment jsdom
/**
 * A touch-only till fills numeric dialogs with the on-screen keypad: the weight of a product sold by
 * weight (decimal comma), a whole quantity of pieces (no comma offered), and a line discount.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { shareOut } from '../store/index.ts';
import { testRoot } from '../testing/dom.ts';
import { ok } from '../testing/fake-api.ts';
import { discountPara } from './Dialogs.tsx';
import { BREAD, CHEESE } from '../testing/fixtures.ts';
import { startTill } from '../testing/till.tsx';

const dom = testRoot();

async function counter() {
  const { store } = await startTill(dom.root, {
    'sales.approveDiscount': () => ok({ approved: 0, approvedBy: null }),
  });
  return store;
}

/** The counter with bread in the cart and `dialog` open on its line. */
async function breadWith(dialog: 'quantity' | 'discount') {
  const store = await counter();
  act(() => void store.getState().addProduct(BREAD));
  act(() => store.getState().openDialog(dialog));
  return store;
}

const pad = (name: string) => {
  const group = dom.container.querySelector<HTMLElement>(`[role="group"][aria-label="${name}"]`);
  if (!group) throw new Error(`no keypad ${name}`);
  return {
    group,
    press: (...keys: string[]) => {
      for (const k of keys) {
        const b = [...group.querySelectorAll('button')].find(
          (x) => (x.getAttribute('aria-label') ?? x.textContent) === k,
        );
        if (!b) throw new Error(`no key ${k}`);
        act(() => b.click());
      }
    },
  };
};
const submit = () =>
  act(async () => void dom.container.querySelector<HTMLFormElement>('[role="dialog"] form')?.requestSubmit());

describe('the on-screen keypad', () => {
  it('types the weight of a product sold by weight, with the decimal comma', async () => {
    const store = await counter();
    act(() => void store.getState().addProduct(CHEESE));
    const keys = pad('Бројчана тастатура');
    keys.press('0', 'Децимални зарез', '5', '9', 'Обриши знак', '5');
    expect(dom.container.querySelector<HTMLInputElement>('[role="dialog"] input')?.value).toBe('0,55');
    await submit();
    expect(store.getState().lines).toMatchObject([{ quantityMilli: 550 }]);
  });

  it('offers no comma for pieces, and clears with C', async () => {
    const store = await breadWith('quantity');
    const keys = pad('Бројчана тастатура');
    expect(keys.group.querySelector('[aria-label="Децимални зарез"]')).toBeNull();
    keys.press('Обриши све', '3');
    await submit();
    expect(store.getState().lines).toMatchObject([{ quantityMilli: 3000 }]);
  });

  it('types a line discount', async () => {
    const store = await breadWith('discount');
    pad('Бројчана тастатура').press('1', '0');
    await submit();
    expect(store.getState().lines[0]?.discountPara).toBe(1000);
  });

  it('types a discount as a share of the line with the % key', async () => {
    const store = await breadWith('discount');
    pad('Бројчана тастатура').press('1', '2', 'Децимални зарез', '5', 'Проценат');
    await submit();
    // 12,5 % of 65,00 = 8,125: rounded half up to 8,13.
    expect(store.getState().lines[0]?.discountPara).toBe(813);
  });
});

describe('discountPara', () => {
  it('reads an amount or a share of the line, rounded half up to the para', () => {
    expect(discountPara('', 6500)).toBe(0);
    expect(discountPara('10,00', 6500)).toBe(1000);
    expect(discountPara('10%', 6500)).toBe(650);
    expect(discountPara(' 10 % ', 6500)).toBe(650);
    expect(discountPara('33,333%', 100)).toBe(33);
    expect(discountPara('0,005%', 10000)).toBe(1); // 0,5 para: half up
    expect(discountPara('x%', 6500)).toBeNull();
    expect(discountPara('1,2345%', 6500)).toBeNull();
  });

  it('a 10 % discount on the whole sale is shared over the lines to the para', async () => {
    const store = await counter();
    act(() => void store.getState().addProduct(BREAD));
    act(() => void store.getState().addProduct(CHEESE));
    act(() => void store.getState().addWeighed(614)); // 0,614 kg × 899,00 = 551,99
    act(() => store.getState().openDialog('discount'));
    const sale = [...dom.container.querySelectorAll<HTMLLabelElement>('[role="dialog"] fieldset label')].find(
      (l) => l.textContent === 'цео рачун',
    );
    act(() => sale?.querySelector('input')?.click());
    expect(dom.container.querySelector('[role="dialog"] h2')?.textContent).toBe('Попуст на цео рачун');
    pad('Бројчана тастатура').press('1', '0', 'Проценат');
    await submit();
    // 10 % of 65,00 + 551,99 = 61,70 (61,699 rounded half up), shared in proportion: 6,50 and 55,20.
    expect(store.getState().lines.map((l) => l.discountPara)).toEqual([650, 5520]);
  });
});

describe('shareOut', () => {
  it('shares to the para in proportion, the odd para to the largest remainders, never above a weight', () => {
    expect(shareOut(100, [1, 1, 1])).toEqual([1, 1, 1]);
    expect(shareOut(10, [1, 1, 1])).toEqual([1, 1, 1]);
    expect(shareOut(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(shareOut(1000, [3333, 3333, 3334])).toEqual([333, 333, 334]);
    expect(shareOut(7, [0, 10])).toEqual([0, 7]);
    expect(shareOut(5, [])).toEqual([]);
    for (let n = 0; n < 200; n++) {
      const weights = Array.from({ length: 1 + (n % 7) }, (_, i) => ((n * 7919 + i * 104729) % 100_000) + 1);
      const amount = (n * 15485863) % 50_000;
      const shares = shareOut(amount, weights);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(
        Math.min(
          amount,
          weights.reduce((a, b) => a + b, 0),
        ),
      );
      shares.forEach((x, i) => expect(x).toBeLessThanOrEqual(weights[i]!));
    }
  });
});
