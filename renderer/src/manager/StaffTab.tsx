/**
 * The manager's staff tab: the till's people; a manager picks one to edit their name, role, e-mail and
 * phone, to deactivate or reactivate them, or to give them a new PIN (never shown back), each with a
 * manager's PIN. The core decides what is allowed (shared/contract/staff.ts `staffChangeRefusal`); a refusal
 * is shown at its field (`ApprovedForm`).
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { StaffRole, StaffView } from '../../../shared/contract/staff.ts';
import {
  formInput,
  call,
  useAction,
  useRunner,
  ApprovedForm,
  type ApprovedField,
  MgrTable,
  PinInput,
  RowForm,
  SubmitButton,
  NoteAndAlert,
  type Runner,
} from './common.tsx';
import type { ManagerT } from './i18n.ts';

/** What one `staff.update` changes of a person (the command's fields but the approval and the person's id). */
type StaffChange = Omit<Parameters<PosApi['staff.update']>[0], 'managerPin' | 'id'>;

/** The details a manager edits, as the form holds them. */
interface Details {
  name: string;
  role: StaffRole;
  email: string;
  phone: string;
}

const detailsOf = (s: StaffView): Details => ({
  name: s.name,
  role: s.role,
  email: s.email ?? '',
  phone: s.phone ?? '',
});

function RoleSelect(props: {
  t: ManagerT;
  value: StaffRole;
  onChange: (v: StaffRole) => void;
  errorProps?: Record<string, unknown>;
}) {
  const { t } = props;
  return (
    <select value={props.value} {...props.errorProps} onChange={(e) => props.onChange(e.target.value as StaffRole)}>
      <option value="cashier">{t('role_cashier')}</option>
      <option value="manager">{t('role_manager')}</option>
    </select>
  );
}

/** How a person's field is typed: a PIN is a secret of digits the browser does not remember. */
const INPUT_KINDS = {
  text: {},
  email: { type: 'email' },
  tel: { type: 'tel' },
  pin: { type: 'password', inputMode: 'numeric', autoComplete: 'off' },
} as const;

/** One field of a person's form held in state, as an `ApprovedForm` field (its label and error beside it). */
function personInput<K extends string, F extends Record<K, string>>(
  field: ApprovedField<K>,
  form: F,
  setForm: (f: F) => void,
  key: K,
  kind: keyof typeof INPUT_KINDS = 'text',
): ReactNode {
  return formInput(field, form, setForm, key, INPUT_KINDS[kind]);
}

/** A person's name and role, the first fields of both the editor and the new person's form. */
function nameAndRole<F extends { name: string; role: StaffRole }>(
  t: ManagerT,
  field: ApprovedField<'name' | 'role'>,
  form: F,
  setForm: (f: F) => void,
): ReactNode {
  return (
    <>
      {personInput(field, form, setForm, 'name')}
      {field('role', (p) => (
        <RoleSelect t={t} value={form.role} errorProps={p} onChange={(role) => setForm({ ...form, role })} />
      ))}
    </>
  );
}

export function StaffTab(props: { api: PosApi; t: ManagerT; onChanged: () => void }) {
  const { api, t } = props;
  const [list, setList] = useState<{ staff: StaffView[]; online: boolean } | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const [pins, setPins] = useState({ currentPin: '', newPin: '' });
  const [note, setNote] = useState<string | null>(null);
  const [error, runner] = useRunner(t);
  const { run } = runner;
  // One's own PIN has its own form, and its refusals stay beside it.
  const [pinError, pinBusy, pinRun] = useAction();
  const [pinNote, setPinNote] = useState<string | null>(null);
  const reload = async () => setList(await call(api['staff.list']({})));
  useEffect(() => {
    void run(reload);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const person = list?.staff.find((s) => s.id === picked) ?? null;
  /** Runs a change, then says what it did and shows the list as it now is. */
  const changed = async (text: string) => {
    setNote(text);
    await reload();
    props.onChanged();
  };
  // Both person forms send through the tab's runner and report their change to the list.
  const formProps = { api, runner, onDone: changed };
  return (
    <div className="mgr-tab">
      {list && !list.online && <p role="status">{t('offline_cache')}</p>}
      <MgrTable
        label={t('staff')}
        headers={[t('name'), t('role'), t('staff_state'), t('staff_email'), t('staff_phone'), '']}
      >
        {list?.staff.map((s) => (
          <tr key={s.id} className={s.id === picked ? 'mgr-picked' : undefined}>
            <td>{s.name}</td>
            <td>{s.role === 'manager' ? t('role_manager') : t('role_cashier')}</td>
            <td>{s.active ? t('staff_active') : t('staff_inactive')}</td>
            <td>{s.email ?? ''}</td>
            <td>{s.phone ?? ''}</td>
            <td>
              <button
                type="button"
                aria-pressed={s.id === picked}
                onClick={() => {
                  setPicked(s.id);
                  setNote(null);
                }}
              >
                {t('staff_pick', { name: s.name })}
              </button>
            </td>
          </tr>
        ))}
      </MgrTable>
      <NoteAndAlert note={note} error={error} />
      {person && <PersonEditor key={person.id} {...formProps} person={person} onClose={() => setPicked(null)} />}
      <h3>{t('staff_add_title')}</h3>
      <AddPerson {...formProps} />
      <h3>{t('change_pin')}</h3>
      <RowForm
        label={t('change_pin')}
        onSubmit={() =>
          void pinRun(async () => {
            setPinNote(null);
            await call(api['staff.changePin'](pins));
            setPins({ currentPin: '', newPin: '' });
            setPinNote(t('saved'));
            props.onChanged();
          })
        }
      >
        <PinInput
          t={t}
          label={t('current_pin')}
          value={pins.currentPin}
          onChange={(v) => setPins({ ...pins, currentPin: v })}
        />
        <PinInput t={t} label={t('new_pin')} value={pins.newPin} onChange={(v) => setPins({ ...pins, newPin: v })} />
        <SubmitButton busy={pinBusy}>{t('save')}</SubmitButton>
      </RowForm>
      <NoteAndAlert note={pinNote} error={pinError} />
    </div>
  );
}

/** One person picked from the list: their details, their activity, a new PIN. */
function PersonEditor(props: {
  api: PosApi;
  runner: Runner;
  person: StaffView;
  onDone: (note: string) => Promise<void>;
  onClose: () => void;
}) {
  const { api, runner, person } = props;
  const { t } = runner;
  const [form, setForm] = useState<Details>(detailsOf(person));
  const [newPin, setNewPin] = useState({ pin: '' });
  const name = person.name;
  /**
   * One of the person's forms: the manager's PIN approves one `staff.update` of this person with what the form
   * changes (`change`; none, and the note says there was nothing to save), and `done` says what was done.
   */
  const updateForm = <F extends string>({
    change,
    done,
    ...form
  }: {
    label: string;
    button: string;
    idPrefix: string;
    labels: Record<F, string>;
    change: () => StaffChange;
    done: (saved: StaffView) => string;
    children: (field: ApprovedField<F>) => ReactNode;
  }) => (
    <ApprovedForm
      runner={runner}
      {...form}
      onSubmit={async (managerPin) => {
        const changed = change();
        if (Object.keys(changed).length === 0) {
          await props.onDone(t('staff_no_change'));
          return;
        }
        const saved = await call(api['staff.update']({ managerPin, id: person.id, ...changed }));
        await props.onDone(done(saved));
      }}
    />
  );
  return (
    <section className="mgr-staff-person" aria-label={t('staff_editing', { name })}>
      <h3>{t('staff_editing', { name })}</h3>
      {updateForm({
        label: t('staff_details'),
        button: t('staff_save'),
        idPrefix: 'staff-edit',
        labels: { name: t('name'), role: t('role'), email: t('staff_email'), phone: t('staff_phone') },
        change: () => {
          const was = detailsOf(person);
          return {
            ...(form.name !== was.name ? { name: form.name } : {}),
            ...(form.role !== was.role ? { role: form.role } : {}),
            ...(form.email !== was.email && form.email !== '' ? { email: form.email } : {}),
            ...(form.phone !== was.phone && form.phone !== '' ? { phone: form.phone } : {}),
          };
        },
        done: (saved) => t('staff_saved', { name: saved.name }),
        children: (field) => (
          <>
            {nameAndRole(t, field, form, setForm)}
            {personInput(field, form, setForm, 'email', 'email')}
            {personInput(field, form, setForm, 'phone', 'tel')}
          </>
        ),
      })}
      {updateForm({
        label: t('staff_activity'),
        button: person.active ? t('staff_deactivate', { name }) : t('staff_reactivate', { name }),
        idPrefix: 'staff-active',
        labels: { active: t('staff_state') },
        change: () => ({ active: !person.active }),
        done: (saved) => t(saved.active ? 'staff_reactivated' : 'staff_deactivated', { name }),
        children: (field) =>
          field('active', (p) => (
            <input
              readOnly
              {...p}
              className="mgr-staff-state"
              value={person.active ? t('staff_active') : t('staff_inactive')}
            />
          )),
      })}
      {updateForm({
        label: t('staff_reset_pin'),
        button: t('staff_set_pin'),
        idPrefix: 'staff-pin',
        labels: { pin: t('staff_new_pin') },
        change: () => ({ pin: newPin.pin }),
        done: () => {
          setNewPin({ pin: '' });
          return t('staff_pin_set', { name });
        },
        children: (field) => personInput(field, newPin, setNewPin, 'pin', 'pin'),
      })}
      <button type="button" onClick={props.onClose}>
        {t('staff_done')}
      </button>
    </section>
  );
}

/** A new person: name, role, their PIN and e-mail, with a manager's PIN. */
function AddPerson(props: { api: PosApi; runner: Runner; onDone: (note: string) => Promise<void> }) {
  const { api, runner } = props;
  const { t } = runner;
  const empty = { name: '', role: 'cashier' as StaffRole, pin: '', email: '' };
  const [form, setForm] = useState(empty);
  return (
    <ApprovedForm
      runner={runner}
      label={t('staff_add_title')}
      button={t('add_person')}
      idPrefix="staff-add"
      labels={{ name: t('name'), role: t('role'), pin: t('pin'), email: t('staff_email') }}
      onSubmit={async (managerPin) => {
        await call(
          api['staff.create']({
            managerPin,
            name: form.name,
            role: form.role,
            pin: form.pin,
            ...(form.email ? { email: form.email } : {}),
          }),
        );
        setForm(empty);
        await props.onDone(t('saved'));
      }}
    >
      {(field) => (
        <>
          {nameAndRole(t, field, form, setForm)}
          {personInput(field, form, setForm, 'pin', 'pin')}
          {personInput(field, form, setForm, 'email', 'email')}
        </>
      )}
    </ApprovedForm>
  );
}
