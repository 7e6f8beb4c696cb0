/** The manager's settings tab (with the printer and backups sections). */
import { useEffect, useState, type ReactNode } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { AccountView, SettingsView } from '../../../shared/contract/settings.ts';
import type { CommandInput } from '../../../shared/contract/index.ts';

type SettingsUpdate = Omit<CommandInput<'settings.update'>, 'managerPin'>;
import type { Language, OfflineSales } from '../../../shared/domain.ts';
import type { ManagerT, ManagerText } from './i18n.ts';
import {
  call,
  pinOf,
  useRunner,
  ApprovedForm,
  Field,
  PinInput,
  RowForm,
  RunButton,
  SubmitButton,
  NoteAndAlert,
  LanguageOptions,
} from './common.tsx';
import { PrinterSection } from './PrinterSection.tsx';
import { BackupsSection } from './BackupsSection.tsx';
import { LpfrSection } from './LpfrSection.tsx';
import { IpsSection } from './IpsSection.tsx';
import { DisplaySection } from './DisplaySection.tsx';
import { Check } from '../components/Check.tsx';

function AccountBox(props: { t: ManagerT; account: AccountView }) {
  const { t, account: a } = props;
  return (
    <dl className="mgr-dl" aria-label={t('account')}>
      <dt>{t('account')}</dt>
      <dd>{a.mode === 'demo' ? t('mode_demo') : t('mode_live')}</dd>
      <dt>{t('key')}</dt>
      <dd data-testid="masked-key">{a.maskedKey ?? '—'}</dd>
      <dt>{t('gateway_url')}</dt>
      <dd>{a.gatewayUrl ?? '—'}</dd>
      <dt>{t('shop')}</dt>
      <dd>
        {a.shopName ?? ''} {a.shopId ? `(${a.shopId})` : ''}
      </dd>
      <dt>{t('company')}</dt>
      <dd>{a.companyName ?? ''}</dd>
      <dt>{t('key_version')}</dt>
      <dd>{a.keyVersion ?? '—'}</dd>
      <dt>{t('state')}</dt>
      <dd data-testid="account-env">{t(`env_${a.environment}` as ManagerText)}</dd>
    </dl>
  );
}

/** Hours for a threshold stored in minutes, as the manager reads them („24“, „1,5“). */
export function minutesAsHours(minutes: number, lang: Language): string {
  return new Intl.NumberFormat(lang === 'en' ? 'en-GB' : 'sr-Latn-RS', {
    maximumFractionDigits: 2,
    useGrouping: false,
  }).format(minutes / 60);
}

/** Minutes from hours as typed („24“, „1,5“, „1.5“); null when it is not a number of hours. */
export function hoursAsMinutes(typed: string): number | null {
  const t = typed.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  return Math.round(Number(t) * 60);
}

type SettingsForm = {
  shopName: string;
  tillName: string;
  terminalId: string;
  language: string;
  outageWarnMinutes: string;
  outageAlarmHours: string;
  unfiscalizedCashLimitHours: string;
  offlineSales: OfflineSales;
  discountLimitPercent: string;
  trainingMode: boolean;
  allowRefundWithoutBuyerId: boolean;
};

/** One headed group of the settings (Продавница, Рачун, Фискализација, ...). */
function Group(props: { title: string; children: ReactNode }) {
  return (
    <section className="mgr-group" aria-label={props.title}>
      <h2 className="mgr-group-title">{props.title}</h2>
      {props.children}
    </section>
  );
}

/**
 * The manager's settings, grouped as a shop thinks of them: the shop and the till, the receipt, fiscalization
 * (the account, the limits without the internet, the L-PFR), the printer, the backups. Each group saves its own
 * fields (`settings.update` takes any of them).
 */
export function SettingsTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [view, setView] = useState<SettingsView | null>(null);
  const [account, setAccount] = useState<AccountView | null>(null);
  const [keyForm, setKeyForm] = useState({ apiKey: '', gatewayUrl: '', managerPin: '' });
  const [form, setForm] = useState<SettingsForm>({
    shopName: '',
    tillName: '',
    terminalId: '',
    language: 'sr-Cyrl',
    outageWarnMinutes: '',
    outageAlarmHours: '',
    unfiscalizedCashLimitHours: '',
    offlineSales: 'allowed',
    discountLimitPercent: '',
    trainingMode: false,
    allowRefundWithoutBuyerId: false,
  });
  const [note, setNote] = useState<string | null>(null);
  const [error, runner] = useRunner(t);
  const { run, busy } = runner;
  useEffect(() => {
    void run(async () => {
      const v = await call(api['settings.get']({}));
      setView(v);
      setAccount(v.account);
      setKeyForm((k) => ({ ...k, gatewayUrl: v.gatewayUrl ?? '' }));
      setForm({
        shopName: v.shopName,
        tillName: v.tillName,
        terminalId: v.terminalId,
        language: v.language,
        outageWarnMinutes: String(v.outageWarnMinutes),
        outageAlarmHours: minutesAsHours(v.outageAlarmMinutes, lang),
        unfiscalizedCashLimitHours: String(v.unfiscalizedCashLimitHours),
        offlineSales: v.offlineSales,
        discountLimitPercent: String(v.discountLimitPercent),
        trainingMode: v.trainingMode,
        allowRefundWithoutBuyerId: v.allowRefundWithoutBuyerId ?? false,
      });
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  /** Saves one group's fields; the other groups' typing stays as it is. */
  const save = async (managerPin: string, fields: SettingsUpdate) => {
    setNote(null);
    setView(await call(api['settings.update']({ ...pinOf(managerPin), ...fields })));
    setNote(t('saved'));
  };
  /** One group's form: its fields saved by `settings.update`, approved by the manager logged in (or a PIN). */
  const section = <F extends string>(
    p: Pick<Parameters<typeof ApprovedForm<F>>[0], 'label' | 'idPrefix' | 'labels' | 'onSubmit' | 'children'>,
  ) => view && <ApprovedForm selfApproves runner={runner} button={t('save')} {...p} />;
  const input = (key: keyof SettingsForm, extra: { maxLength?: number; inputMode?: 'numeric' | 'decimal' } = {}) =>
    function Control(errorProps: { 'aria-invalid'?: boolean; 'aria-describedby'?: string }) {
      return (
        <input
          {...extra}
          {...errorProps}
          value={String(form[key])}
          onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
        />
      );
    };
  return (
    <div className="mgr-tab mgr-settings">
      <NoteAndAlert note={note} error={error} />
      <Group title={t('group_shop')}>
        {section({
          label: t('shop_settings'),
          idPrefix: 'settings-shop',
          labels: {
            shopName: t('shop_name'),
            tillName: t('till_name'),
            terminalId: t('terminal'),
            language: t('language'),
          },
          onSubmit: (pin) =>
            save(pin, {
              shopName: form.shopName,
              tillName: form.tillName,
              terminalId: form.terminalId,
              language: form.language as Language,
            }),
          children: (field) => (
            <>
              {field('shopName', input('shopName', { maxLength: 60 }))}
              {field('tillName', input('tillName', { maxLength: 60 }))}
              {field('terminalId', input('terminalId'))}
              {field('language', (errorProps) => (
                <select {...errorProps} value={form.language} onChange={(e) => set('language', e.target.value)}>
                  <LanguageOptions />
                </select>
              ))}
            </>
          ),
        })}
      </Group>
      <Group title={t('group_receipt')}>
        {section({
          label: t('receipt_settings'),
          idPrefix: 'settings-receipt',
          labels: { discountLimitPercent: t('discount_limit') },
          onSubmit: (pin) =>
            save(pin, {
              discountLimitPercent: Number(form.discountLimitPercent),
              trainingMode: form.trainingMode,
              allowRefundWithoutBuyerId: form.allowRefundWithoutBuyerId,
            }),
          children: (field) => (
            <>
              {field('discountLimitPercent', input('discountLimitPercent', { inputMode: 'numeric' }))}
              <Check label={t('training')} checked={form.trainingMode} onChange={(c) => set('trainingMode', c)} />
              <Check
                label={t('allow_no_buyer')}
                checked={form.allowRefundWithoutBuyerId}
                onChange={(c) => set('allowRefundWithoutBuyerId', c)}
              />
            </>
          ),
        })}
        {/* Mounted with the tab, not once the settings arrived: its own load must not overwrite typing. */}
        <IpsSection api={api} t={t} />
        <DisplaySection api={api} t={t} lang={lang} />
      </Group>
      <Group title={t('group_fiscal')}>
        {account && <AccountBox t={t} account={account} />}
        <RunButton run={run} busy={busy} action={async () => setAccount(await call(api['settings.verifyApiKey']({})))}>
          {t('verify')}
        </RunButton>
        <RowForm
          onSubmit={() =>
            void run(async () => {
              setAccount(
                await call(
                  api['settings.setApiKey']({
                    apiKey: keyForm.apiKey,
                    gatewayUrl: keyForm.gatewayUrl,
                    ...pinOf(keyForm.managerPin),
                  }),
                ),
              );
              setKeyForm({ ...keyForm, apiKey: '', managerPin: '' });
              setNote(t('saved'));
            })
          }
        >
          <Field label={t('gateway_url')}>
            <input
              type="url"
              value={keyForm.gatewayUrl}
              onChange={(e) => setKeyForm({ ...keyForm, gatewayUrl: e.target.value })}
            />
          </Field>
          <Field label={t('new_key')}>
            <input
              type="password"
              autoComplete="off"
              value={keyForm.apiKey}
              onChange={(e) => setKeyForm({ ...keyForm, apiKey: e.target.value })}
            />
          </Field>
          <PinInput
            selfApproves
            t={t}
            value={keyForm.managerPin}
            onChange={(v) => setKeyForm({ ...keyForm, managerPin: v })}
          />
          <SubmitButton busy={busy}>{t('set_key')}</SubmitButton>
        </RowForm>
        {section({
          label: t('offline_settings'),
          idPrefix: 'settings-offline',
          labels: {
            outageWarnMinutes: t('warn_minutes'),
            outageAlarmMinutes: t('alarm_hours'),
            unfiscalizedCashLimitHours: t('unfiscalized_limit_hours'),
            offlineSales: t('offline_sales'),
          },
          onSubmit: (pin) => {
            const alarm = hoursAsMinutes(form.outageAlarmHours);
            if (alarm === null)
              throw Object.assign(new Error(t('hours_format', { field: t('alarm_hours') })), {
                code: 'invalid_input',
                field: 'outageAlarmMinutes',
              });
            return save(pin, {
              outageWarnMinutes: Number(form.outageWarnMinutes),
              outageAlarmMinutes: alarm,
              unfiscalizedCashLimitHours: Number(form.unfiscalizedCashLimitHours),
              offlineSales: form.offlineSales,
            });
          },
          children: (field) => (
            <>
              {field('outageWarnMinutes', input('outageWarnMinutes', { inputMode: 'numeric' }))}
              {field('outageAlarmMinutes', input('outageAlarmHours', { inputMode: 'decimal' }))}
              {field('unfiscalizedCashLimitHours', input('unfiscalizedCashLimitHours', { inputMode: 'numeric' }))}
              {field('offlineSales', (errorProps) => (
                <select
                  {...errorProps}
                  value={form.offlineSales}
                  onChange={(e) => set('offlineSales', e.target.value === 'refused' ? 'refused' : 'allowed')}
                >
                  <option value="allowed">{t('offline_sales_allowed')}</option>
                  <option value="refused">{t('offline_sales_refused')}</option>
                </select>
              ))}
            </>
          ),
        })}
        <LpfrSection api={api} t={t} />
      </Group>
      <PrinterSection api={api} t={t} lang={lang} />
      <BackupsSection api={api} t={t} lang={lang} />
    </div>
  );
}
