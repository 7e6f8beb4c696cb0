/**
 * The manager's "Hub" tab: this till's link to the store hub (`hub.status`, refreshed every second
 * while open) and, while the till is not enrolled, the enrolment form (hub URL, one-time code, the hub
 * certificate's fingerprint as the hub shows it, manager PIN → `hub.enrol`). Once enrolled: the pinned
 * fingerprint, an alarm when the hub shows another certificate, and the form that pins a replaced one
 * (`hub.repin`, a manager's PIN). The core checks the PIN and the input; a refusal is shown at the field it
 * names, in the manager's language. The hub credential never reaches this screen.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { HubStatusView } from '../../../shared/contract/hub.ts';
import type { Language } from '../../../shared/domain.ts';
import { message } from '../../../shared/messages.ts';
import { formatFingerprint } from '../../../shared/hub/fingerprint.ts';
import { call, localTime, useAction, useFieldErrors, Alert, CheckedField, SubmitButton } from './common.tsx';
import type { ManagerT } from './i18n.ts';
import { CheckedInput, CheckedPinInput, fieldBinder } from '../ui/forms.tsx';

type HubField = 'url' | 'code' | 'fingerprint' | 'managerPin';

export function HubTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [status, setStatus] = useState<HubStatusView | null>(null);
  const [form, setForm] = useState({ url: '', code: '', fingerprint: '', managerPin: '' });
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const labels: Record<HubField, string> = {
    url: t('hub_url'),
    code: t('hub_code'),
    fingerprint: t('hub_fingerprint'),
    managerPin: t('manager_pin'),
  };
  // A refusal naming a field (bad input, a refused PIN, the hub's answer) goes next to it; the rest to the alert.
  // An unreachable hub is about the URL the manager typed.
  const { fieldErrors, setFieldErrors, fielded } = useFieldErrors(
    labels,
    'hub',
    (e) => e.field ?? (e.code === 'unavailable' ? 'url' : undefined),
  );

  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = async (): Promise<void> => {
      const r = await api['hub.status']({});
      if (!alive) return;
      if (r.ok) setStatus(r.value);
      timer = setTimeout(() => void refresh(), 1000);
    };
    void refresh();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, [api]);

  const enrol = (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    setFieldErrors({});
    // The fingerprint is required for an https hub; a plain http one (this computer only) has none.
    const https = /^https:/i.test(form.url.trim());
    const missing = (['url', 'code', ...(https ? (['fingerprint'] as const) : []), 'managerPin'] as const).find(
      (f) => !form[f].trim(),
    );
    if (missing) {
      setFieldErrors({ [missing]: message(lang, 'required', { field: labels[missing] }) });
      return;
    }
    void run(
      fielded(async () => {
        const r = await call(
          api['hub.enrol']({
            url: form.url.trim(),
            code: form.code.trim(),
            managerPin: form.managerPin,
            ...(form.fingerprint.trim() ? { fingerprint: form.fingerprint.trim() } : {}),
          }),
        );
        setForm({ url: '', code: '', fingerprint: '', managerPin: '' });
        setNote(t('hub_enrolled_note', { till: r.tillId, shop: r.shopId }));
        setStatus(await call(api['hub.status']({})));
      }),
    );
  };

  const repin = (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    setFieldErrors({});
    const missing = (['fingerprint', 'managerPin'] as const).find((f) => !form[f].trim());
    if (missing) {
      setFieldErrors({ [missing]: message(lang, 'required', { field: labels[missing] }) });
      return;
    }
    void run(
      fielded(async () => {
        await call(
          api['hub.repin']({
            fingerprint: form.fingerprint.trim(),
            managerPin: form.managerPin,
            ...(form.url.trim() ? { url: form.url.trim() } : {}),
          }),
        );
        setForm({ url: '', code: '', fingerprint: '', managerPin: '' });
        setNote(t('hub_repinned_note'));
        setStatus(await call(api['hub.status']({})));
      }),
    );
  };

  /** A choice sent with the manager's PIN (`send` answers the note to show): the PIN cleared, the status read again. */
  const choose = (send: (managerPin: string) => Promise<string>) => {
    void run(
      fielded(async () => {
        const done = await send(form.managerPin);
        setForm({ ...form, managerPin: '' });
        setNote(done);
        setStatus(await call(api['hub.status']({})));
      }),
    );
  };
  /** The manager's choice after enrolling into a shop with products (`hub.catalogChoice`). */
  const chooseCatalog = (keep: 'hub' | 'till') =>
    choose(async (managerPin) => {
      await call(api['hub.catalogChoice']({ keep, managerPin }));
      return t(keep === 'hub' ? 'hub_catalog_kept_hub' : 'hub_catalog_kept_till');
    });
  /** This till's own goods book brought to the hub as the shop's opening stock (`hub.goodsOpening`). */
  const bringGoods = (e: FormEvent) => {
    e.preventDefault();
    choose(async (managerPin) => {
      const r = await call(api['hub.goodsOpening']({ managerPin }));
      return t('hub_goods_brought_note', { number: r.number });
    });
  };
  const goods = status?.catalogChoice ? null : status?.goodsOpening;

  const when = (iso: string | null | undefined) => (iso ? localTime(iso, lang) : '—');
  const bind = fieldBinder('hub', labels, fieldErrors, form, setForm);
  const fingerprintField = (
    <CheckedInput
      {...bind('fingerprint')}
      input={{ autoComplete: 'off', spellCheck: false, className: 'mgr-fingerprint', placeholder: '3F2A 9C01 …' }}
    />
  );
  const urlField = (label: string, placeholder: string) => (
    <CheckedInput {...bind('url')} label={label} input={{ type: 'url', placeholder }} />
  );
  const pinField = <CheckedPinInput {...bind('managerPin')} />;

  return (
    <div className="mgr-tab">
      <section aria-label={t('hub_status')}>
        <h3>{t('hub_status')}</h3>
        {status && (
          <dl className="mgr-dl" aria-label={t('hub_status')}>
            <dt>{t('state')}</dt>
            <dd data-testid="hub-state">
              {status.enrolled
                ? t('hub_enrolled')
                : status.configured
                  ? t('hub_not_enrolled_url')
                  : t('hub_not_configured')}
            </dd>
            <dt>{t('hub_url')}</dt>
            <dd data-testid="hub-url">{status.url ?? '—'}</dd>
            <dt>{t('hub_pinned')}</dt>
            <dd data-testid="hub-fingerprint" className={status.fingerprint ? 'mgr-fingerprint' : ''}>
              {status.fingerprint ? formatFingerprint(status.fingerprint) : status.enrolled ? t('hub_no_tls') : '—'}
            </dd>
            <dt>{t('hub_till')}</dt>
            <dd data-testid="hub-till">{status.tillId ?? '—'}</dd>
            <dt>{t('hub_shop')}</dt>
            <dd data-testid="hub-shop">{status.shopId ?? '—'}</dd>
            <dt>{t('hub_last_push')}</dt>
            <dd data-testid="hub-last-push">{when(status.lastPushAt)}</dd>
            <dt>{t('hub_last_pull')}</dt>
            <dd data-testid="hub-last-pull">{when(status.lastPullAt)}</dd>
            <dt>{t('hub_pending')}</dt>
            <dd data-testid="hub-pending">{status.pending}</dd>
            <dt>{t('hub_cursor')}</dt>
            <dd data-testid="hub-cursor">{status.cursor}</dd>
            <dt>{t('hub_gaps')}</dt>
            <dd data-testid="hub-gaps">
              {status.gaps.length ? status.gaps.map((g) => `${g.from}–${g.to}`).join(', ') : '—'}
            </dd>
            <dt>{t('hub_last_error')}</dt>
            <dd data-testid="hub-last-error" className={status.lastError ? 'mgr-error' : ''}>
              {status.pinMismatch ? t('hub_pin_mismatch_short') : (status.lastError ?? '—')}
            </dd>
          </dl>
        )}
        {status?.pinMismatch && (
          <p role="alert" className="mgr-error" data-testid="hub-pin-mismatch">
            {t('hub_pin_mismatch', { seen: formatFingerprint(status.pinMismatch.seen) || '—' })}
          </p>
        )}
        {status?.refused && (
          <p role="alert" className="mgr-error" data-testid="hub-refused">
            {status.refused.stuck
              ? t('hub_refused', { seq: status.refused.seq, retry: when(status.refused.retryAt) })
              : t('hub_refused_claimed', { seq: status.refused.seq })}
          </p>
        )}
      </section>
      {status && !status.enrolled && (
        <form className="mgr-row" aria-label={t('hub_enrol')} onSubmit={enrol} noValidate>
          {urlField(labels.url, 'https://192.168.1.10:8787')}
          <CheckedInput {...bind('code')} input={{ autoComplete: 'off' }} />
          {fingerprintField}
          {pinField}
          <SubmitButton busy={busy}>{t('hub_enrol')}</SubmitButton>
        </form>
      )}
      {status?.catalogChoice && (
        <form className="mgr-row" aria-label={t('hub_catalog_choice')} onSubmit={(e) => e.preventDefault()} noValidate>
          <p>
            {t('hub_catalog_choice_text', {
              till: status.catalogChoice.tillProducts,
              hub: status.catalogChoice.hubProducts ?? '—',
            })}
          </p>
          {pinField}
          {(['hub', 'till'] as const).map((keep) => (
            <button key={keep} type="button" disabled={busy} onClick={() => chooseCatalog(keep)}>
              {t(`hub_keep_${keep}`)}
            </button>
          ))}
        </form>
      )}
      {goods && (goods.brought || goods.tillLines > 0) && (
        <>
          <h3>{t('hub_goods_choice')}</h3>
          <form className="mgr-row" aria-label={t('hub_goods_choice')} onSubmit={bringGoods} noValidate>
            {goods.brought ? (
              <p>{t('hub_goods_brought_text', { number: goods.brought.number, at: when(goods.brought.at) })}</p>
            ) : (
              <>
                <p>{t('hub_goods_choice_text', { lines: goods.tillLines })}</p>
                {pinField}
                <SubmitButton busy={busy}>{t('hub_goods_bring')}</SubmitButton>
              </>
            )}
          </form>
        </>
      )}
      {status?.staffChoice && (
        <StaffChoice
          api={api}
          t={t}
          choice={status.staffChoice}
          run={run}
          busy={busy}
          onDone={async (n) => {
            setNote(t('hub_staff_chosen', n));
            setStatus(await call(api['hub.status']({})));
          }}
        />
      )}
      {status?.enrolled && (
        <form className="mgr-row" aria-label={t('hub_repin')} onSubmit={repin} noValidate>
          {fingerprintField}
          {urlField(t('hub_new_url'), status.url ?? '')}
          {pinField}
          <SubmitButton busy={busy}>{t('hub_repin')}</SubmitButton>
        </form>
      )}
      <Alert text={error} />
      {note && <p role="status">{note}</p>}
    </div>
  );
}

/**
 * The staff choice after enrolling into a shop that has a manager (`hub.staffChoice`): both lists, and for each of
 * this till's people the hub person they are or "add as new" (with another name when theirs is taken), approved by
 * a manager's PIN at the hub. A refusal is shown at the field it names.
 */
function StaffChoice(props: {
  api: PosApi;
  t: ManagerT;
  choice: NonNullable<HubStatusView['staffChoice']>;
  run: ReturnType<typeof useAction>[2];
  busy: boolean;
  onDone: (n: { mapped: number; added: number }) => Promise<void>;
}) {
  const { api, t, choice, run, busy } = props;
  const [picks, setPicks] = useState<Record<string, string>>({});
  const [names, setNames] = useState<Record<string, string>>({});
  const [hubPin, setHubPin] = useState('');
  const labels: Record<string, string> = { hubPin: t('hub_pin_at_hub') };
  choice.till.forEach((p, i) => {
    labels[`choices.${i}.hubId`] = p.name;
    labels[`choices.${i}.name`] = t('hub_staff_new_name', { name: p.name });
  });
  const { fieldErrors, setFieldErrors, fielded, errorProps } = useFieldErrors(labels, 'hub-staff', (e) => e.field);
  const role = (r: 'cashier' | 'manager') => t(r === 'manager' ? 'role_manager' : 'role_cashier');
  // „Менаџер (Менаџер)“ says nothing twice: a first-run manager is named after the role.
  const who = (name: string, r: 'cashier' | 'manager') =>
    name.toLocaleLowerCase() === role(r).toLocaleLowerCase() ? name : `${name} (${role(r)})`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFieldErrors({});
    void run(
      fielded(async () => {
        const r = await call(
          api['hub.staffChoice']({
            hubPin,
            choices: choice.till.map((p) => {
              const hubId = picks[p.id] ?? '';
              const name = names[p.id]?.trim();
              return { id: p.id, hubId: hubId || null, ...(!hubId && name ? { name } : {}) };
            }),
          }),
        );
        setHubPin('');
        await props.onDone(r);
      }),
    );
  };
  return (
    <form className="mgr-col" aria-label={t('hub_staff_choice')} onSubmit={submit} noValidate>
      <p>{t('hub_staff_choice_text')}</p>
      <h4 id="hub-staff-hub-people">{t('hub_staff_hub_people')}</h4>
      <table aria-labelledby="hub-staff-hub-people">
        <tbody>
          {(choice.hub ?? []).map((h) => (
            <tr key={h.id}>
              <td>{h.name}</td>
              <td>{role(h.role)}</td>
            </tr>
          ))}
          {choice.hub === null && (
            <tr>
              <td>{t('hub_staff_hub_unknown')}</td>
            </tr>
          )}
        </tbody>
      </table>
      {choice.till.map((p, i) => (
        <div className="mgr-row" key={p.id}>
          <CheckedField
            label={t('hub_staff_till_person', { who: who(p.name, p.role) })}
            error={fieldErrors[`choices.${i}.hubId`]}
            errorId={`hub-staff-choices.${i}.hubId-error`}
          >
            <select
              value={picks[p.id] ?? ''}
              onChange={(e) => setPicks({ ...picks, [p.id]: e.target.value })}
              {...errorProps(`choices.${i}.hubId`)}
            >
              <option value="">{t('hub_staff_add_new')}</option>
              {(choice.hub ?? []).map((h) => (
                <option key={h.id} value={h.id}>
                  {t('hub_staff_is', { who: who(h.name, h.role) })}
                </option>
              ))}
            </select>
          </CheckedField>
          {!picks[p.id] && (
            <CheckedField
              label={labels[`choices.${i}.name`] ?? ''}
              error={fieldErrors[`choices.${i}.name`]}
              errorId={`hub-staff-choices.${i}.name-error`}
            >
              <input
                value={names[p.id] ?? p.name}
                onChange={(e) => setNames({ ...names, [p.id]: e.target.value })}
                {...errorProps(`choices.${i}.name`)}
              />
            </CheckedField>
          )}
        </div>
      ))}
      <CheckedPinInput
        label={labels.hubPin ?? ''}
        error={fieldErrors.hubPin}
        errorId="hub-staff-hubPin-error"
        value={hubPin}
        onChange={setHubPin}
      />
      <SubmitButton busy={busy}>{t('hub_staff_apply')}</SubmitButton>
    </form>
  );
}
