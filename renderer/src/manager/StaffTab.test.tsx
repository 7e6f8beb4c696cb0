// @vitest-environment jsdom
/**
 * The manager's staff tab and its `ApprovedForm`: a picked person's change goes with the manager's PIN and
 * only what changed; a refusal naming a field is shown under that field (relabelled to the form's label),
 * a refused manager PIN under the PIN (which is cleared), anything else in the tab's alert.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { StaffView } from '../../../shared/contract/staff.ts';
import type { Result } from '../../../shared/contract/index.ts';
import { createFakeApi, ok } from '../testing/fake-api.ts';
import { testRoot } from '../testing/dom.ts';
import { buttonNamed, fieldControl, type } from './test-dom.ts';
import { mt, type ManagerText } from './i18n.ts';
import { StaffTab } from './StaffTab.tsx';

const dom = testRoot();
const t = (key: ManagerText, params?: Record<string, string | number>) => mt('sr-Cyrl', key, params);

const ANA: StaffView = { id: 2, name: 'Ана Анић', role: 'cashier', active: true, mustChangePin: false };
const ME: StaffView = { id: 1, name: 'Менаџер', role: 'manager', active: true, mustChangePin: false };

type Update = { managerPin: string; id: number } & Record<string, unknown>;

async function mount(update: (input: Update) => Result<StaffView>) {
  const sent: Update[] = [];
  const fake = createFakeApi({
    'staff.list': () => ok({ staff: [ME, ANA], online: true }),
    'staff.update': (input) => {
      sent.push(input as Update);
      return update(input as Update) as never;
    },
  });
  await act(async () => dom.root.render(<StaffTab api={fake.api} t={t} onChanged={() => undefined} />));
  return sent;
}

const form = (name: string) => dom.container.querySelector(`form[aria-label="${name}"]`) as HTMLFormElement;

function field(scope: ParentNode, label: string): HTMLInputElement {
  return fieldControl(scope, label) as HTMLInputElement;
}

const button = (scope: ParentNode, name: string) => buttonNamed(scope, name) as HTMLButtonElement;

const errorOf = (el: HTMLElement) =>
  dom.container.querySelector(`#${el.getAttribute('aria-describedby') ?? 'none'}`)?.textContent;

describe('StaffTab', () => {
  it('sends only what changed, with the manager PIN; a refusal is shown under its field', async () => {
    const sent = await mount((input) =>
      input['name'] === 'Бора'
        ? ({
            ok: false,
            error: {
              code: 'invalid_input',
              field: 'name',
              message: 'Име „Бора“ у пољу „Назив“ већ има друга особа.',
            },
          } as never)
        : ok({ ...ANA, name: String(input['name']) }),
    );
    await act(async () => button(dom.container, 'Измени: Ана Анић').click());
    const details = form('Подаци особе');
    const name = field(details, 'Име');
    type(name, 'Бора');
    type(field(details, 'PIN менаџера'), '482916');
    await act(async () => button(details, 'Сачувај измене').click());
    expect(sent).toEqual([{ managerPin: '482916', id: 2, name: 'Бора' }]);
    expect(name.getAttribute('aria-invalid')).toBe('true');
    // The core's label („Назив“) is replaced by the form's („Име“).
    expect(errorOf(name)).toBe('Име „Бора“ у пољу „Име“ већ има друга особа.');
    // The PIN stays for the next try: it was not what was refused.
    expect(field(details, 'PIN менаџера').value).toBe('482916');
    type(name, 'Ана Петровић');
    await act(async () => button(details, 'Сачувај измене').click());
    expect(sent.at(-1)).toEqual({ managerPin: '482916', id: 2, name: 'Ана Петровић' });
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(dom.container.textContent).toContain('Измене су сачуване: Ана Петровић.');
  });

  it('a refused manager PIN is shown under the PIN, which is cleared; the person stays active', async () => {
    await mount(
      () =>
        ({
          ok: false,
          error: { code: 'forbidden', field: 'managerPin', message: 'Погрешан PIN (PIN менаџера).' },
        }) as never,
    );
    await act(async () => button(dom.container, 'Измени: Ана Анић').click());
    const activity = form('Искључивање и поновно укључивање');
    const pin = field(activity, 'PIN менаџера');
    type(pin, '111111');
    await act(async () => button(activity, 'Искључи: Ана Анић').click());
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(pin)).toBe('Погрешан PIN (PIN менаџера).');
    expect(pin.value).toBe('');
    expect(field(activity, 'Стање').value).toBe('Активна');
  });

  it('a refusal about no field of the form goes to the tab’s alert', async () => {
    await mount(
      () => ({ ok: false, error: { code: 'unavailable', message: 'Фискални сервис није доступан: x' } }) as never,
    );
    await act(async () => button(dom.container, 'Измени: Ана Анић').click());
    const reset = form('Промена PIN-а особе');
    type(field(reset, 'Нови PIN особе'), '8642');
    type(field(reset, 'PIN менаџера'), '482916');
    await act(async () => button(reset, 'Постави нови PIN').click());
    expect(dom.container.querySelector('p[role="alert"]')?.textContent).toBe('Фискални сервис није доступан: x');
  });
});
