import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './migrations/index.ts';
import { WAL_FALLBACK_PAGES, WAL_SIZE_LIMIT } from './checkpoint.ts';

export type Db = Database.Database;

export interface Migration {
  /** 1, 2, 3 … in order; the database's `user_version` is the last one applied. */
  version: number;
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
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  for (const m of sorted) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
    applied.push(m.version);
  }
  return applied;
}
