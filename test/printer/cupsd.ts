/**
 * A private CUPS scheduler for tests: Debian's cupsd in the foreground with its own config, state, spool
 * and log directories in a temp directory, listening only on its own Unix socket (never the system's
 * scheduler, never a TCP port). Clients reach it with `CUPS_SERVER=<socket>` (`env`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CUPSD = ['/usr/sbin/cupsd', '/usr/local/sbin/cupsd'].find((p) => fs.existsSync(p)) ?? null;
// lpadmin lives in sbin, which a non-login PATH may lack.
const LPADMIN = ['/usr/sbin/lpadmin', '/usr/local/sbin/lpadmin'].find((p) => fs.existsSync(p)) ?? null;
const LPSTAT = ['/usr/bin/lpstat', '/usr/local/bin/lpstat'].find((p) => fs.existsSync(p)) ?? null;
const isRoot = process.getuid?.() === 0;

/** Why a real cupsd cannot run here, or null when it can. */
export function cupsdSkipReason(): string | null {
  if (!CUPSD || !LPADMIN || !LPSTAT) return "cupsd is not installed (Debian's `cups` package; .ci/run installs it)";
  if (!isRoot) return 'cupsd needs root to start its backends as `lp` (CI runs as root)';
  return null;
}

export interface Cupsd {
  dir: string;
  socket: string;
  child: ChildProcess;
  env: NodeJS.ProcessEnv;
  log(): string;
}

/** Starts a private cupsd in the foreground; resolves once it answers on its socket. */
export async function startCupsd(at?: string): Promise<Cupsd> {
  // `at`: a directory chosen beforehand (its socket is then known before cupsd starts); made here.
  const dir = at ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-cups-'));
  if (at) fs.mkdirSync(at, { recursive: false });
  fs.chmodSync(dir, 0o755); // cupsd checks the directories it is given, and runs backends as `lp`
  for (const d of ['root', 'spool', 'cache', 'state', 'tmp', 'log']) fs.mkdirSync(path.join(dir, d));
  const socket = path.join(dir, 'cups.sock');
  fs.writeFileSync(
    path.join(dir, 'cups-files.conf'),
    [
      `ServerRoot ${dir}/root`,
      `RequestRoot ${dir}/spool`,
      `CacheDir ${dir}/cache`,
      `StateDir ${dir}/state`,
      `TempDir ${dir}/tmp`,
      `ErrorLog ${dir}/log/error_log`,
      `AccessLog ${dir}/log/access_log`,
      `PageLog ${dir}/log/page_log`,
      'ServerBin /usr/lib/cups',
      'DataDir /usr/share/cups',
      'User lp',
      'Group lp',
      'Sandboxing relaxed',
      'FatalErrors none',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'cupsd.conf'),
    [
      `Listen ${socket}`,
      'LogLevel info',
      'Browsing No',
      'WebInterface No',
      'DefaultAuthType None',
      '<Location />',
      '  Order allow,deny',
      '  Allow all',
      '</Location>',
      '',
    ].join('\n'),
  );
  const child = spawn(CUPSD!, ['-f', '-c', path.join(dir, 'cupsd.conf'), '-s', path.join(dir, 'cups-files.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const env = { ...process.env, CUPS_SERVER: socket, LC_ALL: 'C' };
  const log = () => {
    const f = path.join(dir, 'log', 'error_log');
    return stderr + (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '');
  };
  // Up to ~20 s for the scheduler to answer; an exit means it refused its configuration.
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`cupsd exited ${child.exitCode}: ${log()}`);
    if (fs.existsSync(socket) && spawnSync(LPSTAT!, ['-r'], { env, encoding: 'utf8' }).stdout.includes('is running')) {
      return { dir, socket, child, env, log };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`cupsd did not answer on ${socket}: ${log()}`);
}

/** `lpadmin` against the private cupsd; throws with its output on failure. */
export function lpadmin(c: Cupsd, args: string[]): void {
  const r = spawnSync(LPADMIN!, args, { env: c.env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`lpadmin ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
}

/** Stops the cupsd and removes its directories. */
export async function stopCupsd(c: Cupsd): Promise<void> {
  if (c.child.exitCode === null) {
    const exited = new Promise((r) => c.child.once('exit', r));
    c.child.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(c.dir, { recursive: true, force: true });
}
