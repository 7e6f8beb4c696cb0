/** Builds main, preload and renderer with electron-vite when out/ is missing or older than the sources. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(dir: string): number {
  let t = 0;
  if (!fs.existsSync(dir)) return t;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/** Returns true when a build ran. Build output goes to stderr so stdout stays machine-readable. */
export function buildIfStale(): boolean {
  const marker = path.join(ROOT, 'out', 'renderer', 'index.html');
  const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  const sources = Math.max(
    newest(path.join(ROOT, 'renderer')),
    newest(path.join(ROOT, 'shared')),
    newest(path.join(ROOT, 'electron')),
  );
  if (built > sources) return false;
  process.stderr.write('Building the app (electron-vite build)…\n');
  const bin = path.join(ROOT, 'node_modules', '.bin', 'electron-vite');
  const r = spawnSync(bin, ['build'], { cwd: ROOT, stdio: ['ignore', process.stderr, process.stderr] });
  if (r.status !== 0) throw new Error('electron-vite build failed');
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildIfStale();
