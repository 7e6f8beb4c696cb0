// @vitest-environment jsdom
/**
 * The manager's L-PFR section: every state in words in each language (never the raw state); the state follows
 * `sync.status`; an address set by KASA_LPFR_URL is said and not offered for change (only the card's PIN is
 * sent, with that address); „Уклони“ sends the empty address with the manager's PIN; a refusal about the PIN
 * is shown at the PIN field.
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { LpfrView } from '../../../shared/contract/settings.ts';
import { LANGUAGES, type Language, type LpfrState, type SyncStatus } from '../../../shared/domain.ts';
import { createFakeApi, ok } from '../testing/fake-api.ts';
import { testRoot } from '../testing/dom.ts';
import { buttonNamed, fieldControl, type } from './test-dom.ts';
import { mt, type ManagerText } from './i18n.ts';
import { LpfrSection, lpfrStateText } from './LpfrSection.tsx';
import { SYNC as ONLINE } from '../testing/fixtures.ts';

const dom = testRoot();

const STATES: LpfrState[] = [
  'unknown',
  'ready',
  'unreachable',
  'card_absent',
  'pin_required',
  'pin_wrong',
  'card_locked',
  'audit_locked',
  'error',
];

const SYNC: SyncStatus = { ...ONLINE, online: false };

function tOf(lang: Language) {
  return (key: ManagerText, params?: Record<string, string | number>) => mt(lang, key, params);
}

async function mount(view: LpfrView, setLpfr: (input: { url: string; pin?: string }) => ReturnType<typeof ok>) {
  const fake = createFakeApi({
    'settings.lpfr': () => ok(view),
    'settings.setLpfr': (input) => setLpfr(input) as never,
  });
  await act(async () => dom.root.render(<LpfrSection api={fake.api} t={tOf('sr-Cyrl')} />));
  return fake;
}

/** The section's settings as the core sends them: an L-PFR set up at its address, ready, unless the test says. */
function lpfrView(patch: Partial<LpfrView>): LpfrView {
  return {
    url: 'http://192.168.1.20:8888',
    urlFromEnv: false,
    hasPin: true,
    state: 'ready',
    esirNumber: null,
    ...patch,
  };
}

function field(label: string): HTMLInputElement | null {
  return fieldControl(dom.container, label);
}

function button(name: string): HTMLButtonElement | undefined {
  return buttonNamed(dom.container, name);
}

/** Types the secure element's PIN and the manager's, and saves. */
async function savePin(pin: string) {
  type(field('ПИН безбедносног елемента') as HTMLInputElement, pin);
  type(field('PIN менаџера') as HTMLInputElement, '9999');
  await act(async () => button('Сачувај локални ПФР')?.click());
}

const text = (testId: string) => dom.container.querySelector(`[data-testid="${testId}"]`)?.textContent;

describe('LpfrSection', () => {
  it('says every state in words in each language, never the raw state', () => {
    for (const lang of LANGUAGES) {
      const words = STATES.map((s) => lpfrStateText(tOf(lang), s));
      for (const [i, w] of words.entries()) {
        expect(w).not.toContain(STATES[i]);
        expect(w).not.toMatch(/lpfr_state/);
      }
      expect(new Set(words).size).toBe(STATES.length);
    }
  });

  it('follows the engine: the card taken out shows at once', async () => {
    const fake = await mount(lpfrView({ uid: 'KS7LPF01' }), () => ok(null));
    expect(text('lpfr-state')).toBe('Спреман: потписује рачуне и без интернета');
    expect(text('lpfr-has-pin')).toBe('сачуван');
    expect(text('lpfr-uid')).toBe('KS7LPF01');
    act(() => fake.emit('sync.status', { ...SYNC, lpfr: 'card_absent' }));
    expect(text('lpfr-state')).toBe('Нема картице безбедносног елемента');
  });

  it('with KASA_LPFR_URL: says so, offers no address or removal, and sends only the PIN with that address', async () => {
    const sent: { url: string; pin?: string }[] = [];
    const view = lpfrView({ url: 'http://10.0.0.5:8888', urlFromEnv: true, hasPin: false, state: 'pin_required' });
    await mount(view, (input) => {
      sent.push(input);
      return ok({ ...view, hasPin: true, state: 'unknown' });
    });
    expect(text('lpfr-env-note')).toContain('KASA_LPFR_URL');
    expect(field('Адреса локалног ПФР-а')).toBeNull();
    expect(button('Уклони локални ПФР')).toBeUndefined();
    await savePin('1234');
    expect(sent).toEqual([{ managerPin: '9999', url: 'http://10.0.0.5:8888', pin: '1234' }]);
    expect(dom.container.textContent).toContain('Локални ПФР је подешен.');
    expect(dom.container.textContent).not.toContain('1234');
  });

  it('„Уклони“ sends the empty address; a refused PIN is shown at the PIN field', async () => {
    const sent: { url: string; pin?: string }[] = [];
    const view = lpfrView({ state: 'pin_wrong' });
    await mount(view, (input) => {
      sent.push(input);
      if (input.pin === '0000')
        return {
          ok: false,
          error: {
            code: 'invalid_input',
            field: 'pin',
            message: 'Погрешан ПИН безбедносног елемента. После 5 погрешних покушаја картица се трајно закључава.',
          },
        } as never;
      return ok({ url: null, urlFromEnv: false, hasPin: false, state: null });
    });
    const pin = field('ПИН безбедносног елемента') as HTMLInputElement;
    await savePin('0000');
    expect(pin.getAttribute('aria-invalid')).toBe('true');
    const described = dom.container.querySelector(`#${pin.getAttribute('aria-describedby')?.split(' ')[0]}`);
    expect(described?.textContent).toMatch(/^Погрешан ПИН безбедносног елемента/);
    await act(async () => button('Уклони локални ПФР')?.click());
    expect(sent.at(-1)).toEqual({ managerPin: '9999', url: '' });
    expect(text('lpfr-state')).toBe('Није подешен: без интернета рачуни чекају у реду и нису фискални.');
    expect(dom.container.textContent).toContain('Локални ПФР је уклоњен');
  });
});
