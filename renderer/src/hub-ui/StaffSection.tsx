/**
 * The hub UI's staff section: the shop's people (never a PIN hash); the manager logged in deactivates or
 * reactivates a person, or sets a new PIN (a manager's has at least 6 digits, said at the field). The hub
 * decides what is allowed (nobody deactivates themself, the last active manager stays), records it in its
 * audit, ends the person's sessions, and the change reaches the shop's tills with the staff sync.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { HubStaffRow } from '../../../shared/hub/protocol.ts';
import { CheckedField, MgrTable, NoteAndAlert } from '../ui/forms.tsx';
import type { HubT } from './i18n.ts';

/** A call of the hub's admin API with the session (HubApp.tsx `call`). */
export type HubRequest = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** A refusal of the hub as its code says it: the staff codes here, the rest as the hub UI says them. */
function staffErrorText(t: HubT, err: unknown, fallback: (err: unknown) => string): string {
  const code = (err as { code?: unknown } | null)?.code;
  const field = t('staffPinLabel');
  switch (code) {
    case 'staff_self':
      return t('errStaffSelf');
    case 'last_manager':
      return t('errLastManager');
    case 'pin_format':
      return t('errPinFormat', { field });
    case 'pin_short':
      return t('errPinShort', { field });
    case 'pin_taken':
      return t('errPinTaken', { field });
    case 'pin_trivial':
      return t('errPinTrivial', { field });
    default:
      return fallback(err);
  }
}

export function StaffSection(props: { t: HubT; request: HubRequest; errorText: (err: unknown) => string }) {
  const { t, request } = props;
  const [staff, setStaff] = useState<HubStaffRow[] | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The person whose new PIN is being typed. */
  const [pinFor, setPinFor] = useState<HubStaffRow | null>(null);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const fail = (err: unknown): string => staffErrorText(t, err, props.errorText);

  const load = async (): Promise<void> => {
    setStaff((await request<{ staff: HubStaffRow[] }>('GET', '/api/admin/staff')).staff);
  };
  useEffect(() => {
    let alive = true;
    request<{ staff: HubStaffRow[] }>('GET', '/api/admin/staff')
      .then((r) => alive && setStaff(r.staff))
      .catch((err: unknown) => alive && setError(staffErrorText(t, err, props.errorText)));
    return () => {
      alive = false;
    };
    // Loaded once when the section opens; a change reloads it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const toggle = async (p: HubStaffRow): Promise<void> => {
    setNote(null);
    setError(null);
    try {
      await request('POST', '/api/admin/staff/active', { name: p.name, active: !p.active });
      setNote(t(p.active ? 'staffDeactivated' : 'staffReactivated', { name: p.name }));
      await load();
    } catch (err) {
      setError(fail(err));
    }
  };
  const setNewPin = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (!pinFor) return;
    setNote(null);
    setPinError(null);
    try {
      await request('POST', '/api/admin/staff/pin', { name: pinFor.name, pin });
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
      {staff && staff.length === 0 && <p>{t('staffNone')}</p>}
      <MgrTable scroll label={t('staff')} headers={[t('staffName'), t('staffRole'), t('staffState'), t('actions')]}>
        {staff?.map((p) => (
          <tr key={p.name}>
            <td>{p.name}</td>
            <td>{p.role === 'manager' ? t('roleManager') : t('roleCashier')}</td>
            <td>{p.active ? t('staffActive') : t('staffInactive')}</td>
            <td>
              <div className="mgr-actions">
                <button type="button" onClick={() => void toggle(p)}>
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
            </td>
          </tr>
        ))}
      </MgrTable>
      {pinFor && (
        <form
          aria-label={t('staffPinForm', { name: pinFor.name })}
          onSubmit={(e) => void setNewPin(e)}
          className="mgr-panel"
        >
          <h3>{t('staffPinForm', { name: pinFor.name })}</h3>
          <div className="mgr-row mgr-top">
            <CheckedField label={t('staffPinLabel')} error={pinError ?? undefined} errorId="hub-staff-pin-error">
              <input
                type="password"
                inputMode="numeric"
                autoComplete="new-password"
                value={pin}
                aria-describedby={pinError ? 'hub-staff-pin-hint hub-staff-pin-error' : 'hub-staff-pin-hint'}
                aria-invalid={pinError ? true : undefined}
                onChange={(e) => setPin(e.target.value)}
              />
            </CheckedField>
            <div className="mgr-field-actions">
              <button type="submit" className="primary">
                {t('staffSetPin')}
              </button>
              <button type="button" onClick={() => setPinFor(null)}>
                {t('staffCancel')}
              </button>
            </div>
          </div>
          <p id="hub-staff-pin-hint" className="mgr-hint">
            {hint}
          </p>
        </form>
      )}
    </section>
  );
}
