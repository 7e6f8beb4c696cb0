// @vitest-environment jsdom
/**
 * The manager's date field: the day in the manager's language whatever the browser's locale, previous and
 * next day by name, a mistake said at the field (and the form told the day is not usable: null).
 */
import { act, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../../shared/domain.ts';
import { createI18n } from '../i18n/index.ts';
import { testRoot } from '../testing/dom.ts';
import { DateField } from './DateField.tsx';
import { useManagerT } from './i18n.ts';

const dom = testRoot();
let seen: (string | null)[] = [];

function Harness(props: { lang: Language; initial: string; required?: boolean }) {
  const t = useManagerT(props.lang);
  const [day, setDay] = useState<string | null>(props.initial);
  return (
    <DateField
      t={t}
      lang={props.lang}
      label={t('shifts_day')}
      value={day}
      required={props.required}
      onChange={(d) => {
        seen.push(d);
        setDay(d);
      }}
    />
  );
}

function render(lang: Language, initial: string, required = false) {
  seen = [];
  act(() =>
    dom.root.render(
      <I18nextProvider i18n={createI18n(lang)}>
        <Harness lang={lang} initial={initial} required={required} />
      </I18nextProvider>,
    ),
  );
  const input = dom.container.querySelector('input');
  if (!input) throw new Error('no input');
  const byName = (name: string) => {
    const b = dom.container.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`);
    if (!b) throw new Error(`no button ${name}`);
    return b;
  };
  const type = (text: string) =>
    act(() => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  const leave = () => act(() => input.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
  const alert = () => dom.container.querySelector('[role="alert"]')?.textContent ?? null;
  return { input, byName, type, leave, alert };
}

describe('the manager’s date field', () => {
  it('shows the day the Serbian way, labelled with its format, and steps a day back and forth by name', () => {
    const f = render('sr-Cyrl', '2026-11-26', true);
    expect(f.input.value).toBe('26.11.2026.');
    expect(f.input.type).toBe('text');
    expect(dom.container.querySelector(`label[for="${f.input.id}"]`)?.textContent).toBe('Дан (дд.мм.гггг.)');
    act(() => f.byName('Претходни дан: Дан').click());
    expect(f.input.value).toBe('25.11.2026.');
    act(() => f.byName('Следећи дан: Дан').click());
    act(() => f.byName('Следећи дан: Дан').click());
    expect(f.input.value).toBe('27.11.2026.');
    expect(seen).toEqual(['2026-11-25', '2026-11-26', '2026-11-27']);
  });

  it('takes a typed day, and tidies it when the manager leaves the field', () => {
    const f = render('sr-Latn', '2026-11-26');
    f.type('1.2.2026');
    expect(seen.at(-1)).toBe('2026-02-01');
    f.leave();
    expect(f.input.value).toBe('01.02.2026.');
    expect(f.alert()).toBeNull();
  });

  it('says at the field what is wrong, in the manager’s language; the form gets null until it is fixed', () => {
    const f = render('sr-Cyrl', '2026-11-26', true);
    f.type('31.04.2026.');
    expect(seen.at(-1)).toBeNull();
    expect(f.alert()).toBeNull(); // not while typing
    f.leave();
    expect(f.alert()).toBe('Датум није исправан: унесите дан, месец и годину, нпр. 26.11.2026.');
    expect(f.input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(f.input.getAttribute('aria-describedby') ?? '')?.textContent).toBe(f.alert());
    f.type('30.04.2026.');
    expect(seen.at(-1)).toBe('2026-04-30');
    expect(f.alert()).toBeNull();
    expect(f.input.getAttribute('aria-invalid')).toBe('false');
    f.type('');
    f.leave();
    expect(seen.at(-1)).toBeNull();
    expect(f.alert()).toBe('Унесите датум.');
  });

  it('in English: day first with slashes, said so in the label; an empty optional day is none', () => {
    const f = render('en', '2026-11-26');
    expect(f.input.value).toBe('26/11/2026');
    expect(dom.container.querySelector('label')?.textContent).toBe('Day (dd/mm/yyyy)');
    f.type('11/26/2026');
    f.leave();
    expect(f.alert()).toBe('Not a date: enter the day, month and year, e.g. 26/11/2026');
    f.type('');
    f.leave();
    expect(seen.at(-1)).toBe('');
    expect(f.alert()).toBeNull();
  });
});
