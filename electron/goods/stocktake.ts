/**
 * Stock-taking (попис, docs/goods.md): a manager starts a count of the whole shop or of some groups (the book
 * quantities are frozen then and selling goes on), anyone logged in enters counts (typed, scanned or from a
 * handheld's CSV), and a manager posts it: each difference moves once as a `count` movement into the KEP. It writes
 * stock_counts, stock_count_lines and stock_minimums; stock and its movements go through the ledger.
 *
 * A line counted after a sale is right: its entry keeps the book quantity of that moment (the start's less what
 * sold or moved since), and the difference is counted − that. What moves after the entry stays on top of it.
 */
import type { Db } from '../db/open.ts';
import { auditCall, personOf, type AuditDeps, type Caller } from '../auth/context.ts';
import { CommandError, invalidInput } from '../errors.ts';
import type {
  CountEntryInput,
  CountLineView,
  CountSummary,
  CountView,
  ReorderView,
  SupplierView,
} from '../../shared/contract/goods.ts';
import type { Language, OrderLine } from '../../shared/domain.ts';
import { formatQuantity, toMilli } from '../../shared/money.ts';
import { valueAt } from '../../shared/goods/calc.ts';
import {
  CountCsvRefusal,
  countDifference,
  countTotals,
  countedAfter,
  differenceValue,
  parseCountCsv,
  type CountLineColumns,
} from '../../shared/goods/stocktake-rules.ts';
import { reorderCsv } from '../../shared/i18n/goods.ts';
import { reorderView, type ReorderRow } from '../../shared/goods/reorder.ts';
import { bookDay, codeOfLine, docMove, move, nextNumber, stockOf } from './ledger.ts';

export interface StocktakeDeps extends AuditDeps {
  language(): Language;
  now?(): Date;
}

interface CountRow {
  id: number;
  number: number;
  year: number;
  state: 'open' | 'posted' | 'cancelled';
  groups: string | null;
  started_at: string;
  started_by: string | null;
  posted_at: string | null;
  posted_by: string | null;
}

interface LineRow extends CountLineColumns {
  count_id: number;
  line: number;
  product_code: string;
  counted_by: string | null;
}

export type StocktakeService = ReturnType<typeof createStocktake>;

export function createStocktake(db: Db, deps: StocktakeDeps) {
  const now = (): Date => deps.now?.() ?? new Date();
  const st = {
    count: db.prepare<[number], CountRow>('SELECT * FROM stock_counts WHERE id = ?'),
    open: db.prepare<[], CountRow>("SELECT * FROM stock_counts WHERE state = 'open'"),
    lines: db.prepare<[number], LineRow>('SELECT * FROM stock_count_lines WHERE count_id = ? ORDER BY line'),
    line: db.prepare<[number, string], LineRow>(
      'SELECT * FROM stock_count_lines WHERE count_id = ? AND product_code = ?',
    ),
    byBarcode: db.prepare<[string], { code: string }>(
      'SELECT p.code FROM product_barcodes b JOIN products p ON p.id = b.product_id WHERE b.barcode = ?',
    ),
    product: db.prepare<[string], { code: string }>('SELECT code FROM products WHERE code = ?'),
    setCount: db.prepare(
      `UPDATE stock_count_lines SET counted_milli = ?, book_at_entry_milli = ?, counted_at = ?, counted_by = ?
        WHERE count_id = ? AND product_code = ?`,
    ),
    moved: db.prepare<[string, number], { v: number }>(
      'SELECT value_para AS v FROM stock_movements WHERE source = ? AND line = ?',
    ),
  };

  function lineView(count: CountRow, l: LineRow, manager: boolean): CountLineView {
    const diff = countDifference(l.counted_milli, l.book_at_entry_milli);
    let retail = 0;
    if (diff !== null && diff !== 0) {
      const moved = count.state === 'posted' ? st.moved.get(`count:${count.id}`, l.line) : undefined;
      retail = moved?.v ?? valueAt(diff, stockOf(db, l.product_code)?.price_para ?? l.price_para);
    }
    return {
      code: l.product_code,
      name: l.name,
      group: l.grp,
      unit: l.unit,
      bookMilli: l.book_milli,
      countedMilli: l.counted_milli,
      bookAtEntryMilli: l.book_at_entry_milli,
      differenceMilli: diff,
      pricePara: l.price_para,
      retailDiffPara: retail,
      purchaseDiffPara: manager ? differenceValue(diff, l.purchase_para ?? 0) : null,
      countedAt: l.counted_at,
    };
  }

  function summary(r: CountRow, lines: readonly LineRow[]): CountSummary {
    return {
      id: r.id,
      number: `${r.number}/${r.year}`,
      state: r.state,
      groups: r.groups === null ? null : (JSON.parse(r.groups) as string[]),
      startedAt: r.started_at,
      startedBy: r.started_by,
      postedAt: r.posted_at,
      postedBy: r.posted_by,
      lineCount: lines.length,
      countedCount: lines.filter((l) => l.counted_milli !== null).length,
    };
  }

  function view(id: number, manager: boolean): CountView {
    const r = st.count.get(id);
    if (!r) throw new CommandError('not_found', 'goods_count_not_found', { id });
    const rows = st.lines.all(id);
    const lines = rows.map((l) => lineView(r, l, manager));
    return { ...summary(r, rows), lines, totals: countTotals(lines, manager) };
  }

  function openCount(id: number): CountRow {
    const r = st.count.get(id);
    if (!r) throw new CommandError('not_found', 'goods_count_not_found', { id });
    if (r.state !== 'open') throw new CommandError('conflict', 'goods_count_closed');
    return r;
  }

  /** The count's product for a typed code or a scanned barcode; refused at `field` when it is not in the count. */
  function lineOf(countId: number, code: string, field: string, params: Record<string, unknown> = {}): LineRow {
    const direct = st.line.get(countId, code);
    if (direct) return direct;
    const viaBarcode = st.byBarcode.get(code);
    const line = viaBarcode ? st.line.get(countId, viaBarcode.code) : undefined;
    if (line) return line;
    const csv = 'row' in params;
    if (viaBarcode || st.product.get(code) || stockOf(db, code))
      throw invalidInput(field, csv ? 'goods_csv_outside' : 'goods_count_outside', { value: code, ...params });
    throw invalidInput(field, csv ? 'goods_csv_unknown' : 'goods_unknown_product', { value: code, ...params });
  }

  /** Writes counts into an open count (the caller's transaction). */
  function enter(
    countId: number,
    entries: readonly { line: LineRow; milli: number; add: boolean }[],
    by: string | null,
  ) {
    const at = now().toISOString();
    for (const e of entries) {
      const current = st.line.get(countId, e.line.product_code) ?? e.line;
      const counted = countedAfter(current.counted_milli, e.milli, e.add);
      const book = stockOf(db, e.line.product_code)?.qty_milli ?? 0;
      st.setCount.run(counted, book, at, by, countId, e.line.product_code);
    }
  }

  return {
    start(groups: readonly string[] | undefined, caller: Caller | undefined, manager: boolean): CountView {
      const at = now().toISOString();
      const scope = groups && groups.length > 0 ? [...new Set(groups)] : null;
      const id = db.transaction(() => {
        if (st.open.get()) throw new CommandError('conflict', 'goods_count_open');
        if (scope) {
          const known = new Set(
            db
              .prepare<[], { grp: string }>('SELECT DISTINCT grp FROM products WHERE grp IS NOT NULL')
              .all()
              .map((g) => g.grp),
          );
          scope.forEach((g, i) => {
            if (!known.has(g)) throw invalidInput(`groups.${i}`, 'goods_count_group', { value: g });
          });
        }
        const year = Number(bookDay(at).slice(0, 4));
        const number = nextNumber(db, 'count', year);
        const countId = Number(
          db
            .prepare(
              `INSERT INTO stock_counts (number, year, state, groups, started_at, started_by)
               VALUES (?, ?, 'open', ?, ?, ?)`,
            )
            .run(number, year, scope ? JSON.stringify(scope) : null, at, personOf(caller)).lastInsertRowid,
        );
        const products = db
          .prepare<
            [],
            {
              code: string;
              name: string;
              grp: string | null;
              unit: string;
              book: number;
              price: number;
              purchase: number | null;
            }
          >(
            `SELECT p.code, p.name, p.grp, p.unit, coalesce(s.qty_milli, 0) AS book,
                    coalesce(s.price_para, p.price_para) AS price, s.purchase_para AS purchase
               FROM products p LEFT JOIN stock s ON s.product_code = p.code
             UNION ALL
             SELECT s.product_code, s.name, NULL, 'piece', s.qty_milli, s.price_para, s.purchase_para
               FROM stock s WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.code = s.product_code)
             ORDER BY 3, 2`,
          )
          .all()
          .filter((p) => !scope || (p.grp !== null && scope.includes(p.grp)));
        const insert = db.prepare(
          `INSERT INTO stock_count_lines (count_id, line, product_code, name, grp, unit, book_milli, price_para,
             purchase_para) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        products.forEach((p, i) => insert.run(countId, i, p.code, p.name, p.grp, p.unit, p.book, p.price, p.purchase));
        auditCall(deps, caller, 'goods.countStart', {
          number: `${number}/${year}`,
          groups: scope?.join(', ') ?? '',
          lines: products.length,
        });
        return countId;
      })();
      return view(id, manager);
    },

    list(limit: number): CountSummary[] {
      return db
        .prepare<[number], CountRow>('SELECT * FROM stock_counts ORDER BY id DESC LIMIT ?')
        .all(limit)
        .map((r) => summary(r, st.lines.all(r.id)));
    },

    view,

    enter(id: number, entries: readonly CountEntryInput[], caller: Caller | undefined, manager: boolean): CountView {
      db.transaction(() => {
        openCount(id);
        const resolved = entries.map((e, i) => ({
          line: lineOf(id, e.code, `lines.${i}.code`),
          milli: toMilli(e.quantity) ?? 0,
          add: e.add === true,
        }));
        enter(id, resolved, caller?.actor?.name ?? null);
      })();
      return view(id, manager);
    },

    /** A handheld's CSV: `code;quantity` per row (a tab works too); a header row is skipped; a code twice adds up. */
    importCsv(id: number, csv: string, caller: Caller | undefined, manager: boolean): CountView {
      db.transaction(() => {
        openCount(id);
        let counted: { line: LineRow; milli: number }[];
        try {
          counted = parseCountCsv(
            csv,
            (code, row) => lineOf(id, code, 'csv', { row, column: 1 }),
            (l) => l.product_code,
          );
        } catch (e) {
          if (e instanceof CountCsvRefusal) throw invalidInput('csv', e.key, e.params);
          throw e;
        }
        enter(
          id,
          counted.map((e) => ({ ...e, add: false })),
          caller?.actor?.name ?? null,
        );
      })();
      return view(id, manager);
    },

    /** Posts a count in one transaction: the differences move, the count is closed, it is audited. */
    post(id: number, caller: Caller | undefined, manager: boolean): CountView {
      const at = now().toISOString();
      db.transaction(() => {
        const r = openCount(id);
        let moved = 0;
        for (const l of st.lines.all(id)) {
          if (l.counted_milli === null || l.book_at_entry_milli === null) continue;
          const diff = l.counted_milli - l.book_at_entry_milli;
          if (diff === 0) continue;
          move(
            db,
            docMove({ kind: 'count', id, at }, l.line, {
              code: l.product_code,
              name: l.name,
              qtyMilli: diff,
              pricePara: l.price_para,
            }),
          );
          moved++;
        }
        const changed = db
          .prepare(
            "UPDATE stock_counts SET state = 'posted', posted_at = ?, posted_by = ? WHERE id = ? AND state = 'open'",
          )
          .run(at, personOf(caller), id).changes;
        if (changed !== 1) throw new CommandError('conflict', 'goods_count_closed');
        auditCall(deps, caller, 'goods.countPost', { number: `${r.number}/${r.year}`, differences: moved });
      })();
      return view(id, manager);
    },

    cancel(id: number, caller: Caller | undefined, manager: boolean): CountView {
      db.transaction(() => {
        const r = openCount(id);
        db.prepare("UPDATE stock_counts SET state = 'cancelled', posted_at = ?, posted_by = ? WHERE id = ?").run(
          now().toISOString(),
          personOf(caller),
          id,
        );
        auditCall(deps, caller, 'goods.countCancel', { number: `${r.number}/${r.year}` });
      })();
      return view(id, manager);
    },

    /**
     * The shop setting „no selling below zero for counted goods“ at the counter: a sale that would take a product a
     * posted count established below zero is refused at its line's quantity, in the user's language.
     */
    refuseBelowZero(lines: readonly OrderLine[], onHandOf?: (code: string) => number | undefined): void {
      const wanted = new Map<string, { milli: number; index: number; name: string }>();
      lines.forEach((line, index) => {
        const code = codeOfLine(db, line);
        if (!code) return;
        const w = wanted.get(code);
        wanted.set(code, {
          milli: (w?.milli ?? 0) + Math.abs(line.quantityMilli),
          index: w?.index ?? index,
          name: line.name,
        });
      });
      for (const [code, w] of wanted) {
        const counted = db
          .prepare<[string], { n: number }>(
            `SELECT count(*) AS n FROM stock_count_lines l JOIN stock_counts c ON c.id = l.count_id
              WHERE c.state = 'posted' AND l.product_code = ? AND l.counted_milli IS NOT NULL`,
          )
          .get(code);
        if (!counted?.n) continue;
        // On a till enrolled at a hub, the shop's stock there (the counter's snapshot), else the till's own book.
        const onHand = (onHandOf ? onHandOf(code) : stockOf(db, code)?.qty_milli) ?? 0;
        if (onHand - w.milli < 0)
          throw invalidInput(`lines.${w.index}.quantity`, 'goods_counted_below_zero', {
            name: w.name,
            onHand: formatQuantity(onHand),
          });
      }
    },

    setMinimum(
      code: string,
      minimum: number,
      caller: Caller | undefined,
    ): { code: string; minimumMilli: number | null } {
      const milli = toMilli(minimum) ?? 0;
      db.transaction(() => {
        if (!st.product.get(code) && !stockOf(db, code))
          throw invalidInput('code', 'goods_unknown_product', { value: code });
        if (milli === 0) db.prepare('DELETE FROM stock_minimums WHERE product_code = ?').run(code);
        else
          db.prepare(
            `INSERT INTO stock_minimums (product_code, min_milli, updated_at) VALUES (?, ?, ?)
               ON CONFLICT (product_code) DO UPDATE SET min_milli = excluded.min_milli, updated_at = excluded.updated_at`,
          ).run(code, milli, now().toISOString());
        auditCall(deps, caller, 'goods.minimumSet', { code, minimumMilli: milli });
      })();
      return { code, minimumMilli: milli === 0 ? null : milli };
    },

    /** Products below their minimum, per their last supplier (the newest posted receipt that brought them in). */
    reorder(withCsv: boolean): ReorderView {
      const rows = db
        .prepare<[], ReorderRow & { supplier_id: number | null }>(
          `SELECT m.product_code AS code, coalesce(p.name, s.name, m.product_code) AS name, p.unit AS unit,
                  coalesce(s.qty_milli, 0) AS qty, m.min_milli AS min, s.purchase_para AS purchase,
                  (SELECT g.supplier_id FROM goods_receipt_lines l JOIN goods_receipts g ON g.id = l.receipt_id
                    WHERE l.product_code = m.product_code AND g.kind = 'receipt' AND g.state = 'posted'
                    ORDER BY g.posted_at DESC, g.id DESC LIMIT 1) AS supplier_id
             FROM stock_minimums m
             LEFT JOIN stock s ON s.product_code = m.product_code
             LEFT JOIN products p ON p.code = m.product_code
            WHERE coalesce(s.qty_milli, 0) < m.min_milli
            ORDER BY name COLLATE NOCASE`,
        )
        .all();
      const supplierStmt = db.prepare<[number], SupplierView>(
        'SELECT id, name, pib, address, account, contact FROM suppliers WHERE id = ?',
      );
      const out = reorderView(
        rows,
        (r) => r.supplier_id,
        (r) => (r.supplier_id === null ? null : (supplierStmt.get(r.supplier_id) ?? null)),
      );
      return withCsv ? { ...out, csv: reorderCsv(out, deps.language()) } : out;
    },
  };
}
