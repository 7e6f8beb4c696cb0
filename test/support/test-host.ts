/**
 * The browser host on a real core (demo mode: the embedded sandbox gateway) for the host tests: a temp data dir
 * holding a `secret.txt` the host must never serve, a temp static dir with an index.html, a quiet logger.
 * `close()` stops the host and the core and removes both dirs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createCore, type Core } from '../../electron/core.ts';
import { startHost, type Host } from '../../electron/host/server.ts';
import { createLogger } from '../../electron/log/logger.ts';
import { signIn } from './session.ts';
import { tempDirs } from './temp-dirs.ts';

export interface TestHost {
  core: Core;
  host: Host;
  dataDir: string;
  staticDir: string;
  close: () => Promise<void>;
}

export async function startTestHost(options: {
  token: string;
  /** Prefix of the temp dirs (the static dir's adds `static-`). */
  prefix: string;
  env: Record<string, string>;
  /** Change the first-run PIN and log the manager in before the host starts. */
  signedIn?: boolean;
  /** Runs once both dirs exist, before the core starts (extra files, links out of the static root). */
  prepare?: (dirs: { dataDir: string; staticDir: string }) => void;
}): Promise<TestHost> {
  const data = tempDirs(options.prefix);
  const statics = tempDirs(`${options.prefix}static-`);
  const dataDir = data.dir();
  const staticDir = statics.dir();
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Kasa</title>');
  fs.writeFileSync(path.join(dataDir, 'secret.txt'), 'do not serve');
  options.prepare?.({ dataDir, staticDir });
  const core = await createCore({
    dataDir,
    transport: 'host',
    env: options.env,
    logger: createLogger({ echo: false }),
  });
  if (options.signedIn) await signIn(core);
  const host = await startHost({ core, token: options.token, staticDir });
  return {
    core,
    host,
    dataDir,
    staticDir,
    close: async () => {
      await host.close();
      await core.close();
      data.cleanup();
      statics.cleanup();
    },
  };
}
