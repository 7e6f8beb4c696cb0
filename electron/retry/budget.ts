/**
 * Retry budgets: every background loop that talks to the gateway outside the outbox (journal fetch,
 * e-mail, draft sync) asks here before each try and reports the outcome. After `maxTries`
 * failures, or `maxAgeMs` since the first failure, the item goes to `needs_attention` with the gateway's
 * last words and is not tried again until a person resumes it. The budget is kept in SQLite (retry_budgets),
 * so a restart neither forgets nor resets it.
 */
import type Database from 'better-sqlite3';
import type { RetryAttentionView, RetryLoopName } from '../../shared/contract/retries.ts';
import { POLICIES, backoffMs, type BudgetedPolicy } from './policy.ts';

export type RetryLoop = RetryLoopName;

/** Backoff and budget of one loop: its named policy in retry/policy.ts, or a test's own numbers. */
export type BudgetPolicy = BudgetedPolicy;

export const DEFAULT_POLICIES: Record<RetryLoop, BudgetPolicy> = {
  journal: POLICIES.journal,
  email: POLICIES.email,
  // Drafts keep no backoff of their own here (catalog/drafts.ts syncs every minute and on demand).
  drafts: POLICIES.drafts,
};

/** One item that spent its budget, as the manager's list shows it. */
export type AttentionItem = RetryAttentionView;

interface Row {
  loop: RetryLoop;
  item: string;
  label: string;
  tries: number;
  first_at: number;
  next_at: number;
  state: 'retrying' | 'needs_attention';
  last_error: string | null;
}

export class RetryBudgets {
  readonly #db: Database.Database;
  readonly #now: () => number;
  readonly #policies: Record<RetryLoop, BudgetPolicy>;

  constructor(
    db: Database.Database,
    now: () => number = Date.now,
    policies: Partial<Record<RetryLoop, Partial<BudgetPolicy>>> = {},
  ) {
    this.#db = db;
    this.#now = now;
    this.#policies = { ...DEFAULT_POLICIES };
    for (const [k, v] of Object.entries(policies) as [RetryLoop, Partial<BudgetPolicy>][]) {
      this.#policies[k] = { ...DEFAULT_POLICIES[k], ...v };
    }
  }

  policy(loop: RetryLoop): BudgetPolicy {
    return this.#policies[loop];
  }

  #row(loop: RetryLoop, item: string): Row | undefined {
    return this.#db
      .prepare<[string, string], Row>('SELECT * FROM retry_budgets WHERE loop = ? AND item = ?')
      .get(loop, item);
  }

  /** May the loop try this item now? False while it backs off or needs a person. */
  mayTry(loop: RetryLoop, item: string): boolean {
    const r = this.#row(loop, item);
    return !r || (r.state === 'retrying' && r.next_at <= this.#now());
  }

  /** True when the item spent its budget and waits for a person. */
  needsAttention(loop: RetryLoop, item: string): boolean {
    return this.#row(loop, item)?.state === 'needs_attention';
  }

  /** The try worked: the item's budget is forgotten. */
  succeeded(loop: RetryLoop, item: string): void {
    this.#db.prepare('DELETE FROM retry_budgets WHERE loop = ? AND item = ?').run(loop, item);
  }

  /**
   * The try failed with `error` (the gateway's words). Returns `needs_attention` when this failure spent
   * the budget, else `retrying` (next try after the backoff).
   */
  failed(loop: RetryLoop, item: string, label: string, error: string): 'retrying' | 'needs_attention' {
    const p = this.#policies[loop];
    const now = this.#now();
    return this.#db.transaction(() => {
      const r = this.#row(loop, item);
      const tries = (r?.tries ?? 0) + 1;
      const firstAt = r?.first_at ?? now;
      const spent = tries >= p.maxTries || now - firstAt >= p.maxAgeMs;
      const state = spent ? 'needs_attention' : 'retrying';
      const nextAt = now + backoffMs(p, tries);
      this.#db
        .prepare(
          `INSERT INTO retry_budgets (loop, item, label, tries, first_at, next_at, state, last_error)
           VALUES (@loop, @item, @label, @tries, @firstAt, @nextAt, @state, @error)
           ON CONFLICT (loop, item) DO UPDATE SET label = @label, tries = @tries, next_at = @nextAt, state = @state,
             last_error = @error`,
        )
        .run({ loop, item, label, tries, firstAt, nextAt, state, error });
      return state;
    })();
  }

  /** A person resumes the item: a fresh budget, due now. False when it was not waiting. */
  resume(loop: RetryLoop, item: string): boolean {
    return this.#db.prepare('DELETE FROM retry_budgets WHERE loop = ? AND item = ?').run(loop, item).changes === 1;
  }

  /** Every item that needs a person, oldest first. */
  attention(): AttentionItem[] {
    return this.#db
      .prepare<[], Row>("SELECT * FROM retry_budgets WHERE state = 'needs_attention' ORDER BY first_at, loop, item")
      .all()
      .map((r) => ({ loop: r.loop, item: r.item, label: r.label, tries: r.tries, lastError: r.last_error }));
  }

  /** When the item may be tried again (ms), or null when it has no failure on record. */
  retryAt(loop: RetryLoop, item: string): number | null {
    return this.#row(loop, item)?.next_at ?? null;
  }

  /** When the earliest retrying item of `loop` is due (ms), or null. */
  nextDue(loop: RetryLoop): number | null {
    return (
      this.#db
        .prepare<[string], { at: number | null }>(
          "SELECT MIN(next_at) AS at FROM retry_budgets WHERE loop = ? AND state = 'retrying'",
        )
        .get(loop)?.at ?? null
    );
  }
}
