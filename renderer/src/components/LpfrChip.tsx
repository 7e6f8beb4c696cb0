import { useTranslation } from 'react-i18next';
import { usePos } from '../context.ts';

/**
 * The shop's L-PFR, when one is set up: its state in words (whether a sale made now without the internet gets a
 * fiscal receipt), in the header. The status bar has no room for it: in its busiest state (offline, a queue and
 * its age, a printer chip) it would no longer fit one line at 1024 or at 1366 px.
 */
export function LpfrChip() {
  const { t } = useTranslation();
  const lpfr = usePos((s) => s.sync?.lpfr ?? null);
  if (!lpfr) return null;
  const text = t('lpfr.chip', { state: t(`lpfr.state.${lpfr}`) });
  return (
    <span
      className={`pill lpfr ${lpfr === 'ready' ? 'ok' : lpfr === 'unknown' ? '' : 'warn'}`}
      role="note"
      aria-label={text}
      data-testid="lpfr"
      data-state={lpfr}
    >
      {text}
    </span>
  );
}
