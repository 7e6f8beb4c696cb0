/**
 * A small SMTP client on Node's own sockets (RFC 5321 with the ESMTP extensions it needs: STARTTLS, RFC 3207; AUTH
 * PLAIN and LOGIN, RFC 4954) and the MIME message it sends (RFC 2045–2047: multipart/mixed, a UTF-8 text part and
 * base64 attachments). Enough for the bookkeeper's monthly export (docs/exports.md); no pooling, one message per
 * connection.
 *
 * Security: `tls` connects over TLS (port 465), `starttls` upgrades the plain connection before anything else and
 * refuses a server that does not offer it, `none` sends in the clear and is refused with a user and password unless
 * the server is this machine (a local relay). The password goes into the AUTH command only; an error carries the
 * server's reply, never the command sent.
 */
import net from 'node:net';
import tls from 'node:tls';
import os from 'node:os';

export type SmtpSecurity = 'starttls' | 'tls' | 'none';

export interface SmtpServer {
  host: string;
  port: number;
  security: SmtpSecurity;
  /** Empty: no AUTH. */
  user: string;
  password: string | null;
}

export interface MailAttachment {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Without angle brackets: the same for every try of one month, so a mail program can tell a repeat. */
  messageId: string;
  date: Date;
  attachments: MailAttachment[];
}

export interface SmtpOptions {
  /** Each reply waited for at most this long. */
  timeoutMs?: number;
  /** Extra CA certificates to trust (tests: a self-signed server). */
  ca?: string | Buffer;
}

/** A refusal or failure; `reply` is the server's last words (or the network error), shown to the manager. */
export class SmtpError extends Error {
  readonly stage: string;
  readonly reply: string;
  /** The reply code, 0 for a network error. A 5xx is permanent for this message. */
  readonly code: number;
  constructor(stage: string, reply: string, code: number) {
    super(`SMTP ${stage}: ${reply}`);
    this.stage = stage;
    this.reply = reply;
    this.code = code;
  }
}

const LOCAL = new Set(['localhost', '127.0.0.1', '::1']);

/** Encodes a header value as RFC 2047 encoded words when it is not plain ASCII. */
function headerText(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return s;
  return `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`;
}

const base64Lines = (b: Buffer): string => (b.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');

/** The message as MIME text (CRLF line ends, no dot-stuffing). */
export function mimeMessage(m: MailMessage): string {
  const boundary = `kasa-${m.messageId.replace(/[^A-Za-z0-9]/g, '')}`;
  const lines = [
    `From: ${m.from}`,
    `To: ${m.to.join(', ')}`,
    `Subject: ${headerText(m.subject)}`,
    `Date: ${m.date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${m.messageId}>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: base64',
    '',
    base64Lines(Buffer.from(m.text, 'utf8')),
  ];
  for (const a of m.attachments) {
    lines.push(
      `--${boundary}`,
      `Content-Type: ${a.contentType}; name="${a.fileName}"`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="${a.fileName}"`,
      '',
      base64Lines(a.content),
    );
  }
  lines.push(`--${boundary}--`, '');
  return lines.join('\r\n');
}

/** Reads SMTP replies off a socket, one complete (possibly multi-line) reply at a time. */
class Replies {
  #buf = '';
  #lines: string[] = [];
  #waiting: { resolve: (r: { code: number; text: string }) => void; reject: (e: Error) => void } | null = null;
  #queue: { code: number; text: string }[] = [];
  #error: Error | null = null;

  constructor(socket: net.Socket) {
    this.attach(socket);
  }

  attach(socket: net.Socket): void {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.#data(chunk));
    socket.on('error', (err) => this.#fail(err));
    socket.on('close', () => this.#fail(new Error('the server closed the connection')));
  }

  #data(chunk: string): void {
    this.#buf += chunk;
    let i: number;
    while ((i = this.#buf.indexOf('\n')) >= 0) {
      const line = this.#buf.slice(0, i).replace(/\r$/, '');
      this.#buf = this.#buf.slice(i + 1);
      this.#lines.push(line);
      if (!/^\d{3}-/.test(line)) {
        const code = Number(line.slice(0, 3)) || 0;
        const text = this.#lines.map((l) => l.slice(4)).join('\n');
        this.#lines = [];
        this.#queue.push({ code, text });
      }
    }
    this.#flush();
  }

  #fail(err: Error): void {
    this.#error ??= err;
    this.#flush();
  }

  #flush(): void {
    if (!this.#waiting) return;
    const next = this.#queue.shift();
    if (next) {
      const w = this.#waiting;
      this.#waiting = null;
      w.resolve(next);
    } else if (this.#error) {
      const w = this.#waiting;
      this.#waiting = null;
      w.reject(this.#error);
    }
  }

  next(timeoutMs: number): Promise<{ code: number; text: string }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting = null;
        reject(new Error(`no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiting = {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.#flush();
    });
  }
}

function connect(server: SmtpServer, options: SmtpOptions): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket =
      server.security === 'tls'
        ? tls.connect({ host: server.host, port: server.port, servername: server.host, ca: options.ca })
        : net.connect({ host: server.host, port: server.port });
    const ok = server.security === 'tls' ? 'secureConnect' : 'connect';
    socket.once(ok, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function upgrade(socket: net.Socket, server: SmtpServer, options: SmtpOptions): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    socket.removeAllListeners('data');
    socket.removeAllListeners('close');
    const secure = tls.connect({ socket, servername: server.host, ca: options.ca });
    secure.once('secureConnect', () => {
      secure.off('error', reject);
      resolve(secure);
    });
    secure.once('error', reject);
  });
}

/** Sends one message; resolves when the server accepted it (250 after the data), rejects with an SmtpError. */
export async function sendMail(server: SmtpServer, message: MailMessage, options: SmtpOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  let socket: net.Socket;
  try {
    socket = await connect(server, options);
  } catch (err) {
    throw new SmtpError('connect', err instanceof Error ? err.message : String(err), 0);
  }
  let replies = new Replies(socket);
  const expect = async (stage: string, codes: number[], line: string | null): Promise<string> => {
    if (line !== null) socket.write(line + '\r\n');
    let r: { code: number; text: string };
    try {
      r = await replies.next(timeoutMs);
    } catch (err) {
      throw new SmtpError(stage, err instanceof Error ? err.message : String(err), 0);
    }
    if (!codes.includes(r.code)) throw new SmtpError(stage, `${r.code} ${r.text}`, r.code);
    return r.text;
  };
  try {
    await expect('greeting', [220], null);
    const name = os.hostname().replace(/[^A-Za-z0-9.-]/g, '') || 'kasa';
    let ehlo = await expect('EHLO', [250], `EHLO ${name}`);
    if (server.security === 'starttls') {
      if (!/^STARTTLS\b/im.test(ehlo)) throw new SmtpError('STARTTLS', 'the server does not offer STARTTLS', 0);
      await expect('STARTTLS', [220], 'STARTTLS');
      try {
        socket = await upgrade(socket, server, options);
      } catch (err) {
        throw new SmtpError('STARTTLS', err instanceof Error ? err.message : String(err), 0);
      }
      replies = new Replies(socket);
      ehlo = await expect('EHLO', [250], `EHLO ${name}`);
    }
    if (server.user) {
      if (server.security === 'none' && !LOCAL.has(server.host))
        throw new SmtpError('AUTH', 'a password is not sent over an unencrypted connection', 0);
      const auth = /^AUTH[ =](.*)$/im.exec(ehlo)?.[1]?.toUpperCase().split(/\s+/) ?? [];
      const password = server.password ?? '';
      if (auth.includes('PLAIN') || !auth.includes('LOGIN')) {
        const token = Buffer.from(`\0${server.user}\0${password}`, 'utf8').toString('base64');
        await expect('AUTH', [235], `AUTH PLAIN ${token}`);
      } else {
        await expect('AUTH', [334], 'AUTH LOGIN');
        await expect('AUTH', [334], Buffer.from(server.user, 'utf8').toString('base64'));
        await expect('AUTH', [235], Buffer.from(password, 'utf8').toString('base64'));
      }
    }
    await expect('MAIL FROM', [250], `MAIL FROM:<${message.from}>`);
    for (const to of message.to) await expect('RCPT TO', [250, 251], `RCPT TO:<${to}>`);
    await expect('DATA', [354], 'DATA');
    const body = mimeMessage(message)
      .split('\r\n')
      .map((l) => (l.startsWith('.') ? '.' + l : l))
      .join('\r\n');
    await expect('DATA', [250], `${body}.`);
    socket.write('QUIT\r\n');
  } finally {
    socket.end();
  }
}
