import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { PrintConfirmRequest } from '../../../shared/contract/printer.ts';
import { usePos } from '../context.ts';

const KIND = { receipt: 'Receipt', late: 'Receipt', test: 'Test', slip: 'Slip' } as const;

/**
 * „Да ли је рачун одштампан?“: Kasa could not learn from the printer whether a job came out (it does not
 * answer status, or lost power mid-job), so the cashier looks and answers (`print.confirm`, audited). "No"
 * prints it once more. Neither answer is preselected: a reflex Enter (or a scanner's) must not answer for
 * the cashier, so focus starts on the dialog itself and its keys go no further than the dialog.
 */
export function PrintConfirmDialog(props: { api: PosApi }) {
  const { t } = useTranslation();
  const confirm = usePos((s) => (s.cashier ? (s.printer?.confirm ?? null) : null));
  const [busy, setBusy] = useState(false);
  // The last failed answer, for its job only (a new question starts clean).
  const [failure, setFailure] = useState<{ jobId: number; text: string } | null>(null);
  const refreshPrinter = usePos((s) => s.refreshPrinter);
  const titleId = useId();
  const bodyId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const request: PrintConfirmRequest | null = confirm;
  const jobId = request?.jobId ?? null;
  useEffect(() => {
    if (jobId !== null) ref.current?.focus();
  }, [jobId]);
  if (!request) return null;
  const kind = KIND[request.kind];
  const error = failure?.jobId === request.jobId ? failure.text : null;
  const fail = (message: string) => setFailure({ jobId: request.jobId, text: t('printConfirm.failed', { message }) });
  const answer = async (cameOut: boolean) => {
    setBusy(true);
    setFailure(null);
    try {
      const r = await props.api['print.confirm']({ jobId: request.jobId, cameOut });
      if (!r.ok) return fail(r.error.message);
      // The status event follows the answer; read it too, so the dialog (and the counter's keys, held while
      // it shows) never waits on a missed event.
      await refreshPrinter();
    } catch (e) {
      fail(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="backdrop">
      <div
        ref={ref}
        tabIndex={-1}
        className="modal print-confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        data-testid="print-confirm"
        onKeyDown={(e) => {
          // The counter's own keys (F12 pay, Enter next sale) wait until the cashier answered.
          if (e.key !== 'Tab' && e.key !== 'Enter' && e.key !== ' ') e.preventDefault();
          e.stopPropagation();
        }}
      >
        <h2 id={titleId}>{t(`printConfirm.title${kind}`)}</h2>
        <p id={bodyId}>{t(`printConfirm.body${kind}`, { number: request.invoiceNumber ?? '' })}</p>
        <p className="help">{t('printConfirm.noHelp')}</p>
        {error && (
          <p className="help error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" disabled={busy} onClick={() => void answer(false)}>
            {t('printConfirm.no')}
          </button>
          <button type="button" className="primary" disabled={busy} onClick={() => void answer(true)}>
            {t(`printConfirm.yes${kind}`)}
          </button>
        </div>
      </div>
    </div>
  );
}
