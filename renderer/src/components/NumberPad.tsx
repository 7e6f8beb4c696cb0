/**
 * An on-screen keypad for a number typed the Serbian way (decimal comma), so that a touch-only till can
 * fill every numeric field: the one pad (Keypad.tsx) with the till's words. It edits the text it is given; the
 * physical keyboard still types into the field itself.
 */
import { useTranslation } from 'react-i18next';
import { Keypad } from './Keypad.tsx';

export function NumberPad(props: {
  /** The group's accessible name („Бројчана тастатура“): it must not repeat a field's label. */
  label: string;
  value: string;
  onChange: (text: string) => void;
  /** Offer the decimal comma (amounts, kg and l); whole numbers only without it. */
  decimal: boolean;
  /** Offer a `%` key (a discount typed as a share of the line). */
  percent?: boolean;
}) {
  const { t } = useTranslation();
  const type = (key: string) => {
    if ((key === ',' || key === '%') && props.value.includes(key)) return;
    props.onChange(props.value + key);
  };
  return (
    <Keypad
      label={props.label}
      words={{
        backspace: t('pad.backspace'),
        clear: t('pad.clear'),
        comma: t('pad.comma'),
        percent: t('pad.percent'),
      }}
      onKey={type}
      onBackspace={() => props.onChange(props.value.slice(0, -1))}
      onClear={() => props.onChange('')}
      decimal={props.decimal}
      {...(props.percent !== undefined ? { percent: props.percent } : {})}
    />
  );
}
