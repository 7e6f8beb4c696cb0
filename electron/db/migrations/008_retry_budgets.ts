import type { Migration } from '../open.ts';

/**
 * Retry budgets of the background loops that talk to the gateway outside the outbox (journal fetch,
 * e-mail, draft sync, cashier sync): one row per loop and item with its tries, when it is next due and
 * the gateway's last words; `needs_attention` once the budget is spent, until a person resumes it.
 */
export const m008: Migration = {
  name: 'retry_budgets',
  up(db) {
    db.exec(`
      CREATE TABLE retry_budgets (
        loop TEXT NOT NULL,
        item TEXT NOT NULL,
        label TEXT NOT NULL,
        tries INTEGER NOT NULL DEFAULT 0,
        first_at INTEGER NOT NULL,
        next_at INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'retrying' CHECK (state IN ('retrying', 'needs_attention')),
        last_error TEXT,
        PRIMARY KEY (loop, item)
      ) STRICT;
      CREATE INDEX retry_budgets_attention ON retry_budgets (state, loop);
    `);
  },
};
