/** Steps at the hub's web UI shared by the hub's e2e specs. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { hashPin } from '../../shared/node/pin.ts';
import { signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';
import { adminRequest, startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { fieldDay } from './days.ts';

/**
 * Logs in at the hub's open page as the till's manager, who reaches the hub through the till's outbox: the PIN is
 * tried again until it works (a login slower than one try's wait is not sent twice: the PIN field is gone once it
 * went through). `words`: the login screen's names in the page's language (Serbian Cyrillic by default).
 */
export async function loginAtHub(
  page: Page,
  words: { pin: string; login: string; logout: string } = { pin: 'PIN менаџера', login: 'Пријава', logout: 'Одјава' },
  pin = MANAGER_PIN,
): Promise<void> {
  const logout = page.getByRole('button', { name: words.logout });
  await expect(async () => {
    if (!(await logout.isVisible())) {
      await page.getByLabel(words.pin).fill(pin);
      await page.getByRole('button', { name: words.login }).click();
    }
    await expect(logout).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * The hub's page opened and logged in as the till's manager (`pin`: the manager's PIN), its tab `tab` open when
 * one is named.
 */
export async function openHubTab(page: Page, hub: HubProcess, tab?: string, pin = MANAGER_PIN): Promise<void> {
  await page.goto(hub.url);
  await loginAtHub(page, undefined, pin);
  if (tab !== undefined) await page.getByRole('tab', { name: tab }).click();
}

/**
 * The hub's report (its tab open) for the shop's day `day`: the day of the sale the test made, never "today", so a
 * run across the shop's midnight still finds it. Shown again until `shown` passes: a sale reaches the hub through
 * the till's outbox, in the background (`shown` asserts with a short timeout of its own, as one try).
 */
export async function showHubReport(page: Page, day: string, shown: () => Promise<void>): Promise<void> {
  for (const field of ['Од (дд.мм.гггг.)', 'До (дд.мм.гггг.)']) await page.getByLabel(field).fill(fieldDay(day));
  await expect(async () => {
    await page.getByRole('button', { name: 'Прикажи' }).click();
    await shown();
  }).toPass({ timeout: 30_000 });
}

/**
 * The hub of a spec file: a hub process on PGlite in a temp dir of its own (`prefix`) with the admin token
 * `adminToken`, the shop's one manager `manager` put through its admin API; started before the file's tests,
 * stopped and removed after them. `admin` calls the admin API and gives the HTTP status; `openAsManager` logs in.
 */
export function managedHub(
  prefix: string,
  adminToken: string,
  manager: { name: string; pin: string },
  /** More of the hub's environment, read when it starts (after the spec's own earlier `beforeAll`s). */
  env: () => Record<string, string> = () => ({}),
): {
  readonly hub: HubProcess;
  admin(method: string, route: string, body?: unknown): Promise<number>;
  /** A call to the admin API, its answer as it came. */
  request(method: string, route: string, body?: unknown): Promise<Response>;
  /** The hub's page at 1366×768, logged in as the shop's manager, its tab `tab` open when one is named. */
  openAsManager(page: Page, tab?: string): Promise<void>;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let started: HubProcess | undefined;
  const rig = {
    get hub(): HubProcess {
      if (!started) throw new Error('managedHub: the hub starts before the tests');
      return started;
    },
    admin: async (method: string, route: string, body?: unknown) =>
      (await adminRequest(rig.hub, method, route, body)).status,
    request: (method: string, route: string, body?: unknown) => adminRequest(rig.hub, method, route, body),
    async openAsManager(page: Page, tab?: string) {
      await page.setViewportSize({ width: 1366, height: 768 });
      await openHubTab(page, rig.hub, tab, manager.pin);
    },
  };
  test.beforeAll(async () => {
    started = await startHubProcess({
      KASA_HUB_DATA: path.join(dir, 'hub'),
      KASA_HUB_ADMIN_TOKEN: adminToken,
      ...env(),
    });
    const staff = [{ name: manager.name, role: 'manager', pinHash: await hashPin(manager.pin) }];
    expect(await rig.admin('PUT', '/api/admin/staff', { shopId: started.shopId, staff })).toBe(200);
  });
  test.afterAll(async () => {
    await started?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return rig;
}

/**
 * The hub and the one till of a spec file about the shop's goods: a hub process on PGlite in a temp dir of its own
 * (`prefix`, also the spec's folder for its downloads) with the admin token `adminToken`. The spec's `beforeAll`
 * calls `start()`, puts its catalog and documents through `admin` (the JSON answer, failing the test unless 2xx), and
 * `enrol()`s the till when it wants it; both are stopped and removed after the file's tests.
 */
export function hubAndTill(
  prefix: string,
  adminToken: string,
): {
  readonly hub: HubProcess;
  readonly till: HostProcess;
  readonly dir: string;
  start(): Promise<HubProcess>;
  enrol(terminalId: string): Promise<HostProcess>;
  /** A call to the admin API (failing the test unless it answers `status`, or 2xx), its JSON answer. */
  admin(method: string, route: string, body?: unknown, status?: number): Promise<Record<string, unknown>>;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let hub: HubProcess | undefined;
  let till: HostProcess | undefined;
  const rig = {
    dir,
    get hub(): HubProcess {
      if (!hub) throw new Error("hubAndTill: the hub starts in the spec's beforeAll");
      return hub;
    },
    get till(): HostProcess {
      if (!till) throw new Error("hubAndTill: the till is enrolled in the spec's beforeAll");
      return till;
    },
    async start() {
      hub = await startHubProcess({ KASA_HUB_DATA: path.join(dir, 'hub'), KASA_HUB_ADMIN_TOKEN: adminToken });
      return hub;
    },
    async enrol(terminalId: string) {
      till = await enrolledTill(rig.hub, terminalId);
      return till;
    },
    admin: (method: string, route: string, body?: unknown, status?: number) =>
      adminJson(rig.hub, method, route, body, status),
  };
  test.afterAll(() => stopTillAndHub(till, hub, dir));
  return rig;
}

/**
 * A till (a host process, Serbian Cyrillic) enrolled at `hub` by its one-time code and signed in; `env` adds to its
 * environment (another till's sandbox gateway, so that both sign on one fiscal service as a shop's tills do).
 */
export async function enrolledTill(
  hub: HubProcess,
  terminalId: string,
  env: Record<string, string> = {},
): Promise<HostProcess> {
  const till = await startHostProcess({
    env: {
      KASA_TERMINAL_ID: terminalId,
      KASA_HUB_URL: hub.url,
      KASA_HUB_ENROL_CODE: hub.enrolCode,
      KASA_LANG: 'sr-Cyrl',
      ...env,
    },
  });
  await signInHost(till);
  return till;
}

/** Stops a spec's till and hub (either may not have started) and removes their folders and `dir`. */
export async function stopTillAndHub(till: HostProcess | undefined, hub: HubProcess | undefined, dir: string) {
  await till?.stop();
  await hub?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  if (till) fs.rmSync(till.dataDir, { recursive: true, force: true });
}

/**
 * Calls the hub's admin API with its admin token; fails the test unless it answers `status`, or 2xx when none is
 * named; gives the JSON answer.
 */
export async function adminJson(
  hub: HubProcess,
  method: string,
  route: string,
  body?: unknown,
  status?: number,
): Promise<Record<string, unknown>> {
  const r = await adminRequest(hub, method, route, body);
  const text = await r.text();
  if (status === undefined) expect(r.status, text).toBeLessThan(300);
  else expect(r.status, text).toBe(status);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * Sells one piece of the catalog product `code` on the till for cash (label A), fiscalized; fails the test if not.
 * The product comes with the till's catalog pull from the hub, which may still be under way just after enrolment: it
 * is waited for (up to 30 s), not assumed.
 */
export async function sellOneOnTill(till: HostProcess, code: string, name: string, price: number): Promise<unknown> {
  let product: { id: number; code: string } | undefined;
  await expect
    .poll(
      async () => {
        const found = await till.call<{ products: { id: number; code: string }[] }>('catalog.list', {
          query: code,
          limit: 5,
        });
        product = found.body.value?.products.find((p) => p.code === code);
        return product?.code;
      },
      { timeout: 30_000, message: `the till has product ${code} from the hub` },
    )
    .toBe(code);
  const sold = await till.call('sales.checkout', {
    lines: [{ name, quantity: 1, unitPrice: price, labels: ['A'], productId: product?.id }],
    payments: [{ type: 'cash', amount: price }],
  });
  expect(sold.body.ok, JSON.stringify(sold.body)).toBe(true);
  return sold.body.value;
}

/** The hub page's languages in the order a spec shows them: it opens in Serbian Cyrillic. */
export const HUB_LANGUAGES = ['sr-Cyrl', 'sr-Latn', 'en'] as const;
export type HubLanguage = (typeof HUB_LANGUAGES)[number];

/**
 * Switches the hub's page from the language before `lang` in `HUB_LANGUAGES` to `lang`: the picker is named in the
 * language the page shows (Cyrillic before Latin, Latin before English).
 */
export async function switchHubLanguage(page: Page, lang: 'sr-Latn' | 'en'): Promise<void> {
  await page.getByLabel(lang === 'sr-Latn' ? 'Језик' : 'Jezik').selectOption(lang);
}

/**
 * The hub's page in each of its languages in turn, from Serbian Cyrillic (as it is shown at first) on: `each` checks
 * and photographs it in `lang`, given `words[lang]`, the spec's own names of what it looks at in that language.
 */
export async function inEachHubLanguage<W>(
  page: Page,
  words: Record<HubLanguage, W>,
  each: (lang: HubLanguage, words: W) => Promise<void>,
): Promise<void> {
  for (const lang of HUB_LANGUAGES) {
    if (lang !== 'sr-Cyrl') await switchHubLanguage(page, lang);
    await each(lang, words[lang]);
  }
}
