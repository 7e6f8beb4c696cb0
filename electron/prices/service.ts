/**
 * Prices of this shop (issue 42, docs/prices.md): price lists, promotions and scheduled price changes, stored here
 * (the one writer of price_lists, price_list_items, promotions and scheduled_prices) and applied by the pure engine
 * (shared/prices/engine.ts). The rules are indexed once per change, so pricing a scan reads only its product's
 * candidates. A scheduled change is a durable job: `applyDue` marks it applied and changes the catalog price
 * (which writes the нивелација) in one transaction, so it is applied once, at its moment or at the next start.
 */
import type { Db } from '../db/open.ts';
import type { CatalogService } from '../catalog/service.ts';
import { auditCall, type AuditDeps, type Caller } from '../auth/context.ts';
import { CommandError, invalidInput } from '../errors.ts';
import type {
  PriceListInput,
  PriceListView,
  PricedLineView,
  PricesOverview,
  PromotionInput,
  PromotionView,
  ScheduleInput,
  ScheduledPriceView,
} from '../../shared/contract/prices.ts';
import { toMilli, toPara, type Para } from '../../shared/money.ts';
import {
  buildPriceIndex,
  priceCart,
  shopMoment,
  type PriceIndex,
  type PriceLineInput,
  type PriceList,
  type PricedLine,
  type Promotion,
  type PromotionDeal,
} from '../../shared/prices/engine.ts';
import { dayStart } from '../../shared/i18n/time.ts';
import type { HubPriceChange } from '../../shared/hub/prices.ts';
import {
  checkPriceList,
  checkPromotion,
  checkSchedule,
  listViewOf,
  promotionViewOf,
  windowOf,
  type ListRowData,
  type PromotionRowData,
  type Refuse,
  type RuleCatalog,
} from '../../shared/prices/rules.ts';

/** A refusal at its field in the till's words (the shared checks' way out). */
const refuse: Refuse = (field, code, params) => {
  throw invalidInput(field, code, params);
};

/** A price list's and a promotion's deletion: each table's statements literal (test/electron/table-writers.test.ts). */
const RULE_DELETES = {
  list: {
    name: 'SELECT name FROM price_lists WHERE id = ?',
    remove: 'DELETE FROM price_lists WHERE id = ?',
    action: 'prices.listDelete',
  },
  promotion: {
    name: 'SELECT name FROM promotions WHERE id = ?',
    remove: 'DELETE FROM promotions WHERE id = ?',
    action: 'prices.promotionDelete',
  },
} as const;

export interface PricesDeps extends AuditDeps {
  now?: () => number;
  /** The till is enrolled at a store hub, which owns the shop's prices (docs/prices.md "At the hub"). */
  hubOwnsPrices?(): boolean;
}

interface ListRow {
  id: number;
  /** The hub's id of a rule the hub sent, else null (the till's own). */
  hub_id: number | null;
  name: string;
  priority: number;
  scope: 'shop' | 'chain' | 'buyer';
  buyer_pib: string | null;
  from_day: string | null;
  to_day: string | null;
  weekdays: string | null;
  from_minute: number | null;
  to_minute: number | null;
  rule_group: string | null;
  rule_percent_bp: number | null;
}

/** A stored promotion: the checked row (shared/prices/rules.ts) with its id. */
type PromotionRow = PromotionRowData & { id: number; hub_id: number | null };

/** A saved price list or promotion: its row and the view the manager gets back. */
interface SavedRule {
  list: { row: ListRow; view: PriceListView };
  promotion: { row: PromotionRow; view: PromotionView };
}

interface ScheduledRow {
  id: number;
  hub_id: number | null;
  product_code: string;
  price_para: number;
  at: string;
  state: ScheduledPriceView['state'];
  applied_at: string | null;
  old_price_para: number | null;
}

function dealOf(r: PromotionRow): PromotionDeal {
  switch (r.kind) {
    case 'price':
      return { kind: 'price', pricePara: r.price_para ?? 0 };
    case 'percent':
      return { kind: 'percent', percentOffBp: r.percent_bp ?? 0 };
    case 'multibuy':
      return { kind: 'multibuy', buy: r.buy ?? 0, pay: r.pay ?? 0 };
    case 'nth':
      return { kind: 'nth', nth: r.nth ?? 0, percentOffBp: r.percent_bp ?? 0 };
  }
}

/** The PIB of a `10:` buyer ID (a business buyer), else null. */
export function buyerPibOf(buyerId: string | undefined | null): string | null {
  const m = buyerId ? /^10:(\d{9})$/.exec(buyerId.trim()) : null;
  return m ? (m[1] as string) : null;
}

/** A list's row written (by `id`, else new) with its items replaced; `hubId` marks one the hub sent. */
function saveList(
  db: Db,
  row: Omit<ListRowData, 'items'> & { updated_at: string },
  items: readonly { code: string; price_para: number }[],
  id: number | undefined,
  hubId: number | null,
): number {
  let saved: number;
  if (id !== undefined) {
    const changed = db
      .prepare(
        `UPDATE price_lists SET name = @name, priority = @priority, scope = @scope, buyer_pib = @buyer_pib,
           from_day = @from_day, to_day = @to_day, weekdays = @weekdays, from_minute = @from_minute,
           to_minute = @to_minute, rule_group = @rule_group, rule_percent_bp = @rule_percent_bp,
           updated_at = @updated_at WHERE id = @id`,
      )
      .run({ ...row, id }).changes;
    if (changed === 0) throw new CommandError('not_found', 'not_found', {}, 'id');
    saved = id;
    db.prepare('DELETE FROM price_list_items WHERE list_id = ?').run(id);
  } else {
    saved = Number(
      db
        .prepare(
          `INSERT INTO price_lists (name, priority, scope, buyer_pib, from_day, to_day, weekdays, from_minute,
             to_minute, rule_group, rule_percent_bp, updated_at, hub_id) VALUES (@name, @priority, @scope, @buyer_pib,
             @from_day, @to_day, @weekdays, @from_minute, @to_minute, @rule_group, @rule_percent_bp, @updated_at,
             @hub_id)`,
        )
        .run({ ...row, hub_id: hubId }).lastInsertRowid,
    );
  }
  const insert = db.prepare<[number, string, number]>(
    'INSERT INTO price_list_items (list_id, product_code, price_para) VALUES (?, ?, ?)',
  );
  for (const it of items) insert.run(saved, it.code, it.price_para);
  return saved;
}

/** A promotion's row written (by `id`, else new); `hubId` marks one the hub sent. */
function savePromotion(
  db: Db,
  row: PromotionRowData & { updated_at: string },
  id: number | undefined,
  hubId: number | null,
): number {
  if (id !== undefined) {
    const changed = db
      .prepare(
        `UPDATE promotions SET name = @name, priority = @priority, target_code = @target_code,
           target_group = @target_group, kind = @kind, price_para = @price_para, percent_bp = @percent_bp,
           buy = @buy, pay = @pay, nth = @nth, min_qty_milli = @min_qty_milli, from_day = @from_day,
           to_day = @to_day, weekdays = @weekdays, from_minute = @from_minute, to_minute = @to_minute,
           updated_at = @updated_at WHERE id = @id`,
      )
      .run({ ...row, id }).changes;
    if (changed === 0) throw new CommandError('not_found', 'not_found', {}, 'id');
    return id;
  }
  return Number(
    db
      .prepare(
        `INSERT INTO promotions (name, priority, target_code, target_group, kind, price_para, percent_bp, buy,
           pay, nth, min_qty_milli, from_day, to_day, weekdays, from_minute, to_minute, updated_at, hub_id)
         VALUES (@name, @priority, @target_code, @target_group, @kind, @price_para, @percent_bp, @buy, @pay,
           @nth, @min_qty_milli, @from_day, @to_day, @weekdays, @from_minute, @to_minute, @updated_at, @hub_id)`,
      )
      .run({ ...row, hub_id: hubId }).lastInsertRowid,
  );
}

/** Each database's count of pulls that changed its rules: a prices service reads its rules again after one. */
const hubGenerations = new WeakMap<Db, number>();

const HUB_TABLES = { list: 'price_lists', promotion: 'promotions', scheduled: 'scheduled_prices' } as const;

/**
 * Applies the rules the hub sent (docs/prices.md "At the hub") in the caller's transaction (the pull's page): each
 * by the hub's id, whole, or deleted. A scheduled change is kept pending until its moment, when this till's job
 * applies it (offline too); one the hub applied or cancelled meanwhile takes that state here unless this till
 * already applied it. Returns how many rules changed.
 */
export function applyHubPrices(db: Db, changes: readonly HubPriceChange[], at: string): number {
  const localId = (kind: keyof typeof HUB_TABLES, hubId: number): number | undefined =>
    db.prepare<[number], { id: number }>(`SELECT id FROM ${HUB_TABLES[kind]} WHERE hub_id = ?`).get(hubId)?.id;
  for (const c of changes) {
    const id = localId(c.kind, c.id);
    if (c.kind === 'scheduled') {
      const s = c.data;
      if (id === undefined)
        db.prepare(
          `INSERT INTO scheduled_prices (product_code, price_para, at, state, created_at, applied_at, hub_id)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(s.code, s.price_para, s.at, s.state, at, s.state === 'pending' ? null : at, c.id);
      else if (s.state !== 'pending')
        db.prepare("UPDATE scheduled_prices SET state = ?, applied_at = ? WHERE id = ? AND state = 'pending'").run(
          s.state,
          at,
          id,
        );
      // A chain's change the shop's own had overridden (skipped here), pending again before its moment: the shop's
      // own was cancelled at the hub (docs/prices.md "At the hub", which one wins).
      else
        db.prepare(
          "UPDATE scheduled_prices SET state = 'pending', applied_at = NULL WHERE id = ? AND state = 'skipped' AND at > ?",
        ).run(id, at);
      continue;
    }
    if (c.deleted) {
      if (id !== undefined)
        db.prepare(
          c.kind === 'list' ? 'DELETE FROM price_lists WHERE id = ?' : 'DELETE FROM promotions WHERE id = ?',
        ).run(id);
      continue;
    }
    if (c.kind === 'list') {
      const { items, ...row } = c.data;
      saveList(db, { ...row, updated_at: at }, items, id, c.id);
    } else savePromotion(db, { ...c.data, updated_at: at }, id, c.id);
  }
  if (changes.length > 0) hubGenerations.set(db, (hubGenerations.get(db) ?? 0) + 1);
  return changes.length;
}

export type PricesService = ReturnType<typeof createPricesService>;

export function createPricesService(db: Db, catalog: CatalogService, deps: PricesDeps) {
  const now = (): number => deps.now?.() ?? Date.now();
  let index: PriceIndex | null = null;
  let lists: ListRow[] = [];
  let promotions: PromotionRow[] = [];

  const st = {
    lists: db.prepare<[], ListRow>('SELECT * FROM price_lists ORDER BY priority DESC, id'),
    listItems: db.prepare<[], { list_id: number; product_code: string; price_para: number }>(
      'SELECT list_id, product_code, price_para FROM price_list_items ORDER BY list_id, product_code',
    ),
    promotions: db.prepare<[], PromotionRow>('SELECT * FROM promotions ORDER BY priority DESC, id'),
    scheduled: db.prepare<[], ScheduledRow>(
      // The pending ones by their moment, then the last 100 done, newest first.
      `SELECT * FROM scheduled_prices ORDER BY state <> 'pending', CASE WHEN state = 'pending' THEN at END, at DESC, id
       LIMIT 200`,
    ),
    scheduledOne: db.prepare<[number], ScheduledRow>('SELECT * FROM scheduled_prices WHERE id = ?'),
    due: db.prepare<[string], ScheduledRow>(
      "SELECT * FROM scheduled_prices WHERE state = 'pending' AND at <= ? ORDER BY at, id",
    ),
    nextDue: db.prepare<[], { at: string }>(
      "SELECT at FROM scheduled_prices WHERE state = 'pending' ORDER BY at LIMIT 1",
    ),
    // What pricing needs of a cart's products, in one read (the catalog's views also read barcodes and stock).
    products: db.prepare<[string], { id: number; code: string; price_para: number; grp: string | null }>(
      'SELECT id, code, price_para, grp FROM products WHERE code IN (SELECT value FROM json_each(?))',
    ),
    productIds: db.prepare<[string], { id: number; code: string; price_para: number; grp: string | null }>(
      'SELECT id, code, price_para, grp FROM products WHERE id IN (SELECT value FROM json_each(?))',
    ),
    claim: db.prepare<[string, number | null, string, number]>(
      "UPDATE scheduled_prices SET state = ?, old_price_para = ?, applied_at = ? WHERE id = ? AND state = 'pending'",
    ),
  };
  let items = new Map<number, { code: string; pricePara: Para }[]>();

  /** Reads the rules and rebuilds the engine's index (after every change of them, and at first use). */
  function load(): PriceIndex {
    lists = st.lists.all();
    promotions = st.promotions.all();
    items = new Map();
    for (const it of st.listItems.all()) {
      const list = items.get(it.list_id) ?? [];
      list.push({ code: it.product_code, pricePara: it.price_para });
      items.set(it.list_id, list);
    }
    const engineLists: PriceList[] = lists.map((l) => ({
      id: l.id,
      name: l.name,
      priority: l.priority,
      scope: l.scope === 'buyer' ? { kind: 'buyer', pib: l.buyer_pib ?? '' } : { kind: l.scope },
      window: windowOf(l),
      items: items.get(l.id) ?? [],
      rule: l.rule_percent_bp !== null ? { group: l.rule_group, percentOffBp: l.rule_percent_bp } : null,
    }));
    const enginePromotions: Promotion[] = promotions.map((p) => ({
      id: p.id,
      name: p.name,
      priority: p.priority,
      target: p.target_code !== null ? { code: p.target_code } : { group: p.target_group ?? '' },
      window: windowOf(p),
      deal: dealOf(p),
      minQtyMilli: p.min_qty_milli,
    }));
    index = buildPriceIndex(engineLists, enginePromotions);
    return index;
  }
  let generation = hubGenerations.get(db) ?? 0;
  /** The index of the rules, read again after a pull from the hub changed them. */
  const current = (): PriceIndex => {
    const now_ = hubGenerations.get(db) ?? 0;
    if (index && now_ === generation) return index;
    generation = now_;
    return load();
  };

  /**
   * While the till is enrolled at a hub the hub owns the prices (docs/prices.md "At the hub"): a new rule or a
   * change is refused in words (`prices_hub_owned`); only this till's own rules from before it enrolled (no hub id)
   * may still be deleted (`id`).
   */
  function refuseWhenHubOwned(table: 'price_lists' | 'promotions' | 'scheduled_prices', id?: number): void {
    if (!deps.hubOwnsPrices?.()) return;
    if (id !== undefined) {
      const row = db.prepare<[number], { hub_id: number | null }>(`SELECT hub_id FROM ${table} WHERE id = ?`).get(id);
      if (row && row.hub_id === null) return;
    }
    throw new CommandError('forbidden', 'prices_hub_owned', { field: 'id' }, 'id');
  }

  function productName(code: string): string | null {
    return catalog.product(code, [])?.name ?? null;
  }

  const listView = (l: ListRow, at: number): PriceListView =>
    listViewOf(l.id, l, items.get(l.id) ?? [], productName, at, l.hub_id !== null);
  const promotionView = (p: PromotionRow, at: number): PromotionView =>
    promotionViewOf(p.id, p, productName, at, p.hub_id !== null);

  function scheduledView(r: ScheduledRow): ScheduledPriceView {
    const product = catalog.product(r.product_code, []);
    return {
      id: r.id,
      code: r.product_code,
      name: product?.name ?? null,
      pricePara: r.price_para,
      oldPricePara: r.state === 'applied' ? r.old_price_para : (product?.pricePara ?? null),
      at: r.at,
      state: r.state,
      appliedAt: r.applied_at,
      fromHub: r.hub_id !== null,
    };
  }

  /** The catalog as the shared checks read it (shared/prices/rules.ts). */
  const ruleCatalog: RuleCatalog = {
    product: (code) => catalog.product(code, []),
    hasGroup: (name) => catalog.groups().some((g) => g.name === name),
    codeOfBarcode: (barcode) => catalog.barcodeOwner(barcode)?.code ?? null,
  };

  /** Prices cart lines (by product code) at `at` for a buyer: what the counter and the checkout both use. */
  function priceLines(
    lines: readonly {
      code?: string | undefined;
      productId?: number | undefined;
      quantityMilli: number;
      field: string;
    }[],
    buyerPib: string | null,
    at: number,
  ): (PricedLine & { code: string; productId: number })[] {
    const codes = lines.flatMap((l) => (l.code !== undefined ? [l.code] : []));
    const ids = lines.flatMap((l) => (l.code === undefined && l.productId !== undefined ? [l.productId] : []));
    const byCode = new Map(st.products.all(JSON.stringify([...new Set(codes)])).map((p) => [p.code, p]));
    const byId = new Map(
      (ids.length ? st.productIds.all(JSON.stringify([...new Set(ids)])) : []).map((p) => [p.id, p]),
    );
    const found = lines.map((l) => {
      const p =
        l.code !== undefined ? byCode.get(l.code) : l.productId !== undefined ? byId.get(l.productId) : undefined;
      if (!p) throw invalidInput(l.field, 'goods_unknown_product', { value: l.code ?? String(l.productId) });
      return p;
    });
    const input: PriceLineInput[] = found.map((p, i) => ({
      code: p.code,
      group: p.grp,
      regularPara: p.price_para,
      quantityMilli: (lines[i] as { quantityMilli: number }).quantityMilli,
    }));
    return priceCart(current(), input, { at, buyerPib }).map((p, i) => ({
      ...p,
      code: (found[i] as { code: string }).code,
      productId: (found[i] as { id: number }).id,
    }));
  }

  /**
   * The shelf price of each product (docs/prices.md, "Shelf labels"): one unit (a kg or l of a weighed one) alone in a
   * cart at `at`, for no business buyer, with the promotion's days when a promotion gives it. Each product is its own
   * cart, so a multi-buy (which needs several units) never shows as a shelf price.
   */
  function shelfPrices(
    products: readonly { code: string; group: string | null; pricePara: Para }[],
    at: number,
  ): Map<string, { pricePara: Para; regularPara: Para; promotion: { fromDay: string; toDay: string } | null }> {
    const index = current();
    const byId = new Map(promotions.map((p) => [p.id, p]));
    const out = new Map<
      string,
      { pricePara: Para; regularPara: Para; promotion: { fromDay: string; toDay: string } | null }
    >();
    for (const p of products) {
      const [line] = priceCart(
        index,
        [{ code: p.code, group: p.group, regularPara: p.pricePara, quantityMilli: 1000 }],
        {
          at,
          buyerPib: null,
        },
      );
      const promo = line?.rule?.kind === 'promotion' ? byId.get(line.rule.id) : undefined;
      out.set(p.code, {
        pricePara: line?.unitPara ?? p.pricePara,
        regularPara: p.pricePara,
        promotion: promo ? { fromDay: promo.from_day, toDay: promo.to_day } : null,
      });
    }
    return out;
  }

  /**
   * Applies every scheduled change due by `at`, each in its own transaction: claimed (pending → applied), the
   * catalog price changed through the catalog (its нивелација stamped with the change's own moment). A change
   * of a product the catalog no longer has is marked skipped. Returns how many were applied.
   */
  function applyDue(at: number = now()): number {
    let applied = 0;
    for (const row of st.due.all(new Date(at).toISOString())) {
      const done = db.transaction(() => {
        const product = catalog.product(row.product_code, []);
        const appliedAt = new Date(at).toISOString();
        if (!product) {
          st.claim.run('skipped', null, appliedAt, row.id);
          return false;
        }
        if (st.claim.run('applied', product.pricePara, appliedAt, row.id).changes === 0) return false;
        catalog.put(
          {
            code: product.code,
            name: product.name,
            pricePara: row.price_para,
            label: product.label,
            unit: product.unit,
            group: product.group,
            favourite: product.favourite,
            barcodes: product.barcodes,
          },
          'catalog',
          row.at,
        );
        deps.audit(
          null,
          'prices.applied',
          { name: product.name, beforePara: product.pricePara, pricePara: row.price_para, at: row.at },
          null,
        );
        return true;
      })();
      if (done) applied++;
    }
    return applied;
  }

  /**
   * The rule pricing each checkout line now, with the discount it gives, or null: lines naming a catalog product
   * (by id, else by its exact barcode) at its regular price are priced together as a cart; others have none.
   */
  function checkoutRules(
    input: {
      lines: readonly {
        productId?: number | undefined;
        gtin?: string | undefined;
        unitPrice: number;
        quantity: number;
      }[];
      buyerId?: string | undefined;
    },
    at: number = now(),
  ): ({ name: string; kind: 'list' | 'promotion'; discountPara: number } | null)[] {
    const cart: PriceLineInput[] = [];
    const at_: number[] = [];
    input.lines.forEach((l, i) => {
      const byId = l.productId !== undefined ? catalog.productById(l.productId, []) : null;
      const scanned = !byId && l.gtin ? catalog.byBarcode(l.gtin, []) : null;
      const p = byId ?? (scanned?.kind === 'exact' ? scanned.product : null);
      const quantityMilli = toMilli(l.quantity);
      if (!p || quantityMilli === null || toPara(l.unitPrice) !== p.pricePara) return;
      cart.push({ code: p.code, group: p.group, regularPara: p.pricePara, quantityMilli });
      at_.push(i);
    });
    const out: ({ name: string; kind: 'list' | 'promotion'; discountPara: number } | null)[] = input.lines.map(
      () => null,
    );
    if (cart.length === 0) return out;
    priceCart(current(), cart, { at, buyerPib: buyerPibOf(input.buyerId) }).forEach((p, k) => {
      if (p.rule && p.discountPara > 0)
        out[at_[k] as number] = { name: p.rule.name, kind: p.rule.kind, discountPara: p.discountPara };
    });
    return out;
  }

  /**
   * A checkout's rules, computed once per checkout: the guard's discount limit and the sale's pricing both ask, with
   * the one parsed input object the call carries, and read the same answer (priced at the first ask).
   */
  const perCheckout = new WeakMap<object, ReturnType<typeof checkoutRules>>();
  function checkoutRulesOnce(input: Parameters<typeof checkoutRules>[0]): ReturnType<typeof checkoutRules> {
    let rules = perCheckout.get(input);
    if (!rules) {
      rules = checkoutRules(input);
      perCheckout.set(input, rules);
    }
    return rules;
  }

  /** Deletes a price list or a promotion (its name audited), then indexes the rules again. */
  function deleteRule(kind: keyof typeof RULE_DELETES, id: number, caller?: Caller): { deleted: boolean } {
    refuseWhenHubOwned(kind === 'list' ? 'price_lists' : 'promotions', id);
    const sql = RULE_DELETES[kind];
    const deleted = db.transaction(() => {
      const row = db.prepare<[number], { name: string }>(sql.name).get(id);
      if (!row) return false;
      db.prepare(sql.remove).run(id);
      auditCall(deps, caller, sql.action, { name: row.name });
      return true;
    })();
    load();
    return { deleted };
  }

  /** What `putRule` reads back and answers, by kind: the reloaded rows, their view, the audit action. */
  const ruleKinds: {
    [K in keyof SavedRule]: {
      rows: () => readonly SavedRule[K]['row'][];
      view: (r: SavedRule[K]['row'], at: number) => SavedRule[K]['view'];
      action: string;
      what: string;
    };
  } = {
    list: { rows: () => lists, view: listView, action: 'prices.listPut', what: 'price list' },
    promotion: { rows: () => promotions, view: promotionView, action: 'prices.promotionPut', what: 'promotion' },
  };

  /**
   * Saves a price list or a promotion (`save` gets the row's `updated_at`) with its audit line in one transaction,
   * then indexes the rules again and answers the row as read back (`rows` is read after the reload, which replaces
   * the arrays), as the manager sees it now.
   */
  function putRule<K extends keyof SavedRule>(
    kind: K,
    save: (updatedAt: string) => number,
    detail: Record<string, unknown>,
    caller: Caller | undefined,
  ): SavedRule[K]['view'] {
    const rule = ruleKinds[kind];
    const at = new Date(now()).toISOString();
    const id = db.transaction(() => {
      const id = save(at);
      auditCall(deps, caller, rule.action, detail);
      return id;
    })();
    load();
    const saved = rule.rows().find((r) => r.id === id);
    if (!saved) throw new Error(`${rule.what} not saved`);
    return rule.view(saved, now());
  }

  return {
    applyDue,
    priceLines,
    shelfPrices,
    checkoutRules,
    checkoutRulesOnce,

    /** Milliseconds until the next pending change is due (0: due now), or null when none is pending. */
    nextDueInMs(at: number = now()): number | null {
      const next = st.nextDue.get();
      return next ? Math.max(0, Date.parse(next.at) - at) : null;
    },

    quote(input: {
      lines: { code?: string | undefined; productId?: number | undefined; quantity: number }[];
      buyerId?: string | undefined;
    }): PricedLineView[] {
      return priceLines(
        input.lines.map((l, i) => ({
          code: l.code,
          productId: l.productId,
          quantityMilli: toMilli(l.quantity) ?? 0,
          field: l.code !== undefined ? `lines.${i}.code` : `lines.${i}.productId`,
        })),
        buyerPibOf(input.buyerId),
        now(),
      ).map((p) => ({
        code: p.code,
        productId: p.productId,
        regularPara: p.regularPara,
        unitPara: p.unitPara,
        totalPara: p.totalPara,
        discountPara: p.discountPara,
        rule: p.rule,
      }));
    },

    overview(): PricesOverview {
      current();
      const at = now();
      const scheduled = st.scheduled.all().map(scheduledView);
      const next: PricesOverview['next'] = [];
      for (const s of scheduled)
        if (s.state === 'pending') next.push({ at: s.at, what: 'scheduled', name: s.name ?? s.code });
      const today = shopMoment(at).day;
      for (const r of [...lists, ...promotions]) {
        if (r.from_day && r.from_day > today)
          next.push({ at: new Date(dayStart(r.from_day)).toISOString(), what: 'starts', name: r.name });
        if (r.to_day && r.to_day >= today) {
          const end = new Date(dayStart(r.to_day) + 36 * 3_600_000).toISOString().slice(0, 10);
          next.push({ at: new Date(dayStart(end)).toISOString(), what: 'ends', name: r.name });
        }
      }
      next.sort((a, b) => a.at.localeCompare(b.at));
      return {
        lists: lists.map((l) => listView(l, at)),
        promotions: promotions.map((p) => promotionView(p, at)),
        scheduled,
        next: next.slice(0, 20),
      };
    },

    putList(input: PriceListInput, caller?: Caller): PriceListView {
      refuseWhenHubOwned('price_lists');
      const { items: listItems, ...checked } = checkPriceList(input, ruleCatalog, refuse);
      return putRule(
        'list',
        (at) => saveList(db, { ...checked, updated_at: at }, listItems, input.id, null),
        { name: input.name, items: input.items.length },
        caller,
      );
    },

    deleteList: (id: number, caller?: Caller): { deleted: boolean } => deleteRule('list', id, caller),

    putPromotion(input: PromotionInput, caller?: Caller): PromotionView {
      refuseWhenHubOwned('promotions');
      current();
      const checked = checkPromotion(input, ruleCatalog, promotions, input.id, refuse);
      return putRule(
        'promotion',
        (at) => savePromotion(db, { ...checked, updated_at: at }, input.id, null),
        { name: input.name, from: checked.from_day, to: checked.to_day },
        caller,
      );
    },

    deletePromotion: (id: number, caller?: Caller): { deleted: boolean } => deleteRule('promotion', id, caller),

    schedule(input: ScheduleInput, caller?: Caller): ScheduledPriceView {
      refuseWhenHubOwned('scheduled_prices');
      const checked = checkSchedule(input, ruleCatalog, now(), refuse);
      const product = catalog.product(checked.code, []);
      if (!product) throw invalidInput('code', 'goods_unknown_product', { value: input.code });
      const pricePara = checked.price_para;
      const at = Date.parse(checked.at);
      const id = db.transaction(() => {
        const id = Number(
          db
            .prepare(
              `INSERT INTO scheduled_prices (product_code, price_para, at, state, created_at)
               VALUES (?, ?, ?, 'pending', ?)`,
            )
            .run(product.code, pricePara, new Date(at).toISOString(), new Date(now()).toISOString()).lastInsertRowid,
        );
        auditCall(deps, caller, 'prices.schedule', { name: product.name, pricePara, at: new Date(at).toISOString() });
        return id;
      })();
      const row = st.scheduledOne.get(id);
      if (!row) throw new Error('scheduled change not saved');
      return scheduledView(row);
    },

    cancelScheduled(id: number, caller?: Caller): ScheduledPriceView {
      refuseWhenHubOwned('scheduled_prices');
      db.transaction(() => {
        const row = st.scheduledOne.get(id);
        if (!row) throw new CommandError('not_found', 'not_found', {}, 'id');
        if (row.state !== 'pending') throw invalidInput('id', 'prices_not_pending');
        st.claim.run('cancelled', null, new Date(now()).toISOString(), id);
        auditCall(deps, caller, 'prices.scheduleCancel', {
          name: productName(row.product_code) ?? row.product_code,
          at: row.at,
        });
      })();
      const row = st.scheduledOne.get(id);
      if (!row) throw new Error('scheduled change lost');
      return scheduledView(row);
    },
  };
}
