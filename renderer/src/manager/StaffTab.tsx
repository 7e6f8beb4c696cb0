/** The manager's staff tab. */
import { useEffect, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { StaffView } from '../../../shared/contract/staff.ts';
import { call, useAction, Field, MgrTable, PinInput, RowForm, SubmitButton, NoteAndAlert } from './common.tsx';
import type { ManagerT } from './i18n.ts';

export function StaffTab(props: { api: PosApi; t: ManagerT; onChanged: () => void }) {
  const { api, t } = props;
  const [list, setList] = useState<{ staff: StaffView[]; online: boolean } | null>(null);
  const [form, setForm] = useState({
    name: '',
    role: 'cashier' as 'cashier' | 'manager',
    pin: '',
    email: '',
    managerPin: '',
  });
  const [pins, setPins] = useState({ currentPin: '', newPin: '' });
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const reload = async () => setList(await call(api['staff.list']({})));
  useEffect(() => {
    void run(reload);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="mgr-tab">
      {list && !list.online && <p role="status">{t('offline_cache')}</p>}
      <MgrTable label={t('staff')} headers={[t('name'), t('role'), t('email')]}>
        {list?.staff.map((s) => (
          <tr key={s.id}>
            <td>{s.name}</td>
            <td>{s.role === 'manager' ? t('role_manager') : t('role_cashier')}</td>
            <td>{s.email ?? ''}</td>
          </tr>
        ))}
      </MgrTable>
      <RowForm
        onSubmit={() =>
          void run(async () => {
            await call(
              api['staff.create']({
                managerPin: form.managerPin,
                name: form.name,
                role: form.role,
                pin: form.pin,
                ...(form.email ? { email: form.email } : {}),
              }),
            );
            setForm({ ...form, name: '', pin: '', email: '', managerPin: '' });
            setNote(t('saved'));
            await reload();
          })
        }
      >
        <Field label={t('name')}>
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field label={t('role')}>
          <select
            value={form.role}
            onChange={(e) => setForm({ ...form, role: e.target.value as 'cashier' | 'manager' })}
          >
            <option value="cashier">{t('role_cashier')}</option>
            <option value="manager">{t('role_manager')}</option>
          </select>
        </Field>
        <PinInput t={t} label={t('pin')} value={form.pin} onChange={(v) => setForm({ ...form, pin: v })} />
        <Field label={t('email')}>
          <input type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </Field>
        <PinInput t={t} value={form.managerPin} onChange={(v) => setForm({ ...form, managerPin: v })} />
        <SubmitButton busy={busy}>{t('add_person')}</SubmitButton>
      </RowForm>
      <h3>{t('change_pin')}</h3>
      <RowForm
        onSubmit={() =>
          void run(async () => {
            await call(api['staff.changePin'](pins));
            setPins({ currentPin: '', newPin: '' });
            setNote(t('saved'));
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
        <SubmitButton busy={busy}>{t('save')}</SubmitButton>
      </RowForm>
      <NoteAndAlert note={note} error={error} />
    </div>
  );
}
