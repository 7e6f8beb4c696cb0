/**
 * What a till enrolled at the hub enters for the shop's book (docs/goods.md "What a till enrolled at a hub still
 * does itself, and how it merges"). A till speaks only for itself (the guard admits only drafts it made):
 *
 * - **Receipt drafts** keyed by (till, the till's draft id): the first send makes the hub draft, a later version
 *   saves over it, a resend or an older version sent late changes nothing; checked by the hub's rules (supplier and
 *   PIB, the shop's products, at their fields), moving nothing until a hub manager posts it.
 * - **Count entries** once per (till, the till's entry id), into the hub's count by its own rule for entries (the
 *   book at the entry's moment). Each till's entries are its count sheet (пописна листа): a till's later entry for a
 *   product replaces its own earlier one (`add`: adds to it), and the count's line holds the sum over the sheets,
 *   moved by each sheet's change. The only writer of `hub_count_till_entries` and `hub_count_sheets`.
 */
import { HubError } from '../../shared/hub/protocol.ts';
import type {
  TillCountEntryAnswer,
  TillCountEntryInput,
  TillDraftAnswer,
  TillOpenCount,
  TillReceiptDraftInput,
} from '../../shared/hub/till-goods-protocol.ts';
import type { Queryable } from '../db/db.ts';
import { docNumber } from '../goods/post.ts';
import { productsOf } from './goods.ts';
import { enteredLine, openCount, resolverOf, writeCounts } from './goods-counts.ts';
import { receiptSupplier } from './goods-receipts.ts';
import { writeTillDraft } from './goods-receipt-drafts.ts';
import type { AuthedTill, HubDeps } from './shared.ts';

interface TillDraftRow {
  id: number;
  state: 'draft' | 'posted' | 'reversed';
  till_version: number;
  number: number | null;
  year: number | null;
}

const DRAFT_OF_TILL = `SELECT r.id, r.state, r.till_version, d.number, d.year FROM hub_receipts r
    LEFT JOIN hub_goods_docs d ON d.id = r.doc_id WHERE r.shop_id = $1 AND r.till_id = $2 AND r.till_draft_id = $3`;

const answerOf = (r: TillDraftRow): TillDraftAnswer => ({
  id: Number(r.id),
  state: r.state,
  number: r.number === null || r.year === null ? null : docNumber(Number(r.number), Number(r.year)),
  version: Number(r.till_version),
});

/** The till's draft under its key, locked for the caller's transaction; undefined before its first send. */
async function lockedTillDraft(q: Queryable, till: AuthedTill, tillDraftId: number) {
  await q.query('SELECT id FROM hub_receipts WHERE shop_id = $1 AND till_id = $2 AND till_draft_id = $3 FOR UPDATE', [
    till.shopId,
    till.id,
    tillDraftId,
  ]);
  return (await q.query<TillDraftRow>(DRAFT_OF_TILL, [till.shopId, till.id, tillDraftId]))[0];
}

export function tillGoodsService(deps: HubDeps) {
  const { db, iso } = deps;
  return {
    /**
     * Saves a till's receipt draft at the hub, once per (till, draft id): a newer version saves over it, the same or
     * an older one answers the draft as it is. Refused at its field, nothing saved: a wrong PIB or unknown supplier,
     * a product the shop does not carry, a draft the hub posted already (`receipt_posted`).
     */
    async saveTillDraft(till: AuthedTill, input: TillReceiptDraftInput): Promise<TillDraftAnswer> {
      const at = iso();
      const actor = `till:${till.name}`;
      return db.tx(async (q) => {
        // One save at a time per till: two first sends of one draft, however close, make one row.
        await q.query('SELECT id FROM tills WHERE id = $1 FOR UPDATE', [till.id]);
        const held = await lockedTillDraft(q, till, input.tillDraftId);
        if (held && Number(held.till_version) >= input.version) return answerOf(held);
        if (held && held.state !== 'draft')
          throw new HubError(409, 'receipt_posted', 'the receipt is posted already', 'id');
        if (input.id !== undefined && held && Number(held.id) !== input.id)
          throw new HubError(409, 'receipt_other_till', 'the draft id does not match its key', 'id');
        const form = input.form;
        if (form.supplierId !== undefined || form.supplier) await receiptSupplier(q, till.shopId, form);
        await productsOf(
          q,
          till.shopId,
          form.lines.map((l) => l.code),
          (i) => `lines.${i}.code`,
        );
        const key = { shopId: till.shopId, tillId: till.id, tillDraftId: input.tillDraftId, version: input.version };
        await writeTillDraft(q, { ...key, id: held ? Number(held.id) : null }, form, at, actor);
        return answerOf((await lockedTillDraft(q, till, input.tillDraftId)) as TillDraftRow);
      });
    },

    /** The shop's open counts, oldest first. */
    async tillOpenCounts(till: AuthedTill): Promise<TillOpenCount[]> {
      const rows = await db.query<{
        id: number;
        number: number;
        year: number;
        groups: string[] | null;
        started_at: string;
        lines: number;
        counted: number;
      }>(
        `SELECT c.id, c.number, c.year, c.groups, c.started_at,
                (SELECT count(*)::int4 FROM hub_stock_count_lines l WHERE l.count_id = c.id) AS lines,
                (SELECT count(*)::int4 FROM hub_stock_count_lines l WHERE l.count_id = c.id
                    AND l.counted_milli IS NOT NULL) AS counted
           FROM hub_stock_counts c WHERE c.shop_id = $1 AND c.state = 'open' ORDER BY c.id`,
        [till.shopId],
      );
      return rows.map((r) => ({
        id: Number(r.id),
        number: `${r.number}/${r.year}`,
        groups: r.groups,
        startedAt: r.started_at,
        lineCount: Number(r.lines),
        countedCount: Number(r.counted),
      }));
    },

    /**
     * One entry of a till into an open count, once per (till, entry id): this till's sheet of the product is set
     * (or added to), and the count's line moves by the sheet's change, the book kept at this moment (the hub
     * count's rule). A resend answers the line as it is now with `applied` false. Refused at its field, nothing
     * saved: a count closed or of another shop (`countId`), a product unknown or outside the count (`code`).
     */
    async tillCountEntry(till: AuthedTill, input: TillCountEntryInput): Promise<TillCountEntryAnswer> {
      const at = iso();
      return db.tx(async (q) => {
        const count = await openCount(q, till.shopId, input.countId);
        const { resolve } = await resolverOf(q, till.shopId, count.id, [input.code]);
        const line = enteredLine(resolve, input.code, 'code');
        const sheetOf = async () =>
          Number(
            (
              await q.query<{ m: number }>(
                'SELECT counted_milli AS m FROM hub_count_sheets WHERE count_id = $1 AND till_id = $2 AND code = $3',
                [count.id, till.id, line.code],
              )
            )[0]?.m ?? 0,
          );
        const taken = await q.query(
          `INSERT INTO hub_count_till_entries (till_id, entry_id, count_id, code, qty_milli, add, at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (till_id, entry_id) DO NOTHING RETURNING entry_id`,
          [till.id, input.entryId, count.id, line.code, input.qtyMilli, input.add, at],
        );
        const before = await sheetOf();
        if (taken.length) {
          const after = input.add ? before + input.qtyMilli : input.qtyMilli;
          await q.query(
            `INSERT INTO hub_count_sheets (count_id, till_id, code, counted_milli, at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (count_id, till_id, code) DO UPDATE SET counted_milli = excluded.counted_milli, at = excluded.at`,
            [count.id, till.id, line.code, after, at],
          );
          await writeCounts(q, count, [{ line, milli: after - before, add: true }], at, `till:${till.name}`);
        }
        const counted = await q.query<{ m: number | null }>(
          'SELECT counted_milli AS m FROM hub_stock_count_lines WHERE count_id = $1 AND code = $2',
          [count.id, line.code],
        );
        return {
          entryId: input.entryId,
          countId: count.id,
          code: line.code,
          name: line.name,
          sheetMilli: await sheetOf(),
          countedMilli: Number(counted[0]?.m ?? 0),
          applied: taken.length > 0,
        };
      });
    },
  };
}
