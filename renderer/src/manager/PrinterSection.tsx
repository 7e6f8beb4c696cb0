/** The receipt printer's section of the manager's settings. */
import { presetName } from '../../../shared/i18n/printers.ts';
import { printerErrorText } from '../../../shared/i18n/printer-errors.ts';
import { useEffect, useState, type FormEvent } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import {
  normalizePrinterAddress,
  type PrintStatus,
  type PrinterProfileView,
} from '../../../shared/contract/printer.ts';
import type { Language } from '../../../shared/domain.ts';
import { message } from '../../../shared/messages.ts';
import type { ManagerT, ManagerText } from './i18n.ts';
import {
  approvalOf,
  call,
  localTime,
  usePinLabel,
  useAction,
  useFieldErrors,
  CheckedField,
  Field,
  RunButton,
  SubmitButton,
  NoteAndAlert,
} from './common.tsx';
import { Check } from '../components/Check.tsx';
import { ADDRESS_INPUT, CheckedInput, CheckedPinInput, fieldBinder } from '../ui/forms.tsx';
import { HeldJobs } from './HeldJobs.tsx';
import { printerUriProblem, useInstalledPrinters } from './printer-choice.ts';

type PrinterField = 'uri' | 'profileId' | 'header' | 'footer' | 'managerPin';

/**
 * The receipt printer: its live state (from `print.status`), the address, profile, header/footer and
 * auto-print (saved with `printer.configure` after a manager's approval), a test page and a reprint.
 * `KASA_PRINTER` in the environment overrides the saved address; the section says so.
 */
export function PrinterSection(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [status, setStatus] = useState<PrintStatus | null>(null);
  const [profiles, setProfiles] = useState<PrinterProfileView[]>([]);
  // The printers installed in the system's spooler (Windows printers, CUPS queues); null until listed.
  const installed = useInstalledPrinters(api);
  const [form, setForm] = useState({ uri: '', profileId: '', autoPrint: true, managerPin: '' });
  // null: untouched, so the saved text (`print.status`) is shown and kept as it is.
  const [header, setHeader] = useState<string | null>(null);
  const [footer, setFooter] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const pinLabel = usePinLabel(t);
  const labels: Record<PrinterField, string> = {
    uri: t('printer_address'),
    profileId: t('printer_profile'),
    header: t('printer_header'),
    footer: t('printer_footer'),
    managerPin: pinLabel,
  };
  // Shows an `invalid_input` next to its field; anything else goes to the section's alert.
  const { fieldErrors, setFieldErrors, fielded, errorProps } = useFieldErrors(labels, 'printer', (e) => {
    const head = e.code === 'invalid_input' ? e.field?.split('.')[0] : undefined;
    // The approval's PIN (`approval.managerPin`) is the form's manager PIN field.
    return head === 'approval' ? 'managerPin' : head;
  });

  useEffect(() => {
    const off = api.on('print.status', setStatus);
    void run(async () => {
      const [s, p] = await Promise.all([call(api['print.status']({})), call(api['printer.profiles']({}))]);
      setStatus(s);
      setProfiles(p.profiles);
      setForm((f) => ({
        ...f,
        // An address typed before the status arrived is the person's: it is not overwritten.
        uri: f.uri !== '' ? f.uri : s.uriSource === 'settings' && s.uri ? s.uri : '',
        profileId: p.current,
        autoPrint: s.autoPrint,
      }));
    });
    return off;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api]);

  const save = (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    setFieldErrors({});
    // `192.168.1.50:9100` as printed on the printer's self-test page is saved as `tcp://192.168.1.50:9100`.
    const uri = normalizePrinterAddress(form.uri);
    // The same rule the core applies, checked before the manager's approval is asked for and audited.
    const problem = printerUriProblem(uri);
    if (problem) {
      setFieldErrors({ uri: message(lang, problem, { field: labels.uri }) });
      return;
    }
    void run(
      fielded(async () => {
        // The manager's PIN travels with the command; the core checks and audits it.
        const s = await call(
          api['printer.configure']({
            ...approvalOf(form.managerPin),
            uri,
            profileId: form.profileId,
            autoPrint: form.autoPrint,
            ...(header !== null ? { header } : {}),
            ...(footer !== null ? { footer } : {}),
          }),
        );
        setStatus(s);
        setForm({ ...form, uri, managerPin: '' });
        setHeader(null);
        setFooter(null);
        setNote(t('printer_saved'));
      }),
    );
  };

  /** A print job a button queues: the note gives its number, or says there was nothing to print. */
  const printJob =
    (command: 'print.test' | 'print.reprintLast', queued: 'printer_test_queued' | 'printer_reprint_queued') =>
    async () => {
      setNote(null);
      const { jobId } = await call(api[command]({}));
      setNote(jobId === null ? t('printer_nothing') : t(queued, { job: jobId }));
    };
  const bind = fieldBinder('printer', labels, fieldErrors, form, setForm);
  const profileText = (p: PrinterProfileView) =>
    t('printer_profile_option', { name: presetName(lang, p), paper: p.paperMm });
  const currentProfile = status ? profiles.find((p) => p.id === status.profileId) : undefined;

  return (
    <section className="mgr-printer" aria-label={t('printer')}>
      <h3>{t('printer')}</h3>
      {status && (
        <dl className="mgr-dl" aria-label={t('printer_status')}>
          <dt>{t('state')}</dt>
          <dd
            data-testid="printer-state"
            className={status.state === 'failed' || status.state === 'offline' ? 'mgr-error' : ''}
          >
            {t(`printer_state_${status.state}` as ManagerText)}
          </dd>
          <dt>{t('printer_address')}</dt>
          <dd>
            <code data-testid="printer-uri">{status.uri ?? '—'}</code>{' '}
            <span data-testid="printer-source">({t(`printer_source_${status.uriSource}` as ManagerText)})</span>
          </dd>
          <dt>{t('printer_profile')}</dt>
          <dd data-testid="printer-profile">
            {currentProfile
              ? profileText(currentProfile)
              : status.profileId === 'custom'
                ? t('printer_custom')
                : status.profileId}
          </dd>
          <dt>{t('printer_auto_short')}</dt>
          <dd>{status.autoPrint ? t('yes') : t('no')}</dd>
          <dt>{t('printer_queued')}</dt>
          <dd data-testid="printer-queued">{status.queued}</dd>
          {status.failed > 0 && (
            <>
              <dt>{t('printer_failed_jobs')}</dt>
              <dd>{status.failed}</dd>
            </>
          )}
          <dt>{t('printer_last_printed')}</dt>
          <dd data-testid="printer-last-printed">
            {status.lastPrintedAt ? localTime(status.lastPrintedAt, lang) : '—'}
          </dd>
          {status.lastError && (
            <>
              <dt>{t('printer_last_error')}</dt>
              {/* The core's text is the system's (`job 7: connect ECONNREFUSED …`), for the log: said in words. */}
              <dd data-testid="printer-last-error" className="mgr-error">
                {t('printer_job_failed', { reason: printerErrorText(lang, status.lastError) })}
              </dd>
            </>
          )}
        </dl>
      )}
      {status?.uriSource === 'env' && (
        <p role="note" className="mgr-warn" data-testid="printer-env-note">
          {t('printer_env_note')}
        </p>
      )}
      <form className="mgr-printer-form" onSubmit={save} noValidate>
        {installed !== null &&
          (installed.length > 0 ? (
            <div className="mgr-row">
              <Field label={t('printer_installed')}>
                <select
                  value={installed.some((p) => p.uri === form.uri) ? form.uri : ''}
                  aria-describedby="printer-installed-hint"
                  onChange={(e) => e.target.value && setForm({ ...form, uri: e.target.value })}
                >
                  <option value="">{t('printer_installed_choose')}</option>
                  {installed.map((p) => (
                    <option key={p.uri} value={p.uri}>
                      {p.isDefault ? t('printer_installed_default', { name: p.name }) : p.name}
                    </option>
                  ))}
                </select>
              </Field>
              <span id="printer-installed-hint" className="mgr-hint">
                {t('printer_installed_hint')}
              </span>
            </div>
          ) : (
            <p className="mgr-hint" data-testid="printer-installed-none">
              {t('printer_installed_none')}
            </p>
          ))}
        <div className="mgr-row mgr-top">
          <CheckedInput
            {...bind('uri')}
            hintId="printer-uri-hint"
            input={{ ...ADDRESS_INPUT, placeholder: 'tcp://192.168.1.50:9100' }}
          />
          <CheckedField label={labels.profileId} error={fieldErrors.profileId} errorId="printer-profileId-error">
            <select
              value={form.profileId}
              {...errorProps('profileId')}
              onChange={(e) => setForm({ ...form, profileId: e.target.value })}
            >
              {profiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {profileText(p)}
                </option>
              ))}
              {form.profileId === 'custom' && <option value="custom">{t('printer_custom')}</option>}
            </select>
          </CheckedField>
        </div>
        <p id="printer-uri-hint" className="mgr-hint">
          {t('printer_address_hint')}
        </p>
        <div className="mgr-row mgr-top">
          {(
            [
              ['header', header, setHeader],
              ['footer', footer, setFooter],
            ] as const
          ).map(([field, value, setValue]) => (
            <CheckedField
              key={field}
              label={labels[field]}
              error={fieldErrors[field]}
              errorId={`printer-${field}-error`}
            >
              <textarea
                rows={3}
                cols={42}
                value={value ?? status?.[field] ?? ''}
                aria-describedby="printer-text-hint"
                {...errorProps(field)}
                onChange={(e) => setValue(e.target.value)}
              />
            </CheckedField>
          ))}
        </div>
        <p id="printer-text-hint" className="mgr-hint">
          {t('printer_text_hint')}
        </p>
        <div className="mgr-row">
          <Check
            label={t('printer_auto')}
            checked={form.autoPrint}
            onChange={(checked) => setForm({ ...form, autoPrint: checked })}
          />
          <CheckedPinInput {...bind('managerPin')} />
          <SubmitButton busy={busy}>{t('printer_save')}</SubmitButton>
        </div>
      </form>
      <div className="mgr-row">
        <RunButton run={run} busy={busy} action={printJob('print.test', 'printer_test_queued')}>
          {t('print_test')}
        </RunButton>
        <RunButton run={run} busy={busy} action={printJob('print.reprintLast', 'printer_reprint_queued')}>
          {t('printer_reprint')}
        </RunButton>
      </div>
      <NoteAndAlert note={note} error={error} />
      <HeldJobs api={api} t={t} lang={lang} />
    </section>
  );
}
