/**
 * Issue 39, half A: a till speaks only for its own records. Each attack is made as a thief on the shop's LAN
 * would make it: with a real till credential (enrolled with a one-time code), over real HTTP to a hub server, on
 * PGlite and on a real PostgreSQL 15. Each is refused with a clear error and nothing changes at the hub.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startDayCloser } from '../../hub/report-days.ts';
import type { TillLive } from '../../hub/reports.ts';
import type { OrderSnapshot, ProductInput, TillStatus } from '../../shared/hub/protocol.ts';
import { HubClient } from '../../electron/hub-client/client.ts';
import { hashPin } from '../../shared/node/pin.ts';
import { BACKENDS } from './backends.ts';
import { refusal, serveHub } from './served-hub.ts';
import { hubEvent, saleSnapshot } from './snapshots.ts';

const ADMIN = 'trust-admin-token-0123456789abcdefghij';
const MANAGER_PIN = '246813';
const LABELS = ['А', 'Г', 'Ђ', 'Е'];
/** The hub's clock in these tests: the sales are of this morning. */
const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const DAY = { from: '2026-11-23T00:00:00.000Z', to: '2026-11-24T00:00:00.000Z' };

/** Real invoice numbers: requestedBy-signedBy-totalCounter (docs/hub.md). Till A signs as AAAA…, B as BBBB…. */
const SIGNER_A = 'AAAAAAAA-AAAAAAAA';
const SIGNER_B = 'BBBBBBBB-BBBBBBBB';

const sale = (n: string, invoice: string | null, totalPara = 24_000, extra: Partial<OrderSnapshot> = {}) => ({
  ...saleSnapshot(n, invoice, { totalPara, signedAt: '2026-11-23T08:00:01.000Z' }),
  ...extra,
});
const ev = hubEvent;
const status = (extra: Partial<TillStatus> = {}): TillStatus => ({
  queued: 0,
  needsAttention: 0,
  oldestQueuedAt: null,
  hubQueued: 0,
  taxLabels: LABELS,
  ...extra,
});

describe.each(BACKENDS)('a till speaks only for its own records, on $name', (backend) => {
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    service: { now: () => new Date(NOW) },
    defaultShop: true,
  });
  const admin = (method: string, path: string, body?: unknown): Promise<Response> => hub.admin(method, path, body);
  const tills = async (shopId: number): Promise<TillLive[]> =>
    ((await (await admin('GET', `/api/admin/tills?shopId=${shopId}`)).json()) as { tills: TillLive[] }).tills;
  /** A till enrolled as a real one is: a one-time code, its credential; its first push says its tax labels. */
  const till = async (shopId: number, name: string): Promise<{ client: HubClient; id: number; credential: string }> => {
    const r = await new HubClient({ baseUrl: hub.url }).enrol(await hub.service.newEnrolCode(shopId), name);
    const client = new HubClient({ baseUrl: hub.url, credential: r.credential });
    await client.push(r.tillId, [], status());
    return { client, id: r.tillId, credential: r.credential };
  };
  /** A shop with a manager (PIN known to the hub) and a catalog of two products. */
  const shopWithManager = async (name: string, products = true): Promise<number> => {
    const shop = await hub.service.createShop(name);
    await hub.service.upsertStaff(shop, [{ name: 'Менаџер', role: 'manager', pinHash: await hashPin(MANAGER_PIN) }]);
    if (products)
      await hub.service.upsertProducts(shop, [
        { code: 'P1', name: 'Хлеб', pricePara: 8_000, label: 'Ђ', unit: 'piece', barcodes: ['8600000000017'] },
        { code: 'P2', name: 'Млеко', pricePara: 14_000, label: 'Ђ', unit: 'l' },
      ]);
    return shop;
  };
  const hubProducts = async (shop: number) =>
    (await hub.service.productPage(shop, { limit: 200 })).products.map((p) => [p.code, p.pricePara, p.label]);
  const report = async (shop: number) =>
    (await (await admin('GET', `/api/admin/report?shopId=${shop}&from=${DAY.from}&to=${DAY.to}`)).json()) as {
      total: { sales: { count: number; totalPara: number }; refunds: { count: number; totalPara: number } };
    };

  it("refuses a till's catalog replacing the shop's without a hub manager's approval, and junk with it", async () => {
    const shop = await shopWithManager('Catalog shop');
    const thief = await till(shop, 'T1');
    const junk: ProductInput[] = Array.from({ length: 30_000 }, (_, i) => ({
      code: `J${i}`,
      name: `Junk ${i}`,
      pricePara: 1,
      label: i % 2 ? 'Z' : 'Ђ',
      unit: 'piece',
    }));
    const before = await hubProducts(shop);
    // The credential alone: refused, nothing changed.
    const raw = await fetch(`${hub.url}/api/till/catalog`, {
      method: 'POST',
      headers: { authorization: `Bearer ${thief.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify({ products: junk, replace: true }),
    });
    expect(raw.status).toBe(403);
    expect(await raw.json()).toMatchObject({ code: 'catalog_unapproved', field: 'approverPin' });
    // A guessed PIN: refused at the PIN, counted like every manager PIN the hub checks.
    const wrong = await refusal(thief.client.adoptCatalog(junk, true, '000000'));
    expect([wrong.status, wrong.code, wrong.field]).toEqual([401, 'pin_unknown', 'approverPin']);
    expect(await hubProducts(shop)).toEqual(before);
    // Even with the manager's PIN, each product passes the admin's checks: a label the shop's tills do not have …
    const label = await refusal(thief.client.adoptCatalog(junk.slice(0, 2), true, MANAGER_PIN));
    expect([label.status, label.code, label.field]).toEqual([400, 'label_not_current', 'products.1.label']);
    // … a price of zero, a barcode that is not 8–14 digits, another product's barcode.
    const zero = await refusal(
      thief.client.adoptCatalog(
        [{ code: 'Z1', name: 'Бесплатно', pricePara: 0, label: 'Ђ', unit: 'piece' }],
        true,
        MANAGER_PIN,
      ),
    );
    expect([zero.status, zero.code, zero.field]).toEqual([400, 'price_invalid', 'products.0.pricePara']);
    const code = await refusal(
      thief.client.adoptCatalog(
        [{ code: 'B1', name: 'Код', pricePara: 100, label: 'Ђ', unit: 'piece', barcodes: ['12'] }],
        false,
        MANAGER_PIN,
      ),
    );
    expect([code.status, code.code, code.field]).toEqual([400, 'barcode_invalid', 'products.0.barcodes']);
    expect(await hubProducts(shop)).toEqual(before);
    // Without `replace`, a shop with products keeps them (the manager chooses on the till).
    const offer = await thief.client.adoptCatalog(
      [{ code: 'X1', name: 'Туђ', pricePara: 1, label: 'Ђ', unit: 'piece' }],
      false,
      MANAGER_PIN,
    );
    expect(offer).toEqual({ adopted: false, hubProducts: 2 });
    expect(await hubProducts(shop)).toEqual(before);
  }, 120_000);

  it("refuses a claim of another till's next invoice number; the real sale is stored and the forger named", async () => {
    const shop = await shopWithManager('Invoice shop', false);
    const [a, thief, c] = [await till(shop, 'A'), await till(shop, 'B'), await till(shop, 'C')];
    expect(await a.client.push(a.id, [ev(1, sale('A-1', `${SIGNER_A}-100`))])).toMatchObject({ stored: 1 });
    expect(await thief.client.push(thief.id, [ev(1, sale('B-1', `${SIGNER_B}-7`))])).toMatchObject({ stored: 1 });
    // The thief takes till A's next number with a 0.01 "sale" before A's real sale reaches the hub.
    const forged = await thief.client.push(thief.id, [ev(2, sale('B-2', `${SIGNER_A}-101`, 1))]);
    expect(forged.refused).toMatchObject([
      { seq: 2, code: 'invoice_unproven', field: 'events.0.payload.invoice_number' },
    ]);
    // A's real sale is not refused: it holds its number.
    const real = await a.client.push(a.id, [ev(2, sale('A-2', `${SIGNER_A}-101`))]);
    expect(real.refused).toBeUndefined();
    // Refunds and copies on every till find the real sale, never the forgery.
    expect(await c.client.lookup({ invoiceNumber: `${SIGNER_A}-101` })).toMatchObject({
      tillId: a.id,
      order: { order_number: 'A-2', total_para: 24_000 },
    });
    expect(await c.client.lookup({ orderNumber: 'B-2' })).toBeNull();
    expect((await report(shop)).total.sales).toEqual({ count: 3, totalPara: 72_000 });
    // The alarm names the forger, with the till whose signer it used; the victim raises none.
    const live = await tills(shop);
    const of = (id: number) => live.find((t) => t.tillId === id);
    expect(of(thief.id)?.alarms).toContain('invoice_claimed');
    expect(of(thief.id)?.claims).toMatchObject([
      { seq: 2, orderNumber: 'B-2', invoiceNumber: `${SIGNER_A}-101`, holderTillId: a.id },
    ]);
    expect(of(a.id)?.alarms).not.toContain('invoice_claimed');
    // A replay of the forgery is answered the same.
    const again = await thief.client.push(thief.id, [ev(2, sale('B-2', `${SIGNER_A}-101`, 1))]);
    expect(again).toMatchObject({ duplicates: 1, refused: [{ seq: 2, code: 'invoice_unproven' }] });
  });

  it("does not count a never-fiscalized refund of another till's sale: the sale stays refundable, the report whole", async () => {
    const shop = await shopWithManager('Refund shop', false);
    const [a, thief, c] = [await till(shop, 'A'), await till(shop, 'B'), await till(shop, 'C')];
    const invoice = `${SIGNER_A}-300`;
    await a.client.push(a.id, [ev(1, sale('A-1', invoice))]);
    const refund = sale('B-R1', null, 24_000, {
      kind: 'refund_full',
      transaction_type: 'refund',
      state: 'queued',
    });
    refund.data = { ...refund.data, refundOf: { invoiceNumber: invoice, lines: [], full: true } };
    await thief.client.push(thief.id, [ev(1, refund)]);
    // Till C still finds the sale whole and may refund it.
    expect(await c.client.lookup({ invoiceNumber: invoice })).toMatchObject({ refunded: false, refunds: [] });
    expect(
      await c.client.refundHold({ invoiceNumber: invoice, holdId: '0123456789abcdef-0c1', full: true, lines: [] }),
    ).toMatchObject({ held: true });
    // The report keeps the sale and counts no refund.
    expect((await report(shop)).total.refunds.count).toBe(0);
    expect((await report(shop)).total.sales).toEqual({ count: 1, totalPara: 24_000 });
  });

  it('refuses a till time outside ISO 8601 with an offset in a sane window; the day closer keeps working', async () => {
    const shop = await shopWithManager('Time shop', false);
    const thief = await till(shop, 'T');
    for (const bad of ['infinity', '2200-01-01T00:00:00.000Z', '2026-11-23 08:00:00', '1999-01-01T00:00:00Z']) {
      const e = await refusal(thief.client.push(thief.id, [ev(1, sale('T-1', null, 100, { created_at: bad }))]));
      expect([e.status, e.code, e.field]).toEqual([400, 'invalid_time', 'events.0.payload.created_at']);
    }
    const sdc = await refusal(
      thief.client.push(thief.id, [ev(1, sale('T-1', `${SIGNER_B}-1`, 100, { sdc_date_time: 'infinity' }))]),
    );
    expect([sdc.status, sdc.field]).toEqual([400, 'events.0.payload.sdc_date_time']);
    expect(await hub.db.query('SELECT 1 FROM orders WHERE till_id = $1', [thief.id])).toEqual([]);
    // An offline till three weeks late, and a clock a few minutes ahead, are taken.
    const late = sale('T-2', null, 100, { created_at: '2026-11-02T08:00:00.000+01:00' });
    const ahead = sale('T-3', null, 100, { created_at: new Date(NOW + 5 * 60_000).toISOString() });
    expect(await thief.client.push(thief.id, [ev(1, late), ev(2, ahead)])).toMatchObject({ stored: 2 });
    // The day closer, the lookups and the reports go on.
    await expect(hub.service.closeDays(NOW)).resolves.toBeDefined();
    expect((await admin('GET', `/api/admin/report?shopId=${shop}&from=${DAY.from}&to=${DAY.to}`)).status).toBe(200);
  });

  it('raises an alarm when the day closer fails, instead of stopping silently', async () => {
    const lines: string[] = [];
    // A round over an order stored before the hub checked times (written straight into the table).
    const shop = await hub.service.createShop('Closer shop');
    const t = await till(shop, 'T');
    await hub.db.query(
      `INSERT INTO orders (till_id, order_number, shop_id, seq, kind, invoice_type, transaction_type, state, created_at,
         total_para, data) VALUES ($1, 'OLD-INF', $2, 99, 'sale', 'normal', 'sale', 'queued', 'infinity', 5, $3)`,
      [t.id, shop, JSON.stringify({ lines: [], payments: [] })],
    );
    try {
      const closer = startDayCloser(hub.db, 'Europe/Belgrade', 30 * 86_400_000, 60_000, (l) => lines.push(l));
      await closer.stop();
      expect(lines.join('\n')).toMatch(/day closer failed/);
      const health = (await (await fetch(`${hub.url}/api/health`)).json()) as { maintenance?: string };
      expect(health.maintenance).toBe('failing');
      const r = (await (await admin('GET', `/api/admin/tills?shopId=${shop}`)).json()) as {
        maintenance: { failing: boolean; error: string } | null;
      };
      expect(r.maintenance).toMatchObject({ failing: true });
    } finally {
      await hub.db.query("DELETE FROM orders WHERE order_number = 'OLD-INF'");
    }
    const closer = startDayCloser(hub.db, 'Europe/Belgrade', 30 * 86_400_000, 60_000, (l) => lines.push(l));
    await closer.stop();
    const after = (await (await admin('GET', `/api/admin/tills?shopId=${shop}`)).json()) as {
      maintenance: unknown;
    };
    expect(after.maintenance).toBeNull();
  });

  it("refuses a till renaming itself 'admin' or another till's name, and widening the shop's tax labels", async () => {
    const shop = await shopWithManager('Name shop', false);
    const [a, thief] = [await till(shop, 'Каса 1'), await till(shop, 'Каса 2')];
    for (const name of ['admin', 'ADMIN ', 'Каса 1']) {
      const r = await thief.client.push(thief.id, [], status({ name }));
      expect(r.statusRefused).toMatchObject({ field: 'status.name' });
    }
    expect((await tills(shop)).map((t) => t.name)).toEqual(['Каса 1', 'Каса 2']);
    // Enrolling under a reserved name is refused at the name; under a taken one the new till gets its id.
    const twin = await new HubClient({ baseUrl: hub.url }).enrol(await hub.service.newEnrolCode(shop), 'каса 1');
    expect((await tills(shop)).find((t) => t.tillId === twin.tillId)?.name).toBe(`каса 1 (#${twin.tillId})`);
    await hub.service.revokeTill(twin.tillId, shop);
    const taken = await refusal(
      new HubClient({ baseUrl: hub.url }).enrol(await hub.service.newEnrolCode(shop), 'admin'),
    );
    expect([taken.status, taken.code, taken.field]).toEqual([400, 'till_name_reserved', 'name']);
    // The audit names a till by its id and name.
    const person = { id: crypto.randomUUID(), name: 'Нови', role: 'manager', pin_hash: 'scrypt$00$00', active: 1 };
    expect((await a.client.push(a.id, [ev(1, person, 'staff')])).refused).toMatchObject([{ code: 'staff_unapproved' }]);
    // A status with one more label does not widen the shop's labels.
    await thief.client.push(thief.id, [], status({ taxLabels: [...LABELS, 'Z'] }));
    const groups = (await (await admin('GET', `/api/admin/products/groups?shopId=${shop}`)).json()) as {
      labels: string[];
    };
    expect(groups.labels).toEqual([...LABELS].sort());
    const put = await admin('PUT', '/api/admin/products', {
      shopId: shop,
      products: [{ code: 'Z', name: 'Z', pricePara: 100, label: 'Z', unit: 'piece' }],
    });
    expect([put.status, ((await put.json()) as { code: string }).code]).toEqual([400, 'label_not_current']);
    // Nor does a status with no labels at all let every label through.
    await thief.client.push(thief.id, [], status({ taxLabels: ['Q'] }));
    const put2 = await admin('PUT', '/api/admin/products', {
      shopId: shop,
      products: [{ code: 'Z', name: 'Z', pricePara: 100, label: 'Z', unit: 'piece' }],
    });
    expect(put2.status).toBe(400);
    const audit = (await (await admin('GET', `/api/admin/audit?shopId=${shop}`)).json()) as {
      entries: { actor: string; action: string }[];
    };
    expect(audit.entries.some((e) => e.actor === `Каса 1 (#${a.id})`)).toBe(true);
    expect(audit.entries.every((e) => e.actor !== 'admin')).toBe(true);
  });
});
