/**
 * Vitest's global setup: a state dir for the run's shared PostgreSQL cluster (test/support/postgres-shared.ts),
 * which the first test that needs PostgreSQL starts; when the run ends the cluster is stopped and its files
 * removed, whatever the tests did.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopPostgresAt } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kasaPgState: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-pg-run-'));
  project.provide('kasaPgState', dir);
  return () => {
    const rootFile = path.join(dir, 'root');
    try {
      if (fs.existsSync(rootFile)) stopPostgresAt(fs.readFileSync(rootFile, 'utf8'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
