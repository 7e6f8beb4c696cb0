/**
 * A throw-away PostgreSQL 15 cluster for tests: `initdb` in a temp dir owned by `postgres` (the server
 * refuses root), started with `pg_ctl` on a free port, trust auth on 127.0.0.1 only, stopped and removed
 * by `stop()`. Returns null when the binaries are absent (CI installs them, see .ci/run).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports.ts';

export const PG_BIN = process.env.KASA_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PgCluster {
  url: string;
  port: number;
  /** The temp dir holding the cluster's data dir (`<root>/data`): `stopPostgresAt(root)` stops it. */
  root: string;
  stop(): void;
}

export function postgresAvailable(): boolean {
  return fs.existsSync(path.join(PG_BIN, 'initdb'));
}

/** `durable` keeps fsync on (benchmarks); tests run without it for speed. */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PgCluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-pg-'));
  const data = path.join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    fs.chmodSync(root, 0o755);
    execFileSync('chown', ['postgres:postgres', root]);
  }
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  const opts = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=${options.durable ? 'on' : 'off'} -c max_connections=50`;
  run('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(root, 'log'), '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    root,
    stop: () => stopPostgresAt(root),
  };
}

/** Runs a PostgreSQL binary, as the `postgres` user when we are root (the server refuses root). */
function run(bin: string, args: string[]): void {
  const cmd = path.join(PG_BIN, bin);
  if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' });
  else execFileSync(cmd, args, { stdio: 'pipe' });
}

/** Stops the cluster made by `startPostgres` in `root` and removes its files. */
export function stopPostgresAt(root: string): void {
  try {
    run('pg_ctl', ['-D', path.join(root, 'data'), '-m', 'immediate', '-w', 'stop']);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
