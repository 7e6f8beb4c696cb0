/**
 * The SEF outbox through whole tills (real SQLite files, real HTTP to a fake SEF built from the API's shapes):
 * exactly one document at SEF per e-invoice through lost answers, a till that dies between send and record, and
 * duplicate sends; SEF's refusals kept with its errors for the manager; the final states polled (docs/sef.md).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { OrderStore } from '../../electron/orders/store.ts';
import { SefClient } from '../../shared/node/sef-client.ts';
import { startFakeSef, type FakeSef } from '../../electron/sef/fake-sef.ts';
import { SefService, SEF_POLL_MS } from '../../electron/sef/service.ts';
import type { SefDocumentView } from '../../shared/contract/sef.ts';
import type { OrderView } from '../../shared/domain.ts';
import { makeRefund, BREAD_AND_MILK, closeCores, ok, fails, MANAGER_PIN, startCore } from '../support/session.ts';
import { until } from '../support/core-calls.ts';
import { HAVE_XMLLINT, ublProblems } from './xsd.ts';
import { SELLER } from './seller.ts';

const SEND = 'POST /api/publicApi/sales-invoice/ubl';
const BUSINESS = '10:101134702';

let clock = Date.parse('2026-11-28T10:00:00Z');
const now = () => clock;
const fakes: FakeSef[] = [];

afterEach(async () => {
  await closeCores();
  for (const f of fakes.splice(0)) await f.close();
});

async function sale(c: Core, buyerId = BUSINESS): Promise<OrderView> {
  const r = await ok<{ orderId: number; state: string }>(c, 'sales.checkout', { ...BREAD_AND_MILK, buyerId });
  expect(r.state).toBe('fiscalized');
  return ok<OrderView>(c, 'orders.get', { orderId: r.orderId });
}

const listed = async (c: Core) => (await ok<{ documents: SefDocumentView[] }>(c, 'sef.list', {})).documents;

/** A till in demo mode: its embedded fake SEF (the buyer approves on the next status read). */
async function demoTill(): Promise<{ c: Core; fake: FakeSef }> {
  const c = await startCore({ now });
  const fake = c.sef.link.fake();
  if (!fake) throw new Error('no embedded fake SEF in demo mode');
  return { c, fake };
}

describe('the SEF outbox', () => {
  it("sends a business sale's e-invoice once, polls it to accepted, and a second issue is the same document", async () => {
    const { c, fake } = await demoTill();
    const order = await sale(c);
    const first = await ok<SefDocumentView>(c, 'sef.issue', { orderId: order.orderId });
    expect(first).toMatchObject({ kind: 'invoice', state: 'queued', number: order.orderNumber, buyerId: BUSINESS });
    const again = await ok<SefDocumentView>(c, 'sef.issue', { orderId: order.orderId });
    expect(again.id).toBe(first.id);

    await c.sef.outbox.pass();
    let [d] = await listed(c);
    expect(d).toMatchObject({ state: 'sent', buyerName: 'Купац д.о.о.', inDoubt: false, attempts: 1 });
    const atSef = fake.controls.documents();
    expect(atSef).toHaveLength(1);
    expect(atSef[0]?.number).toBe(order.orderNumber);
    // The document SEF holds references the fiscal receipt and is valid UBL 2.1.
    expect(atSef[0]?.xml).toContain(order.receipt?.invoiceNumber);
    if (HAVE_XMLLINT) expect(ublProblems(atSef[0]?.xml ?? '')).toBe('');

    clock += SEF_POLL_MS;
    await c.sef.outbox.pass();
    [d] = await listed(c);
    expect(d?.state).toBe('accepted');
    expect(fake.controls.stats()[SEND]).toBe(1);
    // Nothing more is sent or asked for a document in its final state.
    clock += 10 * SEF_POLL_MS;
    await c.sef.outbox.pass();
    expect(fake.controls.stats()[SEND]).toBe(1);
    expect(
      (await ok<{ document: SefDocumentView | null; offer: boolean }>(c, 'sef.forOrder', { orderId: order.orderId }))
        .offer,
    ).toBe(false);
  }, 60_000);

  it('after a lost answer looks the request up and never sends the document twice', async () => {
    const { c, fake } = await demoTill();
    const order = await sale(c);
    fake.controls.setFaults([{ match: SEND, action: 'drop_after', times: 1 }]);
    await ok(c, 'sef.issue', { orderId: order.orderId });
    await c.sef.outbox.pass();
    let [d] = await listed(c);
    expect(d).toMatchObject({ state: 'queued', inDoubt: true, attempts: 1 });
    expect(fake.controls.documents()).toHaveLength(1); // SEF made it; the answer was lost

    clock += 20 * 60_000;
    await c.sef.outbox.pass();
    [d] = await listed(c);
    expect(d).toMatchObject({ state: 'sent', inDoubt: false, sefInvoiceId: fake.controls.documents()[0]?.invoiceId });
    expect(fake.controls.stats()[SEND]).toBe(1);
    expect(fake.controls.documents()).toHaveLength(1);
  }, 60_000);

  it('a till that dies between send and record: the next till on the same database looks up, sends once', async () => {
    const fake = await startFakeSef({ apiKey: 'sef-test-key-0001' });
    fakes.push(fake);
    const c = await startCore({
      now,
      env: { KASA_SEF_API_KEY: 'sef-test-key-0001', KASA_SEF_URL: fake.url },
    });
    // A keyed till without the shop's own data is refused at the seller's PIB, nothing saved.
    const early = await sale(c);
    expect(await fails(c, 'sef.issue', { orderId: early.orderId })).toMatchObject({
      code: 'invalid_input',
      field: 'seller.pib',
    });
    await ok(c, 'sef.saveSettings', {
      environment: 'demo',
      autoIssue: false,
      sendToCir: false,
      seller: SELLER,
    });
    const order = await sale(c);
    // The send leaves and never comes back: the till "dies" with its attempt recorded and no answer.
    fake.controls.setFaults([{ match: SEND, action: 'hang', times: 1 }]);
    await ok(c, 'sef.issue', { orderId: order.orderId });
    const dying = c.sef.outbox.pass();
    await until(() => fake.controls.stats()[SEND] === 1);
    const row = () =>
      c.db.prepare<[], { state: string; in_doubt: number }>('SELECT state, in_doubt FROM sef_documents').get();
    expect(row()).toEqual({ state: 'queued', in_doubt: 1 });

    // What a restarted till builds over the same database file.
    const restarted = new SefService({
      db: c.db,
      store: new OrderStore(c.db),
      taxLabels: () => [],
      settings: () => c.sef.link.view(),
      client: () => new SefClient({ baseUrl: fake.url, apiKey: 'sef-test-key-0001' }),
      now,
      audit: () => {},
      log: () => {},
    });
    clock += 60_000;
    await restarted.pump();
    expect(row()).toEqual({ state: 'sent', in_doubt: 0 });
    expect(fake.controls.stats()['GET /api/publicApi/sales-invoice/requestId/' + requestIdOf(c)]).toBe(1);
    expect(fake.controls.documents()).toHaveLength(1);

    // The dead till's request ends at last (its connection reset): it changes nothing.
    fake.controls.releaseHung();
    await dying;
    expect(row()).toEqual({ state: 'sent', in_doubt: 0 });
    const [d] = await listed(c);
    expect(d?.lastError).toBeUndefined();
    expect(fake.controls.documents()).toHaveLength(1);
  }, 60_000);

  it('duplicate sends make one document at SEF: the same requestId returns the first, the same number is refused', async () => {
    const { c, fake } = await demoTill();
    const order = await sale(c);
    await ok(c, 'sef.issue', { orderId: order.orderId });
    await c.sef.outbox.pass();
    const stored = c.db
      .prepare<[], { xml: string; request_id: string }>('SELECT xml, request_id FROM sef_documents')
      .get() as { xml: string; request_id: string };
    const client = new SefClient({ baseUrl: fake.url, apiKey: fake.apiKey });
    const replies = await Promise.all([1, 2, 3].map(() => client.send(stored.xml, stored.request_id, false)));
    expect(new Set(replies.map((r) => r.InvoiceId)).size).toBe(1);
    await expect(client.send(stored.xml, 'another-request-id', false)).rejects.toMatchObject({ kind: 'refused' });
    expect(fake.controls.documents()).toHaveLength(1);
  }, 60_000);

  it("keeps SEF's refusal with its errors for the manager; a retry is a new request under the same number", async () => {
    const { c, fake } = await demoTill();
    // A public-funds buyer whose JBKJS SEF does not know for that PIB.
    const order = await sale(c, '12:100002532:99999');
    const issued = await ok<SefDocumentView>(c, 'sef.issue', { orderId: order.orderId });
    await c.sef.outbox.pass();
    let [d] = await listed(c);
    expect(d?.state).toBe('refused');
    expect(d?.lastError?.fields).toEqual([
      { field: 'PartyIdentification', message: 'JBKJS:99999 ne pripada PIB-u 100002532' },
    ]);
    expect(fake.controls.documents()).toHaveLength(0);
    const before = c.db.prepare<[], { request_id: string }>('SELECT request_id FROM sef_documents').get();

    // SEF learns the buyer's JBKJS (the register was wrong): the manager sends it again.
    fake.controls.addCompany({ VatRegistrationCode: '100002532', Name: 'Дом здравља', BugetCompanyNumber: '99999' });
    d = await ok<SefDocumentView>(c, 'sef.retry', { id: issued.id });
    expect(d.state).toBe('queued');
    const after = c.db.prepare<[], { request_id: string }>('SELECT request_id FROM sef_documents').get();
    expect(after?.request_id).not.toBe(before?.request_id);
    await c.sef.outbox.pass();
    [d] = await listed(c);
    expect(d).toMatchObject({ state: 'sent', number: order.orderNumber });
    expect(fake.controls.documents()[0]?.xml).toContain('<cbc:ID>JBKJS:99999</cbc:ID>');
    // A document SEF has is not sent again.
    expect(await fails(c, 'sef.retry', { id: issued.id })).toMatchObject({
      code: 'conflict',
      message: 'Ова е-фактура је већ на СЕФ-у: не шаље се поново.',
    });
  }, 60_000);

  it('a buyer not registered on SEF is refused before anything is sent; the buyer rejects; cancel and storno', async () => {
    const { c, fake } = await demoTill();
    fake.controls.setAutoDecision(null);
    const unknown = await sale(c, '10:100002524');
    await ok(c, 'sef.issue', { orderId: unknown.orderId });
    const rejected = await sale(c);
    const r = await ok<SefDocumentView>(c, 'sef.issue', { orderId: rejected.orderId });
    const accepted = await sale(c);
    const a = await ok<SefDocumentView>(c, 'sef.issue', { orderId: accepted.orderId });
    await c.sef.outbox.pass();
    const byOrder = async (orderId: number) => (await listed(c)).find((x) => x.orderId === orderId);
    expect(await byOrder(unknown.orderId)).toMatchObject({
      state: 'refused',
      lastError: { code: 'KASA_BUYER_NOT_ON_SEF' },
    });
    expect(fake.controls.documents()).toHaveLength(2);

    const [dr, da] = fake.controls.documents();
    fake.controls.decide(dr?.invoiceId ?? 0, 'Rejected', 'Погрешна количина');
    fake.controls.decide(da?.invoiceId ?? 0, 'Approved');
    clock += SEF_POLL_MS;
    await c.sef.outbox.pass();
    expect(await byOrder(rejected.orderId)).toMatchObject({ state: 'rejected', sefComment: 'Погрешна количина' });
    expect(await byOrder(accepted.orderId)).toMatchObject({ state: 'accepted' });

    // A rejected document cannot be cancelled; an accepted one is stornoed at SEF.
    expect(await fails(c, 'sef.cancel', { id: r.id, comment: 'грешка' })).toMatchObject({ code: 'conflict' });
    const s = await ok<SefDocumentView>(c, 'sef.cancel', { id: a.id, comment: 'Повраћај робе' });
    expect(s.state).toBe('storno');
    expect(fake.controls.documents()[1]?.status).toBe('Storno');
    const audit = await ok<{ entries: { action: string }[] }>(c, 'audit.list', { managerPin: MANAGER_PIN });
    expect(audit.entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(['sef.issue', 'sef.refused', 'sef.final', 'sef.storno']),
    );
  }, 60_000);

  it("an advance's e-invoice is 386, a refund's is a credit note naming the sale's e-invoice: valid UBL 2.1 at SEF", async () => {
    const { c, fake } = await demoTill();
    const adv = await ok<{ orderId: number; state: string }>(c, 'sales.checkout', {
      ...BREAD_AND_MILK,
      invoiceType: 'advance',
      buyerId: BUSINESS,
    });
    expect(adv.state).toBe('fiscalized');
    expect(await ok<SefDocumentView>(c, 'sef.issue', { orderId: adv.orderId })).toMatchObject({ kind: 'advance' });
    const order = await sale(c);
    await ok(c, 'sef.issue', { orderId: order.orderId });
    await c.sef.outbox.pass();
    const refund = await makeRefund(c, {
      orderId: order.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: BUSINESS,
    });
    const credit = await ok<SefDocumentView>(c, 'sef.issue', { orderId: refund.orderId });
    expect(credit.kind).toBe('credit_note');
    await c.sef.outbox.pass();
    const docs = fake.controls.documents();
    expect(docs.map((d) => d.typeCode)).toEqual(['386', '380', '381']);
    expect(docs[2]?.xml).toContain(`<cac:InvoiceDocumentReference><cbc:ID>${order.orderNumber}</cbc:ID>`);
    if (HAVE_XMLLINT) for (const d of docs) expect(ublProblems(d.xml)).toBe('');

    // A refund of a sale that has no e-invoice has nothing to correct: refused at its field, nothing saved.
    const plain = await sale(c);
    const orphan = await makeRefund(c, {
      orderId: plain.orderId,
      full: true,
      buyerId: BUSINESS,
    });
    await refusedAtOrder(
      c,
      orphan.orderId,
      'Књижно одобрење тражи е-фактуру продаје коју исправља, а она не постоји на СЕФ-у.',
      3,
    );
  }, 60_000);

  it('refuses at its field, saving nothing: a private buyer, an unfiscalized order', async () => {
    const { c } = await demoTill();
    const privatePerson = await sale(c, '20:008123456');
    await refusedAtOrder(
      c,
      privatePerson.orderId,
      'Е-фактура се издаје само купцу са ПИБ-ом (10:) или кориснику јавних средстава (12:).',
      0,
    );
  }, 60_000);
});

/**
 * Asks for the e-invoice of the order `orderId` and expects it refused at the order with `message`, nothing saved:
 * the e-invoices kept are still `documents`.
 */
async function refusedAtOrder(c: Core, orderId: number, message: string, documents: number): Promise<void> {
  expect(await fails(c, 'sef.issue', { orderId })).toMatchObject({ code: 'invalid_input', field: 'orderId', message });
  expect(c.db.prepare('SELECT count(*) AS n FROM sef_documents').get()).toEqual({ n: documents });
}

function requestIdOf(c: Core): string {
  return (
    c.db.prepare<[], { request_id: string }>('SELECT request_id FROM sef_documents').get() as { request_id: string }
  ).request_id;
}
