/**
 * The hub's test suites run on both databases: the embedded PGlite (one instance per test file, its first
 * open is slow) and a real PostgreSQL 15 cluster started for the file (test/support/postgres.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type HubDb } from '../../hub/db/db.ts';
import { startPostgres, postgresAvailable } from '../support/postgres.ts';

export interface Backend {
  name: 'pglite' | 'postgres';
  open(): Promise<{ db: HubDb; reopen(): Promise<HubDb>; dispose(): Promise<void> }>;
}

export const BACKENDS: Backend[] = [
  {
    name: 'pglite',
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-'));
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
      const cluster = await startPostgres();
      let db: HubDb;
      try {
        db = await openPostgres(cluster.url);
      } catch (err) {
        // A migration that fails must not leave its cluster running after the test file ends.
        cluster.stop();
        throw err;
      }
      return {
        db,
        async reopen() {
          await db.close();
          db = await openPostgres(cluster.url);
          return db;
        },
        async dispose() {
          await db.close();
          cluster.stop();
        },
      };
    },
  },
];
