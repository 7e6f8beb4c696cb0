/**
 * E-invoices sent from the hub (docs/sef.md, "Sending from the hub"): a real hub process on PGlite with the shop's SEF
 * key, a fake SEF over HTTP (electron/sef/fake-sef.ts), one sandbox gateway and two whole tills whose own SEF
 * settings would send every business sale's e-invoice at once (their key points at the same fake SEF, so a till's
 * send would be counted there). The tills learn from the hub that it sends and make none; each business sale of
 * either till reaches SEF once, from the hub; a lost answer is looked up, never resent; a hub killed mid-send sends
 * exactly once after its restart (kill points: before SEF took the request, after it took it); a refund at till 2 of
 * till 1's sale is a credit note naming till 1's e-invoice; SEF's refusal is kept and resent after correction.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { startFakeSef, type FakeSef } from '../../electron/sef/fake-sef.ts';
import type { HubSefDocument, HubSefList } from '../../shared/hub/sef.ts';
import type { OrderView } from '../../shared/domain.ts';
import { adminRequest, startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { freePort } from '../support/ports.ts';
import { awaitPulledManager } from '../support/host-process.ts';
import { ok, until } from '../support/core-calls.ts';
import { BREAD_AND_MILK, makeRefund, MANAGER_PIN } from '../support/session.ts';
import { openSandboxTill } from './till-rig.ts';
import { SELLER } from '../sef/seller.ts';
import { BACKENDS } from './backends.ts';
import { openHubWithTwoTills } from './served-hub.ts';
import { orderEvent, saleSnapshot } from './snapshots.ts';
import { SefClient } from '../../shared/node/sef-client.ts';
import { SEF_POLL_MS } from '../../shared/node/sef-outbox.ts';
import type { AuthedTill } from '../../hub/service.ts';

const ADMIN = 'kasa-test-admin-token-hub-sef-0123456789abc';
const KEY = 'hub-sef-test-key-7f3a9c';
const SEND = 'POST /api/publicApi/sales-invoice/ubl';
const LOOKUP = 'GET /api/publicApi/sales-invoice/requestId';
const BUSINESS = '10:101134702';

describe('e-invoices sent from the hub, two tills, a hub process on PGlite', () => {
  const dirs: string[] = [];
  const tmp = (): string => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-sef-'));
    dirs.push(d);
    return d;
  };
  let fake: FakeSef;
  let sandbox: Sandbox;
  let hub: HubProcess;
  let hubEnv: Record<string, string>;
  const tills: Core[] = [];

  // What the hub writes to its log (stderr) from its start on: the SEF client's requests, never the key.
  const hubLog: string[] = [];
  const startHub = async (): Promise<HubProcess> => {
    hub = await startHubProcess(hubEnv, { enrolCode: false });
    hub.child.stderr?.on('data', (d: Buffer) => hubLog.push(d.toString()));
    return hub;
  };
  const list = async (): Promise<HubSefList> => {
    const res = await adminRequest(hub, 'GET', `/api/admin/sef?shopId=${hub.shopId}`);
    expect(res.status).toBe(200);
    return (await res.json()) as HubSefList;
  };
  const docOf = async (number: string): Promise<HubSefDocument | undefined> =>
    (await list()).documents.find((d) => d.number === number);
  const atSef = (number: string) => fake.controls.documents().filter((d) => d.number === number);
  const sale = async (c: Core): Promise<OrderView> => {
    const r = await ok<{ orderId: number; state: string }>(c, 'sales.checkout', {
      ...BREAD_AND_MILK,
      buyerId: BUSINESS,
    });
    expect(r.state).toBe('fiscalized');
    return ok<OrderView>(c, 'orders.get', { orderId: r.orderId });
  };
  const tillDocs = (c: Core) => c.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM sef_documents').get()?.n;

  async function openTill(terminalId: string, first: boolean): Promise<Core> {
    const res = await adminRequest(hub, 'POST', '/api/admin/enrol-codes', { shopId: hub.shopId });
    const { code } = (await res.json()) as { code: string };
    const dir = tmp();
    const core = await openSandboxTill(dir, terminalId, sandbox.url, {
      env: {
        KASA_ONLINE_BUDGET_MS: '3000',
        KASA_HUB_URL: hub.url,
        KASA_HUB_ENROL_CODE: code,
        // The till's own SEF link: the same fake SEF, so anything a till sent would be counted there.
        KASA_SEF_API_KEY: KEY,
        KASA_SEF_URL: fake.url,
      },
    });
    tills.push(core);
    await until(() => core.db.prepare("SELECT 1 FROM hub_state WHERE key = 'till_id'").get() !== undefined);
    if (first) await ok(core, 'staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    else await awaitPulledManager(dir);
    const login = await core.dispatch('staff.login', { pin: MANAGER_PIN });
    if (!login.ok) throw new Error(`login: ${JSON.stringify(login.error)}`);
    // The till would issue every business sale's e-invoice on its own (the automatic setting).
    await ok(core, 'sef.saveSettings', { environment: 'demo', autoIssue: true, sendToCir: false, seller: SELLER });
    // It learns from the hub (the shop's settings it pulls) that the hub sends.
    await until(
      () => core.db.prepare("SELECT 1 FROM settings WHERE key = 'sefFromHub' AND value = 'true'").get() !== undefined,
    );
    return core;
  }

  beforeAll(async () => {
    fake = await startFakeSef({ apiKey: KEY });
    sandbox = await startSandbox({ port: 0 });
    hubEnv = {
      KASA_HUB_DATA: path.join(tmp(), 'hub'),
      KASA_HUB_ADMIN_TOKEN: ADMIN,
      KASA_HUB_PORT: String(await freePort()),
      KASA_HUB_SEF_API_KEY: KEY,
      KASA_HUB_SEF_URL: fake.url,
      KASA_HUB_SEF_SELLER: JSON.stringify(SELLER),
      KASA_HUB_SEF_EVERY_MS: '100',
    };
    await startHub();
    tills.push(await openTill('HSEF1', true));
    tills.push(await openTill('HSEF2', false));
  }, 120_000);

  afterAll(async () => {
    for (const c of tills.splice(0)) await c.close();
    await hub?.stop();
    await sandbox?.close();
    await fake?.close();
    dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });

  it('sends each business sale of both tills once, from the hub; the tills send none', async () => {
    const [t1, t2] = tills as [Core, Core];
    const a = await sale(t1);
    const b = await sale(t2);
    for (const o of [a, b]) await until(async () => (await docOf(o.orderNumber))?.state === 'sent');
    for (const o of [a, b]) {
      expect(atSef(o.orderNumber)).toHaveLength(1);
      expect(atSef(o.orderNumber)[0]?.xml).toContain(o.receipt?.invoiceNumber);
    }
    const listed = await list();
    expect(listed.sending).toBe(true);
    // The tills made none, and refuse to make one: the hub sends the shop's.
    expect([tillDocs(t1), tillDocs(t2)]).toEqual([0, 0]);
    const refused = await t1.dispatch('sef.issue', { orderId: a.orderId, managerPin: MANAGER_PIN });
    expect(refused.ok ? null : refused.error).toMatchObject({
      code: 'conflict',
      message: 'This shop’s e-invoices are sent by the store hub: see them at the hub, under E-invoices.',
    });
    // The key is in no answer of the hub.
    expect(JSON.stringify(listed)).not.toContain(KEY);
    // Whether the hub sends is the hub's to say (its key), not a manager's setting.
    const put = await adminRequest(hub, 'PUT', '/api/admin/settings', {
      shopId: hub.shopId,
      settings: { sefFromHub: false },
    });
    expect(put.status).toBe(400);
  }, 60_000);

  it('after a lost answer looks the request up and never sends the document twice', async () => {
    const sends = fake.controls.stats()[SEND] ?? 0;
    fake.controls.setFaults([{ match: SEND, action: 'drop_after', times: 1 }]);
    const o = await sale(tills[0] as Core);
    // SEF made it, its answer was lost: the document waits in doubt (its backoff); the manager says „send again“.
    await until(async () => {
      const d = await docOf(o.orderNumber);
      return d?.attempts === 1 && d.inDoubt && d.lastError !== undefined;
    });
    expect(atSef(o.orderNumber)).toHaveLength(1);
    const doc = (await docOf(o.orderNumber)) as HubSefDocument;
    expect(doc).toMatchObject({ state: 'queued', attempts: 1 });
    await adminRequest(hub, 'POST', '/api/admin/sef/retry', { shopId: hub.shopId, id: doc.id });
    await until(async () => (await docOf(o.orderNumber))?.state === 'sent');
    expect(atSef(o.orderNumber)).toHaveLength(1);
    expect(fake.controls.stats()[SEND]).toBe(sends + 1);
    expect(await docOf(o.orderNumber)).toMatchObject({ attempts: 1, inDoubt: false });
    // The hub logged its requests to SEF, and the key in none of its lines.
    expect(hubLog.join('')).toContain('sef POST /api/publicApi/sales-invoice/ubl');
    expect(hubLog.join('')).not.toContain(KEY);
  }, 60_000);

  it('a hub killed mid-send sends exactly once after its restart, at each kill point', async () => {
    // `hang`: SEF never took the request; `delay`: SEF takes it after the hub died (its answer is lost with it), maybe
    // after the restarted hub's look-up: the resend carries the same request id, which SEF answers with the first.
    for (const fault of [{ action: 'hang' as const }, { action: 'delay' as const, delayMs: 300 }]) {
      const sends = fake.controls.stats()[SEND] ?? 0;
      fake.controls.setFaults([{ match: SEND, times: 1, ...fault }]);
      const o = await sale(tills[1] as Core);
      await until(() => (fake.controls.stats()[SEND] ?? 0) > sends);
      await hub.stop(true);
      fake.controls.releaseHung();
      const lookups = fake.controls.stats()[LOOKUP] ?? 0;
      await startHub();
      await until(async () => (await docOf(o.orderNumber))?.state === 'sent');
      expect(atSef(o.orderNumber), fault.action).toHaveLength(1);
      // The restarted hub asked SEF before it sent anything again.
      expect(
        Object.entries(fake.controls.stats())
          .filter(([k]) => k.startsWith(LOOKUP))
          .reduce((n, [, v]) => n + v, 0),
      ).toBeGreaterThan(lookups);
    }
  }, 60_000);

  it("a refund at till 2 of till 1's sale is a credit note naming till 1's e-invoice", async () => {
    const [t1, t2] = tills as [Core, Core];
    const s = await sale(t1);
    await until(async () => (await docOf(s.orderNumber))?.state === 'sent');
    const refund = await makeRefund(t2, {
      invoiceNumber: s.receipt?.invoiceNumber,
      full: true,
      buyerId: BUSINESS,
    });
    await until(async () => (await docOf(refund.orderNumber))?.state === 'sent');
    const note = await docOf(refund.orderNumber);
    expect(note).toMatchObject({ kind: 'credit_note' });
    const [sent] = atSef(refund.orderNumber);
    expect(sent?.typeCode).toBe('381');
    expect(sent?.xml).toContain(`<cbc:ID>${s.orderNumber}</cbc:ID>`);
    expect(tillDocs(t2)).toBe(0);
  }, 60_000);

  it("keeps SEF's refusal with its reason and sends the document again once the buyer is known", async () => {
    // A buyer SEF does not know: refused before anything is sent, the reason kept for a hub manager.
    const r = await ok<{ orderId: number }>(tills[0] as Core, 'sales.checkout', {
      ...BREAD_AND_MILK,
      buyerId: '10:113460262',
    });
    const o = await ok<OrderView>(tills[0] as Core, 'orders.get', { orderId: r.orderId });
    await until(async () => (await docOf(o.orderNumber))?.state === 'refused');
    const refused = (await docOf(o.orderNumber)) as HubSefDocument;
    expect(refused.lastError).toMatchObject({ code: 'KASA_BUYER_NOT_ON_SEF', message: '113460262' });
    expect(atSef(o.orderNumber)).toHaveLength(0);
    // The buyer registers at SEF; the manager sends it again: once.
    fake.controls.addCompany({ VatRegistrationCode: '113460262', RegistrationCode: '07012346', Name: 'Нови купац' });
    const res = await adminRequest(hub, 'POST', '/api/admin/sef/retry', { shopId: hub.shopId, id: refused.id });
    expect(res.status).toBe(200);
    await until(async () => (await docOf(o.orderNumber))?.state === 'sent');
    expect(atSef(o.orderNumber)).toHaveLength(1);
    expect((await docOf(o.orderNumber))?.buyerName).toBe('Нови купац');
    // Sent now: a second resend is refused, at its field.
    const again = await adminRequest(hub, 'POST', '/api/admin/sef/retry', { shopId: hub.shopId, id: refused.id });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: 'sef_not_retryable', field: 'id' });
  }, 60_000);
});

/**
 * The hub's SEF area on PostgreSQL (the process suite above runs PGlite): two tills' business sales pushed, each
 * e-invoice made once however often its order is pushed, sent once; a refund of till A's sale at till B a credit
 * note naming it.
 */
describe.each(BACKENDS.filter((b) => b.name === 'postgres'))('the hub’s SEF outbox on $name', (backend) => {
  let tills: readonly [AuthedTill, AuthedTill];
  let fake: FakeSef;
  let clock = Date.now();
  const hub = openHubWithTwoTills(
    backend,
    {
      now: () => new Date(clock),
      sef: () => ({
        shopId: tills[0].shopId,
        client: new SefClient({ baseUrl: fake.url, apiKey: KEY }),
        seller: SELLER,
        sendToCir: false,
        labelCategories: {},
      }),
    },
    (t) => (tills = t),
  );
  beforeAll(async () => {
    fake = await startFakeSef({ apiKey: KEY });
  });
  afterAll(async () => fake?.close());

  const business = (n: string, invoice: string, shape: Parameters<typeof saleSnapshot>[2] = {}) => {
    const o = saleSnapshot(n, invoice, { at: Date.now(), ...shape });
    return { ...o, data: { ...o.data, buyerId: BUSINESS } };
  };

  it('makes each e-invoice once, sends it once, and a refund at another till is a credit note naming the sale', async () => {
    const [a, b] = tills;
    await hub.service.publishSefFromHub(a.shopId);
    const sale = business('PGA-0001', 'PGA-INV-1');
    await hub.service.push(a, { tillId: a.id, events: [orderEvent(1, sale)] });
    // The same order again (a later snapshot) and another till's sale.
    await hub.service.push(a, { tillId: a.id, events: [orderEvent(2, { ...sale, data: { ...sale.data } })] });
    await hub.service.push(b, { tillId: b.id, events: [orderEvent(1, business('PGB-0001', 'PGB-INV-1'))] });
    await hub.service.sefPass();
    let docs = (await hub.service.sefDocuments(a.shopId)).documents;
    expect(docs.map((d) => [d.number, d.state, d.tillName]).sort()).toEqual([
      ['PGA-0001', 'sent', 'A'],
      ['PGB-0001', 'sent', 'B'],
    ]);
    expect(
      fake.controls
        .documents()
        .map((d) => d.number)
        .sort(),
    ).toEqual(['PGA-0001', 'PGB-0001']);

    const refund = business('PGB-0002', 'PGB-INV-2');
    await hub.service.push(b, {
      tillId: b.id,
      events: [
        orderEvent(2, {
          ...refund,
          kind: 'refund_full',
          transaction_type: 'refund',
          data: { ...refund.data, refundOf: { invoiceNumber: 'PGA-INV-1', lines: [], full: true } },
        }),
      ],
    });
    await hub.service.sefPass();
    docs = (await hub.service.sefDocuments(a.shopId)).documents;
    expect(docs.find((d) => d.number === 'PGB-0002')).toMatchObject({ kind: 'credit_note', state: 'sent' });
    const note = fake.controls.documents().find((d) => d.number === 'PGB-0002');
    expect(note?.typeCode).toBe('381');
    expect(note?.xml).toContain('<cbc:ID>PGA-0001</cbc:ID>');
    expect(fake.controls.stats()[SEND]).toBe(3);

    // Polled to SEF's final state: the buyer accepts the sale's e-invoice; the other sale's is cancelled by a manager.
    const a1 = fake.controls.documents().find((d) => d.number === 'PGA-0001');
    fake.controls.decide(a1?.invoiceId ?? 0, 'Approved');
    const b1 = docs.find((d) => d.number === 'PGB-0001');
    expect((await hub.service.sefCancel(a.shopId, b1?.id ?? 0, 'Погрешан купац', 'Јована')).state).toBe('cancelled');
    clock += SEF_POLL_MS;
    await hub.service.sefPass();
    docs = (await hub.service.sefDocuments(a.shopId)).documents;
    expect(docs.find((d) => d.number === 'PGA-0001')?.state).toBe('accepted');
    expect(fake.controls.documents().find((d) => d.number === 'PGB-0001')?.status).toBe('Cancelled');
    // An accepted one cannot be cancelled, only stornoed: the hub asks SEF for the storno.
    const accepted = docs.find((d) => d.number === 'PGA-0001');
    expect((await hub.service.sefCancel(a.shopId, accepted?.id ?? 0, 'Сторно', 'Јована')).state).toBe('storno');
  }, 60_000);
});
