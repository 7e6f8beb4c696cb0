/**
 * Е-фактуре in the hub UI in Chromium (docs/sef.md "Sending from the hub"): a hub child process on PGlite holding the
 * shop's SEF key (a fake SEF on an ephemeral port); two business sales pushed by a till through the till API, one
 * sent to SEF, one refused (a buyer SEF does not know), listed with their till, state and SEF's reason; the refused
 * one sent again by the manager. In Cyrillic; the finished screen in Latin and English too; screenshots at 1024×768
 * and 1366×768 with KASA_SHOTS.
 */
import { expect, test } from '@playwright/test';
import { startFakeSef, type FakeSef } from '../../electron/sef/fake-sef.ts';
import { fetchSend, hubClient } from '../../shared/hub/client.ts';
import type { HubSefList } from '../../shared/hub/sef.ts';
import { orderEvent, saleSnapshot } from '../hub/snapshots.ts';
import { SELLER } from '../sef/seller.ts';
import { inEachHubLanguage, managedHub } from './hub-support.ts';
import { shotsAtSizes, TILL_SIZES } from './languages.ts';

const ADMIN = 'e2e-admin-token-hub-sef-0123456789abcdef';
const SEF_KEY = 'e2e-hub-sef-key-5b21';
let fake: FakeSef | undefined;
// Before the hub's start (hooks run in the order they are registered): the hub's SEF is this fake.
test.beforeAll(async () => {
  fake = await startFakeSef({ apiKey: SEF_KEY });
});
test.afterAll(async () => fake?.close());
const rig = managedHub('kasa-hub-sef-e2e-', ADMIN, { name: 'Јована', pin: '246810' }, () => ({
  KASA_HUB_SEF_API_KEY: SEF_KEY,
  KASA_HUB_SEF_URL: fake?.url ?? '',
  KASA_HUB_SEF_SELLER: JSON.stringify(SELLER),
  KASA_HUB_SEF_EVERY_MS: '100',
}));

test("the shop's e-invoices at the hub: one sent, one refused with SEF's reason, sent again; three languages", async ({
  page,
}) => {
  // A till of the shop pushes two fiscalized sales to business buyers: one SEF knows, one it does not.
  const code = (await (await rig.request('POST', '/api/admin/enrol-codes', { shopId: rig.hub.shopId })).json()) as {
    code: string;
  };
  const enrol = hubClient(fetchSend({ baseUrl: rig.hub.url, fetch }));
  const till = await enrol.call('enrol', { code: code.code, name: 'Каса 1' });
  const push = hubClient(fetchSend({ baseUrl: rig.hub.url, token: till.credential, fetch }));
  const sales = [
    ['E2E-SEF-0001', 'AAAA1111-AAAA1111-1', '10:101134702'],
    ['E2E-SEF-0002', 'AAAA1111-AAAA1111-2', '10:113460262'],
  ] as const;
  const events = sales.map(([n, invoice, buyerId], i) => {
    const o = saleSnapshot(n, invoice, { at: Date.now() });
    return orderEvent(i + 1, { ...o, data: { ...o.data, buyerId } });
  });
  await push.call('push', { tillId: till.tillId, events });
  const states = async () => {
    const list = (await (await rig.request('GET', `/api/admin/sef?shopId=${rig.hub.shopId}`)).json()) as HubSefList;
    return list.documents.map((d) => d.state).sort();
  };
  await expect.poll(states).toEqual(['refused', 'sent']);

  await rig.openAsManager(page, 'Е-фактуре');
  const table = page.getByRole('table', { name: 'Послате е-фактуре' });
  await expect(table.getByRole('row', { name: /E2E-SEF-0001/ })).toContainText('Послата, чека одлуку купца');
  const refused = table.getByRole('row', { name: /E2E-SEF-0002/ });
  await expect(refused).toContainText('СЕФ је одбио документ');
  await expect(refused).toContainText('купац са ПИБ-ом 113460262 није регистрован на СЕФ-у');
  await expect(refused).toContainText('Каса 1');
  // The buyer named by the PIB, never by the gateway's `10:` code.
  await expect(refused).toContainText('ПИБ 113460262');
  await expect(table).not.toContainText('10:');
  // Sent again by the manager: SEF still does not know the buyer, so it is refused again, the reason kept.
  await refused.getByRole('button', { name: 'Пошаљи поново: E2E-SEF-0002' }).click();
  await expect(page.getByText('Е-фактура E2E-SEF-0002 је поново у реду за слање.')).toBeVisible();
  await expect.poll(states).toEqual(['refused', 'sent']);
  await page.getByRole('button', { name: 'Освежи стање е-фактура' }).click();
  await expect(refused).toContainText('СЕФ је одбио документ');
  await expect(refused).toContainText('купац са ПИБ-ом 113460262');
  expect(fake?.controls.documents().map((d) => d.number)).toEqual(['E2E-SEF-0001']);

  await inEachHubLanguage(
    page,
    { 'sr-Cyrl': 'Послате е-фактуре', 'sr-Latn': 'Poslate e-fakture', en: 'E-invoices sent' },
    async (lang, name) => {
      await expect(page.getByRole('table', { name })).toBeVisible();
      await shotsAtSizes(page, `hub-sef-${lang}`, TILL_SIZES);
    },
  );
});
