/**
 * The monthly export by e-mail to the bookkeeper (electron/exports/mail.ts, smtp.ts) against a real SMTP server on an
 * ephemeral port (test/support/smtp-server.ts), with one core's real SQLite file and the sandbox gateway:
 * - bad settings are refused at their field, nothing saved; the password is kept as a secret: never in a view, the
 *   settings table or the audit log;
 * - the month's run queues the e-mail in its transaction; a refused delivery stays queued with the server's reply and
 *   its tries, shown by `exports.mail`, and is sent on the next try; what arrived has every file attached, decoded
 *   equal to the files the export makes; a month sent is never sent again;
 * - STARTTLS upgrades the connection before the password goes, and a server without it is refused.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailView, ScheduleView } from '../../shared/contract/exports.ts';
import type { PdfFile } from '../../shared/contract/goods.ts';
import type { OrderView } from '../../shared/domain.ts';
import { EXPORT_FILE_KINDS } from '../../shared/contract/exports.ts';
import { createExportSchedule } from '../../electron/exports/schedule.ts';
import { createExportMail, SMTP_PASSWORD_SECRET } from '../../electron/exports/mail.ts';
import { sendMail, SmtpError } from '../../electron/exports/smtp.ts';
import { createFileSecretStore } from '../../electron/settings/secrets.ts';
import { Settings } from '../../electron/settings/settings.ts';
import { BREAD_AND_MILK, closeCores, fails, MANAGER_PIN, ok, signIn, startCore, tempDir } from '../support/session.ts';
import { parseMime, startSmtpServer, type TestSmtpServer } from '../support/smtp-server.ts';

const managerPin = MANAGER_PIN;
const PASSWORD = 'tajna-lozinka-7Q';
type Core = Awaited<ReturnType<typeof startCore>>;
let c: Core;
let smtp: TestSmtpServer;
let dataDir: string;
let clock = Date.parse('2026-11-20T10:00:00Z');

beforeAll(async () => {
  smtp = await startSmtpServer({ user: 'knjige', password: PASSWORD });
  dataDir = tempDir('kasa-mail-');
  c = await startCore({ dataDir, now: () => clock, signedIn: false });
  await signIn(c);
  new Settings(c.db).set('shopName', 'Продавница Код Мике');
}, 60_000);
afterAll(async () => {
  await smtp.close();
  await closeCores();
});

const mailInput = (over: Record<string, unknown> = {}) => ({
  managerPin,
  smtpHost: '127.0.0.1',
  smtpPort: smtp.port,
  smtpSecurity: 'none',
  smtpUser: 'knjige',
  smtpPassword: PASSWORD,
  mailFrom: 'kasa@prodavnica.rs',
  mailTo: 'knjigovodja@biro.rs',
  ...over,
});

describe('the monthly export by e-mail', () => {
  it('refuses bad settings at their field and keeps the password a secret', async () => {
    expect(await fails(c, 'exports.saveMail', mailInput({ smtpHost: 'pošta server' }))).toMatchObject({
      code: 'invalid_input',
      field: 'smtpHost',
    });
    expect(await fails(c, 'exports.saveMail', mailInput({ smtpPort: 70_000 }))).toMatchObject({ field: 'smtpPort' });
    expect(await fails(c, 'exports.saveMail', mailInput({ mailTo: 'knjigovodja, biro.rs' }))).toMatchObject({
      field: 'mailTo',
    });
    expect(await fails(c, 'exports.saveMail', mailInput({ mailTo: '' }))).toMatchObject({ field: 'mailTo' });
    expect(
      await fails(c, 'exports.saveMail', mailInput({ smtpHost: 'smtp.example.rs', smtpSecurity: 'none' })),
    ).toMatchObject({ field: 'smtpSecurity' });
    const none = await ok<MailView>(c, 'exports.mail', { managerPin });
    expect(none).toMatchObject({ host: null, passwordSet: false, to: [] });

    const saved = await ok<MailView>(
      c,
      'exports.saveMail',
      mailInput({ mailTo: 'knjigovodja@biro.rs, arhiva@biro.rs' }),
    );
    expect(saved).toMatchObject({
      host: '127.0.0.1',
      passwordSet: true,
      to: ['knjigovodja@biro.rs', 'arhiva@biro.rs'],
    });
    expect(JSON.stringify(saved)).not.toContain(PASSWORD);
    const tables =
      c.db.prepare<[], { t: string }>('SELECT group_concat(key || value) AS t FROM settings').get()?.t ?? '';
    expect(tables).toContain('127.0.0.1');
    expect(tables).not.toContain(PASSWORD);
    const audit = JSON.stringify(c.db.prepare('SELECT * FROM audit_log').all());
    expect(audit).toContain('exports.saveMail');
    expect(audit).not.toContain(PASSWORD);
    expect(fs.readFileSync(path.join(dataDir, SMTP_PASSWORD_SECRET.file), 'utf8').trim()).toBe(PASSWORD);
    // Saved again without a password: the stored one is kept.
    const kept = await ok<MailView>(
      c,
      'exports.saveMail',
      mailInput({ smtpPassword: undefined, mailTo: 'knjigovodja@biro.rs, arhiva@biro.rs' }),
    );
    expect(kept.passwordSet).toBe(true);
    // With the e-mail set up the monthly run needs no folder.
    const schedule = await ok<ScheduleView>(c, 'exports.saveSchedule', {
      managerPin,
      exportDay: 3,
      exportFolder: null,
    });
    expect(schedule.day).toBe(3);
  });

  it('queues the month with its run, keeps a refused delivery with the reason, sends it once with every file', async () => {
    const sale = await ok<OrderView>(c, 'sales.checkout', BREAD_AND_MILK);
    expect(sale.state).toBe('fiscalized');
    clock = Date.parse('2026-12-05T10:00:00Z');
    const files = async (from: string, to: string): Promise<PdfFile[]> => {
      const out: PdfFile[] = [];
      for (const kind of EXPORT_FILE_KINDS)
        out.push(await ok<PdfFile>(c, 'exports.file', { managerPin, from, to, kind }));
      return out;
    };
    const settings = new Settings(c.db);
    const mail = createExportMail(c.db, {
      get: (k) => settings.get(k),
      set: (k, v) => settings.set(k, v),
      secrets: createFileSecretStore({}, dataDir, SMTP_PASSWORD_SECRET),
      now: () => clock,
      language: () => 'sr-Cyrl',
      shopName: () => 'Продавница Код Мике',
      files,
      audit: () => undefined,
      redact: () => undefined,
    });
    const schedule = createExportSchedule(c.db, {
      get: (k) => settings.get(k),
      set: (k, v) => settings.set(k, v),
      now: () => clock,
      file: async () => {
        throw new Error('no folder is set: no file is written');
      },
      audit: () => undefined,
      mail,
    });
    smtp.failNext(1);
    await schedule.pass();
    expect(smtp.received).toHaveLength(0);
    let view = await ok<MailView>(c, 'exports.mail', { managerPin });
    expect(view.sends).toHaveLength(1);
    expect(view.sends[0]).toMatchObject({ month: '2026-11', state: 'queued', tries: 1, sentAt: null });
    expect(view.sends[0]?.lastError).toContain('451');
    expect((await ok<ScheduleView>(c, 'exports.schedule', { managerPin })).runs.map((r) => r.month)).toEqual([
      '2026-11',
    ]);

    view = await ok<MailView>(c, 'exports.sendNow', { managerPin });
    expect(view.sends[0]).toMatchObject({ month: '2026-11', state: 'sent', tries: 2, lastError: null });
    expect(smtp.received).toHaveLength(1);
    const got = smtp.received[0];
    expect(got).toMatchObject({ from: 'kasa@prodavnica.rs', user: 'knjige' });
    expect(got?.to).toEqual(['knjigovodja@biro.rs', 'arhiva@biro.rs']);
    const mime = parseMime(got?.raw ?? '');
    expect(mime.headers['message-id']).toBe('<export-2026-11.prodavnica.rs@kasa>');
    const subject = mime.headers['subject'] ?? '';
    const decoded = Buffer.from(/=\?UTF-8\?B\?(.*)\?=/.exec(subject)?.[1] ?? '', 'base64').toString('utf8');
    expect(decoded).toBe('Извоз за књиговођу: Продавница Код Мике, 01.11.2026. – 30.11.2026.');
    const [text, ...attachments] = mime.parts;
    expect(text?.body.toString('utf8')).toContain('promet_2026-11-01_2026-11-30.csv');
    const expected = await files('2026-11-01', '2026-11-30');
    expect(attachments.map((a) => /filename="([^"]+)"/.exec(a.headers['content-disposition'] ?? '')?.[1])).toEqual(
      expected.map((f) => f.fileName),
    );
    for (const [i, a] of attachments.entries()) expect(a.body.toString('base64')).toBe(expected[i]?.base64);
    const turnover = attachments[0]?.body.toString('utf8') ?? '';
    expect(turnover).toContain('540,00');
    expect(attachments.at(-1)?.body.subarray(0, 5).toString()).toBe('%PDF-');

    // Never twice: another pass, another try and a restart's pass send nothing.
    await schedule.pass();
    await ok(c, 'exports.sendNow', { managerPin });
    expect(smtp.received).toHaveLength(1);
  });
});

describe('STARTTLS', () => {
  let key = '';
  let cert = '';
  beforeAll(() => {
    const dir = tempDir('kasa-tls-');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    key = fs.readFileSync(path.join(dir, 'key.pem'), 'utf8');
    cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
  });

  const message = {
    from: 'kasa@prodavnica.rs',
    to: ['knjigovodja@biro.rs'],
    subject: 'Проба',
    text: 'Проба',
    messageId: 'proba@kasa',
    date: new Date('2026-12-05T10:00:00Z'),
    attachments: [{ fileName: 'a.csv', contentType: 'text/csv', content: Buffer.from('.x\r\n.\r\n') }],
  };

  it('upgrades the connection before the password and delivers over TLS', async () => {
    const server = await startSmtpServer({ user: 'knjige', password: PASSWORD, key, cert });
    try {
      await sendMail(
        { host: 'localhost', port: server.port, security: 'starttls', user: 'knjige', password: PASSWORD },
        message,
        { ca: cert },
      );
      expect(server.received).toHaveLength(1);
      expect(server.received[0]).toMatchObject({ secure: true, user: 'knjige' });
      const part = parseMime(server.received[0]?.raw ?? '').parts[1];
      expect(part?.body.toString()).toBe('.x\r\n.\r\n');
    } finally {
      await server.close();
    }
  });

  it('refuses a server without STARTTLS and sends no password in the clear', async () => {
    const server = await startSmtpServer({ user: 'knjige', password: PASSWORD });
    try {
      const err = await sendMail(
        { host: 'localhost', port: server.port, security: 'starttls', user: 'knjige', password: PASSWORD },
        message,
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SmtpError);
      expect((err as SmtpError).stage).toBe('STARTTLS');
      expect(server.received).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
