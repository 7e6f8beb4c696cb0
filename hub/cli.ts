/**
 * `npm run hub`: the store hub. Prints one JSON line `{"url", "fingerprint", "shopId"}` to stdout (the SHA-256 of
 * the hub's certificate that tills pin, in groups of four), with `"adminToken"` only when the hub made the token
 * itself (one set in the environment is never printed); everything else goes to stderr. It mints no enrolment
 * code (issue 39): `npm run hub -- enrol-code [--shop N]` prints one (`{"code", "shopId", "expiresAt",
 * "fingerprint"}`), asking the running hub through its control socket (hub/control.ts), or opening the hub's
 * database itself when no hub runs; the hub UI's manager makes one too.
 *
 * Environment: KASA_HUB_DATABASE_URL (a PostgreSQL URL; without it the embedded PGlite in KASA_HUB_DATA,
 * default `<KASA data dir>/hub`, kept 0700/0600), KASA_HUB_PORT (default: a free port), KASA_HUB_BIND
 * (default 127.0.0.1; 0.0.0.0 for the shop's LAN), KASA_HUB_ADMIN_TOKEN (at least 32 characters, else the
 * hub does not start; default: a new random token per run), KASA_HUB_ENROL_CODE_HOURS (how long an enrolment
 * code may be spent, default 24). TLS (docs/hub.md "TLS on the LAN"): HTTPS with the hub's own certificate, made
 * at first start in `<hub data>/tls/`, or KASA_HUB_TLS_CERT + KASA_HUB_TLS_KEY (a shop's own); KASA_HUB_TLS=off
 * serves plain HTTP, on loopback only. KASA_HUB_HOSTS: more host names the hub answers to (comma-separated).
 * KASA_HUB_SEF_*: the shop's SEF key and seller data, when the hub sends the shop's e-invoices (hub/sef-link.ts).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { runAsScript, stopOnSignals } from '../shared/node/cli.ts';
import { defaultDataDir } from '../shared/node/data-dir.ts';
import { formatFingerprint } from '../shared/hub/fingerprint.ts';
import { openPglite, openPostgres, type HubDb } from './db/db.ts';
import { allowedHosts, certificateHosts, hostsOf, isLoopback } from './lan.ts';
import { checkAdminToken, startHubServer } from './server.ts';
import { hubTlsOf } from './tls.ts';
import { certificateFingerprint } from '../shared/node/tls-cert.ts';
import { createHubService, DEFAULT_ENROL_CODE_TTL_MS, type HubService } from './service.ts';
import { askControl, startControl, type MintedCode } from './control.ts';
import { recordAudit } from './audit.ts';
import { DEFAULT_HUB_TIME_ZONE, startDayCloser } from './report-days.ts';
import { DEFAULT_EVENTS_KEEP_DAYS } from './events.ts';
import { hubSefLinkOf } from './sef-link.ts';
import { startSefWorker, type SefWorker } from './sef-worker.ts';
import type { HubSefLink } from './services/sef.ts';

/** Opens the hub's database as the environment says. */
export async function openHubDb(env: NodeJS.ProcessEnv): Promise<HubDb> {
  const url = env.KASA_HUB_DATABASE_URL?.trim();
  if (url) return openPostgres(url);
  return openPglite(hubDataDirOf(env));
}

/** The hub's data dir: PGlite's files and the hub's own TLS key and certificate. */
export function hubDataDirOf(env: NodeJS.ProcessEnv): string {
  return env.KASA_HUB_DATA ? path.resolve(env.KASA_HUB_DATA) : path.join(defaultDataDir(env), 'hub');
}

/** The admin token: the environment's (checked, never printed) or a new one the hub prints once. */
export function adminTokenOf(env: NodeJS.ProcessEnv): { token: string; made: boolean } {
  const given = env.KASA_HUB_ADMIN_TOKEN?.trim();
  if (given) {
    checkAdminToken(given);
    return { token: given, made: false };
  }
  return { token: crypto.randomBytes(32).toString('base64url'), made: true };
}

/** How long an enrolment code may be spent: `KASA_HUB_ENROL_CODE_HOURS` (default 24), refused when not > 0. */
export function enrolCodeTtlOf(env: NodeJS.ProcessEnv): number {
  const raw = env.KASA_HUB_ENROL_CODE_HOURS?.trim();
  if (!raw) return DEFAULT_ENROL_CODE_TTL_MS;
  const hours = Number(raw);
  if (!Number.isFinite(hours) || hours <= 0)
    throw new Error(`KASA_HUB_ENROL_CODE_HOURS must be a positive number of hours, not "${raw}"`);
  return hours * 3600_000;
}

/** How long acknowledged till events are kept before pruning (hub/events.ts), from `KASA_HUB_EVENTS_KEEP_DAYS`. */
function eventsKeepOf(env: NodeJS.ProcessEnv): number {
  const raw = env.KASA_HUB_EVENTS_KEEP_DAYS;
  if (!raw) return DEFAULT_EVENTS_KEEP_DAYS * DAY_MS;
  const days = Number(raw);
  if (!Number.isFinite(days) || days < 1)
    throw new Error(`KASA_HUB_EVENTS_KEEP_DAYS must be a number of days, at least 1, not "${raw}"`);
  return days * DAY_MS;
}
const DAY_MS = 86_400_000;

/** How often the SEF worker looks at its outbox when nothing is due sooner: `KASA_HUB_SEF_EVERY_MS` (default 15 s). */
function sefEveryOf(env: NodeJS.ProcessEnv): number {
  const raw = env.KASA_HUB_SEF_EVERY_MS?.trim();
  const ms = raw ? Number(raw) : 15_000;
  if (!Number.isInteger(ms) || ms < 10) throw new Error(`KASA_HUB_SEF_EVERY_MS must be a number of ms, not "${raw}"`);
  return ms;
}

/** The shops' calendar day for the hub's stored day totals: an IANA zone name (default Europe/Belgrade). */
function timeZoneOf(env: NodeJS.ProcessEnv): string {
  const zone = env.KASA_HUB_TIME_ZONE ?? DEFAULT_HUB_TIME_ZONE;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
  } catch {
    throw new Error(`KASA_HUB_TIME_ZONE must be a time zone name such as Europe/Belgrade, not "${zone}"`);
  }
  return zone;
}

/** A new enrolment code for the shop (the hub's only shop when none is named), audited as the admin's. */
async function mintCode(
  service: HubService,
  shopId: number | undefined,
  fingerprint: string | null,
): Promise<MintedCode> {
  const shop = await service.loginShop(shopId);
  const code = await service.newEnrolCode(shop);
  await recordAudit(service.db, { shopId: shop, actor: 'admin', action: 'enrol_code', detail: {} });
  const [made] = await service.enrolCodes(shop);
  return { code, shopId: shop, expiresAt: made?.expiresAt ?? '', fingerprint };
}

/** `npm run hub -- enrol-code [--shop N]`: prints one new enrolment code as a JSON line. */
export async function enrolCodeCommand(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<void> {
  let shopId: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    const value = a === '--shop' ? args[++i] : a.startsWith('--shop=') ? a.slice('--shop='.length) : null;
    if (value === null || value === undefined || !/^[1-9]\d{0,8}$/.test(value))
      throw new Error(`usage: npm run hub -- enrol-code [--shop <shop id>] (not "${a}")`);
    shopId = Number(value);
  }
  const dir = hubDataDirOf(env);
  const asked = await askControl(dir, shopId);
  const minted =
    asked ??
    (await (async () => {
      // No hub runs on this data dir: the command opens the database itself (as the hub would, with its migrations).
      const bind = env.KASA_HUB_BIND ?? '127.0.0.1';
      const tls = hubTlsOf(env, dir, certificateHosts(allowedHosts(bind, hostsOf(env.KASA_HUB_HOSTS))));
      const db = await openHubDb(env);
      try {
        const service = createHubService(db, { enrolCodeTtlMs: enrolCodeTtlOf(env) });
        return await mintCode(
          service,
          shopId ?? undefined,
          tls ? formatFingerprint(certificateFingerprint(tls.cert)) : null,
        );
      } finally {
        await db.close();
      }
    })());
  process.stdout.write(JSON.stringify(minted) + '\n');
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (process.argv[2] === 'enrol-code') return enrolCodeCommand(env, process.argv.slice(3));
  if (process.argv[2] !== undefined)
    throw new Error(`unknown command "${process.argv[2]}": the only one is enrol-code`);
  // A bad token stops the hub before it opens anything.
  const { token: adminToken, made } = adminTokenOf(env);
  const enrolCodeTtlMs = enrolCodeTtlOf(env);
  const bind = env.KASA_HUB_BIND ?? '127.0.0.1';
  const hosts = hostsOf(env.KASA_HUB_HOSTS);
  if (env.KASA_HUB_TLS?.trim().toLowerCase() === 'off' && !isLoopback(bind))
    throw new Error(`KASA_HUB_TLS=off serves plain HTTP, on loopback only, not on ${bind}`);
  const timeZone = timeZoneOf(env);
  const db = await openHubDb(env);
  const tls = hubTlsOf(env, hubDataDirOf(env), certificateHosts(allowedHosts(bind, hosts)));
  const log = (line: string): void => void process.stderr.write(line + '\n');
  let sefLink: HubSefLink | null = null;
  let sefWorker: SefWorker | null = null;
  const service = createHubService(db, {
    enrolCodeTtlMs,
    timeZone,
    sef: () => sefLink,
    onSefQueued: () => sefWorker?.kick(),
    log,
  });
  // Closed days are summed in the background (hub/report-days.ts): at start, then every 5 minutes.
  const closer = startDayCloser(db, timeZone, eventsKeepOf(env));
  const shopId = await service.ensureDefaultShop();
  // The shop's e-invoices from the hub when its SEF key is here (docs/sef.md "Sending from the hub"): the tills
  // learn it with the shop's settings and make none of their own.
  sefLink = hubSefLinkOf(env, shopId, log);
  await service.publishSefFromHub(sefLink?.shopId ?? null);
  if (sefLink) sefWorker = startSefWorker(() => service.sefPass(), sefEveryOf(env), log);
  const server = await startHubServer({
    service,
    adminToken,
    port: Number(env.KASA_HUB_PORT ?? 0) || 0,
    bind,
    hosts,
    ...(tls ? { tls } : {}),
    log,
  });
  const fingerprint = server.fingerprint ? formatFingerprint(server.fingerprint) : null;
  // Codes are minted on request only (issue 39): `npm run hub -- enrol-code` asks here, or the hub UI's manager.
  const control = await startControl(hubDataDirOf(env), (asked) => mintCode(service, asked, fingerprint), log);
  // Before the ready line: a SIGTERM sent as soon as it is read closes the database, not kills the process (the
  // default action, which a test's stop right after the start met every time).
  stopOnSignals(() =>
    server
      .close()
      .then(() => sefWorker?.stop())
      .then(() => control.close())
      .then(() => closer.stop())
      .then(() => db.close()),
  );
  process.stdout.write(
    JSON.stringify({ url: server.url, fingerprint, ...(made ? { adminToken } : {}), shopId }) + '\n',
  );
  log(
    `Kasa hub is ready on ${server.url} (${db.kind})` +
      (fingerprint ? `; certificate SHA-256 ${fingerprint}` : '; plain HTTP on loopback (KASA_HUB_TLS=off)'),
  );
}

runAsScript(import.meta.url, 'kasa hub', main);
