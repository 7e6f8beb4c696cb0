/**
 * Finds the Electron binary without `require('electron')` (which, in Electron 45, tries to download it):
 * node_modules/electron/path.txt names the executable inside node_modules/electron/dist/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './build-if-stale.ts';

export function electronBinary(): { path: string } | { path: null; reason: string } {
  const pkg = path.join(ROOT, 'node_modules', 'electron');
  const pathTxt = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathTxt))
    return {
      path: null,
      reason: 'node_modules/electron/path.txt is missing: the Electron binary was never downloaded',
    };
  const exe = path.join(pkg, 'dist', fs.readFileSync(pathTxt, 'utf8').trim());
  if (!fs.existsSync(exe))
    return { path: null, reason: `${exe} does not exist: the Electron binary was not downloaded` };
  return { path: exe };
}
