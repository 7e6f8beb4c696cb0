/** The manager's settings tab (with the printer and backups sections). */
import { useEffect, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { AccountView, SettingsView } from '../../../shared/contract/settings.ts';
import type { Language, OfflineSales } from '../../../shared/domain.ts';
import type { ManagerT, ManagerText } from './i18n.ts';
import { call, pinOf, useAction, Field, PinInput, RowForm, RunButton, SubmitButton, NoteAndAlert } from './common.tsx';
import { PrinterSection } from './PrinterSection.tsx';
import { BackupsSection } from './BackupsSection.tsx';
import { LpfrSection } from './LpfrSection.tsx';
import { IpsSection } from './IpsSection.tsx';
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

export function SettingsTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t } = props;
  const [view, setView] = useState<SettingsView | null>(null);
  const [account, setAccount] = useState<AccountView | null>(null);
  const [keyForm, setKeyForm] = useState({ apiKey: '', gatewayUrl: '', managerPin: '' });
  const [form, setForm] = useState({
    shopName: '',
    tillName: '',
    terminalId: '',
    outageWarnMinutes: '',
    outageAlarmMinutes: '',
    unfiscalizedCashLimitHours: '',
    offlineSales: 'allowed' as OfflineSales,
    discountLimitPercent: '',
    trainingMode: false,
    allowRefundWithoutBuyerId: false,
    language: 'sr-Cyrl',
    managerPin: '',
  });
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  useEffect(() => {
    void run(async () => {
      const v = await call(api['settings.get']({}));
      setView(v);
      setAccount(v.account);
      setKeyForm((k) => ({ ...k, gatewayUrl: v.gatewayUrl ?? '' }));
      setForm((f) => ({
        ...f,
        shopName: v.shopName,
        tillName: v.tillName,
        terminalId: v.terminalId,
        outageWarnMinutes: String(v.outageWarnMinutes),
        outageAlarmMinutes: String(v.outageAlarmMinutes),
        unfiscalizedCashLimitHours: String(v.unfiscalizedCashLimitHours),
        offlineSales: v.offlineSales,
        discountLimitPercent: String(v.discountLimitPercent),
        trainingMode: v.trainingMode,
        allowRefundWithoutBuyerId: v.allowRefundWithoutBuyerId ?? false,
        language: v.language,
      }));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="mgr-tab">
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
      {view && (
        <RowForm
          label={t('till_settings')}
          onSubmit={() =>
            void run(async () => {
              const v = await call(
                api['settings.update']({
                  ...pinOf(form.managerPin),
                  shopName: form.shopName,
                  tillName: form.tillName,
                  terminalId: form.terminalId,
                  outageWarnMinutes: Number(form.outageWarnMinutes),
                  outageAlarmMinutes: Number(form.outageAlarmMinutes),
                  unfiscalizedCashLimitHours: Number(form.unfiscalizedCashLimitHours),
                  offlineSales: form.offlineSales,
                  discountLimitPercent: Number(form.discountLimitPercent),
                  trainingMode: form.trainingMode,
                  allowRefundWithoutBuyerId: form.allowRefundWithoutBuyerId,
                  language: form.language as Language,
                }),
              );
              setView(v);
              setForm({ ...form, managerPin: '' });
              setNote(t('saved'));
            })
          }
        >
          <Field label={t('shop_name')}>
            <input
              maxLength={60}
              value={form.shopName}
              onChange={(e) => setForm({ ...form, shopName: e.target.value })}
            />
          </Field>
          <Field label={t('till_name')}>
            <input
              maxLength={60}
              value={form.tillName}
              onChange={(e) => setForm({ ...form, tillName: e.target.value })}
            />
          </Field>
          <Field label={t('terminal')}>
            <input value={form.terminalId} onChange={(e) => setForm({ ...form, terminalId: e.target.value })} />
          </Field>
          <Field label={t('warn_minutes')}>
            <input
              inputMode="numeric"
              value={form.outageWarnMinutes}
              onChange={(e) => setForm({ ...form, outageWarnMinutes: e.target.value })}
            />
          </Field>
          <Field label={t('alarm_minutes')}>
            <input
              inputMode="numeric"
              value={form.outageAlarmMinutes}
              onChange={(e) => setForm({ ...form, outageAlarmMinutes: e.target.value })}
            />
          </Field>
          <Field label={t('unfiscalized_limit_hours')}>
            <input
              inputMode="numeric"
              value={form.unfiscalizedCashLimitHours}
              onChange={(e) => setForm({ ...form, unfiscalizedCashLimitHours: e.target.value })}
            />
          </Field>
          <Field label={t('offline_sales')}>
            <select
              value={form.offlineSales}
              onChange={(e) => setForm({ ...form, offlineSales: e.target.value === 'refused' ? 'refused' : 'allowed' })}
            >
              <option value="allowed">{t('offline_sales_allowed')}</option>
              <option value="refused">{t('offline_sales_refused')}</option>
            </select>
          </Field>
          <Field label={t('discount_limit')}>
            <input
              inputMode="numeric"
              value={form.discountLimitPercent}
              onChange={(e) => setForm({ ...form, discountLimitPercent: e.target.value })}
            />
          </Field>
          <Field label={t('language')}>
            <select value={form.language} onChange={(e) => setForm({ ...form, language: e.target.value })}>
              <option value="sr-Cyrl">Српски (ћирилица)</option>
              <option value="sr-Latn">Srpski (latinica)</option>
              <option value="en">English</option>
            </select>
          </Field>
          <Check
            label={t('training')}
            checked={form.trainingMode}
            onChange={(checked) => setForm({ ...form, trainingMode: checked })}
          />
          <Check
            label={t('allow_no_buyer')}
            checked={form.allowRefundWithoutBuyerId}
            onChange={(checked) => setForm({ ...form, allowRefundWithoutBuyerId: checked })}
          />
          <PinInput selfApproves t={t} value={form.managerPin} onChange={(v) => setForm({ ...form, managerPin: v })} />
          <SubmitButton busy={busy}>{t('save')}</SubmitButton>
        </RowForm>
      )}
      <NoteAndAlert note={note} error={error} />
      <LpfrSection api={api} t={t} />
      <IpsSection api={api} t={t} />
      <PrinterSection api={api} t={t} lang={props.lang} />
      <BackupsSection api={api} t={t} lang={props.lang} />
    </div>
  );
}
