/** A fresh build of the app for tests that inspect or run the built files. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../../scripts/build-if-stale.ts';

/**
 * `electron-vite build` of the current sources into `outDir`: a private directory, since out/ is shared with
 * other runs and may be stale. Throws with the build's output when it fails.
 */
export function buildInto(outDir: string): void {
  const r = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'electron-vite'),
    ['build', '--outDir', outDir, '--logLevel', 'warn'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`electron-vite build failed:\n${r.stdout}\n${r.stderr}`);
}
