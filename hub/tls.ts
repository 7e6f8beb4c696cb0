/**
 * The hub's TLS key and certificate (#25), as the environment says:
 * - KASA_HUB_TLS_CERT and KASA_HUB_TLS_KEY: a shop's own certificate (PEM; the chain may follow the
 *   certificate in its file) and its key, which must be readable by the hub's user only;
 * - otherwise the hub's own, made at its first start: a P-256 key and a self-signed certificate for its
 *   addresses, in `<hub data>/tls/` (folder 0700, files 0600), kept across restarts (the tills pinned it);
 * - KASA_HUB_TLS=off: none, plain HTTP, which the server allows on loopback only (development, tests).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeDataDirPrivate } from '../shared/node/private-files.ts';
import { selfSignedCertificate, type TlsMaterial } from '../shared/node/tls-cert.ts';

/** Reads a key file, refused when other users may read it. */
function readKey(file: string): string {
  if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0)
    throw new Error(`${file} (KASA_HUB_TLS_KEY) is readable by other users; run chmod 600 on it`);
  return fs.readFileSync(file, 'utf8');
}

/** Refuses a key that is not the certificate's. */
function checkPair(m: TlsMaterial, what: string): TlsMaterial {
  const cert = new crypto.X509Certificate(m.cert);
  if (!cert.checkPrivateKey(crypto.createPrivateKey(m.key)))
    throw new Error(`${what}: the key is not the certificate's key`);
  return m;
}

/** The hub's TLS material, or null when KASA_HUB_TLS=off. `hosts` go into a certificate the hub makes. */
export function hubTlsOf(env: NodeJS.ProcessEnv, dataDir: string, hosts: readonly string[]): TlsMaterial | null {
  const mode = (env.KASA_HUB_TLS ?? 'on').trim().toLowerCase();
  if (mode === 'off') return null;
  if (mode !== 'on') throw new Error(`KASA_HUB_TLS must be on or off, not "${env.KASA_HUB_TLS ?? ''}"`);
  const certFile = env.KASA_HUB_TLS_CERT?.trim();
  const keyFile = env.KASA_HUB_TLS_KEY?.trim();
  if (certFile || keyFile) {
    if (!certFile || !keyFile) throw new Error('KASA_HUB_TLS_CERT and KASA_HUB_TLS_KEY are set together or not at all');
    return checkPair({ cert: fs.readFileSync(certFile, 'utf8'), key: readKey(keyFile) }, certFile);
  }
  const dir = path.join(dataDir, 'tls');
  const files = { key: path.join(dir, 'hub.key'), cert: path.join(dir, 'hub.crt') };
  makeDataDirPrivate(dir);
  if (fs.existsSync(files.key) && fs.existsSync(files.cert))
    return checkPair({ key: readKey(files.key), cert: fs.readFileSync(files.cert, 'utf8') }, files.cert);
  const made = selfSignedCertificate({ hosts });
  // The key first: a certificate on disk always has its key beside it.
  for (const [file, text] of [
    [files.key, made.key],
    [files.cert, made.cert],
  ] as const) {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, file);
  }
  return made;
}
