/**
 * The shop's SEF link at the hub (docs/sef.md, "Sending from the hub"), from the hub's environment as the admin or
 * owner sets it (the till's key is set the same way: KASA_SEF_API_KEY or a file):
 *
 * - `KASA_HUB_SEF_API_KEY`, or `KASA_HUB_SEF_API_KEY_FILE` (a file only its owner may read: mode 0600, else the hub
 *   does not start): the shop's SEF API key. Without one the hub sends nothing and the tills send their own.
 * - `KASA_HUB_SEF_SELLER`: the seller's data as JSON (`pib`, `registrationNumber`, `name`, `street`, `city`,
 *   `postalZone`, `bankAccount`), checked as the till's SEF settings are.
 * - `KASA_HUB_SEF_ENVIRONMENT` (`demo`, the default, or `prod`), or `KASA_HUB_SEF_URL` (another SEF: tests);
 *   `KASA_HUB_SEF_SEND_TO_CIR` (`yes`/`no`, default no); `KASA_HUB_SEF_SHOP` (the shop, default the hub's first).
 *
 * The key goes into the client's `ApiKey` header and nowhere else: never a response, a log line (the client's log
 * names method, path, status and time) or the database.
 */
import fs from 'node:fs';
import { SefSettingsInput } from '../shared/contract/sef.ts';
import { SefClient } from '../shared/node/sef-client.ts';
import { SEF_URLS } from '../shared/sef/api.ts';
import type { HubSefLink } from './services/sef.ts';

/** The key from the environment or its file, or null; a file others may read stops the hub. */
function keyOf(env: NodeJS.ProcessEnv): string | null {
  const given = env.KASA_HUB_SEF_API_KEY?.trim();
  if (given) return given;
  const file = env.KASA_HUB_SEF_API_KEY_FILE?.trim();
  if (!file) return null;
  const st = fs.statSync(file);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0)
    throw new Error(`KASA_HUB_SEF_API_KEY_FILE ${file} is readable by other users: run chmod 600 on it`);
  return fs.readFileSync(file, 'utf8').trim() || null;
}

/** The hub's SEF link for `defaultShop` (or KASA_HUB_SEF_SHOP), or null when no key is set. */
export function hubSefLinkOf(
  env: NodeJS.ProcessEnv,
  defaultShop: number,
  log: (line: string) => void,
): HubSefLink | null {
  const apiKey = keyOf(env);
  if (!apiKey) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(env.KASA_HUB_SEF_SELLER ?? '');
  } catch {
    throw new Error('KASA_HUB_SEF_SELLER must be the seller as JSON: {"pib", "registrationNumber", "name", …}');
  }
  const parsed = SefSettingsInput.shape.seller.safeParse(raw);
  if (!parsed.success || !parsed.data.pib || !parsed.data.name) {
    const issue = parsed.success ? { path: ['pib'], message: 'required' } : parsed.error.issues[0];
    throw new Error(`KASA_HUB_SEF_SELLER: ${issue?.path.join('.') ?? 'seller'} is ${issue?.message ?? 'invalid'}`);
  }
  const environment = env.KASA_HUB_SEF_ENVIRONMENT?.trim() || 'demo';
  if (environment !== 'demo' && environment !== 'prod')
    throw new Error(`KASA_HUB_SEF_ENVIRONMENT must be demo or prod, not "${environment}"`);
  const shop = env.KASA_HUB_SEF_SHOP?.trim();
  if (shop && !/^[1-9]\d{0,8}$/.test(shop)) throw new Error(`KASA_HUB_SEF_SHOP must be a shop id, not "${shop}"`);
  const client = new SefClient({
    baseUrl: env.KASA_HUB_SEF_URL?.trim() || SEF_URLS[environment],
    apiKey,
    onRequest: (i) => log(`sef ${i.method} ${i.path} -> ${i.status ?? 'no reply'} ${i.ms}ms`),
  });
  return {
    shopId: shop ? Number(shop) : defaultShop,
    client,
    seller: parsed.data,
    sendToCir: env.KASA_HUB_SEF_SEND_TO_CIR?.trim().toLowerCase() === 'yes',
    labelCategories: {},
  };
}
