/**
 * The goods at the hub with two real tills (whole cores, real SQLite, the sandbox gateway over HTTP) and a real hub
 * over HTTP, on both hub databases (docs/goods.md "At the hub"): a goods receipt posted at the hub, sales on both
 * tills and a refund move the shop's stock once; a re-push moves nothing; a till reads its shop's stock from the
 * hub; a transfer from shop A to shop B with a difference on receipt, printed as A4; and the KEP (JSON, CSV, PDF)
 * closes at Σ stock × retail price.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import type { CheckoutResult } from '../../shared/contract/sales.ts';
import type { OrderView } from '../../shared/domain.ts';
import type { ProductView } from '../../shared/contract/catalog.ts';
import type { HubKepView, HubStockView, HubTransfer } from '../../shared/hub/goods-protocol.ts';
import { ORDER_ROW_SNAPSHOT_JSON } from '../../electron/db/migrations/024_hub_extra_receipts.ts';
import { BACKENDS } from './backends.ts';
import { tillRig } from './till-rig.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { ok, until } from '../support/core-calls.ts';
import { awaitPulledManager } from '../support/host-process.ts';
import { bodyStart } from '../support/http.ts';

const ADMIN_TOKEN = 'kasa-test-admin-token-goods-0123456789';
const PRODUCTS = [
  { code: 'H1', name: 'Хлеб', pricePara: 8_000, label: 'A', unit: 'piece' as const },
  { code: 'M1', name: 'Млеко', pricePara: 15_000, label: 'A', unit: 'piece' as const },
];

describe.each(BACKENDS)('goods at the hub with two tills on $name', (backend) => {
  const rig = tillRig(backend, ADMIN_TOKEN);
  const hub = rig.hub;
  let shopA = 0;
  let shopB = 0;
  let t1: Core;
  let t2: Core;

  async function till(terminalId: string): Promise<Core> {
    const env: NodeJS.ProcessEnv = {
      KASA_ONLINE_BUDGET_MS: '3000',
      KASA_HUB_URL: hub.url,
      KASA_HUB_ENROL_CODE: await hub.service.newEnrolCode(shopA),
    };
    const { core, dir } = await rig.openTill(terminalId, { env });
    await until(() => core.db.prepare("SELECT 1 FROM hub_state WHERE key = 'till_id'").get() !== undefined);
    const managed =
      (await hub.db.query("SELECT 1 FROM staff WHERE shop_id = $1 AND role = 'manager' AND active", [shopA])).length >
      0;
    if (managed) await awaitPulledManager(dir);
    else await ok(core, 'staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    await ok(core, 'staff.login', { pin: MANAGER_PIN });
    // The shop's catalog pulled from the hub.
    await until(() => core.db.prepare("SELECT 1 FROM products WHERE code = 'M1'").get() !== undefined);
    return core;
  }
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await hub.admin(method, path, body);
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const stockOf = async (shopId: number): Promise<Record<string, number>> => {
    const s = await api<HubStockView>('GET', `/api/admin/goods/stock?shopId=${shopId}`);
    return Object.fromEntries(s.rows.map((r) => [r.code, r.qtyMilli]));
  };
  const sell = async (c: Core, code: string, quantity: number): Promise<CheckoutResult> => {
    const p = c.db
      .prepare<[string], { id: number; price_para: number }>('SELECT id, price_para FROM products WHERE code = ?')
      .get(code);
    if (!p) throw new Error(`no ${code}`);
    return ok<CheckoutResult>(c, 'sales.checkout', {
      lines: [{ name: code, quantity, unitPrice: p.price_para / 100, labels: ['A'], productId: p.id }],
      payments: [{ type: 'cash', amount: (p.price_para * quantity) / 100 }],
    });
  };
  /** The dairy's invoice F-1 into shop A as the hub's goods receipt takes it (one bread), `over` changing it. */
  const dairyInvoice = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
    shopId: shopA,
    supplier: 'Млекара',
    pib: '101134702',
    invoiceNumber: 'F-1',
    invoiceDate: '2026-11-20',
    lines: [{ code: 'H1', qtyMilli: 1_000, purchasePara: 5_000 }],
    ...over,
  });
  const pushed = (c: Core) => until(async () => (await ok<{ pending: number }>(c, 'hub.status')).pending === 0);

  beforeAll(async () => {
    shopA = rig.shopId;
    shopB = await hub.service.createShop('Продавница Б');
    await hub.service.upsertProducts(shopA, PRODUCTS);
    await hub.service.upsertProducts(shopB, [{ ...PRODUCTS[0], pricePara: 9_000 } as (typeof PRODUCTS)[number]]);
    t1 = await till('G1');
    t2 = await till('G2');
  }, 120_000);

  it('a receipt at the hub, sales on both tills and a refund move the shop stock once; a re-push moves nothing', async () => {
    const receipt = await api<{ number: string; valuePara: number }>(
      'POST',
      '/api/admin/goods/receipts',
      dairyInvoice({
        lines: [
          { code: 'H1', qtyMilli: 20_000, purchasePara: 5_000 },
          { code: 'M1', qtyMilli: 10_000, purchasePara: 10_000 },
        ],
      }),
    );
    expect(receipt.number).toMatch(/^1\/\d{4}$/);
    expect(receipt.valuePara).toBe(20 * 8_000 + 10 * 15_000);
    // The same supplier's invoice again is refused at its field, nothing posted.
    const again = await hub.admin('POST', '/api/admin/goods/receipts', dairyInvoice());
    expect(again.status).toBe(409);
    expect(((await again.json()) as { field: string }).field).toBe('invoiceNumber');
    // A wrong PIB check digit at `pib`.
    const badPib = await hub.admin(
      'POST',
      '/api/admin/goods/receipts',
      dairyInvoice({ pib: '101134701', invoiceNumber: 'F-2' }),
    );
    expect(badPib.status).toBe(400);
    expect(((await badPib.json()) as { field: string }).field).toBe('pib');

    const sale1 = await sell(t1, 'H1', 3);
    await sell(t2, 'H1', 2);
    await sell(t2, 'M1', 1);
    // A refund on till 1 of one bread of its sale.
    const refund = await ok<OrderView>(t1, 'refunds.create', {
      managerPin: MANAGER_PIN,
      orderId: sale1.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
      paymentType: 'cash',
    });
    expect(refund.state).toBe('fiscalized');
    await pushed(t1);
    // Another bread of it back at till 2, which finds till 1's sale through the hub: the hub knows the refunded
    // line by its product's code, so the bread goes back into the shop's stock (it did not, before the hub's
    // copy of a sale kept its lines' codes).
    const invoiceNumber = sale1.receipt?.invoiceNumber ?? '';
    const across = await ok<OrderView>(t2, 'refunds.create', {
      managerPin: MANAGER_PIN,
      invoiceNumber,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
      paymentType: 'cash',
    });
    expect(across.state).toBe('fiscalized');
    await pushed(t2);
    await until(async () => (await hub.db.query('SELECT 1 FROM hub_stock_sales')).length === 5);
    expect(await stockOf(shopA)).toEqual({ H1: 17_000, M1: 9_000 });

    // A re-push: each till queues every order of its own again (as at enrolment) and pushes them as new events.
    for (const c of [t1, t2]) {
      c.db.exec(`INSERT INTO hub_outbox (kind, ref, payload)
        SELECT 'order', order_number, ${ORDER_ROW_SNAPSHOT_JSON} FROM orders ORDER BY id`);
      await pushed(c);
    }
    const stored = await hub.db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM till_events WHERE kind = $1', [
      'order',
    ]);
    expect(stored[0]?.n).toBeGreaterThanOrEqual(10);
    expect(await stockOf(shopA)).toEqual({ H1: 17_000, M1: 9_000 });
    const moves = await hub.db.query<{ n: number }>(
      "SELECT count(*)::int8 AS n FROM hub_stock_movements WHERE shop_id = $1 AND kind IN ('sale', 'refund')",
      [shopA],
    );
    expect(moves[0]?.n).toBe(5);
    // The tills keep no second book of the sales beside the hub's: their own ledger moved nothing for them.
    for (const c of [t1, t2]) {
      const own = c.db.prepare("SELECT count(*) AS n FROM stock_movements WHERE source LIKE 'order:%'").get() as {
        n: number;
      };
      expect(own.n).toBe(0);
      expect(c.db.prepare('SELECT count(*) AS n FROM stock_sales').get()).toEqual({ n: 0 });
    }

    // The till reads its shop's stock through the hub.
    const seen = await ok<{ at: string; stock: { code: string; qtyMilli: number }[]; fromHub: boolean }>(
      t1,
      'goods.hubStock',
      { codes: ['H1', 'M1'] },
    );
    expect(seen.fromHub).toBe(true);
    expect(seen.stock).toEqual([
      { code: 'H1', qtyMilli: 17_000 },
      { code: 'M1', qtyMilli: 9_000 },
    ]);
    // The counter's search reads the shop's stock from the snapshot the sync keeps (no hub call per keystroke),
    // not the till's own book; the other till sees the same figures.
    const searched = async (c: Core, code: string): Promise<ProductView | undefined> =>
      (await ok<ProductView[]>(c, 'catalog.search', { query: code })).find((p) => p.code === code);
    for (const c of [t1, t2])
      await until(
        async () =>
          (await searched(c, 'H1'))?.onHandMilli === 17_000 && (await searched(c, 'M1'))?.onHandMilli === 9_000,
      );
    expect(await searched(t1, 'H1')).not.toHaveProperty('onHandAsOf');
    // The hub away: the last figures read, with the time the hub gave them.
    await hub.closeServer();
    try {
      const off = await ok<{ at: string; stock: unknown[]; fromHub: boolean }>(t1, 'goods.hubStock', {
        codes: ['H1', 'M1'],
      });
      // As of the hub's last answer: this read's, or a background refresh's after it (run 38 met one 27 ms later).
      expect(off).toEqual({ fromHub: false, hub: true, at: expect.any(String), stock: seen.stock });
      expect(Date.parse(off.at)).toBeGreaterThanOrEqual(Date.parse(seen.at));
      expect(Date.parse(off.at)).toBeLessThanOrEqual(Date.now());
      // The search says the figure is the last known, and since when.
      await until(async () => (await searched(t1, 'H1'))?.onHandAsOf !== undefined);
      const stale = await searched(t1, 'H1');
      expect(stale?.onHandMilli).toBe(17_000);
      expect(Date.parse(stale?.onHandAsOf ?? '')).toBeLessThanOrEqual(Date.now());
    } finally {
      await hub.reopenServer();
    }
  }, 120_000);

  it('a transfer from shop A to shop B, one short on receipt: the difference recorded, printed as A4', async () => {
    const sent = await api<HubTransfer>('POST', '/api/admin/goods/transfers', {
      shopId: shopA,
      toShopId: shopB,
      lines: [{ code: 'H1', qtyMilli: 5_000 }],
    });
    expect(await stockOf(shopA)).toMatchObject({ H1: 12_000 });
    const got = await api<HubTransfer>('POST', '/api/admin/goods/transfers/receive', {
      shopId: shopB,
      transferId: sent.id,
      received: [{ code: 'H1', qtyMilli: 4_000 }],
    });
    expect(got.lines).toEqual([{ code: 'H1', name: 'Хлеб', sentMilli: 5_000, receivedMilli: 4_000 }]);
    expect(got.receivedNumber).toMatch(/^1\//);
    // Received at shop B's own price (90.00).
    expect(await stockOf(shopB)).toEqual({ H1: 4_000 });
    const b = await api<HubStockView>('GET', `/api/admin/goods/stock?shopId=${shopB}`);
    expect(b.rows[0]?.retailValuePara).toBe(4 * 9_000);
    // Received once.
    const twice = await hub.admin('POST', '/api/admin/goods/transfers/receive', {
      shopId: shopB,
      transferId: sent.id,
      received: [],
    });
    expect(twice.status).toBe(409);
    const pdf = await hub.admin('GET', `/api/admin/goods/transfers/pdf?shopId=${shopA}&transferId=${sent.id}`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(await bodyStart(pdf, 5)).toBe('%PDF-');
    // The chain's value by shop (the admin token, no shop).
    const chain = await api<HubStockView>('GET', '/api/admin/goods/stock');
    expect(chain.byShop.map((s) => [s.shopId, s.retailValuePara])).toEqual([
      [shopA, 12 * 8_000 + 9 * 15_000],
      [shopB, 4 * 9_000],
    ]);
  }, 60_000);

  it('the KEP of each shop closes at Σ stock × retail price; CSV and A4 PDF', async () => {
    for (const shopId of [shopA, shopB]) {
      const kep = await api<HubKepView>(
        'GET',
        `/api/admin/goods/kep?shopId=${shopId}&from=2000-01-01&to=2100-12-31&lang=sr-Cyrl`,
      );
      expect(kep.closingPara).toBe(kep.stockValuePara);
    }
    const kep = await api<HubKepView>(
      'GET',
      `/api/admin/goods/kep?shopId=${shopA}&from=2000-01-01&to=2100-12-31&lang=sr-Cyrl`,
    );
    const descriptions = kep.entries.map((e) => e.description);
    expect(descriptions).toContain(
      'Пријемница бр. 1/2026, Млекара, рачун F-1'.replace('2026', kep.entries[0]?.day.slice(0, 4) ?? ''),
    );
    expect(descriptions.some((d) => d.startsWith('Промет по фискалним рачунима'))).toBe(true);
    expect(descriptions.some((d) => d.startsWith('Пренос бр. 1/'))).toBe(true);
    const csv = await hub.admin('GET', `/api/admin/goods/kep?shopId=${shopA}&from=2000-01-01&to=2100-12-31&format=csv`);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('Ред. бр.;Датум;Опис;Задужење;Раздужење;Салдо');
    const pdf = await hub.admin('GET', `/api/admin/goods/kep?shopId=${shopA}&from=2000-01-01&to=2100-12-31&format=pdf`);
    expect(await bodyStart(pdf, 5)).toBe('%PDF-');
  }, 60_000);
});
