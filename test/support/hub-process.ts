/**
 * Starts the store hub (`node hub/cli.ts`) as a child process and reads its one JSON line. Used by the hub
 * chaos run and the hub UI's e2e test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { readFirstLine, ROOT } from './host-process.ts';

export interface HubProcess {
  url: string;
  enrolCode: string;
  adminToken: string;
  shopId: number;
  /** The hub's ready line as it printed it. */
  firstLine: string;
  child: ChildProcess;
  /** Stops the hub (SIGTERM, or SIGKILL with `hard`). */
  stop(hard?: boolean): Promise<void>;
}

/** A port free right now (the hub keeps its URL across restarts, so it cannot simply listen on 0). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

export async function startHubProcess(env: Record<string, string>): Promise<HubProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'hub', 'cli.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const firstLine = await readFirstLine(child, 'hub');
  const info = JSON.parse(firstLine) as {
    url: string;
    enrolCode: string;
    /** Printed only when the hub made the token (none was set in its environment). */
    adminToken?: string;
    shopId: number;
  };
  const adminToken = info.adminToken ?? env.KASA_HUB_ADMIN_TOKEN;
  if (!adminToken) throw new Error('the hub printed no admin token and none was given');
  return {
    ...info,
    adminToken,
    firstLine,
    child,
    async stop(hard = false) {
      if (child.exitCode === null && child.signalCode === null) child.kill(hard ? 'SIGKILL' : 'SIGTERM');
      await exited;
    },
  };
}
