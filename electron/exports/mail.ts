/**
 * The monthly export by e-mail to the bookkeeper (docs/exports.md "By e-mail"): the mail server's settings (the
 * password a secret like the API key: in its own store, never in the settings table, the renderer, a log line or an
 * audit row), and the months to send in `export_mails` (migration 037; this module is its only writer).
 *
 * A month is queued in the transaction that records its run (electron/exports/schedule.ts), then sent: its files are
 * made again from the books (the same contents as the folder's), attached to one message, and the row is marked sent
 * when the mail server accepted the message. A failure leaves the row queued with the server's reply and the count of
 * tries: the next pass (or `exports.sendNow`) tries again, so a month is never lost. Once: a sent row is never sent
 * again; the one window is a crash between the server's acceptance and the row's update, after which the same
 * message (the same Message-ID, so a mail program shows it once) goes again.
 */
import type { Db } from '../db/open.ts';
import type { Language } from '../../shared/domain.ts';
import type { MailInput, MailView, SmtpSecurityKind } from '../../shared/contract/exports.ts';
import type { PdfFile } from '../../shared/contract/goods.ts';
import type { SecretSpec, SecretStore } from '../settings/secrets.ts';
import { EXPORT_WORDS } from '../../shared/i18n/exports.ts';
import { kepDate } from '../../shared/i18n/goods.ts';
import { CommandError } from '../errors.ts';
import { monthBefore } from './schedule.ts';
import { sendMail, SmtpError, type MailMessage, type SmtpServer } from './smtp.ts';

export const SMTP_PASSWORD_SECRET: SecretSpec = {
  what: 'the mail password',
  env: 'KASA_SMTP_PASSWORD',
  fileEnv: 'KASA_SMTP_PASSWORD_FILE',
  file: 'smtp-password',
  safeFile: 'smtp-password.safe',
};

const KEY = 'exportsMail';

interface Stored {
  host: string | null;
  port: number;
  security: SmtpSecurityKind;
  user: string;
  from: string;
  to: string[];
}

interface MailRow {
  month: string;
  recipients: string;
  state: 'queued' | 'sent';
  tries: number;
  queued_at: string;
  sent_at: string | null;
  last_error: string | null;
}

export interface MailDeps {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  secrets: SecretStore;
  now(): number;
  language(): Language;
  shopName(): string;
  /** Every file of the period [from, to] (Belgrade days), as the folder gets them. */
  files(from: string, to: string): Promise<PdfFile[]>;
  audit(actor: string | null, action: string, detail: Record<string, unknown>): void;
  /** The logger's redaction list: the password never reaches a log line. */
  redact(secret: string): void;
  /** Sends one message (the SMTP client; tests pass options such as a CA). */
  send?: (server: SmtpServer, message: MailMessage) => Promise<void>;
}

const LOCAL = new Set(['localhost', '127.0.0.1', '::1']);

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=UTF-8',
  pdf: 'application/pdf',
};

export type ExportMail = ReturnType<typeof createExportMail>;

export function createExportMail(db: Db, deps: MailDeps) {
  const stored = (): Stored => {
    try {
      const v = JSON.parse(deps.get(KEY) ?? '{}') as Partial<Stored>;
      return {
        host: typeof v.host === 'string' && v.host ? v.host : null,
        port: typeof v.port === 'number' ? v.port : 587,
        security: v.security === 'tls' || v.security === 'none' ? v.security : 'starttls',
        user: typeof v.user === 'string' ? v.user : '',
        from: typeof v.from === 'string' ? v.from : '',
        to: Array.isArray(v.to) ? v.to.filter((x): x is string => typeof x === 'string') : [],
      };
    } catch {
      return { host: null, port: 587, security: 'starttls', user: '', from: '', to: [] };
    }
  };
  const send = deps.send ?? ((server: SmtpServer, message: MailMessage) => sendMail(server, message));
  const rows = db.prepare<[], MailRow>('SELECT * FROM export_mails ORDER BY month DESC LIMIT 24');
  const queued = db.prepare<[], MailRow>("SELECT * FROM export_mails WHERE state = 'queued' ORDER BY month");
  const insert = db.prepare(
    "INSERT OR IGNORE INTO export_mails (month, recipients, state, queued_at) VALUES (?, ?, 'queued', ?)",
  );
  const sent = db.prepare(
    "UPDATE export_mails SET state = 'sent', sent_at = ?, tries = tries + 1, last_error = NULL WHERE month = ? AND state = 'queued'",
  );
  const failed = db.prepare('UPDATE export_mails SET tries = tries + 1, last_error = ? WHERE month = ?');
  let pumping: Promise<void> | null = null;
  const password = (): string | null => {
    const p = deps.secrets.get();
    if (p) deps.redact(p);
    return p;
  };

  async function sendMonth(row: MailRow, s: Stored & { host: string }): Promise<void> {
    // The month is the one before the next month's first day.
    const [y, mo] = row.month.split('-').map(Number) as [number, number];
    const period = monthBefore(new Date(Date.UTC(y, mo, 1)).toISOString().slice(0, 10));
    const files = await deps.files(period.from, period.to);
    const lang = deps.language();
    const w = EXPORT_WORDS[lang];
    const monthText = `${kepDate(period.from, lang)} – ${kepDate(period.to, lang)}`;
    const fill = (t: string): string =>
      t
        .replace('{shop}', deps.shopName())
        .replace('{month}', monthText)
        .replace('{files}', files.map((f) => f.fileName).join(', '));
    await send(
      { host: s.host, port: s.port, security: s.security, user: s.user, password: password() },
      {
        from: s.from,
        to: JSON.parse(row.recipients) as string[],
        subject: fill(w.mailSubject),
        text: fill(w.mailBody),
        messageId: `export-${row.month}.${s.from.replace(/^.*@/, '') || 'kasa'}@kasa`,
        date: new Date(deps.now()),
        attachments: files.map((f) => ({
          fileName: f.fileName,
          contentType: CONTENT_TYPES[f.fileName.replace(/^.*\./, '')] ?? 'application/octet-stream',
          content: Buffer.from(f.base64, 'base64'),
        })),
      },
    );
  }

  return {
    view(): MailView {
      const s = stored();
      return {
        ...s,
        passwordSet: deps.secrets.get() !== null,
        sends: rows.all().map((r) => ({
          month: r.month,
          recipients: JSON.parse(r.recipients) as string[],
          state: r.state,
          tries: r.tries,
          queuedAt: r.queued_at,
          sentAt: r.sent_at,
          lastError: r.last_error,
        })),
      };
    },

    /** True when a month would be sent (a host, a sender and an address). */
    ready(): boolean {
      const s = stored();
      return s.host !== null && s.from !== '' && s.to.length > 0;
    },

    save(input: Omit<MailInput, 'managerPin'>, actor: string | null): MailView {
      const host = input.smtpHost || null;
      if (host && (!input.mailFrom || input.mailTo.length === 0))
        throw new CommandError(
          'invalid_input',
          'mail_incomplete',
          { field: input.mailFrom ? 'mailTo' : 'mailFrom' },
          input.mailFrom ? 'mailTo' : 'mailFrom',
        );
      if (!host && input.mailTo.length > 0)
        throw new CommandError('invalid_input', 'mail_incomplete', { field: 'smtpHost' }, 'smtpHost');
      const newPassword = input.smtpPassword ? input.smtpPassword : null;
      const willHavePassword = newPassword !== null || (!input.clearPassword && deps.secrets.get() !== null);
      if (host && input.smtpSecurity === 'none' && input.smtpUser && willHavePassword && !LOCAL.has(host))
        throw new CommandError('invalid_input', 'mail_plain_password', { field: 'smtpSecurity' }, 'smtpSecurity');
      if (newPassword !== null) {
        deps.redact(newPassword);
        deps.secrets.set(newPassword);
      } else if (input.clearPassword) deps.secrets.clear();
      const next: Stored = {
        host,
        port: input.smtpPort,
        security: input.smtpSecurity,
        user: input.smtpUser,
        from: input.mailFrom,
        to: input.mailTo,
      };
      deps.set(KEY, JSON.stringify(next));
      deps.audit(actor, 'exports.saveMail', {
        host: host ?? '',
        port: next.port,
        security: next.security,
        to: next.to.join(', '),
        password: newPassword !== null ? 'changed' : input.clearPassword ? 'cleared' : 'kept',
      });
      return this.view();
    },

    /**
     * Queues the month for the bookkeeper when e-mail is set up (called inside the transaction that records the
     * month's run); false when it is not.
     */
    queue(month: string): boolean {
      const s = stored();
      if (!this.ready()) return false;
      insert.run(month, JSON.stringify(s.to), new Date(deps.now()).toISOString());
      return true;
    },

    /** Sends the queued months, oldest first; a failure is recorded on its row and the next month is tried. */
    pump(): Promise<void> {
      pumping ??= (async () => {
        try {
          for (const row of queued.all()) {
            const s = stored();
            if (!s.host) {
              failed.run('no mail server is set', row.month);
              continue;
            }
            try {
              await sendMonth(row, { ...s, host: s.host });
              if (sent.run(new Date(deps.now()).toISOString(), row.month).changes === 1)
                deps.audit(null, 'exports.mailed', {
                  month: row.month,
                  to: (JSON.parse(row.recipients) as string[]).join(', '),
                });
            } catch (err) {
              const reason = err instanceof SmtpError ? err.reply : err instanceof Error ? err.message : String(err);
              failed.run(reason.slice(0, 500), row.month);
            }
          }
        } finally {
          pumping = null;
        }
      })();
      return pumping;
    },
  };
}
