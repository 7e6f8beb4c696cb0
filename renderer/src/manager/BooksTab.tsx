/**
 * Менаџер → Књиговођа (docs/exports.md): the bookkeeper's exports of a period — the period's totals and its days,
 * whether the posting journal balances, the files (CSV, the Minimax journal, the A4 PDF) — the journal's accounts
 * the shop maps once, the monthly export into a folder and by e-mail to the bookkeeper (the mail server's password is
 * written here and never shown back). Every command is a manager's (her PIN, or none when she
 * is logged in here).
 */
import { useContext, useEffect, useState, type ReactNode } from 'react';
import type { AccountsView, ExportFileKind, ExportView, PosApi } from '../../../shared/contract/index.ts';
import type { MailView, ScheduleView, SmtpSecurityKind } from '../../../shared/contract/exports.ts';
import { SMTP_SECURITY } from '../../../shared/contract/exports.ts';
import type { Language } from '../../../shared/domain.ts';
import { ACCOUNT_KEYS, type AccountKey } from '../../../shared/exports/accounts.ts';
import { EXPORT_WORDS } from '../../../shared/i18n/exports.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { formatRsd } from '../../../shared/money.ts';
import { isoDay } from '../dates.ts';
import {
  ApprovedForm,
  call,
  DateRange,
  NoteAndAlert,
  pinOf,
  saveBase64,
  SelfApproval,
  useRunner,
  type ApprovedField,
  type Runner,
} from './common.tsx';
import type { ManagerT, ManagerText } from './i18n.ts';
import { ExportDays, ExportTotals } from './ExportTables.tsx';

const FILES: ExportFileKind[] = ['turnover', 'documents', 'goods', 'kep', 'journal', 'minimax', 'pdf'];

/** The first day of this month and today (the shop's days, as the browser sees them). */
function thisMonth(): { from: string; to: string } {
  const today = isoDay(new Date());
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/**
 * One of the settings the shop keeps for its bookkeeper (the journal's accounts, the monthly export, the e-mail):
 * its section with title and intro, and its form (`books_<name>`, `_intro`, `_save`, `_saved`, ids `books-<name>`)
 * whose saving says so; `after`: what the section shows under the form.
 */
function BooksSettings<F extends string>(props: {
  runner: Runner;
  name: 'accounts' | 'schedule' | 'mail';
  labels: Record<F, string>;
  setNote: (note: string | null) => void;
  onSave: (managerPin: string) => Promise<void>;
  children: (field: ApprovedField<F>) => ReactNode;
  after?: ReactNode;
}) {
  const { runner, name } = props;
  const { t } = runner;
  return (
    <section aria-label={t(`books_${name}`)}>
      <h4>{t(`books_${name}`)}</h4>
      <p>{t(`books_${name}_intro`)}</p>
      <ApprovedForm
        runner={runner}
        label={t(`books_${name}`)}
        button={t(`books_${name}_save`)}
        idPrefix={`books-${name}`}
        labels={props.labels}
        selfApproves
        onSubmit={async (managerPin) => {
          props.setNote(null);
          await props.onSave(managerPin);
          props.setNote(t(`books_${name}_saved`));
        }}
      >
        {props.children}
      </ApprovedForm>
      {props.after}
    </section>
  );
}

export function BooksTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const selfApproves = useContext(SelfApproval);
  const [error, runner] = useRunner(t);
  const { run, busy } = runner;
  const [note, setNote] = useState<string | null>(null);
  // The three settings save through the tab's action and say so in its note.
  const settingsProps = { runner, setNote };
  const [from, setFrom] = useState<string | null>(thisMonth().from);
  const [to, setTo] = useState<string | null>(thisMonth().to);
  const [view, setView] = useState<ExportView | null>(null);
  const [pin, setPin] = useState('');
  const [accounts, setAccounts] = useState<AccountsView | null>(null);
  const [edited, setEdited] = useState<Partial<Record<AccountKey, string>>>({});
  const [schedule, setSchedule] = useState<ScheduleView | null>(null);
  const [day, setDay] = useState('');
  const [folder, setFolder] = useState('');
  const [mail, setMail] = useState<MailView | null>(null);
  const [mailForm, setMailForm] = useState({
    smtpHost: '',
    smtpPort: '587',
    smtpSecurity: 'starttls' as SmtpSecurityKind,
    smtpUser: '',
    smtpPassword: '',
    mailFrom: '',
    mailTo: '',
  });
  const words = EXPORT_WORDS[lang];
  const showMail = (m: MailView) => {
    setMail(m);
    setMailForm({
      smtpHost: m.host ?? '',
      smtpPort: String(m.port),
      smtpSecurity: m.security,
      smtpUser: m.user,
      smtpPassword: '',
      mailFrom: m.from,
      mailTo: m.to.join(', '),
    });
  };

  useEffect(() => {
    if (!selfApproves) return;
    void run(async () => {
      setAccounts(await call(api['exports.accounts']({})));
      const s = await call(api['exports.schedule']({}));
      setSchedule(s);
      setDay(s.day === null ? '' : String(s.day));
      setFolder(s.folder ?? '');
      showMail(await call(api['exports.mail']({})));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selfApproves]);

  const editMail = (k: keyof typeof mailForm) => (e: { target: { value: string } }) =>
    setMailForm({ ...mailForm, [k]: e.target.value });
  /** „11.2026.“ in Serbian, „11/2026“ in English: a month of the runs and the e-mails. */
  const monthLabel = (month: string): string => {
    const [y, m] = month.split('-');
    return lang === 'en' ? `${m}/${y}` : `${m}.${y}.`;
  };
  const period = (): { from: string; to: string } => ({ from: from ?? '', to: to ?? '' });
  const download = (kind: ExportFileKind) =>
    run(async () => {
      setNote(null);
      const f = await call(api['exports.file']({ ...period(), kind, ...pinOf(pin) }));
      saveBase64(f, kind === 'pdf' ? 'application/pdf' : 'text/csv;charset=utf-8');
    });

  return (
    <div className="mgr-tab mgr-books">
      <h3>{t('books_title')}</h3>
      <p>{t('books_intro')}</p>
      <NoteAndAlert note={note} error={error} />

      <section aria-label={t('books_period')}>
        <h4>{t('books_period')}</h4>
        <ApprovedForm
          runner={runner}
          label={t('books_period')}
          button={t('books_show')}
          idPrefix="books-period"
          labels={{}}
          selfApproves
          onSubmit={async (managerPin) => {
            setNote(null);
            setView(null);
            setPin(managerPin);
            setView(await call(api['exports.build']({ ...period(), ...pinOf(managerPin) })));
            if (!accounts) setAccounts(await call(api['exports.accounts']({ ...pinOf(managerPin) })));
          }}
        >
          {() => <DateRange t={t} lang={lang} from={from} to={to} onFrom={setFrom} onTo={setTo} />}
        </ApprovedForm>
      </section>

      {view && (
        <section aria-label={t('books_totals')}>
          <ExportTotals t={t} lang={lang} view={view} />
          <p role="status">
            {t(view.journalTotals.debitPara === view.journalTotals.creditPara ? 'books_balanced' : 'books_unbalanced', {
              debit: formatRsd(view.journalTotals.debitPara),
              credit: formatRsd(view.journalTotals.creditPara),
            })}
          </p>
          {view.total.notFiscalized > 0 && (
            <p className="mgr-warn">{t('books_not_fiscalized', { count: view.total.notFiscalized })}</p>
          )}
          <h4>{t('books_files')}</h4>
          <div className="mgr-actions" role="group" aria-label={t('books_files')}>
            {FILES.map((kind) => (
              <button key={kind} type="button" disabled={busy} onClick={() => void download(kind)}>
                {t(`books_file_${kind}` as ManagerText)}
              </button>
            ))}
          </div>
          <ExportDays t={t} lang={lang} view={view} />
        </section>
      )}

      {accounts && (
        <BooksSettings
          {...settingsProps}
          name="accounts"
          labels={Object.fromEntries(ACCOUNT_KEYS.map((k) => [k, words.accounts[k]])) as Record<AccountKey, string>}
          onSave={async (managerPin) => {
            setAccounts(await call(api['exports.saveAccounts']({ accounts: edited, ...pinOf(managerPin) })));
            setEdited({});
          }}
        >
          {(field) => (
            <div className="mgr-books-accounts">
              {ACCOUNT_KEYS.map((k) =>
                field(k, (errorProps) => (
                  <input
                    inputMode="numeric"
                    value={edited[k] ?? accounts.accounts[k]}
                    {...errorProps}
                    onChange={(e) => setEdited({ ...edited, [k]: e.target.value })}
                  />
                )),
              )}
            </div>
          )}
        </BooksSettings>
      )}

      {accounts && (
        <BooksSettings
          {...settingsProps}
          name="schedule"
          labels={{ exportDay: t('books_schedule_day'), exportFolder: t('books_schedule_folder') }}
          onSave={async (managerPin) => {
            const saved = await call(
              api['exports.saveSchedule']({
                exportDay: day.trim() === '' ? null : Number(day),
                exportFolder: folder.trim() === '' ? null : folder.trim(),
                ...pinOf(managerPin),
              }),
            );
            setSchedule(saved);
          }}
          after={
            <>
              {schedule?.day === null && <p>{t('books_schedule_off')}</p>}
              {schedule && schedule.runs.length > 0 && (
                <>
                  <h5>{t('books_schedule_runs')}</h5>
                  <ul>
                    {schedule.runs.map((r) => (
                      <li key={r.month}>
                        {t('books_schedule_run', {
                          month: monthLabel(r.month),
                          folder: r.folder || t('books_mail'),
                          at: formatMoment(r.doneAt, lang),
                        })}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </>
          }
        >
          {(field) => (
            <>
              {field('exportDay', (errorProps) => (
                <input inputMode="numeric" value={day} {...errorProps} onChange={(e) => setDay(e.target.value)} />
              ))}
              {field('exportFolder', (errorProps) => (
                <input value={folder} {...errorProps} onChange={(e) => setFolder(e.target.value)} />
              ))}
            </>
          )}
        </BooksSettings>
      )}

      {mail && (
        <BooksSettings
          {...settingsProps}
          name="mail"
          labels={{
            smtpHost: t('books_mail_host'),
            smtpPort: t('books_mail_port'),
            smtpSecurity: t('books_mail_security'),
            smtpUser: t('books_mail_user'),
            smtpPassword: t('books_mail_password'),
            mailFrom: t('books_mail_from'),
            mailTo: t('books_mail_to'),
          }}
          onSave={async (managerPin) => {
            const port = Number(mailForm.smtpPort);
            showMail(
              await call(
                api['exports.saveMail']({
                  ...mailForm,
                  smtpPort: mailForm.smtpPort.trim() === '' || Number.isNaN(port) ? -1 : port,
                  ...(mailForm.smtpPassword ? {} : { smtpPassword: undefined }),
                  ...pinOf(managerPin),
                }),
              ),
            );
          }}
          after={
            <>
              {mail.passwordSet && <p>{t('books_mail_password_set')}</p>}
              {mail.host === null && <p>{t('books_mail_off')}</p>}
              {mail.sends.length > 0 && (
                <>
                  <h5>{t('books_mail_sends')}</h5>
                  <ul aria-label={t('books_mail_sends')}>
                    {mail.sends.map((m) => (
                      <li key={m.month} role={m.lastError ? 'alert' : undefined}>
                        {m.state === 'sent'
                          ? t('books_mail_sent', {
                              month: monthLabel(m.month),
                              at: formatMoment(m.sentAt ?? m.queuedAt, lang),
                              to: m.recipients.join(', '),
                            })
                          : m.lastError
                            ? t('books_mail_failed', {
                                month: monthLabel(m.month),
                                tries: m.tries,
                                reason: m.lastError,
                              })
                            : t('books_mail_queued', { month: monthLabel(m.month), to: m.recipients.join(', ') })}
                      </li>
                    ))}
                  </ul>
                  {mail.sends.some((m) => m.state === 'queued') && (
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() =>
                        void run(async () => {
                          showMail(await call(api['exports.sendNow']({ ...pinOf(pin) })));
                          setNote(t('books_mail_retried'));
                        })
                      }
                    >
                      {t('books_mail_retry')}
                    </button>
                  )}
                </>
              )}
            </>
          }
        >
          {(field) => (
            <div className="mgr-books-mail">
              {field('smtpHost', (errorProps) => (
                <input value={mailForm.smtpHost} {...errorProps} onChange={editMail('smtpHost')} />
              ))}
              {field('smtpPort', (errorProps) => (
                <input inputMode="numeric" value={mailForm.smtpPort} {...errorProps} onChange={editMail('smtpPort')} />
              ))}
              {field('smtpSecurity', (errorProps) => (
                <select value={mailForm.smtpSecurity} {...errorProps} onChange={editMail('smtpSecurity')}>
                  {SMTP_SECURITY.map((k) => (
                    <option key={k} value={k}>
                      {t(`books_mail_${k}`)}
                    </option>
                  ))}
                </select>
              ))}
              {field('smtpUser', (errorProps) => (
                <input value={mailForm.smtpUser} autoComplete="off" {...errorProps} onChange={editMail('smtpUser')} />
              ))}
              {field('smtpPassword', (errorProps) => (
                <input
                  type="password"
                  autoComplete="new-password"
                  value={mailForm.smtpPassword}
                  {...errorProps}
                  onChange={editMail('smtpPassword')}
                />
              ))}
              {field('mailFrom', (errorProps) => (
                <input type="email" value={mailForm.mailFrom} {...errorProps} onChange={editMail('mailFrom')} />
              ))}
              {field('mailTo', (errorProps) => (
                <input value={mailForm.mailTo} {...errorProps} onChange={editMail('mailTo')} />
              ))}
            </div>
          )}
        </BooksSettings>
      )}
    </div>
  );
}
