/**
 * Authorization and hardening on the BUILT main process: a fresh `electron-vite build` of the current sources, whose
 * out/main/main.js runs in plain Node with `electron` replaced by a recorder (fixtures/fake-electron.mjs;
 * no Electron binary here). A packaged build removes the application menu, creates its window with
 * `devTools: false` and closes DevTools if they open anyway, even with KASA_DEVTOOLS=1 in the
 * environment; only an unpackaged run with KASA_DEVTOOLS=1 keeps them. It also creates its data dir
 * private (0700, database 0600).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/build-if-stale.ts';
import { buildInto } from '../support/build.ts';

let work = '';
const HOOK = path.join(ROOT, 'test', 'electron', 'fixtures', 'electron-hook.mjs');

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-built-main-'));
  const outDir = path.join(work, 'out');
  buildInto(outDir);
  // The bundle imports its dependencies from node_modules and reads ../package.json (the version).
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(work, 'node_modules'));
  fs.writeFileSync(path.join(outDir, 'package.json'), '{"type":"module","version":"0.0.0-test"}\n');
}, 120_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

type Event = { event: string; menu?: unknown; webPreferences?: Record<string, unknown>; message?: string };

/** Starts the built main with the fake electron, returns what it recorded up to its window's DevTools test. */
async function runMain(env: Record<string, string>): Promise<{ events: Event[]; userData: string }> {
  const run = fs.mkdtempSync(path.join(work, 'run-'));
  const log = path.join(run, 'events.jsonl');
  const userData = path.join(run, 'user-data');
  fs.writeFileSync(log, '');
  const child = spawn(process.execPath, ['--import', HOOK, path.join(work, 'out', 'main', 'main.js')], {
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: run,
      FAKE_ELECTRON_LOG: log,
      FAKE_USER_DATA: userData,
      KASA_LANG: 'en',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const read = (): Event[] =>
      fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Event);
    // Waits for the window to be built (or the start to fail): events, not a timer, end the wait.
    for (;;) {
      const events = read();
      if (events.some((e) => e.event === 'devtools-opened-handled' || e.event === 'startError'))
        return { events, userData };
      const done = await Promise.race([
        exited.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 50)),
      ]);
      if (done) throw new Error(`main exited before its window: ${stderr.slice(-2000)}`);
    }
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  }
}

describe('the built main process', () => {
  it('packaged: no application menu, no DevTools (even with KASA_DEVTOOLS=1), and a private data dir', async () => {
    const { events, userData } = await runMain({ FAKE_PACKAGED: '1', KASA_DEVTOOLS: '1' });
    expect(events.find((e) => e.event === 'startError')).toBeUndefined();
    expect(events).toContainEqual({ event: 'setApplicationMenu', menu: null });
    const window = events.find((e) => e.event === 'window');
    expect(window?.webPreferences).toMatchObject({
      devTools: false,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    // DevTools opened anyway (a shortcut, a debugger) are closed at once.
    const opened = events.findIndex((e) => e.event === 'devtools-opened-handled');
    expect(events.slice(0, opened).some((e) => e.event === 'closeDevTools')).toBe(true);
    if (process.platform !== 'win32') {
      expect(fs.statSync(userData).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(userData, 'kasa.sqlite')).mode & 0o777).toBe(0o600);
    }
  }, 60_000);

  it('unpackaged with KASA_DEVTOOLS=1 (development): the menu and DevTools stay', async () => {
    const { events } = await runMain({ FAKE_PACKAGED: '0', KASA_DEVTOOLS: '1' });
    expect(events.some((e) => e.event === 'setApplicationMenu')).toBe(false);
    expect(events.find((e) => e.event === 'window')?.webPreferences).toMatchObject({ devTools: true });
    expect(events.some((e) => e.event === 'closeDevTools')).toBe(false);
  }, 60_000);

  it('unpackaged without the flag: no menu, no DevTools', async () => {
    const { events } = await runMain({ FAKE_PACKAGED: '0' });
    expect(events).toContainEqual({ event: 'setApplicationMenu', menu: null });
    expect(events.find((e) => e.event === 'window')?.webPreferences).toMatchObject({ devTools: false });
  }, 60_000);
});
