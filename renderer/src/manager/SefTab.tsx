/**
 * Менаџер → Е-фактуре (docs/sef.md): the sales of business buyers that may get an e-invoice („Е-фактура“), the
 * e-invoices with their state at SEF in words (a refusal with SEF's reasons; send again, cancel or storno), the
 * incoming invoices fetched into goods receipt drafts, and SEF's settings. The API key is typed, never shown.
 */
import { useEffect, useState } from 'react';
import type { PosApi, SefDocumentView, SefOfferView, SefSettingsView } from '../../../shared/contract/index.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatRsd } from '../../../shared/money.ts';
import { buyerIdText } from '../../../shared/buyer-id.ts';
import { hasMessage, message } from '../../../shared/messages.ts';
import { call, ChoiceField, Field, localTime, MgrTable, NoteAndAlert, useAction } from './common.tsx';
import type { ManagerT, ManagerText } from './i18n.ts';

/** A document as the list shows it: the till's own, or the hub's (with its till: renderer/src/hub-ui/HubSef.tsx). */
export type SefRow = Omit<SefDocumentView, 'orderId' | 'auto'> & { tillName?: string };

/** SEF's on-off settings with the text beside each switch, in the order the form shows them. */
const SEF_SWITCHES: readonly (readonly ['autoIssue' | 'sendToCir', ManagerText])[] = [
  ['autoIssue', 'sef_auto'],
  ['sendToCir', 'sef_cir'],
];

/** The seller's details an e-invoice carries, in the order the form asks them; the numbers are typed as digits. */
const SELLER_FIELDS: readonly { key: keyof SefSettingsView['seller']; label: ManagerText; numeric?: true }[] = [
  { key: 'pib', label: 'sef_seller_pib', numeric: true },
  { key: 'registrationNumber', label: 'sef_seller_mb', numeric: true },
  { key: 'name', label: 'sef_seller_name' },
  { key: 'street', label: 'sef_seller_street' },
  { key: 'city', label: 'sef_seller_city' },
  { key: 'postalZone', label: 'sef_seller_zip' },
  { key: 'bankAccount', label: 'sef_seller_account' },
];

/** The document's state at SEF in words. */
export function sefStateText(t: ManagerT, d: Pick<SefDocumentView, 'state' | 'inDoubt'>): string {
  if (d.state === 'queued' && d.inDoubt) return t('sef_state_queued_doubt');
  return t(`sef_state_${d.state}` as ManagerText);
}

/** Why a document waits or was refused, in words: SEF's own reasons, or what Kasa found. */
function reasonText(t: ManagerT, lang: Language, d: SefRow): string | null {
  const e = d.lastError;
  if (!e) return null;
  if (e.code === 'KASA_BUYER_NOT_ON_SEF') return t('sef_reason_buyer_not_on_sef', { pib: e.message });
  if (e.code?.startsWith('KASA_') && hasMessage(e.message)) return message(lang, e.message, { label: '—' });
  if (e.fields && e.fields.length > 0) return e.fields.map((f) => f.message).join('; ');
  if (e.status === null) return message(lang, 'sef_unreachable');
  return e.message;
}

export function SefTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [docs, setDocs] = useState<SefDocumentView[]>([]);
  const [offers, setOffers] = useState<SefOfferView[]>([]);
  const [settings, setSettings] = useState<SefSettingsView | null>(null);
  const [key, setKey] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();

  const load = async () => {
    const list = await call(api['sef.list']({}));
    setDocs(list.documents);
    setOffers(list.offers);
  };
  useEffect(() => {
    void run(async () => {
      await load();
      setSettings(await call(api['sef.settings']({})));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** An action on an e-invoice: the note it leaves says what was done, then the lists are read again. */
  const act = (action: () => Promise<string>) =>
    run(async () => {
      setNote(null);
      setNote(await action());
      await load();
    });
  const issue = (o: SefOfferView) =>
    act(async () => {
      await call(api['sef.issue']({ orderId: o.orderId }));
      return t('sef_issued', { order: o.orderNumber });
    });
  const retry = (d: SefRow) =>
    act(async () => {
      await call(api['sef.retry']({ id: d.id }));
      return t('sef_retried', { number: d.number });
    });
  const cancel = (d: SefRow, comment: string) =>
    act(async () => {
      const done = await call(api['sef.cancel']({ id: d.id, comment }));
      return t('sef_cancelled', { number: d.number, state: sefStateText(t, done) });
    });
  const incoming = () =>
    run(async () => {
      setNote(null);
      const r = await call(api['sef.incoming']({}));
      const failed = r.failed.map((f) => t('sef_incoming_failed', { id: f.sefId, reason: f.reason }));
      setNote([t('sef_incoming_done', { made: r.made.length, skipped: r.skipped }), ...failed].join(' '));
    });
  const save = (s: SefSettingsView) =>
    run(async () => {
      setNote(null);
      const saved = await call(
        api['sef.saveSettings']({
          environment: s.environment,
          autoIssue: s.autoIssue,
          sendToCir: s.sendToCir,
          seller: s.seller,
          ...(key.trim() ? { apiKey: key.trim() } : {}),
        }),
      );
      setSettings(saved);
      setKey('');
      setNote(t('sef_saved'));
    });
  const seller = (field: keyof SefSettingsView['seller'], value: string) =>
    settings && setSettings({ ...settings, seller: { ...settings.seller, [field]: value } });

  return (
    <div className="mgr-tab mgr-sef">
      <h3>{t('sef_title')}</h3>
      <p>{t('sef_intro')}</p>
      {settings?.demo && <p className="mgr-note">{t('sef_demo')}</p>}
      <NoteAndAlert note={note} error={error} />

      <section aria-label={t('sef_offers')}>
        <h4>{t('sef_offers')}</h4>
        {offers.length === 0 ? (
          <p>{t('sef_offers_none')}</p>
        ) : (
          <MgrTable
            label={t('sef_offers')}
            headers={[t('sef_col_number'), t('sef_col_buyer'), t('sef_col_total'), t('sef_col_actions')]}
          >
            {offers.map((o) => (
              <tr key={o.orderId}>
                <td>
                  {o.orderNumber}
                  <br />
                  <small>{localTime(o.createdAt, lang)}</small>
                </td>
                <td>{buyerIdText(o.buyerId, lang)}</td>
                <td className="mgr-num">{formatRsd(o.totalPara)}</td>
                <td>
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={t('sef_issue', { order: o.orderNumber })}
                    onClick={() => void issue(o)}
                  >
                    {t('sef_issue_button')}
                  </button>
                </td>
              </tr>
            ))}
          </MgrTable>
        )}
      </section>

      <section aria-label={t('sef_documents')}>
        <h4>{t('sef_documents')}</h4>
        {docs.length === 0 ? (
          <p>{t('sef_documents_none')}</p>
        ) : (
          <SefDocumentsTable
            t={t}
            lang={lang}
            docs={docs}
            busy={busy}
            onRetry={(d) => void retry(d)}
            onCancel={(d, comment) => void cancel(d, comment)}
          />
        )}
        <p>
          <button type="button" disabled={busy} onClick={() => void run(load)}>
            {t('sef_refresh')}
          </button>{' '}
          <button type="button" disabled={busy} onClick={() => void incoming()}>
            {t('sef_incoming')}
          </button>
        </p>
      </section>

      {settings && (
        <form
          aria-label={t('sef_settings')}
          onSubmit={(e) => {
            e.preventDefault();
            void save(settings);
          }}
        >
          <h4>{t('sef_settings')}</h4>
          <ChoiceField
            label={t('sef_environment')}
            value={settings.environment}
            options={{ demo: t('sef_env_demo'), prod: t('sef_env_prod') }}
            onChange={(environment) => setSettings({ ...settings, environment })}
          />
          {SEF_SWITCHES.map(([key, label]) => (
            <label key={key} className="mgr-check">
              <input
                type="checkbox"
                checked={settings[key]}
                onChange={(e) => setSettings({ ...settings, [key]: e.target.checked })}
              />
              {t(label)}
            </label>
          ))}
          <div className="mgr-sef-seller">
            {SELLER_FIELDS.map(({ key: k, label, numeric }) => (
              <Field key={k} label={t(label)}>
                <input
                  value={settings.seller[k]}
                  inputMode={numeric ? 'numeric' : undefined}
                  onChange={(e) => seller(k, e.target.value)}
                />
              </Field>
            ))}
          </div>
          <p>{settings.hasKey ? t('sef_key_set') : t('sef_key_none')}</p>
          <Field label={t('sef_key')}>
            <input type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} />
          </Field>
          <button type="submit" disabled={busy}>
            {t('sef_save')}
          </button>
        </form>
      )}
    </div>
  );
}

/**
 * The e-invoices with their state at SEF in words, SEF's reason, and what a manager may do: send a refused one again,
 * cancel a sent one or storno an accepted one with a comment. The till's list and the hub's (`tillName` shown).
 */
export function SefDocumentsTable(props: {
  t: ManagerT;
  lang: Language;
  docs: readonly SefRow[];
  busy: boolean;
  /** The till column's header, when the rows name their till (the hub). */
  tillHeader?: string;
  onRetry: (d: SefRow) => void;
  onCancel: (d: SefRow, comment: string) => void;
}) {
  const { t, lang, docs, busy } = props;
  const [comments, setComments] = useState<Record<number, string>>({});
  const retry = props.onRetry;
  const cancel = (d: SefRow) => props.onCancel(d, comments[d.id] ?? '');
  return (
    <MgrTable
      label={t('sef_documents')}
      scroll
      headers={[
        t('sef_col_number'),
        ...(props.tillHeader ? [props.tillHeader] : []),
        t('sef_col_kind'),
        t('sef_col_buyer'),
        t('sef_col_total'),
        t('sef_col_state'),
        t('sef_col_actions'),
      ]}
    >
      {docs.map((d) => {
        const reason = reasonText(t, lang, d);
        return (
          <tr key={d.id}>
            <td>{d.number}</td>
            {props.tillHeader && <td>{d.tillName}</td>}
            <td>{t(`sef_kind_${d.kind}` as ManagerText)}</td>
            <td>
              {d.buyerName ?? buyerIdText(d.buyerId, lang)}
              {d.buyerName && (
                <>
                  <br />
                  <small>{buyerIdText(d.buyerId, lang)}</small>
                </>
              )}
            </td>
            <td className="mgr-num">{formatRsd(d.totalPara)}</td>
            <td>
              {sefStateText(t, d)}
              {reason && (
                <>
                  <br />
                  <small>{t('sef_reason', { reason })}</small>
                </>
              )}
              {d.sefComment && (
                <>
                  <br />
                  <small>{d.sefComment}</small>
                </>
              )}
            </td>
            <td>
              {(d.state === 'refused' || d.state === 'queued') && (
                <button
                  type="button"
                  disabled={busy}
                  aria-label={t('sef_retry', { number: d.number })}
                  onClick={() => retry(d)}
                >
                  {t('sef_retry_short')}
                </button>
              )}
              {(d.state === 'sent' || d.state === 'accepted') && (
                <>
                  <input
                    className="mgr-sef-comment"
                    aria-label={t('sef_comment', { number: d.number })}
                    placeholder={t('sef_comment_short')}
                    value={comments[d.id] ?? ''}
                    onChange={(e) => setComments({ ...comments, [d.id]: e.target.value })}
                  />{' '}
                  <button
                    type="button"
                    disabled={busy}
                    aria-label={t(d.state === 'sent' ? 'sef_cancel' : 'sef_storno', { number: d.number })}
                    onClick={() => cancel(d)}
                  >
                    {t(d.state === 'sent' ? 'sef_cancel_short' : 'sef_storno_short')}
                  </button>
                </>
              )}
            </td>
          </tr>
        );
      })}
    </MgrTable>
  );
}
