import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations/index.ts';
import { WAL_FALLBACK_PAGES, WAL_SIZE_LIMIT } from './checkpoint.ts';

export type Db = Database.Database;

/**
 * One schema change. Its version is its position in the list `migrate` is given (1, 2, 3 …; the first is 1): the
 * database's `user_version` is the last one applied.
 */
export interface Migration {
  name: string;
  up(db: Db): void;
}

/**
 * Opens (creating if needed) the SQLite database: WAL, synchronous=FULL, foreign keys on, and every
 * pending migration applied, each in its own transaction that also bumps `user_version`.
 */
export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Checkpoints run on an idle timer (checkpoint.ts); SQLite's own only as the fallback bound on the WAL.
  db.pragma(`wal_autocheckpoint = ${WAL_FALLBACK_PAGES}`);
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  migrate(db, migrations);
  return db;
}

/** Applies migrations above the current `user_version`; returns the versions applied. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  const applied: number[] = [];
  migrations.forEach((m, i) => {
    const version = i + 1;
    if (version <= current) return;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${version}`);
    })();
    applied.push(version);
  });
  return applied;
}
