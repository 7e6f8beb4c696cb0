/**
 * Parked carts shared through the hub: a till pushes the carts it parks, the shop's other tills list
 * them and take one. Taking is one `DELETE … RETURNING` statement, so of two tills taking the same cart
 * exactly one gets it and the other is answered 404 `parked_not_found`. Works with only the LAN up.
 */
import type { HubDb } from './db/db.ts';
import { lineTotal } from '../shared/money.ts';
import type { AuthedTill } from './service.ts';
import type { HubParkedCart, HubParkedSummary, ParkInput, ParkTakeInput } from '../shared/hub/protocol.ts';
import { ParkedCart } from '../shared/contract/catalog.ts';
import { checkTillTime } from './till-trust.ts';

interface Row {
  id: number;
  till_id: number;
  till_name: string;
  local_id: number;
  name: string | null;
  created_at: string;
  lines: number;
  total_para: number;
  cart: unknown;
}

const summary = (r: Row): HubParkedSummary => ({
  id: r.id,
  tillId: r.till_id,
  tillName: r.till_name,
  localId: r.local_id,
  name: r.name,
  createdAt: r.created_at,
  lines: r.lines,
  totalPara: r.total_para,
});

/** Stores a till's parked cart; the same (till, localId) again is the same row (a retried push). */
export async function parkCart(db: HubDb, till: AuthedTill, input: ParkInput): Promise<{ id: number }> {
  // A till's time near the hub's clock (issue 39: hub/till-trust.ts), 400 `invalid_time` at `createdAt`.
  checkTillTime(input.createdAt, 'createdAt', Date.now());
  const total = input.cart.lines.reduce((s, l) => s + lineTotal(l.unitPricePara, l.quantityMilli, l.discountPara), 0);
  const rows = await db.query<{ id: number }>(
    `INSERT INTO parked_carts (shop_id, till_id, local_id, name, created_at, cart, lines, total_para)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
     ON CONFLICT (till_id, local_id) DO UPDATE SET local_id = EXCLUDED.local_id RETURNING id`,
    [
      till.shopId,
      till.id,
      input.localId,
      input.name,
      input.createdAt,
      JSON.stringify(input.cart),
      input.cart.lines.length,
      total,
    ],
  );
  return { id: rows[0]!.id };
}

/** Every cart parked in the till's shop (its own included, so it sees which of its carts were taken). */
export async function listParked(db: HubDb, till: AuthedTill): Promise<HubParkedSummary[]> {
  const rows = await db.query<Row>(
    `SELECT p.id, p.till_id, t.name AS till_name, p.local_id, p.name, p.created_at, p.lines, p.total_para, NULL AS cart
     FROM parked_carts p JOIN tills t ON t.id = p.till_id WHERE p.shop_id = $1 ORDER BY p.id LIMIT 1000`,
    [till.shopId],
  );
  return rows.map(summary);
}

/** Takes a cart: deleted in the statement that returns it (null when gone: another till took it first). */
export async function takeParked(db: HubDb, till: AuthedTill, input: ParkTakeInput): Promise<HubParkedCart | null> {
  const rows = await db.query<Row>(
    `WITH taken AS (
       DELETE FROM parked_carts WHERE shop_id = $1 AND (($2::int8 IS NOT NULL AND id = $2 AND till_id <> $3) OR ($2::int8 IS NULL AND till_id = $3 AND local_id = $4))
       RETURNING *)
     SELECT taken.id, taken.till_id, t.name AS till_name, taken.local_id, taken.name, taken.created_at, taken.lines, taken.total_para, taken.cart
     FROM taken JOIN tills t ON t.id = taken.till_id`,
    [till.shopId, input.id ?? null, till.id, input.localId ?? null],
  );
  const r = rows[0];
  if (!r) return null;
  return { ...summary(r), cart: ParkedCart.parse(r.cart) };
}
