/**
 * The store hub's manager UI (served by the hub at `/`): a manager logs in with a PIN, then sees the
 * tills live (with the alarm), creates enrolment codes, edits the shop's products and reads the day's
 * report (and downloads it as CSV). Every control has an accessible name; the hub decides who may do what.
 */
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import type { ReportView } from '../../../shared/contract/reports.ts';
import type { HubAuditEntry } from '../../../shared/contract/hub.ts';
import { formatRsd } from '../../../shared/money.ts';
import { formatFingerprint } from '../../../shared/hub/fingerprint.ts';
import { isHubFile } from '../../../shared/hub/client.ts';
import type { HubReport, TillLive } from '../../../shared/hub/contract.ts';
import { download, HubCallError, hubApi, notFile } from './api.ts';

export { HubCallError };
import type { ShopSettings } from '../../../shared/hub/protocol.ts';
import { DEFAULT_DISCOUNT_LIMIT_PERCENT } from '../../../shared/domain.ts';
import { PinPadView, usePinField } from '../components/PinPad.tsx';
import { ScreenHead } from '../ui/ScreenHead.tsx';
import { Alert, CheckedField, CheckedInput, ListTable, MgrTable } from '../ui/forms.tsx';
import { auditPerson, hubAuditSentence } from '../../../shared/i18n/audit.ts';
import { dayIn, dayStart, formatMoment } from '../../../shared/i18n/time.ts';
import { addDays } from '../dates.ts';
import { DateField } from '../manager/DateField.tsx';
import { mt, type ManagerT } from '../manager/i18n.ts';
import { useHubT, type HubKey, type HubLang, type HubT } from './i18n.ts';
import { StaffSection } from './StaffSection.tsx';
import { EnrolCodes } from './EnrolCodes.tsx';
import { HubCatalog } from './HubCatalog.tsx';
import { HubGoods } from './HubGoods.tsx';
import { HubPrices } from './HubPrices.tsx';
import { HubBooks } from './HubBooks.tsx';
import { HubSef } from './HubSef.tsx';
import { useHubRead } from './useHubRead.ts';
import { ReportCharts, previousPeriod, type ReportExtras } from '../reports/ReportCharts.tsx';
import { reportT } from '../reports/words.ts';
import { ChoiceSelect, Options } from '../ui/Options.tsx';

/** A report's table of named rows: each row's name (a row header) and its figures, keyed by the first item. */
function PairTable(props: { label: string; rows: readonly (readonly [key: string, name: string, value: string])[] }) {
  return (
    <MgrTable scroll label={props.label}>
      {props.rows.map(([key, name, value]) => (
        <tr key={key}>
          <th scope="row">{name}</th>
          <td>{value}</td>
        </tr>
      ))}
    </MgrTable>
  );
}

/** A till as the hub lists it (shared/hub/contract/results.ts). */
type TillRow = TillLive;

const PRINTER_STATES = ['unconfigured', 'idle', 'printing', 'offline', 'stopped', 'failed'];

/** The till's printer in words: what stops it first, else its state; what waits for people after it. */
export function printerText(p: TillRow['printer'], t: HubT) {
  if (!p) return '—';
  const words =
    p.coverOpen === true
      ? [t('printer_cover_open')]
      : p.paper === 'out'
        ? [t('printer_paper_out')]
        : p.error !== null && p.error !== 'none'
          ? [t('printer_error')]
          : [t(PRINTER_STATES.includes(p.state) ? (`printer_${p.state}` as HubKey) : 'printer_unknown')];
  if (p.paper === 'near_end') words.push(t('printer_paper_low'));
  if (p.unconfirmed) words.push(t('printer_unconfirmed'));
  if (p.held > 0) words.push(t('printer_held', { count: p.held }));
  return words.join(', ');
}
/** The hub's report (shared/hub/contract/results.ts). */
type Report = HubReport;
type Section = 'tills' | 'catalog' | 'prices' | 'goods' | 'staff' | 'settings' | 'report' | 'audit' | 'books' | 'sef';
const SECTIONS: readonly Section[] = [
  'tills',
  'catalog',
  'prices',
  'goods',
  'staff',
  'settings',
  'report',
  'audit',
  'books',
  'sef',
];
type ShopSettingsRow = ShopSettings;

/** Today as the hub UI's clock has it (a local day, not UTC's). */
const today = (): string => dayIn(new Date());

/** A moment in the user's language and local time zone (never ISO on the screen). */
const localTime = (lang: HubLang, at: string | number): string => formatMoment(at, lang, { seconds: true });

/** An entry of the hub's audit (hub/audit.ts). */
type AuditRow = HubAuditEntry;

export function HubApp() {
  const [lang, setLang] = useState<HubLang>('sr-Cyrl');
  const t = useHubT(lang);
  const [session, setSession] = useState<{ token: string; name: string } | null>(null);
  const [section, setSection] = useState<Section>('tills');
  const api = useMemo(() => (session ? hubApi(session.token) : null), [session]);
  const goodsErrorText = useCallback(
    (err: unknown, labels: Readonly<Record<string, string>>) => hubErrorText(t, err, labels),
    [t],
  );
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

  return (
    <div className="hub">
      <ScreenHead
        title={t('title')}
        level={1}
        tabsLabel={t('sections')}
        tabs={session ? SECTIONS.map((k) => ({ key: k, label: t(k) })) : []}
        selected={session ? section : null}
        onSelect={setSection}
      >
        <div className="mgr-head-end">
          <label className="hub-lang">
            <span>{t('language')}</span>
            <select value={lang} onChange={(e) => setLang(e.target.value as HubLang)}>
              <option value="sr-Cyrl">Српски</option>
              <option value="sr-Latn">Srpski</option>
              <option value="en">English</option>
            </select>
          </label>
          {session && (
            <>
              <span className="hub-who">{session.name}</span>
              <button
                type="button"
                onClick={() => {
                  // The hub ends the session (a copied token stops working too); the page forgets it either way.
                  void hubApi(session.token)
                    .call('logout')
                    .catch(() => undefined);
                  setSession(null);
                }}
              >
                {t('logout')}
              </button>
            </>
          )}
        </div>
      </ScreenHead>
      {!session ? (
        <Login t={t} onLogin={setSession} />
      ) : (
        <main className="mgr-body" role="tabpanel" aria-label={t(section)}>
          {section === 'tills' && <Tills t={t} lang={lang} token={session.token} />}
          {section === 'catalog' && <HubCatalog t={t} lang={lang} token={session.token} />}
          {section === 'goods' && <HubGoods t={t} lang={lang} token={session.token} errorText={goodsErrorText} />}
          {section === 'prices' && <HubPrices t={t} lang={lang} token={session.token} />}
          {section === 'books' && <HubBooks t={t} lang={lang} token={session.token} errorText={goodsErrorText} />}
          {section === 'sef' && <HubSef t={t} lang={lang} token={session.token} errorText={goodsErrorText} />}
          {section === 'staff' && (
            <StaffSection t={t} api={api ?? hubApi(session.token)} errorText={(err) => hubErrorText(t, err)} />
          )}
          {section === 'settings' && <ShopSettingsSection t={t} token={session.token} />}
          {section === 'report' && <ReportSection t={t} lang={lang} token={session.token} />}
          {section === 'audit' && <AuditSection t={t} lang={lang} token={session.token} />}
        </main>
      )}
    </div>
  );
}

/**
 * A refusal of the hub in the user's language, from its code (the hub's own texts are English, for API users).
 * `labels` name the form's fields by the contract name's last word (`products.0.pricePara` -> `pricePara`).
 */
export function hubErrorText(t: HubT, err: unknown, labels: Readonly<Record<string, string>> = {}): string {
  if (!(err instanceof HubCallError)) return t('errUnreachable');
  switch (err.code) {
    case 'pin_unknown':
      return t('loginWrongPin');
    case 'login_paused':
      return t('loginPaused');
    case 'unauthenticated':
      return t('errSession');
    case 'forbidden':
      return t('errForbidden');
    case 'not_found':
    case 'till_unknown':
    case 'shop_unknown':
      return t('errNotFound');
  }
  const name = err.field
    ?.split('.')
    .filter((s) => !/^\d+$/.test(s))
    .pop();
  const label = name ? labels[name] : undefined;
  return label ? t('errField', { field: label }) : t('errFailed');
}

/** The login's refusal in the user's language. */
const loginError = (t: HubT, err: unknown): string =>
  err instanceof HubCallError && (err.code === 'pin_unknown' || err.code === 'login_paused')
    ? hubErrorText(t, err)
    : t('loginFailed');

function Login({ t, onLogin }: { t: HubT; onLogin: (s: { token: string; name: string }) => void }) {
  const { pin, setPin, setError, setBusy, pad } = usePinField();
  // A hub of several shops: the manager picks the shop (the PIN is compared with its managers only).
  const [shops, setShops] = useState<{ id: number; name: string }[]>([]);
  const [shopId, setShopId] = useState<number | null>(null);
  useHubRead(
    () => hubApi(null).call('shops'),
    (r) => {
      setShops(r.shops);
      setShopId(r.shops[0]?.id ?? null);
    },
    () => undefined,
    [],
  );
  const submit = async (): Promise<void> => {
    setBusy(true);
    try {
      const body = shopId !== null ? { pin, shopId } : { pin };
      onLogin(await hubApi(null).call('login', body));
    } catch (err) {
      // A refused PIN is typed again from the start, as at the till's login.
      setPin('');
      setError(loginError(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="login" aria-label={t('login')}>
      <p className="help">{t('loginHelp')}</p>
      {shops.length > 1 && (
        <label className="field hub-shop">
          {t('shop')}
          <select value={shopId ?? ''} onChange={(e) => setShopId(Number(e.target.value))}>
            <Options of={shops} value={(s) => s.id} text={(s) => s.name} />
          </select>
        </label>
      )}
      <PinPadView
        {...pad}
        label={t('pin')}
        onSubmit={() => void submit()}
        submitLabel={t('login')}
        words={{ pad: t('pinPad'), backspace: t('pinBackspace'), clear: t('pinClear'), cancel: t('staffCancel') }}
      />
    </main>
  );
}

function Tills({ t, lang, token }: { t: HubT; lang: HubLang; token: string }) {
  const [tills, setTills] = useState<TillRow[]>([]);
  const [code, setCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Bumped by a new code: the codes' list is read again. */
  const [codes, setCodes] = useState(0);
  const api = useMemo(() => hubApi(token), [token]);
  const errorText = useCallback((err: unknown) => hubErrorText(t, err), [t]);
  /** The SHA-256 of the hub's certificate: the manager types it on the till with the code, which pins it. */
  const [fingerprint, setFingerprint] = useState<string | null>(null);
  useEffect(() => {
    void hubApi(null)
      .call('health')
      .then((r) => setFingerprint(r.fingerprint ?? null))
      .catch(() => undefined);
  }, []);
  useEffect(() => {
    let alive = true;
    const load = (): void => {
      api
        .call('tills')
        .then((r) => alive && setTills(r.tills))
        .catch((err: unknown) => alive && setError(hubErrorText(t, err)));
    };
    load();
    const timer = setInterval(load, 3000);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [api, t]);
  const alarmed = tills.filter((x) => x.alarms.length);
  const newCode = async (): Promise<void> => {
    setCode((await api.call('newEnrolCode', {})).code);
    setCodes((n) => n + 1);
  };
  /** A lost or stolen till: the hub refuses its credential from now on (asked once more: it cannot be undone). */
  const revoke = async (x: TillRow): Promise<void> => {
    if (!window.confirm(t('revokeConfirm', { name: x.name }))) return;
    try {
      await api.call('revokeTill', { tillId: x.tillId });
      setTills((all) => all.map((y) => (y.tillId === x.tillId ? { ...y, revoked: true, alarms: [] } : y)));
    } catch (err) {
      setError(hubErrorText(t, err));
    }
  };
  return (
    <section aria-label={t('tills')} className="mgr-tab">
      {alarmed.length > 0 && (
        <p role="alert" className="mgr-error">
          {t('alarm', {
            names: alarmed
              .map((x) => `${x.name} (${x.alarms.map((a) => t(`alarm_${a}` as HubKey)).join(', ')})`)
              .join('; '),
          })}
        </p>
      )}
      <Alert text={error} />
      <MgrTable
        scroll
        label={t('tills')}
        headers={(
          ['till', 'online', 'queued', 'needsAttention', 'oldest', 'lastSeen', 'printer', 'alarms', 'actions'] as const
        ).map((k) => t(k))}
      >
        {tills.map((x) => (
          <tr key={x.tillId}>
            <td>{x.name}</td>
            <td>{x.online ? t('yes') : t('no')}</td>
            <td>{x.queued}</td>
            <td>{x.needsAttention}</td>
            <td>{x.oldestUnfiscalizedAt ? localTime(lang, x.oldestUnfiscalizedAt) : '—'}</td>
            <td>{x.lastSeen ? localTime(lang, x.lastSeen) : '—'}</td>
            <td data-testid="till-printer">{printerText(x.printer, t)}</td>
            <td>{x.alarms.map((a) => t(`alarm_${a}` as HubKey)).join(', ') || '—'}</td>
            <td>
              {x.revoked ? (
                t('revoked')
              ) : (
                <button type="button" className="danger" onClick={() => void revoke(x)}>
                  {t('revokeTill', { name: x.name })}
                </button>
              )}
            </td>
          </tr>
        ))}
      </MgrTable>
      <div className="mgr-row mgr-middle">
        <button type="button" onClick={() => void newCode().catch((err: unknown) => setError(hubErrorText(t, err)))}>
          {t('newCode')}
        </button>
        {code && (
          <output aria-label={t('enrolCode')} className="hub-code">
            {code}
          </output>
        )}
      </div>
      {fingerprint && (
        <div className="mgr-field">
          <span>{t('fingerprint')}</span>
          <output aria-label={t('fingerprint')} className="mgr-fingerprint">
            {formatFingerprint(fingerprint)}
          </output>
        </div>
      )}
      <EnrolCodes
        t={t}
        lang={lang}
        api={api}
        errorText={errorText}
        version={codes}
        tillName={(id) => tills.find((x) => x.tillId === id)?.name ?? `#${id}`}
      />
    </section>
  );
}

/** A barcode rule as its fields are typed: prefix, kind, item-code digits, value digits (the rest of 10). */
export interface RuleDraft {
  prefix: string;
  kind: 'weight' | 'price';
  code: string;
  value: string;
}
type RuleField = 'prefix' | 'code' | 'value';
/** What is wrong with a rule's field (`twice`: a prefix another rule has). */
type RuleErrorKey = 'errRulePrefix' | 'errRuleDigits' | 'errRuleSum' | 'twice';
/** Refusals of the rules' fields, by row and field (the hub's `barcodeRules.<i>.<field>` too). */
export type RuleErrors = Record<number, Partial<Record<RuleField, RuleErrorKey>>>;

/** An EAN-13 in-store code: 2 prefix digits, the item code and the value (10 together), and the check digit. */
const RULE_DIGITS = 10;

/**
 * Checks each rule's fields as the till's contract does (shared/contract/catalog.ts `BarcodeRuleSchema`): a
 * prefix of 20 to 29 and one rule per prefix, code and value digits from 1 to 9 that fill the 10 between the
 * prefix and the check digit. The rules as the hub takes them, or the refusals by row and field.
 */
export function checkRules(
  drafts: readonly RuleDraft[],
): { rules: { prefix: string; kind: 'weight' | 'price'; codeLength: number }[] } | { errors: RuleErrors } {
  const errors: RuleErrors = {};
  const seen = new Set<string>();
  const digits = (v: string): number | null => (/^\s*[1-9]\s*$/.test(v) ? Number(v) : null);
  drafts.forEach((d, i) => {
    const e: Partial<Record<RuleField, RuleErrorKey>> = {};
    const prefix = d.prefix.trim();
    if (!/^2\d$/.test(prefix)) e.prefix = 'errRulePrefix';
    else if (seen.has(prefix)) e.prefix = 'twice';
    seen.add(prefix);
    const code = digits(d.code);
    const value = digits(d.value);
    if (code === null) e.code = 'errRuleDigits';
    if (value === null) e.value = 'errRuleDigits';
    if (code !== null && value !== null && code + value !== RULE_DIGITS) e.value = 'errRuleSum';
    if (Object.keys(e).length) errors[i] = e;
  });
  if (Object.keys(errors).length) return { errors };
  return { rules: drafts.map((d) => ({ prefix: d.prefix.trim(), kind: d.kind, codeLength: Number(d.code) })) };
}

/** The shop's shared settings (hub/schemas.ts ShopSettings): the hub checks them and names a bad field. */
function ShopSettingsSection({ t, token }: { t: HubT; token: string }) {
  const [limit, setLimit] = useState('');
  const [rules, setRules] = useState<RuleDraft[]>([]);
  // What the hub holds (null until read): a value it never set is the tills' default, said beside the field.
  const [held, setHeld] = useState<ShopSettingsRow | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  // A refused value is said under its own field (the other fields keep what was typed).
  const [limitError, setLimitError] = useState<string | undefined>(undefined);
  const [ruleErrors, setRuleErrors] = useState<RuleErrors>({});
  useHubRead(
    () => hubApi(token).call('settings'),
    ({ settings: s }) => {
      setHeld(s);
      setLimit(String(s.discountLimitPercent ?? DEFAULT_DISCOUNT_LIMIT_PERCENT));
      setRules(
        (s.barcodeRules ?? []).map((r) => ({
          prefix: r.prefix,
          kind: r.kind,
          code: String(r.codeLength),
          value: String(RULE_DIGITS - r.codeLength),
        })),
      );
    },
    (err) => setMessage({ text: hubErrorText(t, err), error: true }),
    [token, t],
  );
  /** One field of rule `i` changed; the code and value digits keep filling the 10 between them. */
  const setRule = (i: number, change: Partial<RuleDraft>): void => {
    setRules((rs) =>
      rs.map((r, j) => {
        if (j !== i) return r;
        const next = { ...r, ...change };
        const n = (v: string | undefined): number | null =>
          v !== undefined && /^[1-9]$/.test(v.trim()) ? Number(v) : null;
        const code = n(change.code);
        const value = n(change.value);
        if (code !== null) next.value = String(RULE_DIGITS - code);
        if (value !== null) next.code = String(RULE_DIGITS - value);
        return next;
      }),
    );
  };
  const ruleText = (i: number, field: RuleField): string | undefined => {
    const key = ruleErrors[i]?.[field];
    if (!key) return undefined;
    const label = `${t('ruleRow', { n: i + 1 })}: ${t(field === 'prefix' ? 'rulePrefix' : field === 'code' ? 'ruleCodeDigits' : 'ruleValueDigits')}`;
    return key === 'twice'
      ? t('errRulePrefixTwice', { prefix: rules[i]?.prefix.trim() ?? '' })
      : t(key, { field: label });
  };
  const save = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setMessage(null);
    setLimitError(undefined);
    setRuleErrors({});
    const limitN = limit.trim() === '' ? undefined : Number(limit);
    let bad = false;
    if (limitN !== undefined && !Number.isInteger(limitN)) {
      setLimitError(t('badSettings', { field: t('discountLimit') }));
      bad = true;
    }
    const checked = checkRules(rules);
    if ('errors' in checked) {
      setRuleErrors(checked.errors);
      bad = true;
    }
    if (bad || 'errors' in checked) return;
    try {
      const settings = {
        ...(limitN !== undefined ? { discountLimitPercent: limitN } : {}),
        barcodeRules: checked.rules,
      };
      await hubApi(token).call('putSettings', { settings });
      setHeld(settings as ShopSettingsRow);
      setMessage({ text: t('settingsSaved'), error: false });
    } catch (err) {
      if (!(err instanceof HubCallError) || err.code === 'unauthenticated' || err.code === 'forbidden')
        setMessage({ text: hubErrorText(t, err), error: true });
      else if (err.field?.includes('barcodeRules')) {
        // `settings.barcodeRules.<i>.<field>`: said under that rule's field (the prefix when the hub names none).
        const m = /barcodeRules\.(\d+)(?:\.(\w+))?/.exec(err.field);
        const i = Number(m?.[1] ?? 0);
        const field: RuleField = m?.[2] === 'codeLength' ? 'code' : 'prefix';
        setRuleErrors({ [i]: { [field]: field === 'prefix' ? 'errRulePrefix' : 'errRuleDigits' } });
      } else setLimitError(t('badSettings', { field: t('discountLimit') }));
    }
  };
  return (
    <section aria-label={t('settings')} className="mgr-tab">
      {/* Shown once the hub's settings are read: a rule added or a limit typed before they came back was lost when
          they arrived (a slow hub), and a save then sent the form without them. */}
      {held && (
        <form className="mgr-panel" onSubmit={(e) => void save(e)}>
          <CheckedInput
            label={t('discountLimit')}
            error={limitError}
            errorId="hub-settings-limit-error"
            value={limit}
            onChange={setLimit}
            input={{ inputMode: 'numeric', size: 6 }}
          />
          {held && held.discountLimitPercent === undefined && (
            <p className="mgr-hint">{t('settingsDefault', { value: `${DEFAULT_DISCOUNT_LIMIT_PERCENT} %` })}</p>
          )}
          <fieldset className="hub-rules" aria-describedby="hub-rules-shape">
            <legend>{t('barcodeRules')}</legend>
            <p id="hub-rules-shape" className="mgr-hint">
              {t('ruleShape')}
            </p>
            {rules.length === 0 && <p className="mgr-hint">{t('settingsNoRules')}</p>}
            {rules.map((r, i) => {
              const n = i + 1;
              // The rule's digit fields differ only in their name, their width and how many digits they take.
              const digits = (f: RuleField, label: HubKey, size: number, maxLength: number) => (
                <CheckedInput
                  label={t(label)}
                  error={ruleText(i, f)}
                  errorId={`hub-rule-${i}-${f}-error`}
                  value={r[f]}
                  onChange={(text) => setRule(i, { [f]: text })}
                  input={{ inputMode: 'numeric', size, maxLength }}
                />
              );
              return (
                <div key={i} role="group" aria-label={t('ruleRow', { n })} className="mgr-row mgr-top hub-rule">
                  {digits('prefix', 'rulePrefix', 3, 2)}
                  <CheckedField label={t('ruleKind')} error={undefined} errorId={`hub-rule-${i}-kind-error`}>
                    <ChoiceSelect
                      value={r.kind}
                      options={{ price: t('rulePrice'), weight: t('ruleWeight') }}
                      onChange={(kind) => setRule(i, { kind })}
                    />
                  </CheckedField>
                  {digits('code', 'ruleCodeDigits', 2, 1)}
                  {digits('value', 'ruleValueDigits', 2, 1)}
                  <div className="mgr-field-actions">
                    <button
                      type="button"
                      onClick={() => {
                        setRules(rules.filter((_, j) => j !== i));
                        setRuleErrors({});
                      }}
                    >
                      {t('ruleRemove', { n })}
                    </button>
                  </div>
                </div>
              );
            })}
            {rules.length < 10 && (
              <div className="mgr-row">
                <button
                  type="button"
                  onClick={() => setRules([...rules, { prefix: '', kind: 'price', code: '5', value: '5' }])}
                >
                  {t('ruleAdd')}
                </button>
              </div>
            )}
          </fieldset>
          <div className="mgr-row">
            <button type="submit" className="primary">
              {t('saveSettings')}
            </button>
          </div>
        </form>
      )}
      {message && (message.error ? <Alert text={message.text} /> : <p role="status">{message.text}</p>)}
    </section>
  );
}

/** The tills' shifts of the period, per till and cashier: the till's own expected, counted and difference. */
export function ShiftsTable({ t, lang, shifts }: { t: HubT; lang: HubLang; shifts: Report['shifts'] }) {
  const when = (iso: string | null): string => (iso === null ? t('shiftOpen') : formatMoment(iso, lang));
  const rsd = (para: number | null): string => (para === null ? '—' : formatRsd(para));
  return (
    <>
      <h3>{t('shifts')}</h3>
      {shifts.length === 0 ? (
        <p>{t('noShifts')}</p>
      ) : (
        <MgrTable
          scroll
          label={t('shifts')}
          headers={(
            [
              'till',
              'cashier',
              'shiftOpened',
              'shiftClosed',
              'openingFloat',
              'cashSales',
              'cashIn',
              'cashOut',
              'expected',
              'counted',
              'difference',
            ] as const
          ).map((k) => t(k))}
        >
          {shifts.map((s) => (
            <tr key={`${s.tillId}:${s.shiftId}`}>
              <td>{s.tillName}</td>
              <td>{s.cashier}</td>
              <td>{when(s.openedAt)}</td>
              <td>{when(s.closedAt)}</td>
              <td className="mgr-num">{rsd(s.openingFloatPara)}</td>
              <td className="mgr-num">{rsd(s.cashSalesPara)}</td>
              <td className="mgr-num">{rsd(s.cashInPara)}</td>
              <td className="mgr-num">{rsd(s.cashOutPara)}</td>
              <td className="mgr-num">{rsd(s.expectedPara)}</td>
              <td className="mgr-num">{rsd(s.countedPara)}</td>
              <td className={s.differencePara !== null && s.differencePara < 0 ? 'mgr-num mgr-short' : 'mgr-num'}>
                {rsd(s.differencePara)}
                {s.differencePara !== null && s.differencePara < 0 ? ` (${t('short')})` : ''}
              </td>
            </tr>
          ))}
        </MgrTable>
      )}
    </>
  );
}

function ReportSection({ t, lang, token }: { t: HubT; lang: HubLang; token: string }) {
  const [from, setFrom] = useState<string | null>(today());
  const [to, setTo] = useState<string | null>(today());
  const [report, setReport] = useState<{ current: Report; previous: Report } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The till's date field, with its words from the manager screens' catalog.
  const mgrT: ManagerT = (key, params) => mt(lang, key, params);
  const rt = reportT(lang);
  // Whole days of the shop (Belgrade midnight to midnight), whatever the zone of the machine showing the hub.
  const period = (from: string, to: string): { from: string; to: string } => ({
    from: new Date(dayStart(from)).toISOString(),
    to: new Date(dayStart(addDays(to, 1))).toISOString(),
  });
  const show = async (): Promise<void> => {
    if (!from || !to) return; // the date field says what is wrong at the field
    try {
      const p = period(from, to);
      const api = hubApi(token);
      const current = notFile(await api.call('report', p));
      const previous = notFile(await api.call('report', previousPeriod(p.from, p.to)));
      setReport({ current, previous });
      setError(null);
    } catch (err) {
      setError(hubErrorText(t, err, { from: t('from'), to: t('to') }));
    }
  };
  const csv = async (format: 'csv' | 'receipts'): Promise<void> => {
    if (!from || !to) return;
    // The times in the CSV as the manager's own clock shows them.
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    try {
      const file = await hubApi(token).call('report', { ...period(from, to), format, timeZone, lang });
      // The hub names the file by its own days (`kasa-hub-receipts-2026-11-20_2026-11-26.csv`), as the till does.
      if (isHubFile(file))
        download(file, format === 'csv' ? `kasa-hub-report-${from}.csv` : `kasa-hub-receipts-${from}.csv`);
    } catch (err) {
      setError(hubErrorText(t, err, { from: t('from'), to: t('to') }));
    }
  };
  const totals = (r: ReportView) =>
    `${rt('receipts')} ${r.sales.count + r.advances.count + r.refunds.count} — ${rt('gross')} ${formatRsd(r.grossPara)}`;
  const r = report?.current;
  const grossOf = <K,>(list: readonly { key: K; report: ReportView }[] | undefined, key: K): number | undefined =>
    list?.find((x) => x.key === key)?.report.grossPara;
  const extras = (cur: Report, prev: Report): ReportExtras => {
    const prevTills = prev.byTill.map((x) => ({ key: x.tillId, report: x.report }));
    const prevShops = (prev.byShop ?? []).map((x) => ({ key: x.shopId, report: x.report }));
    return {
      byTill: cur.byTill.map((x) => ({
        key: String(x.tillId),
        name: x.name,
        current: x.report.grossPara,
        previous: grossOf(prevTills, x.tillId) ?? 0,
      })),
      ...((cur.byShop ?? []).length > 1
        ? {
            byShop: (cur.byShop ?? []).map((x) => ({
              key: String(x.shopId),
              name: x.name,
              current: x.report.grossPara,
              previous: grossOf(prevShops, x.shopId) ?? 0,
            })),
          }
        : {}),
    };
  };
  return (
    <section aria-label={t('report')} className="mgr-tab">
      <div className="mgr-row mgr-top">
        <DateField t={mgrT} lang={lang} label={t('from')} value={from} onChange={setFrom} required />
        <DateField t={mgrT} lang={lang} label={t('to')} value={to} onChange={setTo} required />
        <div className="mgr-field-actions">
          <button type="button" className="primary" onClick={() => void show()}>
            {t('show')}
          </button>
          <button type="button" onClick={() => void csv('csv')}>
            {t('csv')}
          </button>
          <button type="button" onClick={() => void csv('receipts')}>
            {rt('receipts_csv')}
          </button>
        </div>
      </div>
      <Alert text={error} />
      {r && report && (
        <>
          <ReportCharts
            lang={lang}
            current={r.total}
            previous={report.previous.total}
            extras={extras(r, report.previous)}
          />
          <h3>{t('tills')}</h3>
          <PairTable label={t('tills')} rows={r.byTill.map((x) => [String(x.tillId), x.name, totals(x.report)])} />
          <h3>{t('cashier')}</h3>
          <PairTable
            label={t('cashier')}
            rows={r.byCashier.map((x) => [x.cashier, x.cashier || rt('no_cashier'), totals(x.report)])}
          />
          <h3>{t('label')}</h3>
          <PairTable
            label={t('label')}
            rows={r.total.byLabel.map((l) => [
              l.label,
              l.label.includes('+') ? l.label : `${l.label} ${l.rate}%`,
              `${rt('gross')} ${formatRsd(l.netPara)} / ${rt('tax')} ${formatRsd(l.taxPara)}`,
            ])}
          />
          <h3>{t('processor')}</h3>
          <PairTable
            label={t('processor')}
            rows={(r.byProcessor ?? []).map((p) => [
              p.processor,
              t(p.processor === 'lpfr' ? 'processor_lpfr' : 'processor_gateway'),
              `${t('receipts_count', { count: p.count })} / ${formatRsd(p.netPara)}`,
            ])}
          />
          {r.byTill.length === 0 && <p>{t('none')}</p>}
          <ShiftsTable t={t} lang={lang} shifts={r.shifts} />
        </>
      )}
    </section>
  );
}

/** The hub's audit: who did what and when at the hub, newest first. */
function AuditSection({ t, lang, token }: { t: HubT; lang: HubLang; token: string }) {
  const [entries, setEntries] = useState<AuditRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useHubRead(
    () => hubApi(token).call('audit'),
    (r) => setEntries(r.entries),
    (err) => setError(hubErrorText(t, err)),
    [token, t],
  );
  return (
    <section aria-label={t('audit')} className="mgr-tab">
      <Alert text={error} />
      {entries && (
        <ListTable
          none={t('auditEmpty')}
          count={entries.length}
          scroll
          label={t('audit')}
          headers={[t('auditWhen'), t('auditWho'), t('auditWhat')]}
        >
          {entries.map((e) => (
            <tr key={e.id}>
              <td>{localTime(lang, e.at)}</td>
              {/* The admin token's actions are the chain administrator's (recorded as `admin`). */}
              <td>{auditPerson(lang, e.actor)}</td>
              <td>{hubAuditSentence(lang, e)}</td>
            </tr>
          ))}
        </ListTable>
      )}
    </section>
  );
}
