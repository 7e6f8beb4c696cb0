/**
 * `npm run hub`: the store hub. Prints one JSON line `{"url", "enrolCode", "adminToken", "shopId"}` to
 * stdout (a fresh one-time code for the first shop); everything else goes to stderr.
 *
 * Environment: KASA_HUB_DATABASE_URL (a PostgreSQL URL; without it the embedded PGlite in KASA_HUB_DATA,
 * default `<KASA data dir>/hub`), KASA_HUB_PORT (default: a free port), KASA_HUB_BIND (default 127.0.0.1;
 * 0.0.0.0 for the shop's LAN), KASA_HUB_ADMIN_TOKEN (default: a new random token per run).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { runAsScript, stopOnSignals } from '../shared/node/cli.ts';
import { defaultDataDir } from '../electron/db/open.ts';
import { openPglite, openPostgres, type HubDb } from './db/db.ts';
import { startHubServer } from './server.ts';
import { createHubService } from './service.ts';

/** Opens the hub's database as the environment says. */
export async function openHubDb(env: NodeJS.ProcessEnv): Promise<HubDb> {
  const url = env.KASA_HUB_DATABASE_URL?.trim();
  if (url) return openPostgres(url);
  return openPglite(env.KASA_HUB_DATA ? path.resolve(env.KASA_HUB_DATA) : path.join(defaultDataDir(env), 'hub'));
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const db = await openHubDb(env);
  const service = createHubService(db);
  const shopId = await service.ensureDefaultShop();
  const adminToken = env.KASA_HUB_ADMIN_TOKEN?.trim() || crypto.randomBytes(24).toString('base64url');
  const log = (line: string): void => void process.stderr.write(line + '\n');
  const server = await startHubServer({
    service,
    adminToken,
    port: Number(env.KASA_HUB_PORT ?? 0) || 0,
    bind: env.KASA_HUB_BIND ?? '127.0.0.1',
    log,
  });
  const enrolCode = await service.newEnrolCode(shopId);
  process.stdout.write(JSON.stringify({ url: server.url, enrolCode, adminToken, shopId }) + '\n');
  log(`Kasa hub is ready on ${server.url} (${db.kind})`);
  stopOnSignals(() => server.close().then(() => db.close()));
}

runAsScript(import.meta.url, 'kasa hub', main);
