/** Shared pieces of the manager's screens: the command helpers, the form bits and an order's result. */
import { PinInput as BarePinInput } from '../components/PinPad.tsx';
import { createContext, useContext, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { DateField } from './DateField.tsx';
import type { AppError, Result } from '../../../shared/contract/index.ts';
import {
  LANGUAGES,
  PAYMENT_TYPES,
  type Language,
  type OrderView,
  type PaymentType,
  type TaxLabel,
} from '../../../shared/domain.ts';
import { explainGatewayError } from '../../../shared/gateway-errors.ts';
import { PAYMENT_NAMES, taxLabelName } from '../../../shared/i18n/enums.ts';
import { fieldLabel } from '../../../shared/i18n/fields.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { formatRsd } from '../../../shared/money.ts';
import type { ManagerT, ManagerText } from './i18n.ts';
import { Alert, CheckedField, CheckedPinInput, Field, FieldError, MgrTable, NoteAndAlert } from '../ui/forms.tsx';
import { ChoiceSelect } from '../ui/Options.tsx';

/** The form pieces the till's manager screens share with the hub UI (ui/forms.tsx). */
export { Alert, CheckedField, Field, MgrTable, NoteAndAlert };

/** Payment types by name (shared/i18n/enums.ts): every type, in every language. */
export { PAYMENT_NAMES };

/**
 * The person logged in at this till is an active manager: the core approves her own actions without her PIN
 * (electron/auth/guard.ts `selfApprover`), so the manager screens' PIN fields are optional for her and say so
 * („PIN менаџера (није потребан)“); an empty one is not sent. Provided by the manager screen from the session.
 */
export const SelfApproval = createContext(false);

/** The command's own `managerPin` when one was typed; nothing when empty (the core decides, issue 38 §7). */
export const pinOf = (pin: string): { managerPin?: string } => (pin.trim() ? { managerPin: pin.trim() } : {});

/** The `approval` beside a command when a PIN was typed; nothing when empty. */
export const approvalOf = (pin: string): { approval?: { managerPin: string } } =>
  pin.trim() ? { approval: { managerPin: pin.trim() } } : {};

/** The PIN field's label: optional, and saying why, for a manager logged in. */
export function usePinLabel(t: ManagerT): string {
  return useContext(SelfApproval) ? t('manager_pin_self') : t('manager_pin');
}

/** Unwraps a command result: the value, or throws the AppError's message (shown by the caller). */
export async function call<V>(p: Promise<Result<V>>): Promise<V> {
  const r = await p;
  if (!r.ok) throw r.error;
  return r.value;
}

/** Saves what the core made as a file named `fileName`: the browser's download, Electron's save. */
export function saveFile(fileName: string, blob: Blob): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(a.href);
}

/** Saves a file the core made (its name and its bytes in base64). */
export function saveBase64(f: { fileName: string; base64: string }, type: string): void {
  saveFile(f.fileName, new Blob([Uint8Array.from(atob(f.base64), (ch) => ch.charCodeAt(0))], { type }));
}

export function errorText(err: unknown): string {
  const e = err as Partial<AppError>;
  return typeof e.message === 'string' ? e.message : String(err);
}

/** Runs an action: busy while it runs, its error text kept for an alert. */
export type Run = (fn: () => Promise<void>) => Promise<void>;

/**
 * What a tab's forms need to run its commands, as one value: its translator, its action runner (`useAction`) and
 * whether an action of it is running (the forms' buttons wait on it).
 */
export interface Runner {
  t: ManagerT;
  run: Run;
  busy: boolean;
}

/** Runs an action, keeping its error text for an alert. */
export function useAction(): [string | null, boolean, Run] {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run: Run = async (fn) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return [error, busy, run];
}

/** A tab's `Runner` (its actions run with its translator `t`) and the error text its last action left, for an alert. */
export function useRunner(t: ManagerT): [string | null, Runner] {
  const [error, busy, run] = useAction();
  return [error, { t, run, busy }];
}

/**
 * A list the core reads (`read`), read again by `reload`, with the note its last action left: `act` makes a row's
 * action that runs a command on it, says what was done (`done`) and reads the list again.
 */
export function useActedList<V>(read: () => Promise<V>) {
  const [list, setList] = useState<V | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const reload = () => run(async () => setList(await read()));
  const act = (command: () => Promise<Result<unknown>>, done: string) => async () => {
    await call(command());
    setNote(done);
    await reload();
  };
  return { list, note, error, busy, run, reload, act };
}

/** A date and time as the manager's language writes it. */
export function localTime(iso: string, lang: Language): string {
  return formatMoment(iso, lang, { seconds: true });
}

/** A button that runs one action; it waits (disabled) while any action of its tab runs, unless told otherwise. */
export function RunButton(props: {
  run: Run;
  action: () => Promise<void>;
  busy?: boolean;
  /** Replaces `busy` as the disabled state when the button has its own condition. */
  disabled?: boolean;
  pressed?: boolean;
  /** The accessible name when the visible text is shorter (it starts with the visible text). */
  label?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      disabled={props.disabled ?? props.busy}
      aria-pressed={props.pressed}
      aria-label={props.label}
      onClick={() => void props.run(props.action)}
    >
      {props.children}
    </button>
  );
}

/** The submit button of a manager form: it waits while an action of its tab runs. */
export function SubmitButton(props: { busy: boolean; disabled?: boolean; children: ReactNode }) {
  return (
    <button type="submit" disabled={props.busy || props.disabled === true}>
      {props.children}
    </button>
  );
}

/** A one-row form; submitting it does not reload the page. */
export function RowForm(props: { onSubmit: () => void; label?: string; children: ReactNode }) {
  return (
    <form
      className="mgr-row"
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
    </form>
  );
}

/** A form asking only a manager's PIN before it shows something; the PIN is cleared once it was accepted. */
export function PinForm(props: {
  runner: Runner;
  button: string;
  onPin: (managerPin: string) => Promise<void>;
  /** The command is one a manager logged in runs without her PIN (`SELF_APPROVED`). */
  selfApproves?: boolean;
}) {
  const { t, run, busy } = props.runner;
  const [pin, setPin] = useState('');
  return (
    <RowForm
      onSubmit={() =>
        void run(async () => {
          await props.onPin(pin);
          setPin('');
        })
      }
    >
      <PinInput t={t} value={pin} onChange={setPin} selfApproves={props.selfApproves === true} />
      <SubmitButton busy={busy}>{props.button}</SubmitButton>
    </RowForm>
  );
}

/**
 * The from and to days of a date filter (DateField: in the manager's language, '' for none, null while
 * what is typed is not a day).
 */
export function DateRange(props: {
  t: ManagerT;
  lang: Language;
  from: string | null;
  to: string | null;
  onFrom: (v: string | null) => void;
  onTo: (v: string | null) => void;
}) {
  return (
    <>
      <DateField
        t={props.t}
        lang={props.lang}
        label={props.t('date_from')}
        value={props.from}
        onChange={props.onFrom}
      />
      <DateField t={props.t} lang={props.lang} label={props.t('date_to')} value={props.to} onChange={props.onTo} />
    </>
  );
}

/**
 * A day of a filter about to be sent: the day ('' none), or a refusal naming the field when what is typed
 * is not a day (the field itself says how to write one).
 */
export function dayOrRefuse(t: ManagerT, day: string | null, field: string): string {
  if (day === null) throw new Error(t('date_fix', { field }));
  return day;
}

/**
 * The field errors of a form whose refusals name a field: `fail` puts a refusal next to its field (and
 * rethrows any other for the alert), `fielded` makes an action (for `run`) whose refusals go through `fail`,
 * `errorProps` marks the field's control and points it at its message.
 */
export function useFieldErrors<F extends string>(
  labels: Record<F, string>,
  idPrefix: string,
  toField: (e: FieldedError) => string | undefined,
) {
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<F, string>>>({});
  const fail = (err: unknown): void => {
    const hit = fieldError(err, labels, toField);
    if (!hit) throw err;
    setFieldErrors({ [hit.field]: hit.text } as Partial<Record<F, string>>);
  };
  const fielded = (action: () => Promise<void>) => async (): Promise<void> => {
    try {
      await action();
    } catch (err) {
      fail(err);
    }
  };
  const errorProps = (field: F) =>
    fieldErrors[field] ? { 'aria-invalid': true, 'aria-describedby': `${idPrefix}-${field}-error` } : {};
  return { fieldErrors, setFieldErrors, fail, fielded, errorProps };
}

/** Puts one field of an `ApprovedForm` on screen: its label, its control (given its error props), its error. */
export type ApprovedField<F extends string> = (
  field: F,
  control: (errorProps: { 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ReactNode,
  /** The control labels itself (a DateField, a group of checkboxes): only its error is added under it. */
  bare?: boolean,
) => ReactNode;

/**
 * The manager screens' one "fields, the manager's PIN, submit, errors at their fields" form. `onSubmit` gets
 * the PIN typed; a refusal that names a field (`labels`, or the PIN: `managerPin` / `approval.managerPin`) is
 * shown under that field in the person's language, anything else is rethrown to the tab's alert (`run`).
 * The PIN is cleared once accepted, and when it was the PIN that was refused; otherwise it stays.
 */
export function ApprovedForm<F extends string>(props: {
  runner: Runner;
  /** The form's accessible name (several on one tab each have their own). */
  label: string;
  button: string;
  /** Ids of the error messages start with it (unique on the screen). */
  idPrefix: string;
  /** The form's other fields by their contract names, with the labels they show. */
  labels: Record<F, string>;
  onSubmit: (managerPin: string) => Promise<void>;
  children?: (field: ApprovedField<F>) => ReactNode;
  disabled?: boolean;
  /**
   * The command takes no PIN from a manager logged in (the core approves her own action): the field is optional
   * for her and says so. Off for commands the hub checks the PIN of (staff, hub).
   */
  selfApproves?: boolean;
  /** The form's field a refusal at this contract path is about (`items.2.code` → `items`); else its last name. */
  fieldOf?: (path: string) => string | undefined;
}) {
  const { t, run, busy } = props.runner;
  const [pin, setPin] = useState('');
  const selfLabel = usePinLabel(t);
  const labels = {
    ...props.labels,
    managerPin: props.selfApproves === true ? selfLabel : t('manager_pin'),
  } as Record<F | 'managerPin', string>;
  const { fieldErrors, setFieldErrors, fail, errorProps } = useFieldErrors(labels, props.idPrefix, (e) => {
    if (e.field === undefined) return undefined;
    const own = props.fieldOf?.(e.field);
    if (own !== undefined) return own;
    const names = e.field.split('.').filter((k) => !/^\d+$/.test(k));
    return names[0] === 'approval' ? 'managerPin' : names[names.length - 1];
  });
  const field: ApprovedField<F> = (name, control, bare) =>
    bare ? (
      <div key={name} className="mgr-field-group">
        {control(errorProps(name))}
        <FieldError error={fieldErrors[name]} errorId={`${props.idPrefix}-${name}-error`} />
      </div>
    ) : (
      <CheckedField
        key={name}
        label={labels[name]}
        error={fieldErrors[name]}
        errorId={`${props.idPrefix}-${name}-error`}
      >
        {control(errorProps(name))}
      </CheckedField>
    );
  return (
    <RowForm
      label={props.label}
      onSubmit={() =>
        void run(async () => {
          setFieldErrors({});
          try {
            await props.onSubmit(pin);
            setPin('');
          } catch (err) {
            if ((err as FieldedError).field?.endsWith('managerPin')) setPin('');
            fail(err);
          }
        })
      }
    >
      {props.children?.(field)}
      <CheckedPinInput
        label={labels.managerPin}
        error={fieldErrors.managerPin}
        errorId={`${props.idPrefix}-managerPin-error`}
        value={pin}
        onChange={setPin}
      />
      <SubmitButton busy={busy} disabled={props.disabled === true}>
        {props.button}
      </SubmitButton>
    </RowForm>
  );
}

/** A text control's attributes other than its value and its change (which `ApprovedInputs` gives). */
export type InputAttrs = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>;

/**
 * Text fields of an `ApprovedForm` declared as data: each field's key with its control's attributes (`inputs`,
 * in the order shown), its text from `form`, what is typed handed to `onType`.
 */
export function ApprovedInputs<K extends string>(props: {
  field: ApprovedField<K>;
  inputs: Readonly<Record<K, InputAttrs>>;
  form: Readonly<Record<K, string>>;
  onType: (key: K, value: string) => void;
}) {
  // The record's keys are exactly its fields (`Record<K, …>`); Object.keys only forgets that.
  const keys = Object.keys(props.inputs) as K[];
  return (
    <>
      {keys.map((k) =>
        props.field(k, (errorProps) => (
          <input
            {...props.inputs[k]}
            value={props.form[k]}
            {...errorProps}
            onChange={(e) => props.onType(k, e.target.value)}
          />
        )),
      )}
    </>
  );
}

/**
 * One text field of a form held in state, as an `ApprovedForm` field: `form[key]` shown, what is typed put back
 * with `setForm`; `attrs` are the control's own (its size, its keyboard).
 */
export function formInput<K extends string, F extends Record<K, string>>(
  field: ApprovedField<K>,
  form: F,
  setForm: (f: F) => void,
  key: K,
  attrs: InputAttrs = {},
): ReactNode {
  return field(key, (p) => (
    <input {...attrs} value={form[key]} {...p} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
  ));
}

/**
 * The core names a bad field by its label (`fieldLabel`, „ИД купца“; an older core by its contract name `uri`);
 * shown next to that field, the message names it by the label the form shows instead.
 */
export function relabel(text: string, field: string, label: string): string {
  const names = [field, ...LANGUAGES.map((lang) => fieldLabel(lang, field))];
  const alternatives = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return text
    .replace(new RegExp(`([„"“])(?:${alternatives})([“"”])`, 'g'), `$1${label}$2`)
    .replace(new RegExp(`\\((?:${alternatives})\\)`, 'g'), `(${label})`);
}

/** An error as the core sends it: its code and, for bad input or a refused PIN, the contract path of the field. */
export type FieldedError = Partial<AppError> & { field?: string };

/**
 * The form field a refusal is about (`toField` maps the core's error to one of the form's fields) with its
 * message, the contract's field name replaced by the label the person sees; null when it is about none.
 */
export function fieldError<F extends string>(
  err: unknown,
  labels: Record<F, string>,
  toField: (e: FieldedError) => string | undefined,
): { field: F; text: string } | null {
  const raw = err as Partial<AppError> & { field?: unknown };
  const e: FieldedError = { ...raw, field: typeof raw.field === 'string' ? raw.field : undefined };
  const field = toField(e);
  if (!field || !(field in labels)) return null;
  const label = labels[field as F];
  return { field: field as F, text: e.field ? relabel(errorText(err), e.field, label) : errorText(err) };
}

/**
 * A labelled choice among a few fixed values: `options` gives each value's text, in the order shown. Only a value
 * of the list is ever handed on, so the caller's type needs no cast.
 */
export function ChoiceField<V extends string>(props: {
  label: string;
  value: V;
  options: Readonly<Record<V, string>>;
  onChange: (v: V) => void;
}) {
  return (
    <Field label={props.label}>
      <ChoiceSelect value={props.value} options={props.options} onChange={props.onChange} />
    </Field>
  );
}

export function PaymentSelect(props: {
  lang: Language;
  label: string;
  value: PaymentType;
  onChange: (v: PaymentType) => void;
}) {
  return (
    <Field label={props.label}>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value as PaymentType)}>
        {PAYMENT_TYPES.map((p) => (
          <option key={p} value={p}>
            {PAYMENT_NAMES[props.lang][p] ?? p}
          </option>
        ))}
      </select>
    </Field>
  );
}

export function PinInput(props: {
  t: ManagerT;
  value: string;
  onChange: (v: string) => void;
  label?: string;
  /** The command is one a manager logged in runs without her PIN (shared/contract/authz.ts `SELF_APPROVED`). */
  selfApproves?: boolean;
}) {
  const selfLabel = usePinLabel(props.t);
  return (
    <Field label={props.label ?? (props.selfApproves === true ? selfLabel : props.t('manager_pin'))}>
      <BarePinInput value={props.value} onChange={props.onChange} />
    </Field>
  );
}

/** An order's state and, when the gateway complained, the explanation a manager understands. */
export function OrderResult(props: { t: ManagerT; lang: Language; order: OrderView }) {
  const { t, lang, order } = props;
  const stateKey = `state_${order.state}` as ManagerText;
  return (
    <section className="mgr-result" aria-label={t('result')}>
      <p>
        <strong data-testid="mgr-result-state">{t(stateKey)}</strong> · {t('order')} {order.orderNumber} · {t('total')}{' '}
        {formatRsd(order.totalPara)}
      </p>
      {order.receipt && <p data-testid="mgr-result-invoice">{order.receipt.invoiceNumber}</p>}
      {order.receipt && order.processor && (
        <p data-testid="mgr-result-processor">
          {t('signed_by', { processor: t(order.processor === 'lpfr' ? 'processor_lpfr' : 'processor_gateway') })}
        </p>
      )}
      {order.state === 'queued' && (
        <p role="status">
          {order.referencedOrderId && !order.referentDocumentNumber ? t('waits_for') : t('queued_offline')}
        </p>
      )}
      {order.lastError && (
        <div role="alert" className="mgr-error">
          <p>{explainGatewayError(order.lastError, lang).title}</p>
          <p>{explainGatewayError(order.lastError, lang).action}</p>
        </div>
      )}
      {[order.receipt, ...(order.extraReceipts ?? [])].map((r) =>
        r ? (
          <pre key={r.invoiceNumber} className="mgr-journal" aria-label={`${t('journal')} ${r.invoiceNumber}`}>
            {r.journal}
          </pre>
        ) : null,
      )}
    </section>
  );
}

/** Each language by its own name (each in its own script): the options of a language choice. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  'sr-Cyrl': 'Српски (ћирилица)',
  'sr-Latn': 'Srpski (latinica)',
  en: 'English',
};

export function LanguageOptions() {
  return (
    <>
      {LANGUAGES.map((l) => (
        <option key={l} value={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </>
  );
}

/** The till's tax labels as a choice's options, each as labels are written everywhere else (`taxLabelName`). */
export function TaxLabelOptions(props: { lang: Language; labels: readonly TaxLabel[] }) {
  return (
    <>
      {props.labels.map((l) => (
        <option key={l.label} value={l.label}>
          {taxLabelName(props.lang, l)}
        </option>
      ))}
    </>
  );
}
