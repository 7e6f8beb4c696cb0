/**
 * A day the hub's forms must have (a period's first or last day, an invoice's date): the manager screens'
 * `DateField` in the hub's language, which keeps the day it had while what is typed is not a day.
 */
import { DateField } from '../manager/DateField.tsx';
import { mt } from '../manager/i18n.ts';
import type { HubLang } from './i18n.ts';

export function DayField(props: { lang: HubLang; label: string; value: string; onChange: (day: string) => void }) {
  const { lang } = props;
  return (
    <DateField
      t={(key, params) => mt(lang, key, params)}
      lang={lang}
      label={props.label}
      value={props.value}
      onChange={(d) => d && props.onChange(d)}
      required
    />
  );
}
