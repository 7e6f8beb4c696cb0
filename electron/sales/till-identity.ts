/**
 * The till's identity, the part of every order number that no database can bring back.
 *
 * The gateway deduplicates by order number (`returnIfOrderNumberExists`), so a number used twice makes
 * the second sale receive the first sale's receipt. A database alone cannot prevent that: a restored
 * backup, a reinstall with a fresh database or a copied disk all start counting again from what the
 * database remembers. So the order number carries a tag kept OUTSIDE the database, in
 * `<dataDir>/till-identity.json`:
 *
 * - `installationId`: 6 random Crockford base-32 characters made at the first start of an installation
 *   (and again when the file is missing or was made on another machine: a copied disk). Two tills never
 *   share it, even when both keep the default terminal id.
 * - `starts`: bumped, durably, at EVERY start before the first sale. A database put back while the app
 *   was stopped (a restore, or a file copied by hand) therefore never sees the sequence it had before:
 *   the sequences restart under a new tag.
 *
 * The tag (`installationId` + `starts` in base 36) is written into the database's settings table too, so
 * the capture transaction reads it with the sequence (sales/order-number.ts). Order numbers stay within
 * the characters `A-Z 0-9 -` and under 40 characters.
 */
import { createHash, randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { Db } from '../db/open.ts';

export const IDENTITY_FILE = 'till-identity.json';
/** Settings rows the identity is mirrored in (read inside the capture transaction). */
export const TAG_KEY = 'till.orderTag';
export const INSTALLATION_KEY = 'till.installationId';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const FileSchema = z.object({
  installationId: z.string().regex(/^[0-9A-HJKMNP-TV-Z]{6}$/),
  machine: z.string(),
  starts: z.number().int().min(0),
});
type IdentityFile = z.infer<typeof FileSchema>;

export interface TillIdentity {
  installationId: string;
  /** How many times this installation has started (this start included). */
  starts: number;
  /** What goes into every order number of this run: installationId + starts in base 36. */
  tag: string;
  /** True when this start made a new installation id (first start, lost file, or another machine). */
  created: boolean;
}

/** A fingerprint of this machine: a disk copied to another machine is a new installation. */
export function machineFingerprint(): string {
  let machineId = '';
  for (const f of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      machineId = fs.readFileSync(f, 'utf8').trim();
      if (machineId) break;
    } catch {
      // not on this system
    }
  }
  return createHash('sha256').update(`${os.hostname()}\n${machineId}`).digest('hex').slice(0, 16);
}

export function newInstallationId(): string {
  let id = '';
  for (let i = 0; i < 6; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

function readFile(file: string): IdentityFile | null {
  try {
    const parsed = FileSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Writes the file durably (temporary file, fsync, rename, fsync of the folder). */
function writeFile(file: string, value: IdentityFile): void {
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o644);
  try {
    fs.writeSync(fd, JSON.stringify(value) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  try {
    const dir = fs.openSync(path.dirname(file), 'r');
    try {
      fs.fsyncSync(dir);
    } finally {
      fs.closeSync(dir);
    }
  } catch {
    // Windows cannot fsync a folder; the rename is still atomic.
  }
}

/**
 * Call once per start, after a pending restore is applied and the database is opened, before any sale:
 * bumps the start count beside the database and mirrors the new tag into it.
 */
export function startTillIdentity(db: Db, dataDir: string, options: { machine?: string } = {}): TillIdentity {
  const machine = options.machine ?? machineFingerprint();
  const file = path.join(dataDir, IDENTITY_FILE);
  const previous = readFile(file);
  const created = !previous || previous.machine !== machine;
  const next: IdentityFile = created
    ? { installationId: newInstallationId(), machine, starts: 1 }
    : { ...previous, starts: previous.starts + 1 };
  fs.mkdirSync(dataDir, { recursive: true });
  writeFile(file, next);
  const tag = `${next.installationId}${next.starts.toString(36).toUpperCase()}`;
  const set = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  db.transaction(() => {
    set.run(TAG_KEY, tag);
    set.run(INSTALLATION_KEY, next.installationId);
  })();
  return { installationId: next.installationId, starts: next.starts, tag, created };
}

/** The tag of this run as the database holds it; throws when `startTillIdentity` has not run. */
export function orderTag(db: Db): string {
  const row = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(TAG_KEY);
  if (!row) throw new Error('till identity not started: call startTillIdentity before the first order');
  return row.value;
}

/** The installation id mirrored in the database, if the till identity has started. */
export function installationId(db: Db): string | undefined {
  return db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(INSTALLATION_KEY)?.value;
}
