/**
 * The language-leak test: every screen of the till (login, counter, payment, each Менаџер tab) and of the hub UI
 * (login, each section), in Serbian Cyrillic, Serbian Latin and English, some driven to their error states (a wrong
 * PIN, an empty or invalid field), is read as a person sees it and checked by test/support/language-leak.ts: no
 * Latin words on a Cyrillic screen beyond the reviewed allowlist, no ISO timestamps, no `поље „` field paths, no
 * English sentences; on an English screen, no Serbian words (Cyrillic, Serbian letters) but the reviewed data.
 * One drive-through, run once per language.
 * Leaks not fixed yet are listed in KNOWN_LEAKS, reviewed, and the test fails when one of them is gone (so the
 * list only shrinks).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { findLeaks, type Lang, type Leak } from '../support/language-leak.ts';
import { ROOT, signInHost, startHostProcess, type HostProcess } from '../support/host-process.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { hubMessages, type HubKey } from '../../renderer/src/hub-ui/i18n.ts';
import { ct, type HubCatalogKey } from '../../renderer/src/hub-ui/catalog-i18n.ts';
import { mt, type ManagerText } from '../../renderer/src/manager/i18n.ts';
import { reportT } from '../../renderer/src/reports/words.ts';
import { PAYMENT_NAMES } from '../../shared/i18n/enums.ts';
import { tillAuditSentence } from '../../shared/i18n/audit.ts';
import { message } from '../../shared/messages.ts';
import { loginAtHub } from './hub-support.ts';
import { shotsAndBack } from './languages.ts';

/**
 * Leaks seen and not fixed yet, reviewed: language, the leak's word, and why it is still there. Fix one and
 * remove its entry (the test fails on an entry no screen shows any more).
 */
export const KNOWN_LEAKS: readonly { lang: Lang; match: string; why: string }[] = [];

/*
 * Not visited yet (so not checked): a rejected sale on the needs-attention list and the receipt screen (their
 * gateway field names are words now, tested in test/manager/gateway-errors.test.ts); the first-run setup flow,
 * the catalog screen and the parked-carts dialog are not opened.
 */

const ADMIN = 'leak-e2e-admin-token-0123456789abcdef';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-leak-e2e-'));
let hub: HubProcess;

/** The words of the sample catalog's product names and groups (columns 2 and 7): data, shown as they are. */
const SAMPLE_WORDS = [
  ...new Set(
    fs
      .readFileSync(path.join(ROOT, 'resources/catalog/sample.csv'), 'utf8')
      .split('\n')
      .slice(1)
      .flatMap((row) => {
        const cells = row.split(';');
        return `${cells[1] ?? ''} ${cells[6] ?? ''}`.split(/[\s,.()]+/);
      })
      .filter((w) => w !== ''),
  ),
];

/**
 * Data shown as it is, reviewed: this till's id, the tail of the sandbox's API key (shown masked: `••••-key`), the
 * printer makers in the presets' names (the receipt and the label printers', the label stocks'), the mail
 * protocols' names (SMTP, STARTTLS, TLS), the sample catalog's product names.
 */
const DATA_WORDS = [
  'LEAK',
  'key',
  'Epson',
  'Star',
  'Netum',
  'ZiJiang',
  'Sunmi',
  'Rongta',
  // The label printers' and label stocks' makers and their printer languages, as the presets name them.
  'Zebra',
  'TSC',
  'Xprinter',
  'ZPL',
  'TSPL',
  'dpi',
  'Avery',
  'Zweckform',
  // The mail protocols' names in the bookkeeper's e-mail settings (a mail server's settings name them so).
  'SMTP',
  'STARTTLS',
  'TLS',
  ...SAMPLE_WORDS.filter((w) => /[A-Za-z]/.test(w)),
];

/**
 * On an English screen the data is Cyrillic (the sample catalog's and this spec's product names and groups,
 * people's names), reviewed, each for its reason:
 * - `Хлеб`, `бели`, `Јабуке`, `Воће`, `Сок`: the products and the group this spec sells and enters;
 * - `Ана`, `Марко`: people's names (`Марко` is the person it adds);
 * - the sample catalog's product and group names.
 */
const DATA_WORDS_EN = [...DATA_WORDS, 'Хлеб', 'бели', 'Јабуке', 'Воће', 'Сок', 'Ана', 'Марко', ...SAMPLE_WORDS];

/** A moment as the archive shows it: the shop's day and a 24-hour time, as the language writes them. */
const MOMENT: Record<Lang, RegExp> = {
  'sr-Cyrl': /^\d{2}\.\d{2}\.\d{4}\. \d{2}:\d{2}$/,
  'sr-Latn': /^\d{2}\.\d{2}\.\d{4}\. \d{2}:\d{2}$/,
  en: /^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/,
};

/** A hub of its own for each language (the hub shares the shop's staff with every till it enrols). */
async function startHub(lang: Lang): Promise<void> {
  hub = await startHubProcess({ KASA_HUB_DATA: path.join(dir, `hub-${lang}`), KASA_HUB_ADMIN_TOKEN: ADMIN });
  // The shop's catalog lives at the hub: a product by the piece and one by weight, sent to every till.
  const res = await fetch(`${hub.url}/api/admin/products`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      shopId: hub.shopId,
      products: [
        { code: '1001', name: 'Хлеб бели', pricePara: 6500, label: 'A', unit: 'piece', barcodes: ['8600000100018'] },
        { code: '2001', name: 'Јабуке', pricePara: 12000, label: 'A', unit: 'kg', group: 'Воће' },
      ],
    }),
  });
  expect(res.status, await res.text()).toBe(200);
}
test.afterEach(async () => {
  await hub?.stop();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function enrolCode(): Promise<string> {
  const res = await fetch(`${hub.url}/api/admin/enrol-codes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ shopId: hub.shopId }),
  });
  return ((await res.json()) as { code: string }).code;
}

/** What a person sees once the screen settled (the same text twice, a quarter second apart; at most 5 s). */
async function visibleText(page: Page): Promise<string> {
  let text = await readText(page);
  for (let i = 0; i < 20; i += 1) {
    await page.waitForTimeout(250);
    const again = await readText(page);
    if (again === text) break;
    text = again;
  }
  return text;
}

/** The visible text, and the placeholders and titles of visible controls. */
async function readText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const extra: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('[placeholder], [title]'))) {
      if (el.offsetParent === null) continue;
      extra.push(el.getAttribute('placeholder') ?? '', el.getAttribute('title') ?? '');
    }
    // A list's choices are read too (the printer presets' names are seen only when it opens).
    for (const el of Array.from(document.querySelectorAll<HTMLSelectElement>('select'))) {
      if (el.offsetParent === null) continue;
      extra.push(...Array.from(el.options).map((o) => o.text));
    }
    return `${document.body.innerText}\n${extra.join('\n')}`;
  });
}

/** The screen at 1024×768 and 1366×768, kept as `lang-<what>-<lang>-<width>.png` when KASA_SHOTS names a folder. */
const shots = (page: Page, lang: Lang, what: string): Promise<void> => shotsAndBack(page, `lang-${what}-${lang}`);

class Findings {
  readonly all: (Leak & { screen: string })[] = [];
  private readonly page: Page;
  private readonly lang: Lang;
  constructor(page: Page, lang: Lang) {
    this.page = page;
    this.lang = lang;
  }
  async check(screen: string): Promise<void> {
    const data = this.lang === 'en' ? DATA_WORDS_EN : DATA_WORDS;
    for (const leak of findLeaks(await visibleText(this.page), this.lang, data)) {
      if (!this.all.some((l) => l.match === leak.match && l.kind === leak.kind)) this.all.push({ ...leak, screen });
    }
  }
  /** Fails on any leak not in KNOWN_LEAKS, and on a known leak this language no longer shows. */
  verdict(): void {
    const known = KNOWN_LEAKS.filter((k) => k.lang === this.lang);
    const fresh = this.all.filter((l) => !known.some((k) => k.match === l.match));
    const gone = known.filter((k) => !this.all.some((l) => l.match === k.match));
    expect(
      fresh.map((l) => `${l.screen}: ${l.kind} «${l.match}» in «${l.context}»`),
      'language leaks',
    ).toEqual([]);
    expect(
      gone.map((k) => k.match),
      'KNOWN_LEAKS entries no screen shows any more',
    ).toEqual([]);
  }
}

// Two dozen screens, each read once it settled, and a hub and a till started: longer than one flow.
test.setTimeout(300_000);

for (const lang of ['sr-Cyrl', 'sr-Latn', 'en'] as const) {
  test(`no language leaks on the till's and the hub's screens in ${lang}`, async ({ page }) => {
    await startHub(lang);
    const till: HostProcess = await startHostProcess({
      env: { KASA_LANG: lang, KASA_TERMINAL_ID: 'LEAK', KASA_HUB_URL: hub.url, KASA_HUB_ENROL_CODE: await enrolCode() },
    });
    try {
      await signInHost(till);
      await expect(async () => {
        const r = await till.call('catalog.byBarcode', { code: '1001' });
        expect(JSON.stringify(r.body)).toContain('6500');
      }).toPass({ timeout: 20_000 });
      // Sales paid every way, so the reports and the archive show each payment type.
      for (const payments of [
        [{ type: 'cash', amount: 160 }],
        [
          { type: 'card', amount: 60 },
          { type: 'check', amount: 20 },
          { type: 'mobileMoney', amount: 20 },
          { type: 'virman', amount: 20 },
          { type: 'mobile', amount: 10 },
          { type: 'factoring', amount: 10 },
          { type: 'account', amount: 10 },
          { type: 'voucher', amount: 5 },
          { type: 'other', amount: 5 },
        ],
      ]) {
        const sold = await till.call('sales.checkout', {
          lines: [{ name: 'Хлеб', quantity: 2, unitPrice: 80, labels: ['A'] }],
          payments,
        });
        expect(sold.body.ok, JSON.stringify(sold.body)).toBe(true);
      }
      const f = new Findings(page, lang);

      // The till: login with a wrong PIN, then the counter and the payment screen.
      await page.goto(`${till.url}#token=${till.token}`);
      const pin = page.getByRole('main').getByLabel('PIN', { exact: true });
      await pin.fill('9999');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert')).toBeVisible();
      await f.check('till login, wrong PIN');
      await pin.fill(MANAGER_PIN);
      await page.keyboard.press('Enter');
      const search = page.getByRole('combobox').first();
      await expect(search).toBeFocused();
      await f.check('counter');
      await search.fill('1001');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('cart-total')).not.toHaveText('0,00');
      await f.check('counter with a line');
      await page.keyboard.press('F12');
      await expect(page.getByRole('main').getByRole('button').first()).toBeVisible();
      await f.check('payment');
      await page.keyboard.press('Escape');

      // Every Менаџер tab; a few submitted empty or wrong, for their errors.
      const m = (key: ManagerText): string => mt(lang, key);
      await page.getByRole('button', { name: /\(F11\)/ }).click();
      const mgr = page.getByRole('dialog', { name: m('title') });
      const tabs = mgr.getByRole('tab');
      const count = await tabs.count();
      expect(count).toBeGreaterThan(5);
      for (let i = 0; i < count; i += 1) {
        const tab = tabs.nth(i);
        const name = (await tab.textContent()) ?? `tab ${i}`;
        await tab.click();
        await expect(tab).toHaveAttribute('aria-selected', 'true');
        await f.check(`Менаџер: ${name}`);
      }
      // The archive's result list (invoice and transaction types of each receipt).
      await mgr.getByRole('tab', { name: m('tab_archive') }).click();
      await mgr.getByRole('button', { name: m('search') }).click();
      const archive = mgr.getByRole('table', { name: m('tab_archive') });
      await expect(archive).toBeVisible();
      // Each receipt with its moment (the shop's day and a 24-hour time), its cashier and how it was paid.
      // The sales name the person logged in: the first-run manager, named in the till's language.
      const seller = message(lang, 'default_manager_name');
      const cash = archive.getByRole('row', { name: new RegExp(`${seller} ${PAYMENT_NAMES[lang].cash}`) });
      await expect(cash).toHaveCount(1);
      await expect(cash.getByRole('cell').first()).toHaveText(MOMENT[lang]);
      await expect(
        archive.getByRole('row', { name: new RegExp(`${seller} ${PAYMENT_NAMES[lang].card}, `) }),
      ).toHaveCount(1);
      await expect(archive).toBeInViewport();
      await f.check('Менаџер: archive results');
      await shots(page, lang, 'till-archive');
      // The audit log: sentences (the login, the sales' cash), never `staff.login {"id":1}`.
      await mgr.getByRole('tab', { name: m('tab_audit') }).click();
      // The manager logged in is not asked for her PIN (issue 38 §7): the field says so; typed, it is used.
      await mgr.getByLabel(m('manager_pin_self'), { exact: true }).fill(MANAGER_PIN);
      await mgr.getByRole('button', { name: m('show') }).click();
      const audit = mgr.getByRole('table', { name: m('audit') });
      await expect(
        audit
          .getByRole('row', {
            name: tillAuditSentence(lang, {
              action: 'staff.login',
              actor: message(lang, 'default_manager_name'),
              detail: null,
            }),
          })
          .first(),
      ).toBeVisible();
      await f.check('Менаџер: audit');
      await shots(page, lang, 'till-audit');
      // The day's report: payment types, labels.
      await mgr.getByRole('tab', { name: m('tab_reports') }).click();
      await mgr.getByRole('button', { name: m('show') }).click();
      await expect(mgr.getByRole('table').first()).toBeVisible();
      await f.check('Менаџер: report');
      await shots(page, lang, 'till-report');
      // Staff: a person with a PIN of letters, then a wrong current PIN until the lockout.
      await mgr.getByRole('tab', { name: m('tab_staff') }).click();
      await mgr.getByLabel(m('name'), { exact: true }).fill('Марко');
      await mgr.getByLabel(m('pin'), { exact: true }).fill('12ab');
      await mgr.getByLabel(m('manager_pin'), { exact: true }).fill(MANAGER_PIN);
      await mgr.getByRole('button', { name: m('add_person') }).click();
      await expect(mgr.getByRole('alert').first()).toBeVisible();
      await f.check('Менаџер: staff, bad PIN');
      // A person picked: the manager's own deactivation refused at its field, a new PIN with letters.
      await mgr
        .getByRole('table', { name: m('staff') })
        .getByRole('button')
        .first()
        .click();
      const activity = mgr.getByRole('form', { name: m('staff_activity') });
      await activity.getByLabel(m('manager_pin'), { exact: true }).fill(MANAGER_PIN);
      await activity.getByRole('button').click();
      await expect(activity.getByRole('alert')).toBeVisible();
      await f.check('Менаџер: staff, deactivating oneself');
      const reset = mgr.getByRole('form', { name: m('staff_reset_pin') });
      await reset.getByLabel(m('staff_new_pin'), { exact: true }).fill('12ab');
      await reset.getByLabel(m('manager_pin'), { exact: true }).fill(MANAGER_PIN);
      await reset.getByRole('button').click();
      await expect(reset.getByRole('alert')).toBeVisible();
      await f.check('Менаџер: staff, new PIN with letters');
      await mgr.getByRole('button', { name: m('staff_done') }).click();
      for (let i = 0; i < 6; i += 1) {
        await mgr.getByLabel(m('current_pin'), { exact: true }).fill('000111');
        await mgr.getByLabel(m('new_pin'), { exact: true }).fill('135790');
        await mgr.getByRole('button', { name: m('save'), exact: true }).click();
        await expect(mgr.getByRole('alert').first()).toBeVisible();
        await f.check('Менаџер: staff, wrong current PIN');
      }
      await mgr.getByRole('button', { name: m('close') }).click();
      await f.check('counter, PIN locked');

      // The hub UI: a wrong PIN, then every section; the catalog with a bad price, the report.
      await page.goto(hub.url);
      const h = (key: HubKey): string => hubMessages[lang][key];
      const c = (key: HubCatalogKey, params?: Record<string, string>): string => ct(lang, key, params);
      await page.getByLabel(hubMessages['sr-Cyrl'].language).selectOption(lang);
      await page.getByLabel(h('pin')).fill('000000');
      await page.getByRole('button', { name: h('login') }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await f.check('hub login, wrong PIN');
      // The till's manager reaches the hub through the till's outbox: the PIN works once it arrived.
      await loginAtHub(page, { pin: h('pin'), login: h('login'), logout: h('logout') });
      await expect(page.getByRole('region', { name: h('tills') }).getByRole('row', { name: /^LEAK / })).toBeVisible();
      await f.check('hub: tills');
      await page.getByRole('tab', { name: h('catalog') }).click();
      await expect(page.getByRole('table', { name: h('catalog') })).toBeVisible();
      await f.check('hub: catalog');
      await page.getByRole('button', { name: c('add') }).click();
      await page.getByLabel(h('code'), { exact: true }).fill('3001');
      await page.getByLabel(h('name'), { exact: true }).fill('Сок');
      await page.getByLabel(h('price')).fill('abc');
      await page.getByRole('button', { name: h('save') }).click();
      await expect(page.getByRole('alert')).toBeVisible();
      await f.check('hub: catalog, bad price');
      // A product picked from the list, then a group's prices with a percentage of letters, then its preview.
      await page.getByRole('button', { name: c('editOne', { name: 'Јабуке' }) }).click();
      await expect(page.getByRole('form', { name: new RegExp(c('editTitle')) })).toBeVisible();
      await f.check('hub: catalog, a product picked');
      const bulk = page.getByRole('form', { name: c('bulkTitle') });
      await bulk.getByLabel(c('bulkGroup')).selectOption('Воће');
      await bulk.getByLabel(c('bulkPercent')).fill('5a');
      await bulk.getByRole('button', { name: c('bulkPreview') }).click();
      await expect(bulk.getByRole('alert')).toBeVisible();
      await f.check('hub: catalog, bulk with a bad percentage');
      await bulk.getByLabel(c('bulkPercent')).fill('5');
      await bulk.getByRole('button', { name: c('bulkPreview') }).click();
      await expect(bulk.getByRole('status')).toBeVisible();
      await f.check('hub: catalog, bulk preview');
      // Staff: the manager's own deactivation refused, a manager's PIN too short (both at the hub's words).
      await page.getByRole('tab', { name: h('staff') }).click();
      const staff = page.getByRole('region', { name: h('staff') });
      const deactivate = h('staffDeactivate').split('{name}')[0] ?? '';
      await staff.getByRole('button', { name: deactivate }).first().click();
      await expect(staff.getByRole('alert')).toBeVisible();
      await f.check('hub: staff, deactivating oneself');
      const newPin = h('staffNewPinFor').split('{name}')[0] ?? '';
      await staff.getByRole('button', { name: newPin }).first().click();
      await staff.getByLabel(h('staffPinLabel')).fill('1234');
      await staff.getByRole('button', { name: h('staffSetPin') }).click();
      await expect(staff.getByRole('form').getByRole('alert')).toBeVisible();
      await f.check('hub: staff, short manager PIN');
      await page.getByRole('tab', { name: h('settings') }).click();
      // Opened with what is in effect: the hub never set a limit, so the tills' default, said as such.
      await expect(page.getByLabel(h('discountLimit'))).toHaveValue('10');
      await expect(page.getByText(h('settingsNoRules'))).toBeVisible();
      await f.check('hub: settings');
      await shots(page, lang, 'hub-settings');
      // A barcode rule in its fields, its prefix out of 20–29: refused at the field, in the page's language.
      const rules = page.getByRole('group', { name: h('barcodeRules') });
      await rules.getByRole('button', { name: h('ruleAdd') }).click();
      const rule = rules.getByRole('group', { name: h('ruleRow').replace('{n}', '1') });
      await rule.getByLabel(h('rulePrefix')).fill('99');
      await page.getByRole('button', { name: h('saveSettings') }).click();
      await expect(rule.getByRole('alert')).toBeVisible();
      await f.check('hub: settings, bad rule');
      await page.getByRole('tab', { name: h('report') }).click();
      await page.getByRole('button', { name: h('show') }).click();
      // The report with its charts (renderer/src/reports): a chart's figure named in the UI language.
      await expect(page.getByRole('figure', { name: reportT(lang)('by_hour') })).toBeVisible();
      await f.check('hub: report');
      await shots(page, lang, 'hub-report');
      await page.getByRole('tab', { name: h('audit'), exact: true }).click();
      await expect(page.getByRole('table', { name: h('audit') })).toBeVisible();
      await f.check('hub: audit');
      // Е-фактуре of a hub without the shop's SEF key: it says the tills send them.
      await page.getByRole('tab', { name: h('sef') }).click();
      await expect(page.getByText(h('sefNotSending'))).toBeVisible();
      await f.check('hub: e-invoices');
      await f.verdict();
    } finally {
      await till.stop();
      fs.rmSync(till.dataDir, { recursive: true, force: true });
    }
  });
}
