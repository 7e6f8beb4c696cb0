/**
 * Parked carts mirrored to the gateway as receipt drafts, so another till of the shop can pick them up.
 * The local parked cart stays the truth for this till (it works offline); the draft is pushed when the
 * gateway can be reached and deleted when the cart is taken. Taking another till's cart deletes its draft
 * at the gateway FIRST: whoever deletes it owns it, so a cart is resumed at most once.
 * Each push and each owed deletion has a retry budget (retry/budget.ts, loop `drafts`): spent, it waits in
 * the manager's attention list with the gateway's words until a person resumes it.
 */
import type { Db } from '../db/open.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { GatewayError } from '../gateway/errors.ts';
import { CommandError } from '../errors.ts';
import { lineTotal, milliToDecimal, paraToDecimal, toMilli, toPara } from '../../shared/money.ts';
import { ParkedCart, type ParkedSaleView, type RemoteParkedSale } from '../../shared/contract/catalog.ts';
import type { RetryBudgets } from '../retry/budget.ts';
import { createSyncLoop } from '../retry/loop.ts';
import type { ParkedRow } from './service.ts';

export interface ParkedDraftsDeps {
  db: Db;
  client: () => GatewayClient;
  terminalId: () => string;
  now?: () => number;
  log?: (line: string) => void;
  /** Bounds the tries of each push and owed deletion (loop `drafts`). */
  budgets: RetryBudgets;
  /** False while the sync engine knows the gateway is unreachable: no background sync then. */
  online: () => boolean;
  /** True while parked carts go through the store hub instead (electron/hub/parked.ts): no drafts then. */
  viaHub?: () => boolean;
}

/**
 * Where this till's parked carts are mirrored so the shop's other tills see them (and take them at most
 * once): the gateway's drafts (createParkedDrafts, here) or the store hub (electron/hub-client/parked.ts).
 */
export interface ParkedMirror {
  /** Syncs now and then every `intervalMs` (default a minute), so carts parked offline reach the gateway. */
  start(intervalMs?: number): void;
  /** Stops the timer and waits for a sync under way. */
  stop(): Promise<void>;
  /** The draft id of a parked cart (read before the cart is taken or deleted). */
  draftOf(parkedId: number): number | null;
  /** A cart was parked: push it now if the gateway answers, else at the next sync. */
  parked(parkedId: number): Promise<void>;
  /** A cart was discarded here: its draft is deleted (now, or when the gateway is back). */
  removed(draftId: number | null): Promise<void>;
  /**
   * Before this till resumes its own parked cart: deletes the cart's draft at the gateway. If another
   * till already took it (the draft is gone), the local copy goes too and this throws not_found. Offline,
   * the deletion is owed and the cart is resumed (the one race a closed network leaves open).
   */
  claimLocal(parkedId: number): Promise<void>;
  /** Pushes carts not yet mirrored and deletions still owed. Never throws. */
  sync(): Promise<void>;
  /** Carts parked on other tills. */
  remote(): Promise<{ online: boolean; sales: RemoteParkedSale[] }>;
  /** Takes another till's cart (deleting its draft first). */
  takeRemote(draftId: number): Promise<ParkedSaleView>;
}

/**
 * The sync half both mirrors share: one sync at a time (a call during a sync makes it run once more, so what
 * changed meanwhile is pushed), a failed sync logged as `failed: <why>` and never thrown, a parked cart pushed by
 * a sync now, and the timer every `defaultMs` unless `start` is told otherwise.
 */
export function mirrorSync(
  run: () => Promise<void>,
  failed: string,
  log: (line: string) => void,
  defaultMs: number,
): Pick<ParkedMirror, 'start' | 'stop' | 'parked' | 'sync'> {
  const loop = createSyncLoop(() =>
    run().catch((err: unknown) => log(`${failed}: ${err instanceof Error ? err.message : String(err)}`)),
  );
  return {
    start(intervalMs = defaultMs) {
      loop.start(intervalMs);
    },
    stop: loop.stop,
    async parked() {
      await loop.sync();
    },
    sync: loop.sync,
  };
}

const META_TERMINAL = 'kasaTerminal';
const META_CART = 'kasaCart';

export function createParkedDrafts(deps: ParkedDraftsDeps): ParkedMirror {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => undefined);

  const body = (row: ParkedRow): Record<string, unknown> => {
    const cart = ParkedCart.parse(JSON.parse(row.cart));
    const terminal = deps.terminalId();
    return {
      draftName: row.name ?? `${terminal} #${row.id}`,
      orderNumber: draftOrderNumber(terminal, row.id),
      items: cart.lines.map((l) => ({
        name: l.name,
        quantity: milliToDecimal(l.quantityMilli),
        unitPrice: paraToDecimal(l.unitPricePara),
        totalAmount: paraToDecimal(lineTotal(l.unitPricePara, l.quantityMilli, l.discountPara)),
        labels: [l.label],
        ...(l.gtin ? { gtin: l.gtin } : {}),
        ...(l.discountPara ? { discount: paraToDecimal(l.discountPara) } : {}),
      })),
      metaFields: { [META_TERMINAL]: terminal, kasaParkedId: row.id, [META_CART]: JSON.stringify(cart) },
    };
  };

  const push = async (row: ParkedRow): Promise<void> => {
    const created = await deps.client().createDraft(body(row));
    const id = Number(created['id']); // the draft record, normalised by the gateway module
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error('the gateway returned no draft id');
    const still = db.prepare('UPDATE parked_sales SET draft_id = ? WHERE id = ?').run(id, row.id).changes;
    // Taken while the request was under way: the draft must go too.
    if (still === 0) await removeDraft(id);
  };

  const removeDraft = async (draftId: number): Promise<void> => {
    db.prepare('INSERT OR IGNORE INTO draft_deletions (draft_id, created_at) VALUES (?, ?)').run(
      draftId,
      new Date(now()).toISOString(),
    );
    try {
      await deps.client().deleteDraft(draftId);
    } catch (err) {
      if (!(err instanceof GatewayError && err.status === 404)) throw err;
    }
    db.prepare('DELETE FROM draft_deletions WHERE draft_id = ?').run(draftId);
  };

  /**
   * One try of one item within its budget. A failure the gateway answered is counted and the sync goes on
   * with the next item; no connection stops the sync (the rest would fail alike) and is counted once.
   */
  const bounded = async (key: string, label: string, fn: () => Promise<void>): Promise<void> => {
    // Paced by the sync itself (a timer, a cart parked, the list opened): no extra backoff, so a cart parked
    // offline is mirrored as soon as the gateway answers again; the budget counts and ends the tries.
    if (deps.budgets.needsAttention('drafts', key)) return;
    try {
      await fn();
      deps.budgets.succeeded('drafts', key);
    } catch (err) {
      const words = err instanceof Error ? err.message : String(err);
      if (deps.budgets.failed('drafts', key, label, words) === 'needs_attention')
        log(`${label}: needs attention: ${words}`);
      if (err instanceof GatewayError && (err.kind === 'network' || err.kind === 'timeout')) throw err;
    }
  };

  const runSync = async (): Promise<void> => {
    if (!deps.online() || deps.viaHub?.()) return;
    const owed = db.prepare<[], { draft_id: number }>('SELECT draft_id FROM draft_deletions').all();
    for (const d of owed)
      await bounded(`delete:${d.draft_id}`, `draft ${d.draft_id} (deletion)`, () => removeDraft(d.draft_id));
    const unpushed = db
      .prepare<[], ParkedRow>('SELECT id, created_at, name, cart FROM parked_sales WHERE draft_id IS NULL ORDER BY id')
      .all();
    for (const row of unpushed) await bounded(`push:${row.id}`, `parked cart ${row.name ?? row.id}`, () => push(row));
    // Carts of this till whose drafts another till took: gone here too.
    const mirrored = db
      .prepare<[], { id: number; draft_id: number }>('SELECT id, draft_id FROM parked_sales WHERE draft_id IS NOT NULL')
      .all();
    const terminal = deps.terminalId();
    for (let i = 0; i < mirrored.length; i += 100) {
      const chunk = mirrored.slice(i, i + 100);
      const listed = await deps.client().listDrafts({
        orderNumbers: chunk.map((r) => draftOrderNumber(terminal, r.id)),
        orderNumberExact: true,
        limit: 100,
      });
      const present = new Set(listed.items.map((d) => Number((d as Record<string, unknown>)['id'])));
      for (const r of chunk) {
        if (!present.has(r.draft_id))
          db.prepare('DELETE FROM parked_sales WHERE id = ? AND draft_id = ?').run(r.id, r.draft_id);
      }
    }
  };

  const mirror = mirrorSync(runSync, 'parked drafts not synced', log, 60_000);
  const sync = mirror.sync;

  return {
    ...mirror,
    draftOf(parkedId) {
      return (
        db
          .prepare<[number], { draft_id: number | null }>('SELECT draft_id FROM parked_sales WHERE id = ?')
          .get(parkedId)?.draft_id ?? null
      );
    },
    async removed(draftId) {
      if (draftId === null) return;
      db.prepare('INSERT OR IGNORE INTO draft_deletions (draft_id, created_at) VALUES (?, ?)').run(
        draftId,
        new Date(now()).toISOString(),
      );
      await sync();
    },
    async claimLocal(parkedId) {
      const draftId = this.draftOf(parkedId);
      if (draftId === null) return;
      try {
        await deps.client().deleteDraft(draftId, { timeoutMs: 3000 });
      } catch (err) {
        if (err instanceof GatewayError && err.status === 404) {
          db.prepare('DELETE FROM parked_sales WHERE id = ?').run(parkedId);
          throw new CommandError('not_found', 'parked_taken_elsewhere');
        }
        db.prepare('INSERT OR IGNORE INTO draft_deletions (draft_id, created_at) VALUES (?, ?)').run(
          draftId,
          new Date(now()).toISOString(),
        );
      }
    },
    async remote() {
      await sync();
      let items: unknown[];
      try {
        items = (await deps.client().listDrafts({ limit: 50, sortOrder: 'DESC' }, { timeoutMs: 5000 })).items;
      } catch {
        return { online: false, sales: [] };
      }
      const mine = deps.terminalId();
      const sales: RemoteParkedSale[] = [];
      for (const item of items) {
        if (!item || typeof item !== 'object') continue;
        const d = item as Record<string, unknown>;
        const meta = (d['metaFields'] ?? {}) as Record<string, unknown>;
        const terminal = typeof meta[META_TERMINAL] === 'string' ? meta[META_TERMINAL] : null;
        if (terminal === mine) continue;
        const id = Number(d['id']);
        if (!Number.isSafeInteger(id) || id <= 0) continue;
        const cart = cartOf(d);
        if (!cart) continue;
        sales.push({
          draftId: id,
          name: typeof d['draftName'] === 'string' ? d['draftName'] : null,
          createdAt: typeof d['createdAt'] === 'string' ? d['createdAt'] : null,
          lines: cart.lines.length,
          totalPara: cart.lines.reduce((s, l) => s + lineTotal(l.unitPricePara, l.quantityMilli, l.discountPara), 0),
          terminal,
        });
      }
      return { online: true, sales };
    },
    async takeRemote(draftId) {
      const client = deps.client();
      let draft: Record<string, unknown>;
      try {
        draft = await client.getDraft(draftId);
        await client.deleteDraft(draftId);
      } catch (err) {
        if (err instanceof GatewayError && err.status === 404) throw new CommandError('not_found', 'not_found');
        throw new CommandError('unavailable', 'gateway_unreachable');
      }
      const cart = cartOf(draft);
      if (!cart) throw new CommandError('not_found', 'not_found');
      return {
        id: draftId,
        createdAt: typeof draft['createdAt'] === 'string' ? draft['createdAt'] : new Date(now()).toISOString(),
        name: typeof draft['draftName'] === 'string' ? draft['draftName'] : null,
        lines: cart.lines.length,
        totalPara: cart.lines.reduce((s, l) => s + lineTotal(l.unitPricePara, l.quantityMilli, l.discountPara), 0),
        cart,
      };
    },
  };
}

/** A parked cart's draft order number; the P segment keeps it apart from every real order number. */
function draftOrderNumber(terminal: string, parkedId: number): string {
  return `${terminal}-P${String(parkedId).padStart(6, '0')}`;
}

/** The cart of a draft: Kasa's own copy in metaFields when present, else rebuilt from the draft's items. */
function cartOf(draft: Record<string, unknown>): ParkedCart | null {
  const meta = (draft['metaFields'] ?? {}) as Record<string, unknown>;
  if (typeof meta[META_CART] === 'string') {
    try {
      const parsed = ParkedCart.safeParse(JSON.parse(meta[META_CART]));
      if (parsed.success) return parsed.data;
    } catch {
      // fall through to the items
    }
  }
  const items = Array.isArray(draft['items']) ? (draft['items'] as Record<string, unknown>[]) : [];
  const lines = items.flatMap((it) => {
    const unitPricePara = toPara(Number(it['unitPrice']));
    const quantityMilli = toMilli(Number(it['quantity']));
    const labels = Array.isArray(it['labels']) ? it['labels'] : [];
    const label = typeof labels[0] === 'string' ? labels[0] : null;
    if (
      unitPricePara === null ||
      quantityMilli === null ||
      quantityMilli <= 0 ||
      !label ||
      typeof it['name'] !== 'string'
    )
      return [];
    const discountPara = it['discount'] !== undefined ? (toPara(Number(it['discount'])) ?? 0) : 0;
    return [
      { name: it['name'].slice(0, 100), unitPricePara, quantityMilli, discountPara, label, unit: 'piece' as const },
    ];
  });
  const parsed = ParkedCart.safeParse({ lines });
  return parsed.success ? parsed.data : null;
}
