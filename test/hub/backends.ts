/**
 * The hub's test suites run on both databases: the embedded PGlite (one instance per test file, a copy of a
 * migrated template: test/support/pglite-template.ts) and a database of its own on the run's real PostgreSQL 15
 * cluster (test/support/postgres-shared.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type HubDb } from '../../hub/db/db.ts';
import { postgresAvailable } from '../support/postgres.ts';
import { postgresDatabase } from '../support/postgres-shared.ts';
import { seedPgliteDir } from '../support/pglite-template.ts';

export interface Backend {
  name: 'pglite' | 'postgres';
  open(): Promise<{ db: HubDb; reopen(): Promise<HubDb>; dispose(): Promise<void> }>;
}

export const BACKENDS: Backend[] = [
  {
    name: 'pglite',
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-'));
      await seedPgliteDir(dir);
      let db = await openPglite(dir);
      return {
        db,
        async reopen() {
          await db.close();
          db = await openPglite(dir);
          return db;
        },
        async dispose() {
          await db.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      if (!postgresAvailable())
        throw new Error('PostgreSQL 15 is not installed (apt-get install -y postgresql); the hub suite needs it');
      // A database of its own on the run's one cluster (test/support/postgres-shared.ts).
      const database = await postgresDatabase();
      let db: HubDb;
      try {
        db = await openPostgres(database.url);
      } catch (err) {
        // A migration that fails must not leave its database (or its own cluster) behind.
        await database.dispose();
        throw err;
      }
      return {
        db,
        async reopen() {
          await db.close();
          db = await openPostgres(database.url);
          return db;
        },
        async dispose() {
          await db.close();
          await database.dispose();
        },
      };
    },
  },
];

/**
 * The same two databases for a hub run as a process (test/support/hub-process.ts): the environment that points it
 * at a PGlite data dir of its own or at a database of its own on the run's PostgreSQL cluster (with a data dir too:
 * the hub keeps its TLS material there). What `env` makes is removed by `cleanup` (call it in `afterAll`).
 */
export interface ProcessBackend {
  name: Backend['name'];
  env(): Promise<Record<string, string>>;
}

export function processBackends(prefix: string): {
  backends: ProcessBackend[];
  onCleanup(c: () => unknown): void;
  cleanup(): Promise<void>;
} {
  const cleanups: (() => unknown)[] = [];
  const dataDir = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    return path.join(dir, 'hub');
  };
  return {
    backends: [
      { name: 'pglite', env: async () => ({ KASA_HUB_DATA: dataDir() }) },
      {
        name: 'postgres',
        env: async () => {
          if (!postgresAvailable()) throw new Error('PostgreSQL 15 is not installed (apt-get install -y postgresql)');
          const database = await postgresDatabase();
          cleanups.push(() => database.dispose());
          return { KASA_HUB_DATABASE_URL: database.url, KASA_HUB_DATA: dataDir() };
        },
      },
    ],
    onCleanup: (c) => cleanups.push(c),
    /** Undoes what `env` made and what the suite registered with `onCleanup`, newest first. */
    async cleanup() {
      for (const c of cleanups.splice(0).reverse()) await c();
    },
  };
}
