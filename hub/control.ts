/**
 * The hub's local control channel (issue 39): `npm run hub -- enrol-code` asks the running hub for a new
 * enrolment code through a Unix socket in the hub's data dir (`control.sock`, mode 0600 in the 0700 folder: only
 * the hub's own user reaches it; a named pipe on Windows), so the embedded database is never opened by two
 * processes at once. When no hub listens there, the command opens the hub's database itself. One request, one
 * line of JSON each way; the only request is a new code for a shop.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** What the hub answers `enrol-code` with (the code is shown once, here). */
export interface MintedCode {
  code: string;
  shopId: number;
  expiresAt: string;
  fingerprint: string | null;
}

/** The control socket of the hub whose data dir is `dir`. */
export function controlPath(dir: string): string {
  if (process.platform === 'win32')
    return `\\\\.\\pipe\\kasa-hub-${crypto.createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 16)}`;
  return path.join(dir, 'control.sock');
}

/** Listens for `enrol-code` requests; `mint` makes the code (and audits it). */
export function startControl(
  dir: string,
  mint: (shopId: number | undefined) => Promise<MintedCode>,
  log: (line: string) => void,
): Promise<{ close(): Promise<void> }> {
  const where = controlPath(dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A socket file left by a hub that was killed: nothing listens on it any more.
  if (process.platform !== 'win32' && fs.existsSync(where)) fs.rmSync(where, { force: true });
  const server = net.createServer((socket) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 1000) socket.destroy();
      if (!text.includes('\n')) return;
      let shopId: number | undefined;
      try {
        const asked = JSON.parse(text.slice(0, text.indexOf('\n'))) as { cmd?: unknown; shopId?: unknown };
        if (asked.cmd !== 'enrol-code') throw new Error('unknown request');
        if (asked.shopId !== undefined && !(Number.isSafeInteger(asked.shopId) && Number(asked.shopId) > 0))
          throw new Error('shopId: a positive integer');
        shopId = asked.shopId === undefined ? undefined : Number(asked.shopId);
      } catch (err) {
        socket.end(JSON.stringify({ error: err instanceof Error ? err.message : 'bad request' }) + '\n');
        return;
      }
      mint(shopId).then(
        (minted) => socket.end(JSON.stringify(minted) + '\n'),
        (err: unknown) => {
          log(`hub: enrol-code refused: ${err instanceof Error ? err.message : String(err)}`);
          socket.end(JSON.stringify({ error: err instanceof Error ? err.message : 'refused' }) + '\n');
        },
      );
    });
    socket.on('error', () => socket.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(where, () => {
      if (process.platform !== 'win32') fs.chmodSync(where, 0o600);
      resolve({
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
          }),
      });
    });
  });
}

/** Asks the running hub for a code; null when no hub listens (then the caller opens the database itself). */
export function askControl(dir: string, shopId: number | undefined): Promise<MintedCode | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(controlPath(dir));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify({ cmd: 'enrol-code', shopId }) + '\n'));
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => {
      try {
        const answer = JSON.parse(text) as MintedCode | { error: string };
        if ('error' in answer) reject(new Error(answer.error));
        else resolve(answer);
      } catch {
        reject(new Error('the hub gave no answer'));
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') resolve(null);
      else reject(err);
    });
  });
}
