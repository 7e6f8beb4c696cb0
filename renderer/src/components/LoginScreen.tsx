import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePos } from '../context.ts';
import { PinPad, usePinAttempt } from './PinPad.tsx';

/**
 * Before anything is sold: the cashier identifies with a PIN (`staff.login`). On a new till the screen
 * says how to begin (the first-run manager's PIN 0000); that PIN opens nothing but choosing a new one,
 * typed twice, so one typo cannot lock the only manager out.
 */
export function LoginScreen() {
  const { t } = useTranslation();
  const login = usePos((s) => s.login);
  const changeFirstPin = usePos((s) => s.changeFirstPin);
  const mustChange = usePos((s) => s.mustChangePin);
  const firstRun = usePos((s) => s.info?.firstRun ?? false);
  const ended = usePos((s) => s.sessionEnded);
  const [pin, setPin] = useState('');
  const [newPin, setNewPin] = useState('');
  const [repeat, setRepeat] = useState<string | null>(null);
  const { error, setError, busy, attempt } = usePinAttempt();
  const refused = (message: string) => t('login.refused', { message });
  const submit = () =>
    attempt(
      pin,
      () => login(pin),
      () => setPin(''),
      refused,
    );
  const submitNew = () => {
    if (repeat === null) {
      // First the new PIN (its format checked here), then the same again.
      if (!/^\d{4,8}$/.test(newPin)) return setError(t('login.format'));
      setError(null);
      setRepeat('');
      return;
    }
    if (repeat !== newPin) {
      setNewPin('');
      setRepeat(null);
      return setError(t('login.mismatch'));
    }
    return attempt(
      newPin,
      () => changeFirstPin(pin, newPin),
      () => {
        setNewPin('');
        setRepeat(null);
      },
      refused,
    );
  };
  const confirming = mustChange && repeat !== null;
  return (
    <main className="login" aria-label={t('login.title')}>
      <h1>{t('login.title')}</h1>
      {ended && (
        <p className="session-ended" role="status">
          {t('login.sessionEnded', { name: ended.name })}
          {ended.lines > 0 && <> {t('login.cartKept', { count: ended.lines })}</>}
        </p>
      )}
      {firstRun && !mustChange && (
        <p className="first-run" role="note">
          {t('login.firstRun')}
        </p>
      )}
      <p className="help">{t(confirming ? 'login.repeatHelp' : mustChange ? 'login.mustChange' : 'login.help')}</p>
      <PinPad
        key={confirming ? 'repeat' : mustChange ? 'new' : 'pin'}
        label={t(confirming ? 'login.repeatPin' : mustChange ? 'login.newPin' : 'login.pin')}
        value={confirming ? repeat : mustChange ? newPin : pin}
        onChange={(v) => {
          (confirming ? setRepeat : mustChange ? setNewPin : setPin)(v);
          if (!confirming) setError(null);
        }}
        onSubmit={() => void (mustChange ? submitNew() : submit())}
        submitLabel={t(confirming ? 'login.change' : mustChange ? 'login.next' : 'login.submit')}
        error={error}
        busy={busy}
      />
    </main>
  );
}
