/**
 * Менаџер → Подешавања → ИПС плаћање: the account customers pay into by scanning the till's IPS QR code and the
 * payee name their bank shows (docs/payments.md). Saved with `settings.update` and the manager's PIN; the core
 * checks the account's control pair and the refusal is shown at its field.
 */
import { useEffect, useRef, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import { formatAccount } from '../../../shared/payments/ips-qr.ts';
import type { ManagerT } from './i18n.ts';
import { call, useRunner, ApprovedForm, ApprovedInputs, NoteAndAlert, type InputAttrs } from './common.tsx';

/** The account (with a sample of how it is written) and the payee name, as the form asks them. */
const IPS_INPUTS: Record<'ipsAccount' | 'ipsName', InputAttrs> = {
  ipsAccount: { inputMode: 'numeric', autoComplete: 'off', size: 22, placeholder: '840-0000000955845-10' },
  ipsName: { autoComplete: 'off', maxLength: 70 },
};

export function IpsSection(props: { api: PosApi; t: ManagerT }) {
  const { api, t } = props;
  const [form, setForm] = useState({ ipsAccount: '', ipsName: '' });
  // A field the manager has typed in keeps what she typed when the stored settings arrive after it.
  const typed = useRef({ ipsAccount: false, ipsName: false });
  const typeIn = (key: 'ipsAccount' | 'ipsName', value: string) => {
    typed.current[key] = true;
    setForm((f) => ({ ...f, [key]: value }));
  };
  const [note, setNote] = useState<string | null>(null);
  const [error, runner] = useRunner(t);
  useEffect(() => {
    void runner.run(async () => {
      const v = await call(api['settings.get']({}));
      setForm((f) => ({
        ipsAccount: typed.current.ipsAccount ? f.ipsAccount : v.ipsAccount ? formatAccount(v.ipsAccount) : '',
        ipsName: typed.current.ipsName ? f.ipsName : v.ipsName,
      }));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <section className="mgr-ips" aria-label={t('ips_title')}>
      <h3>{t('ips_title')}</h3>
      <p className="mgr-hint">{t('ips_hint')}</p>
      <ApprovedForm
        runner={runner}
        label={t('ips_title')}
        button={t('ips_save')}
        idPrefix="ips"
        labels={{ ipsAccount: t('ips_account'), ipsName: t('ips_name') }}
        onSubmit={async (managerPin) => {
          setNote(null);
          const v = await call(
            api['settings.update']({ managerPin, ipsAccount: form.ipsAccount, ipsName: form.ipsName }),
          );
          setForm({ ipsAccount: v.ipsAccount ? formatAccount(v.ipsAccount) : '', ipsName: v.ipsName });
          setNote(v.ipsAccount ? t('ips_saved', { account: formatAccount(v.ipsAccount) }) : t('ips_cleared'));
        }}
      >
        {(field) => <ApprovedInputs field={field} inputs={IPS_INPUTS} form={form} onType={typeIn} />}
      </ApprovedForm>
      <NoteAndAlert note={note} error={error} />
    </section>
  );
}
