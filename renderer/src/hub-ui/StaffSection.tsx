/**
 * The hub UI's staff section: the shop's people (never a PIN hash); the manager logged in adds a person (name,
 * role, first PIN), deactivates or reactivates a person, or sets a new PIN (a manager's has at least 6 digits,
 * said at the field). The hub decides what is allowed (the till's name and PIN rules; the last active manager
 * stays, and nobody else deactivates themself), records it in its audit, ends the person's sessions, and the
 * change reaches the shop's tills with the staff sync. A refusal is said at its field: under the name or PIN
 * typed, or in the row of the person whose state could not change.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { HubStaffRow } from '../../../shared/hub/protocol.ts';
import { CheckedField, CheckedInput, CheckedPinInput, MgrTable, NoteAndAlert } from '../ui/forms.tsx';
import { ChoiceSelect } from '../ui/Options.tsx';
import type { HubKey, HubT } from './i18n.ts';
import type { HubUiApi } from './api.ts';
import { useHubRead } from './useHubRead.ts';

/**
 * The hub's staff refusal codes and the text each is said with; `field` marks a text that names the field typed
 * (the name or a PIN). One table, so a new code is one line.
 */
const STAFF_ERRORS: ReadonlyMap<string, { key: HubKey; field?: true }> = new Map([
  ['staff_self', { key: 'errStaffSelf' }],
  ['last_manager', { key: 'errLastManager' }],
  ['pin_format', { key: 'errPinFormat', field: true }],
  ['pin_short', { key: 'errPinShort', field: true }],
  ['pin_taken', { key: 'errPinTaken', field: true }],
  ['pin_trivial', { key: 'errPinTrivial', field: true }],
  ['staff_name_taken', { key: 'errNameTaken', field: true }],
  ['name_invisible', { key: 'errNameInvisible', field: true }],
  ['name_mixed_script', { key: 'errNameMixed', field: true }],
  ['name_lookalike', { key: 'errNameLookalike', field: true }],
] as const);

/** A refusal of the hub as its code says it: the staff codes here, the rest as the hub UI says them. */
function staffErrorText(
  t: HubT,
  err: unknown,
  fallback: (err: unknown) => string,
  fieldLabel?: 'staffAddName' | 'staffAddPin',
): string {
  const code = (err as { code?: unknown } | null)?.code;
  const said = typeof code === 'string' ? STAFF_ERRORS.get(code) : undefined;
  if (!said) return fallback(err);
  return said.field ? t(said.key, { field: t(fieldLabel ?? 'staffPinLabel') }) : t(said.key);
}

/**
 * A staff form's frame (a new person, a new PIN): named by its heading, its fields in a row with the button that
 * sends it and the one that closes it, and the hint under them that its PIN field points to (`hintId`).
 */
function StaffForm(props: {
  t: HubT;
  title: string;
  onSubmit: (e: FormEvent) => void;
  submit: string;
  onCancel: () => void;
  hintId: string;
  hint: string;
  children: ReactNode;
}) {
  return (
    <form aria-label={props.title} onSubmit={props.onSubmit} className="mgr-panel">
      <h3>{props.title}</h3>
      <div className="mgr-row mgr-top">
        {props.children}
        <div className="mgr-field-actions">
          <button type="submit" className="primary">
            {props.submit}
          </button>
          <button type="button" onClick={props.onCancel}>
            {props.t('staffCancel')}
          </button>
        </div>
      </div>
      <p id={props.hintId} className="mgr-hint">
        {props.hint}
      </p>
    </form>
  );
}

export function StaffSection(props: { t: HubT; api: HubUiApi; errorText: (err: unknown) => string }) {
  const { t, api } = props;
  const [staff, setStaff] = useState<HubStaffRow[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The person whose new PIN is being typed. */
  const [pinFor, setPinFor] = useState<HubStaffRow | null>(null);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const fail = (err: unknown): string => staffErrorText(t, err, props.errorText);
  /** A refusal of a person's state, said in that person's row (by name). */
  const [rowError, setRowError] = useState<{ name: string; text: string } | null>(null);
  /** The new person's form (open or not), its fields and the refusals under them. */
  const [adding, setAdding] = useState(false);
  const [draft, setDraft] = useState<{ name: string; role: 'cashier' | 'manager'; pin: string }>({
    name: '',
    role: 'cashier',
    pin: '',
  });
  const [addErrors, setAddErrors] = useState<{ name?: string; pin?: string }>({});

  const load = async (): Promise<void> => {
    setStaff((await api.call('staff')).staff);
  };
  // Loaded once when the section opens; a change reloads it.
  useHubRead(
    () => api.call('staff'),
    (r) => setStaff(r.staff),
    (err) => setError(staffErrorText(t, err, props.errorText)),
    [],
  );

  const toggle = async (p: HubStaffRow): Promise<void> => {
    setNote(null);
    setError(null);
    setRowError(null);
    try {
      await api.call('staffActive', { name: p.name, active: !p.active });
      setNote(t(p.active ? 'staffDeactivated' : 'staffReactivated', { name: p.name }));
      await load();
    } catch (err) {
      // The hub's staff rules concern this person's state: said in their row, at the button.
      const code = (err as { code?: unknown } | null)?.code;
      if (code === 'last_manager' || code === 'staff_self') setRowError({ name: p.name, text: fail(err) });
      else setError(fail(err));
    }
  };
  const add = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setNote(null);
    setError(null);
    setRowError(null);
    setAddErrors({});
    if (draft.name.trim() === '') {
      setAddErrors({ name: t('errNameEmpty', { field: t('staffAddName') }) });
      return;
    }
    try {
      const r = await api.call('staffAdd', draft);
      setNote(t('staffAdded', { name: r.name }));
      setDraft({ name: '', role: 'cashier', pin: '' });
      setAdding(false);
      await load();
    } catch (err) {
      const { code, field } = (err as { code?: unknown; field?: unknown } | null) ?? {};
      if (field === 'name' || code === 'staff_name_taken')
        setAddErrors({ name: staffErrorText(t, err, props.errorText, 'staffAddName') });
      else if (field === 'pin') setAddErrors({ pin: staffErrorText(t, err, props.errorText, 'staffAddPin') });
      else setError(fail(err));
    }
  };
  const setNewPin = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!pinFor) return;
    setNote(null);
    setPinError(null);
    try {
      await api.call('staffPin', { name: pinFor.name, pin });
      setNote(t('staffPinSet', { name: pinFor.name }));
      setPin('');
      setPinFor(null);
    } catch (err) {
      // The PIN's own refusals go under the PIN; anything else to the section's alert.
      const code = (err as { code?: unknown } | null)?.code;
      if (code === 'pin_format' || code === 'pin_short' || code === 'pin_taken' || code === 'pin_trivial')
        setPinError(fail(err));
      else setError(fail(err));
    }
  };
  const hint = pinFor?.role === 'manager' ? t('staffPinHintManager') : t('staffPinHintCashier');
  return (
    <section aria-label={t('staff')} className="hub-staff mgr-tab">
      <NoteAndAlert note={note} error={error} />
      <div className="mgr-row">
        <button
          type="button"
          aria-expanded={adding}
          onClick={() => {
            setAdding(!adding);
            setRowError(null);
          }}
        >
          {t('staffAdd')}
        </button>
      </div>
      {adding && (
        <StaffForm
          t={t}
          title={t('staffAddForm')}
          onSubmit={(e) => void add(e)}
          submit={t('staffAdd')}
          onCancel={() => setAdding(false)}
          hintId="hub-staff-add-hint"
          hint={t('staffAddHint')}
        >
          <CheckedInput
            label={t('staffAddName')}
            error={addErrors.name}
            errorId="hub-staff-add-name-error"
            value={draft.name}
            onChange={(name) => setDraft({ ...draft, name })}
            input={{ maxLength: 100, autoComplete: 'off' }}
          />
          <CheckedField label={t('staffAddRole')} error={undefined} errorId="hub-staff-add-role-error">
            <ChoiceSelect
              value={draft.role}
              options={{ cashier: t('roleCashier'), manager: t('roleManager') }}
              onChange={(role) => setDraft({ ...draft, role })}
            />
          </CheckedField>
          <CheckedPinInput
            label={t('staffAddPin')}
            error={addErrors.pin}
            errorId="hub-staff-add-pin-error"
            hintId="hub-staff-add-hint"
            value={draft.pin}
            onChange={(pin) => setDraft({ ...draft, pin })}
            input={{ autoComplete: 'new-password', size: 10 }}
          />
        </StaffForm>
      )}
      {staff && staff.length === 0 && <p>{t('staffNone')}</p>}
      <MgrTable scroll label={t('staff')} headers={[t('staffName'), t('staffRole'), t('staffState'), t('actions')]}>
        {staff?.map((p) => (
          <tr key={p.name}>
            <td>{p.name}</td>
            <td>{p.role === 'manager' ? t('roleManager') : t('roleCashier')}</td>
            <td>{p.active ? t('staffActive') : t('staffInactive')}</td>
            <td>
              <div className="mgr-actions">
                <button
                  type="button"
                  aria-describedby={rowError?.name === p.name ? 'hub-staff-row-error' : undefined}
                  onClick={() => void toggle(p)}
                >
                  {t(p.active ? 'staffDeactivate' : 'staffReactivate', { name: p.name })}
                </button>
                <button
                  type="button"
                  aria-pressed={pinFor?.name === p.name}
                  onClick={() => {
                    setPinFor(p);
                    setPin('');
                    setPinError(null);
                  }}
                >
                  {t('staffNewPinFor', { name: p.name })}
                </button>
              </div>
              {rowError?.name === p.name && (
                <span id="hub-staff-row-error" role="alert" className="mgr-error mgr-field-error">
                  {rowError.text}
                </span>
              )}
            </td>
          </tr>
        ))}
      </MgrTable>
      {pinFor && (
        <StaffForm
          t={t}
          title={t('staffPinForm', { name: pinFor.name })}
          onSubmit={(e) => void setNewPin(e)}
          submit={t('staffSetPin')}
          onCancel={() => setPinFor(null)}
          hintId="hub-staff-pin-hint"
          hint={hint}
        >
          <CheckedPinInput
            label={t('staffPinLabel')}
            error={pinError ?? undefined}
            errorId="hub-staff-pin-error"
            hintId="hub-staff-pin-hint"
            value={pin}
            onChange={setPin}
            input={{ autoComplete: 'new-password' }}
          />
        </StaffForm>
      )}
    </section>
  );
}
