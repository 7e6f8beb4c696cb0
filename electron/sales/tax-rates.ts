/**
 * The gateway's tax rates, cached in SQLite for offline use. Labels are never hard-coded.
 *
 * The current group and the groups announced in advance (`allTaxRates` entries whose
 * `validFrom` is later than the current group's, table `tax_rates_announced` of migration 012) are both
 * kept; `get()` answers the group in force at the injected clock's now, so an announced group becomes
 * current at its `validFrom` on time, offline too. `startTaxRates` refreshes from the gateway hourly.
 */
import type { Db } from '../db/open.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { TaxRateGroup } from '../gateway/types.ts';
import { createSyncLoop, type LoopTimers } from '../retry/loop.ts';
import type { TaxLabel, TaxRatesView } from '../../shared/domain.ts';

export const TAX_RATES_REFRESH_MS = 3_600_000;

/** The setting that keeps the labels the Tax Administration refused for this account (2310), by tax group. */
const REFUSED_KEY = 'taxLabelsRefused';

/** Where the refused labels are kept: the till's settings (electron/settings/settings.ts owns the table). */
export interface RefusedLabelsStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

export class TaxRatesCache {
  readonly #db: Db;
  readonly #now: () => number;
  readonly #store: RefusedLabelsStore | undefined;
  #cached: TaxRatesView | null | undefined;
  /** When the cached answer stops being the group in force (an announced group's validFrom), or null. */
  #switchAt: number | null = null;

  constructor(db: Db, now: () => number = Date.now, store?: RefusedLabelsStore) {
    this.#db = db;
    this.#now = now;
    this.#store = store;
  }

  /**
   * The group in force now (the cached current one, or an announced one whose validFrom has come), or null if never
   * fetched.
   */
  get(): TaxRatesView | null {
    const now = this.#now();
    if (this.#cached !== undefined && (this.#switchAt === null || now < this.#switchAt)) return this.#cached;
    const row = this.#db
      .prepare<[], { group_id: number; valid_from: string; body: string; fetched_at: string }>(
        'SELECT group_id, valid_from, body, fetched_at FROM tax_rates WHERE id = 1',
      )
      .get();
    if (!row) {
      this.#cached = null;
      this.#switchAt = null;
      return null;
    }
    const current: TaxRatesView = {
      groupId: row.group_id,
      validFrom: row.valid_from,
      labels: JSON.parse(row.body) as TaxLabel[],
      fetchedAt: row.fetched_at,
    };
    const announced = this.#announced().map((a): TaxRatesView => ({
      groupId: a.group_id,
      validFrom: a.valid_from,
      labels: JSON.parse(a.body) as TaxLabel[],
      fetchedAt: row.fetched_at,
    }));
    const at = (v: TaxRatesView): number => Date.parse(v.validFrom);
    let chosen = current;
    for (const a of announced) if (at(a) <= now && at(a) > at(chosen)) chosen = a;
    const later = announced.map(at).filter((t) => t > now && t > at(chosen));
    this.#cached = chosen;
    this.#switchAt = later.length ? Math.min(...later) : null;
    return chosen;
  }

  /** The groups announced for later than the current one, earliest first. */
  announced(): TaxRatesView[] {
    const fetchedAt = this.get()?.fetchedAt ?? '';
    return this.#announced().map((a) => ({
      groupId: a.group_id,
      validFrom: a.valid_from,
      labels: JSON.parse(a.body) as TaxLabel[],
      fetchedAt,
    }));
  }

  #announced(): { group_id: number; valid_from: string; body: string }[] {
    return this.#db
      .prepare<[], { group_id: number; valid_from: string; body: string }>(
        'SELECT group_id, valid_from, body FROM tax_rates_announced',
      )
      .all()
      .sort((a, b) => Date.parse(a.valid_from) - Date.parse(b.valid_from));
  }

  /** Fetches `currentTaxRates` and the groups announced after it from the gateway and stores them. */
  async refresh(client: GatewayClient): Promise<TaxRatesView> {
    const res = await client.taxRates();
    const fetchedAt = new Date(this.#now()).toISOString();
    const view = toView(res.currentTaxRates, fetchedAt);
    const from = Date.parse(view.validFrom);
    const later = (res.allTaxRates ?? [])
      .filter((g) => Date.parse(g.validFrom) > from && g.groupId !== view.groupId)
      .map((g) => toView(g, fetchedAt));
    this.#db.transaction(() => {
      this.#db
        .prepare(
          `INSERT INTO tax_rates (id, group_id, valid_from, body, fetched_at) VALUES (1, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET group_id = excluded.group_id, valid_from = excluded.valid_from,
             body = excluded.body, fetched_at = excluded.fetched_at`,
        )
        .run(view.groupId, view.validFrom, JSON.stringify(view.labels), view.fetchedAt);
      this.#db.prepare('DELETE FROM tax_rates_announced').run();
      const put = this.#db.prepare(
        'INSERT OR REPLACE INTO tax_rates_announced (group_id, valid_from, body) VALUES (?, ?, ?)',
      );
      for (const g of later) put.run(g.groupId, g.validFrom, JSON.stringify(g.labels));
    })();
    this.#cached = undefined;
    return this.get() ?? view;
  }

  /** The rate (percent) of a label in the group in force, compared as exact UTF-8. */
  rateOf(label: string): number | undefined {
    return this.get()?.labels.find((l) => l.label === label)?.rate;
  }

  /**
   * The shop's usual label in `view` (the group in force): the label most used by the catalog's products among
   * the current ones, else the general rate's (the highest rate). A new item starts with it; the first label in
   * the list (demo: Ж, which the demo account's secure element refuses) was a guess that cost a fiscal receipt.
   */
  usualLabel(view: TaxRatesView): string | undefined {
    const refused = new Set(this.refused());
    const usable = view.labels.filter((l) => !refused.has(l.label));
    const current = new Set(usable.map((l) => l.label));
    const used = this.#db
      .prepare<[], { label: string }>('SELECT label FROM products GROUP BY label ORDER BY COUNT(*) DESC, label')
      .all();
    const fromCatalog = used.find((u) => current.has(u.label))?.label;
    if (fromCatalog !== undefined) return fromCatalog;
    return [...usable].sort((a, b) => b.rate - a.rate)[0]?.label;
  }

  /**
   * The labels of the group in force that can be sold under: those the Tax Administration refused for this account
   * (`refused`) are left out, so a product, a sale line or the hub's product form is refused at its field instead
   * of a sale that ends in "needs attention".
   */
  labels(): string[] {
    const refused = new Set(this.refused());
    return (this.get()?.labels.map((l) => l.label) ?? []).filter((l) => !refused.has(l));
  }

  /**
   * The labels of the group in force that the Tax Administration refused for this account (reason 2310: listed in
   * the tax rates, not enabled on the account's secure element; the gateway's spec, "Tax labels"). Learnt from a
   * refused receipt; forgotten when the group in force changes.
   */
  refused(): string[] {
    const group = this.get();
    const kept = this.#refusals();
    if (!group || kept?.groupId !== group.groupId) return [];
    const listed = new Set(group.labels.map((l) => l.label));
    return kept.labels.filter((l) => listed.has(l));
  }

  /** Records that the Tax Administration refused `labels` (2310) for this account, in the group in force. */
  refuse(labels: readonly string[]): void {
    const group = this.get();
    if (!group || !this.#store || labels.length === 0) return;
    const had = this.refused();
    const next = [...new Set([...had, ...labels])].filter((l) => group.labels.some((g) => g.label === l)).sort();
    if (next.length === had.length) return;
    this.#store.set(REFUSED_KEY, JSON.stringify({ groupId: group.groupId, labels: next }));
  }

  #refusals(): { groupId: number; labels: string[] } | null {
    const raw = this.#store?.get(REFUSED_KEY);
    if (!raw) return null;
    try {
      const v = JSON.parse(raw) as { groupId?: unknown; labels?: unknown };
      if (typeof v.groupId !== 'number' || !Array.isArray(v.labels)) return null;
      return { groupId: v.groupId, labels: v.labels.filter((l): l is string => typeof l === 'string') };
    } catch {
      return null;
    }
  }

  /** True when the group is the demo (test) group: its labels are Latin letters, production's are Cyrillic. */
  isDemoGroup(): boolean {
    const labels = this.labels();
    return labels.length > 0 && labels.every((l) => /^[A-Z]$/.test(l) || l === 'Ж');
  }
}

/**
 * Refreshes the rates every hour (the first refresh at start is the caller's, awaited), through the one
 * background-loop mechanism. A failed refresh is logged; the cache keeps serving, and switches to an
 * announced group at its validFrom without the gateway. Returns the loop (its `sync` refreshes now).
 */
export function startTaxRates(o: {
  taxRates: TaxRatesCache;
  client: () => GatewayClient;
  log: (line: string) => void;
  timers?: LoopTimers;
  intervalMs?: number;
}): ReturnType<typeof createSyncLoop> {
  const loop = createSyncLoop(
    () =>
      o.taxRates.refresh(o.client()).then(
        () => undefined,
        (err: unknown) => o.log(`tax rates not refreshed: ${err instanceof Error ? err.message : String(err)}`),
      ),
    { timers: o.timers },
  );
  const every = o.intervalMs ?? TAX_RATES_REFRESH_MS;
  loop.start(every, every);
  return loop;
}

function toView(group: TaxRateGroup, fetchedAt: string): TaxRatesView {
  const labels: TaxLabel[] = [];
  for (const cat of group.taxCategories) {
    for (const r of cat.taxRates) {
      labels.push({ label: r.label, rate: r.rate, categoryName: cat.name, categoryType: cat.categoryType });
    }
  }
  return { groupId: group.groupId, validFrom: group.validFrom, labels, fetchedAt };
}
