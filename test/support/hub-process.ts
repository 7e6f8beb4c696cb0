/**
 * Starts the store hub (`node hub/cli.ts`) as a child process and reads its one JSON line. Used by the hub
 * chaos run, the hub process tests and the hub UI's e2e tests. The hub serves plain HTTP on loopback
 * (KASA_HUB_TLS=off, the documented mode for one machine) unless `env` says `KASA_HUB_TLS: 'on'`; then it
 * serves HTTPS with its own certificate, and `request` talks to it pinned to that certificate.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { killedIfThrows, readFirstLine, ROOT, thisRunsBuild } from './host-process.ts';
import { isEmptyDir, seedPgliteDir } from './pglite-template.ts';
import { pinnedFetch, type PinnedFetch } from '../../shared/node/pinned-fetch.ts';
import { fetchSend, hubClient } from '../../shared/hub/client.ts';

export interface HubProcess {
  url: string;
  /** A one-time code made for this start through the admin API ('' when asked not to). */
  enrolCode: string;
  adminToken: string;
  shopId: number;
  /** The SHA-256 of the hub's certificate as it printed it (groups of four), null for plain HTTP. */
  fingerprint: string | null;
  /** A fetch to this hub: pinned to its certificate over HTTPS, the global fetch over plain HTTP. */
  request: PinnedFetch;
  /** The hub's ready line as it printed it. */
  firstLine: string;
  child: ChildProcess;
  /** Stops the hub (SIGTERM, or SIGKILL with `hard`). */
  stop(hard?: boolean): Promise<void>;
}

/**
 * How a test starts the hub: `node` with V8's baseline WebAssembly compiler only. A hub in a test lives seconds, and
 * the optimizing compile of PGlite's WebAssembly at each start cost more CPU than it saved (a start on the migrated
 * template: about 3.3 CPU-seconds with it, 1.8 without). A shop's hub (`npm run hub`) keeps V8's defaults: it runs for
 * months, where the optimized code pays. It starts from the build (out/main/hub.js) when the run built it just now
 * (`KASA_TEST_HOST_BUILT`, as the host does): about 1.3 CPU-seconds a start against 1.75 from the sources, whose
 * types Node strips file by file at every start. Otherwise from the sources, so a test never runs an older build.
 */
export function hubCommand(): [string, string[]] {
  const entry = thisRunsBuild('main', 'hub.js') ?? path.join(ROOT, 'hub', 'cli.ts');
  return [process.execPath, ['--liftoff-only', entry]];
}

/** Runs a hub that must not start to its exit: its exit code and what it wrote. */
export function runHubToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const [command, args] = hubCommand();
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr, stdout })));
}

/**
 * Starts a hub process. It mints no enrolment code itself (issue 39): unless `options.enrolCode` is false, one is
 * made through the admin API for `enrolCode`, as a manager would.
 */
export async function startHubProcess(
  env: Record<string, string>,
  options: { enrolCode?: boolean } = {},
): Promise<HubProcess> {
  // A new embedded hub starts on a copy of the migrated template (test/support/pglite-template.ts), not PGlite's
  // own first start; `KASA_TEST_HUB_FIRST_START=1` keeps the real first start for a test that is about it.
  const data = env.KASA_HUB_DATA;
  if (data && !env.KASA_HUB_DATABASE_URL && env.KASA_TEST_HUB_FIRST_START !== '1' && isEmptyDir(data))
    await seedPgliteDir(data);
  const [command, args] = hubCommand();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, KASA_HUB_TLS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A start that fails once the hub runs (its admin API refused the enrolment code, a line that is not JSON) ends
  // the hub: the caller gets no handle to stop it with, and a hub left running took CPU from the rest of the run.
  return killedIfThrows(child, async () => {
    const firstLine = await readFirstLine(child, 'hub');
    const info = JSON.parse(firstLine) as {
      url: string;
      /** Printed only when the hub made the token (none was set in its environment). */
      adminToken?: string;
      shopId: number;
      fingerprint: string | null;
    };
    const adminToken = info.adminToken ?? env.KASA_HUB_ADMIN_TOKEN;
    if (!adminToken) throw new Error('the hub printed no admin token and none was given');
    const request: PinnedFetch = info.fingerprint ? pinnedFetch(info.fingerprint) : (url, init) => fetch(url, init);
    let enrolCode = '';
    if (options.enrolCode !== false) {
      const admin = hubClient(fetchSend({ baseUrl: info.url, token: adminToken, fetch: request }));
      enrolCode = (await admin.call('newEnrolCode', { shopId: info.shopId })).code;
    }
    return {
      ...info,
      enrolCode,
      adminToken,
      request,
      firstLine,
      child,
      async stop(hard = false) {
        if (child.exitCode === null && child.signalCode === null) child.kill(hard ? 'SIGKILL' : 'SIGTERM');
        await exited;
      },
    };
  });
}

/** A call to the hub's admin API with its admin token, `body` (if any) sent as JSON; the response as it came. */
export function adminRequest(hub: HubProcess, method: string, route: string, body?: unknown): Promise<Response> {
  return hub.request(`${hub.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${hub.adminToken}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
