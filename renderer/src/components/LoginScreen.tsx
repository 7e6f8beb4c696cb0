import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePos } from '../context.ts';
import { PinPad, usePinAttempt } from './PinPad.tsx';

/** Before anything is sold: the cashier identifies with a PIN (`staff.login`). */
export function LoginScreen() {
  const { t } = useTranslation();
  const login = usePos((s) => s.login);
  const changeFirstPin = usePos((s) => s.changeFirstPin);
  const mustChange = usePos((s) => s.mustChangePin);
  const [pin, setPin] = useState('');
  const [newPin, setNewPin] = useState('');
  const { error, setError, busy, attempt } = usePinAttempt();
  const refused = (message: string) => t('login.refused', { message });
  const submit = () =>
    attempt(
      pin,
      () => login(pin),
      () => setPin(''),
      refused,
    );
  // The first-run PIN 0000 allows nothing but choosing a new one.
  const submitNew = () =>
    attempt(
      newPin,
      () => changeFirstPin(pin, newPin),
      () => setNewPin(''),
      refused,
    );
  // After the first-run PIN the same pad asks for the new one.
  return (
    <main className="login" aria-label={t('login.title')}>
      <h1>{t('login.title')}</h1>
      <p className="help">{t(mustChange ? 'login.mustChange' : 'login.help')}</p>
      <PinPad
        label={t(mustChange ? 'login.newPin' : 'login.pin')}
        value={mustChange ? newPin : pin}
        onChange={(v) => {
          (mustChange ? setNewPin : setPin)(v);
          setError(null);
        }}
        onSubmit={() => void (mustChange ? submitNew() : submit())}
        submitLabel={t(mustChange ? 'login.change' : 'login.submit')}
        error={error}
        busy={busy}
      />
    </main>
  );
}
