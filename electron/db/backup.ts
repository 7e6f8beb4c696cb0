/**
 * Backups of the till's database, and restoring one. Plain Node (better-sqlite3 only), so the Electron
 * app and the browser host do exactly the same.
 *
 * - Daily backups are restore points `<dataDir>/backups/kasa-<UTC time>.kbak` (page-level, incremental,
 *   compressed: restore-points.ts), written by the maintenance worker (`backupInWorker`, maintenance.ts)
 *   and put in place by `finishBackup`; the newest `KEEP_BACKUPS` (7) stay restorable (`pruneBackups`).
 *   Daily backups of the previous version (`kasa-<time>.sqlite`, full copies) are still listed, restored
 *   and pruned.
 * - `requestRestore`: rebuilds (a restore point's chain) or copies (a `.sqlite`) a listed backup, validates
 *   it (`PRAGMA integrity_check`, schema version) and stages it; the app must restart. `applyPendingRestore`, called
 *   before the database is opened, keeps a
 *   copy of the current database (`backups/pre-restore-<time>.sqlite`) and puts the staged one in place.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations/index.ts';
import { MANIFEST_FILE, POINT_EXT, readPointHeader, rebuildPoint, type PointInfo } from './restore-points.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import type { LogLike } from '../log/logger.ts';

export const DB_FILE = 'kasa.sqlite';
export const BACKUP_DIR = 'backups';
export const KEEP_BACKUPS = 7;
/** Daily backups together may take at most this many times the biggest self-contained one (see `pruneBackups`). */
export const BACKUP_BUDGET_COPIES = 3;
const RESTORE_DIR = 'restore';
const STAGED = 'staged.sqlite';
const PENDING = 'pending.json';

const silent: LogLike = { info: () => {}, warn: () => {}, error: () => {} };

export interface BackupInfo {
  /** The file name (what `requestRestore` takes). */
  name: string;
  kind: 'daily' | 'pre-restore';
  /** ISO time the backup was taken. */
  createdAt: string;
  bytes: number;
  /** A restore point's place in its chain (absent for a `.sqlite` copy, which stands alone). */
  chain?: { type: PointInfo['kind']; parent: string | null };
}

const NAME_RE = /^(kasa|pre-restore)-(\d{8}T\d{6}(?:\d{3})?Z)\.(sqlite|kbak)$/;

const stamp = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.(\d{3})Z$/, '$1Z');
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
    if (!st.isFile() || (m[1] === 'pre-restore' && m[3] !== 'sqlite')) continue;
    const info: BackupInfo = {
      name,
      kind: m[1] === 'kasa' ? 'daily' : 'pre-restore',
      createdAt: parseStamp(m[2] as string),
      bytes: st.size,
    };
    if (name.endsWith(POINT_EXT)) info.chain = pointChain(path.join(backupDir(dataDir), name));
    out.push(info);
  }
  return out.sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.name < b.name ? 1 : -1,
  );
}

/** True when no daily backup was taken on `now`'s day in the shop's time zone. */
export function backupDue(dataDir: string, now: number = Date.now()): boolean {
  const last = listBackups(dataDir).find((b) => b.kind === 'daily');
  if (!last) return true;
  return dayIn(new Date(last.createdAt)) !== dayIn(new Date(now));
}

/** The file name of the restore point taken at `now`. */
export const pointName = (now: number): string => `kasa-${stamp(now)}${POINT_EXT}`;

function pointChain(file: string): NonNullable<BackupInfo['chain']> {
  try {
    const h = readPointHeader(file);
    return { type: h.kind, parent: h.kind === 'incremental' ? h.parent : null };
  } catch {
    return { type: 'unreadable', parent: null };
  }
}

/**
 * Puts a restore point written by the worker (`tmp`) in place as `name`, then its manifest (`manifestTmp`:
 * the next increment is taken against it; replaced only once the point is complete), then prunes.
 */
export function finishBackup(
  tmp: string,
  manifestTmp: string,
  name: string,
  dataDir: string,
  options: { keep?: number | undefined; maxBytes?: number | undefined } = {},
): BackupInfo {
  fs.renameSync(tmp, path.join(backupDir(dataDir), name));
  syncDir(backupDir(dataDir)); // the point's name is on disk before the manifest that builds on it
  fs.renameSync(manifestTmp, path.join(backupDir(dataDir), MANIFEST_FILE));
  syncDir(backupDir(dataDir));
  pruneBackups(dataDir, options.keep ?? KEEP_BACKUPS, options.maxBytes);
  const info = listBackups(dataDir).find((b) => b.name === name);
  if (!info) throw new Error(`backup ${name} vanished`);
  return info;
}

/** A backup and every restore point it is rebuilt from (its parent, the parent's parent, ... the full point). */
function withAncestors(b: BackupInfo, byName: Map<string, BackupInfo>): BackupInfo[] {
  const out: BackupInfo[] = [];
  for (
    let p: BackupInfo | undefined = b;
    p && !out.includes(p);
    p = p.chain?.parent ? byName.get(p.chain.parent) : undefined
  )
    out.push(p);
  return out;
}

/**
 * Keeps the newest `keep` daily backups restorable, fewer while what they need exceeds `maxBytes`
 * (default `BACKUP_BUDGET_COPIES` times the biggest self-contained one: a full point or a `.sqlite`
 * copy); the newest is always kept. A restore point is deleted only when no kept one is rebuilt from it,
 * so an old chain goes once every point of it is out. Pre-restore copies are never deleted automatically.
 */
export function pruneBackups(dataDir: string, keep: number = KEEP_BACKUPS, maxBytes?: number): string[] {
  const daily = listBackups(dataDir).filter((b) => b.kind === 'daily');
  const byName = new Map(daily.map((b) => [b.name, b]));
  const standalone = daily.filter((b) => !b.chain || b.chain.type !== 'incremental').map((b) => b.bytes);
  const budget = maxBytes ?? Math.max(0, ...standalone) * BACKUP_BUDGET_COPIES;
  let needed = new Set<BackupInfo>();
  for (let k = Math.max(1, Math.min(keep, daily.length)); k >= 1; k--) {
    needed = new Set(daily.slice(0, k).flatMap((b) => withAncestors(b, byName)));
    if ([...needed].reduce((s, b) => s + b.bytes, 0) <= budget) break;
  }
  const removed: string[] = [];
  for (const b of daily) {
    if (needed.has(b)) continue;
    fs.rmSync(path.join(backupDir(dataDir), b.name), { force: true });
    removed.push(b.name);
  }
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
export function requestRestore(
  dataDir: string,
  name: string,
  options: { now?: number; logger?: LogLike } = {},
): { restartRequired: true; name: string } {
  const log = options.logger ?? silent;
  const backup = listBackups(dataDir).find((b) => b.name === name);
  if (!backup) throw new Error(`no backup named ${JSON.stringify(name)}`);
  const dir = path.join(dataDir, RESTORE_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const staged = path.join(dir, STAGED);
  removeDbFiles(staged);
  fs.rmSync(path.join(dir, PENDING), { force: true });
  try {
    if (name.endsWith(POINT_EXT)) {
      rebuildPoint(backupDir(dataDir), name, staged);
      foldWal(staged);
    } else {
      fs.copyFileSync(path.join(backupDir(dataDir), name), staged);
    }
  } catch (err) {
    removeDbFiles(staged);
    const why = err instanceof Error ? err.message : String(err);
    log.error(`restore of ${name} refused: ${why}`);
    throw new Error(`backup ${name} cannot be restored: ${why}`, { cause: err });
  }
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
  logger.warn(
    `database restored from backup ${pending.name}${previous ? `; the previous one is kept as ${path.basename(previous)}` : ''}`,
  );
  return { restored: pending.name, previous };
}

/** Makes renames in `dir` durable (POSIX; Windows cannot open a directory, and NTFS logs renames itself). */
function syncDir(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Opens a rebuilt restore point: SQLite recovers the WAL beside it, and `journal_mode = DELETE` folds it in. */
function foldWal(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
  } finally {
    db.close();
  }
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

/** Why `copyBackupTo` refused, as a message key (shared/messages.ts) and the file it names, if any. */
type CopyRefusal =
  | 'backup_folder_relative'
  | 'backup_folder_missing'
  | 'backup_folder_readonly'
  | 'backup_file_exists'
  | 'backup_copy_failed';

export class BackupCopyRefused extends Error {
  readonly key: CopyRefusal;
  readonly file: string;
  constructor(key: CopyRefusal, file = '', reason: string = key) {
    super(reason);
    this.name = 'BackupCopyRefused';
    this.key = key;
    this.file = file;
  }
}

/**
 * Copies backup `name` into `folder` (a USB drive, a share) as one database file that stands alone, so it
 * can be put back in `backups/` of any till and restored: a restore point is rebuilt (with its chain) and
 * checked first, a `.sqlite` copy is copied. The folder must be an absolute path that exists and can be
 * written to; a file of the same name there is never overwritten. Returns the file written.
 */
export function copyBackupTo(dataDir: string, name: string, folder: string): { file: string } {
  const backup = listBackups(dataDir).find((b) => b.name === name);
  if (!backup) throw new Error(`no backup named ${JSON.stringify(name)}`);
  if (!path.isAbsolute(folder)) throw new BackupCopyRefused('backup_folder_relative');
  let st: fs.Stats;
  try {
    st = fs.statSync(folder);
  } catch {
    throw new BackupCopyRefused('backup_folder_missing');
  }
  if (!st.isDirectory()) throw new BackupCopyRefused('backup_folder_missing');
  try {
    fs.accessSync(folder, fs.constants.W_OK);
  } catch {
    throw new BackupCopyRefused('backup_folder_readonly');
  }
  const base = name.endsWith(POINT_EXT) ? name.slice(0, -POINT_EXT.length) + '.sqlite' : name;
  const target = path.join(folder, base);
  if (fs.existsSync(target)) throw new BackupCopyRefused('backup_file_exists', base);
  let source = path.join(backupDir(dataDir), name);
  let rebuilt: string | null = null;
  let copying = false;
  try {
    if (name.endsWith(POINT_EXT)) {
      const dir = path.join(dataDir, RESTORE_DIR);
      fs.mkdirSync(dir, { recursive: true });
      rebuilt = path.join(dir, `copy-${process.pid}-${Date.now()}.sqlite`);
      rebuildPoint(backupDir(dataDir), name, rebuilt);
      foldWal(rebuilt);
      const check = checkDatabaseFile(rebuilt);
      if (!check.ok) throw new Error(`integrity_check failed: ${check.problems.slice(0, 3).join('; ')}`);
      source = rebuilt;
    }
    // COPYFILE_EXCL: a file that appeared there meanwhile is not overwritten either.
    copying = true;
    fs.copyFileSync(source, target, fs.constants.COPYFILE_EXCL);
  } catch (err) {
    if (err instanceof BackupCopyRefused) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new BackupCopyRefused('backup_file_exists', base);
    // A half-written copy (a full drive, a pulled USB stick) is not left behind as if it were a backup.
    if (copying && code !== 'EEXIST') fs.rmSync(target, { force: true });
    throw new BackupCopyRefused('backup_copy_failed', '', err instanceof Error ? err.message : String(err));
  } finally {
    if (rebuilt) removeDbFiles(rebuilt);
  }
  return { file: target };
}
