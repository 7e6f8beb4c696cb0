/**
 * The hub's one query interface over PostgreSQL: a real server through `pg` (KASA_HUB_DATABASE_URL) or
 * PGlite, in-process Postgres in a data directory (the embedded default). The same SQL runs on both;
 * int8 comes back as a JS number on both (sums of para stay far below 2^53).
 */
import fs from 'node:fs';
import pg from 'pg';
import { PGlite, messages } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { makeDataDirPrivate } from '../../shared/node/private-files.ts';
import { HUB_MIGRATIONS, type HubMigration } from './migrations/index.ts';

export interface Queryable {
  query<T extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface HubDb extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const INT8 = 20;
const TIMESTAMPTZ = 1184;

/**
 * A `timestamptz` as the hub's code and wire use times: ISO UTC text (`2026-11-26T08:05:00.000Z`), the same
 * whether the column was text before (migration 010) or the driver would make a Date of it.
 */
const isoOf = (v: string): string => {
  const d = pg.types.getTypeParser(TIMESTAMPTZ, 'text')(v) as Date;
  return d.toISOString();
};

/** The SQLSTATE and constraint of a database error (either driver), or null for any other error. */
export function dbError(err: unknown): { state: string; constraint: string | null } | null {
  if (err instanceof pg.DatabaseError || err instanceof messages.DatabaseError)
    return err.code ? { state: err.code, constraint: err.constraint ?? null } : null;
  return null;
}

/**
 * A value PostgreSQL refused as data (class 22: a NUL, a broken character, a number out of range): the
 * caller's input, so a 400, never the hub's failure.
 */
export const isDataException = (err: unknown): boolean => dbError(err)?.state.startsWith('22') ?? false;

/** Opens a real PostgreSQL through a `pg` pool and applies pending migrations. */
export async function openPostgres(url: string, migrations: readonly HubMigration[] = HUB_MIGRATIONS): Promise<HubDb> {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === INT8 ? Number : oid === TIMESTAMPTZ ? isoOf : pg.types.getTypeParser(oid, format),
  };
  // No JIT: the hub's queries are short, and the planner's cost of a report over a shop's month (its closed days'
  // rows, read in parallel) passed the JIT threshold, so every worker compiled it anew. With it a shop's 30 days
  // took 270 ms at 1,000,000 orders, without it 125 ms, and no report got slower (docs/hub.md).
  const pool = new pg.Pool({ connectionString: url, max: 8, types, options: '-c jit=off' });
  // A dropped connection must not crash the hub: the next query gets a new one.
  pool.on('error', () => undefined);
  const db: HubDb = {
    kind: 'postgres',
    async query<T extends object>(sql: string, params: readonly unknown[] = []) {
      return (await pool.query<T>(sql, params as unknown[])).rows;
    },
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const q: Queryable = {
          async query<R extends object>(sql: string, params: readonly unknown[] = []) {
            return (await client.query<R>(sql, params as unknown[])).rows;
          },
        };
        const out = await fn(q);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
  await migrate(db, migrations);
  return db;
}

/** How often the PGlite data dir is tightened again (PGlite creates its files 0666 whatever the umask). */
const TIGHTEN_MS = 60_000;

/**
 * Opens (creating) an embedded PGlite database in `dataDir` and applies pending migrations. Every order and
 * staff PIN hash is in there, so the folder is private like the till's (shared/node/private-files.ts):
 * directories 0700 and files 0600, at open, after the migrations, every minute while open and at close.
 */
export async function openPglite(
  dataDir: string,
  migrations: readonly HubMigration[] = HUB_MIGRATIONS,
): Promise<HubDb> {
  makeDataDirPrivate(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  // pg_trgm: the catalog search's trigram index (hub migration 15).
  const lite = await PGlite.create(dataDir, { parsers: { [TIMESTAMPTZ]: isoOf }, extensions: { pg_trgm } });
  makeDataDirPrivate(dataDir);
  const tighten = setInterval(() => {
    try {
      makeDataDirPrivate(dataDir);
    } catch {
      // A file PGlite removed between the listing and its chmod: the next round catches up.
    }
  }, TIGHTEN_MS);
  tighten.unref();
  // PGlite is one connection: transactions are serialised here so a query of another request never
  // lands inside someone else's transaction.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => undefined);
    return run;
  };
  const db: HubDb = {
    kind: 'pglite',
    query<T extends object>(sql: string, params: readonly unknown[] = []) {
      return serial(async () => (await lite.query<T>(sql, params as unknown[])).rows);
    },
    tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      return serial(() =>
        lite.transaction(async (t) =>
          fn({
            async query<R extends object>(sql: string, params: readonly unknown[] = []) {
              return (await t.query<R>(sql, params as unknown[])).rows;
            },
          }),
        ),
      );
    },
    async close() {
      clearInterval(tighten);
      await serial(() => lite.close());
      makeDataDirPrivate(dataDir);
    },
  };
  await migrate(db, migrations);
  makeDataDirPrivate(dataDir);
  return db;
}

/** Applies migrations above the recorded version, each in its own transaction with its version row. */
export async function migrate(db: HubDb, migrations: readonly HubMigration[] = HUB_MIGRATIONS): Promise<number[]> {
  await db.query(
    'CREATE TABLE IF NOT EXISTS hub_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)',
  );
  const applied: number[] = [];
  for (const [i, m] of migrations.entries()) {
    const version = i + 1;
    const done = await db.tx(async (q) => {
      // Two hubs starting on one database: the second waits here, then sees the version and skips.
      await q.query('SELECT pg_advisory_xact_lock(715001)');
      const have = await q.query<{ version: number }>('SELECT version FROM hub_schema WHERE version = $1', [version]);
      if (have.length) return false;
      for (const stmt of [...m.statements, ...(m.only?.[db.kind] ?? [])]) await q.query(stmt);
      await q.query('INSERT INTO hub_schema (version, name, applied_at) VALUES ($1, $2, $3)', [
        version,
        m.name,
        new Date().toISOString(),
      ]);
      return true;
    });
    if (done) applied.push(version);
  }
  return applied;
}
