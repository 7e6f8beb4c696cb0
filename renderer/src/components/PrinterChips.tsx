import { useTranslation } from 'react-i18next';
import type { PrintStatus } from '../../../shared/contract/printer.ts';

/** Something about the printer the cashier must see, most urgent first. */
export interface PrinterAlert {
  key:
    | 'printerOffline'
    | 'printerCoverOpen'
    | 'printerPaperOut'
    | 'printerError'
    | 'printerStopped'
    | 'printerFailed'
    | 'printerPaperLow';
  level: 'alarm' | 'warn';
}

const ERROR_CAUSES = {
  cutter: 'printerCutter',
  mechanical: 'printerMechanical',
  unrecoverable: 'printerUnrecoverable',
  recoverable: 'printerRecoverable',
} as const;

/**
 * What the printer's state means for the counter (a set printer; "no printer" is its own chip): the
 * printer out of reach, a stop it reports (cover, paper, an error), a job that gave up, paper near its end.
 * Nothing when all is well or the state is simply unknown (a printer that does not answer status still
 * prints; saying "unknown" all day would teach the cashier to ignore the bar).
 */
export function printerAlerts(s: PrintStatus): PrinterAlert[] {
  if (!s.configured) return [];
  const p = s.printer;
  const out: PrinterAlert[] = [];
  if (s.state === 'offline' || p.source === 'unreachable') out.push({ key: 'printerOffline', level: 'alarm' });
  if (p.coverOpen === true) out.push({ key: 'printerCoverOpen', level: 'alarm' });
  if (p.paper === 'out') out.push({ key: 'printerPaperOut', level: 'alarm' });
  if (p.error !== null && p.error !== 'none') out.push({ key: 'printerError', level: 'alarm' });
  // The printer stopped (or says it is offline) for a reason it did not name.
  if (out.length === 0 && (s.state === 'stopped' || (p.source === 'printer' && p.online === false)))
    out.push({ key: 'printerStopped', level: 'alarm' });
  if (s.state === 'failed') out.push({ key: 'printerFailed', level: 'alarm' });
  if (p.paper === 'near_end') out.push({ key: 'printerPaperLow', level: 'warn' });
  return out;
}

/**
 * The printer's chips in the status bar: one for its most urgent condition (all of them in its tooltip, so
 * the bar stays one line at 1024 px; once that one is fixed the next shows), the cash drawer left open,
 * and jobs held for the manager.
 */
export function PrinterChips(props: { status: PrintStatus; onHeld?: (() => void) | undefined }) {
  const { t } = useTranslation();
  const s = props.status;
  const alerts = printerAlerts(s);
  const first = alerts[0];
  const cause = s.printer.error && s.printer.error !== 'none' ? ERROR_CAUSES[s.printer.error] : null;
  const details = alerts.map((a) =>
    a.key === 'printerError' && cause ? `${t('status.printerError')}: ${t(`status.${cause}`)}` : t(`status.${a.key}`),
  );
  return (
    <>
      {first && (
        <span
          className={`pill ${first.level}`}
          data-testid="printer-condition"
          data-level={first.level}
          data-condition={first.key}
          title={details.join(' · ')}
        >
          {t(`status.${first.key}`)}
        </span>
      )}
      {s.printer.drawerOpen === true && (
        <span className="pill" data-testid="drawer-open">
          {t('status.printerDrawerOpen')}
        </span>
      )}
      {s.held > 0 && (
        <button
          type="button"
          className="pill warn"
          data-testid="printer-held"
          title={t('status.printerHeldHelp', { count: s.held })}
          aria-label={t('status.printerHeldHelp', { count: s.held })}
          disabled={!props.onHeld}
          onClick={props.onHeld}
        >
          {t('status.printerHeld', { count: s.held })}
        </button>
      )}
    </>
  );
}
