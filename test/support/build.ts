/** A fresh build of the app for tests that inspect or run the built files. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scripts/build-if-stale.ts';
import { thisRunsBuild } from './host-process.ts';

/**
 * `electron-vite build` of the current sources into `outDir`: a private directory, since out/ is shared with
 * other runs and may be stale. Throws with the build's output when it fails. When this run built out/ just now
 * (`KASA_TEST_HOST_BUILT`, set by `npm test` after its build step), a copy of it is that build: the same sources,
 * without building them twice more (about 3.6 CPU-seconds each).
 */
export function buildInto(outDir: string): void {
  if (thisRunsBuild('main', 'main.js')) {
    fs.cpSync(path.join(ROOT, 'out'), outDir, { recursive: true });
    return;
  }
  const r = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'electron-vite'),
    ['build', '--outDir', outDir, '--logLevel', 'warn'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`electron-vite build failed:\n${r.stdout}\n${r.stderr}`);
}
