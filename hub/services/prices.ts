/**
 * The prices area (issue 42, docs/prices.md "At the hub"): price lists, promotions and scheduled price changes as
 * master data, for one shop or every shop of the chain (`hub_prices`, hub migration 27). A manager sets them; each
 * is checked by the till's own rules (shared/prices/rules.ts) against the catalog it applies to, written with a
 * new version of `change_seq` under the master-data lock, and pulled by every till of the shop (or of the chain)
 * after its cursor. A scheduled change comes due at the hub too: the product's price changes at its moment (with
 * a new version) the first time anyone asks after it, so a till pulling afterwards never gets the old price back.
 */
import type { Queryable } from '../db/db.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import {
  checkPriceList,
  checkPromotion,
  checkSchedule,
  listViewOf,
  promotionViewOf,
  type ListRowData,
  type PromotionClash,
  type PromotionRowData,
  type Refuse,
  type RuleCatalog,
} from '../../shared/prices/rules.ts';
import type {
  HubListRow,
  HubPriceChange,
  HubPriceListInput,
  HubPrices,
  HubPromotionInput,
  HubScheduledRow,
  HubScheduleInput,
  PriceWhere,
} from '../../shared/hub/prices.ts';
import { message } from '../../shared/messages.ts';
import { setProductPrice } from './catalog.ts';
import { changeKey, ownChanges, OWN_CHANGE } from './prices-scheduled.ts';
import { lockMasterData, type HubDeps } from './shared.ts';

type Kind = 'list' | 'promotion' | 'scheduled';

interface PriceRow {
  id: number;
  shop_id: number | null;
  kind: Kind;
  data: unknown;
  state: HubScheduledRow['state'] | null;
  deleted: boolean;
  version: number;
}

/** A refusal at its field: 400 with the message key as code, said in English for the log and the API's callers. */
const refuse: Refuse = (field, code, params = {}) => {
  throw new HubError(400, code, message('en', code, { field, ...params }), field, params);
};

/** The shop's chain (404 at `shopId` for a shop the hub does not have). */
async function chainOf(q: Queryable, shopId: number): Promise<number> {
  const r = await q.query<{ chain_id: number }>('SELECT chain_id FROM shops WHERE id = $1', [shopId]);
  const chain = r[0]?.chain_id;
  if (chain === undefined) throw new HubError(404, 'shop_unknown', `no shop ${shopId}`, 'shopId');
  return chain;
}

/** The rows a shop sees: its own and its chain's (`where` 'chain': the chain's shops' too, for the overlap). */
const VISIBLE = `(shop_id = $1 OR (shop_id IS NULL AND chain_id = $2))`;

/**
 * The catalog a rule is checked against: the shop's products, or for the chain every shop's (a product is known
 * when a shop of the chain has it; its regular price the lowest of them, so a promotional price is below it in
 * every shop). Read once for the codes the input names.
 */
async function ruleCatalog(
  q: Queryable,
  shopId: number,
  chainId: number,
  where: PriceWhere,
  codes: readonly string[],
): Promise<RuleCatalog> {
  const scope =
    where === 'shop'
      ? 'shop_id = $1 AND $2::int4 IS NOT NULL'
      : 'shop_id IN (SELECT id FROM shops WHERE chain_id = $2) AND $1::int4 IS NOT NULL';
  const products = await q.query<{ code: string; price: number }>(
    `SELECT code, min(price_para)::int8 AS price FROM products WHERE ${scope} AND NOT deleted AND code = ANY($3::text[])
     GROUP BY code`,
    [shopId, chainId, [...new Set(codes)]],
  );
  const groups = await q.query<{ grp: string }>(
    `SELECT DISTINCT grp FROM products WHERE ${scope} AND NOT deleted AND grp IS NOT NULL`,
    [shopId, chainId],
  );
  const prices = new Map(products.map((p) => [p.code, Number(p.price)]));
  const names = new Set(groups.map((g) => g.grp));
  // A list's item may name its product by a barcode (a CSV import): the product that has it in a shop it is for.
  const owners = await q.query<{ barcode: string; code: string }>(
    `SELECT DISTINCT ON (b) b AS barcode, code FROM products, jsonb_array_elements_text(barcodes) AS b
      WHERE ${scope} AND NOT deleted AND b = ANY($3::text[]) ORDER BY b, code`,
    [shopId, chainId, [...new Set(codes)]],
  );
  const byBarcode = new Map(owners.map((o) => [o.barcode, o.code]));
  return {
    codeOfBarcode: (barcode) => byBarcode.get(barcode) ?? null,
    product: (code) => {
      const price = prices.get(code);
      return price === undefined ? null : { pricePara: price };
    },
    hasGroup: (name) => names.has(name),
  };
}

/** Writes a rule (new, or by `id` when it is one this shop sees, of the same kind) with a new version. */
async function writeRule(
  q: Queryable,
  o: { shopId: number; chainId: number; where: PriceWhere; kind: Kind; id: number | undefined; data: unknown },
  at: string,
): Promise<number> {
  const shop = o.where === 'chain' ? null : o.shopId;
  const state = o.kind === 'scheduled' ? 'pending' : null;
  if (o.id === undefined) {
    const r = await q.query<{ id: number }>(
      `INSERT INTO hub_prices (chain_id, shop_id, kind, data, state, version, updated_at)
       VALUES ($1, $2, $3, $4::jsonb, $5, nextval('change_seq'), $6) RETURNING id`,
      [o.chainId, shop, o.kind, JSON.stringify(o.data), state, at],
    );
    return Number(r[0]?.id);
  }
  const r = await q.query<{ id: number }>(
    `UPDATE hub_prices SET shop_id = $3, data = $4::jsonb, version = nextval('change_seq'), updated_at = $5
      WHERE id = $6 AND kind = $7 AND NOT deleted AND ${VISIBLE} RETURNING id`,
    [o.shopId, o.chainId, shop, JSON.stringify(o.data), at, o.id, o.kind],
  );
  if (!r[0]) throw new HubError(404, 'not_found', `no ${o.kind} ${o.id} for this shop`, 'id');
  return o.id;
}

/**
 * A scheduled change's state as one shop sees it: the chain's change of a product at a moment the shop has its
 * own change of is skipped there (prices-scheduled.ts, which one wins).
 */
function scheduledState(own: ReadonlySet<string>) {
  return (r: PriceRow): HubScheduledRow['state'] => {
    const s = r.data as HubScheduledRow;
    if (r.shop_id === null && r.state === 'pending' && own.has(changeKey(s.code, s.at))) return 'skipped';
    return r.state ?? 'pending';
  };
}

/** A shop's rules (its own and the chain's) as the hub UI shows them, with product names. */
async function shopPricesOf(deps: HubDeps, shopId: number): Promise<HubPrices> {
  const { db } = deps;
  const chainId = await chainOf(db, shopId);
  const rows = await db.query<PriceRow>(
    `SELECT id, shop_id, kind, data, state, deleted, version FROM hub_prices
          WHERE ${VISIBLE} AND NOT deleted ORDER BY kind, id`,
    [shopId, chainId],
  );
  const products = new Map(
    (
      await db.query<{ code: string; name: string; price_para: number }>(
        'SELECT code, name, price_para FROM products WHERE shop_id = $1 AND NOT deleted',
        [shopId],
      )
    ).map((p) => [p.code, p]),
  );
  const name = (code: string): string | null => products.get(code)?.name ?? null;
  const at = deps.now().getTime();
  const where = (r: PriceRow): PriceWhere => (r.shop_id === null ? 'chain' : 'shop');
  const state = scheduledState(await ownChanges(db, shopId));
  const out: HubPrices = { lists: [], promotions: [], scheduled: [] };
  for (const r of rows) {
    const id = Number(r.id);
    if (r.kind === 'list') {
      const l = r.data as HubListRow;
      const items = l.items.map((i) => ({ code: i.code, pricePara: i.price_para }));
      out.lists.push({ ...listViewOf(id, l, items, name, at, true), where: where(r) });
    } else if (r.kind === 'promotion')
      out.promotions.push({ ...promotionViewOf(id, r.data as PromotionRowData, name, at, true), where: where(r) });
    else {
      const s = r.data as HubScheduledRow;
      out.scheduled.push({
        id,
        code: s.code,
        name: name(s.code),
        pricePara: s.price_para,
        oldPricePara: products.get(s.code)?.price_para ?? null,
        at: s.at,
        state: state(r),
        appliedAt: null,
        fromHub: true,
        where: where(r),
      });
    }
  }
  return out;
}

export function pricesService(deps: HubDeps) {
  const { db, iso } = deps;

  /** Applies what is due, under the master-data lock, only when something is (one indexed look otherwise). */
  async function applyDuePrices(): Promise<number> {
    const any = await db.query<{ id: number }>(
      `SELECT id FROM hub_prices WHERE kind = 'scheduled' AND state = 'pending' AND (data->>'at')::text <= $1 LIMIT 1`,
      [iso()],
    );
    if (!any[0]) return 0;
    return db.tx(async (q) => {
      await lockMasterData(q);
      return applyDueChanges(q, iso);
    });
  }

  return {
    applyDuePrices,

    /**
     * The rules a till of the shop pulls after `since` (its shop's and its chain's), oldest first, at most
     * `limit`. Scheduled changes due by now are applied first, so the product's new price comes with them.
     */
    async priceChanges(shopId: number, since: number, limit: number): Promise<HubPriceChange[]> {
      await applyDuePrices();
      const chainId = await chainOf(db, shopId);
      const rows = await db.query<PriceRow>(
        `SELECT id, shop_id, kind, data, state, deleted, version FROM hub_prices
          WHERE ${VISIBLE} AND version > $3 ORDER BY version LIMIT $4`,
        [shopId, chainId, since, limit],
      );
      const state = scheduledState(await ownChanges(db, shopId));
      return rows.map(
        (r) =>
          ({
            id: Number(r.id),
            kind: r.kind,
            version: Number(r.version),
            deleted: r.deleted,
            data: r.kind === 'scheduled' ? { ...(r.data as object), state: state(r) } : r.data,
          }) as HubPriceChange,
      );
    },

    /** The shop's rules (its own and the chain's) as the hub UI shows them, with product names. */
    async shopPrices(shopId: number): Promise<HubPrices> {
      await applyDuePrices();
      return shopPricesOf(deps, shopId);
    },

    /** A price list checked by the till's rules and written (new, or by `id`), in one transaction. */
    async putPriceList(shopId: number, input: HubPriceListInput): Promise<{ id: number; name: string }> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        const chainId = await chainOf(q, shopId);
        const { where, id, shopId: _shop, ...list } = input;
        const catalog = await ruleCatalog(
          q,
          shopId,
          chainId,
          where,
          list.items.map((i) => i.code),
        );
        const data: ListRowData = checkPriceList(list, catalog, refuse);
        return { id: await writeRule(q, { shopId, chainId, where, kind: 'list', id, data }, iso()), name: data.name };
      });
    },

    /**
     * A promotion checked by the till's rules, the overlap among the promotions it would sit beside (the shop's
     * and the chain's; for the chain, every shop's), and written, in one transaction.
     */
    async putPromotion(shopId: number, input: HubPromotionInput): Promise<{ id: number; name: string }> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        const chainId = await chainOf(q, shopId);
        const { where, id, shopId: _shop, ...promotion } = input;
        const catalog = await ruleCatalog(q, shopId, chainId, where, promotion.code ? [promotion.code] : []);
        const beside = await q.query<{ id: number; data: PromotionRowData }>(
          `SELECT id, data FROM hub_prices WHERE kind = 'promotion' AND NOT deleted AND chain_id = $2
             AND (${where === 'chain' ? '$1::int4 IS NOT NULL' : 'shop_id = $1 OR shop_id IS NULL'})`,
          [shopId, chainId],
        );
        const others: PromotionClash[] = beside.map((b) => ({ ...b.data, id: Number(b.id) }));
        const data = checkPromotion(promotion, catalog, others, id, refuse);
        return {
          id: await writeRule(q, { shopId, chainId, where, kind: 'promotion', id, data }, iso()),
          name: data.name,
        };
      });
    },

    /**
     * A scheduled change of a product's price in the shop or in every shop of the chain (the product known when a
     * shop of it has it), checked by the till's rules, in one transaction. A shop's own change takes the chain's
     * of the same product and moment over there (prices-scheduled.ts): its tills pull the chain's again.
     */
    async schedulePrice(shopId: number, input: HubScheduleInput): Promise<{ id: number; name: string }> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        const chainId = await chainOf(q, shopId);
        const { where = 'shop', shopId: _shop, ...change } = input;
        const catalog = await ruleCatalog(q, shopId, chainId, where, [change.code]);
        const data = checkSchedule(change, catalog, deps.now().getTime(), refuse);
        const id = await writeRule(
          q,
          { shopId, chainId, where, kind: 'scheduled', id: undefined, data: { ...data, state: 'pending' } },
          iso(),
        );
        if (where === 'shop') await touchChainChange(q, chainId, data, iso());
        return { id, name: data.code };
      });
    },

    /**
     * Deletes a list or a promotion, or cancels a pending scheduled change (`prices_not_pending` when it is not),
     * with a new version every till pulls. Null when this shop sees no such rule.
     */
    async deletePrice(shopId: number, id: number): Promise<{ kind: Kind; name: string } | null> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        const chainId = await chainOf(q, shopId);
        const found = await q.query<PriceRow>(
          `SELECT id, shop_id, kind, data, state, deleted, version FROM hub_prices
            WHERE id = $3 AND NOT deleted AND ${VISIBLE} FOR UPDATE`,
          [shopId, chainId, id],
        );
        const row = found[0];
        if (!row) return null;
        if (row.kind === 'scheduled' && row.state !== 'pending') refuse('id', 'prices_not_pending');
        await q.query(
          row.kind === 'scheduled'
            ? `UPDATE hub_prices SET state = 'cancelled', data = jsonb_set(data, '{state}', '"cancelled"'),
                 version = nextval('change_seq'), updated_at = $2 WHERE id = $1`
            : `UPDATE hub_prices SET deleted = true, version = nextval('change_seq'), updated_at = $2 WHERE id = $1`,
          [id, iso()],
        );
        const data = row.data as { name?: string; code?: string; at?: string };
        if (row.kind === 'scheduled' && row.shop_id !== null && data.code && data.at)
          await touchChainChange(q, chainId, { code: data.code, at: data.at }, iso());
        return { kind: row.kind, name: data.name ?? data.code ?? '' };
      });
    },
  };
}

/**
 * A shop's own change of `code` at `at` was made or cancelled: the chain's pending change of it at that moment
 * gets a new version, so the shop's tills pull it again with its state there (skipped, or pending again).
 */
export async function touchChainChange(
  q: Queryable,
  chainId: number,
  change: { code: string; at: string },
  now: string,
): Promise<void> {
  await q.query(
    `UPDATE hub_prices SET version = nextval('change_seq'), updated_at = $4
      WHERE kind = 'scheduled' AND shop_id IS NULL AND chain_id = $1 AND state = 'pending'
        AND data->>'code' = $2 AND data->>'at' = $3`,
    [chainId, change.code, change.at, now],
  );
}

/** Sets a chain's change in every shop of the chain that has the product and no own change then; how many. */
async function applyChainChange(q: Queryable, chainId: number, s: HubScheduledRow): Promise<number> {
  const shops = await q.query<{ id: number }>(
    `SELECT s.id FROM shops s WHERE s.chain_id = $1 AND NOT ${OWN_CHANGE} ORDER BY s.id`,
    [chainId, s.code, s.at],
  );
  let changed = 0;
  for (const shop of shops) if (await setProductPrice(q, Number(shop.id), s.code, s.price_para)) changed++;
  return changed;
}

/**
 * Applies every scheduled change due by now, each once (pending → applied, or skipped when no shop it is for has
 * the product any more): the products' new prices with a new version, in the caller's transaction.
 */
export async function applyDueChanges(q: Queryable, iso: () => string): Promise<number> {
  const due = await q.query<{ id: number; shop_id: number | null; chain_id: number; data: HubScheduledRow }>(
    `SELECT id, shop_id, chain_id, data FROM hub_prices
      WHERE kind = 'scheduled' AND state = 'pending' AND (data->>'at')::text <= $1 ORDER BY (data->>'at')::text, id`,
    [iso()],
  );
  for (const d of due) {
    const changed =
      d.shop_id === null
        ? (await applyChainChange(q, Number(d.chain_id), d.data)) > 0
        : await setProductPrice(q, d.shop_id, d.data.code, d.data.price_para);
    const state = changed ? 'applied' : 'skipped';
    await q.query(
      `UPDATE hub_prices SET state = $2, data = jsonb_set(data, '{state}', to_jsonb($2::text)),
         version = nextval('change_seq'), updated_at = $3 WHERE id = $1`,
      [d.id, state, iso()],
    );
  }
  return due.length;
}
