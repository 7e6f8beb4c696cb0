import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Keypad } from './Keypad.tsx';
import { FormErrorText } from './TextField.tsx';

/**
 * A PIN pad's state: the PIN typed, the refusal it shows (typing again clears it) and whether the PIN is being
 * sent; `pad` is what the pad takes of it.
 */
export function usePinField() {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pad = {
    value: pin,
    onChange: (v: string) => {
      setPin(v);
      setError(null);
    },
    error,
    busy,
  };
  return { pin, setPin, error, setError, busy, setBusy, pad };
}

/**
 * A PIN sent from a pad: one that does not have a PIN's shape is not sent; a refused one clears the pad
 * (`clear`) and the pad says why (`refused` words the core's message).
 */
export function usePinAttempt() {
  const { t } = useTranslation();
  const field = usePinField();
  const { setError, setBusy } = field;
  const attempt = async (
    pin: string,
    send: () => Promise<string | null>,
    clear: () => void,
    refused: (message: string) => string,
  ): Promise<void> => {
    if (!/^\d{4,8}$/.test(pin)) {
      setError(t('login.format'));
      return;
    }
    setBusy(true);
    const message = await send();
    setBusy(false);
    if (message !== null) {
      clear();
      setError(refused(message));
    }
  };
  return { ...field, attempt };
}

/** The props of a PIN pad: its field, what it says, and what submitting and cancelling do. */
export interface PinPadProps {
  label: string;
  value: string;
  onChange: (v: string) => void;
  onSubmit: () => void;
  submitLabel: string;
  error: string | null;
  busy: boolean;
  onCancel?: () => void;
}

/** The words of a pad's own keys, in the screen's language: the same key names as every pad (Keypad.tsx). */
export interface PinPadWords {
  pad: string;
  backspace: string;
  clear: string;
  cancel: string;
}

/**
 * A PIN field with an on-screen pad: digits typed or touched, Enter (or OK) submits. The field has the
 * focus from the start, so a cashier types the PIN and presses Enter without touching the mouse.
 */
export function PinPad(props: PinPadProps) {
  const { t } = useTranslation();
  return (
    <PinPadView
      {...props}
      words={{
        pad: t('login.pad'),
        backspace: t('pad.backspace'),
        clear: t('pad.clear'),
        cancel: t('action.cancel'),
      }}
    />
  );
}

/** The PIN pad with its words given (the hub UI's login, whose words are its own catalog's). */
export function PinPadView(props: PinPadProps & { words: PinPadWords }) {
  const { words } = props;
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  const press = (d: string) => {
    if (props.value.length < 8) props.onChange(props.value + d);
    ref.current?.focus();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!props.busy) props.onSubmit();
  };
  return (
    <form className="pin-pad" onSubmit={submit} noValidate>
      <label className="field">
        {props.label}
        <input
          ref={ref}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value.replace(/\D/g, '').slice(0, 8))}
          aria-invalid={props.error !== null}
        />
      </label>
      <FormErrorText text={props.error} />
      <Keypad
        label={words.pad}
        words={words}
        onKey={press}
        onBackspace={() => {
          props.onChange(props.value.slice(0, -1));
          ref.current?.focus();
        }}
        onClear={() => {
          props.onChange('');
          ref.current?.focus();
        }}
      />
      <div className="dialog-buttons">
        {props.onCancel && (
          <button type="button" data-close onClick={props.onCancel}>
            {words.cancel} <kbd>Esc</kbd>
          </button>
        )}
        <button type="submit" className="primary" disabled={props.busy}>
          {props.submitLabel} <kbd>Enter</kbd>
        </button>
      </div>
    </form>
  );
}

/** A PIN typed into a form (a manager's approval): hidden, digits on a phone keyboard, never autofilled. */
export function PinInput(props: { value: string; onChange: (v: string) => void; onFocus?: () => void }) {
  return (
    <input
      type="password"
      inputMode="numeric"
      autoComplete="off"
      value={props.value}
      onFocus={props.onFocus}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}
