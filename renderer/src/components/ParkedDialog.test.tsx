// @vitest-environment jsdom
/**
 * The parked list on the counter (F7): Enter resumes the first cart once the list has arrived (it used to
 * close the dialog, focus having landed on Back before the list loaded), deleting asks first, and parking
 * says so.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ParkedSaleSummary } from '../../../shared/contract/catalog.ts';
import type { PosStore } from '../store/index.ts';
import { ok } from '../testing/fake-api.ts';
import { BREAD } from '../testing/fixtures.ts';
import { testRoot } from '../testing/dom.ts';
import { startTill } from '../testing/till.tsx';

const AT = '2026-11-25T09:30:00.000Z';

const dom = testRoot();
let store: PosStore;
let parked: ParkedSaleSummary[];
let deleted: number[];
let taken: number[];

beforeEach(async () => {
  parked = [
    { id: 11, createdAt: AT, name: 'Петар', lines: 1, totalPara: 6500 },
    { id: 12, createdAt: AT, name: 'Мила', lines: 1, totalPara: 6500 },
  ];
  deleted = [];
  taken = [];
  ({ store } = await startTill(dom.root, {
    'parked.list': () => ok(parked),
    'parked.remote': () => ok({ online: false, sales: [] }),
    'parked.save': ({ name }) => ok({ id: 13, createdAt: AT, name: name ?? null, lines: 1, totalPara: 6500 }),
    'parked.delete': ({ id }) => {
      deleted.push(id);
      parked = parked.filter((p) => p.id !== id);
      return ok({ deleted: true as const });
    },
    'parked.take': ({ id }) => {
      taken.push(id);
      const p = parked.find((x) => x.id === id) ?? parked[0]!;
      return ok({
        ...p,
        cart: {
          lines: [
            {
              productId: BREAD.id,
              name: BREAD.name,
              unitPricePara: 6500,
              quantityMilli: 1000,
              discountPara: 0,
              label: 'Ђ',
              unit: 'piece',
            },
          ],
        },
      });
    },
  }));
});

const dialog = () => dom.container.querySelector<HTMLElement>('[role="dialog"]');
const button = (label: string) => dom.container.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);

async function openParked() {
  await act(async () => store.getState().openDialog('parked'));
  await act(async () => {}); // the list arrives
}

describe('the parked list', () => {
  it('focuses the first cart once the list arrives, so Enter resumes it', async () => {
    await openParked();
    const first = button('Настави: Петар — 1 ставка, 65,00 RSD, ' + timeOf(AT));
    expect(first).not.toBeNull();
    expect(document.activeElement).toBe(first);
    await act(async () => first?.click());
    expect(taken).toEqual([11]);
    expect(dialog()).toBeNull();
    expect(store.getState().lines).toHaveLength(1);
  });

  it('asks before deleting: the first press only asks, Cancel keeps the cart, the confirmation deletes it', async () => {
    await openParked();
    const text = 'Мила — 1 ставка, 65,00 RSD, ' + timeOf(AT);
    await act(async () => button(`Обриши: ${text}`)?.click());
    expect(deleted).toEqual([]);
    expect(dialog()?.textContent).toContain('Обрисати паркирану продају?');
    expect(document.activeElement).toBe(button(`Откажи: ${text}`));
    await act(async () => button(`Откажи: ${text}`)?.click());
    expect(deleted).toEqual([]);
    await act(async () => button(`Обриши: ${text}`)?.click());
    await act(async () => button(`Обриши заиста: ${text}`)?.click());
    expect(deleted).toEqual([12]);
    expect(dialog()?.textContent).not.toContain('Мила');
  });

  it('parking says so, with the name when one was given', async () => {
    store.getState().addProduct(BREAD);
    await act(async () => void (await store.getState().park('Јован')));
    expect(dom.container.querySelector('.notice[role="status"] span')?.textContent).toBe('Паркирано: Јован');
    store.getState().addProduct(BREAD);
    await act(async () => void (await store.getState().park()));
    expect(dom.container.querySelector('.notice[role="status"] span')?.textContent).toBe('Продаја је паркирана.');
  });
});

/** The time as the list shows it (hours and minutes in the Serbian locale of the test's time zone). */
/** The shop's clock, whatever the machine's zone: 09:30 UTC on 25 November is 10:30 in Belgrade (CET). */
function timeOf(iso: string): string {
  if (iso !== AT) throw new Error(`no Belgrade time written down for ${iso}`);
  return '10:30';
}

describe('resuming with another cart open', () => {
  it('asks first, Cancel changes nothing, and parking the open cart resumes exactly the parked lines', async () => {
    store.getState().addProduct({ ...BREAD, id: 99, name: 'Уље' });
    await openParked();
    await act(async () => button('Настави: Петар — 1 ставка, 65,00 RSD, ' + timeOf(AT))?.click());
    expect(dialog()?.textContent).toContain('Корпа није празна');
    expect(taken).toEqual([]);
    const byText = (text: string) => [...dom.container.querySelectorAll('button')].find((b) => b.textContent === text);
    await act(async () => byText('Откажи')?.click());
    expect(taken).toEqual([]);
    expect(store.getState().lines.map((l) => l.name)).toEqual(['Уље']);
    await act(async () => button('Настави: Петар — 1 ставка, 65,00 RSD, ' + timeOf(AT))?.click());
    await act(async () => byText('Паркирај тренутну и настави')?.click());
    expect(taken).toEqual([11]);
    expect(store.getState().lines.map((l) => l.name)).toEqual([BREAD.name]);
  });

  it('the store never merges: resume with a cart open and no choice does nothing', async () => {
    store.getState().addProduct(BREAD);
    expect(await store.getState().resume(11)).toBe(false);
    expect(taken).toEqual([]);
    expect(store.getState().lines).toHaveLength(1);
  });
});
