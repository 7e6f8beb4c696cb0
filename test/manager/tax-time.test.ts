/**
 * Time, cashier and tax group of receipts, through the whole core (createCore → dispatch) on a real SQLite file
 * and the sandbox gateway over real HTTP:
 * - 10b: every receipt request carries the capture time (`metaFields.capturedAt`; `dateTimeOfIssue` on an
 *   advance sale only, docs/gateway.md) and a top-level `cashier`,
 *   frozen with the request, byte-identical when resent; the journal prints the capture time as
 *   `ЕСИР време` beside the PFR's own `ПФР време`.
 * - 10c: the tax-rate group at capture is kept; a sale rung before a rate change and issued after it is
 *   fiscalized and flagged (not parked), listed for the manager and counted in the report; an announced
 *   group becomes current at its validFrom with the till's clock driven, offline; rates refresh hourly.
 * - 11: the report's VAT is the sum of the receipts' taxItems, across a rate change, for a line with two
 *   labels, refunds subtracted; stored closed days agree (migration 012 rebuilds the old ones).
 */
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { openDatabase } from '../../electron/db/open.ts';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { GatewayClient } from '../../electron/gateway/client.ts';
import { buildReport } from '../../electron/manager/reports.ts';
import { warmReportDays } from '../../electron/manager/report-days.ts';
import { TAX_GROUP_CHANGED_WHERE } from '../../electron/orders/tax-group.ts';
import { taxGroupChangedIds } from '../../electron/orders/queries.ts';
import { TAX_RATES_REFRESH_MS, TaxRatesCache, startTaxRates } from '../../electron/sales/tax-rates.ts';
import { formatDateTime } from '../../electron/sandbox/journal.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import type { LoopTimers } from '../../electron/retry/loop.ts';
import type { ReportView } from '../../shared/contract/reports.ts';
import type { OrderView, TaxRatesView } from '../../shared/domain.ts';
import { makeRefund, makeCopy, closeCores, control, MANAGER_PIN, ok, settled, startCore } from '../support/session.ts';
import { rateChangeGroup } from '../support/tax-groups.ts';
import { tempDirs } from '../support/temp-dirs.ts';

const HOUR = 3_600_000;
const closers: (() => Promise<void> | void)[] = [];
const { dir: tmp, cleanup } = tempDirs('kasa-taxtime-');
afterEach(async () => {
  await closeCores();
  for (const c of closers.splice(0).reverse()) await c();
  cleanup();
});

function start(opts: { now?: () => number; env?: Record<string, string>; variant?: string } = {}): Promise<Core> {
  return startCore({
    prefix: 'kasa-taxtime-',
    ...(opts.now ? { now: opts.now } : {}),
    env: { KASA_LANG: 'sr-Cyrl', ...(opts.variant ? { KASA_SANDBOX_VARIANT: opts.variant } : {}), ...opts.env },
  });
}

/** The demo shop's group (6) with A at 12 % instead of 10 %: the "rate change". */
const group7 = (validFrom: string) => rateChangeGroup(validFrom, 2);

const sale = (
  lines: { name: string; quantity: number; unitPrice: number; labels: string[] }[],
  extra: Record<string, unknown> = {},
) => ({
  lines,
  payments: [{ type: 'cash', amount: lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0) }],
  ...extra,
});
const bread = (labels = ['A']) => [
  { name: 'Хлеб', quantity: 3, unitPrice: 80, labels },
  { name: 'Млеко', quantity: 2, unitPrice: 150, labels },
];

const requestOf = (c: Core, orderId: number): string =>
  (c.db.prepare<[number], { request: string | null }>('SELECT request FROM orders WHERE id = ?').get(orderId)
    ?.request ?? '') as string;
const dataOf = (c: Core, orderId: number): { taxGroup?: { groupId: number } } =>
  JSON.parse(
    c.db.prepare<[number], { data: string }>('SELECT data FROM orders WHERE id = ?').get(orderId)?.data ?? '{}',
  ) as { taxGroup?: { groupId: number } };

/** A recording HTTP proxy in front of a sandbox: every request body the till sent, by path. */
async function recordingProxy(
  target: string,
): Promise<{ url: string; sent: { method: string; path: string; body: string }[] }> {
  const sent: { method: string; path: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      sent.push({ method: req.method ?? '', path: req.url ?? '', body });
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length' && k !== 'connection') headers[k] = v;
      fetch(`${target}${req.url ?? ''}`, {
        method: req.method ?? 'GET',
        headers,
        ...(body && req.method !== 'GET' ? { body } : {}),
      }).then(
        async (r) => {
          const text = await r.text();
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
          res.end(text);
        },
        () => res.destroy(),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}`, sent };
}

describe('10b: time and cashier on every receipt request', () => {
  it('a sale taken offline is sent hours later with its capture time and the cashier, byte-identical on every resend', async () => {
    const sandbox: Sandbox = await startSandbox({ port: 0 });
    closers.push(() => sandbox.close());
    const proxy = await recordingProxy(sandbox.url);
    const c = await start({ env: { KASA_API_KEY: 'demo-key', KASA_GATEWAY_URL: proxy.url } });
    // The cashier logged in is the one the receipt names: the sale sends no name of its own.
    await ok(c, 'staff.create', { managerPin: MANAGER_PIN, name: 'Ана Петровић', role: 'cashier', pin: '731905' });
    await ok(c, 'staff.login', { pin: '731905' });
    await control(sandbox.url, 'offline', { offline: true });
    const before = Date.now();
    const s = await ok<{ orderId: number; state: string }>(c, 'sales.checkout', sale(bread()));
    const after = Date.now();
    expect(s.state).toBe('queued');
    const frozen = requestOf(c, s.orderId);
    const body = JSON.parse(frozen) as {
      dateTimeOfIssue?: string;
      cashier?: string;
      metaFields?: { cashier?: string; capturedAt?: string };
    };
    // The capture time, ISO UTC, in the meta fields (echoed, archived); the ESIR time only on an advance sale.
    expect(body.metaFields?.capturedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const issuedAt = Date.parse(body.metaFields?.capturedAt ?? '');
    expect(issuedAt).toBeGreaterThanOrEqual(before);
    expect(issuedAt).toBeLessThanOrEqual(after);
    expect(body.metaFields?.capturedAt).toBe(
      c.db.prepare<[number], { created_at: string }>('SELECT created_at FROM orders WHERE id = ?').get(s.orderId)
        ?.created_at,
    );
    expect(body.dateTimeOfIssue).toBeUndefined();
    expect(body.cashier).toBe('Ана Петровић');
    expect(body.metaFields?.cashier).toBe('Ана Петровић');

    // Hours later, and the first send is lost before the gateway sees it: the till sends again.
    sandbox.controls.advanceClock(3 * HOUR);
    sandbox.controls.setFaults([{ match: 'POST /receipt/normal/sale', action: 'drop_before', times: 1 }]);
    await control(sandbox.url, 'offline', { offline: false });
    await ok(c, 'sync.now');
    await settled(c, s.orderId);
    const posts = proxy.sent.filter((r) => r.method === 'POST' && r.path.startsWith('/receipt/normal/sale'));
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const p of posts) expect(p.body).toBe(frozen);
    expect(requestOf(c, s.orderId)).toBe(frozen);

    // The receipt keeps the capture time in its echoed meta fields; the PFR's own time is three hours later
    // and no ESIR time is printed on a normal sale.
    const view = await ok<OrderView>(c, 'orders.get', { orderId: s.orderId });
    const lines = (view.receipt?.journal ?? '').split('\n');
    expect(lines.some((l) => l.startsWith('ЕСИР време:'))).toBe(false);
    const pfr = lines.find((l) => l.startsWith('ПФР време:')) ?? '';
    expect(pfr.endsWith(formatDateTime(new Date(issuedAt)))).toBe(false);
    expect(lines.find((l) => l.startsWith('Касир:'))).toContain('Ана Петровић');
    const echoed = JSON.parse(
      c.db.prepare<[number], { receipt: string }>('SELECT receipt FROM orders WHERE id = ?').get(s.orderId)?.receipt ??
        '{}',
    ) as { metaFields?: { capturedAt?: string } };
    expect(echoed.metaFields?.capturedAt).toBe(body.metaFields?.capturedAt);
  });

  it('refunds, the final sale of an advance and copies carry their own capture time and the person logged in', async () => {
    const c = await start();
    const s = await ok<{ orderId: number }>(c, 'sales.checkout', sale(bread()));
    const refund = await makeRefund(c, {
      orderId: s.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '20:008123456',
    });
    const copy = await makeCopy(c, { orderId: s.orderId });
    const s2 = await ok<{ orderId: number }>(c, 'sales.checkout', sale(bread()));
    const full = await makeRefund(c, {
      orderId: s2.orderId,
      full: true,
      buyerId: '20:008123456',
    });
    expect(full.kind).toBe('refund_full');
    const adv = await ok<{ orderId: number }>(c, 'sales.checkout', sale(bread(), { invoiceType: 'advance' }));
    const fin = await ok<OrderView>(c, 'advances.finalize', { orderId: adv.orderId });
    // The manager is logged in (startCore signs them in): every document names them.
    for (const [o, cashier] of [
      [refund, 'Менаџер'],
      [full, 'Менаџер'],
      [copy, 'Менаџер'],
      [fin, 'Менаџер'],
    ] as const) {
      expect(o.state).toBe('fiscalized');
      const body = JSON.parse(requestOf(c, o.orderId)) as {
        dateTimeOfIssue?: string;
        cashier?: string;
        metaFields?: { capturedAt?: string };
      };
      expect(body.metaFields?.capturedAt).toBe(o.createdAt);
      expect(body.dateTimeOfIssue).toBeUndefined();
      expect(body.cashier).toBe(cashier);
      expect(o.receipt?.journal).not.toContain('ЕСИР време:');
    }
    // The advance sale is the one document that carries the ESIR time, and its receipt prints it.
    const advView = await ok<OrderView>(c, 'orders.get', { orderId: adv.orderId });
    const advBody = JSON.parse(requestOf(c, adv.orderId)) as { dateTimeOfIssue?: string };
    expect(advBody.dateTimeOfIssue).toBe(advView.createdAt);
    expect(advView.receipt?.journal).toContain('ЕСИР време:');
  });
});

describe.each(['spec', 'sdk'])('10c: tax-rate changes (%s sandbox)', (variant) => {
  it('a sale rung before a rate change and sent after it is fiscalized and flagged for the manager, not parked', async () => {
    const c = await start({ variant });
    const url = c.sandboxUrl as string;
    await control(url, 'offline', { offline: true });
    const s = await ok<{ orderId: number; state: string }>(c, 'sales.checkout', sale(bread()));
    expect(s.state).toBe('queued');
    expect(dataOf(c, s.orderId).taxGroup?.groupId).toBe(6);
    // The Tax Administration's new group comes into force while the sale waits.
    await control(url, 'tax-groups', { group: group7(new Date(Date.now() - 1000).toISOString()) });
    await control(url, 'offline', { offline: false });
    await ok(c, 'sync.now');
    await settled(c, s.orderId);
    const view = await ok<OrderView>(c, 'orders.get', { orderId: s.orderId });
    expect(view.state).toBe('fiscalized');
    expect(view.taxGroupChanged).toEqual({ capturedGroupId: 6, issuedGroupId: '7' });
    expect(view.receipt?.taxItems).toEqual([expect.objectContaining({ label: 'A', rate: 12 })]);
    // The manager's list of them, and the report's count.
    const flagged = await ok<{ orders: OrderView[]; total: number }>(c, 'orders.list', { taxGroupChanged: true });
    expect(flagged.orders.map((o) => o.orderId)).toEqual([s.orderId]);
    expect(flagged.total).toBe(1);
    const report = await ok<ReportView>(c, 'reports.summary');
    expect(report.taxGroupChanged).toBe(1);
    const csv = await ok<{ csv: string }>(c, 'reports.csv');
    expect(csv.csv).toContain('"Промењена пореска група";"поруџбине";1;'); // the CSV speaks the UI's language
    // A sale rung under the new group (after the refresh) is not flagged.
    expect((await ok<TaxRatesView>(c, 'taxRates.get', { refresh: true })).groupId).toBe(7);
    const s2 = await ok<{ orderId: number; state: string }>(c, 'sales.checkout', sale(bread()));
    expect(s2.state).toBe('fiscalized');
    expect((await ok<OrderView>(c, 'orders.get', { orderId: s2.orderId })).taxGroupChanged).toBeUndefined();
    expect((await ok<{ total: number }>(c, 'orders.list', { taxGroupChanged: true })).total).toBe(1);
  });

  it('a group announced in advance becomes current at its validFrom, offline, with the till clock driven', async () => {
    let shift = 0;
    const c = await start({ now: () => Date.now() + shift, variant });
    const url = c.sandboxUrl as string;
    const validFrom = new Date(Date.now() + HOUR).toISOString();
    await control(url, 'tax-groups', { group: group7(validFrom) });
    const before = await ok<TaxRatesView>(c, 'taxRates.get', { refresh: true });
    expect(before.groupId).toBe(6);
    expect(before.labels.find((l) => l.label === 'A')?.rate).toBe(10);
    await control(url, 'offline', { offline: true });
    shift = HOUR - 60_000; // a minute before
    expect((await ok<TaxRatesView>(c, 'taxRates.get')).groupId).toBe(6);
    const early = await ok<{ orderId: number }>(c, 'sales.checkout', sale(bread()));
    shift = HOUR + 1000; // just after validFrom; still offline
    const after = await ok<TaxRatesView>(c, 'taxRates.get');
    expect(after).toMatchObject({ groupId: 7, validFrom });
    expect(after.labels.find((l) => l.label === 'A')?.rate).toBe(12);
    const late = await ok<{ orderId: number }>(c, 'sales.checkout', sale(bread()));
    expect(dataOf(c, early.orderId).taxGroup?.groupId).toBe(6);
    expect(dataOf(c, late.orderId).taxGroup?.groupId).toBe(7);
    // The gateway's clock reaches validFrom too; both are issued with group 7: only the early one is flagged.
    await control(url, 'clock', { advanceMs: HOUR + 1000 });
    await control(url, 'offline', { offline: false });
    await ok(c, 'sync.now');
    await settled(c, early.orderId);
    await settled(c, late.orderId);
    expect((await ok<OrderView>(c, 'orders.get', { orderId: early.orderId })).taxGroupChanged).toEqual({
      capturedGroupId: 6,
      issuedGroupId: '7',
    });
    expect((await ok<OrderView>(c, 'orders.get', { orderId: late.orderId })).taxGroupChanged).toBeUndefined();
  });

  it('refreshes the rates every hour on the sync loop (time driven by the test), and keeps the cache when the gateway is away', async () => {
    const sandbox = await startSandbox({ port: 0, variant: variant as 'spec' | 'sdk' });
    closers.push(() => sandbox.close());
    const dir = tmp();
    const db = openDatabase(path.join(dir, 'kasa.sqlite'));
    closers.push(() => void db.close());
    const client = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'demo-key' });
    const taxRates = new TaxRatesCache(db);
    await taxRates.refresh(client);
    // Timers the test fires: each interval registered, with its period.
    const intervals: { fn: () => void; ms: number }[] = [];
    const firsts: { fn: () => void; ms: number }[] = [];
    const timers: LoopTimers = {
      setTimeout: (fn, ms) => (firsts.push({ fn, ms }), {}),
      setInterval: (fn, ms) => (intervals.push({ fn, ms }), {}),
      clear: () => undefined,
    };
    const logged: string[] = [];
    const loop = startTaxRates({ taxRates, client: () => client, log: (l) => logged.push(l), timers });
    closers.push(() => loop.stop());
    expect(firsts.map((f) => f.ms)).toEqual([TAX_RATES_REFRESH_MS]);
    expect(TAX_RATES_REFRESH_MS).toBe(HOUR);
    // A new group is in force at the gateway; the till does not know until its hour comes.
    await control(sandbox.url, 'tax-groups', { group: group7(new Date(Date.now() - 1000).toISOString()) });
    expect(taxRates.get()?.groupId).toBe(6);
    firsts[0]?.fn(); // the first hour: refresh, then every hour
    await loop.sync();
    expect(taxRates.get()?.groupId).toBe(7);
    expect(intervals.map((i) => i.ms)).toEqual([HOUR]);
    // The gateway away at the next hour: logged, the cache still serves.
    sandbox.controls.setOffline(true);
    intervals[0]?.fn();
    await loop.sync();
    expect(logged.some((l) => l.startsWith('tax rates not refreshed'))).toBe(true);
    expect(taxRates.get()?.groupId).toBe(7);
  });
});

describe('11: report VAT is the sum of the receipts’ taxItems', () => {
  it('across a rate change, for a line with two labels, refunds subtracted; today and on stored days alike', async () => {
    const c = await start();
    const url = c.sandboxUrl as string;
    const s1 = await ok<{ orderId: number }>(c, 'sales.checkout', sale(bread())); // 540.00 A at 10 %
    const refund = await makeRefund(c, {
      orderId: s1.orderId,
      lines: [{ index: 1, quantity: 1 }], // 150.00 A at 10 %
      buyerId: '20:008123456',
    });
    expect(refund.state).toBe('fiscalized');
    await control(url, 'tax-groups', { group: group7(new Date(Date.now() - 1000).toISOString()) });
    await ok(c, 'taxRates.get', { refresh: true });
    const s2 = await ok<{ orderId: number }>(
      c,
      'sales.checkout',
      sale([{ name: 'Сир', quantity: 1, unitPrice: 300, labels: ['A'] }]),
    ); // A at 12 %
    const s3 = await ok<{ orderId: number }>(
      c,
      'sales.checkout',
      sale([{ name: 'Пакет', quantity: 1, unitPrice: 200, labels: ['A', 'E'] }]),
    );
    const r = await ok<ReportView>(c, 'reports.summary');

    // Independently: the receipts' taxItems, refunds negative.
    const expected = new Map<string, number>();
    for (const id of [s1.orderId, refund.orderId, s2.orderId, s3.orderId]) {
      const o = await ok<OrderView>(c, 'orders.get', { orderId: id });
      expect(o.state).toBe('fiscalized');
      const sign = o.transactionType === 'refund' ? -1 : 1;
      for (const t of o.receipt?.taxItems ?? [])
        expected.set(`${t.label} ${t.rate}`, (expected.get(`${t.label} ${t.rate}`) ?? 0) + sign * t.amountPara);
    }
    const got = new Map(r.byTax.map((t) => [`${t.label} ${t.rate}`, t.taxPara]));
    expect(got).toEqual(expected);
    // By hand: A 10 %: 540.00 − 150.00 → 49.09 − 13.64; A 12 %: 300.00 and 200.00 → 32.14 + 21.43; E 6 %: 200.00 →
    // 11.32.
    expect(got.get('A 10')).toBe(4909 - 1364);
    expect(got.get('A 12')).toBe(3214 + 2143);
    expect(got.get('E 6')).toBe(1132);
    expect(r.taxPara).toBe(4909 - 1364 + 3214 + 2143 + 1132);
    // The two-label line's VAT is in its labels' rows (never 0) and its gross is split between them (shared/
    // tax-summary.ts: one row per label, no „A+E“ row), and the rows add up to the period's VAT.
    expect(r.byLabel.find((l) => l.label === 'A+E')).toBeUndefined();
    expect(r.byLabel.find((l) => l.label === 'E')).toMatchObject({ netPara: 10000, taxPara: 1132, rate: 6 });
    expect(r.byLabel.reduce((s, l) => s + l.taxPara, 0)).toBe(r.taxPara);
    const csv = await ok<{ csv: string }>(c, 'reports.csv');
    expect(csv.csv).toContain('"Порез";"A 12%";;0,00;53,57');

    // The same orders read back from a stored (closed) day give the same VAT.
    const tomorrow = Date.now() + 86_400_000;
    const day = new TaxRatesCache(c.db, () => tomorrow);
    const range = { from: new Date(Date.now() - 86_400_000).toISOString(), to: new Date(tomorrow).toISOString() };
    await warmReportDays(c.db, tomorrow);
    expect(c.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM report_days').get()?.n).toBeGreaterThan(0);
    const stored = buildReport(c.db, day, range, tomorrow);
    expect(new Map(stored.byTax.map((t) => [`${t.label} ${t.rate}`, t.taxPara]))).toEqual(expected);
    expect(stored.taxPara).toBe(r.taxPara);
  });
});

describe('11: an advance and its final sale', () => {
  it('count the advance’s VAT once: the final sale adds its VAT and its advance refund takes the advance’s back', async () => {
    const c = await start();
    const adv = await ok<{ orderId: number; state: string }>(
      c,
      'sales.checkout',
      sale(bread(), { invoiceType: 'advance' }),
    );
    expect(adv.state).toBe('fiscalized');
    const before = await ok<ReportView>(c, 'reports.summary');
    expect(before.byTax).toEqual([{ label: 'A', rate: 10, taxPara: 4909 }]);
    const fin = await ok<OrderView>(c, 'advances.finalize', { orderId: adv.orderId });
    expect(fin.state).toBe('fiscalized');
    // Both receipts of the finalize state VAT; the report nets them by transaction type.
    expect(fin.receipt?.taxItems.reduce((s, t) => s + t.amountPara, 0)).toBeGreaterThan(0);
    expect(fin.extraReceipts?.[0]?.taxItems.reduce((s, t) => s + t.amountPara, 0)).toBe(4909);
    const after = await ok<ReportView>(c, 'reports.summary');
    const newMoneyVat = (fin.receipt?.taxItems.reduce((s, t) => s + t.amountPara, 0) ?? 0) - 4909;
    expect(after.taxPara).toBe(4909 + newMoneyVat);
  });
});

describe('migration 012', () => {
  it('clears stored day totals computed without VAT, adds the announced-groups table, and indexes flagged orders', () => {
    const file = path.join(tmp(), 'kasa.sqlite');
    const i012 = MIGRATIONS.findIndex((m) => m.name === 'report_days');
    const old = openDatabase(file, MIGRATIONS.slice(0, i012 + 1));
    old.prepare("INSERT INTO report_days (day, cashier, body) VALUES ('2026-01-01', '', '{}')").run();
    old.close();
    const db = openDatabase(file);
    closers.push(() => void db.close());
    expect(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM report_days').get()?.n).toBe(0);
    expect(db.prepare<[], { n: number }>('SELECT count(*) AS n FROM tax_rates_announced').get()?.n).toBe(0);
    const plan = db
      .prepare<[], { detail: string }>(
        `EXPLAIN QUERY PLAN SELECT id FROM orders INDEXED BY orders_tax_group_changed WHERE ${TAX_GROUP_CHANGED_WHERE} ORDER BY id DESC`,
      )
      .all()
      .map((p) => p.detail)
      .join(' | ');
    expect(plan).toContain('orders_tax_group_changed');
    expect(taxGroupChangedIds(db, 10, 0)).toEqual({ ids: [], total: 0 });
  });
});
