/**
 * The hub chaos run: the store hub (`node hub/cli.ts`, on PGlite or a real PostgreSQL) and two tills (the
 * browser host, each its own data directory and SQLite file) as child processes against an in-process
 * sandbox gateway. Checkouts are fired at both tills while, at random moments, a till or the hub is
 * killed with SIGKILL and restarted on the same data. At the end, with everything calm, every order of
 * every till must be at the hub exactly once, in the till's final state, and no till may have a gap in
 * its sequence at the hub. Master data goes the other way through the same kills: the hub's price of one
 * product changes at every life, and at the end every till must sell at the last price. The sales sell that product,
 * so the goods move at the hub: every fiscalized sale or refund there must have moved its stock exactly once (0
 * lost, 0 doubled) and the product's stock must be Σ its movements. Each life also refunds earlier sales of the run
 * on the till that made them (a manager's partial refund of the one piece, through the same kills), and their
 * refund movements are counted apart: 0 lost, 0 doubled. All of it over TLS
 * (#25): the hub serves HTTPS with the certificate it made at its first start (kept in its data dir across the
 * kills), the tills enrol with its fingerprint and pin it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSandbox } from '../../electron/sandbox/server.ts';
import { mulberry32 } from '../../electron/sandbox/faults.ts';
import { openPglite, openPostgres, type HubDb } from '../../hub/db/db.ts';
import { awaitPulledManager, fireCheckouts, startHostProcess, type HostProcess } from '../support/host-process.ts';
import { startHubProcess, type HubProcess } from '../support/hub-process.ts';
import { freePort } from '../support/ports.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { startPostgres, type PgCluster } from '../support/postgres.ts';

export interface HubChaosOptions {
  backend: 'pglite' | 'postgres';
  kills: number;
  /** Checkouts fired at each till per life. */
  ordersPerLife: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface HubChaosResult {
  orders: number;
  acknowledged: number;
  kills: { till: number; hub: number };
  /** Till orders missing at the hub, or there in another state. */
  lost: number;
  /** Orders the hub holds that no till has. */
  foreign: number;
  gaps: number;
  /** Tills that, after the calm, still did not sell at the hub's last price (master data lost on the way down). */
  stale: number;
  /**
   * The goods at the hub: fiscalized sales and refunds selling a catalog product, their stock movements, lines that
   * moved no goods (`lost`) or moved twice (`doubled`), and whether the product's stock differs from Σ movements.
   */
  stock: { sales: number; movements: number; lost: number; doubled: number; offBook: boolean };
  /**
   * The refunds among them: refunds acknowledged by a till (`fired`), those fiscalized at the hub that give back the
   * catalog product (`orders`), their movements, and their lines that moved nothing (`lost`) or twice (`doubled`).
   */
  refunds: { fired: number; orders: number; movements: number; lost: number; doubled: number };
  seconds: number;
}

/** The product whose price the hub changes at every life. */
const CHAOS_CODE = '7001';

const ADMIN = 'chaos-admin-token-0123456789abcdef';

export async function runHubChaos(options: HubChaosOptions): Promise<HubChaosResult> {
  const started = Date.now();
  const random = mulberry32(options.seed ?? 42);
  const log = options.log ?? (() => undefined);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-chaos-'));
  const sandbox = await startSandbox({ port: 0 });
  let cluster: PgCluster | null = null;
  const port = await freePort();
  const hubUrl = `https://127.0.0.1:${port}`;
  const hubEnv: Record<string, string> = {
    KASA_HUB_TLS: 'on',
    KASA_HUB_PORT: String(port),
    KASA_HUB_ADMIN_TOKEN: ADMIN,
    KASA_HUB_DATA: path.join(root, 'hub'),
  };
  if (options.backend === 'postgres') {
    cluster = await startPostgres();
    hubEnv.KASA_HUB_DATABASE_URL = cluster.url;
  }
  let hub: HubProcess | null = null;
  const tills: (HostProcess | null)[] = [null, null];
  const tillDirs = [path.join(root, 'till-1'), path.join(root, 'till-2')];
  const acknowledged = new Set<string>();
  const kills = { till: 0, hub: 0 };
  // Per till, the ids of its acknowledged sales of the chaos product not yet refunded; and the refunds acknowledged.
  const sold: number[][] = [[], []];
  let refundsFired = 0;
  try {
    hub = await startHubProcess(hubEnv);
    const fingerprint = hub.fingerprint ?? '';
    if (!hub.url.startsWith('https:') || !fingerprint)
      throw new Error(`the hub does not serve HTTPS: ${hub.firstLine}`);
    const codes: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await hub.request(`${hubUrl}/api/admin/enrol-codes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ shopId: 1 }),
      });
      codes.push(((await res.json()) as { code: string }).code);
    }
    const tillEnv = (i: number): Record<string, string> => ({
      KASA_API_KEY: 'demo-key',
      KASA_GATEWAY_URL: sandbox.url,
      KASA_ONLINE_BUDGET_MS: '500',
      KASA_TERMINAL_ID: `HUBCHAOS${i + 1}`,
      KASA_HUB_URL: hubUrl,
      KASA_HUB_ENROL_CODE: codes[i] ?? '',
      KASA_HUB_FINGERPRINT: fingerprint,
    });
    const pinChanged = new Set<number>();
    const startTill = async (i: number): Promise<HostProcess> => {
      fs.mkdirSync(tillDirs[i] ?? '', { recursive: true });
      const t = await startHostProcess({ dataDir: tillDirs[i] ?? '', env: tillEnv(i) });
      tills[i] = t;
      // Past the first-run PIN, on the till's first start only: on a restart 0000 is a wrong PIN, and
      // wrong PINs count towards the till's lockout (five restarts would lock the long run out).
      // The first till sets its first-run PIN and the shop adopts that manager; the second takes the manager by
      // pull (its own first PIN would wait for a staff choice at the hub, and its pulls with it).
      if (!pinChanged.has(i)) {
        if (i === 0) await t.call('staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
        else await awaitPulledManager(tillDirs[i] ?? '');
        pinChanged.add(i);
      }
      const login = await t.call('staff.login', { pin: MANAGER_PIN });
      if (!login.body.ok) throw new Error(`till ${i + 1} login: ${JSON.stringify(login.body.error)}`);
      return t;
    };
    await startTill(0);
    await startTill(1);
    // The hub's price of one product, set again at every life: each till must end up selling at the last one.
    let price = 0;
    const setPrice = async (para: number): Promise<void> => {
      const res = await hub?.request(`${hubUrl}/api/admin/products`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          shopId: 1,
          products: [{ code: CHAOS_CODE, name: 'Хаос цена', pricePara: para, label: 'A', unit: 'piece' }],
        }),
      });
      if (res?.status !== 200) throw new Error(`the hub refused a price: ${res?.status} ${await res?.text()}`);
      price = para;
    };
    // Refunds of earlier sales of this till (a third of a life's sales): the one piece back, in cash, each sale at
    // most once. A refund cut off by a kill before its answer may still have been captured: it is counted by what
    // the tills and the hub hold at the end, like the sales.
    const refund = async (t: HostProcess, i: number): Promise<void> => {
      const mine = sold[i] ?? [];
      for (let n = Math.ceil(options.ordersPerLife / 3); n > 0 && mine.length > 0; n--) {
        const [orderId] = mine.splice(Math.floor(random() * mine.length), 1);
        try {
          const r = await t.call<{ orderNumber: string }>('refunds.create', {
            orderId,
            lines: [{ index: 0, quantity: 1 }],
            buyerId: '20:008123456',
            paymentType: 'cash',
          });
          if (r.body.ok && r.body.value) {
            acknowledged.add(r.body.value.orderNumber);
            refundsFired++;
          }
        } catch {
          return;
        }
      }
    };
    // Each sale sells the chaos product at the till's price once the till pulled it (its goods move at the hub),
    // else a hand-typed item; then the till refunds some of its earlier sales.
    const fire = async (t: HostProcess, i: number): Promise<void> => {
      const r = await t
        .call<{ product: { id: number; pricePara: number } } | null>('catalog.byBarcode', { code: CHAOS_CODE })
        .catch(() => null);
      const product = r?.body.ok && r.body.value ? r.body.value.product : undefined;
      await fireCheckouts(t, {
        count: options.ordersPerLife,
        random,
        payment: 'cash',
        acknowledged,
        product: product && { id: product.id, pricePara: product.pricePara },
        sold: sold[i],
      });
      await refund(t, i);
    };
    for (let life = 0; life < options.kills; life++) {
      const victim = life % 3; // 0, 1: a till; 2: the hub (each in turn, at a random moment)
      const running = tills.flatMap((t, i) => (t ? [{ t, i }] : []));
      const killAfter = 200 + Math.floor(random() * 1500);
      await setPrice(10_000 + life);
      await Promise.race([
        Promise.all(running.map(({ t, i }) => fire(t, i))),
        new Promise((r) => setTimeout(r, killAfter)),
      ]);
      if (victim === 2) {
        await hub.stop(true);
        kills.hub++;
        hub = await startHubProcess(hubEnv);
        // The same data dir, the same certificate: the tills' pin still holds.
        if (hub.fingerprint !== fingerprint) throw new Error('the restarted hub shows another certificate');
      } else {
        await tills[victim]?.stop(true);
        kills.till++;
        await startTill(victim);
      }
      log(`hub chaos (${options.backend}): ${kills.till + kills.hub} kills, ${acknowledged.size} acknowledged`);
    }
    // Calm: every till drains its gateway queue and its hub outbox.
    for (const t of tills) {
      for (let i = 0; i < 600; i++) {
        const s = await t?.call<{ queued: number }>('sync.now', {});
        const db = new Database(path.join(t?.dataDir ?? '', 'kasa.sqlite'), { readonly: true });
        const pending = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM hub_outbox').get()?.n ?? 1;
        db.close();
        if (s?.body.ok && s.body.value?.queued === 0 && pending === 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    // Master data: every till pulls the hub's last price (a pull each second; at most 30 s after the calm).
    let stale = 0;
    for (const t of tills) {
      let seen = -1;
      for (let i = 0; i < 150 && seen !== price; i++) {
        const r = await t?.call<{ product: { pricePara: number } } | null>('catalog.byBarcode', { code: CHAOS_CODE });
        seen = r?.body.ok && r.body.value ? r.body.value.product.pricePara : -1;
        if (seen !== price) await new Promise((r) => setTimeout(r, 200));
      }
      if (seen !== price) stale++;
    }
    for (let i = 0; i < tills.length; i++) {
      await tills[i]?.stop();
      tills[i] = null;
    }
    await hub.stop();
    hub = null;

    const local = new Map<string, string>();
    for (const dir of tillDirs) {
      const db = new Database(path.join(dir, 'kasa.sqlite'), { readonly: true });
      for (const r of db
        .prepare<[], { order_number: string; state: string }>('SELECT order_number, state FROM orders')
        .all())
        local.set(r.order_number, r.state);
      db.close();
    }
    const hubDb: HubDb = cluster ? await openPostgres(cluster.url) : await openPglite(hubEnv.KASA_HUB_DATA ?? '');
    let atHub: { order_number: string; state: string; n: number }[];
    let gaps = 0;
    const stock = { sales: 0, movements: 0, lost: 0, doubled: 0, offBook: false };
    const refunds = { fired: refundsFired, orders: 0, movements: 0, lost: 0, doubled: 0 };
    try {
      atHub = await hubDb.query(
        'SELECT order_number, state, count(*) OVER (PARTITION BY order_number)::int8 AS n FROM orders',
      );
      const g = await hubDb.query<{ n: number }>(
        `SELECT count(*)::int8 AS n FROM (SELECT till_id, seq, lead(seq) OVER (PARTITION BY till_id ORDER BY seq) AS next FROM till_events) s
          WHERE next > seq + 1`,
      );
      const first = await hubDb.query<{ n: number }>(
        'SELECT count(*)::int8 AS n FROM (SELECT min(seq) AS m FROM till_events GROUP BY till_id) s WHERE m <> 1',
      );
      gaps = (g[0]?.n ?? 0) + (first[0]?.n ?? 0);
      // Stock: every fiscalized sale or refund at the hub moved each of its catalog lines exactly once.
      const moves = await hubDb.query<{ kind: string; want: number; moved: number }>(
        `SELECT o.transaction_type AS kind, (SELECT count(*) FROM jsonb_array_elements(o.data->'lines') l WHERE l ? 'code')::int8 AS want,
                (SELECT count(*) FROM hub_stock_movements m
                  WHERE m.shop_id = o.shop_id AND m.source = 'order:' || o.till_id || ':' || o.order_number)::int8 AS moved
           FROM orders o WHERE o.state = 'fiscalized' AND o.invoice_number IS NOT NULL AND o.invoice_type = 'normal'
            AND o.transaction_type IN ('sale', 'refund', 'finalize')`,
      );
      for (const m of moves) {
        stock.sales += Number(m.want) > 0 ? 1 : 0;
        stock.movements += Number(m.moved);
        stock.lost += Math.max(0, Number(m.want) - Number(m.moved));
        stock.doubled += Math.max(0, Number(m.moved) - Number(m.want));
        if (m.kind !== 'refund') continue;
        refunds.orders += Number(m.want) > 0 ? 1 : 0;
        refunds.movements += Number(m.moved);
        refunds.lost += Math.max(0, Number(m.want) - Number(m.moved));
        refunds.doubled += Math.max(0, Number(m.moved) - Number(m.want));
      }
      // Refund movements of no refund the hub holds would be doubled too.
      const refundMoves = await hubDb.query<{ n: number }>(
        "SELECT count(*)::int8 AS n FROM hub_stock_movements WHERE kind = 'refund'",
      );
      refunds.doubled += Math.max(0, Number(refundMoves[0]?.n ?? 0) - refunds.movements);
      // Movements of no order the hub holds would be doubled too; and the stock is the sum of its movements.
      const all = await hubDb.query<{ n: number; qty: number }>(
        `SELECT count(*)::int8 AS n, coalesce(sum(qty_milli), 0)::int8 AS qty FROM hub_stock_movements WHERE kind IN ('sale', 'refund')`,
      );
      stock.doubled += Math.max(0, Number(all[0]?.n ?? 0) - stock.movements);
      const held = await hubDb.query<{ qty: number }>(
        'SELECT coalesce(sum(qty_milli), 0)::int8 AS qty FROM hub_stock WHERE code = $1',
        [CHAOS_CODE],
      );
      stock.offBook = Number(held[0]?.qty ?? 0) !== Number(all[0]?.qty ?? 0);
    } finally {
      await hubDb.close();
    }
    const hubState = new Map(atHub.map((r) => [r.order_number, r]));
    let lost = 0;
    for (const [n, state] of local) if (hubState.get(n)?.state !== state || hubState.get(n)?.n !== 1) lost++;
    for (const n of acknowledged) if (!local.has(n)) lost++;
    const foreign = atHub.filter((r) => !local.has(r.order_number)).length;
    return {
      orders: local.size,
      acknowledged: acknowledged.size,
      kills,
      lost,
      foreign,
      gaps,
      stale,
      stock,
      refunds,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    for (const t of tills) await t?.stop(true);
    await hub?.stop(true);
    cluster?.stop();
    await sandbox.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
