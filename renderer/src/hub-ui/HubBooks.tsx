/**
 * Књиговођа at the hub (docs/exports.md, "At the hub"): one export over all the shop's tills for a period of days,
 * its totals and days on screen and its files (the till's layouts) to download. The words are the till's
 * Менаџер → Књиговођа's (the manager's texts), the tab's own name and intro the hub's.
 */
import { useState, type FormEvent } from 'react';
import type { ExportView } from '../../../shared/contract/exports.ts';
import { HUB_EXPORT_FILES } from '../../../shared/hub/contract/exports.ts';
import { isHubFile } from '../../../shared/hub/client.ts';
import { Alert } from '../ui/forms.tsx';
import { DateField } from '../manager/DateField.tsx';
import { mt, type ManagerT, type ManagerText } from '../manager/i18n.ts';
import { ExportDays, ExportTotals } from '../manager/ExportTables.tsx';
import { download, hubApi } from './api.ts';
import type { HubLang, HubT } from './i18n.ts';

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
        <DateField t={mgrT} lang={lang} label={labels.from} value={from} onChange={(d) => d && setFrom(d)} required />
        <DateField t={mgrT} lang={lang} label={labels.to} value={to} onChange={(d) => d && setTo(d)} required />
        <button type="submit">{mgrT('books_show')}</button>
      </form>
      {view && (
        <>
          <ExportTotals t={mgrT} lang={lang} view={view} />
          <h4>{mgrT('books_files')}</h4>
          <div className="mgr-actions" role="group" aria-label={mgrT('books_files')}>
            {HUB_EXPORT_FILES.map((file) => (
              <button
                key={file}
                type="button"
                onClick={() =>
                  api
                    .call('hubExport', { from, to, lang, file })
                    .then((f) => isHubFile(f) && download(f, `${file}_${from}_${to}`))
                    .catch(fail)
                }
              >
                {mgrT(`books_file_${file}` as ManagerText)}
              </button>
            ))}
          </div>
          <ExportDays t={mgrT} lang={lang} view={view} />
        </>
      )}
    </section>
  );
}
