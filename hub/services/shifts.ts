/** The shifts area: a till's pushed shift stored (the hub's reports read them: hub/reports.ts). */
import type { Queryable } from '../db/db.ts';
import type { ShiftSnapshot } from '../../shared/hub/protocol.ts';
import type { AuthedTill } from './shared.ts';

/** Stores one shift of a till's push in its transaction; never moved back to an older event. */
export async function storeShift(q: Queryable, till: AuthedTill, e: { seq: number }, sh: ShiftSnapshot): Promise<void> {
  await q.query(
    `INSERT INTO shifts (till_id, shift_id, shop_id, seq, cashier, opened_at, closed_at, closed_by,
   opening_float_para, cash_in_para, cash_out_para, expected_para, counted_para, counted_detail)
 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
 ON CONFLICT (till_id, shift_id) DO UPDATE SET seq = excluded.seq, closed_at = excluded.closed_at,
   closed_by = excluded.closed_by, cash_in_para = excluded.cash_in_para,
   cash_out_para = excluded.cash_out_para, expected_para = excluded.expected_para,
   counted_para = excluded.counted_para, counted_detail = excluded.counted_detail
 WHERE shifts.seq < excluded.seq`,
    [
      till.id,
      sh.id,
      till.shopId,
      e.seq,
      sh.cashier,
      sh.opened_at,
      sh.closed_at,
      sh.closed_by,
      sh.opening_float_para,
      sh.cash_in_para,
      sh.cash_out_para,
      sh.expected_para,
      sh.counted_para,
      sh.counted_detail ? JSON.stringify(sh.counted_detail) : null,
    ],
  );
}
