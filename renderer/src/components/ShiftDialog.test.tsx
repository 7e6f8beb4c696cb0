// @vitest-environment jsdom
/**
 * A touch-only till works a shift with the on-screen keypad alone: the opening float, a cash out with the
 * manager's PIN, and the close counted by denomination, each typed by touching keys (no keyboard input).
 * And the dialog's friction (issue 38): the float field has the focus, opening returns to the sale, „Затвори“
 * is never beside „Затвори смену“ (the dialog's own button is „Назад“), the close is blind (no expected drawer
 * before the count), a count by denomination can end in para, and the closed shift shows the sales and refunds
 * with their counts and each payment type's total.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { ShiftView } from '../../../shared/contract/shifts.ts';
import { testRoot, typeInto } from '../testing/dom.ts';
import { ok } from '../testing/fake-api.ts';
import { startTill } from '../testing/till.tsx';

// The machine's clock is not the shop's (issue 38): the dialog's times must still be Belgrade's.
process.env.TZ = 'America/New_York';

const dom = testRoot();

/** A shift kept by the fake core: open, cash in/out, close, with the figures the dialog shows. */
function fakeShifts() {
  let shift: ShiftView | null = null;
  const view = (s: ShiftView): ShiftView => ({
    ...s,
    expectedPara: s.openingFloatPara + s.cashInPara - s.cashOutPara,
  });
  return {
    get current() {
      return shift;
    },
    open: (input: { openingFloat: number }) => {
      shift = view({
        id: 1,
        cashier: 'Ана',
        openedAt: '2026-11-26T07:00:00.000Z',
        closedAt: null,
        closedBy: null,
        openingFloatPara: Math.round(input.openingFloat * 100),
        cashSalesPara: 0,
        cashInPara: 0,
        cashOutPara: 0,
        expectedPara: 0,
        countedPara: null,
        differencePara: null,
        countedDetail: null,
        moves: [],
        sales: { count: 0, totalPara: 0 },
        refunds: { count: 0, totalPara: 0 },
        byPayment: [],
      });
      return ok(shift);
    },
    cash: (input: { kind: 'in' | 'out'; amount: number; reason: string }) => {
      if (!shift) throw new Error('no shift');
      const para = Math.round(input.amount * 100);
      shift = view({
        ...shift,
        cashOutPara: shift.cashOutPara + (input.kind === 'out' ? para : 0),
        cashInPara: shift.cashInPara + (input.kind === 'in' ? para : 0),
        moves: [
          ...shift.moves,
          { id: shift.moves.length + 1, kind: input.kind, amountPara: para, reason: input.reason },
        ],
      } as ShiftView);
      return ok(shift);
    },
    close: (input: { counted: number; denominations?: Partial<Record<string, number>> }) => {
      if (!shift) throw new Error('no shift');
      const counted = Math.round(input.counted * 100);
      const closed: ShiftView = {
        ...shift,
        sales: { count: 3, totalPara: 150_000 },
        refunds: { count: 1, totalPara: 10_000 },
        byPayment: [
          { type: 'cash', netPara: 0 },
          { type: 'card', netPara: 140_000 },
        ],
        closedAt: '2026-11-26T15:00:00.000Z',
        closedBy: 'Менаџер',
        countedPara: counted,
        differencePara: counted - shift.expectedPara,
        countedDetail: (input.denominations as Record<string, number> | undefined) ?? null,
      };
      shift = null;
      return ok(closed);
    },
  };
}

async function counterWithShiftDialog() {
  const shifts = fakeShifts();
  const { fake, store } = await startTill(dom.root, {
    'shifts.current': () => ok(shifts.current),
    'shifts.open': (input) => shifts.open(input),
    'shifts.cash': (input) => shifts.cash(input),
    'shifts.close': (input) => shifts.close(input),
  });
  await act(async () => store.getState().openDialog('shift'));
  return { fake, store };
}

const dialog = () => {
  const d = dom.container.querySelector<HTMLElement>('[role="dialog"]');
  if (!d) throw new Error('no dialog');
  return d;
};
/** The dialog's keypad: keys pressed by their accessible name (a digit is its own name). */
const press = (...keys: string[]) => {
  const group = dialog().querySelector<HTMLElement>('[role="group"][aria-label="Бројчана тастатура"]');
  if (!group) throw new Error('no keypad');
  for (const k of keys) {
    const b = [...group.querySelectorAll('button')].find((x) => (x.getAttribute('aria-label') ?? x.textContent) === k);
    if (!b) throw new Error(`no key ${k}`);
    act(() => b.click());
  }
};
const button = (name: string) => {
  const b = [...dialog().querySelectorAll('button')].find((x) => x.textContent?.trim() === name);
  if (!b) throw new Error(`no button ${name}`);
  return b;
};
const field = (form: string, label: string) => {
  const f = dialog().querySelector(`form[aria-label="${form}"]`) ?? dialog();
  const l = [...f.querySelectorAll('label')].find((x) => x.textContent?.startsWith(label));
  const input = l?.querySelector('input');
  if (!input) throw new Error(`no field ${label}`);
  return input;
};
/** A touch on a field: it takes the focus (and so the keypad), nothing typed. */
const touch = (el: HTMLElement) => act(() => el.focus());

describe('the shift dialog on a touch-only till', () => {
  it('opens a shift with a 5.000,00 float typed on the keypad, then returns to the sale', async () => {
    const { fake, store } = await counterWithShiftDialog();
    expect(dialog().textContent).toContain('Нема отворене смене');
    // The float is the field the cashier types first: it has the focus once the dialog knows there is no shift.
    expect(document.activeElement).toBe(field('Отвори смену', 'Почетни депозит'));
    press('5', '0', '0', '0', 'Децимални зарез', '0', '5', 'Обриши знак', '0');
    expect(field('Отвори смену', 'Почетни депозит').value).toBe('5000,00');
    await act(async () => button('Отвори смену').click());
    expect(fake.calls.filter((c) => c.name === 'shifts.open').map((c) => c.input)).toEqual([{ openingFloat: 5000 }]);
    expect(store.getState().shift).toMatchObject({ openingFloatPara: 500_000 });
    // Opened: the dialog is gone and the notice says the float.
    expect(dom.container.querySelector('[role="dialog"]')).toBeNull();
    expect(dom.container.textContent).toContain('Смена је отворена: почетни депозит 5.000,00 RSD.');
    // The till works in shifts now: it knows so without a reload.
    expect(store.getState().info?.worksInShifts).toBe(true);
  });

  it("shows the shift's opening time on the shop's clock, not the machine's", async () => {
    const { store } = await counterWithShiftDialog();
    press('5', '0', '0', '0');
    await act(async () => button('Отвори смену').click());
    await act(async () => store.getState().openDialog('shift'));
    // Opened at 07:00 UTC: 08:00 in Belgrade, 02:00 in New York (this process's zone).
    expect(new Date('2026-11-26T07:00:00.000Z').getHours()).toBe(2);
    expect(dialog().textContent).toContain('26.11.2026. 08:00');
    expect(dialog().textContent).not.toContain('02:00');
  });

  it('takes cash out and closes the shift counted by denomination, PINs included, on the keypad', async () => {
    const { fake, store } = await counterWithShiftDialog();
    press('5', '0', '0', '0');
    await act(async () => button('Отвори смену').click());
    await act(async () => store.getState().openDialog('shift'));
    // Blind: the float and the moves, never what the drawer should hold, until the count.
    expect(dialog().querySelector('[data-testid="shift-float"]')?.textContent).toBe('5.000,00');
    expect(dialog().querySelector('[data-testid="shift-expected"]')).toBeNull();
    // „Затвори смену“ and the dialog's own button are never both „Затвори“.
    const names = [...dialog().querySelectorAll('button')].map((b) => b.textContent?.trim() ?? '');
    expect(names).toContain('Затвори смену');
    expect(names.filter((n) => /^Затвори\b(?! смену)/.test(n))).toEqual([]);
    expect(names).toContain('Назад Esc');

    // The amount has the keypad first; the PIN field takes it when touched (digits only, no comma).
    const target = () => dialog().querySelector('[data-testid="pad-target"]')?.textContent;
    expect(target()).toBe('Тастатура уписује у: Износ (RSD) (Полози и подизања)');
    press('1', '0', '0', '0');
    // The reason is text: a touch-only till has the system's on-screen keyboard for it.
    typeInto(field('Полози и подизања', 'Разлог'), 'Банка');
    touch(field('Полози и подизања', 'PIN менаџера'));
    expect(target()).toBe('Тастатура уписује у: PIN менаџера (Полози и подизања)');
    expect(dialog().querySelector('[aria-label="Децимални зарез"]')).toBeNull();
    press('0', '0', '0', '0');
    await act(async () => button('Евидентирај').click());
    expect(fake.calls.filter((c) => c.name === 'shifts.cash').map((c) => c.input)).toEqual([
      { kind: 'out', amount: 1000, reason: 'Банка', approval: { managerPin: '0000' } },
    ]);

    // 4.000,00 expected; counted as two 2.000 notes and 50 para, the counts touched in: 0,50 over.
    await act(async () => button('По апоенима').click());
    const twoThousand = dialog().querySelector<HTMLInputElement>('input[aria-label="Комада од 2.000 дин."]');
    if (!twoThousand) throw new Error('no count field');
    touch(twoThousand);
    expect(target()).toBe('Тастатура уписује у: Комада од 2.000 дин. (Затвори смену)');
    press('2');
    expect(twoThousand.value).toBe('2');
    const para = dialog().querySelector<HTMLInputElement>('input[aria-label="Паре (испод динара)"]');
    if (!para) throw new Error('no para field');
    touch(para);
    press('5', '0', '0');
    expect(para.value).toBe('50');
    expect(field('Затвори смену', 'Избројано у каси').value).toBe('4.000,50');
    touch(field('Затвори смену', 'PIN менаџера'));
    press('0', '0', '0', '0');
    await act(async () => dialog().querySelector<HTMLFormElement>('form[aria-label="Затвори смену"]')?.requestSubmit());
    expect(fake.calls.filter((c) => c.name === 'shifts.close').map((c) => c.input)).toEqual([
      { counted: 4000.5, denominations: { '200000': 2, '1': 50 }, approval: { managerPin: '0000' } },
    ]);
    expect(dialog().textContent).toContain('Вишак: 0,50 RSD');
    // After the count: the expected drawer, and the sales, refunds and payment types as on the printed report.
    const shown = (id: string) => dialog().querySelector(`[data-testid="${id}"]`)?.textContent;
    expect(shown('shift-expected')).toBe('4.000,00');
    expect(shown('shift-counted')).toBe('4.000,50');
    expect(shown('shift-difference')).toBe('0,50');
    expect(shown('shift-sales')).toBe('1.500,00');
    expect(shown('shift-refunds')).toBe('-100,00');
    expect(shown('shift-pay-card')).toBe('1.400,00');
    expect(dialog().textContent).toContain('Продаје (3)');
    expect(dialog().textContent).toContain('Рефундације (1)');
    expect(dialog().textContent).toContain('Платна картица');
  });
});
