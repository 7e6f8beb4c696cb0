import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../../../shared/domain.ts';
import { minutesBetween } from '../format.ts';
import { isLanguage } from '../i18n/index.ts';
import { PrinterChips } from './PrinterChips.tsx';
import { formatMoment } from '../../../shared/i18n/time.ts';

/** Time left as minutes and seconds (`4:05`), rounded up so that 0:00 is never shown while locked. */
export const countdown = (ms: number): string => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
import { usePosPick } from '../context.ts';
import { Options } from '../ui/Options.tsx';

/**
 * The cashier (and F1 to change), online state, queue, the age of the oldest unfiscalized order (a
 * warning past `outageWarnMinutes`, an alarm past `outageAlarmMinutes`), the needs-attention count when
 * there is any (opens the manager's list; a zero is not shown, so the bar keeps its room on one line), no
 * printer set (receipts are not printing: opens the settings), what the printer reports (paper, cover,
 * errors, the drawer; PrinterChips.tsx), language. The L-PFR's state is in the header
 * (LpfrChip.tsx): with it, the busiest bar did not fit one line at 1024 or 1366 px.
 */
export function StatusBar() {
  const { t } = useTranslation();
  const { sync, printer, language, setLanguage, outage, cashier, logout, openManager, pinLockedUntil } = usePosPick(
    'sync',
    'printer',
    'language',
    'setLanguage',
    'outage',
    'cashier',
    'logout',
    'openManager',
    'pinLockedUntil',
  );
  const [now, setNow] = useState(() => Date.now());
  // Every 15 s; every second while a PIN lockout counts down.
  const locked = pinLockedUntil !== null && Date.parse(pinLockedUntil) > now;
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), locked ? 1000 : 15_000);
    return () => clearInterval(id);
  }, [locked]);
  const age = sync?.oldestQueuedAt ? minutesBetween(sync.oldestQueuedAt, now) : null;
  const ageText =
    age === null
      ? ''
      : age < 1
        ? t('status.justNow')
        : age < 60
          ? t('status.minutes', { count: age })
          : t('status.hours', { count: Math.floor(age / 60), minutes: age % 60 });
  const ageLevel = age === null ? '' : age >= outage.alarmMinutes ? 'alarm' : age >= outage.warnMinutes ? 'warn' : '';
  return (
    <footer className="status-bar" role="status" aria-label={t('status.region')}>
      {cashier && (
        <>
          <span className="pill cashier" data-testid="cashier">
            {t('status.cashier', { name: cashier.name })}
          </span>
          <button type="button" className="link" aria-keyshortcuts="F1" onClick={() => void logout()}>
            {t('action.logout')} <kbd>F1</kbd>
          </button>
        </>
      )}
      {sync && (
        <>
          <span className={`pill ${sync.online ? 'ok' : 'bad'}`} data-testid="online">
            {sync.paused ? t('status.paused') : sync.online ? t('status.online') : t('status.offline')}
          </span>
          <span className={`pill ${sync.queued > 0 ? 'warn' : ''}`} data-testid="queued">
            {t('status.queued', { count: sync.queued })}
          </span>
          {age !== null && (
            <span className={`pill ${ageLevel}`} data-testid="oldest" data-level={ageLevel || 'ok'}>
              {t('status.oldest', { age: ageText })}
              {ageLevel !== '' && <strong> {t(`status.${ageLevel}`)}</strong>}
            </span>
          )}
          {sync.needsAttention > 0 && cashier ? (
            <button type="button" className="pill bad" data-testid="attention" onClick={() => openManager('attention')}>
              {t('status.attention', { count: sync.needsAttention })}
            </button>
          ) : sync.needsAttention > 0 ? (
            <span className="pill bad" data-testid="attention">
              {t('status.attention', { count: sync.needsAttention })}
            </span>
          ) : null}
          {sync.clockWarning && (
            <span className="pill alarm" data-testid="clock">
              {t('status.clock')}
            </span>
          )}
        </>
      )}
      {printer && !printer.configured && (
        // Said all the time, not only when printing: the cashier must know before the customer waits.
        <button
          type="button"
          className="pill alarm"
          data-testid="no-printer"
          title={t('status.noPrinterHelp')}
          disabled={!cashier}
          onClick={() => openManager('settings')}
        >
          {t('status.noPrinter')}
        </button>
      )}
      {printer?.configured && (
        <PrinterChips status={printer} onHeld={cashier ? () => openManager('settings') : undefined} />
      )}
      {locked && pinLockedUntil !== null && (
        <span className="pill alarm" data-testid="pin-locked">
          {t('status.pinLocked', {
            until: formatMoment(pinLockedUntil, language, { timeOnly: true }),
            left: countdown(Date.parse(pinLockedUntil) - now),
          })}
        </span>
      )}
      <span className="spacer" />
      <label className="lang">
        <span className="lang-text">{t('status.language')}</span>
        <select
          value={language}
          onChange={(e) => {
            const v = e.target.value;
            if (isLanguage(v)) setLanguage(v);
          }}
        >
          <Options of={LANGUAGES} text={(l: Language) => t(`lang.${l}`)} />
        </select>
      </label>
    </footer>
  );
}
