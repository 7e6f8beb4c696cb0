import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePos } from '../context.ts';
import { PinPad } from './PinPad.tsx';

/** Before anything is sold: the cashier identifies with a PIN (`staff.login`). */
export function LoginScreen() {
  const { t } = useTranslation();
  const login = usePos((s) => s.login);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!/^\d{4,8}$/.test(pin)) {
      setError(t('login.format'));
      return;
    }
    setBusy(true);
    const message = await login(pin);
    setBusy(false);
    if (message !== null) {
      setPin('');
      setError(t('login.refused', { message }));
    }
  };
  return (
    <main className="login" aria-label={t('login.title')}>
      <h1>{t('login.title')}</h1>
      <p className="help">{t('login.help')}</p>
      <PinPad
        label={t('login.pin')}
        value={pin}
        onChange={(v) => {
          setPin(v);
          setError(null);
        }}
        onSubmit={() => void submit()}
        submitLabel={t('login.submit')}
        error={error}
        busy={busy}
      />
    </main>
  );
}
