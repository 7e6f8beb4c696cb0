import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppError, PosApi, Result } from '../../../shared/contract/index.ts';
import { LANGUAGES } from '../../../shared/domain.ts';
import { message } from '../../../shared/messages.ts';
import { usePos, usePosPick, usePosStore } from '../context.ts';
import type { Screen } from '../store/index.ts';
import { relabel } from '../manager/common.tsx';
import { printerUriProblem, useInstalledPrinters } from '../manager/printer-choice.ts';
import { normalizePrinterAddress } from '../../../shared/contract/printer.ts';
import { Check } from './Check.tsx';
import './setup.css';
import { Options } from '../ui/Options.tsx';
import { FormErrorText } from './TextField.tsx';

const STEPS = ['shop', 'language', 'printer', 'catalog', 'done'] as const;
type Step = (typeof STEPS)[number];
const STEP_TEXT = {
  shop: 'setup.stepShop',
  language: 'setup.stepLanguage',
  printer: 'setup.stepPrinter',
  catalog: 'setup.stepCatalog',
  done: 'setup.stepDone',
} as const satisfies Record<Step, string>;

type NameField = 'shopName' | 'tillName' | 'name' | 'uri';

/** A refused command with the field it names (the core's own message, in the core's language). */
class Refused extends Error {
  readonly field: string | undefined;
  constructor(error: AppError) {
    super(error.message);
    this.field = 'field' in error && typeof error.field === 'string' ? error.field : undefined;
  }
}

async function ok<V>(p: Promise<Result<V>>): Promise<V> {
  const r = await p;
  if (!r.ok) throw new Refused(r.error);
  return r.value;
}

function Field(props: { id: string; label: string; hint?: string; error?: string | undefined; children: ReactNode }) {
  return (
    <div className="setup-field">
      <label htmlFor={props.id}>{props.label}</label>
      {props.children}
      {props.hint && (
        <span id={`${props.id}-hint`} className="setup-hint">
          {props.hint}
        </span>
      )}
      {props.error && (
        <span id={`${props.id}-error`} className="field-error" role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}

/**
 * The first-run setup flow, once, after the new manager's PIN was set on a new till (`info.setupPending`):
 * the shop's and till's names and the manager's own name, the language, the receipt printer, the catalog.
 * Each step saves as it goes (with the PIN the manager just chose, held by the store for the flow), each can
 * be skipped, and each is found again in Менаџер later. Finishing or skipping records `setupDone` in the
 * core, so the flow never comes back; leaving it half-way (a reload, F1) brings it back at the next login.
 */
export function SetupFlow(props: { api: PosApi }) {
  const { api } = props;
  const { t } = useTranslation();
  const store = usePosStore();
  const { setupPin, cashier, info, language, setLanguage, endSetup, printer } = usePosPick(
    'setupPin',
    'cashier',
    'info',
    'language',
    'setLanguage',
    'endSetup',
    'printer',
  );
  const refreshFavourites = usePos((s) => s.refreshFavourites);
  const installed = useInstalledPrinters(api);
  const [step, setStep] = useState(0);
  const [names, setNames] = useState({
    shopName: info?.shopName ?? '',
    tillName: info?.tillName ?? '',
    name: cashier?.name ?? '',
  });
  const [uri, setUri] = useState('');
  const [header, setHeader] = useState(true);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<NameField, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const pin = setupPin ?? '';
  const current: Step = STEPS[step] ?? 'done';

  useEffect(() => heading.current?.focus(), [step]);

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      await fn();
    } catch (err) {
      const field = err instanceof Refused ? err.field : undefined;
      const text = err instanceof Error ? err.message : String(err);
      const labels: Record<NameField, string> = {
        shopName: t('setup.shopName'),
        tillName: t('setup.tillName'),
        name: t('setup.managerName'),
        uri: t('setup.address'),
      };
      // Next to its field, the message names the field by the label the person sees.
      if (field === 'shopName' || field === 'tillName' || field === 'name' || field === 'uri')
        setFieldErrors({ [field]: relabel(text, field, labels[field]) });
      else setError(text);
    } finally {
      setBusy(false);
    }
  };
  const go = (to: number) => {
    setNote(null);
    setError(null);
    setFieldErrors({});
    setStep(Math.max(0, Math.min(STEPS.length - 1, to)));
  };
  const finish = (screen: Screen) =>
    run(async () => {
      await ok(api['settings.update']({ managerPin: pin, setupDone: true }));
      await endSetup(screen);
    });

  const saveNames = () =>
    run(async () => {
      await ok(api['settings.update']({ managerPin: pin, shopName: names.shopName, tillName: names.tillName }));
      const name = names.name.trim();
      if (cashier && name !== '' && name !== cashier.name) {
        const me = await ok(api['staff.update']({ managerPin: pin, id: cashier.id, name }));
        // The status bar names the person logged in: the new name shows at once.
        store.setState({ cashier: me });
      }
      go(step + 1);
    });
  const saveLanguage = () =>
    run(async () => {
      // The till's screens follow at once (setLanguage); the core's messages and receipts follow its setting.
      await ok(api['settings.update']({ managerPin: pin, language }));
      go(step + 1);
    });
  const saveAndTest = () =>
    run(async () => {
      const address = normalizePrinterAddress(uri);
      const problem = printerUriProblem(address);
      if (problem) {
        setFieldErrors({ uri: message(language, problem, { field: t('setup.address') }) });
        return;
      }
      const { current: profileId } = await ok(api['printer.profiles']({}));
      const shop = names.shopName.trim();
      await ok(
        api['printer.configure']({
          approval: { managerPin: pin },
          uri: address,
          profileId,
          ...(header && shop !== '' ? { header: shop } : {}),
        }),
      );
      const { jobId } = await ok(api['print.test']({}));
      setNote(t('setup.testQueued', { job: jobId }));
    });
  const loadSample = () =>
    run(async () => {
      const r = await ok(api['catalog.loadSample']({ approval: { managerPin: pin } }));
      await refreshFavourites();
      setNote(t('setup.sampleDone', { count: r.imported }));
    });

  const next: Record<Step, () => void> = {
    shop: () => void saveNames(),
    language: () => void saveLanguage(),
    printer: () => go(step + 1),
    catalog: () => go(step + 1),
    done: () => void finish('sale'),
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!busy) next[current]();
  };
  const input = (field: 'shopName' | 'tillName' | 'name', hint = false) => ({
    id: `setup-${field}`,
    value: names[field],
    maxLength: 60,
    autoComplete: 'off',
    'aria-invalid': fieldErrors[field] ? true : undefined,
    'aria-describedby':
      [hint ? `setup-${field}-hint` : '', fieldErrors[field] ? `setup-${field}-error` : ''].join(' ').trim() ||
      undefined,
    onChange: (e: { target: { value: string } }) => setNames({ ...names, [field]: e.target.value }),
  });
  const demo = info?.mode === 'demo' || info?.demoAccount === true;

  return (
    <main className="setup" aria-labelledby="setup-title">
      <header className="setup-head">
        <h1 id="setup-title">{t('setup.title')}</h1>
        <p className="setup-progress">{t('setup.progress', { step: step + 1, count: STEPS.length })}</p>
        <button
          type="button"
          className="link"
          disabled={busy}
          aria-describedby="setup-skip-hint"
          onClick={() => void finish('sale')}
        >
          {t('setup.skipAll')}
        </button>
        <span id="setup-skip-hint" className="visually-hidden">
          {t('setup.skipAllHint')}
        </span>
        <ol className="setup-steps" aria-label={t('setup.steps')}>
          {STEPS.map((s, i) => (
            <li key={s} aria-current={i === step ? 'step' : undefined} className={i < step ? 'past' : undefined}>
              {t(STEP_TEXT[s])}
            </li>
          ))}
        </ol>
      </header>
      <form className="setup-body" onSubmit={submit} noValidate aria-labelledby="setup-step">
        <h2 id="setup-step" ref={heading} tabIndex={-1}>
          {t(STEP_TEXT[current])}
        </h2>
        {current === 'shop' && (
          <>
            <p>{t('setup.shopIntro')}</p>
            <Field id="setup-shopName" label={t('setup.shopName')} error={fieldErrors.shopName}>
              <input {...input('shopName')} />
            </Field>
            <Field id="setup-tillName" label={t('setup.tillName')} error={fieldErrors.tillName}>
              <input {...input('tillName')} />
            </Field>
            <Field
              id="setup-name"
              label={t('setup.managerName')}
              hint={t('setup.managerHint')}
              error={fieldErrors.name}
            >
              <input {...input('name', true)} />
            </Field>
          </>
        )}
        {current === 'language' && (
          <>
            <p>{t('setup.languageIntro')}</p>
            <fieldset className="setup-choices">
              <legend>{t('setup.language')}</legend>
              {LANGUAGES.map((l) => (
                <label key={l} className="setup-choice">
                  <input
                    type="radio"
                    name="setup-language"
                    value={l}
                    checked={language === l}
                    onChange={() => setLanguage(l)}
                  />{' '}
                  {t(`lang.${l}`)}
                </label>
              ))}
            </fieldset>
          </>
        )}
        {current === 'printer' && (
          <>
            <p>{t('setup.printerIntro')}</p>
            {installed !== null &&
              (installed.length > 0 ? (
                <Field id="setup-installed" label={t('setup.installed')}>
                  <select
                    id="setup-installed"
                    value={installed.some((p) => p.uri === uri) ? uri : ''}
                    onChange={(e) => e.target.value && setUri(e.target.value)}
                  >
                    <option value="">{t('setup.installedChoose')}</option>
                    <Options of={installed} value={(p) => p.uri} text={(p) => p.name} />
                  </select>
                </Field>
              ) : (
                <p className="setup-hint">{t('setup.installedNone')}</p>
              ))}
            <Field id="setup-uri" label={t('setup.address')} hint={t('setup.addressHint')} error={fieldErrors.uri}>
              <input
                id="setup-uri"
                value={uri}
                spellCheck={false}
                autoComplete="off"
                placeholder="tcp://192.168.1.50:9100"
                aria-invalid={fieldErrors.uri ? true : undefined}
                aria-describedby={fieldErrors.uri ? 'setup-uri-error setup-uri-hint' : 'setup-uri-hint'}
                onChange={(e) => setUri(e.target.value)}
              />
            </Field>
            {names.shopName.trim() !== '' && <Check label={t('setup.header')} checked={header} onChange={setHeader} />}
            <div className="setup-actions">
              <button type="button" disabled={busy} onClick={() => void saveAndTest()}>
                {t('setup.saveTest')}
              </button>
              <button type="button" disabled={busy} onClick={() => go(step + 1)}>
                {t('setup.none')}
              </button>
            </div>
            {printer?.uri == null && <p className="setup-hint">{t('setup.noneChosen')}</p>}
          </>
        )}
        {current === 'catalog' && (
          <>
            <p>{t('setup.catalogIntro')}</p>
            <div className="setup-actions">
              <button type="button" disabled={busy} onClick={() => void loadSample()}>
                {t('setup.sample')}
              </button>
              <button type="button" disabled={busy} onClick={() => void finish('catalog')}>
                {t('setup.catalogScreen')}
              </button>
              <button type="button" disabled={busy} onClick={() => go(step + 1)}>
                {t('setup.later')}
              </button>
            </div>
          </>
        )}
        {current === 'done' && (
          <>
            <p className="setup-ready">{t('setup.doneIntro')}</p>
            {demo && (
              <p role="note" className="setup-demo">
                {t('setup.demo')}
              </p>
            )}
            <p>{t('setup.changeLater')}</p>
          </>
        )}
        {note && (
          <p role="status" className="setup-note">
            {note}
          </p>
        )}
        <FormErrorText text={error} />
        <div className="setup-nav">
          <button type="button" disabled={busy || step === 0} onClick={() => go(step - 1)}>
            {t('setup.back')}
          </button>
          <span className="spacer" />
          <button type="submit" className="primary" disabled={busy}>
            {current === 'done' ? t('setup.start') : t('setup.next')}
          </button>
        </div>
      </form>
    </main>
  );
}
