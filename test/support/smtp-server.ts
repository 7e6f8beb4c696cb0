/**
 * A small SMTP server for tests, on real TCP at an ephemeral port of 127.0.0.1: EHLO (advertising AUTH PLAIN LOGIN,
 * and STARTTLS when given a key and certificate), STARTTLS, AUTH PLAIN and LOGIN (checked against one user), MAIL,
 * RCPT, DATA (dot-unstuffed), RSET, NOOP, QUIT. It keeps every message accepted, and can refuse the next DATA with a
 * temporary error (`failNext`) to test retries. `parseMime` decodes a kept message's parts for assertions.
 */
import net from 'node:net';
import tls from 'node:tls';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The user that authenticated, or null. */
  user: string | null;
  secure: boolean;
  raw: string;
}

export interface TestSmtpServer {
  port: number;
  received: ReceivedMail[];
  /** The next `n` DATA commands get `451` after the message was sent. */
  failNext(n: number): void;
  close(): Promise<void>;
}

export async function startSmtpServer(
  options: { user?: string; password?: string; key?: string; cert?: string } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  let failures = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((plain) => {
    sockets.add(plain);
    plain.on('close', () => sockets.delete(plain));
    let socket: net.Socket = plain;
    let secure = false;
    let buf = '';
    let user: string | null = null;
    let from = '';
    let to: string[] = [];
    let data: string[] | null = null;
    let login: 'user' | 'password' | null = null;
    let loginUser = '';
    const say = (line: string): void => {
      socket.write(line + '\r\n');
    };
    const authed = (name: string, password: string): void => {
      if (name === options.user && password === options.password) {
        user = name;
        say('235 2.7.0 Authentication successful');
      } else say('535 5.7.8 Authentication credentials invalid');
    };
    const onLine = (line: string): void => {
      if (data) {
        if (line === '.') {
          const raw = data.join('\r\n');
          data = null;
          if (failures > 0) {
            failures--;
            say('451 4.3.0 Temporary failure, try again later');
            return;
          }
          received.push({ from, to, user, secure, raw });
          say('250 2.0.0 Ok: queued');
        } else data.push(line.startsWith('..') ? line.slice(1) : line);
        return;
      }
      if (login === 'user') {
        loginUser = Buffer.from(line, 'base64').toString('utf8');
        login = 'password';
        say('334 UGFzc3dvcmQ6');
        return;
      }
      if (login === 'password') {
        login = null;
        authed(loginUser, Buffer.from(line, 'base64').toString('utf8'));
        return;
      }
      const [verb = '', ...rest] = line.split(' ');
      const arg = rest.join(' ');
      switch (verb.toUpperCase()) {
        case 'EHLO':
          say('250-localhost');
          if (options.key && !secure) say('250-STARTTLS');
          say('250 AUTH PLAIN LOGIN');
          return;
        case 'STARTTLS': {
          if (!options.key) return say('502 5.5.1 Not implemented');
          say('220 2.0.0 Ready to start TLS');
          plain.removeAllListeners('data');
          const t = new tls.TLSSocket(plain, { isServer: true, key: options.key, cert: options.cert });
          t.setEncoding('utf8');
          t.on('data', onData);
          t.on('error', () => undefined);
          socket = t;
          secure = true;
          buf = '';
          return;
        }
        case 'AUTH': {
          const [mech = '', initial] = arg.split(' ');
          if (mech.toUpperCase() === 'PLAIN' && initial) {
            const [, name = '', password = ''] = Buffer.from(initial, 'base64').toString('utf8').split('\0');
            return authed(name, password);
          }
          if (mech.toUpperCase() === 'LOGIN') {
            login = 'user';
            return say('334 VXNlcm5hbWU6');
          }
          return say('504 5.5.4 Unrecognized authentication type');
        }
        case 'MAIL':
          if (options.user && !user) return say('530 5.7.0 Authentication required');
          from = /<(.*)>/.exec(arg)?.[1] ?? '';
          to = [];
          return say('250 2.1.0 Ok');
        case 'RCPT':
          to.push(/<(.*)>/.exec(arg)?.[1] ?? '');
          return say('250 2.1.5 Ok');
        case 'DATA':
          if (to.length === 0) return say('503 5.5.1 No recipients');
          data = [];
          return say('354 End data with <CR><LF>.<CR><LF>');
        case 'RSET':
          from = '';
          to = [];
          return say('250 2.0.0 Ok');
        case 'NOOP':
          return say('250 2.0.0 Ok');
        case 'QUIT':
          say('221 2.0.0 Bye');
          socket.end();
          return;
        default:
          return say('502 5.5.2 Command not recognized');
      }
    };
    const onData = (chunk: string): void => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        onLine(line);
      }
    };
    plain.setEncoding('utf8');
    plain.on('data', onData);
    plain.on('error', () => undefined);
    say('220 localhost ESMTP test');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    received,
    failNext(n) {
      failures = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface MimePart {
  headers: Record<string, string>;
  /** The decoded body. */
  body: Buffer;
}

/** The message's headers and its parts (multipart/mixed, base64 bodies decoded). */
export function parseMime(raw: string): { headers: Record<string, string>; parts: MimePart[] } {
  const split = (text: string): { headers: Record<string, string>; body: string } => {
    const at = text.indexOf('\r\n\r\n');
    const head = text.slice(0, at).replace(/\r\n[ \t]+/g, ' ');
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n')) {
      const c = line.indexOf(':');
      headers[line.slice(0, c).toLowerCase()] = line.slice(c + 1).trim();
    }
    return { headers, body: text.slice(at + 4) };
  };
  const top = split(raw);
  const boundary = /boundary="([^"]+)"/.exec(top.headers['content-type'] ?? '')?.[1];
  if (!boundary) return { headers: top.headers, parts: [] };
  const chunks = top.body.split(`--${boundary}`).slice(1, -1);
  const parts = chunks.map((c) => {
    const p = split(c.replace(/^\r\n/, ''));
    const b64 = (p.headers['content-transfer-encoding'] ?? '').toLowerCase() === 'base64';
    return { headers: p.headers, body: b64 ? Buffer.from(p.body.replace(/\s+/g, ''), 'base64') : Buffer.from(p.body) };
  });
  return { headers: top.headers, parts };
}
