/**
 * A till enrolled later brings its own goods book (docs/goods.md "A till enrolled later brings its book"), by the
 * same kind of choice as its catalog: its stock on hand, sent with a hub manager's PIN that the hub checks (the
 * guard, like a till's catalog), becomes the shop's opening stock in one numbered document (`opening`): each
 * product in at the catalog's retail price (the KEP's debit at retail value) and the till's purchase price where
 * known. Only into a shop whose book has no movement yet, and once: a resend with the same key answers the same
 * document and moves nothing.
 */
import { HubError } from '../../shared/hub/protocol.ts';
import type { TillGoodsOpeningAnswer, TillGoodsOpeningInput } from '../../shared/hub/goods-protocol.ts';
import type { Queryable } from '../db/db.ts';
import { docMove, hubMoveMany } from '../goods/ledger.ts';
import { postHubDocument } from '../goods/post.ts';
import { hubDocOf, productsOf, type HubDocRow } from './goods.ts';
import type { AuthedTill, HubDeps } from './shared.ts';

/** The opening a key made already: found again inside the posting's transaction (its number is rolled back). */
class AlreadyOpened extends Error {}

async function openingOf(q: Queryable, shopId: number, key: string): Promise<TillGoodsOpeningAnswer | null> {
  const rows = await q.query<HubDocRow>(
    `SELECT d.id, d.kind, d.number, d.year, d.day, d.at, d.actor, d.value_para, d.detail
       FROM hub_goods_openings o JOIN hub_goods_docs d ON d.id = o.doc_id WHERE o.shop_id = $1 AND o.key = $2`,
    [shopId, key],
  );
  const r = rows[0];
  return r ? { doc: hubDocOf(r), repeated: true } : null;
}

export function goodsOpeningService(deps: HubDeps) {
  const { db } = deps;
  return {
    /**
     * The till's stock as its shop's opening stock, approved by `approver` (a hub manager the guard checked). Refused,
     * nothing moved: a shop whose book has any movement (`goods_shop_has_stock` at `lines`), a product the shop's
     * catalog does not have (`product_unknown` at `lines.<i>.code`). A key seen before answers its document.
     */
    async goodsOpening(
      till: AuthedTill,
      input: TillGoodsOpeningInput,
      approver: string,
    ): Promise<TillGoodsOpeningAnswer> {
      const shopId = till.shopId;
      const earlier = await openingOf(db, shopId, input.key);
      if (earlier) return earlier;
      try {
        const doc = await postHubDocument(deps, shopId, 'opening', approver, async (q, opened) => {
          // One opening of a shop at a time: the second waits here and then sees the first's movements or key.
          await q.query('SELECT id FROM shops WHERE id = $1 FOR UPDATE', [shopId]);
          if (await openingOf(q, shopId, input.key)) throw new AlreadyOpened();
          const moved = await q.query('SELECT 1 FROM hub_stock_movements WHERE shop_id = $1 LIMIT 1', [shopId]);
          if (moved.length)
            throw new HubError(
              409,
              'goods_shop_has_stock',
              "the shop's book has movements already: a till's own book is not brought over",
              'lines',
            );
          const products = await productsOf(
            q,
            shopId,
            input.lines.map((l) => l.code),
            (i) => `lines.${i}.code`,
          );
          const valuePara = await hubMoveMany(
            q,
            shopId,
            input.lines.map((l, i) => {
              const p = products.get(l.code);
              return docMove(opened, 'opening', i, {
                code: l.code,
                name: p?.name ?? l.code,
                qtyMilli: l.qtyMilli,
                pricePara: Number(p?.price_para ?? 0),
                purchasePara: l.purchasePara ?? undefined,
              });
            }),
          );
          await q.query(
            'INSERT INTO hub_goods_openings (shop_id, key, till_id, doc_id, at) VALUES ($1, $2, $3, $4, $5)',
            [shopId, input.key, till.id, opened.id, opened.at],
          );
          return { valuePara, detail: { till: till.name, tillId: till.id, lines: input.lines.length } };
        });
        return { doc, repeated: false };
      } catch (err) {
        const again = err instanceof AlreadyOpened ? await openingOf(db, shopId, input.key) : null;
        if (again) return again;
        throw err;
      }
    },
  };
}
