/**
 * Vitest's global setup:
 * - a state dir for the run's shared PostgreSQL cluster (test/support/postgres-shared.ts), which the first test
 *   that needs PostgreSQL starts; when the run ends the cluster is stopped and its files removed, whatever the
 *   tests did;
 * - the app built when it is older than its sources (a few seconds), so the tests that start the host as a
 *   child process (chaos, power faults, the hub's tills) start its build, as the e2e run does
 *   (test/support/host-process.ts): the chaos files took 60 s from the sources and 45 s from the build here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildIfStale } from '../../scripts/build-if-stale.ts';
import { stopPostgresAt } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kasaPgState: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-pg-run-'));
  project.provide('kasaPgState', dir);
  buildIfStale();
  // Set before the workers start, so each inherits it.
  process.env.KASA_TEST_HOST_BUILT = '1';
  return () => {
    const rootFile = path.join(dir, 'root');
    try {
      if (fs.existsSync(rootFile)) stopPostgresAt(fs.readFileSync(rootFile, 'utf8'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
