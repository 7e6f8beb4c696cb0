/**
 * The catalog area: the tills' pull of master data after their cursor (products, staff, shop settings), a till's
 * catalog adopted or replacing the shop's, and the hub UI's product list, edits, bulk price change and CSV.
 */
import { bookCatalogPrices } from '../goods/ledger.ts';
import type { Queryable } from '../db/db.ts';
import { checkTillCatalog, shopTaxLabels } from '../till-trust.ts';
import { HubError, type ChangesResult, type ProductInput } from '../../shared/hub/protocol.ts';
import { foldText } from '../../shared/catalog/fold.ts';
import { changePriceByPercent } from '../../shared/catalog/price-change.ts';
import { catalogCsv } from '../../shared/catalog/csv-export.ts';
import type { Language } from '../../shared/domain.ts';
import { composeAreas, lockMasterData, productOf, type AuthedTill, type HubDeps, type ProductRow } from './shared.ts';
import { tillPinKey } from '../pin-verifiers.ts';
import { pricesService } from './prices.ts';

/** Writes products of a shop by code, each with a new version (the caller holds the master-data lock). */
export async function writeProducts(q: Queryable, shopId: number, products: readonly ProductInput[]): Promise<number> {
  const CHUNK = 1000;
  for (let i = 0; i < products.length; i += CHUNK) {
    const part = products.slice(i, i + CHUNK);
    await q.query(
      `INSERT INTO products (shop_id, code, name, price_para, label, unit, grp, favourite, barcodes, deleted, version)
       SELECT $1, p.code, p.name, p.price_para, p.label, p.unit, p.grp, p.favourite, p.barcodes, p.deleted, nextval('change_seq')
       FROM jsonb_to_recordset($2::jsonb) AS p(code text, name text, price_para bigint, label text, unit text, grp text,
            favourite boolean, barcodes jsonb, deleted boolean)
       ON CONFLICT (shop_id, code) DO UPDATE SET name = excluded.name, price_para = excluded.price_para,
         label = excluded.label, unit = excluded.unit, grp = excluded.grp, favourite = excluded.favourite,
         barcodes = excluded.barcodes, deleted = excluded.deleted, version = excluded.version`,
      [
        shopId,
        JSON.stringify(
          part.map((p) => ({
            code: p.code,
            name: p.name,
            price_para: p.pricePara,
            label: p.label,
            unit: p.unit,
            grp: p.group ?? null,
            favourite: p.favourite ?? false,
            barcodes: p.barcodes ?? [],
            deleted: p.deleted ?? false,
          })),
        ),
      ],
    );
  }
  // A big write leaves the planner's statistics behind (PGlite has no autovacuum): the list's keyset would be
  // planned as a scan and a sort of the whole shop. Fresh statistics keep a page on `products_live`.
  if (products.length >= 1000) await q.query('ANALYZE products');
  return products.length;
}

/**
 * A product's new regular price (a scheduled change come due, hub/services/prices.ts) with a new version, so every
 * till pulls it; the caller holds the master-data lock. False when the shop has no such live product.
 */
export async function setProductPrice(q: Queryable, shopId: number, code: string, pricePara: number): Promise<boolean> {
  const r = await q.query<{ code: string }>(
    `UPDATE products SET price_para = $3, version = nextval('change_seq')
      WHERE shop_id = $1 AND code = $2 AND NOT deleted RETURNING code`,
    [shopId, code, pricePara],
  );
  return r.length > 0;
}

/** Many products' prices set at once (a goods receipt's new retail prices), as setProductPrice each. */
export async function setProductPrices(
  q: Queryable,
  shopId: number,
  prices: readonly { code: string; pricePara: number }[],
): Promise<void> {
  // A product on two lines takes the last line's price, as one call per line would leave it.
  const last = new Map(prices.map((x) => [x.code, x.pricePara]));
  await q.query(
    `UPDATE products p SET price_para = v.price, version = nextval('change_seq')
       FROM unnest($2::text[], $3::int8[]) AS v(code, price)
      WHERE p.shop_id = $1 AND p.code = v.code AND NOT p.deleted`,
    [shopId, [...last.keys()], [...last.values()]],
  );
}

/**
 * The tax labels every till of the shop (not revoked) that reports labels reports as current, sorted; empty before
 * any reported (hub/till-trust.ts `shopTaxLabels`: one till's status cannot widen them).
 */
async function reportedLabels(q: Queryable, shopId: number): Promise<string[]> {
  return (await shopTaxLabels(q, shopId)).labels;
}

/**
 * Refuses a batch of products before anything is written: a barcode given to two products of the batch, or
 * owned by a product of the shop the batch does not also change, or a label none of the shop's tills
 * reports among its current tax labels (400, `products.<i>.barcodes` / `products.<i>.label`).
 */
export async function checkProducts(q: Queryable, shopId: number, products: readonly ProductInput[]): Promise<void> {
  const live = products.map((p, i) => ({ p, i })).filter(({ p }) => !p.deleted);
  const current = await shopTaxLabels(q, shopId);
  const labels = new Set(current.labels);
  for (const { p, i } of live)
    if (current.judged && !labels.has(p.label))
      throw new HubError(
        400,
        'label_not_current',
        `the tax label ${p.label} is not among the shop's tax labels (${[...labels].join(', ')})`,
        `products.${i}.label`,
      );
  const owner = new Map<string, { code: string; i: number }>();
  for (const { p, i } of live)
    for (const b of new Set(p.barcodes ?? [])) {
      const other = owner.get(b);
      if (other && other.code !== p.code)
        throw new HubError(400, 'barcode_taken', `the barcode ${b} also names ${other.code}`, `products.${i}.barcodes`);
      owner.set(b, { code: p.code, i });
    }
  if (owner.size === 0) return;
  const batchCodes = new Set(products.map((p) => p.code));
  const held = await q.query<{ code: string; name: string; barcode: string }>(
    `SELECT p.code, p.name, b.value AS barcode FROM products p, jsonb_array_elements_text(p.barcodes) AS b(value)
     WHERE p.shop_id = $1 AND NOT p.deleted AND p.barcodes ?| $2::text[]`,
    [shopId, [...owner.keys()]],
  );
  for (const h of held) {
    const mine = owner.get(h.barcode);
    if (mine && !batchCodes.has(h.code))
      throw new HubError(
        400,
        'barcode_taken',
        `the barcode ${h.barcode} belongs to ${h.code} ${h.name}`,
        `products.${mine.i}.barcodes`,
      );
  }
}

/**
 * Checks and writes products of a shop (the caller holds the master-data lock): the hub's product edits and a
 * till's catalog alike. A price changed here is a price change of the shop's stock book (a нивелација where goods
 * are on hand), booked with `approver` (null: none). The number of products written.
 */
async function checkedWrite(
  deps: HubDeps,
  q: Queryable,
  shopId: number,
  products: readonly ProductInput[],
  approver: string | null,
): Promise<number> {
  await checkProducts(q, shopId, products);
  const changed = await writeProducts(q, shopId, products);
  await bookCatalogPrices(
    q,
    shopId,
    products.map((p) => p.code),
    deps.iso(),
    deps.zone,
    approver,
  );
  return changed;
}

/** What the tills ask of the catalog: the pull, a till's catalog at enrolment, the hub's product edits. */
function catalogSyncService(deps: HubDeps) {
  const { db, iso } = deps;
  const prices = pricesService(deps);
  return {
    /**
     * Master data of the till's shop changed after `since`, oldest first, at most `limit` rows per kind: products,
     * people, settings, and the shop's and chain's price rules (a scheduled change due by now applied first, so
     * its product's new price is in the same answer).
     */
    async changes(till: AuthedTill, since: number, limit = 5000): Promise<ChangesResult> {
      await db.query('UPDATE tills SET last_seen = $1 WHERE id = $2', [iso(), till.id]);
      await prices.applyDuePrices();
      const products = await db.query<ProductRow>(
        'SELECT * FROM products WHERE shop_id = $1 AND version > $2 ORDER BY version LIMIT $3',
        [till.shopId, since, limit],
      );
      // Issue 39: never the hub's PIN hash; this till's own verifier of each person's PIN, once the hub made one
      // (hub/pin-verifiers.ts), whose version counts as the person's.
      const pinKey = await tillPinKey(db, till.id);
      const staff = await db.query<{
        id: string;
        name: string;
        role: 'cashier' | 'manager';
        verifier: string;
        active: boolean;
        version: number;
      }>(
        `SELECT * FROM (SELECT s.id, s.name, s.role, s.active, coalesce(v.verifier, '') AS verifier,
             greatest(s.version, coalesce(v.version, 0)) AS version
           FROM staff s LEFT JOIN pin_verifiers v ON v.till_id = $4 AND v.person_id = s.id
           WHERE s.shop_id = $1) p WHERE version > $2 ORDER BY version LIMIT $3`,
        [till.shopId, since, limit, till.id],
      );
      const settings = await db.query<{ key: string; value: unknown; version: number }>(
        'SELECT key, value, version FROM shop_settings WHERE shop_id = $1 AND version > $2 ORDER BY version LIMIT $3',
        [till.shopId, since, limit],
      );
      const rules = await prices.priceChanges(till.shopId, since, limit);
      // With a full page of one kind, the cursor stops where that page ends so nothing is skipped.
      const lastOf = (rows: readonly { version: number }[]): number =>
        rows.length === limit ? Number(rows[rows.length - 1]?.version) : Infinity;
      const bound = Math.min(lastOf(products), lastOf(staff), lastOf(settings), lastOf(rules));
      const ps = products.filter((p) => p.version <= bound);
      const ss = staff.filter((s) => s.version <= bound);
      const ts = settings.filter((t) => t.version <= bound);
      const rs = rules.filter((r) => r.version <= bound);
      const top = Math.max(
        since,
        ...ps.map((p) => p.version),
        ...ss.map((s) => s.version),
        ...ts.map((t) => t.version),
        ...rs.map((r) => r.version),
      );
      return {
        cursor: top,
        more: Number.isFinite(bound),
        products: ps.map((p) => ({ ...productOf(p), deleted: p.deleted, version: p.version })),
        staff: ss.map((s) => ({
          id: s.id,
          name: s.name,
          role: s.role,
          verifier: s.verifier,
          active: s.active,
          version: Number(s.version),
        })),
        pinKey,
        settings: ts.map((t) => ({ key: t.key, value: t.value, version: t.version })),
        prices: rs,
      };
    },

    /**
     * Creates or changes products of a shop (a price change, a new barcode, a deletion) in one transaction.
     * Refused whole (400, naming `products.<i>.<field>`, nothing written) when a barcode would name two
     * products, or a label is not among the tax labels the shop's tills report (not judged before any has).
     */
    async upsertProducts(shopId: number, products: readonly ProductInput[]): Promise<number> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        return checkedWrite(deps, q, shopId, products, null);
      });
    },

    /**
     * A till's catalog offered at its enrolment, in ONE transaction: adopted when the shop has no products (the
     * first till brings the shop's catalog), else nothing is written and the shop's count is answered, for the
     * manager to choose. With `replace` (the manager chose the till's) the shop's products the till does not
     * have are deleted and the till's written, each with a new version the other tills pull.
     * Issue 39: a till's word alone writes nothing. `approver` is the hub manager whose PIN the hub checked (null:
     * none given): without one an offer is answered with the shop's count only, and a `replace` is refused (403
     * `catalog_unapproved` at `approverPin`). Every product passes the till's own product rules and the admin's
     * checks (labels the shop's tills agree on, barcodes), refused at its field with nothing written.
     */
    async adoptCatalog(
      shopId: number,
      products: readonly ProductInput[],
      replace = false,
      approver: string | null = null,
    ): Promise<{ adopted: boolean; hubProducts: number }> {
      if (approver === null && replace)
        throw new HubError(
          403,
          'catalog_unapproved',
          "approverPin: a till's catalog replaces the shop's only with a hub manager's PIN",
          'approverPin',
        );
      checkTillCatalog(products);
      return db.tx(async (q) => {
        await lockMasterData(q);
        const have = await q.query<{ n: number }>(
          'SELECT count(*)::int8 AS n FROM products WHERE shop_id = $1 AND NOT deleted',
          [shopId],
        );
        const hubProducts = Number(have[0]?.n ?? 0);
        if ((hubProducts > 0 && !replace) || approver === null) return { adopted: false, hubProducts };
        if (replace)
          await q.query(
            `UPDATE products SET deleted = true, version = nextval('change_seq')
             WHERE shop_id = $1 AND NOT deleted AND NOT (code = ANY($2::text[]))`,
            [shopId, products.map((p) => p.code)],
          );
        // After the deletion: a barcode of a product the till's catalog replaces is free for the till's.
        await checkedWrite(deps, q, shopId, products, approver);
        return { adopted: true, hubProducts: products.length };
      });
    },
  };
}

/** The hub UI's catalog: the product list and search, groups, labels, the bulk price change, the CSV. */
function catalogAdminService(deps: HubDeps) {
  const { db } = deps;

  /**
   * A shop's live product count, counted again only when its products changed: every change (a deletion too)
   * gives the product a new version, so the newest version (one step down `products_version`) says whether the
   * count kept is still true. The list asks for it with every page; counting 100,000 rows each time would not
   * keep a page under 50 ms.
   */
  const counts = new Map<number, { version: number; n: number }>();
  async function productCount(shopId: number): Promise<number> {
    const top = await db.query<{ v: number | null }>(
      'SELECT max(version)::int8 AS v FROM products WHERE shop_id = $1',
      [shopId],
    );
    const version = Number(top[0]?.v ?? 0);
    const kept = counts.get(shopId);
    if (kept && kept.version === version) return kept.n;
    const r = await db.query<{ n: number }>(
      'SELECT count(*)::int8 AS n FROM products WHERE shop_id = $1 AND NOT deleted',
      [shopId],
    );
    const n = Number(r[0]?.n ?? 0);
    counts.set(shopId, { version, n });
    return n;
  }

  return {
    /**
     * One page of a shop's catalog (deleted products left out) in code order after `after`: all products, or
     * those whose code starts with `query` or whose name holds it (case folded). `next` is the code to pass as
     * `after` for the next page, null on the last; `total` counts the shop's products. A keyset on
     * `products_live`: as fast at the 2,000th page as at the first.
     */
    async productPage(
      shopId: number,
      o: { query?: string; after?: string; limit?: number } = {},
    ): Promise<{ products: (ProductInput & { version: number })[]; next: string | null; total: number }> {
      const limit = o.limit ?? 50;
      // Each folded word anywhere in the folded name and code (hub migration 15), so „mleko 2“ finds „Млеко 2,8%“.
      const words = foldText(o.query ?? '')
        .split(' ')
        .filter(Boolean)
        .slice(0, 8);
      // Two statements, so the plain page's plan is the keyset on `products_live` whatever a search needs.
      const rows =
        words.length === 0
          ? await db.query<ProductRow>(
              `SELECT * FROM products WHERE shop_id = $1 AND NOT deleted AND code > $2 ORDER BY code LIMIT $3`,
              [shopId, o.after ?? '', limit + 1],
            )
          : await db.query<ProductRow>(
              `SELECT * FROM products WHERE shop_id = $1 AND NOT deleted AND code > $2
                 AND ${words.map((_, i) => `search LIKE $${i + 4}`).join(' AND ')}
               ORDER BY code LIMIT $3`,
              // A folded word is letters and digits only: nothing in it is a LIKE wildcard.
              [shopId, o.after ?? '', limit + 1, ...words.map((w) => `%${w}%`)],
            );
      const page = rows.slice(0, limit);
      return {
        products: page.map((p) => ({ ...productOf(p), version: Number(p.version) })),
        next: rows.length > limit ? (page.at(-1)?.code ?? null) : null,
        total: await productCount(shopId),
      };
    },

    /** The tax labels the shop's tills report (the product form's choice; empty before any till reported). */
    taxLabels(shopId: number): Promise<string[]> {
      return reportedLabels(db, shopId);
    },

    /** A shop's product groups with their product counts, by name (the bulk price change's choice). */
    async productGroups(shopId: number): Promise<{ name: string; products: number }[]> {
      const rows = await db.query<{ name: string; n: number }>(
        `SELECT grp AS name, count(*)::int8 AS n FROM products WHERE shop_id = $1 AND NOT deleted AND grp IS NOT NULL
         GROUP BY grp ORDER BY grp`,
        [shopId],
      );
      return rows.map((r) => ({ name: r.name, products: Number(r.n) }));
    },

    /**
     * Changes every price of a shop's group by `percentBp` hundredths of a percent (shared/catalog/price-change.ts)
     * in ONE transaction; each changed product gets a new version, so every till takes it at its next pull.
     * A dry run only counts. 400 `group_unknown` at `group` when the group has no products.
     */
    async bulkPrice(shopId: number, group: string, percentBp: number, dryRun = false): Promise<number> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        const rows = await q.query<{ code: string; price_para: number }>(
          'SELECT code, price_para FROM products WHERE shop_id = $1 AND grp = $2 AND NOT deleted',
          [shopId, group],
        );
        if (rows.length === 0) throw new HubError(400, 'group_unknown', `the group ${group} has no products`, 'group');
        if (dryRun) return rows.length;
        const changed = rows
          .map((r) => ({ code: r.code, price: changePriceByPercent(Number(r.price_para), percentBp) }))
          .filter((c, i) => c.price !== Number(rows[i]?.price_para));
        if (changed.length > 0)
          await q.query(
            `UPDATE products p SET price_para = c.price, version = nextval('change_seq')
             FROM jsonb_to_recordset($2::jsonb) AS c(code text, price bigint)
             WHERE p.shop_id = $1 AND p.code = c.code`,
            [shopId, JSON.stringify(changed)],
          );
        await bookCatalogPrices(
          q,
          shopId,
          changed.map((c) => c.code),
          deps.iso(),
          deps.zone,
          null,
        );
        return rows.length;
      });
    },

    /** A shop's whole catalog as CSV with the till import's columns, in code order (shared/catalog/csv-export.ts). */
    async productsCsv(shopId: number, lang: Language = 'sr-Cyrl'): Promise<{ csv: string; products: number }> {
      const rows = await db.query<ProductRow>(
        'SELECT * FROM products WHERE shop_id = $1 AND NOT deleted ORDER BY code',
        [shopId],
      );
      return { csv: catalogCsv(rows.map(productOf), lang), products: rows.length };
    },
  };
}

export function catalogService(deps: HubDeps) {
  return composeAreas({ sync: catalogSyncService(deps), admin: catalogAdminService(deps) });
}
