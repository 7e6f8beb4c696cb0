/**
 * What the specs of the real desktop app share (electron.spec.ts, electron-display.spec.ts): the Electron binary or
 * why it is absent (said on stdout under the spec's name, so a skipped spec is never silent), and the built app
 * started in demo mode on a fresh data dir, then closed with that dir removed.
 */
import { _electron as electron, type ElectronApplication } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { electronBinary } from '../../scripts/electron-binary.ts';
import { ROOT } from '../../scripts/build-if-stale.ts';

/** The Electron binary, or why it was never downloaded: the specs skip on this machine then, and say why. */
export const ELECTRON = electronBinary();

/** Why `spec` cannot run here ('' where it can), written once on stdout under the spec's name. */
export function electronSkipReason(spec: string): string {
  const reason = ELECTRON.path === null ? `Electron binary not available: ${ELECTRON.reason}` : '';
  if (reason) process.stdout.write(`[${spec}] SKIPPED: ${reason}\n`);
  return reason;
}

/** The running app and its data dir, for `closeDesktop`. */
export interface Desktop {
  app: ElectronApplication;
  dataDir: string;
}

/**
 * Starts the built app on a fresh data dir named by `prefix`, without an API key (the embedded sandbox gateway),
 * `env` added to the runner's environment. A launch that fails removes the dir it made.
 */
export async function launchDesktop(prefix: string, env: Record<string, string>): Promise<Desktop> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    const app = await electron.launch({
      executablePath: ELECTRON.path ?? undefined,
      args: [ROOT],
      cwd: ROOT,
      env: { ...process.env, KASA_DATA_DIR: dataDir, KASA_API_KEY: '', ...env },
    });
    return { app, dataDir };
  } catch (e) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw e;
  }
}

/** Closes the app `launchDesktop` started (none where it never started) and removes its data dir. */
export async function closeDesktop(desktop: Desktop | undefined): Promise<void> {
  if (!desktop) return;
  await desktop.app.close();
  fs.rmSync(desktop.dataDir, { recursive: true, force: true });
}
