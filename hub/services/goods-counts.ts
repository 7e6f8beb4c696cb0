/**
 * Stock-taking (попис) at the hub (docs/goods.md "Stock-taking at the hub"): a hub manager starts a count of a
 * shop, whole or of some product groups (the book quantities frozen then while the tills go on selling), enters
 * counts by typing or from a handheld's CSV, and posts it: each difference moves once as a `count` movement into
 * the shop's book and KEP (hub/goods/ledger.ts), the count's document numbered per shop and year. The rules are
 * the till's (shared/goods/stocktake-rules.ts): an entry keeps the book of its moment (the frozen quantity plus
 * what moved since), and the difference is counted − that. The only writer of `hub_stock_counts` and
 * `hub_stock_count_lines`.
 */
import type { CountLineView, CountSummary } from '../../shared/contract/goods.ts';
import {
  CountCsvRefusal,
  countDifference,
  countTotals,
  countedAfter,
  countsOverlap,
  csvRows,
  differenceValue,
  parseCountCsv,
  type CountLineColumns,
} from '../../shared/goods/stocktake-rules.ts';
import type { HubCountEnterInput, HubCountList, HubCountView } from '../../shared/hub/count-protocol.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import type { Queryable } from '../db/db.ts';
import { hubDay, hubDocument, hubMoveEachOnce, nextHubNumber } from '../goods/ledger.ts';
import type { HubDeps } from './shared.ts';

interface CountRow {
  id: number;
  shop_id: number;
  number: number;
  year: number;
  state: 'open' | 'posted' | 'cancelled';
  groups: string[] | null;
  started_at: string;
  started_by: string | null;
  closed_at: string | null;
  closed_by: string | null;
}

export interface LineRow extends CountLineColumns {
  line: number;
  code: string;
}

/**
 * A count's lines as one JSON value (20,000 rows cross from PGlite far faster as one text than row by row), in
 * the order of their line number.
 */
const LINES_JSON = `SELECT coalesce(json_agg(json_build_object('line', line, 'code', code, 'name', name, 'grp', grp,
    'unit', unit, 'book_milli', book_milli, 'price_para', price_para, 'purchase_para', purchase_para,
    'counted_milli', counted_milli, 'book_at_entry_milli', book_at_entry_milli, 'counted_at', counted_at)
    ORDER BY line), '[]'::json) AS rows
  FROM hub_stock_count_lines WHERE count_id = $1`;

/** The count's number as printed (`3/2026`). */
const numberOf = (r: Pick<CountRow, 'number' | 'year'>): string => `${r.number}/${r.year}`;

/** A count of the shop, locked for the caller's transaction with `lock`; 404 when the shop has none of that id. */
async function countOf(q: Queryable, shopId: number, id: number, lock = false): Promise<CountRow> {
  const r = (
    await q.query<CountRow>(
      `SELECT * FROM hub_stock_counts WHERE id = $1 AND shop_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [id, shopId],
    )
  )[0];
  if (!r) throw new HubError(404, 'goods_count_not_found', 'no such count of this shop', 'countId', { id });
  return r;
}

/** An open count (locked), or 409 at `countId` when it is posted or cancelled. */
export async function openCount(q: Queryable, shopId: number, id: number): Promise<CountRow> {
  const r = await countOf(q, shopId, id, true);
  if (r.state !== 'open') throw new HubError(409, 'goods_count_closed', 'the count is closed', 'countId');
  return r;
}

async function linesOf(q: Queryable, id: number): Promise<LineRow[]> {
  const r = await q.query<{ rows: LineRow[] | string }>(LINES_JSON, [id]);
  const rows = r[0]?.rows ?? [];
  return typeof rows === 'string' ? (JSON.parse(rows) as LineRow[]) : rows;
}

function summaryOf(r: CountRow, lines: number, counted: number): CountSummary {
  return {
    id: r.id,
    number: numberOf(r),
    state: r.state,
    groups: r.groups,
    startedAt: r.started_at,
    startedBy: r.started_by,
    postedAt: r.closed_at,
    postedBy: r.closed_by,
    lineCount: lines,
    countedCount: counted,
  };
}

/** A count with its lines: the difference of each at the value it moved (posted) or at the book's price now. */
async function viewOf(q: Queryable, r: CountRow): Promise<HubCountView> {
  const rows = await linesOf(q, r.id);
  const moved = new Map(
    r.state === 'posted'
      ? Object.entries(
          (
            await q.query<{ m: Record<string, number> | null }>(
              `SELECT json_object_agg(line, value_para) AS m FROM hub_stock_movements
                WHERE shop_id = $1 AND source = $2`,
              [r.shop_id, `count:${r.id}`],
            )
          )[0]?.m ?? {},
        ).map(([line, v]) => [Number(line), Number(v)])
      : [],
  );
  const prices = new Map(
    r.state === 'open'
      ? (
          await q.query<{ code: string; p: number }>(
            `SELECT s.code, s.price_para::int8 AS p FROM hub_stock s JOIN hub_stock_count_lines l ON l.code = s.code
              WHERE s.shop_id = $1 AND l.count_id = $2`,
            [r.shop_id, r.id],
          )
        ).map((s) => [s.code, Number(s.p)])
      : [],
  );
  const lines = rows.map((l): CountLineView => {
    const counted = l.counted_milli === null ? null : Number(l.counted_milli);
    const atEntry = l.book_at_entry_milli === null ? null : Number(l.book_at_entry_milli);
    const diff = countDifference(counted, atEntry);
    const price = Number(l.price_para);
    return {
      code: l.code,
      name: l.name,
      group: l.grp,
      unit: l.unit,
      bookMilli: Number(l.book_milli),
      countedMilli: counted,
      bookAtEntryMilli: atEntry,
      differenceMilli: diff,
      pricePara: price,
      retailDiffPara: moved.get(Number(l.line)) ?? differenceValue(diff, prices.get(l.code) ?? price),
      purchaseDiffPara: differenceValue(diff, Number(l.purchase_para ?? 0)),
      countedAt: l.counted_at,
    };
  });
  const counted = lines.filter((l) => l.countedMilli !== null).length;
  return { ...summaryOf(r, lines.length, counted), lines, totals: countTotals(lines, true) };
}

/** What a typed or scanned code is in a count: its line, or why not (outside the count, not carried by the shop). */
type Resolved = LineRow | 'outside' | 'unknown';

/**
 * The count's lines by code and, for the codes given that are none of them, what they are: a barcode of a line's
 * product, a product of the shop outside the count, or unknown. Read in three queries however many codes.
 */
export async function resolverOf(
  q: Queryable,
  shopId: number,
  countId: number,
  codes: readonly string[],
): Promise<{ lines: Map<string, LineRow>; resolve: (code: string) => Resolved }> {
  const lines = new Map((await linesOf(q, countId)).map((l) => [l.code, l]));
  const others = [...new Set(codes.filter((c) => !lines.has(c)))];
  const byBarcode = new Map<string, string>();
  const carried = new Set<string>();
  if (others.length) {
    for (const r of await q.query<{ code: string; barcode: string }>(
      `SELECT p.code, b.barcode FROM products p, jsonb_array_elements_text(p.barcodes) AS b(barcode)
        WHERE p.shop_id = $1 AND NOT p.deleted AND b.barcode = ANY($2::text[]) ORDER BY p.code`,
      [shopId, others],
    ))
      if (!byBarcode.has(r.barcode) || lines.has(r.code)) byBarcode.set(r.barcode, r.code);
    for (const r of await q.query<{ code: string }>(
      `SELECT code FROM products WHERE shop_id = $1 AND code = ANY($2::text[]) AND NOT deleted
       UNION SELECT code FROM hub_stock WHERE shop_id = $1 AND code = ANY($2::text[])`,
      [shopId, others],
    ))
      carried.add(r.code);
  }
  const resolve = (code: string): Resolved => {
    const line = lines.get(code) ?? lines.get(byBarcode.get(code) ?? '');
    if (line) return line;
    return byBarcode.has(code) || carried.has(code) ? 'outside' : 'unknown';
  };
  return { lines, resolve };
}

/**
 * The count's line of an entered code, or the entry's refusal at its field (400, nothing saved): a product of the
 * shop outside this count, or one the shop does not have. One rule for the hub's own entries and a till's.
 */
export function enteredLine(resolve: (code: string) => Resolved, code: string, field: string): LineRow {
  const line = resolve(code);
  if (line === 'outside' || line === 'unknown')
    throw new HubError(
      400,
      line === 'outside' ? 'goods_count_outside' : 'goods_unknown_product',
      `${code} is not in this count`,
      field,
      { value: code },
    );
  return line;
}

/**
 * Writes counts into an open count (the caller's transaction), set-wise: each line's counted quantity (added to
 * or replacing what it had) and the book at this entry, the shop's stock now (the frozen book plus what moved since).
 */
export async function writeCounts(
  q: Queryable,
  count: CountRow,
  entries: readonly { line: LineRow; milli: number; add: boolean }[],
  at: string,
  by: string | null,
): Promise<void> {
  const counted = new Map<string, number>();
  for (const e of entries) {
    const before = counted.get(e.line.code) ?? (e.line.counted_milli === null ? null : Number(e.line.counted_milli));
    counted.set(e.line.code, countedAfter(before, e.milli, e.add));
  }
  const codes = [...counted.keys()];
  await q.query(
    `UPDATE hub_stock_count_lines l SET counted_milli = u.counted, counted_at = $3, counted_by = $4,
            book_at_entry_milli = coalesce((SELECT s.qty_milli FROM hub_stock s WHERE s.shop_id = $2 AND s.code = u.code), 0)
       FROM unnest($5::text[], $6::int8[]) AS u(code, counted)
      WHERE l.count_id = $1 AND l.code = u.code`,
    [count.id, count.shop_id, at, by, codes, codes.map((c) => counted.get(c))],
  );
}

/** Starting a count: numbered, its lines and their book frozen; refused when it would overlap an open one. */
function startArea(deps: HubDeps) {
  const { db, iso, zone } = deps;
  return {
    async countStart(shopId: number, groups: readonly string[] | undefined, actor: string | null) {
      const at = iso();
      const scope = groups && groups.length > 0 ? [...new Set(groups)] : null;
      return db.tx(async (q) => {
        // One start at a time per shop: two overlapping counts never both begin.
        await q.query('SELECT id FROM shops WHERE id = $1 FOR UPDATE', [shopId]);
        if (scope) {
          const known = new Set(
            (
              await q.query<{ grp: string }>(
                'SELECT DISTINCT grp FROM products WHERE shop_id = $1 AND grp IS NOT NULL AND NOT deleted',
                [shopId],
              )
            ).map((g) => g.grp),
          );
          scope.forEach((g, i) => {
            if (!known.has(g))
              throw new HubError(400, 'goods_count_group', `no group ${g}`, `groups.${i}`, { value: g });
          });
        }
        const open = await q.query<CountRow>(
          "SELECT * FROM hub_stock_counts WHERE shop_id = $1 AND state = 'open' ORDER BY id",
          [shopId],
        );
        const clash = open.find((c) => countsOverlap(c.groups, scope));
        if (clash)
          throw new HubError(409, 'goods_count_overlap', 'an open count takes these goods', 'groups', {
            number: numberOf(clash),
          });
        const year = Number(hubDay(at, zone).slice(0, 4));
        const number = await nextHubNumber(q, shopId, 'count', year);
        const made = await q.query<CountRow>(
          `INSERT INTO hub_stock_counts (shop_id, number, year, state, groups, started_at, started_by)
           VALUES ($1, $2, $3, 'open', $4, $5, $6) RETURNING *`,
          [shopId, number, year, scope ? JSON.stringify(scope) : null, at, actor],
        );
        const count = made[0] as CountRow;
        // Every product of the shop (of the groups), and for the whole shop what the book holds outside the catalog.
        await q.query(
          `INSERT INTO hub_stock_count_lines (count_id, line, code, name, grp, unit, book_milli, price_para, purchase_para)
           SELECT $1, (row_number() OVER (ORDER BY grp NULLS LAST, name, code))::int4 - 1, code, name, grp, unit, book,
                  price, purchase
             FROM (SELECT p.code, p.name, p.grp, p.unit, coalesce(s.qty_milli, 0) AS book,
                          coalesce(s.price_para, p.price_para) AS price, s.purchase_para AS purchase
                     FROM products p LEFT JOIN hub_stock s ON s.shop_id = p.shop_id AND s.code = p.code
                    WHERE p.shop_id = $2 AND NOT p.deleted AND ($3::jsonb IS NULL OR $3::jsonb ? p.grp)
                   UNION ALL
                   SELECT s.code, s.name, NULL, 'piece', s.qty_milli, s.price_para, s.purchase_para
                     FROM hub_stock s
                    WHERE s.shop_id = $2 AND $3::jsonb IS NULL AND NOT EXISTS
                          (SELECT 1 FROM products p WHERE p.shop_id = s.shop_id AND p.code = s.code AND NOT p.deleted)
                  ) AS c`,
          [count.id, shopId, scope ? JSON.stringify(scope) : null],
        );
        return viewOf(q, count);
      });
    },
  };
}

/** Entering counts: typed (or scanned) lines and a handheld's CSV, each whole or not at all. */
function entryArea(deps: HubDeps) {
  const { db, iso } = deps;
  return {
    async countEnter(shopId: number, input: HubCountEnterInput, actor: string | null): Promise<HubCountView> {
      return db.tx(async (q) => {
        const count = await openCount(q, shopId, input.countId);
        const { resolve } = await resolverOf(
          q,
          shopId,
          count.id,
          input.lines.map((l) => l.code),
        );
        const entries = input.lines.map((l, i) => ({
          line: enteredLine(resolve, l.code, `lines.${i}.code`),
          milli: l.qtyMilli,
          add: l.add === true,
        }));
        await writeCounts(q, count, entries, iso(), actor);
        return viewOf(q, count);
      });
    },

    /** A handheld's CSV, the till's format and rules: refused whole at its first bad row, nothing half-imported. */
    async countImport(shopId: number, countId: number, csv: string, actor: string | null): Promise<HubCountView> {
      return db.tx(async (q) => {
        const count = await openCount(q, shopId, countId);
        const codes = csvRows(csv).map((r) => r.cells[0] ?? '');
        const { resolve } = await resolverOf(q, shopId, count.id, codes);
        let counted: { line: LineRow; milli: number }[];
        try {
          counted = parseCountCsv(
            csv,
            (code, row) => {
              const line = resolve(code);
              if (line === 'outside' || line === 'unknown')
                throw new CountCsvRefusal(line === 'outside' ? 'goods_csv_outside' : 'goods_csv_unknown', {
                  row,
                  column: 1,
                  value: code,
                });
              return line;
            },
            (l) => l.code,
          );
        } catch (e) {
          if (e instanceof CountCsvRefusal)
            throw new HubError(400, e.key, 'a row of the CSV is refused', 'csv', e.params);
          throw e;
        }
        await writeCounts(
          q,
          count,
          counted.map((c) => ({ ...c, add: false })),
          iso(),
          actor,
        );
        return viewOf(q, count);
      });
    },
  };
}

/** Posting (once) and cancelling a count; reading a shop's counts. */
function closeArea(deps: HubDeps) {
  const { db, iso, zone } = deps;
  return {
    /**
     * Posts a count in one transaction: each difference moves once (`count:<id>`, its line) at the book's price,
     * the count's document (its surplus a debit, its shortage a credit of the KEP) is made, the count is closed.
     * A count posted already is answered as it is with `posted` false (a retry, a second click): nothing moves twice.
     */
    async countPost(
      shopId: number,
      countId: number,
      actor: string | null,
    ): Promise<{ view: HubCountView; posted: boolean }> {
      const at = iso();
      const day = hubDay(at, zone);
      return db.tx(async (q) => {
        const locked = await countOf(q, shopId, countId, true);
        if (locked.state === 'posted') return { view: await viewOf(q, locked), posted: false };
        const count = await openCount(q, shopId, countId);
        const moving = (await linesOf(q, count.id)).flatMap((l) => {
          const diff = countDifference(
            l.counted_milli === null ? null : Number(l.counted_milli),
            l.book_at_entry_milli === null ? null : Number(l.book_at_entry_milli),
          );
          return diff
            ? [{ code: l.code, name: l.name, line: Number(l.line), qtyMilli: diff, pricePara: Number(l.price_para) }]
            : [];
        });
        const values = await hubMoveEachOnce(
          q,
          shopId,
          { at, day, kind: 'count', source: `count:${count.id}` },
          moving,
        );
        let surplus = 0;
        let shortage = 0;
        for (const v of values.values())
          if (v > 0) surplus += v;
          else shortage -= v;
        const detail = { countId: count.id, groups: count.groups, differences: moving.length, surplus, shortage };
        const doc = await hubDocument(
          q,
          shopId,
          { kind: 'count', at, day, actor, valuePara: surplus - shortage, detail },
          { number: count.number, year: count.year },
        );
        const closed = await q.query<CountRow>(
          `UPDATE hub_stock_counts SET state = 'posted', closed_at = $2, closed_by = $3, doc_id = $4
            WHERE id = $1 AND state = 'open' RETURNING *`,
          [count.id, at, actor, doc.id],
        );
        return { view: await viewOf(q, closed[0] as CountRow), posted: true };
      });
    },

    async countCancel(shopId: number, countId: number, actor: string | null): Promise<HubCountView> {
      return db.tx(async (q) => {
        const count = await openCount(q, shopId, countId);
        const closed = await q.query<CountRow>(
          `UPDATE hub_stock_counts SET state = 'cancelled', closed_at = $2, closed_by = $3 WHERE id = $1 RETURNING *`,
          [count.id, iso(), actor],
        );
        return viewOf(q, closed[0] as CountRow);
      });
    },

    async countView(shopId: number, countId: number): Promise<HubCountView> {
      return viewOf(db, await countOf(db, shopId, countId));
    },

    async counts(shopId: number): Promise<HubCountList> {
      const rows = await db.query<CountRow & { lines: number; counted: number }>(
        `SELECT c.*, (SELECT count(*)::int4 FROM hub_stock_count_lines l WHERE l.count_id = c.id) AS lines,
                (SELECT count(*)::int4 FROM hub_stock_count_lines l WHERE l.count_id = c.id
                    AND l.counted_milli IS NOT NULL) AS counted
           FROM hub_stock_counts c WHERE c.shop_id = $1 ORDER BY c.id DESC LIMIT 100`,
        [shopId],
      );
      const groups = await db.query<{ grp: string }>(
        'SELECT DISTINCT grp FROM products WHERE shop_id = $1 AND grp IS NOT NULL AND NOT deleted ORDER BY grp',
        [shopId],
      );
      return {
        counts: rows.map((r) => summaryOf(r, Number(r.lines), Number(r.counted))),
        groups: groups.map((g) => g.grp),
      };
    },
  };
}

/** The stock-taking area: its parts composed (each under the hub's function-size bound). */
export function goodsCountsService(deps: HubDeps) {
  return { ...startArea(deps), ...entryArea(deps), ...closeArea(deps) };
}
