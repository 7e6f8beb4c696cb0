/** The local fiscal processor's (L-PFR) section of the manager's settings (docs/lpfr.md). */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { LpfrView } from '../../../shared/contract/settings.ts';
import type { LpfrState } from '../../../shared/domain.ts';
import type { ManagerT, ManagerText } from './i18n.ts';
import {
  call,
  pinOf,
  usePinLabel,
  useRunner,
  useFieldErrors,
  ApprovedForm,
  ApprovedInputs,
  NoteAndAlert,
  SubmitButton,
  type InputAttrs,
} from './common.tsx';
import { ADDRESS_INPUT, CheckedInput, CheckedPinInput, fieldBinder } from '../ui/forms.tsx';

type LpfrField = 'url' | 'pin' | 'managerPin';

/** The ESIR's number and version as the form asks them, each with a sample of how it is written. */
const ESIR_INPUTS: Record<'esirId' | 'esirVersion', InputAttrs> = {
  esirId: { inputMode: 'numeric', autoComplete: 'off', size: 8, placeholder: '1060' },
  esirVersion: { autoComplete: 'off', size: 8, placeholder: '1.2' },
};

/** The state of the L-PFR in the manager's words. */
export function lpfrStateText(t: ManagerT, state: LpfrState): string {
  return t(`lpfr_state_${state}` as ManagerText);
}

/**
 * The L-PFR: its address, whether a PIN is stored (never the PIN), its state as the sync engine last found it
 * (kept current from `sync.status`), its card's UID and tax labels; a form that sets it up or removes it with
 * `settings.setLpfr` and the manager's PIN. A refusal about the address or the card's PIN is shown at that field.
 * When KASA_LPFR_URL sets the address, the section says so and only the PIN can be given.
 */
export function LpfrSection(props: { api: PosApi; t: ManagerT }) {
  const { api, t } = props;
  const [view, setView] = useState<LpfrView | null>(null);
  const [form, setForm] = useState({ url: '', pin: '', managerPin: '' });
  const [note, setNote] = useState<string | null>(null);
  const [esir, setEsir] = useState({ esirId: '', esirVersion: '' });
  const [error, runner] = useRunner(t);
  const { run, busy } = runner;
  const pinLabel = usePinLabel(t);
  const labels: Record<LpfrField, string> = {
    url: t('lpfr_address'),
    pin: t('lpfr_pin'),
    managerPin: pinLabel,
  };
  const { fieldErrors, setFieldErrors, fielded } = useFieldErrors(labels, 'lpfr', (e) =>
    e.field === 'approval.managerPin' ? 'managerPin' : e.field,
  );

  // The engine's last word on the L-PFR since a save began (undefined: none yet). The save's answer says
  // „unknown“ (asked again at once); the engine's answer to that can come first on the event stream.
  const sinceSave = useRef<LpfrState | null | undefined>(undefined);

  useEffect(() => {
    void run(async () => {
      const v = await call(api['settings.lpfr']({}));
      setView(v);
      setForm((f) => ({ ...f, url: f.url !== '' ? f.url : (v.url ?? '') }));
    });
    // The state follows the engine: the card taken out or the PIN asked for shows here at once.
    return api.on('sync.status', (s) => {
      const state = s.lpfr;
      if (state === undefined) return;
      sinceSave.current = state;
      setView((v) => (v && v.url !== null && state !== null ? { ...v, state } : v));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api]);

  const send = (url: string, done: string) => {
    setNote(null);
    setFieldErrors({});
    sinceSave.current = undefined;
    void run(
      fielded(async () => {
        const v = await call(
          api['settings.setLpfr']({
            ...pinOf(form.managerPin),
            url,
            ...(url !== '' && form.pin !== '' ? { pin: form.pin } : {}),
          }),
        );
        const engine = sinceSave.current;
        setView(v.url !== null && engine !== undefined && engine !== null ? { ...v, state: engine } : v);
        setForm({ url: v.url ?? '', pin: '', managerPin: '' });
        setNote(done);
      }),
    );
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    send(view?.urlFromEnv ? (view.url ?? '') : form.url.trim(), t('lpfr_saved'));
  };

  const fromEnv = view?.urlFromEnv === true;
  const bind = fieldBinder('lpfr', labels, fieldErrors, form, setForm);
  return (
    <section className="mgr-lpfr" aria-label={t('lpfr')}>
      <h3>{t('lpfr')}</h3>
      <p className="mgr-hint">{t('lpfr_intro')}</p>
      {view && (
        <dl className="mgr-dl" aria-label={t('lpfr_status')}>
          <dt>{t('state')}</dt>
          <dd
            data-testid="lpfr-state"
            className={view.state !== null && view.state !== 'ready' && view.state !== 'unknown' ? 'mgr-error' : ''}
          >
            {view.state === null ? t('lpfr_none') : lpfrStateText(t, view.state)}
          </dd>
          <dt>{t('lpfr_address')}</dt>
          <dd>
            <code data-testid="lpfr-url">{view.url ?? '—'}</code>
          </dd>
          <dt>{t('lpfr_has_pin')}</dt>
          <dd data-testid="lpfr-has-pin">{view.hasPin ? t('lpfr_pin_stored') : t('lpfr_pin_none')}</dd>
          {view.uid && (
            <>
              <dt>{t('lpfr_uid')}</dt>
              <dd data-testid="lpfr-uid">{view.uid}</dd>
            </>
          )}
          {view.labels && view.labels.length > 0 && (
            <>
              <dt>{t('lpfr_labels')}</dt>
              <dd data-testid="lpfr-labels">{view.labels.join(' ')}</dd>
            </>
          )}
          <dt>{t('esir_number')}</dt>
          <dd data-testid="esir-number">{view.esirNumber ?? t('esir_number_none')}</dd>
        </dl>
      )}
      {fromEnv && (
        <p role="note" className="mgr-warn" data-testid="lpfr-env-note">
          {t('lpfr_env_note')}
        </p>
      )}
      <form className="mgr-printer-form" aria-label={t('lpfr')} onSubmit={save} noValidate>
        <div className="mgr-row mgr-top">
          {!fromEnv && (
            <CheckedInput
              {...bind('url')}
              hintId="lpfr-url-hint"
              input={{ ...ADDRESS_INPUT, type: 'url', placeholder: 'http://192.168.1.20:8888' }}
            />
          )}
          <CheckedPinInput {...bind('pin')} hintId="lpfr-pin-hint" input={{ maxLength: 4, size: 6 }} />
          <CheckedPinInput {...bind('managerPin')} />
        </div>
        {!fromEnv && (
          <p id="lpfr-url-hint" className="mgr-hint">
            {t('lpfr_address_hint')}
          </p>
        )}
        <p id="lpfr-pin-hint" className="mgr-hint">
          {t('lpfr_pin_hint')}
        </p>
        <div className="mgr-row">
          <SubmitButton busy={busy}>{t('lpfr_save')}</SubmitButton>
          {!fromEnv && view?.url && (
            <button type="button" disabled={busy} onClick={() => send('', t('lpfr_removed'))}>
              {t('lpfr_remove')}
            </button>
          )}
        </div>
      </form>
      <p className="mgr-hint">{t('esir_hint')}</p>
      <ApprovedForm
        runner={runner}
        label={t('esir_number')}
        button={t('esir_save')}
        idPrefix="esir"
        selfApproves
        labels={{ esirId: t('esir_id'), esirVersion: t('esir_version') }}
        onSubmit={async (managerPin) => {
          setNote(null);
          const v = await call(
            api['settings.setEsir']({
              ...pinOf(managerPin),
              esirId: esir.esirId.trim(),
              ...(esir.esirVersion.trim() !== '' ? { esirVersion: esir.esirVersion.trim() } : {}),
            }),
          );
          setView(v);
          setNote(v.esirNumber ? t('esir_saved', { number: v.esirNumber }) : t('esir_cleared'));
        }}
      >
        {(field) => (
          <ApprovedInputs
            field={field}
            inputs={ESIR_INPUTS}
            form={esir}
            onType={(k, v) => setEsir({ ...esir, [k]: v })}
          />
        )}
      </ApprovedForm>
      <NoteAndAlert note={note} error={error} />
    </section>
  );
}
