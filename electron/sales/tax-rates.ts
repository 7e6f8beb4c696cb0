/** The gateway's current tax rates, cached in SQLite for offline use. Labels are never hard-coded. */
import type { Db } from '../db/open.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { TaxRateGroup } from '../gateway/types.ts';
import type { TaxLabel, TaxRatesView } from '../../shared/domain.ts';

export class TaxRatesCache {
  readonly #db: Db;
  readonly #now: () => number;
  #cached: TaxRatesView | null | undefined;

  constructor(db: Db, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  /** The cached current group, or null if it was never fetched. */
  get(): TaxRatesView | null {
    if (this.#cached !== undefined) return this.#cached;
    const row = this.#db
      .prepare<[], { group_id: number; valid_from: string; body: string; fetched_at: string }>(
        'SELECT group_id, valid_from, body, fetched_at FROM tax_rates WHERE id = 1',
      )
      .get();
    this.#cached = row
      ? { groupId: row.group_id, validFrom: row.valid_from, labels: JSON.parse(row.body) as TaxLabel[], fetchedAt: row.fetched_at }
      : null;
    return this.#cached;
  }

  /** Fetches `currentTaxRates` from the gateway and stores it. */
  async refresh(client: GatewayClient): Promise<TaxRatesView> {
    const res = await client.taxRates();
    const view = toView(res.currentTaxRates, new Date(this.#now()).toISOString());
    this.#db
      .prepare(
        `INSERT INTO tax_rates (id, group_id, valid_from, body, fetched_at) VALUES (1, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET group_id = excluded.group_id, valid_from = excluded.valid_from,
           body = excluded.body, fetched_at = excluded.fetched_at`,
      )
      .run(view.groupId, view.validFrom, JSON.stringify(view.labels), view.fetchedAt);
    this.#cached = view;
    return view;
  }

  /** The rate (percent) of a label in the cached group, compared as exact UTF-8. */
  rateOf(label: string): number | undefined {
    return this.get()?.labels.find((l) => l.label === label)?.rate;
  }

  /** The labels of the cached group. */
  labels(): string[] {
    return this.get()?.labels.map((l) => l.label) ?? [];
  }

  /** True when the group is the demo (test) group: its labels are Latin letters, production's are Cyrillic. */
  isDemoGroup(): boolean {
    const labels = this.labels();
    return labels.length > 0 && labels.every((l) => /^[A-Z]$/.test(l) || l === 'Ж');
  }
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
