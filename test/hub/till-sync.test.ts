/**
 * Tills (whole cores, createCore → dispatch, real SQLite files) syncing with a real hub over HTTP, on both
 * hub databases: every sale reaches the hub once, a sale of till 1 is refunded at till 2 while the
 * internet (the gateway) is down and only the LAN (the hub) is up, a cashier created on till 1 logs in on
 * till 2, a hub price change reaches the tills, a cart parked on one till is taken on another through the
 * hub (exactly once, also when two tills take it at the same time), and a till without a hub writes nothing for one.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import type { OrderView, SyncStatus } from '../../shared/domain.ts';
import type { CheckoutResult } from '../../shared/contract/sales.ts';
import { startLpfrSandbox } from '../support/lpfr-sandbox/server.ts';
import type { ParkedSaleSummary, ParkedSaleView, RemoteParkedSale } from '../../shared/contract/catalog.ts';
import { BACKENDS } from './backends.ts';
import { tillRig } from './till-rig.ts';
import { makeRefund, tryRefund, makeCopy, BREAD_AND_MILK, MANAGER_PIN } from '../support/session.ts';
import { ok, until } from '../support/core-calls.ts';
import { awaitPulledManager } from '../support/host-process.ts';

const ADMIN_TOKEN = 'kasa-test-admin-token-0123456789abcdef';

describe.each(BACKENDS)('tills and the hub on $name', (backend) => {
  const rig = tillRig(backend, ADMIN_TOKEN);
  const hubRig = rig.hub;

  async function till(
    terminalId: string,
    hub: boolean,
    extra: { env?: NodeJS.ProcessEnv; engine?: Record<string, number> } = {},
  ): Promise<Core> {
    const env: NodeJS.ProcessEnv = { KASA_ONLINE_BUDGET_MS: '3000', ...extra.env };
    if (hub) {
      env.KASA_HUB_URL = hubRig.url;
      env.KASA_HUB_ENROL_CODE = await hubRig.service.newEnrolCode(rig.shopId);
    }
    const { core, dir } = await rig.openTill(terminalId, { env, engine: extra.engine });
    // Enrolled first (its first-run manager on 0000 is nobody at the hub, so nothing waits for a staff choice).
    if (hub) await until(() => core.db.prepare("SELECT 1 FROM hub_state WHERE key = 'till_id'").get() !== undefined);
    // The first till of the shop sets its first-run manager's PIN, and the shop adopts that manager. A later till
    // takes the shop's manager by pull instead: its own first-run manager setting a PIN would be a new person the
    // hub offers for a staff choice, and pulls would wait for it (docs/hub.md, "A first PIN after enrolment").
    const managed = hub
      ? (await hubRig.db.query("SELECT 1 FROM staff WHERE shop_id = $1 AND role = 'manager' AND active", [rig.shopId]))
          .length > 0
      : false;
    if (managed) await awaitPulledManager(dir);
    else await ok(core, 'staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    const login = await core.dispatch('staff.login', { pin: MANAGER_PIN });
    if (!login.ok) throw new Error(`login: ${JSON.stringify(login.error)}`);
    return core;
  }
  const hubOrder = async (
    orderNumber: string,
  ): Promise<{ state: string; invoice_number: string | null; n: number } | undefined> =>
    (
      await hubRig.db.query<{ state: string; invoice_number: string | null; n: number }>(
        'SELECT state, invoice_number, (SELECT count(*)::int8 FROM orders WHERE order_number = $1) AS n FROM orders WHERE order_number = $1',
        [orderNumber],
      )
    )[0];

  it('a till without a hub queues nothing for one', async () => {
    const c = await till('SOLO', false);
    await ok(c, 'sales.checkout', BREAD_AND_MILK);
    expect(c.db.prepare('SELECT count(*) AS n FROM hub_outbox').get()).toEqual({ n: 0 });
    expect(c.db.prepare('SELECT count(*) AS n FROM hub_state').get()).toEqual({ n: 0 });
    expect(fs.existsSync(path.join(rig.dirs[rig.dirs.length - 1] ?? '', 'hub-credential'))).toBe(false);
  });

  it('a shift goes up like orders, once and in order (one opened before enrolment too); the report has it', async () => {
    const c = await till('SHIFTS', false);
    const approval = { managerPin: MANAGER_PIN };
    await ok(c, 'shifts.open', { openingFloat: 5000 });
    await ok(c, 'sales.checkout', BREAD_AND_MILK); // 540.00 in cash
    const { tillId } = await ok<{ tillId: number }>(c, 'hub.enrol', {
      managerPin: MANAGER_PIN,
      url: hubRig.url,
      code: await hubRig.service.newEnrolCode(rig.shopId),
    });
    await ok(c, 'shifts.cash', { kind: 'out', amount: 1000, reason: 'Банка', approval });
    // Expected 5,000 + 540 − 1,000 = 4,540.00; counted 4,520.00 by denomination: 20.00 short.
    await ok(c, 'shifts.close', {
      counted: 4520,
      denominations: { '500000': 0, '200000': 2, '5000': 10, '2000': 1 },
      approval,
    });
    await until(async () => (await ok<{ pending: number }>(c, 'hub.status')).pending === 0);

    const events = await hubRig.db.query<{ seq: number; payload: { closed_at: string | null; cash_out_para: number } }>(
      `SELECT seq, payload FROM till_events WHERE till_id = $1 AND kind = 'shift' ORDER BY seq`,
      [tillId],
    );
    // Open (queued at enrolment), the cash out, the close: once each, in the till's order.
    expect(events.map((e) => [e.payload.closed_at !== null, e.payload.cash_out_para])).toEqual([
      [false, 0],
      [false, 100_000],
      [true, 100_000],
    ]);
    const report = await hubRig.service.report({ shopId: rig.shopId });
    // The sale names the person logged in (the sale sent no name), and so does the hub's by-cashier report.
    expect(report.byCashier.map((c) => [c.cashier, c.report.sales.count])).toContainEqual(['Manager', 1]);
    expect(report.byCashier.map((c) => c.cashier)).not.toContain('');
    expect(report.shifts.filter((s) => s.tillId === tillId)).toEqual([
      expect.objectContaining({
        tillName: 'SHIFTS',
        cashier: 'Manager',
        openingFloatPara: 500_000,
        cashSalesPara: 54_000,
        cashInPara: 0,
        cashOutPara: 100_000,
        expectedPara: 454_000,
        countedPara: 452_000,
        differencePara: -2_000,
      }),
    ]);
    const shift = report.shifts.find((s) => s.tillId === tillId);
    expect(shift?.closedAt).not.toBeNull();

    // The CSV has the shift line, per till and cashier, its times in the shop's local time (Belgrade).
    const csv = await (
      await fetch(`${hubRig.url}/api/admin/report?shopId=${rig.shopId}&format=csv&timeZone=Europe%2FBelgrade`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).text();
    const rows = csv.trimEnd().split('\r\n');
    expect(rows[0]).toBe(
      'scope,section,key,count,amount_rsd,tax_rsd,opened,closed,closed_by,float_rsd,cash_sales_rsd,cash_in_rsd,' +
        'cash_out_rsd,expected_rsd,counted_rsd,difference_rsd,quantity,discount_rsd',
    );
    const belgrade = (iso: string): string => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Europe/Belgrade',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
          .formatToParts(new Date(iso))
          .map((x) => [x.type, x.value]),
      ) as Record<string, string>;
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
    };
    expect(rows).toContain(
      `"till:SHIFTS","shift","Manager",,,,"${belgrade(shift!.openedAt)}","${belgrade(shift!.closedAt!)}",` +
        '"Manager",5000.00,540.00,0.00,1000.00,4540.00,4520.00,-20.00,,',
    );
    // Every line has the header's columns (the report's lines leave the shift columns empty, the shifts the
    // by-promotion ones).
    const columns = (line: string): number => line.replace(/"(?:[^"]|"")*"/g, '').split(',').length;
    expect(new Set(rows.map(columns))).toEqual(new Set([18]));
    // The times are the shop's clock, not UTC: Belgrade is one or two hours ahead.
    expect(belgrade(shift!.openedAt)).not.toBe(shift!.openedAt.slice(0, 16).replace('T', ' '));
    // An unknown zone is refused naming the field.
    const bad = await fetch(`${hubRig.url}/api/admin/report?shopId=${rig.shopId}&format=csv&timeZone=Mars%2FOlympus`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('timeZone');
  });

  it('the report breaks down by processor: the L-PFR signs while the internet is down, the gateway otherwise', async () => {
    const lpfr = await startLpfrSandbox({ pin: '4821' });
    try {
      const c = await till('LPFRHUB', true, {
        env: { KASA_LPFR_URL: lpfr.url, KASA_LPFR_PIN: '4821' },
        // The idle probe's own timeout is its interval (electron/outbox/engine.ts): at 50 ms a loaded machine's slow
        // answer read as "gateway down", and the online sale went to the L-PFR. A second still finds the outage fast.
        engine: { idleProbeMs: 1000, lpfrProbeMs: 100 },
      });
      const online = await ok<CheckoutResult>(c, 'sales.checkout', BREAD_AND_MILK);
      expect(online.processor).toBe('gateway');
      rig.sandbox.controls.setOffline(true);
      await until(async () => {
        const s = await ok<SyncStatus>(c, 'sync.status');
        return !s.online && s.lpfr === 'ready';
      });
      const offline = await ok<CheckoutResult>(c, 'sales.checkout', BREAD_AND_MILK);
      expect(offline.processor).toBe('lpfr');
      await until(async () => (await ok<{ pending: number }>(c, 'hub.status')).pending === 0);
      const report = await hubRig.service.report({ shopId: rig.shopId });
      // This shop's other tills signed only on the gateway: the L-PFR's one receipt is this sale.
      expect(report.byProcessor.find((p) => p.processor === 'lpfr')).toEqual({
        processor: 'lpfr',
        count: 1,
        netPara: 54_000,
      });
      expect(report.byProcessor.find((p) => p.processor === 'gateway')?.count).toBeGreaterThanOrEqual(1);
      const csv = await (
        await fetch(`${hubRig.url}/api/admin/report?shopId=${rig.shopId}&format=csv`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        })
      ).text();
      expect(csv).toContain('"total","processor","lpfr",1,540.00,');
    } finally {
      rig.sandbox.controls.setOffline(false);
      await lpfr.close();
    }
  });

  it('a manager enrols a till from the settings command; a cashier may not; a bad code is refused naming the field', async () => {
    const c = await till('LATE', false);
    expect(await ok(c, 'hub.status')).toMatchObject({ configured: false, enrolled: false, pending: 0 });
    const cashier = await ok<{ id: number }>(c, 'staff.create', {
      managerPin: MANAGER_PIN,
      name: 'Благајник',
      role: 'cashier',
      pin: '1357',
    });
    expect(cashier.id).toBeGreaterThan(0);
    const code = await hubRig.service.newEnrolCode(rig.shopId);
    const refused = await c.dispatch('hub.enrol', { managerPin: '1357', url: hubRig.url, code });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const bad = await c.dispatch('hub.enrol', { managerPin: MANAGER_PIN, url: hubRig.url, code: 'wrong-code-123' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'code' } });
    expect(JSON.stringify(bad)).toContain('refused the enrolment');
    const url = await c.dispatch('hub.enrol', { managerPin: MANAGER_PIN, url: 'ftp://hub', code });
    expect(url).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'url' } });
    expect(await ok(c, 'hub.status')).toMatchObject({ enrolled: false });

    const sold = await ok<OrderView>(c, 'sales.checkout', BREAD_AND_MILK); // before enrolment: reaches the hub too
    // The till's friendly name, not its terminal id, is how the hub's manager sees it.
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, tillName: 'Каса код улаза' });
    const r = await ok<{ tillId: number; shopId: number }>(c, 'hub.enrol', {
      managerPin: MANAGER_PIN,
      url: hubRig.url,
      code,
    });
    expect(r.shopId).toBe(rig.shopId);
    const named = await hubRig.db.query<{ name: string }>('SELECT name FROM tills WHERE id = $1', [r.tillId]);
    expect(named[0]?.name).toBe('Каса код улаза');
    await until(async () => (await hubOrder(sold.orderNumber))?.n === 1);
    await until(async () => (await ok<{ pending: number; lastOkAt: string | null }>(c, 'hub.status')).pending === 0);
    const status = await ok<Record<string, unknown>>(c, 'hub.status');
    expect(status).toMatchObject({ configured: true, url: hubRig.url, enrolled: true, tillId: r.tillId, gaps: [] });
    expect(JSON.stringify(status)).not.toMatch(/kh1\./);
    const again = await c.dispatch('hub.enrol', {
      managerPin: MANAGER_PIN,
      url: hubRig.url,
      code: await hubRig.service.newEnrolCode(rig.shopId),
    });
    expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } });
    // Renamed at the till after enrolment: the hub lists it by its new name from its next push.
    await ok(c, 'settings.update', { managerPin: MANAGER_PIN, tillName: 'Каса 2' });
    await until(
      async () =>
        (await hubRig.db.query<{ name: string }>('SELECT name FROM tills WHERE id = $1', [r.tillId]))[0]?.name ===
        'Каса 2',
    );
    const audit = c.db
      .prepare<[], { actor: string; detail: string }>("SELECT actor, detail FROM audit_log WHERE action = 'hub.enrol'")
      .all();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.detail).not.toMatch(/kh1\./);
  });

  it('refunds a sale of till 1 at till 2 while the internet is down; cashiers and prices cross the LAN', async () => {
    const t1 = await till('KASA1', true);
    const t2 = await till('KASA2', true);
    // The credential is stored like the API key: a 0600 file.
    const credFile = path.join(rig.dirs[rig.dirs.length - 2] ?? '', 'hub-credential');
    await until(() => fs.existsSync(credFile));
    expect(fs.statSync(credFile).mode & 0o777).toBe(0o600);

    const sold = await ok<OrderView>(t1, 'sales.checkout', BREAD_AND_MILK);
    expect(sold.state).toBe('fiscalized');
    const invoice = sold.receipt?.invoiceNumber ?? '';
    await until(async () => (await hubOrder(sold.orderNumber))?.state === 'fiscalized');
    expect(await hubOrder(sold.orderNumber)).toEqual({ state: 'fiscalized', invoice_number: invoice, n: 1 });

    // A cashier is created on till 1 (the gateway is reachable for that) ...
    await ok(t1, 'staff.create', { managerPin: MANAGER_PIN, name: 'Мира', role: 'cashier', pin: '2468' });

    // ... then the internet goes down; the LAN (the hub) stays up.
    rig.sandbox.controls.setOffline(true);
    const source = await ok<{ invoiceNumber: string; fullRefundAllowed: boolean; totalPara: number }>(
      t2,
      'refunds.source',
      { invoiceNumber: invoice },
    );
    expect(source).toMatchObject({ invoiceNumber: invoice, fullRefundAllowed: true, totalPara: 54_000 });
    const refund = await makeRefund(t2, {
      invoiceNumber: invoice,
      full: true,
      buyerId: '20:008123456',
    });
    expect(refund).toMatchObject({ kind: 'refund_full', state: 'queued', totalPara: 54_000 });
    // Mira logs in on till 2 although she was created on till 1 and the internet is down.
    // (Wait on the staff row, not on logins: failed PINs count towards the lockout.)
    await until(() => t2.db.prepare("SELECT 1 FROM staff WHERE name = 'Мира'").get() !== undefined);
    expect(await ok(t2, 'staff.login', { pin: '2468' })).toMatchObject({ name: 'Мира', role: 'cashier' });

    // The internet is back: the refund is fiscalized against till 1's receipt; the hub has it once.
    rig.sandbox.controls.setOffline(false);
    await until(async () => {
      await t2.dispatch('sync.now', {});
      return (await ok<OrderView>(t2, 'orders.get', { orderId: refund.orderId })).state === 'fiscalized';
    });
    await until(async () => (await hubOrder(refund.orderNumber))?.state === 'fiscalized');
    const ledger = rig.sandbox.controls.ledger().receipts.filter((r) => r.orderNumber === refund.orderNumber);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]?.referentDocumentNumber).toBe(invoice);
    // A second refund of the same sale is refused on either till.
    const again = await ok<{ fullRefundAllowed: boolean }>(t2, 'refunds.source', { invoiceNumber: invoice });
    expect(again.fullRefundAllowed).toBe(false);

    // A price changed at the hub reaches both tills (polling every second).
    await hubRig.service.upsertProducts(rig.shopId, [
      { code: 'MLK1', name: 'Млеко 1л', pricePara: 15_900, label: 'A', unit: 'piece', barcodes: ['8600000000011'] },
    ]);
    const price = (c: Core): number | undefined =>
      c.db.prepare<[], { price_para: number }>("SELECT price_para FROM products WHERE code = 'MLK1'").get()?.price_para;
    await until(() => price(t1) === 15_900 && price(t2) === 15_900);
    await hubRig.service.upsertProducts(rig.shopId, [
      { code: 'MLK1', name: 'Млеко 1л', pricePara: 16_900, label: 'A', unit: 'piece', barcodes: ['8600000000011'] },
    ]);
    await until(() => price(t1) === 16_900 && price(t2) === 16_900);
    const scanned = await ok<{ product?: { pricePara: number } }>(t2, 'catalog.byBarcode', { code: '8600000000011' });
    expect(JSON.stringify(scanned)).toContain('16900');

    // Every order of both tills is at the hub exactly once, nothing left in either till's hub outbox.
    await until(() =>
      rig.cores
        .slice(-2)
        .every((c) => (c.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM hub_outbox').get()?.n ?? 1) === 0),
    );
    for (const c of [t1, t2]) {
      const local = c.db.prepare<[], { order_number: string }>('SELECT order_number FROM orders').all();
      for (const o of local) expect((await hubOrder(o.order_number))?.n).toBe(1);
    }
    const status = await hubRig.service.tillStatus(rig.shopId);
    expect(status.filter((s) => s.name.startsWith('KASA')).every((s) => s.gaps.length === 0)).toBe(true);
    // Each till reports its printer with its pushes: none is set on these tills, and nothing raises an alarm.
    for (const s of status.filter((x) => x.name.startsWith('KASA')))
      expect(s.printer).toMatchObject({ state: 'unconfigured', unconfirmed: false, held: 0 });
  }, 120_000);

  it('shop settings set at the hub (barcode rules, discount limit) reach a till, also one that was away', async () => {
    const t = await till('KASA5', true);
    await until(async () => (await ok<{ enrolled: boolean }>(t, 'hub.status')).enrolled);
    const discountSale = {
      ...BREAD_AND_MILK,
      lines: [{ name: 'Хлеб', quantity: 1, unitPrice: 100, discount: 30, labels: ['A'] }],
      payments: [{ type: 'cash', amount: 70 }],
    };
    // The till's own limit (10 %): a 30 % discount wants a manager's approval.
    expect(await t.dispatch('sales.checkout', discountSale)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const rules = [{ prefix: '27', kind: 'weight', codeLength: 5 }];
    const res = await fetch(`${hubRig.url}/api/admin/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ shopId: rig.shopId, settings: { barcodeRules: rules, discountLimitPercent: 35 } }),
    });
    expect(res.status).toBe(200);
    const setting = (key: string): string | undefined =>
      t.db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key)?.value;
    await until(() => setting('discountLimitPercent') === '35');
    expect(await ok(t, 'catalog.barcodeRules', {})).toEqual(rules);
    // The limit is the core's: a 30 % discount now passes without a manager's approval.
    const discounted = await t.dispatch('sales.checkout', discountSale);
    expect(discounted).toMatchObject({ ok: true });
    // A till that was away applies what changed meanwhile as soon as it reaches the hub again.
    await t.close();
    rig.cores.splice(rig.cores.indexOf(t), 1);
    await hubRig.service.setShopSettings(rig.shopId, { discountLimitPercent: 5 });
    const dir = rig.dirs[rig.dirs.length - 1] ?? '';
    const { core: again } = await rig.openTill('KASA5', { dir, env: { KASA_HUB_URL: hubRig.url } });
    await until(
      () =>
        again.db.prepare<[], { value: string }>("SELECT value FROM settings WHERE key = 'discountLimitPercent'").get()
          ?.value === '5',
    );
    await hubRig.service.setShopSettings(rig.shopId, { discountLimitPercent: 10 });
  }, 120_000);

  it("refunds part of another till's sale and copies it while the internet is down, by order or invoice number", async () => {
    const t3 = await till('KASA3', true);
    const t4 = await till('KASA4', true);
    const sold = await ok<OrderView>(t3, 'sales.checkout', BREAD_AND_MILK);
    const invoice = sold.receipt?.invoiceNumber ?? '';
    expect(sold.state).toBe('fiscalized');
    await until(async () => (await hubOrder(sold.orderNumber))?.state === 'fiscalized');

    rig.sandbox.controls.setOffline(true);
    // Found at the hub by the ORDER number of till 3, with its lines and payments.
    type Source = {
      invoiceNumber: string;
      orderNumber: string;
      fullRefundAllowed: boolean;
      lines: { name: string; remainingMilli: number }[];
      payments: unknown[];
    };
    const source = await ok<Source>(t4, 'refunds.source', { invoiceNumber: sold.orderNumber });
    expect(source).toMatchObject({
      invoiceNumber: invoice,
      orderNumber: sold.orderNumber,
      fullRefundAllowed: true,
      payments: [{ type: 'cash', amountPara: 54_000 }],
    });
    expect(source.lines.map((l) => [l.name, l.remainingMilli])).toEqual([
      ['Хлеб', 3000],
      ['Млеко', 2000],
    ]);

    // Two of the three breads back at till 4, queued in its own outbox.
    const part = await makeRefund(t4, {
      invoiceNumber: invoice,
      lines: [{ index: 0, quantity: 2 }],
      buyerId: '20:008123456',
    });
    expect(part).toMatchObject({ kind: 'refund', state: 'queued', totalPara: 16_000 });
    // Not more than is left, on this till ...
    const tooMuch = await tryRefund(t4, {
      invoiceNumber: invoice,
      lines: [{ index: 0, quantity: 2 }],
      buyerId: '20:008123456',
    });
    expect(tooMuch).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'lines.0.quantity' } });
    const full = await tryRefund(t4, {
      invoiceNumber: invoice,
      full: true,
      buyerId: '20:008123456',
    });
    expect(full).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'full' } });
    // ... nor on the till that sold it, once till 4's refund reached the hub.
    await until(async () => (await hubOrder(part.orderNumber))?.n === 1);
    const atT3 = await ok<Source>(t3, 'refunds.source', { invoiceNumber: invoice });
    expect(atT3.lines.map((l) => l.remainingMilli)).toEqual([1000, 2000]);
    expect(atT3.fullRefundAllowed).toBe(false);
    // Its own order number finds the local sale on till 3 (with the same refunds counted).
    const byNumber = await ok<Source & { orderId?: number }>(t3, 'refunds.source', { invoiceNumber: sold.orderNumber });
    expect(byNumber).toMatchObject({ orderId: sold.orderId, invoiceNumber: invoice });
    expect(byNumber.lines.map((l) => l.remainingMilli)).toEqual([1000, 2000]);
    const tooMuchT3 = await tryRefund(t3, {
      invoiceNumber: invoice,
      lines: [{ index: 0, quantity: 2 }],
      buyerId: '20:008123456',
    });
    expect(tooMuchT3).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'lines.0.quantity' } });

    // A fiscal copy of till 3's sale at till 4, by invoice number; a number no till knows is not found.
    const copy = await makeCopy(t4, { invoiceNumber: invoice });
    expect(copy).toMatchObject({ kind: 'copy', state: 'queued', totalPara: 54_000 });
    const unknown = await t4.dispatch('copies.create', {
      invoiceNumber: 'NOPE-NOPE-1',
      approval: { managerPin: MANAGER_PIN },
    });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });

    // The internet is back: both are fiscalized once, against till 3's receipt, with its lines.
    rig.sandbox.controls.setOffline(false);
    await until(async () => {
      await t4.dispatch('sync.now', {});
      const states = await Promise.all(
        [part, copy].map(async (o) => (await ok<OrderView>(t4, 'orders.get', { orderId: o.orderId })).state),
      );
      return states.every((st) => st === 'fiscalized');
    });
    const ledger = rig.sandbox.controls.ledger().receipts;
    const refunded = ledger.filter((r) => r.orderNumber === part.orderNumber);
    const copied = ledger.filter((r) => r.orderNumber === copy.orderNumber);
    expect(refunded).toHaveLength(1);
    expect(refunded[0]).toMatchObject({ referentDocumentNumber: invoice, totalAmount: 160 });
    expect(copied).toHaveLength(1);
    expect(String(copied[0]?.invoiceType).toLowerCase()).toBe('copy');
    expect(copied[0]).toMatchObject({ referentDocumentNumber: invoice, totalAmount: 540 });
  }, 120_000);
  it("#21: another till's advance is not refunded through the hub (its final receipt is on that till), naming the field", async () => {
    const t5 = await till('KASA5', true);
    const t6 = await till('KASA6', true);
    const adv = await ok<OrderView>(t5, 'sales.checkout', { ...BREAD_AND_MILK, invoiceType: 'advance' });
    expect(adv.state).toBe('fiscalized');
    await until(async () => (await hubOrder(adv.orderNumber))?.state === 'fiscalized');
    await ok(t5, 'advances.finalize', { orderId: adv.orderId });
    const n = (c: Core): number => c.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM orders').get()?.n ?? 0;
    const before = n(t6);
    const refused = await tryRefund(t6, {
      invoiceNumber: adv.orderNumber,
      full: true,
      skipBuyerId: true,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'invoiceNumber' } });
    if (!refused.ok) expect(refused.error.message).toContain('another till');
    expect(n(t6)).toBe(before);
  });

  it("two tills refunding the same line of a third till's sale at once: the hub holds it for the first", async () => {
    const [t7, t8, t9] = [await till('KASA7', true), await till('KASA8', true), await till('KASA9', true)];
    for (const t of [t7, t8, t9]) await until(async () => (await ok<{ enrolled: boolean }>(t, 'hub.status')).enrolled);
    const sold = await ok<OrderView>(t7, 'sales.checkout', BREAD_AND_MILK);
    const invoice = sold.receipt?.invoiceNumber ?? '';
    await until(async () => (await hubOrder(sold.orderNumber))?.state === 'fiscalized');
    const allBread = {
      managerPin: MANAGER_PIN,
      invoiceNumber: invoice,
      lines: [{ index: 0, quantity: 3 }],
      buyerId: '20:008123456',
      paymentType: 'cash',
    };
    const n = (c: Core): number =>
      c.db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM orders WHERE kind = 'refund'`).get()?.n ?? 0;
    // Both found the sale with its three breads left; both ask at once.
    const answers = await Promise.all([
      t8.dispatch('refunds.create', allBread),
      t9.dispatch('refunds.create', allBread),
    ]);
    const won = answers.filter((a) => a.ok);
    const lost = answers.filter((a) => !a.ok);
    expect(won).toHaveLength(1);
    expect(lost[0]).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'lines.0.quantity' } });
    // Refused by the hub's hold, or, when the winner's refund had already reached the hub before the loser
    // looked the sale up, by the loser's own count of what is left: either way at the line, never captured.
    if (lost[0] && !lost[0].ok) expect(lost[0].error.message).toMatch(/Another till|more than what is left/);
    expect(n(t8) + n(t9)).toBe(1);
    const winner = answers[0]?.ok ? t8 : t9;
    const refund = (won[0] as { value: OrderView }).value;
    // The milk is still there for the other till; once the refund reached the hub its hold is not counted twice.
    await until(async () => (await hubOrder(refund.orderNumber))?.n === 1);
    const other = winner === t8 ? t9 : t8;
    const milk = await ok<OrderView>(other, 'refunds.create', {
      ...allBread,
      lines: [{ index: 1, quantity: 2 }],
    });
    expect(milk).toMatchObject({ kind: 'refund', totalPara: 30_000 });
    const again = await t7.dispatch('refunds.create', { ...allBread, lines: [{ index: 0, quantity: 1 }] });
    expect(again).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'lines.0.quantity' } });
    const holds = await hubRig.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM refund_holds WHERE invoice_number = $1',
      [invoice],
    );
    expect(holds[0]?.n).toBe(2);
  }, 120_000);

  it('a cart parked on one till is taken on another through the hub while the internet is down, exactly once', async () => {
    const a = await till('PARKA', true);
    const b = await till('PARKB', true);
    const c = await till('PARKC', true);
    for (const t of [a, b, c]) await until(async () => (await ok<{ enrolled: boolean }>(t, 'hub.status')).enrolled);
    const draftsBefore = rig.sandbox.controls.ledger().receipts.length;
    rig.sandbox.controls.setOffline(true);
    const cart = {
      lines: [{ name: 'Хлеб', unitPricePara: 8000, quantityMilli: 2000, discountPara: 0, label: 'A', unit: 'piece' }],
    };
    const remote = async (t: Core) => ok<{ online: boolean; sales: RemoteParkedSale[] }>(t, 'parked.remote');
    const parkAndFind = async (name: string): Promise<RemoteParkedSale> => {
      await ok<ParkedSaleSummary>(a, 'parked.save', { name, cart });
      let found: RemoteParkedSale | undefined;
      await until(async () => (found = (await remote(b)).sales.find((x) => x.name === name)) !== undefined);
      return found!;
    };

    const first = await parkAndFind('Сто 4');
    expect(first).toMatchObject({ terminal: 'PARKA', lines: 1, totalPara: 16000 });
    // A till never lists its own carts as another till's.
    expect((await remote(a)).sales.some((x) => x.name === 'Сто 4')).toBe(false);
    const taken = await ok<ParkedSaleView>(b, 'parked.takeRemote', { draftId: first.draftId });
    expect(taken.cart).toEqual(cart);
    expect(taken).toMatchObject({ name: 'Сто 4', totalPara: 16000 });
    // Gone everywhere: at the hub, from every till's remote list, and from till A's own list.
    const again = await b.dispatch('parked.takeRemote', { draftId: first.draftId });
    expect(again).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'Another till has already taken this parked sale.' },
    });
    expect((await remote(c)).sales.some((x) => x.draftId === first.draftId)).toBe(false);
    await until(async () => !(await ok<ParkedSaleSummary[]>(a, 'parked.list')).some((x) => x.name === 'Сто 4'));
    expect((await hubRig.db.query('SELECT id FROM parked_carts WHERE id = $1', [first.draftId])).length).toBe(0);

    // Two tills take the same cart at once: exactly one gets it.
    const second = await parkAndFind('Сто 5');
    const both = await Promise.all([
      b.dispatch('parked.takeRemote', { draftId: second.draftId }),
      c.dispatch('parked.takeRemote', { draftId: second.draftId }),
    ]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect(both.filter((r) => !r.ok).map((r) => (r.ok ? null : r.error.code))).toEqual(['not_found']);

    // Till A resumes a cart another till already took: refused, and its copy is gone.
    const third = await parkAndFind('Сто 6');
    const own = (await ok<ParkedSaleSummary[]>(a, 'parked.list')).find((x) => x.name === 'Сто 6');
    await ok(c, 'parked.takeRemote', { draftId: third.draftId });
    const resumed = await a.dispatch('parked.take', { id: own!.id });
    expect(resumed.ok ? null : resumed.error.code).toBe('not_found');
    expect((await ok<ParkedSaleSummary[]>(a, 'parked.list')).some((x) => x.name === 'Сто 6')).toBe(false);

    // Till A resumes its own cart nobody took: it is gone from the hub too.
    const fourth = await parkAndFind('Сто 7');
    const mine = (await ok<ParkedSaleSummary[]>(a, 'parked.list')).find((x) => x.name === 'Сто 7');
    expect((await ok<ParkedSaleView>(a, 'parked.take', { id: mine!.id })).cart).toEqual(cart);
    expect((await remote(b)).sales.some((x) => x.draftId === fourth.draftId)).toBe(false);

    rig.sandbox.controls.setOffline(false);
    // No gateway draft and no receipt was made for any of it.
    expect(rig.sandbox.controls.ledger().receipts.length).toBe(draftsBefore);
    const gwDrafts = await fetch(`${rig.sandbox.url}/receipt/drafts?limit=100`, {
      headers: { authorization: 'Bearer demo-key' },
    });
    expect(JSON.stringify(await gwDrafts.json())).not.toContain('PARKA');
  }, 120_000);
  it('with the LAN to the hub down a till parks and resumes its own carts; the hub hears of both when it is back', async () => {
    // A real TCP relay between till D and the hub, cut and restored (the LAN going down). It keeps its port
    // while cut and resets every connection, in flight or new: closing and listening again on the same port
    // raced other test files' ephemeral ports and a connection accepted during the close.
    const hubPort = Number(new URL(hubRig.url).port);
    const open = new Set<net.Socket>();
    let cut = false;
    const relay = net.createServer((sock) => {
      if (cut) {
        sock.destroy();
        return;
      }
      const up = net.connect(hubPort, '127.0.0.1');
      for (const x of [sock, up]) {
        open.add(x);
        x.on('error', () => undefined).on('close', () => open.delete(x));
      }
      sock.pipe(up).pipe(sock);
    });
    const setCut = (value: boolean): void => {
      cut = value;
      if (value) open.forEach((x) => x.destroy());
    };
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const port = (relay.address() as net.AddressInfo).port;
    const { core: d } = await rig.openTill('PARKD', {
      env: {
        KASA_HUB_URL: `http://127.0.0.1:${port}`,
        KASA_HUB_ENROL_CODE: await hubRig.service.newEnrolCode(rig.shopId),
      },
    });
    await d.dispatch('staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    await ok(d, 'staff.login', { pin: MANAGER_PIN });
    const e = await till('PARKE', true);
    for (const t of [d, e]) await until(async () => (await ok<{ enrolled: boolean }>(t, 'hub.status')).enrolled);
    const cart = {
      lines: [{ name: 'Кафа', unitPricePara: 15000, quantityMilli: 1000, discountPara: 0, label: 'A', unit: 'piece' }],
    };
    const seen = async (name: string): Promise<boolean> =>
      (await ok<{ sales: RemoteParkedSale[] }>(e, 'parked.remote')).sales.some((x) => x.name === name);
    const before = await ok<ParkedSaleSummary>(d, 'parked.save', { name: 'Сто 9', cart });
    await until(() => seen('Сто 9'));

    setCut(true);
    const during = await ok<ParkedSaleSummary>(d, 'parked.save', { name: 'Сто 8', cart });
    expect((await ok<ParkedSaleView>(d, 'parked.take', { id: before.id })).cart).toEqual(cart);
    expect((await ok<ParkedSaleSummary[]>(d, 'parked.list')).map((x) => x.id)).toEqual([during.id]);
    // Until the LAN is back the hub still holds the resumed cart: the one race a cut network leaves open.
    expect(await seen('Сто 9')).toBe(true);
    expect(await seen('Сто 8')).toBe(false);

    setCut(false);
    await until(async () => (await seen('Сто 8')) && !(await seen('Сто 9')));
    setCut(true);
    await new Promise<void>((r) => relay.close(() => r()));
  }, 120_000);
});
