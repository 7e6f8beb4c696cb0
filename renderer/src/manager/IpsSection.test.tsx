// @vitest-environment jsdom
/**
 * The manager's IPS section: the stored account and payee name fill the form when they arrive, but never over what
 * the manager has already typed (on a loaded till the answer can come after her first keys; the CI run of
 * 2026-11-29 lost a typed account that way, and the e2e then found no refusal to show).
 */
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { SettingsView } from '../../../shared/contract/settings.ts';
import { createFakeApi, ok } from '../testing/fake-api.ts';
import { testRoot } from '../testing/dom.ts';
import { fieldControl, type } from './test-dom.ts';
import { mt, type ManagerText } from './i18n.ts';
import { IpsSection } from './IpsSection.tsx';

const dom = testRoot();
const t = (key: ManagerText, params?: Record<string, string | number>) => mt('sr-Cyrl', key, params);

function field(label: string): HTMLInputElement {
  const input = fieldControl(dom.container, label);
  if (!input) throw new Error(`no field „${label}“`);
  return input;
}

describe('IpsSection', () => {
  it('keeps what the manager typed when the stored settings arrive after it, and fills the rest', async () => {
    let answer: (v: SettingsView) => void = () => undefined;
    const stored = new Promise<SettingsView>((resolve) => (answer = resolve));
    const fake = createFakeApi({ 'settings.get': async () => ok(await stored) });
    await act(async () => dom.root.render(<IpsSection api={fake.api} t={t} />));
    type(field(t('ips_account')), '840-955845-11');
    await act(async () => {
      answer({ ipsAccount: '', ipsName: 'Продавница Код Мике' } as unknown as SettingsView);
      await stored;
    });
    expect(field(t('ips_account')).value).toBe('840-955845-11');
    expect(field(t('ips_name')).value).toBe('Продавница Код Мике');
  });

  it('shows the stored account when nothing was typed', async () => {
    const fake = createFakeApi({
      'settings.get': () => ok({ ipsAccount: '840000000095584510', ipsName: 'Мика' } as unknown as SettingsView),
    });
    await act(async () => dom.root.render(<IpsSection api={fake.api} t={t} />));
    expect(field(t('ips_account')).value).toBe('840-0000000955845-10');
    expect(field(t('ips_name')).value).toBe('Мика');
  });
});
