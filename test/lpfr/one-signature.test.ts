/**
 * One signature per sale on L-PFRs as they really are (issue 37 §1, docs/lpfr.md "One signature per sale"): a
 * device that remembers only its latest RequestId (`keepRequests: 1`, the ML class) and loses answers after
 * signing. Whole cores on real SQLite files, the L-PFR sandbox over HTTP, and for the first sale after the
 * internet drops, a real TCP connection refused in front of the gateway sandbox. Each processor's ledger is
 * the truth.
 */
import { untilValue } from '../support/poll.ts';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import type { LpfrSandbox } from '../support/lpfr-sandbox/server.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import type { CheckoutResult } from '../../shared/contract/sales.ts';
import type { OrderView, SyncStatus } from '../../shared/domain.ts';
import { explainGatewayError } from '../../shared/gateway-errors.ts';
import { BREAD_AND_MILK, MANAGER_PIN, ok, startCore } from '../support/session.ts';
import { fiscalized, PIN, lpfrCoreSuite, lpfrTill, offlineWithLpfrReady } from './helpers.ts';

const { kit, later } = lpfrCoreSuite();
/** Up to 15 s: the 24 sales' look-ups run one after another. */
const until = <T>(what: string, probe: () => Promise<T> | T, test: (v: T) => boolean): Promise<T> =>
  untilValue(what, probe, test, { tries: 600 });

const status = (core: Core) => ok<SyncStatus>(core, 'sync.status');
const signedTimes = (lpfr: LpfrSandbox): Map<string, number> => {
  const m = new Map<string, number>();
  for (const e of lpfr.controls.ledger().invoices) m.set(e.requestId ?? '', (m.get(e.requestId ?? '') ?? 0) + 1);
  return m;
};

/** An L-PFR of the ML class, the subject of this file: it remembers only its latest RequestId. */
const oneRequestLpfr = (): Promise<LpfrSandbox> => kit.sandbox({ dataDir: kit.dir(), keepRequests: 1 });

/** Syncs the till until its order `orderId` is parked for a person (`what` names the wait); the order then. */
const parkedAfterSync = (till: Core, orderId: number, what: string): Promise<OrderView> =>
  until(
    what,
    async () => {
      await ok(till, 'sync.now');
      return ok<OrderView>(till, 'orders.get', { orderId });
    },
    (o) => o.state === 'needs_attention',
  );

/** A till on this L-PFR with the gateway offline and known to be. */
async function offlineTill(lpfr: LpfrSandbox, terminal: string): Promise<Core> {
  const core = await lpfrTill(lpfr, 'kasa-lpfr-once-', { KASA_TERMINAL_ID: terminal }, { idleProbeMs: 50 });
  await offlineWithLpfrReady(core);
  return core;
}

/**
 * Two tills (`terminals`) on one L-PFR of this file's class, and a sale of till 1 in doubt: its signing request
 * meets `fault` once (the answer lost after signing, or the request cut before the device reads it), and its
 * look-ups fail until a test clears the faults. The sale's checkout answer is `first`.
 */
async function till1InDoubt(terminals: [string, string], fault: 'drop_after' | 'drop_before') {
  const lpfr = await oneRequestLpfr();
  const till1 = await offlineTill(lpfr, terminals[0]);
  const till2 = await offlineTill(lpfr, terminals[1]);
  lpfr.controls.setFaults([
    { match: 'POST /api/v3/invoices', action: fault, times: 1 },
    { match: 'GET /api/v3/invoices/', action: 'error500' },
  ]);
  const first = await ok<CheckoutResult>(till1, 'sales.checkout', BREAD_AND_MILK);
  await until(
    'till 1 in doubt',
    () => till1.db.prepare('SELECT unknown FROM outbox WHERE order_id = ?').pluck().get(first.orderId),
    (u) => u === 1,
  );
  return { lpfr, till1, till2, first };
}

const attemptsOf = (core: Core, orderId: number) =>
  core.db
    .prepare<[number], { mode: string; outcome: string }>(
      'SELECT mode, outcome FROM attempts WHERE order_id = ? ORDER BY id',
    )
    .all(orderId);

describe('an L-PFR that remembers one RequestId', () => {
  it('loses answers after signing while sales keep coming: 24 sales, each signed exactly once', async () => {
    const lpfr = await oneRequestLpfr();
    const core = await offlineTill(lpfr, 'ONCE1');
    // The first eight signings' answers are lost after the device signed; sales arrive four at a time, so later
    // sales are waiting while an earlier one's outcome is unknown.
    lpfr.controls.setFaults([{ match: 'POST /api/v3/invoices', action: 'drop_after', times: 8 }]);
    const sales: CheckoutResult[] = [];
    for (let round = 0; round < 6; round++) {
      const batch = await Promise.all(
        Array.from({ length: 4 }, () => ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK)),
      );
      sales.push(...batch);
    }
    await until(
      'every sale settled',
      async () => {
        await ok(core, 'sync.now');
        return status(core);
      },
      (s) => s.queued === 0,
    );
    const times = signedTimes(lpfr);
    const twice = sales.filter((s) => (times.get(s.orderNumber) ?? 0) > 1).length;
    const lost = sales.filter((s) => (times.get(s.orderNumber) ?? 0) === 0).length;
    console.log(`keep=1: sales=${sales.length} signedTwice=${twice} lost=${lost}`);
    expect(twice).toBe(0);
    expect(lost).toBe(0);
    for (const s of sales) {
      const o = await ok<OrderView>(core, 'orders.get', { orderId: s.orderId });
      expect(o).toMatchObject({ state: 'fiscalized', processor: 'lpfr' });
    }
    // The lost answers were found by their look-up, none was signed again.
    const lookedUp = core.db
      .prepare<[], { n: number }>(
        "SELECT count(*) AS n FROM attempts WHERE mode = 'lpfr_lookup' AND outcome = 'issued'",
      )
      .get()?.n;
    expect(lookedUp).toBe(8);
  });

  it('a request that never reached the device is proven unsigned by its unchanged counter, then signed once', async () => {
    const lpfr = await oneRequestLpfr();
    const core = await offlineTill(lpfr, 'ONCE2');
    lpfr.controls.setFaults([{ match: 'POST /api/v3/invoices', action: 'drop_before', times: 1 }]);
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    const order = await fiscalized(core, sale.orderId, 'signed after its look-up', { syncEachTime: true, tries: 600 });
    expect(order.processor).toBe('lpfr');
    expect(signedTimes(lpfr).get(sale.orderNumber)).toBe(1);
    expect(attemptsOf(core, sale.orderId)).toEqual([
      { mode: 'lpfr', outcome: 'not_issued' },
      { mode: 'lpfr_lookup', outcome: 'not_issued' },
      { mode: 'lpfr', outcome: 'issued' },
    ]);
  });
});

describe('several tills share one L-PFR', () => {
  it('another till signed while one answer was lost: "not found" proves nothing, the sale waits for a person', async () => {
    // Till 1's answer is lost after signing, and its look-ups fail until till 2 has sold.
    const { lpfr, till1, till2, first } = await till1InDoubt(['SHAR1', 'SHAR2'], 'drop_after');
    expect(first.state).toBe('queued');
    const second = await ok<CheckoutResult>(till2, 'sales.checkout', BREAD_AND_MILK);
    expect(second).toMatchObject({ state: 'fiscalized', processor: 'lpfr' });
    lpfr.controls.setFaults([]);

    const parked = await parkedAfterSync(till1, first.orderId, 'till 1 parks its sale');
    expect(parked.lastError?.code).toBe('LPFR_UNPROVEN');
    // The evidence, in the manager's language: the order number and the device's counter before and now.
    const told = explainGatewayError(parked.lastError!, 'sr-Cyrl');
    expect(told.kind).toBe('lpfr_unproven');
    expect(told.title).toContain(first.orderNumber);
    expect(told.title).toMatch(/\b0\b.*\b2\b/);
    expect(told.action).toContain('журнал');

    // A person resends it: looked up again, never signed again by itself.
    await ok(till1, 'orders.resend', { orderId: first.orderId });
    for (let i = 0; i < 5; i++) await ok(till1, 'sync.now');
    const again = await until(
      'parked again',
      () => ok<OrderView>(till1, 'orders.get', { orderId: first.orderId }),
      (o) => o.state === 'needs_attention',
    );
    expect(again.lastError?.code).toBe('LPFR_UNPROVEN');
    const times = signedTimes(lpfr);
    expect(times.get(first.orderNumber)).toBe(1);
    expect(times.get(second.orderNumber)).toBe(1);
    expect(lpfr.controls.ledger().invoices).toHaveLength(2);
  });
});

describe('a person resolves a sale the L-PFR cannot vouch for', () => {
  it('a manager who found no invoice of it in the journal frees it (PIN, audited); it is signed exactly once', async () => {
    // Till 1's request is cut before the device reads it (never signed), and its look-ups fail until till 2 sold.
    const { lpfr, till1, till2, first } = await till1InDoubt(['FREE1', 'FREE2'], 'drop_before');
    await ok<CheckoutResult>(till2, 'sales.checkout', BREAD_AND_MILK);
    lpfr.controls.setFaults([]);
    await parkedAfterSync(till1, first.orderId, 'parked unproven');
    expect(lpfr.controls.ledger().invoices.map((e) => e.requestId)).not.toContain(first.orderNumber);

    // Without the journal checked, or without a manager's PIN: refused, nothing changes.
    const unchecked = await till1.dispatch('orders.lpfrNotSigned', { managerPin: MANAGER_PIN, orderId: first.orderId });
    expect(unchecked.ok).toBe(false);
    if (!unchecked.ok) expect(unchecked.error).toMatchObject({ code: 'invalid_input', field: 'journalChecked' });
    const noPin = await till1.dispatch('orders.lpfrNotSigned', {
      managerPin: '000000',
      orderId: first.orderId,
      journalChecked: true,
    });
    expect(noPin.ok).toBe(false);
    expect((await ok<OrderView>(till1, 'orders.get', { orderId: first.orderId })).state).toBe('needs_attention');

    await ok(till1, 'orders.lpfrNotSigned', { managerPin: MANAGER_PIN, orderId: first.orderId, journalChecked: true });
    const signed = await fiscalized(till1, first.orderId, 'signed once', { syncEachTime: true, tries: 600 });
    expect(signed.processor).toBe('lpfr');
    expect(signedTimes(lpfr).get(first.orderNumber)).toBe(1);
    const audit = till1.db
      .prepare<[], { action: string; detail: string }>(
        "SELECT action, detail FROM audit_log WHERE action LIKE 'order.%'",
      )
      .all();
    expect(audit.map((a) => a.action)).toContain('order.lpfrNotSigned');
    // A second press finds nothing parked: refused.
    const again = await till1.dispatch('orders.lpfrNotSigned', {
      managerPin: MANAGER_PIN,
      orderId: first.orderId,
      journalChecked: true,
    });
    expect(again.ok).toBe(false);
  });
});

/** A TCP relay in front of the gateway sandbox that can refuse connections (the line is down). */
async function relay(target: string): Promise<{ url: string; refuse(on: boolean): Promise<void>; close(): void }> {
  const { port: targetPort } = new URL(target);
  const sockets = new Set<net.Socket>();
  let server = net.createServer();
  const serve = (s: net.Server) =>
    s.on('connection', (c) => {
      const up = net.connect(Number(targetPort), '127.0.0.1');
      sockets.add(c).add(up);
      c.pipe(up).pipe(c);
      const end = () => {
        c.destroy();
        up.destroy();
      };
      c.on('error', end).on('close', end);
      up.on('error', end).on('close', end);
    });
  serve(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    async refuse(on) {
      if (on) {
        await new Promise<void>((r) => {
          server.close(() => r());
          for (const s of sockets) s.destroy();
          sockets.clear();
        });
      } else {
        server = net.createServer();
        serve(server);
        await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
      }
    },
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

describe('the first sale after the internet drops', () => {
  it('a connection refused sent nothing: the sale is signed on the L-PFR within the checkout, not pinned', async () => {
    const gateway: Sandbox = await startSandbox({ port: 0 });
    later(() => gateway.close());
    const line = await relay(gateway.url);
    later(() => line.close());
    const lpfr = await oneRequestLpfr();
    const core = await startCore({
      prefix: 'kasa-lpfr-drop-',
      env: {
        KASA_API_KEY: 'demo-key',
        KASA_GATEWAY_URL: line.url,
        KASA_LPFR_URL: lpfr.url,
        KASA_LPFR_PIN: PIN,
        KASA_TERMINAL_ID: 'DROP1',
      },
      // The engine does not learn of the outage before the sale: no idle probe.
      engine: { probeMinMs: 50, probeMaxMs: 200, baseBackoffMs: 20, maxBackoffMs: 100, idleProbeMs: 0 },
    });
    const online = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(online).toMatchObject({ state: 'fiscalized', processor: 'gateway' });
    await until(
      'the L-PFR asked',
      () => status(core),
      (s) => s.online && s.lpfr === 'ready',
    );

    await line.refuse(true);
    const sale = await ok<CheckoutResult>(core, 'sales.checkout', BREAD_AND_MILK);
    expect(sale).toMatchObject({ state: 'fiscalized', processor: 'lpfr' });
    expect(signedTimes(lpfr).get(sale.orderNumber)).toBe(1);
    expect(attemptsOf(core, sale.orderId).map((a) => `${a.mode}:${a.outcome}`)).toEqual([
      'single:not_sent',
      'lpfr:issued',
    ]);

    // The line back: the gateway never saw it, and nothing is sent there for it.
    await line.refuse(false);
    await ok(core, 'sync.now');
    await until(
      'online again',
      async () => {
        await ok(core, 'sync.now');
        return status(core);
      },
      (s) => s.online,
    );
    const ledger = gateway.controls.ledger().receipts.map((r) => r.orderNumber);
    expect(ledger).toContain(online.orderNumber);
    expect(ledger).not.toContain(sale.orderNumber);
  });
});
