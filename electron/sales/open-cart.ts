/**
 * The counter's open cart, kept in SQLite (table open_cart, migration 015) so that a window reload, a crash
 * of the host or a restart brings it back. The counter saves every change with a revision that only grows;
 * the checkout that sells the cart closes it in the order's own transaction, so a cart is never restored
 * once sold, even when a save of it arrives after the checkout.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { ParkedLine } from '../../shared/contract/catalog.ts';
import type { OpenCartView } from '../../shared/contract/sales.ts';

interface Row {
  rev: number;
  closed_rev: number;
  lines: string;
  cashier: string | null;
  updated_at: string;
}

const StoredLines = z.array(ParkedLine);

export class OpenCart {
  readonly #get: Database.Statement<[], Row>;
  readonly #save: Database.Statement<[{ rev: number; lines: string; cashier: string | null; at: string }]>;
  readonly #close: Database.Statement<[{ rev: number; at: string }]>;

  constructor(db: Database.Database) {
    this.#get = db.prepare<[], Row>('SELECT rev, closed_rev, lines, cashier, updated_at FROM open_cart WHERE id = 1');
    // A save newer than what is stored and than the last sale wins; an older one (late, or of a sold cart)
    // changes nothing.
    this.#save = db.prepare(
      `INSERT INTO open_cart (id, rev, lines, cashier, updated_at) VALUES (1, @rev, @lines, @cashier, @at)
       ON CONFLICT (id) DO UPDATE SET rev = excluded.rev, lines = excluded.lines, cashier = excluded.cashier,
         updated_at = excluded.updated_at
       WHERE excluded.rev > open_cart.rev AND excluded.rev > open_cart.closed_rev`,
    );
    this.#close = db.prepare(
      `INSERT INTO open_cart (id, rev, closed_rev, lines, updated_at) VALUES (1, @rev, @rev, '[]', @at)
       ON CONFLICT (id) DO UPDATE SET closed_rev = max(open_cart.closed_rev, excluded.closed_rev),
         lines = CASE WHEN open_cart.rev <= excluded.closed_rev THEN '[]' ELSE open_cart.lines END,
         updated_at = excluded.updated_at`,
    );
  }

  get(): OpenCartView {
    const r = this.#get.get();
    if (!r) return { rev: 0, lines: [], cashier: null, updatedAt: null };
    const parsed = StoredLines.safeParse(JSON.parse(r.lines));
    return {
      rev: Math.max(r.rev, r.closed_rev),
      lines: parsed.success ? parsed.data : [],
      cashier: r.cashier,
      updatedAt: r.updated_at,
    };
  }

  /** Stores the cart at revision `rev`; false when a newer revision, or a sale of this one, is stored. */
  save(rev: number, lines: readonly ParkedLine[], cashier: string | null, now: number): boolean {
    const at = new Date(now).toISOString();
    return this.#save.run({ rev, lines: JSON.stringify(lines), cashier, at }).changes === 1;
  }

  /**
   * The cart at revision `rev` was sold (or parked): empty it unless a newer revision was saved since, and
   * ignore every later save at or below `rev`. Called inside the checkout's transaction.
   */
  close(rev: number, now: number): void {
    this.#close.run({ rev, at: new Date(now).toISOString() });
  }
}
