// @vitest-environment jsdom
/**
 * The counter and the printer: the status bar says what the printer reports (paper, cover, errors, out of
 * reach, the drawer) in the cashier's language as `print.status` events arrive; the printer is asked when
 * the payment screen opens; „Да ли је рачун одштампан?“ asks the cashier and sends the answer; the fiscal
 * copy's text says whether it really prints.
 */
import { act } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PrintStatus, PrinterCondition } from '../../../shared/contract/printer.ts';
import { UNKNOWN_CONDITION } from '../../../shared/contract/printer.ts';
import type { Language } from '../../../shared/domain.ts';
import type { PosStore } from '../store/index.ts';
import { ok, type FakeApi, type FakeHandlers } from '../testing/fake-api.ts';
import { BREAD, printerFine, printStatus } from '../testing/fixtures.ts';
import { printerAlerts } from './PrinterChips.tsx';
import { testRoot } from '../testing/dom.ts';
import { startTill } from '../testing/till.tsx';

const dom = testRoot();

let store: PosStore;

const ASKED = printerFine('2026-03-02T10:00:00.000Z');
const printer = (over: Partial<PrinterCondition>, status: Partial<PrintStatus> = {}) =>
  printStatus({ printer: { ...ASKED, ...over }, ...status });

async function mount(initial: PrintStatus, lang: Language = 'sr-Cyrl', handlers: FakeHandlers = {}): Promise<FakeApi> {
  const started = await startTill(
    dom.root,
    {
      'settings.get': () => ({ ok: false, error: { code: 'internal', message: 'not in this test' } }),
      'print.status': () => ok(initial),
      ...handlers,
    },
    { lang },
  );
  store = started.store;
  return started.fake;
}

beforeEach(() => {
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
});

const chip = () => dom.container.querySelector<HTMLElement>('[data-testid="printer-condition"]');
const dialog = () => dom.container.querySelector<HTMLElement>('[role="alertdialog"]');
const button = (name: string) => {
  const b = [...dom.container.querySelectorAll('button')].find((x) => x.textContent === name);
  if (!b) throw new Error(`no button ${name}`);
  return b;
};

describe('printerAlerts', () => {
  it('names what stops printing first, a warning last, and nothing for a state that is merely unknown', () => {
    expect(printerAlerts(printStatus())).toEqual([]);
    expect(printerAlerts(printStatus({ printer: UNKNOWN_CONDITION }))).toEqual([]);
    expect(printerAlerts(printer({ paper: 'near_end' })).map((a) => [a.key, a.level])).toEqual([
      ['printerPaperLow', 'warn'],
    ]);
    expect(
      printerAlerts(printer({ coverOpen: true, paper: 'out', online: false }, { state: 'stopped' })).map((a) => a.key),
    ).toEqual(['printerCoverOpen', 'printerPaperOut']);
    expect(printerAlerts(printer({ source: 'unreachable' }, { state: 'offline' }))[0]?.key).toBe('printerOffline');
    expect(printerAlerts(printer({ error: 'cutter', online: false }))[0]?.key).toBe('printerError');
    expect(printerAlerts(printer({ online: false }, { state: 'stopped' }))[0]?.key).toBe('printerStopped');
    // No printer set: the counter's own „Нема штампача“ chip says it.
    expect(printerAlerts(printStatus({ configured: false, state: 'unconfigured', uri: null }))).toEqual([]);
  });
});

describe('the printer on the counter', () => {
  it('shows the printer’s condition as events arrive, in the cashier’s language', async () => {
    const fake = await mount(printStatus());
    expect(chip()).toBeNull();
    act(() => fake.emit('print.status', printer({ paper: 'out', online: false }, { state: 'stopped' })));
    expect(chip()?.textContent).toBe('Нема папира');
    expect(chip()?.dataset.level).toBe('alarm');
    act(() => fake.emit('print.status', printer({ paper: 'near_end' })));
    expect(chip()?.textContent).toBe('Папир при крају');
    expect(chip()?.dataset.level).toBe('warn');
    act(() => fake.emit('print.status', printer({ error: 'cutter', online: false }, { state: 'stopped' })));
    expect(chip()?.textContent).toBe('Грешка штампача');
    expect(chip()?.title).toBe('Грешка штампача: заглављен нож за папир');
    act(() => fake.emit('print.status', printer({ drawerOpen: true })));
    expect(chip()).toBeNull();
    expect(dom.container.querySelector('[data-testid="drawer-open"]')?.textContent).toBe('Фиока отворена');
  });

  it('in Latin and English too', async () => {
    const fake = await mount(printer({ coverOpen: true, online: false }, { state: 'stopped' }), 'sr-Latn');
    expect(chip()?.textContent).toBe('Otvoren poklopac');
    act(() => void store.getState().setLanguage('en'));
    expect(chip()?.textContent).toBe('Cover open');
    act(() => fake.emit('print.status', printer({ source: 'unreachable', online: null }, { state: 'offline' })));
    expect(chip()?.textContent).toBe('Printer unreachable');
    act(() => fake.emit('print.status', printStatus({ held: 3 })));
    expect(dom.container.querySelector('[data-testid="printer-held"]')?.textContent).toBe('Held: 3');
  });

  it('asks the printer when the payment screen opens, and shows what it says', async () => {
    const fake = await mount(printStatus(), 'sr-Cyrl', {
      'print.check': () => ok(printer({ paper: 'out', online: false }, { state: 'stopped' })),
    });
    act(() => store.getState().setScreen('payment'));
    await act(async () => {});
    expect(fake.calls.filter((c) => c.name === 'print.check')).toHaveLength(1);
    expect(chip()?.textContent).toBe('Нема папира');
  });

  it('asks „Да ли је рачун одштампан?“ with the receipt number; „Не“ sends the answer', async () => {
    const asking = printStatus({
      confirm: { jobId: 41, orderId: 7, kind: 'receipt', invoiceNumber: 'AAAA-BBBB-7' },
      printer: UNKNOWN_CONDITION,
    });
    let answered = false;
    const fake = await mount(asking, 'sr-Cyrl', {
      'print.confirm': () => {
        answered = true;
        return ok({ jobId: 41 });
      },
    });
    // The answer is read back with print.status: the question is gone once answered.
    expect(dialog()?.querySelector('h2')?.textContent).toBe('Да ли је рачун одштампан?');
    expect(dialog()?.textContent).toContain('AAAA-BBBB-7');
    expect(document.activeElement).toBe(dialog()); // no answer preselected
    // The counter's keys wait: F12 does not open the payment screen under the question.
    act(() => void store.getState().addProduct(BREAD));
    act(() => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'F12', bubbles: true, cancelable: true }));
    });
    expect(store.getState().screen).toBe('sale');
    await mountAnswer(fake, () => answered);
    expect(fake.calls.filter((c) => c.name === 'print.confirm').map((c) => c.input)).toEqual([
      { jobId: 41, cameOut: false },
    ]);
    expect(dialog()).toBeNull();
  });

  it('„Да, изашао је“ answers yes; a refusal is shown in the cashier’s language and the question stays', async () => {
    const asking = printStatus({ confirm: { jobId: 41, orderId: 7, kind: 'receipt', invoiceNumber: 'AAAA-BBBB-7' } });
    const fake = await mount(asking, 'en', {
      'print.confirm': () => ({
        ok: false,
        error: { code: 'conflict', message: 'Job 41 is not waiting for an answer.' },
      }),
    });
    expect(dialog()?.querySelector('h2')?.textContent).toBe('Did the receipt print?');
    await act(async () => button('Yes, it came out').click());
    expect(fake.calls.filter((c) => c.name === 'print.confirm').map((c) => c.input)).toEqual([
      { jobId: 41, cameOut: true },
    ]);
    expect(dialog()?.querySelector('[role="alert"]')?.textContent).toBe(
      'The answer was not saved: Job 41 is not waiting for an answer.',
    );
  });
});

/** Answers „Не, одштампај поново“; the core then no longer asks (print.status without `confirm`). */
async function mountAnswer(fake: FakeApi, answered: () => boolean) {
  const status = fake.api['print.status'];
  fake.api['print.status'] = async (input) => (answered() ? ok(printStatus()) : status(input));
  await act(async () => button('Не, одштампај поново').click());
}
