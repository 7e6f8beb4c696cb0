/** Order numbers: the gateway's idempotency key, generated locally and never reused. */
import type { Db } from '../db/open.ts';

/**
 * The next order number: terminal id + local date + a sequence that only grows. Call it inside the
 * capture transaction so a crash can never hand the same number out twice.
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
  const prefix = `${terminalId}-${day}`;
  let stmt = statements.get(db);
  if (!stmt) statements.set(db, (stmt = prepare(db)));
  const row = stmt.get(prefix);
  const seq = row?.last ?? 1;
  return `${prefix}-${String(seq).padStart(5, '0')}`;
}
