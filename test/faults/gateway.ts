/**
 * Malformed gateway replies. A hostile HTTP server sits between the till and the real sandbox and spoils
 * the first replies to receipt requests: truncated JSON, HTML error pages (with and without the receipt
 * having been issued behind them), missing or wrongly typed fields, an empty invoiceNumber, a 201 without
 * a receipt, a body over the 4 MiB cap, a slow drip, a hang, somebody else's receipt; for bulk and for
 * the lookup/archive reconciliation too. After each: no crash, nothing fiscalized without the gateway's
 * invoiceNumber, the order still queued (unknown/retry). Then the hostile server turns transparent and
 * the order must end fiscalized exactly once with the invoiceNumber of the one receipt the gateway issued.
 */
import {
  account,
  makeTill,
  newTally,
  sale,
  type FaultTally,
  type Hostility,
  type Reply,
  type Till,
} from './harness.ts';

interface Scenario {
  fault: string;
  /** How many orders to ring up (more than the bulk threshold goes through bulk). */
  orders?: number;
  /** Set up the spoiling (on the hostile server or the sandbox); runs before the first pass. */
  arm(till: Till): void;
  /** Extra steps before the hostile server turns transparent (lookup scenarios). */
  more?(till: Till): Promise<void>;
}

const HTML = (status: number): Reply => ({
  status,
  headers: { 'Content-Type': 'text/html' },
  body: `<!doctype html><html><head><title>${status} Bad Gateway</title></head><body><h1>nginx</h1></body></html>`,
});

/** Spoils the first `times` receipt POSTs: `after` gets the sandbox's real reply (the receipt WAS issued). */
function spoilReceipts(
  times: number,
  spoil: (upstream: { status: number; json: Record<string, unknown> | null; raw: Buffer }) => Reply,
  forward = true,
): Hostility {
  let left = times;
  return async (req, fwd) => {
    if (req.method !== 'POST' || !req.path.startsWith('/receipt/') || left <= 0) return 'forward';
    left--;
    if (!forward) return spoil({ status: 0, json: null, raw: Buffer.alloc(0) });
    const up = await fwd();
    let json: Record<string, unknown> | null;
    try {
      json = JSON.parse(up.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      json = null;
    }
    return spoil({ status: up.status, json, raw: up.body });
  };
}

function jsonReply(status: number, body: unknown): Reply {
  return { status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

/** The receipt of the reply with `edit` applied. */
function editReceipt(edit: (r: Record<string, unknown>) => void) {
  return (up: { status: number; json: Record<string, unknown> | null }): Reply => {
    const body = structuredClone(up.json ?? {});
    const r = body['receipt'];
    if (r && typeof r === 'object') edit(r as Record<string, unknown>);
    return jsonReply(up.status, body);
  };
}

const SCENARIOS: Scenario[] = [
  {
    fault: 'truncated JSON (sandbox `malformed` fault, receipt issued)',
    arm: (t) => t.sandbox.controls.setFaults([{ match: 'POST /receipt/', action: 'malformed', times: 1 }]),
  },
  {
    fault: 'HTML 200 page after the receipt was issued',
    arm: (t) => (t.gateway.hostility = spoilReceipts(1, () => HTML(200))),
  },
  {
    fault: 'HTML 502 page, request never reached the gateway',
    arm: (t) => (t.gateway.hostility = spoilReceipts(2, () => HTML(502), false)),
  },
  {
    fault: 'HTML 404 page from a proxy, request never reached the gateway',
    arm: (t) => (t.gateway.hostility = spoilReceipts(2, () => HTML(404), false)),
  },
  {
    fault: 'HTML 503 page after the receipt was issued',
    arm: (t) => (t.gateway.hostility = spoilReceipts(1, () => HTML(503))),
  },
  {
    fault: 'receipt without invoiceNumber',
    arm: (t) =>
      (t.gateway.hostility = spoilReceipts(
        1,
        editReceipt((r) => delete r['invoiceNumber']),
      )),
  },
  {
    fault: 'receipt with empty invoiceNumber',
    arm: (t) =>
      (t.gateway.hostility = spoilReceipts(
        1,
        editReceipt((r) => (r['invoiceNumber'] = '')),
      )),
  },
  {
    fault: 'wrong types (invoiceNumber number, sdcDateTime boolean)',
    arm: (t) =>
      (t.gateway.hostility = spoilReceipts(
        1,
        editReceipt((r) => {
          r['invoiceNumber'] = 12345;
          r['sdcDateTime'] = true;
        }),
      )),
  },
  {
    fault: '201 with `{}` (no receipt)',
    arm: (t) => (t.gateway.hostility = spoilReceipts(1, () => jsonReply(201, {}))),
  },
  { fault: '201 with an empty body', arm: (t) => (t.gateway.hostility = spoilReceipts(1, () => ({ status: 201 }))) },
  {
    fault: '200 with `null` / a JSON array',
    arm: (t) => (t.gateway.hostility = spoilReceipts(2, (u) => jsonReply(u.status, u.json === null ? [] : null))),
  },
  {
    fault: 'huge body (5 MiB, over the 4 MiB cap)',
    arm: (t) =>
      (t.gateway.hostility = spoilReceipts(
        1,
        editReceipt((r) => (r['journal'] = 'Ж'.repeat(2.6 * 1024 * 1024))),
      )),
  },
  {
    fault: 'slow drip (1 byte / 150 ms, past the request timeout)',
    arm: (t) =>
      (t.gateway.hostility = spoilReceipts(1, (u) => ({
        status: u.status,
        headers: { 'Content-Type': 'application/json' },
        body: (res) => {
          let i = 0;
          const timer = setInterval(() => {
            if (i >= u.raw.length || res.destroyed) {
              clearInterval(timer);
              if (!res.destroyed) res.end();
              return;
            }
            res.write(u.raw.subarray(i, i + 1));
            i++;
          }, 150);
          res.on('close', () => clearInterval(timer));
        },
      }))),
  },
  {
    fault: 'hang (headers never sent)',
    arm: (t) => (t.gateway.hostility = spoilReceipts(1, () => ({ status: 200, body: () => undefined }), false)),
  },
  {
    fault: "somebody else's receipt (other orderNumber and invoiceNumber)",
    arm: (t) =>
      (t.gateway.hostility = spoilReceipts(
        1,
        editReceipt((r) => {
          r['orderNumber'] = 'OTHER-20261122-00001';
          r['invoiceNumber'] = 'XXXXXXXX-XXXXXXXX-1';
        }),
      )),
  },
  {
    fault: 'bulk: HTML 200 after the receipts were issued',
    orders: 8,
    arm: (t) => (t.gateway.hostility = spoilReceipts(1, () => HTML(200))),
  },
  {
    fault: 'bulk: receipts without invoiceNumber',
    orders: 8,
    arm: (t) =>
      (t.gateway.hostility = spoilReceipts(1, (u) => {
        const body = structuredClone(u.json ?? {});
        const list = Array.isArray(body['receipts']) ? (body['receipts'] as Record<string, unknown>[]) : [];
        for (const el of list) {
          delete el['invoiceNumber'];
          const inner = el['receipt'];
          if (inner && typeof inner === 'object') delete (inner as Record<string, unknown>)['invoiceNumber'];
        }
        return jsonReply(u.status, body);
      })),
  },
  {
    fault: 'lookup: reply lost, 11 days later fiscalization-lookup answers HTML, then the archive omits invoiceNumber',
    arm: (t) => {
      // The receipt is issued and the reply lost (connection dropped after processing).
      t.sandbox.controls.setFaults([{ match: 'POST /receipt/', action: 'drop_after', times: 1 }]);
    },
    async more(t) {
      t.clock.now += 11 * 24 * 3600_000;
      t.gateway.hostility = async (req) => (req.path.includes('fiscalization-lookup') ? HTML(200) : 'forward');
      await t.engine.runOnce();
      let archiveLeft = 1;
      t.gateway.hostility = async (req, fwd) => {
        if (!req.path.startsWith('/archive/receipts/') || req.path.includes('lookup') || archiveLeft <= 0)
          return 'forward';
        archiveLeft--;
        const up = await fwd();
        const body = JSON.parse(up.body.toString('utf8')) as { receipt?: Record<string, unknown> };
        if (body.receipt) delete body.receipt['invoiceNumber'];
        return jsonReply(up.status, body);
      };
      t.clock.now += 3600_000;
      await t.engine.runOnce();
    },
  },
];

export async function runGatewayFaults(log: (line: string) => void = () => undefined): Promise<FaultTally> {
  const tally = newTally();
  for (const s of SCENARIOS) {
    tally.cases++;
    const till = await makeTill();
    const problems: string[] = [];
    try {
      const numbers: string[] = [];
      for (let i = 0; i < (s.orders ?? 1); i++) numbers.push((await till.sales.checkout(sale(100 + i))).orderNumber);
      s.arm(till);
      await till.engine.runOnce();
      if (s.more) await s.more(till);
      // While the replies were bad: nothing fiscalized, everything still in the outbox.
      for (const n of numbers) {
        const row = till.store.getByNumber(n);
        if (row?.state !== 'queued') problems.push(`${n} is ${row?.state ?? 'missing'} after a bad reply`);
        if (row?.invoice_number) problems.push(`${n} got invoiceNumber ${row.invoice_number} from a bad reply`);
      }
      const unknown = numbers.filter((n) => {
        const row = till.store.getByNumber(n);
        return row ? till.store.outbox(row.id)?.unknown === 1 : false;
      }).length;
      // Good replies again: reconciled, each order fiscalized exactly once.
      till.gateway.hostility = null;
      till.sandbox.controls.setFaults([]);
      await till.settle();
      const a = account(till, numbers);
      tally.lost += a.lost;
      tally.duplicates += a.duplicates;
      if (a.lost) problems.push(`${a.lost} order(s) not fiscalized with the gateway's invoiceNumber`);
      if (a.duplicates) problems.push(`${a.duplicates} duplicate receipt(s)`);
      const result = problems.length
        ? problems.join('; ')
        : `stayed queued (${unknown}/${numbers.length} marked unknown), then fiscalized once`;
      tally.rows.push({ area: 'gateway reply', fault: s.fault, result, ok: problems.length === 0 });
      log(`${problems.length ? 'FAIL' : 'ok  '} gateway: ${s.fault}: ${result}`);
    } catch (err) {
      tally.crashes++;
      const result = `crash: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
      tally.rows.push({ area: 'gateway reply', fault: s.fault, result, ok: false });
      log(`FAIL gateway: ${s.fault}: ${result}`);
    } finally {
      await till.close();
    }
  }
  return tally;
}
