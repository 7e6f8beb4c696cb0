/**
 * Property: whatever the gateway answers — success in the spec's or the SDK's shape, `success: false`,
 * 4xx with a message that is not a string, 429, 5xx, garbage, a cut connection — no background loop sends
 * one item more requests than its retry budget, however long the till runs. The loops are the real ones
 * (e-mail queue, journal fetcher, parked-draft sync) on a real SQLite file; the replies come over real HTTP
 * from a small server standing in for the gateway (the edge we cannot reach with arbitrary replies).
 * Reconciliation look-ups are bounded the same way: test/outbox/reconcile-budget.test.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import { GatewayClient } from '../../electron/gateway/client.ts';
import { OrderStore } from '../../electron/orders/store.ts';
import { EmailQueue } from '../../electron/manager/email.ts';
import { createJournalFetcher } from '../../electron/outbox/journal.ts';
import { createParkedDrafts } from '../../electron/catalog/drafts.ts';
import { DEFAULT_POLICIES, RetryBudgets, type RetryLoop } from '../../electron/retry/budget.ts';

type Reply =
  | 'ok_spec'
  | 'ok_sdk'
  | 'success_false'
  | 'bad_request_array'
  | 'bad_request_object'
  | 'busy'
  | 'server'
  | 'garbage'
  | 'cut';
const REPLIES: Reply[] = [
  'ok_spec',
  'ok_sdk',
  'success_false',
  'bad_request_array',
  'bad_request_object',
  'busy',
  'server',
  'garbage',
  'cut',
];

let script: Reply[] = [];
let step = 0;
const counts = new Map<string, number>();
let server: http.Server;
let baseUrl = '';

/** The body of a successful reply to `key` in the spec's or the SDK's shape. */
function success(key: string, sdk: boolean): unknown {
  if (key === 'POST /receipt/send-email') return sdk ? {} : { success: true, correlationId: 'c' };
  if (key.startsWith('GET /archive/receipts/')) {
    const receipt = {
      invoiceNumber: 'AAAA-BBBB-1',
      sdcDateTime: '2026-11-23T08:00:00.000Z',
      journal: '==== ФИСКАЛНИ РАЧУН ====',
    };
    return sdk ? receipt : { receipt, chain: null, chainMetadata: null };
  }
  if (key === 'POST /receipt/drafts') return sdk ? { id: 7, draftName: 'x' } : { id: 7, draft: { id: 7 } };
  if (key === 'GET /receipt/drafts') return sdk ? [{ id: 7 }] : { data: [{ id: 7 }] };
  return {};
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const key = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const reply = script[Math.min(step++, script.length - 1)] ?? 'server';
    req.resume();
    req.on('end', () => {
      if (reply === 'cut') return req.socket.destroy();
      const [status, body]: [number, unknown] =
        reply === 'ok_spec' || reply === 'ok_sdk'
          ? [200, success(key, reply === 'ok_sdk')]
          : reply === 'success_false'
            ? [200, { success: false }]
            : reply === 'bad_request_array'
              ? [400, { statusCode: 400, message: ['email must be an email'], error: 'Bad Request' }]
              : reply === 'bad_request_object'
                ? [422, { status: 422, message: { field: 'invoiceNumber', message: 'unknown' } }]
                : reply === 'busy'
                  ? [429, { message: 'Too Many Requests' }]
                  : reply === 'server'
                    ? [500, { status: 500, code: 'ERR_00002', message: 'Internal error' }]
                    : [200, '<html>proxy</html>'];
      const data = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      res.writeHead(status, {
        'Content-Type': typeof body === 'string' ? 'text/html' : 'application/json',
        'Content-Length': data.length,
      });
      res.end(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface World {
  db: Db;
  dir: string;
  clock: { now: number };
  budgets: RetryBudgets;
  client: GatewayClient;
}

function world(): World {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-budget-'));
  const db = openDatabase(path.join(dir, 'kasa.sqlite'));
  const clock = { now: Date.parse('2026-11-23T08:00:00.000Z') };
  return {
    db,
    dir,
    clock,
    budgets: new RetryBudgets(db, () => clock.now),
    client: new GatewayClient({ baseUrl, apiKey: 'k', timeoutMs: 2000 }),
  };
}

function done(w: World): void {
  w.db.close();
  fs.rmSync(w.dir, { recursive: true, force: true });
}

/** Runs `pass` for two simulated weeks (far beyond every budget's backoff), an hour apart. */
async function runFor(w: World, pass: () => Promise<void>): Promise<void> {
  for (let i = 0; i < 14 * 24; i++) {
    await pass();
    w.clock.now += 3600_000;
  }
}

const replies = fc.array(fc.constantFrom(...REPLIES), { minLength: 1, maxLength: 14 });
const budgetOf = (loop: RetryLoop) => DEFAULT_POLICIES[loop].maxTries;

/** Runs `check` on a fresh world for arbitrary reply scripts. */
function forEveryScript(check: (w: World) => Promise<void>): Promise<void> {
  return fc.assert(
    fc.asyncProperty(replies, async (s) => {
      script = s;
      step = 0;
      counts.clear();
      const w = world();
      try {
        await check(w);
      } finally {
        done(w);
      }
    }),
    { numRuns: 25 },
  );
}

describe('no background loop sends more than its budget, whatever the gateway answers', () => {
  it('e-mail: at most the budget of send-email requests per e-mail', () =>
    forEveryScript(async (w) => {
      const queue = new EmailQueue({
        db: w.db,
        store: new OrderStore(w.db),
        client: () => w.client,
        now: () => w.clock.now,
        budgets: w.budgets,
        online: () => true,
      });
      const sent = await queue.send({ invoiceNumber: 'AAAA-BBBB-1', email: 'kupac@example.com' });
      await runFor(w, () => queue.pump());
      expect(counts.get('POST /receipt/send-email') ?? 0).toBeLessThanOrEqual(budgetOf('email'));
      const state = queue.get(sent.id).state;
      // Never left retrying forever: sent, or failed with the gateway's words (and in the attention list).
      expect(['sent', 'failed']).toContain(state);
      if (state === 'failed') expect(queue.get(sent.id).lastError?.message).toBeTruthy();
    }));

  it('journal: at most the budget of archive look-ups per receipt issued without journal', () =>
    forEveryScript(async (w) => {
      w.db
        .prepare(
          `INSERT INTO orders (order_number, kind, invoice_type, transaction_type, state, created_at, total_para, data, invoice_number, receipt)
           VALUES ('T1-1', 'sale', 'normal', 'sale', 'fiscalized', '2026-11-23T08:00:00.000Z', 100, '{}', 'AAAA-BBBB-1', '{"invoiceNumber":"AAAA-BBBB-1"}')`,
        )
        .run();
      const fetcher = createJournalFetcher({
        db: w.db,
        client: () => w.client,
        budgets: w.budgets,
        online: () => true,
      });
      await runFor(w, () => fetcher.run());
      expect(counts.get('GET /archive/receipts/AAAA-BBBB-1') ?? 0).toBeLessThanOrEqual(budgetOf('journal'));
      // Either the journal arrived, or the receipt waits for a person in the attention list.
      if (fetcher.missing().length) expect(w.budgets.attention().map((a) => a.loop)).toEqual(['journal']);
    }));

  it('parked-cart drafts: at most the budget of create-draft requests per parked cart', () =>
    forEveryScript(async (w) => {
      w.db
        .prepare(
          `INSERT INTO parked_sales (id, created_at, name, cart) VALUES (1, '2026-11-23T08:00:00.000Z', 'Сто 4', '{"lines":[]}')`,
        )
        .run();
      const drafts = createParkedDrafts({
        db: w.db,
        client: () => w.client,
        terminalId: () => 'T1',
        now: () => w.clock.now,
        budgets: w.budgets,
        online: () => true,
      });
      await runFor(w, () => drafts.sync());
      await drafts.stop();
      expect(counts.get('POST /receipt/drafts') ?? 0).toBeLessThanOrEqual(budgetOf('drafts'));
    }));
});
