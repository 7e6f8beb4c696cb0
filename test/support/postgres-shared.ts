/**
 * One PostgreSQL 15 cluster for a whole vitest run, and a database of its own for each test that asks: a copy
 * of a migrated template database (`CREATE DATABASE … TEMPLATE`), dropped when the test is done. A cluster of
 * its own per test file took about 10 s to init, start and stop on a quiet 2-core machine, for 15 files.
 *
 * The cluster is started by the first test process that needs one (a lock dir decides which), recorded in the
 * run's state dir (`test/support/vitest-setup.ts` provides it and stops the cluster when the run ends). Outside
 * such a run (a benchmark, a script) each caller gets a cluster of its own, as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres } from '../../hub/db/db.ts';
import { startPostgres } from './postgres.ts';

export interface PgDatabase {
  url: string;
  /** Drops the database (or stops the private cluster). */
  dispose(): Promise<void>;
}

interface SharedCluster {
  /** The cluster's maintenance URL (database `postgres`). */
  url: string;
}

const TEMPLATE = 'kasa_hub_template';

function stateDir(): string | null {
  try {
    return inject('kasaPgState') || null;
  } catch {
    return null;
  }
}

/** Waits for the run's shared cluster, starting it (and its migrated template) if no other process did. */
async function sharedCluster(dir: string): Promise<SharedCluster> {
  const file = path.join(dir, 'cluster.json');
  let mine = false;
  try {
    fs.mkdirSync(path.join(dir, 'lock'));
    mine = true;
  } catch {
    // Another test process is starting it (or has).
  }
  if (mine) {
    const cluster = await startPostgres();
    const at = (db: string): string => cluster.url.replace(/\/postgres$/, `/${db}`);
    // Recorded before anything else can fail, so the run's teardown stops it in any case.
    fs.writeFileSync(path.join(dir, 'root'), cluster.root);
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
    await admin.end();
    const db = await openPostgres(at(TEMPLATE));
    await db.close();
    fs.writeFileSync(path.join(dir, 'cluster.tmp'), JSON.stringify({ url: cluster.url }));
    fs.renameSync(path.join(dir, 'cluster.tmp'), file);
  }
  const until = Date.now() + 120_000;
  while (!fs.existsSync(file)) {
    if (Date.now() > until) throw new Error('the shared PostgreSQL cluster did not start within 120 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as SharedCluster;
}

let counter = 0;

/** A fresh, migrated hub database: on the run's shared cluster, or on a cluster of its own outside a run. */
export async function postgresDatabase(): Promise<PgDatabase> {
  const dir = stateDir();
  if (!dir) {
    const cluster = await startPostgres();
    return {
      url: cluster.url,
      async dispose() {
        cluster.stop();
      },
    };
  }
  const shared = await sharedCluster(dir);
  const name = `kasa_${process.pid}_${++counter}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: shared.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  } finally {
    await admin.end();
  }
  return {
    url: shared.url.replace(/\/postgres$/, `/${name}`),
    async dispose() {
      const c = new pg.Client({ connectionString: shared.url });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
