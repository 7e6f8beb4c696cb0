/**
 * The goods area of the hub (docs/goods.md "At the hub"): each shop's stock from every till's fiscalized sales
 * (hub/goods/ledger.ts, moved by the push), the documents a hub manager posts (goods receipt, write-off, price
 * change), transfers between shops of a chain, the KEP book and the tills' view of their shop's stock.
 */
import { valueAt } from '../../shared/goods/calc.ts';
import { kepBook, turnoverEntries, type KepRaw } from '../../shared/goods/kep.ts';
import { kepWords } from '../../shared/i18n/goods.ts';
import type { Language } from '../../shared/domain.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import type {
  HubGoodsDoc,
  HubKepView,
  HubStockView,
  HubTransfer,
  HubTransferLine,
  HubTransferReceiveInput,
  HubTransferSendInput,
  HubWriteOffInput,
  TillStockAnswer,
} from '../../shared/hub/goods-protocol.ts';
import type { Queryable } from '../db/db.ts';
import { bookCatalogPrices, docMove, hubMove } from '../goods/ledger.ts';
import { docNumber, inHubDay, postHubDocument } from '../goods/post.ts';
import { lockMasterData, type AuthedTill, type HubDeps } from './shared.ts';

interface CatalogProduct {
  code: string;
  name: string;
  price_para: number;
  label: string;
}

/** The shop's products of `codes` (not deleted); a code the shop does not carry is refused at its line's field. */
export async function productsOf(
  q: Queryable,
  shopId: number,
  codes: readonly string[],
  field: (i: number) => string,
): Promise<Map<string, CatalogProduct>> {
  const rows = await q.query<CatalogProduct>(
    'SELECT code, name, price_para, label FROM products WHERE shop_id = $1 AND code = ANY($2::text[]) AND NOT deleted',
    [shopId, [...codes]],
  );
  const byCode = new Map(rows.map((r) => [r.code, r]));
  codes.forEach((c, i) => {
    if (!byCode.has(c)) throw new HubError(400, 'product_unknown', `the shop has no product ${c}`, field(i));
  });
  return byCode;
}

/** A row of `hub_goods_docs` as read for the contract. */
export interface HubDocRow {
  id: number;
  kind: HubGoodsDoc['kind'];
  number: number;
  year: number;
  day: string;
  at: string;
  actor: string | null;
  value_para: number;
  detail: Record<string, unknown>;
}

/** A goods document as the contract answers it. */
export const hubDocOf = (r: HubDocRow): HubGoodsDoc => ({
  id: r.id,
  kind: r.kind,
  number: docNumber(r.number, r.year),
  day: r.day,
  at: r.at,
  actor: r.actor,
  valuePara: Number(r.value_para),
  detail: r.detail,
});

/** A shop's name and chain (its documents' title block, a transfer's two ends). */
async function shopName(q: Queryable, shopId: number): Promise<{ name: string; chain: number } | null> {
  const r = await q.query<{ name: string; chain_id: number }>('SELECT name, chain_id FROM shops WHERE id = $1', [
    shopId,
  ]);
  return r[0] ? { name: r[0].name, chain: r[0].chain_id } : null;
}

/** A shop's stock at retail value. */
async function stockValue(db: Queryable, shopId: number): Promise<number> {
  const r = await db.query<{ v: number }>(
    'SELECT coalesce(sum(round(qty_milli::numeric * price_para / 1000)), 0)::int8 AS v FROM hub_stock WHERE shop_id = $1',
    [shopId],
  );
  return r[0]?.v ?? 0;
}

/** The shop's stock (its goods receipts: goods-receipts.ts). */
function stockArea(deps: HubDeps) {
  const { db } = deps;
  return {
    /** A shop's stock with its value at retail and purchase price, and the value of every shop in view. */
    async stock(shopId: number | null): Promise<HubStockView> {
      const rows =
        shopId === null
          ? []
          : await db.query<{
              code: string;
              name: string;
              qty_milli: number;
              price_para: number;
              purchase_para: number | null;
            }>(
              'SELECT code, name, qty_milli, price_para, purchase_para FROM hub_stock WHERE shop_id = $1 ORDER BY code',
              [shopId],
            );
      // Rounded per product as the book is (Σ round(q × p)), summed in the database: flat however many shops.
      const byShop = await db.query<{ shop_id: number; name: string; retail: number; purchase: number }>(
        `SELECT s.id AS shop_id, s.name,
                coalesce(sum(round(st.qty_milli::numeric * st.price_para / 1000)), 0)::int8 AS retail,
                coalesce(sum(round(st.qty_milli::numeric * coalesce(st.purchase_para, 0) / 1000)), 0)::int8 AS purchase
           FROM shops s LEFT JOIN hub_stock st ON st.shop_id = s.id
          WHERE $1::int4 IS NULL OR s.id = $1
          GROUP BY s.id, s.name ORDER BY s.id`,
        [shopId],
      );
      return {
        shopId: shopId ?? 0,
        rows: rows.map((r) => ({
          code: r.code,
          name: r.name,
          qtyMilli: r.qty_milli,
          pricePara: r.price_para,
          purchasePara: r.purchase_para,
          retailValuePara: valueAt(r.qty_milli, r.price_para),
          purchaseValuePara: r.purchase_para === null ? null : valueAt(r.qty_milli, r.purchase_para),
        })),
        byShop: byShop.map((r) => ({
          shopId: r.shop_id,
          name: r.name,
          retailValuePara: r.retail,
          purchaseValuePara: r.purchase,
        })),
      };
    },
  };
}

/** Write-offs, price changes and the documents' list. */
function documentsArea(deps: HubDeps) {
  const { db, zone } = deps;
  return {
    /** A write-off (отпис) with its reason: numbered, moved out at the book's price. */
    async writeOff(shopId: number, input: HubWriteOffInput, actor: string | null): Promise<HubGoodsDoc> {
      return postHubDocument(deps, shopId, 'writeoff', actor, async (q, doc) => {
        const p = (await productsOf(q, shopId, [input.code], () => 'code')).get(input.code) as CatalogProduct;
        const value =
          (await hubMove(
            q,
            shopId,
            docMove(doc, 'writeoff', 0, {
              code: p.code,
              name: p.name,
              qtyMilli: -input.qtyMilli,
              pricePara: p.price_para,
            }),
          )) ?? 0;
        return {
          valuePara: value,
          detail: { code: p.code, name: p.name, qtyMilli: input.qtyMilli, reason: input.reason },
        };
      });
    },

    /**
     * A product's retail price changed at the hub: the catalog (the tills pull it) and the book together, with a
     * price change record (нивелација) when the shop has it on hand. Null when nothing was on hand to revalue.
     */
    async changePrice(
      shopId: number,
      code: string,
      pricePara: number,
      actor: string | null,
    ): Promise<HubGoodsDoc | null> {
      return inHubDay(deps, async (q, at, day) => {
        await productsOf(q, shopId, [code], () => 'code');
        await lockMasterData(q);
        await q.query(
          `UPDATE products SET price_para = $3, version = nextval('change_seq') WHERE shop_id = $1 AND code = $2
             AND price_para <> $3`,
          [shopId, code, pricePara],
        );
        const [c] = await bookCatalogPrices(q, shopId, [code], at, zone, actor);
        if (!c) return null;
        return {
          id: c.docId,
          kind: 'price_change',
          number: docNumber(c.number, c.year),
          day,
          at,
          actor,
          valuePara: c.diffPara,
          detail: { code: c.code, oldPara: c.oldPara, newPara: c.newPara, qtyMilli: c.qtyMilli },
        };
      });
    },

    /** A shop's name (its documents' title block). */
    async shopNameOf(shopId: number): Promise<string | null> {
      return (await shopName(db, shopId))?.name ?? null;
    },

    /** A shop's goods documents of a period (newest first). */
    async goodsDocs(shopId: number, from: string, to: string): Promise<HubGoodsDoc[]> {
      const rows = await db.query<HubDocRow>(
        `SELECT id, kind, number, year, day, at, actor, value_para, detail FROM hub_goods_docs
          WHERE shop_id = $1 AND day BETWEEN $2 AND $3 ORDER BY id DESC LIMIT 500`,
        [shopId, from, to],
      );
      return rows.map(hubDocOf);
    },
  };
}

/** Transfers as their two shops see them. */
function transferReads(deps: HubDeps) {
  const { db } = deps;
  return {
    /** A transfer seen from one of its two shops (404 from any other). */
    async transfer(id: number, shopId: number | null): Promise<HubTransfer> {
      const list = await this.transfers(shopId, id);
      const t = list[0];
      if (!t) throw new HubError(404, 'transfer_unknown', 'no such transfer of this shop', 'transferId');
      return t;
    },

    /** The transfers a shop sent or receives (all of the chain for the admin token), newest first. */
    async transfers(shopId: number | null, id?: number): Promise<HubTransfer[]> {
      const rows = await db.query<{
        id: number;
        from_shop: number;
        from_name: string;
        to_shop: number;
        to_name: string;
        out_number: number;
        out_year: number;
        in_number: number | null;
        in_year: number | null;
        sent_at: string;
        received_at: string | null;
        lines: HubTransferLine[];
      }>(
        `SELECT t.id, t.from_shop, f.name AS from_name, t.to_shop, s.name AS to_name, o.number AS out_number,
                o.year AS out_year, i.number AS in_number, i.year AS in_year, t.sent_at, t.received_at, t.lines
           FROM hub_transfers t JOIN shops f ON f.id = t.from_shop JOIN shops s ON s.id = t.to_shop
           JOIN hub_goods_docs o ON o.id = t.out_doc LEFT JOIN hub_goods_docs i ON i.id = t.in_doc
          WHERE ($1::int4 IS NULL OR t.from_shop = $1 OR t.to_shop = $1) AND ($2::int4 IS NULL OR t.id = $2)
          ORDER BY t.id DESC LIMIT 200`,
        [shopId, id ?? null],
      );
      return rows.map((r) => ({
        id: r.id,
        fromShopId: r.from_shop,
        fromShop: r.from_name,
        toShopId: r.to_shop,
        toShop: r.to_name,
        number: docNumber(r.out_number, r.out_year),
        receivedNumber: r.in_number === null || r.in_year === null ? null : docNumber(r.in_number, r.in_year),
        sentAt: r.sent_at,
        receivedAt: r.received_at,
        lines: r.lines,
      }));
    },
  };
}

/** Sending and receiving goods between shops of a chain. */
function transfersArea(deps: HubDeps, reads: ReturnType<typeof transferReads>) {
  return {
    /** Sends goods to another shop of the same chain: a numbered `transfer_out` taking them out at the book's price. */
    async sendTransfer(shopId: number, input: HubTransferSendInput, actor: string | null): Promise<HubTransfer> {
      const doc = await postHubDocument(deps, shopId, 'transfer_out', actor, async (q, doc) => {
        const from = await shopName(q, shopId);
        const to = await shopName(q, input.toShopId);
        if (!from || !to || to.chain !== from.chain || input.toShopId === shopId)
          throw new HubError(400, 'transfer_shop', 'the goods go to another shop of this chain', 'toShopId');
        const products = await productsOf(
          q,
          shopId,
          input.lines.map((l) => l.code),
          (i) => `lines.${i}.code`,
        );
        const seen = new Set<string>();
        input.lines.forEach((l, i) => {
          if (seen.has(l.code)) throw new HubError(400, 'line_twice', `${l.code} is on two lines`, `lines.${i}.code`);
          seen.add(l.code);
        });
        let value = 0;
        const lines: HubTransferLine[] = [];
        for (const [i, l] of input.lines.entries()) {
          const p = products.get(l.code) as CatalogProduct;
          value +=
            (await hubMove(
              q,
              shopId,
              docMove(doc, 'transfer_out', i, {
                code: p.code,
                name: p.name,
                qtyMilli: -l.qtyMilli,
                pricePara: p.price_para,
              }),
            )) ?? 0;
          lines.push({ code: p.code, name: p.name, sentMilli: l.qtyMilli, receivedMilli: null });
        }
        const t = await q.query<{ id: number }>(
          `INSERT INTO hub_transfers (from_shop, to_shop, out_doc, sent_at, lines) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
          [shopId, input.toShopId, doc.id, doc.at, JSON.stringify(lines)],
        );
        const transferId = t[0]?.id ?? 0;
        return { valuePara: value, detail: { transferId, toShopId: input.toShopId, toShop: to.name, lines } };
      });
      return reads.transfer(Number(doc.detail.transferId), shopId);
    },

    /**
     * Receives a transfer at its shop: a numbered `transfer_in` putting the counted quantities in at the receiving
     * shop's retail price; each difference from what was sent is recorded on the transfer. Received once.
     */
    async receiveTransfer(shopId: number, input: HubTransferReceiveInput, actor: string | null): Promise<HubTransfer> {
      await postHubDocument(deps, shopId, 'transfer_in', actor, async (q, doc) => {
        const t = (
          await q.query<{
            id: number;
            to_shop: number;
            in_doc: number | null;
            lines: HubTransferLine[];
            from_name: string;
          }>(
            // The transfer's row locked first (received once), then read with its sender's name.
            `WITH locked AS (SELECT id FROM hub_transfers WHERE id = $1 FOR UPDATE)
             SELECT t.id, t.to_shop, t.in_doc, t.lines, s.name AS from_name FROM hub_transfers t
               JOIN locked l ON l.id = t.id JOIN shops s ON s.id = t.from_shop`,
            [input.transferId],
          )
        )[0];
        if (!t || t.to_shop !== shopId)
          throw new HubError(404, 'transfer_unknown', 'no such transfer to this shop', 'transferId');
        if (t.in_doc !== null)
          throw new HubError(409, 'transfer_received', 'this transfer was received already', 'transferId');
        const counted = new Map<string, number>();
        input.received.forEach((r, i) => {
          if (!t.lines.some((l) => l.code === r.code))
            throw new HubError(400, 'transfer_line_unknown', `${r.code} was not sent`, `received.${i}.code`);
          counted.set(r.code, r.qtyMilli);
        });
        const here = new Map(
          (
            await q.query<CatalogProduct>(
              'SELECT code, name, price_para, label FROM products WHERE shop_id = $1 AND code = ANY($2::text[])',
              [shopId, t.lines.map((l) => l.code)],
            )
          ).map((p) => [p.code, p]),
        );
        const sentPrice = new Map(
          (
            await q.query<{ code: string; price_para: number }>(
              `SELECT code, price_para FROM hub_stock WHERE shop_id = (SELECT from_shop FROM hub_transfers WHERE id = $1)
                 AND code = ANY($2::text[])`,
              [t.id, t.lines.map((l) => l.code)],
            )
          ).map((p) => [p.code, p.price_para]),
        );
        let value = 0;
        const lines: HubTransferLine[] = [];
        for (const [i, l] of t.lines.entries()) {
          const got = counted.get(l.code) ?? l.sentMilli;
          lines.push({ ...l, receivedMilli: got });
          if (got === 0) continue;
          // At the receiving shop's own price; a product it does not list yet comes in at the sender's.
          const p = here.get(l.code);
          value +=
            (await hubMove(
              q,
              shopId,
              docMove(doc, 'transfer_in', i, {
                code: l.code,
                name: p?.name ?? l.name,
                qtyMilli: got,
                pricePara: p?.price_para ?? sentPrice.get(l.code) ?? 0,
              }),
            )) ?? 0;
        }
        await q.query('UPDATE hub_transfers SET in_doc = $2, received_at = $3, lines = $4 WHERE id = $1', [
          t.id,
          doc.id,
          doc.at,
          JSON.stringify(lines),
        ]);
        return { valuePara: value, detail: { transferId: t.id, fromShop: t.from_name, lines } };
      });
      return reads.transfer(input.transferId, shopId);
    },
  };
}

/** The KEP book and the tills' view of their shop's stock. */
function kepArea(deps: HubDeps) {
  const { db, iso } = deps;
  return {
    /**
     * A shop's KEP book of a period: debit at retail value from goods receipts, price increases and transfers in;
     * credit from the day's fiscal turnover by payment type (refunds reduce it), price decreases, write-offs and
     * transfers out; one difference entry per day where the turnover differs from the retail value the day's sales
     * moved. Read from the per-day sums and the documents, never from the orders.
     */
    async kep(shopId: number, from: string, to: string, lang: Language): Promise<HubKepView> {
      const w = kepWords(lang);
      const opening =
        (
          await db.query<{ v: number }>(
            'SELECT coalesce(sum(value_para), 0)::int8 AS v FROM hub_kep_days WHERE shop_id = $1 AND day < $2',
            [shopId, from],
          )
        )[0]?.v ?? 0;
      const docs = await this.goodsDocsForKep(shopId, from, to);
      const raw: KepRaw[] = docs.flatMap((d) =>
        // A stock-taking is two entries: its surplus a debit, its shortage a credit (hub/services/goods-counts.ts).
        (d.kind === 'count' ? countParts(w, d) : [{ description: docText(w, d), value: d.value_para }]).map((e) => ({
          day: d.day,
          order: d.kind === 'receipt' ? 1 : d.kind === 'price_change' ? 2 : 3,
          at: d.at,
          ...e,
        })),
      );
      const turnover = new Map<string, Map<string, number>>();
      for (const t of await db.query<{ day: string; payment_type: string; amount_para: number }>(
        `SELECT day, payment_type, amount_para FROM hub_kep_turnover WHERE shop_id = $1 AND day BETWEEN $2 AND $3
          ORDER BY day, payment_type`,
        [shopId, from, to],
      )) {
        const byType = turnover.get(t.day) ?? new Map<string, number>();
        byType.set(t.payment_type, t.amount_para);
        turnover.set(t.day, byType);
      }
      const soldValue = new Map(
        (
          await db.query<{ day: string; sold_value_para: number }>(
            'SELECT day, sold_value_para FROM hub_kep_days WHERE shop_id = $1 AND day BETWEEN $2 AND $3',
            [shopId, from, to],
          )
        ).map((r) => [r.day, r.sold_value_para]),
      );
      raw.push(...turnoverEntries(turnover, soldValue, w));
      const { entries, closingPara } = kepBook(opening, raw);
      return {
        shopId,
        from,
        to,
        openingPara: opening,
        entries,
        closingPara,
        stockValuePara: await stockValue(db, shopId),
      };
    },

    async goodsDocsForKep(shopId: number, from: string, to: string) {
      return db.query<{
        kind: HubGoodsDoc['kind'];
        number: number;
        year: number;
        day: string;
        at: string;
        value_para: number;
        detail: Record<string, unknown>;
      }>(
        `SELECT kind, number, year, day, at, value_para, detail FROM hub_goods_docs
          WHERE shop_id = $1 AND day BETWEEN $2 AND $3 AND (value_para <> 0 OR kind = 'count') ORDER BY day, id`,
        [shopId, from, to],
      );
    },

    /** The till's shop's stock of some products (the counter's figures), with the hub's time of answer. */
    async tillStock(
      till: AuthedTill,
      codes: readonly string[],
      page: { since?: number | undefined; after?: string | undefined } = {},
    ): Promise<TillStockAnswer> {
      if (codes.length) {
        const rows = await db.query<{ code: string; qty_milli: number }>(
          'SELECT code, qty_milli FROM hub_stock WHERE shop_id = $1 AND code = ANY($2::text[]) ORDER BY code',
          [till.shopId, [...codes]],
        );
        return { at: iso(), stock: rows.map((r) => ({ code: r.code, qtyMilli: r.qty_milli })) };
      }
      // The snapshot's page: a change committed late (its stamp taken before a transaction that took long to
      // commit) is caught by asking again for the last STOCK_OVERLAP_MS before the cursor every time.
      const clock = await db.query<{ ms: string }>(
        'SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint::text AS ms',
      );
      const rows = await db.query<{ code: string; qty_milli: number }>(
        `SELECT code, qty_milli FROM hub_stock WHERE shop_id = $1 AND changed_ms >= $2 AND code > $3
          ORDER BY code LIMIT $4`,
        [till.shopId, Math.max(0, (page.since ?? 0) - STOCK_OVERLAP_MS), page.after ?? '', STOCK_PAGE + 1],
      );
      const more = rows.length > STOCK_PAGE;
      return {
        at: iso(),
        stock: rows.slice(0, STOCK_PAGE).map((r) => ({ code: r.code, qtyMilli: Number(r.qty_milli) })),
        more,
        cursor: clock[0]?.ms ?? '0',
      };
    },
  };
}

/** Rows per page of a till's stock snapshot. */
const STOCK_PAGE = 2000;
/** How far before its cursor a till's next snapshot looks again (a transaction stamped before it committed). */
const STOCK_OVERLAP_MS = 10_000;

/** The goods area: its parts composed (each under the hub's function-size bound). */
export function goodsService(deps: HubDeps) {
  const reads = transferReads(deps);
  return { ...stockArea(deps), ...documentsArea(deps), ...reads, ...transfersArea(deps, reads), ...kepArea(deps) };
}

/** A goods document's line in the KEP, in the book's language. */
function docText(
  w: ReturnType<typeof kepWords>,
  d: { kind: HubGoodsDoc['kind']; number: number; year: number; detail: Record<string, unknown> },
): string {
  const number = docNumber(d.number, d.year);
  const s = (k: string): string => String(d.detail[k] ?? '');
  switch (d.kind) {
    case 'receipt':
      return w.receipt
        .replace('{number}', number)
        .replace('{supplier}', s('supplier'))
        .replace('{invoice}', s('invoiceNumber'));
    case 'reversal':
      return w.reversal
        .replace('{number}', number)
        .replace('{supplier}', s('supplier'))
        .replace('{invoice}', s('invoiceNumber'));
    case 'price_change':
      return w.priceChange.replace('{number}', number).replace('{name}', s('name'));
    case 'writeoff':
      return w.writeOff.replace('{number}', number).replace('{name}', s('name')).replace('{reason}', s('reason'));
    case 'transfer_out':
      return w.transferOut.replace('{number}', number).replace('{shop}', s('toShop'));
    case 'transfer_in':
      return w.transferIn.replace('{number}', number).replace('{shop}', s('fromShop'));
    case 'count':
      return w.countSurplus.replace('{number}', number);
    case 'opening':
      return w.openingStock.replace('{number}', number).replace('{till}', s('till'));
  }
}

/** A posted stock-taking's KEP entries: its surplus (debit) and its shortage (credit), each where not zero. */
function countParts(
  w: ReturnType<typeof kepWords>,
  d: { number: number; year: number; detail: Record<string, unknown> },
): { description: string; value: number }[] {
  const number = docNumber(d.number, d.year);
  return [
    { description: w.countSurplus.replace('{number}', number), value: Number(d.detail.surplus ?? 0) },
    { description: w.countShortage.replace('{number}', number), value: -Number(d.detail.shortage ?? 0) },
  ].filter((e) => e.value !== 0);
}
