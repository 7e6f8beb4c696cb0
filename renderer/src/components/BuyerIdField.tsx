/**
 * The buyer ID (ИД купца) as the Tax Administration lists it: a select with every code, named in the UI
 * language, and the identifier, checked by its code's rule (shared/buyer-id.ts). Used by the counter's
 * payment screen and the manager's refund form.
 */
import {
  BUYER_ID_MAX,
  BUYER_ID_TYPES,
  buyerIdType,
  buyerIdentifierError,
  normalizeBuyerIdentifier,
  splitBuyerId,
} from '../../../shared/buyer-id.ts';
import type { Language } from '../../../shared/domain.ts';
import { Options } from '../ui/Options.tsx';

/** The chosen code (`''`: no buyer ID) and the identifier typed. */
export interface BuyerIdValue {
  code: string;
  id: string;
}

export const NO_BUYER_ID: BuyerIdValue = { code: '', id: '' };

/** A stored `code:identifier` as the field's value (a code not in the list: no buyer ID). */
export function buyerIdValue(buyerId: string | undefined): BuyerIdValue {
  const parts = buyerId ? splitBuyerId(buyerId) : null;
  return parts && buyerIdType(parts.code) ? parts : NO_BUYER_ID;
}

/** The buyer ID to send (`{}` when none is chosen), or what is wrong with it in `lang`. */
export function checkBuyerId(value: BuyerIdValue, lang: Language): { buyerId?: string } | { error: string } {
  if (value.code === '') return {};
  const error = buyerIdentifierError(value.code, value.id, lang);
  return error ? { error } : { buyerId: `${value.code}:${value.id}` };
}

const NUMERIC = new Set(['pib', 'jmbg', 'digits9', 'digits12', 'digits13']);

export function BuyerIdField(props: {
  lang: Language;
  value: BuyerIdValue;
  onChange: (value: BuyerIdValue) => void;
  /** The select's name, e.g. „Врста ИД купца“. */
  typeLabel: string;
  /** The identifier's name, e.g. „ИД купца“. */
  idLabel: string;
  /** The option for no buyer ID; absent: a code must be chosen. */
  noneLabel?: string;
  /** The wrapping label's class (`field` at the counter, `mgr-field` in the manager). */
  className: string;
  disabled?: boolean;
  /** Marks the identifier invalid (after a submit attempt). */
  invalid?: boolean;
  /** The id of the message that says what is wrong with it (shown by the caller next to the field). */
  errorId?: string;
}) {
  const { lang, value, onChange } = props;
  const type = buyerIdType(value.code);
  return (
    <>
      <label className={props.className}>
        <span>{props.typeLabel}</span>
        <select
          aria-label={props.typeLabel}
          value={value.code}
          disabled={props.disabled}
          onChange={(e) => onChange({ code: e.target.value, id: value.id })}
        >
          {props.noneLabel !== undefined && <option value="">{props.noneLabel}</option>}
          <Options of={BUYER_ID_TYPES} value={(t) => t.code} text={(t) => `${t.code} – ${t.name[lang]}`} />
        </select>
      </label>
      {type && (
        <label className={props.className}>
          <span>{props.idLabel}</span>
          <input
            value={value.id}
            inputMode={NUMERIC.has(type.rule) ? 'numeric' : 'text'}
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={BUYER_ID_MAX - 3}
            disabled={props.disabled}
            placeholder={type.rule === 'pib_jbkjs' ? (lang === 'sr-Cyrl' ? 'ПИБ:ЈБКЈС' : 'PIB:JBKJS') : undefined}
            onChange={(e) => onChange({ code: value.code, id: normalizeBuyerIdentifier(e.target.value) })}
            aria-invalid={props.invalid === true}
            aria-describedby={props.invalid && props.errorId ? props.errorId : undefined}
          />
        </label>
      )}
    </>
  );
}
