// @vitest-environment jsdom
/**
 * The manager's held print jobs: hidden while nothing is held; with the manager's PIN the list shows each
 * job's kind, receipt number, total and time in the manager's language (no ISO timestamps, no raw codes);
 * the selected ones are printed or dropped with the PIN, and the list is read again.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { HeldJob } from '../../../shared/contract/printer.ts';
import type { Language } from '../../../shared/domain.ts';
import { createFakeApi, ok } from '../testing/fake-api.ts';
import { printStatus } from '../testing/fixtures.ts';
import { mt, type ManagerText } from './i18n.ts';
import { HeldJobs } from './HeldJobs.tsx';
import { testRoot } from '../testing/dom.ts';
import { buttonNamed, type } from './test-dom.ts';

const dom = testRoot();

const RECEIPT: HeldJob = {
  id: 11,
  orderId: 7,
  kind: 'receipt',
  invoiceNumber: 'X4TJ8WQH-X4TJ8WQH-1234',
  totalPara: 167825,
  createdAt: '2026-03-02T09:15:00.000Z',
};
const REPORT: HeldJob = {
  id: 12,
  orderId: null,
  kind: 'slip',
  invoiceNumber: null,
  totalPara: null,
  createdAt: '2026-03-02T09:20:00.000Z',
};

async function mount(held: number, lang: Language = 'sr-Cyrl') {
  let jobs = [RECEIPT, REPORT];
  const fake = createFakeApi({
    'print.status': () => ok(printStatus({ held })),
    'print.held': (input) => (input.managerPin === '1234' ? ok({ jobs }) : fail()),
    'print.resolveHeld': (input) => {
      jobs = jobs.filter((j) => !input.jobIds.includes(j.id));
      return ok(
        input.action === 'print' ? { printed: input.jobIds, dropped: [] } : { printed: [], dropped: input.jobIds },
      );
    },
  });
  const t = (key: ManagerText, params?: Record<string, string | number>) => mt(lang, key, params);
  await act(async () => dom.root.render(<HeldJobs api={fake.api} t={t} lang={lang} />));
  return fake;
}

function fail() {
  return { ok: false as const, error: { code: 'forbidden' as const, message: 'Погрешан PIN (PIN менаџера).' } };
}

function pinField(label: string): HTMLInputElement {
  const fields = [...dom.container.querySelectorAll('label')].filter(
    (l) => l.querySelector('span')?.textContent === label,
  );
  const el = fields.at(-1)?.querySelector('input');
  if (!el) throw new Error(`no input ${label}`);
  return el;
}

function button(name: string): HTMLButtonElement {
  const b = buttonNamed(dom.container, name);
  if (!b) throw new Error(`no button ${name}`);
  return b;
}

function checkbox(name: string): HTMLInputElement {
  const c = [...dom.container.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].find(
    (x) => (x.getAttribute('aria-label') ?? x.closest('label')?.textContent?.trim()) === name,
  );
  if (!c) throw new Error(`no checkbox ${name}`);
  return c;
}

async function showList(pin = '1234', lang: Language = 'sr-Cyrl') {
  type(pinField(mt(lang, 'manager_pin')), pin);
  await act(async () => button(mt(lang, 'held_show')).form?.requestSubmit());
}

const rows = () =>
  [...dom.container.querySelectorAll('tbody tr')].map((tr) =>
    [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent),
  );

describe('held print jobs in the manager’s printer settings', () => {
  it('shows nothing while no job is held, and appears when one is', async () => {
    const fake = await mount(0);
    expect(dom.container.textContent).toBe('');
    act(() => fake.emit('print.status', printStatus({ held: 2 })));
    expect(dom.container.querySelector('[data-testid="held-count"]')?.textContent).toBe('Задржаних послова: 2');
  });

  it('lists the jobs in Serbian words and formats once the PIN is given', async () => {
    await mount(2);
    expect(dom.container.querySelector('table')).toBeNull(); // nothing before the PIN
    await showList();
    // The shop's time (Belgrade, UTC+1 in March), 24 h, in the UI language: never the test machine's zone.
    const when = (iso: string) =>
      ({ [RECEIPT.createdAt]: '02.03.2026. 10:15:00', [REPORT.createdAt]: '02.03.2026. 10:20:00' })[iso];
    expect(rows()).toEqual([
      ['Фискални рачун', 'X4TJ8WQH-X4TJ8WQH-1234', '1.678,25', when(RECEIPT.createdAt)],
      ['Извештај', '—', '—', when(REPORT.createdAt)],
    ]);
    expect(dom.container.textContent).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(dom.container.textContent).not.toMatch(/\b(receipt|slip)\b/);
  });

  it('a wrong PIN shows no list and says why', async () => {
    await mount(2);
    await showList('9999');
    expect(dom.container.querySelector('table')).toBeNull();
    expect(dom.container.querySelector('[role="alert"]')?.textContent).toContain('Погрешан PIN');
  });

  it('prints the selected job with the PIN and reads the list again', async () => {
    const fake = await mount(2);
    await showList();
    act(() => checkbox(`Изабери: Фискални рачун X4TJ8WQH-X4TJ8WQH-1234 02.03.2026. 10:15:00`).click());
    type(pinField('PIN менаџера'), '1234');
    await act(async () => button('Одштампај изабране').form?.requestSubmit());
    expect(fake.calls.filter((c) => c.name === 'print.resolveHeld').map((c) => c.input)).toEqual([
      { managerPin: '1234', jobIds: [11], action: 'print' },
    ]);
    expect(dom.container.querySelector('[role="status"]')?.textContent).toBe('Поново у реду за штампу: 1.');
    expect(rows().map((r) => r[0])).toEqual(['Извештај']);
    expect(pinField('PIN менаџера').value).toBe('');
  });

  it('drops every job with „Select all“, in English', async () => {
    const fake = await mount(2, 'en');
    await showList('1234', 'en');
    expect(rows().map((r) => r[0])).toEqual(['Fiscal receipt', 'Report']);
    act(() => checkbox('Select all').click());
    type(pinField('Manager PIN'), '1234');
    await act(async () => button('Drop selected').click());
    expect(fake.calls.filter((c) => c.name === 'print.resolveHeld').map((c) => c.input)).toEqual([
      { managerPin: '1234', jobIds: [11, 12], action: 'drop' },
    ]);
    expect(dom.container.querySelector('[role="status"]')?.textContent).toBe('Dropped: 2.');
    expect(dom.container.textContent).toContain('No held jobs.');
  });

  it('asks to pick a job before calling the core', async () => {
    const fake = await mount(1, 'sr-Latn');
    await showList('1234', 'sr-Latn');
    type(pinField('PIN menadžera'), '1234');
    await act(async () => button('Odštampaj izabrane').form?.requestSubmit());
    expect(dom.container.querySelector('[role="alert"]')?.textContent).toBe('Izaberite bar jedan posao.');
    expect(fake.calls.some((c) => c.name === 'print.resolveHeld')).toBe(false);
  });
});
