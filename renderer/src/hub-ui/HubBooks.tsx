/**
 * Књиговођа at the hub (docs/exports.md, "At the hub"): one export over all the shop's tills for a period of days,
 * its totals and days on screen and its files (the till's layouts) to download, and the journal's accounts the shop
 * maps once at the hub. The words are the till's Менаџер → Књиговођа's (the manager's texts), the tab's own name and
 * intro the hub's.
 */
import { useState, type FormEvent } from 'react';
import type { AccountsView, ExportView } from '../../../shared/contract/exports.ts';
import { HUB_EXPORT_FILES } from '../../../shared/hub/contract/exports.ts';
import { isHubFile } from '../../../shared/hub/client.ts';
import { ACCOUNT_KEYS, type AccountKey } from '../../../shared/exports/accounts.ts';
import { EXPORT_WORDS } from '../../../shared/i18n/exports.ts';
import { message } from '../../../shared/messages.ts';
import { formatRsd } from '../../../shared/money.ts';
import { Alert, CheckedInput, NoteAndAlert } from '../ui/forms.tsx';
import { mt, type ManagerT, type ManagerText } from '../manager/i18n.ts';
import { ExportDays, ExportTotals } from '../manager/ExportTables.tsx';
import { hubApi, HubCallError } from './api.ts';
import type { HubLang, HubT } from './i18n.ts';
import { DayField } from './DayField.tsx';
import { FileButtons } from './FileButtons.tsx';
import { useHubRead } from './useHubRead.ts';

/** The first day of this month and today (the shop's days, as the browser sees them). */
function thisMonth(): { from: string; to: string } {
  const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Belgrade' });
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** What a hub tab built on the manager's texts is given (Књиговођа, Е-фактуре). */
export interface HubTabProps {
  t: HubT;
  lang: HubLang;
  token: string;
  errorText: (err: unknown, labels: Readonly<Record<string, string>>) => string;
}

export function HubBooks(props: HubTabProps) {
  const { t, lang, token } = props;
  const mgrT: ManagerT = (key, params) => mt(lang, key, params);
  const api = hubApi(token);
  const [from, setFrom] = useState(thisMonth().from);
  const [to, setTo] = useState(thisMonth().to);
  const [view, setView] = useState<ExportView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const labels = { from: mgrT('date_from'), to: mgrT('date_to') };
  const fail = (err: unknown) => setError(props.errorText(err, labels));

  const show = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setView(null);
    api
      .call('hubExport', { from, to, lang })
      .then((v) => !isHubFile(v) && setView(v))
      .catch(fail);
  };

  return (
    <section aria-label={t('books')} className="mgr-tab mgr-books">
      <h2>{mgrT('books_title')}</h2>
      <p>{t('booksIntro')}</p>
      <Alert text={error} />
      <form className="mgr-row mgr-top" aria-label={mgrT('books_period')} onSubmit={show}>
        <DayField lang={lang} label={labels.from} value={from} onChange={setFrom} />
        <DayField lang={lang} label={labels.to} value={to} onChange={setTo} />
        <button type="submit">{mgrT('books_show')}</button>
      </form>
      {view && (
        <>
          <ExportTotals t={mgrT} lang={lang} view={view} />
          <p role="status">
            {mgrT(
              view.journalTotals.debitPara === view.journalTotals.creditPara ? 'books_balanced' : 'books_unbalanced',
              { debit: formatRsd(view.journalTotals.debitPara), credit: formatRsd(view.journalTotals.creditPara) },
            )}
          </p>
          <h4>{mgrT('books_files')}</h4>
          <div className="mgr-actions" role="group" aria-label={mgrT('books_files')}>
            <FileButtons
              kinds={HUB_EXPORT_FILES}
              label={(file) => mgrT(`books_file_${file}` as ManagerText)}
              get={(file) => api.call('hubExport', { from, to, lang, file })}
              name={(file) => `${file}_${from}_${to}`}
              fail={fail}
            />
          </div>
          <ExportDays t={mgrT} lang={lang} view={view} />
        </>
      )}
      <HubAccounts t={mgrT} lang={lang} token={token} errorText={props.errorText} />
    </section>
  );
}

/**
 * The journal's accounts of the shop, mapped once at the hub (the till's fields and words); a refused account is
 * said under its field with the till's message, nothing saved.
 */
function HubAccounts(props: {
  t: ManagerT;
  lang: HubLang;
  token: string;
  errorText: (err: unknown, labels: Readonly<Record<string, string>>) => string;
}) {
  const { t, lang, token, errorText } = props;
  const [view, setView] = useState<AccountsView | null>(null);
  const [edited, setEdited] = useState<Partial<Record<AccountKey, string>>>({});
  // The refused account (said in the page's language as it is now), or the section's own error.
  const [refused, setRefused] = useState<AccountKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const labels = EXPORT_WORDS[lang].accounts;
  useHubRead(
    () => hubApi(token).call('hubExportAccounts', {}),
    setView,
    (err) => setError(errorText(err, {})),
    [token, errorText],
  );
  if (!view) return <Alert text={error} />;

  const save = (e: FormEvent) => {
    e.preventDefault();
    setRefused(null);
    setError(null);
    setSaved(false);
    hubApi(token)
      .call('hubSaveExportAccounts', { accounts: edited })
      .then((v) => {
        setView(v);
        setEdited({});
        setSaved(true);
      })
      .catch((err: unknown) => {
        const key = err instanceof HubCallError ? err.field?.split('.')[1] : undefined;
        if (key && (ACCOUNT_KEYS as readonly string[]).includes(key)) setRefused(key as AccountKey);
        else setError(errorText(err, {}));
      });
  };

  return (
    <section aria-label={t('books_accounts')}>
      <h4>{t('books_accounts')}</h4>
      <p>{t('books_accounts_intro')}</p>
      <NoteAndAlert note={saved ? t('books_accounts_saved') : null} error={error} />
      <form aria-label={t('books_accounts')} onSubmit={save}>
        <div className="mgr-books-accounts">
          {ACCOUNT_KEYS.map((k) => (
            <CheckedInput
              key={k}
              label={labels[k]}
              error={refused === k ? message(lang, 'account_number', { field: labels[k] }) : undefined}
              errorId={`hub-accounts-${k}-error`}
              value={edited[k] ?? view.accounts[k]}
              onChange={(v) => setEdited({ ...edited, [k]: v })}
              input={{ inputMode: 'numeric' }}
            />
          ))}
        </div>
        <button type="submit">{t('books_accounts_save')}</button>
      </form>
    </section>
  );
}
