// @vitest-environment jsdom
/**
 * Every on-screen digit pad has one layout (issue 38): the till's login PIN pad, a manager's approval, the hub's
 * login, the shift dialog's amounts, and the quantity, weight, discount, manual item and price dialogs all show
 * 7-8-9 on top, 0 between the comma's place and ⌫, then C, with the same names for the same keys. The login and
 * approval pads had 1-2-3 on top, ⌫ left of 0 and C named otherwise.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { HubApp } from '../hub-ui/HubApp.tsx';
import { testRoot } from '../testing/dom.ts';
import { ok } from '../testing/fake-api.ts';
import { BREAD, CHEESE } from '../testing/fixtures.ts';
import { startTill } from '../testing/till.tsx';

const dom = testRoot();

/** The one layout, cell by cell (`·` an empty place): the comma's and the percent's places are optional. */
const LAYOUT = ['7', '8', '9', '4', '5', '6', '1', '2', '3', ',|·', '0', 'Обриши знак', '%?', 'Обриши све'];

/** A pad's cells in order, each key by its accessible name (a digit is its own), an empty place as `·`. */
function cells(label: string): string[] {
  const groups = [...dom.container.querySelectorAll<HTMLElement>(`[role="group"][aria-label="${label}"]`)];
  expect(groups, `one pad „${label}“ on screen`).toHaveLength(1);
  return [...groups[0]!.children].map((el) =>
    el.tagName === 'BUTTON' ? (el.getAttribute('aria-label') ?? el.textContent ?? '') : '·',
  );
}

/** The pad's cells against the layout: the comma in its place or an empty one, the percent only where offered. */
function expectLayout(found: string[], options: { comma: boolean; percent: boolean }): void {
  const expected = LAYOUT.flatMap((c) =>
    c === ',|·' ? [options.comma ? 'Децимални зарез' : '·'] : c === '%?' ? (options.percent ? ['Проценат'] : []) : [c],
  );
  expect(found).toEqual(expected);
}

async function counter(loggedIn: boolean) {
  const { store } = await startTill(dom.root, { 'shifts.current': () => ok(null) }, { login: loggedIn });
  return store;
}

describe('one digit pad layout', () => {
  it('the PIN pads: the login, a manager approval and the hub login', async () => {
    await counter(false);
    expectLayout(cells('Тастатура за PIN'), { comma: false, percent: false });
    const store = await counter(true);
    act(() => void store.getState().addProduct(BREAD));
    act(() => store.getState().requestApproval({ kind: 'clearCart' }));
    expect(dom.container.querySelector('[role="dialog"]')).not.toBeNull();
    expectLayout(cells('Тастатура за PIN'), { comma: false, percent: false });
    act(() => dom.root.render(<HubApp />));
    expectLayout(cells('Тастатура за PIN'), { comma: false, percent: false });
  });

  it('the amount pads: the shift, quantity, weight, discount, manual item and price dialogs', async () => {
    const store = await counter(true);
    await act(async () => store.getState().openDialog('shift'));
    expectLayout(cells('Бројчана тастатура'), { comma: true, percent: false });
    act(() => store.getState().openDialog(null));
    act(() => void store.getState().addProduct(BREAD));
    act(() => store.getState().openDialog('quantity'));
    expectLayout(cells('Бројчана тастатура'), { comma: false, percent: false });
    act(() => store.getState().openDialog('discount'));
    expectLayout(cells('Бројчана тастатура'), { comma: true, percent: true });
    act(() => store.getState().openDialog('manual'));
    expectLayout(cells('Бројчана тастатура'), { comma: true, percent: false });
    act(() => store.getState().openDialog('price'));
    expectLayout(cells('Бројчана тастатура'), { comma: true, percent: false });
    act(() => store.getState().openDialog(null));
    act(() => void store.getState().addProduct(CHEESE));
    expectLayout(cells('Бројчана тастатура'), { comma: true, percent: false });
  });
});
