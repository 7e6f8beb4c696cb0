/**
 * `npm run serve`: runs the core in plain Node and serves the app on 127.0.0.1. Prints one JSON line
 * `{"url", "token", "sandboxUrl"}` to stdout; everything else goes to stderr.
 *
 * Environment: KASA_DATA_DIR, KASA_HOST_PORT (default: a free port), KASA_HOST_TOKEN (default: a new
 * random token per run), KASA_HOST_BIND (default 127.0.0.1), plus the core's variables (README).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAsScript, stopOnSignals } from '../../shared/node/cli.ts';
import { createCore } from '../core.ts';
import { defaultDataDir } from '../../shared/node/data-dir.ts';
import { startHost } from './server.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dataDir = defaultDataDir(env);
  const token = env.KASA_HOST_TOKEN?.trim() || crypto.randomBytes(24).toString('base64url');
  const core = await createCore({ dataDir, env, transport: 'host' });
  const bind = env.KASA_HOST_BIND ?? '127.0.0.1';
  if (bind !== '127.0.0.1' && bind !== 'localhost' && bind !== '::1') {
    core.logger.warn(`host bound to ${bind}: reachable from the network; keep the token secret`);
  }
  const host = await startHost({
    core,
    token,
    port: Number(env.KASA_HOST_PORT ?? 0) || 0,
    bind,
    staticDir: env.KASA_RENDERER_DIR ?? path.join(ROOT, 'out', 'renderer'),
    allowedHosts: env.KASA_HOST_ALLOWED?.split(',').filter(Boolean),
  });
  // Before the ready line: a SIGTERM sent as soon as it is read closes the till's database, not kills the process.
  stopOnSignals(() => host.close().then(() => core.close()));
  process.stdout.write(JSON.stringify({ url: host.url, token, sandboxUrl: core.sandboxUrl }) + '\n');
  process.stderr.write(`Kasa is ready: open ${host.url}#token=${token}\n`);
}

runAsScript(import.meta.url, 'kasa host', main);
