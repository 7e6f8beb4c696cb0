/** Order numbers: the gateway's idempotency key, generated locally and never reused. */
import type { Db } from '../db/open.ts';
import { orderTag } from './till-identity.ts';

/**
 * The next order number: terminal id + this run's till tag (installation id and start count, kept
 * outside the database: sales/till-identity.ts) + local date + a sequence that only grows, e.g.
 * `KASA1-7KQ2MX3-20261123-00001`. Call it inside the capture transaction so a crash can never hand the
 * same number out twice; the tag makes it unique across restores, reinstalls, copied disks and tills
 * sharing a terminal id.
 */
const statements = new WeakMap<Db, ReturnType<typeof prepare>>();
const prepare = (db: Db) =>
  db.prepare<[string], { last: number }>(
    `INSERT INTO order_sequence (prefix, last) VALUES (?, 1)
     ON CONFLICT(prefix) DO UPDATE SET last = last + 1 RETURNING last`,
  );

export function nextOrderNumber(db: Db, terminalId: string, now: number): string {
  const d = new Date(now);
  const day = `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
  const prefix = `${terminalId}-${orderTag(db)}-${day}`;
  let stmt = statements.get(db);
  if (!stmt) statements.set(db, (stmt = prepare(db)));
  const row = stmt.get(prefix);
  const seq = row?.last ?? 1;
  return `${prefix}-${String(seq).padStart(5, '0')}`;
}
