/**
 * The one on-screen digit pad of the till and the hub UI (issue 38: „the PIN pads and amount pads with one
 * layout“). Every pad — the login PIN, a manager's approval, the hub's login, the shift dialog's amounts, the
 * quantity, price and discount dialogs — has the same keys in the same places, as a till's numeric keypad:
 *
 *     7 8 9
 *     4 5 6
 *     1 2 3
 *     , 0 ⌫      (the comma only where a decimal is typed; an empty place otherwise)
 *     % C        (the percent only for a discount; C fills the row otherwise)
 *
 * and the same accessible names for its own keys (`backspace`, `clear`, `comma`, `percent`; a digit is its own
 * name). The keys are out of the tab order: the physical keyboard types into the field itself.
 */

/** The digit keys in their order on screen, row by row (0 is on the fourth row). */
export const KEYPAD_DIGITS = ['7', '8', '9', '4', '5', '6', '1', '2', '3'] as const;

/** The names of the pad's own keys, in the screen's language. */
export interface KeypadWords {
  backspace: string;
  clear: string;
  /** Needed where `decimal` is on. */
  comma?: string;
  /** Needed where `percent` is on. */
  percent?: string;
}

export function Keypad(props: {
  /** The group's accessible name: which pad this is (it must not repeat a field's label). */
  label: string;
  words: KeypadWords;
  /** A digit, `,` or `%` touched. */
  onKey: (key: string) => void;
  onBackspace: () => void;
  onClear: () => void;
  /** Offer the decimal comma (amounts, kg and l). */
  decimal?: boolean;
  /** Offer a `%` key (a discount typed as a share of the line). */
  percent?: boolean;
}) {
  const { words } = props;
  return (
    <div className="keypad" role="group" aria-label={props.label}>
      {KEYPAD_DIGITS.map((d) => (
        <button key={d} type="button" tabIndex={-1} onClick={() => props.onKey(d)}>
          {d}
        </button>
      ))}
      {props.decimal === true ? (
        <button type="button" tabIndex={-1} aria-label={words.comma} onClick={() => props.onKey(',')}>
          ,
        </button>
      ) : (
        <span />
      )}
      <button type="button" tabIndex={-1} onClick={() => props.onKey('0')}>
        0
      </button>
      <button type="button" tabIndex={-1} aria-label={words.backspace} onClick={props.onBackspace}>
        ⌫
      </button>
      {props.percent === true && (
        <button type="button" tabIndex={-1} aria-label={words.percent} onClick={() => props.onKey('%')}>
          %
        </button>
      )}
      <button
        type="button"
        tabIndex={-1}
        className={props.percent === true ? 'wider' : 'wide'}
        aria-label={words.clear}
        onClick={props.onClear}
      >
        C
      </button>
    </div>
  );
}
