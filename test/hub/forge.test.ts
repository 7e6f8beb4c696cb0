/**
 * Nothing a till can forge (#25), on PGlite and on a real PostgreSQL 15, through the hub's HTTP API as a
 * till and a manager use it: an invoice number belongs to one order of a shop (a second claimant is refused
 * and raises an alarm; two claimants at the same moment get one winner, by the database's unique index);
 * a pushed order is parsed with the till's order shape (400 naming the field, reports stay 200); text
 * PostgreSQL cannot store (a NUL, a lone surrogate) is 400, never 503; a refused batch is an alarm at the hub.
 */
import { describe, expect, it } from 'vitest';
import type { TillLive } from '../../hub/reports.ts';
import type { OrderSnapshot } from '../../shared/hub/protocol.ts';
import { HubClient } from '../../electron/hub-client/client.ts';
import { BACKENDS } from './backends.ts';
import { refusal, serveHub } from './served-hub.ts';
import { hubEvent, saleSnapshot } from './snapshots.ts';

const ADMIN = 'forge-admin-token-0123456789abcdefgh';
const DAY = { from: '2026-11-23T00:00:00.000Z', to: '2026-11-24T00:00:00.000Z' };

/** A sale of 3 × 80.00 (a 240.00 bread, label A). */
const sale = (n: string, invoice: string | null, extra: Partial<OrderSnapshot> = {}): OrderSnapshot => ({
  ...saleSnapshot(n, invoice, { quantityMilli: 3000, label: 'A', signedAt: '2026-11-23T08:00:01.000Z' }),
  ...extra,
});
/** Till 2's forgery of an invoice number: a 999,999.00 "TV". */
const forged = (n: string, invoice: string): OrderSnapshot =>
  saleSnapshot(n, invoice, { totalPara: 99_999_900, name: 'TV', label: 'A', signedAt: '2026-11-23T08:00:01.000Z' });
const ev = hubEvent;

describe.each(BACKENDS)('nothing a till can forge, on $name', (backend) => {
  const hub = serveHub(backend, { adminToken: ADMIN, defaultShop: true });
  const admin = (method: string, path: string, body?: unknown): Promise<Response> => hub.admin(method, path, body);

  const tills = async (shopId: number): Promise<TillLive[]> =>
    ((await (await admin('GET', `/api/admin/tills?shopId=${shopId}`)).json()) as { tills: TillLive[] }).tills;
  const till = async (shopId: number, name: string): Promise<{ client: HubClient; id: number }> => {
    const r = await new HubClient({ baseUrl: hub.url }).enrol(await hub.service.newEnrolCode(shopId), name);
    return { client: new HubClient({ baseUrl: hub.url, credential: r.credential }), id: r.tillId };
  };
  const report = (shopId: number): Promise<Response> =>
    admin('GET', `/api/admin/report?shopId=${shopId}&from=${DAY.from}&to=${DAY.to}`);

  it("refuses an order under another till's invoice number, raises an alarm, and lookups return the real sale", async () => {
    const shop = await hub.service.createShop('Forge shop');
    const [t1, t2, t3] = [await till(shop, 'T1'), await till(shop, 'T2'), await till(shop, 'T3')];
    expect(await t1.client.push(t1.id, [ev(1, sale('T1-1', 'INV-F-1'))])).toMatchObject({ acked: 1, stored: 1 });
    // Till 2 claims the number with a 999,999.00 TV: the event is acknowledged (its history goes on) but
    // its order is not stored, and the answer says so, naming the field.
    const r = await t2.client.push(t2.id, [ev(1, sale('T2-1', 'INV-F-2')), ev(2, forged('T2-2', 'INV-F-1'))]);
    expect(r).toMatchObject({
      acked: 2,
      stored: 2,
      refused: [{ seq: 2, code: 'invoice_claimed', field: 'events.1.payload.invoice_number' }],
    });
    // A replay (the answer was lost) is answered with the same refusal.
    const again = await t2.client.push(t2.id, [ev(2, forged('T2-2', 'INV-F-1'))]);
    expect(again).toMatchObject({ duplicates: 1, refused: [{ seq: 2, code: 'invoice_claimed' }] });
    // A third till finds till 1's sale, never the TV.
    const found = await t3.client.lookup({ invoiceNumber: 'INV-F-1' });
    expect(found).toMatchObject({ tillId: t1.id, order: { order_number: 'T1-1', total_para: 24_000 } });
    expect(await t3.client.lookup({ orderNumber: 'T2-2' })).toBeNull();
    // The report counts till 1's sale and till 2's own, not the forgery.
    const rep = (await (await report(shop)).json()) as { total: { sales: { count: number; totalPara: number } } };
    expect(rep.total.sales).toEqual({ count: 2, totalPara: 48_000 });
    // Till 2 raises the alarm, with the order that holds the number; till 1 does not.
    const live = await tills(shop);
    const of = (id: number) => live.find((t) => t.tillId === id);
    expect(of(t2.id)?.alarms).toContain('invoice_claimed');
    expect(of(t2.id)?.claims).toMatchObject([
      { seq: 2, orderNumber: 'T2-2', invoiceNumber: 'INV-F-1', holderTillId: t1.id, holderOrderNumber: 'T1-1' },
    ]);
    expect(of(t1.id)?.alarms).not.toContain('invoice_claimed');
    // Even a later fiscalization of till 2's order under that number is kept out.
    await t2.client.push(t2.id, [ev(3, sale('T2-1', 'INV-F-1'))]);
    expect((await t3.client.lookup({ invoiceNumber: 'INV-F-1' }))?.tillId).toBe(t1.id);
    // A manager clears the alarm once they have looked.
    const cleared = await admin('POST', '/api/admin/invoice-claims/clear', { tillId: t2.id });
    expect(await cleared.json()).toEqual({ cleared: 2 });
    expect((await tills(shop)).find((t) => t.tillId === t2.id)?.alarms).not.toContain('invoice_claimed');
  });

  it('two tills claiming one invoice number at the same moment: the database gives it to one', async () => {
    const shop = await hub.service.createShop('Race shop');
    const racers = await Promise.all(Array.from({ length: 6 }, (_, i) => till(shop, `Race ${i}`)));
    for (let round = 0; round < 5; round++) {
      const invoice = `INV-RACE-${round}`;
      const answers = await Promise.all(
        racers.map((t, i) => t.client.push(t.id, [ev(round + 1, sale(`R${i}-${round}`, invoice))])),
      );
      expect(answers.filter((a) => !a.refused).length).toBe(1);
      expect(answers.filter((a) => a.refused?.[0]?.code === 'invoice_claimed').length).toBe(racers.length - 1);
      const held = await hub.db.query('SELECT 1 FROM orders WHERE shop_id = $1 AND invoice_number = $2', [
        shop,
        invoice,
      ]);
      expect(held.length).toBe(1);
    }
  });

  it('parses a pushed order with the till order shape: 400 naming the field, an alarm, reports stay 200', async () => {
    const shop = await hub.service.createShop('Malformed shop');
    const t = await till(shop, 'M1');
    await t.client.push(t.id, [ev(1, sale('M1-1', 'INV-M-1'))]);
    const noLabels = sale('M1-2', 'INV-M-2');
    noLabels.data = {
      ...noLabels.data,
      lines: [{ name: 'X', quantityMilli: 1000, unitPricePara: 100, totalPara: 100 }] as never,
    };
    const e = await refusal(t.client.push(t.id, [ev(2, sale('M1-3', null)), ev(3, noLabels)]));
    expect([e.status, e.code, e.field]).toEqual([400, 'invalid_order', 'events.1.payload.data.lines.0.labels']);
    const badReceipt = { ...sale('M1-4', 'INV-M-4'), receipt: { taxItems: 5 } };
    const e2 = await refusal(t.client.push(t.id, [ev(2, badReceipt)]));
    expect([e2.status, e2.field]).toEqual([400, 'events.0.payload.receipt.taxItems']);
    const badKind = { ...sale('M1-5', null), kind: 'gift' };
    expect((await refusal(t.client.push(t.id, [ev(2, badKind)]))).field).toBe('events.0.payload.kind');
    // Nothing of the refused batches is stored; the till is alarmed with what was refused.
    expect(await hub.db.query('SELECT seq FROM till_events WHERE till_id = $1', [t.id])).toEqual([{ seq: 1 }]);
    const live = (await tills(shop))[0];
    expect(live?.alarms).toContain('batch_refused');
    expect(live?.refusal).toMatchObject({ status: 400, code: 'invalid_order', field: 'events.0.payload.kind' });
    // An order stored before the hub checked pushes (here written straight into the table) never breaks a
    // report: it is left out and counted.
    await hub.db.query(
      `INSERT INTO orders (till_id, order_number, shop_id, seq, kind, invoice_type, transaction_type, state, created_at,
         total_para, data) VALUES ($1, 'OLD-1', $2, 99, 'sale', 'normal', 'sale', 'fiscalized', '2026-11-23T09:00:00.000Z', 5, $3)`,
      [t.id, shop, JSON.stringify({ lines: [{ name: 'X', totalPara: 5 }], payments: [] })],
    );
    const shopReport = await report(shop);
    expect(shopReport.status).toBe(200);
    expect(await shopReport.json()).toMatchObject({ unreadable: 1, total: { sales: { count: 1, totalPara: 24_000 } } });
    const chain = await admin('GET', `/api/admin/report?from=${DAY.from}&to=${DAY.to}`);
    expect(chain.status).toBe(200);
    expect(await chain.json()).toMatchObject({ unreadable: 1 });
    expect(
      (await admin('GET', `/api/admin/report?shopId=${shop}&from=${DAY.from}&to=${DAY.to}&format=csv`)).status,
    ).toBe(200);
    // The till's next batch that the hub takes ends the alarm.
    await t.client.push(t.id, [ev(2, sale('M1-2', 'INV-M-2'))]);
    expect((await tills(shop))[0]?.alarms).not.toContain('batch_refused');
  });

  it('text PostgreSQL cannot store (a NUL, a lone surrogate) is 400 naming the field, never 503', async () => {
    const shop = await hub.service.createShop('NUL shop');
    const t = await till(shop, 'N1');
    const withName = (name: string) => {
      const o = sale('N1-1', null);
      o.data.lines = [{ ...o.data.lines[0]!, name }];
      return o;
    };
    for (const name of ['Хл\u0000еб', 'Хл\uD800еб', 'Хл\uDC00еб']) {
      const e = await refusal(t.client.push(t.id, [ev(1, withName(name))]));
      expect([e.status, e.code, e.field]).toEqual([400, 'invalid_text', 'events.0.payload.data.lines.0.name']);
    }
    // In an audit entry (stored as it came), in a key, in a lookup, in a manager's input, in a query string.
    const audit = await refusal(t.client.push(t.id, [ev(1, { at: 'x', actor: 'a\u0000', action: 'y' }, 'audit')]));
    expect([audit.status, audit.field]).toEqual([400, 'events.0.payload.actor']);
    const key = await refusal(t.client.push(t.id, [ev(1, { ['k\u0000']: 1 }, 'audit')]));
    expect([key.status, key.field]).toEqual([400, 'events.0.payload']);
    expect((await refusal(t.client.lookup({ invoiceNumber: 'INV\u0000' }))).status).toBe(400);
    const products = await admin('PUT', '/api/admin/products', {
      shopId: shop,
      products: [{ code: 'N', name: 'a\u0000b', pricePara: 1, label: 'A', unit: 'piece' }],
    });
    expect([products.status, ((await products.json()) as { field?: string }).field]).toEqual([400, 'products.0.name']);
    expect((await admin('GET', `/api/admin/report?shopId=${shop}&from=2026-11-23%00`)).status).toBe(400);
    expect(await hub.db.query('SELECT 1 FROM till_events WHERE till_id = $1', [t.id])).toEqual([]);
    expect((await tills(shop))[0]?.refusal).toMatchObject({ code: 'invalid_text' });
    // The hub still works for the till afterwards.
    expect(await t.client.push(t.id, [ev(1, sale('N1-1', null))])).toMatchObject({ acked: 1, stored: 1 });
  });

  it('a shift time that is not ISO 8601 with an offset is 400 naming the field; a good one is stored as the instant', async () => {
    const shop = await hub.service.createShop('Shift times');
    const t = await till(shop, 'S1');
    const shift = (openedAt: string) => ({
      id: 1,
      cashier: 'Ана',
      opened_at: openedAt,
      opening_float_para: 0,
      closed_at: null,
      closed_by: null,
      expected_para: null,
      counted_para: null,
      cash_in_para: 0,
      cash_out_para: 0,
      counted_detail: null,
    });
    for (const bad of ['2026-11-25 08:00:00', 'јутрос', '2026-13-40T08:00:00Z']) {
      const e = await refusal(t.client.push(t.id, [ev(1, shift(bad), 'shift')]));
      expect([e.status, e.field]).toEqual([400, 'events.0.payload.opened_at']);
    }
    await t.client.push(t.id, [ev(1, shift('2026-11-25T09:00:00+01:00'), 'shift')]);
    expect(await hub.db.query('SELECT opened_at FROM shifts WHERE till_id = $1', [t.id])).toEqual([
      { opened_at: '2026-11-25T08:00:00.000Z' },
    ]);
  });
});
