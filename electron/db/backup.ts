/**
 * Backups of the till's database, and restoring one. Plain Node (better-sqlite3 only), so the Electron
 * app and the browser host do exactly the same.
 *
 * - `createBackup`: SQLite's online backup API (`db.backup`) into `<dataDir>/backups/kasa-<UTC time>.sqlite`
 *   while the till keeps working; the last `KEEP_BACKUPS` (7) daily backups are kept.
 * - `requestRestore`: validates a listed backup (copy, `PRAGMA integrity_check`, schema version) and
 *   stages it; the app must restart. `applyPendingRestore`, called before the database is opened, keeps a
 *   copy of the current database (`backups/pre-restore-<time>.sqlite`) and puts the staged one in place.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './open.ts';
import { MIGRATIONS } from './migrations/index.ts';

export const DB_FILE = 'kasa.sqlite';
export const BACKUP_DIR = 'backups';
export const KEEP_BACKUPS = 7;
/** Daily backups together may take at most this many times the newest one (see `pruneBackups`). */
export const BACKUP_BUDGET_COPIES = 3;
const RESTORE_DIR = 'restore';
const STAGED = 'staged.sqlite';
const PENDING = 'pending.json';

interface LogLike {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}
const silent: LogLike = { info: () => {}, warn: () => {}, error: () => {} };

export interface BackupInfo {
  /** The file name (what `requestRestore` takes). */
  name: string;
  kind: 'daily' | 'pre-restore';
  /** ISO time the backup was taken. */
  createdAt: string;
  bytes: number;
}

const NAME_RE = /^(kasa|pre-restore)-(\d{8}T\d{6}(?:\d{3})?Z)\.sqlite$/;

const stamp = (ms: number): string => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1Z');
function parseStamp(s: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})?Z$/.exec(s);
  if (!m) return new Date(0).toISOString();
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7] ?? '000'}Z`;
}

export const backupDir = (dataDir: string): string => path.join(dataDir, BACKUP_DIR);

/** Every backup in `<dataDir>/backups`, newest first. */
export function listBackups(dataDir: string): BackupInfo[] {
  let names: string[];
  try {
    names = fs.readdirSync(backupDir(dataDir));
  } catch {
    return [];
  }
  const out: BackupInfo[] = [];
  for (const name of names) {
    const m = NAME_RE.exec(name);
    if (!m) continue;
    const st = fs.statSync(path.join(backupDir(dataDir), name));
    if (!st.isFile()) continue;
    out.push({ name, kind: m[1] === 'kasa' ? 'daily' : 'pre-restore', createdAt: parseStamp(m[2] as string), bytes: st.size });
  }
  return out.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.name < b.name ? 1 : -1));
}

/** True when no daily backup was taken on `now`'s local calendar day. */
export function backupDue(dataDir: string, now: number = Date.now()): boolean {
  const last = listBackups(dataDir).find((b) => b.kind === 'daily');
  if (!last) return true;
  const a = new Date(last.createdAt);
  const b = new Date(now);
  return a.getFullYear() !== b.getFullYear() || a.getMonth() !== b.getMonth() || a.getDate() !== b.getDate();
}

/**
 * Takes a backup with SQLite's online backup API (consistent, includes the WAL, the till keeps selling),
 * writes it under a temporary name and renames it, then keeps only the newest `keep` daily backups.
 * The running app takes its daily backup with `backupInWorker` (maintenance.ts) instead, off the main thread.
 */
export async function createBackup(
  db: Db,
  dataDir: string,
  options: { now?: number; keep?: number; maxBytes?: number | undefined } = {},
): Promise<BackupInfo> {
  const now = options.now ?? Date.now();
  const dir = backupDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `kasa-${stamp(now)}.sqlite.partial`);
  fs.rmSync(tmp, { force: true });
  await db.backup(tmp);
  return finishBackup(tmp, dataDir, options);
}

/** Puts a finished backup file (`tmp`, written elsewhere) in place as the daily backup of `now`, then prunes. */
export function finishBackup(
  tmp: string,
  dataDir: string,
  options: { now?: number; keep?: number | undefined; maxBytes?: number | undefined } = {},
): BackupInfo {
  const name = `kasa-${stamp(options.now ?? Date.now())}.sqlite`;
  fs.renameSync(tmp, path.join(backupDir(dataDir), name));
  pruneBackups(dataDir, options.keep ?? KEEP_BACKUPS, options.maxBytes);
  const info = listBackups(dataDir).find((b) => b.name === name);
  if (!info) throw new Error(`backup ${name} vanished`);
  return info;
}

/**
 * Deletes daily backups beyond the newest `keep`, and then the oldest ones while all daily backups
 * together exceed `maxBytes` (default `BACKUP_BUDGET_COPIES` times the newest one); the newest is always
 * kept. Pre-restore copies are never deleted automatically.
 */
export function pruneBackups(dataDir: string, keep: number = KEEP_BACKUPS, maxBytes?: number): string[] {
  const daily = listBackups(dataDir).filter((b) => b.kind === 'daily');
  const budget = maxBytes ?? (daily[0]?.bytes ?? 0) * BACKUP_BUDGET_COPIES;
  const removed: string[] = [];
  let used = 0;
  daily.forEach((b, i) => {
    used += b.bytes;
    if (i === 0 || (i < keep && used <= budget)) return;
    fs.rmSync(path.join(backupDir(dataDir), b.name), { force: true });
    removed.push(b.name);
  });
  return removed;
}

/** `PRAGMA integrity_check` of a database file: 'ok' or the problems SQLite lists (or why it cannot open). */
export function checkDatabaseFile(file: string): { ok: boolean; problems: string[]; userVersion: number | null } {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { fileMustExist: true });
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    const problems = rows.map((r) => r.integrity_check).filter((m) => m !== 'ok');
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    return { ok: problems.length === 0 && rows.length > 0, problems, userVersion };
  } catch (err) {
    return { ok: false, problems: [err instanceof Error ? err.message : String(err)], userVersion: null };
  } finally {
    db?.close();
  }
}

export interface PendingRestore {
  name: string;
  requestedAt: string;
}

/**
 * Validates backup `name` (one of `listBackups`) and stages it for the next start: the copy that will be
 * put in place must pass `PRAGMA integrity_check` and carry a schema this app knows (1..latest migration).
 * Throws with the reason otherwise. The running database is not touched: restart the app to apply.
 */
export function requestRestore(dataDir: string, name: string, options: { now?: number; logger?: LogLike } = {}): { restartRequired: true; name: string } {
  const log = options.logger ?? silent;
  const backup = listBackups(dataDir).find((b) => b.name === name);
  if (!backup) throw new Error(`no backup named ${JSON.stringify(name)}`);
  const dir = path.join(dataDir, RESTORE_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const staged = path.join(dir, STAGED);
  removeDbFiles(staged);
  fs.rmSync(path.join(dir, PENDING), { force: true });
  fs.copyFileSync(path.join(backupDir(dataDir), name), staged);
  const check = checkDatabaseFile(staged);
  const latest = MIGRATIONS.length;
  const problem = !check.ok
    ? `integrity_check failed: ${check.problems.slice(0, 5).join('; ')}`
    : !check.userVersion || check.userVersion < 1
      ? 'not a Kasa database (schema version 0)'
      : check.userVersion > latest
        ? `made by a newer Kasa (schema ${check.userVersion}, this version knows ${latest})`
        : null;
  if (problem) {
    removeDbFiles(staged);
    log.error(`restore of ${name} refused: ${problem}`);
    throw new Error(`backup ${name} cannot be restored: ${problem}`);
  }
  const pending: PendingRestore = { name, requestedAt: new Date(options.now ?? Date.now()).toISOString() };
  fs.writeFileSync(path.join(dir, PENDING), JSON.stringify(pending) + '\n');
  log.warn(`restore of backup ${name} staged; it is applied when the app restarts`);
  return { restartRequired: true, name };
}

/** The restore waiting for the next start, if any. */
export function pendingRestore(dataDir: string): PendingRestore | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, RESTORE_DIR, PENDING), 'utf8')) as PendingRestore;
  } catch {
    return null;
  }
}

export function cancelRestore(dataDir: string): void {
  fs.rmSync(path.join(dataDir, RESTORE_DIR, PENDING), { force: true });
  removeDbFiles(path.join(dataDir, RESTORE_DIR, STAGED));
}

/**
 * Call before the database is opened (app start). If a restore is staged: checks the staged copy again,
 * keeps the current database as `backups/pre-restore-<time>.sqlite` (with VACUUM INTO, so a WAL left by
 * a crash is included; raw file copies if the current database cannot be opened), and moves the staged
 * copy into place. Returns what it did, or null when nothing was pending.
 */
export function applyPendingRestore(
  dataDir: string,
  logger: LogLike = silent,
  options: { now?: number } = {},
): { restored: string; previous: string | null } | null {
  const pending = pendingRestore(dataDir);
  if (!pending) return null;
  const dir = path.join(dataDir, RESTORE_DIR);
  const staged = path.join(dir, STAGED);
  const check = fs.existsSync(staged) ? checkDatabaseFile(staged) : { ok: false, problems: ['staged copy missing'] };
  if (!check.ok) {
    logger.error(`pending restore of ${pending.name} dropped: ${check.problems.join('; ')}`);
    cancelRestore(dataDir);
    return null;
  }
  const current = path.join(dataDir, DB_FILE);
  let previous: string | null = null;
  if (fs.existsSync(current)) {
    fs.mkdirSync(backupDir(dataDir), { recursive: true });
    previous = path.join(backupDir(dataDir), `pre-restore-${stamp(options.now ?? Date.now())}.sqlite`);
    try {
      copyDatabase(current, previous);
    } catch (err) {
      logger.warn(`current database could not be opened for the pre-restore copy (${String(err)}); copying its files`);
      for (const suffix of ['', '-wal']) {
        if (fs.existsSync(current + suffix)) fs.copyFileSync(current + suffix, previous + suffix);
      }
    }
  }
  removeDbFiles(current);
  fs.renameSync(staged, current);
  fs.rmSync(path.join(dir, PENDING), { force: true });
  logger.warn(`database restored from backup ${pending.name}${previous ? `; the previous one is kept as ${path.basename(previous)}` : ''}`);
  return { restored: pending.name, previous };
}

/** A consistent copy of a database file that is not open elsewhere, synchronously (VACUUM INTO). */
function copyDatabase(from: string, to: string): void {
  const db = new Database(from, { fileMustExist: true });
  try {
    fs.rmSync(to, { force: true });
    db.prepare('VACUUM INTO ?').run(to);
  } finally {
    db.close();
  }
}

function removeDbFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}
