import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../../shared/domain.ts';
import { usePos } from '../context.ts';
import { minutesBetween } from '../format.ts';
import { isLanguage } from '../i18n/index.ts';

/** Ages above these minutes are shown as a warning, then as an alarm. */
const WARN_MINUTES = 30;
const ALARM_MINUTES = 120;

/** Online state, queue, the age of the oldest unfiscalized order, needs-attention count, language. */
export function StatusBar() {
  const { t } = useTranslation();
  const sync = usePos((s) => s.sync);
  const language = usePos((s) => s.language);
  const setLanguage = usePos((s) => s.setLanguage);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(id);
  }, []);
  const age = sync?.oldestQueuedAt ? minutesBetween(sync.oldestQueuedAt, now) : null;
  const ageText =
    age === null
      ? ''
      : age < 1
        ? t('status.justNow')
        : age < 60
          ? t('status.minutes', { count: age })
          : t('status.hours', { count: Math.floor(age / 60), minutes: age % 60 });
  const ageLevel = age === null ? '' : age >= ALARM_MINUTES ? 'alarm' : age >= WARN_MINUTES ? 'warn' : '';
  return (
    <footer className="status-bar" role="status" aria-label={t('status.region')}>
      {sync && (
        <>
          <span className={`pill ${sync.online ? 'ok' : 'bad'}`} data-testid="online">
            {sync.paused ? t('status.paused') : sync.online ? t('status.online') : t('status.offline')}
          </span>
          <span className={`pill ${sync.queued > 0 ? 'warn' : ''}`} data-testid="queued">
            {t('status.queued', { count: sync.queued })}
          </span>
          {age !== null && (
            <span className={`pill ${ageLevel}`} data-testid="oldest">
              {t('status.oldest', { age: ageText })}
            </span>
          )}
          <span className={`pill ${sync.needsAttention > 0 ? 'bad' : ''}`} data-testid="attention">
            {t('status.attention', { count: sync.needsAttention })}
          </span>
        </>
      )}
      <span className="spacer" />
      <label className="lang">
        {t('status.language')}{' '}
        <select
          value={language}
          onChange={(e) => {
            const v = e.target.value;
            if (isLanguage(v)) setLanguage(v);
          }}
        >
          {LANGUAGES.map((l: Language) => (
            <option key={l} value={l}>
              {t(`lang.${l}`)}
            </option>
          ))}
        </select>
      </label>
    </footer>
  );
}
