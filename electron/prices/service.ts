/**
 * Prices of this shop (issue 42, docs/prices.md): price lists, promotions and scheduled price changes, stored here
 * (the one writer of price_lists, price_list_items, promotions and scheduled_prices) and applied by the pure engine
 * (shared/prices/engine.ts). The rules are indexed once per change, so pricing a scan reads only its product's
 * candidates. A scheduled change is a durable job: `applyDue` marks it applied and changes the catalog price
 * (which writes the нивелација) in one transaction, so it is applied once, at its moment or at the next start.
 */
import type { Db } from '../db/open.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Caller } from '../auth/context.ts';
import { CommandError, invalidInput } from '../errors.ts';
import type {
  PriceListInput,
  PriceListView,
  PricedLineView,
  PricesOverview,
  PromotionInput,
  PromotionKind,
  PromotionView,
  ScheduleInput,
  ScheduledPriceView,
} from '../../shared/contract/prices.ts';
import { toMilli, toPara, type Para } from '../../shared/money.ts';
import {
  buildPriceIndex,
  priceCart,
  shopMoment,
  windowHolds,
  type PriceIndex,
  type PriceLineInput,
  type PriceList,
  type PricedLine,
  type Promotion,
  type PromotionDeal,
  type TimeWindow,
} from '../../shared/prices/engine.ts';
import { dayStart } from '../../shared/i18n/time.ts';

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

export interface PricesDeps {
  /** Audits an action (the staff's audit log). */
  audit(actor: string | null, action: string, detail: Record<string, unknown>, approver: string | null): void;
  now?: () => number;
}

interface ListRow {
  id: number;
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

interface PromotionRow {
  id: number;
  name: string;
  priority: number;
  target_code: string | null;
  target_group: string | null;
  kind: PromotionKind;
  price_para: number | null;
  percent_bp: number | null;
  buy: number | null;
  pay: number | null;
  nth: number | null;
  min_qty_milli: number | null;
  from_day: string;
  to_day: string;
  weekdays: string | null;
  from_minute: number | null;
  to_minute: number | null;
}

interface ScheduledRow {
  id: number;
  product_code: string;
  price_para: number;
  at: string;
  state: ScheduledPriceView['state'];
  applied_at: string | null;
  old_price_para: number | null;
}

const personOf = (c: Caller | undefined): string | null => c?.approver?.name ?? c?.actor?.name ?? null;

/** `HH:MM` → minutes of the day; null stays null. */
function minutesOf(t: string | null | undefined): number | null {
  if (!t) return null;
  const [h, m] = t.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

function timeOf(minutes: number | null): string | null {
  if (minutes === null) return null;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function weekdaysOf(s: string | null): number[] {
  return s ? [...s].map(Number) : [];
}

function windowOf(r: {
  from_day: string | null;
  to_day: string | null;
  weekdays: string | null;
  from_minute: number | null;
  to_minute: number | null;
}): TimeWindow {
  return {
    fromDay: r.from_day,
    toDay: r.to_day,
    weekdays: weekdaysOf(r.weekdays),
    fromMinute: r.from_minute,
    toMinute: r.to_minute,
  };
}

/** Hundredths of a percent from a decimal percentage (12.5 → 1250). */
const bp = (percent: number): number => Math.round(percent * 100);

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

const DAY = 86_400_000;

/** The longest „акцијска продаја“ in days, both ends included (Закон о трговини, čl. 37 st. 7; docs/prices.md). */
export const PROMOTION_MAX_DAYS = 31;

/** The PIB of a `10:` buyer ID (a business buyer), else null. */
export function buyerPibOf(buyerId: string | undefined | null): string | null {
  const m = buyerId ? /^10:(\d{9})$/.exec(buyerId.trim()) : null;
  return m ? (m[1] as string) : null;
}

/** Do two day ranges (inclusive, open ends) share a day? */
function daysOverlap(aFrom: string | null, aTo: string | null, bFrom: string | null, bTo: string | null): boolean {
  return (aTo === null || bFrom === null || bFrom <= aTo) && (bTo === null || aFrom === null || aFrom <= bTo);
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
  const current = (): PriceIndex => index ?? load();

  function productName(code: string): string | null {
    return catalog.product(code, [])?.name ?? null;
  }

  function listView(l: ListRow, at: number): PriceListView {
    const m = shopMoment(at);
    return {
      id: l.id,
      name: l.name,
      priority: l.priority,
      scope: l.scope,
      buyerPib: l.buyer_pib,
      fromDay: l.from_day,
      toDay: l.to_day,
      weekdays: weekdaysOf(l.weekdays),
      fromTime: timeOf(l.from_minute),
      toTime: timeOf(l.to_minute),
      items: (items.get(l.id) ?? []).map((i) => ({ code: i.code, name: productName(i.code), pricePara: i.pricePara })),
      ruleGroup: l.rule_group,
      rulePercentBp: l.rule_percent_bp,
      inForce: windowHolds(windowOf(l), m),
    };
  }

  function promotionView(p: PromotionRow, at: number): PromotionView {
    return {
      id: p.id,
      name: p.name,
      priority: p.priority,
      code: p.target_code,
      productName: p.target_code ? productName(p.target_code) : null,
      group: p.target_group,
      kind: p.kind,
      pricePara: p.price_para,
      percentBp: p.percent_bp,
      buy: p.buy,
      pay: p.pay,
      nth: p.nth,
      minQtyMilli: p.min_qty_milli,
      fromDay: p.from_day,
      toDay: p.to_day,
      weekdays: weekdaysOf(p.weekdays),
      fromTime: timeOf(p.from_minute),
      toTime: timeOf(p.to_minute),
      inForce: windowHolds(windowOf(p), shopMoment(at)),
    };
  }

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
    };
  }

  /** The window fields of an input, checked: a window ending before it starts is refused at its end. */
  function windowRow(input: {
    fromDay?: string | null | undefined;
    toDay?: string | null | undefined;
    weekdays?: number[] | undefined;
    fromTime?: string | null | undefined;
    toTime?: string | null | undefined;
  }) {
    const fromDay = input.fromDay ?? null;
    const toDay = input.toDay ?? null;
    for (const [field, day] of [
      ['fromDay', fromDay],
      ['toDay', toDay],
    ] as const)
      if (day !== null && Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw invalidInput(field, 'date');
    if (fromDay !== null && toDay !== null && toDay < fromDay) throw invalidInput('toDay', 'date_order');
    const fromMinute = minutesOf(input.fromTime);
    const toMinute = minutesOf(input.toTime);
    if ((fromMinute === null) !== (toMinute === null))
      throw invalidInput(fromMinute === null ? 'fromTime' : 'toTime', 'prices_time_pair');
    if (fromMinute !== null && fromMinute === toMinute) throw invalidInput('toTime', 'prices_time_empty');
    const weekdays = input.weekdays && input.weekdays.length > 0 ? [...new Set(input.weekdays)].sort().join('') : null;
    return { from_day: fromDay, to_day: toDay, weekdays, from_minute: fromMinute, to_minute: toMinute };
  }

  function requireProduct(code: string, field: string): void {
    if (!catalog.product(code, [])) throw invalidInput(field, 'goods_unknown_product', { value: code });
  }

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
  ): ({ name: string; discountPara: number } | null)[] {
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
    const out: ({ name: string; discountPara: number } | null)[] = input.lines.map(() => null);
    if (cart.length === 0) return out;
    priceCart(current(), cart, { at, buyerPib: buyerPibOf(input.buyerId) }).forEach((p, k) => {
      if (p.rule && p.discountPara > 0) out[at_[k] as number] = { name: p.rule.name, discountPara: p.discountPara };
    });
    return out;
  }

  /**
   * A checkout's rules, computed once per checkout: the guard's discount limit and the sale's pricing both ask, with
   * the one parsed input object the call carries, and read the same answer (priced at the first ask).
   */
  const perCheckout = new WeakMap<object, ({ name: string; discountPara: number } | null)[]>();
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
    const sql = RULE_DELETES[kind];
    const deleted = db.transaction(() => {
      const row = db.prepare<[number], { name: string }>(sql.name).get(id);
      if (!row) return false;
      db.prepare(sql.remove).run(id);
      deps.audit(caller?.actor?.name ?? null, sql.action, { name: row.name }, personOf(caller));
      return true;
    })();
    load();
    return { deleted };
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
      const win = windowRow(input);
      const pib = input.buyerPib ?? null;
      if (input.scope === 'buyer' && pib === null) throw invalidInput('buyerPib', 'required');
      if (input.scope !== 'buyer' && pib !== null) throw invalidInput('buyerPib', 'prices_pib_scope');
      const rulePercent = input.rulePercent ?? null;
      if (input.ruleGroup && rulePercent === null) throw invalidInput('rulePercent', 'required');
      if (input.items.length === 0 && rulePercent === null) throw invalidInput('items', 'prices_list_empty');
      const seen = new Set<string>();
      input.items.forEach((it, i) => {
        requireProduct(it.code, `items.${i}.code`);
        if (seen.has(it.code)) throw invalidInput(`items.${i}.code`, 'prices_item_twice', { value: it.code });
        seen.add(it.code);
      });
      if (input.ruleGroup && !catalog.groups().some((g) => g.name === input.ruleGroup))
        throw invalidInput('ruleGroup', 'prices_unknown_group', { value: input.ruleGroup });
      const at = new Date(now()).toISOString();
      const row = {
        name: input.name,
        priority: input.priority,
        scope: input.scope,
        buyer_pib: pib,
        ...win,
        rule_group: rulePercent === null ? null : (input.ruleGroup ?? null),
        rule_percent_bp: rulePercent === null ? null : bp(rulePercent),
        updated_at: at,
      };
      const id = db.transaction(() => {
        let id: number;
        if (input.id !== undefined) {
          const changed = db
            .prepare(
              `UPDATE price_lists SET name = @name, priority = @priority, scope = @scope, buyer_pib = @buyer_pib,
                 from_day = @from_day, to_day = @to_day, weekdays = @weekdays, from_minute = @from_minute,
                 to_minute = @to_minute, rule_group = @rule_group, rule_percent_bp = @rule_percent_bp,
                 updated_at = @updated_at WHERE id = @id`,
            )
            .run({ ...row, id: input.id }).changes;
          if (changed === 0) throw new CommandError('not_found', 'not_found', {}, 'id');
          id = input.id;
          db.prepare('DELETE FROM price_list_items WHERE list_id = ?').run(id);
        } else {
          id = Number(
            db
              .prepare(
                `INSERT INTO price_lists (name, priority, scope, buyer_pib, from_day, to_day, weekdays, from_minute,
                   to_minute, rule_group, rule_percent_bp, updated_at) VALUES (@name, @priority, @scope, @buyer_pib,
                   @from_day, @to_day, @weekdays, @from_minute, @to_minute, @rule_group, @rule_percent_bp, @updated_at)`,
              )
              .run(row).lastInsertRowid,
          );
        }
        const insert = db.prepare<[number, string, number]>(
          'INSERT INTO price_list_items (list_id, product_code, price_para) VALUES (?, ?, ?)',
        );
        for (const it of input.items) insert.run(id, it.code, toPara(it.price) ?? 0);
        deps.audit(
          caller?.actor?.name ?? null,
          'prices.listPut',
          { name: input.name, items: input.items.length },
          personOf(caller),
        );
        return id;
      })();
      load();
      const saved = lists.find((l) => l.id === id);
      if (!saved) throw new Error('price list not saved');
      return listView(saved, now());
    },

    deleteList: (id: number, caller?: Caller): { deleted: boolean } => deleteRule('list', id, caller),

    putPromotion(input: PromotionInput, caller?: Caller): PromotionView {
      const win = windowRow(input);
      const code = input.code ?? null;
      const group = input.group ?? null;
      if ((code === null) === (group === null)) throw invalidInput('code', 'prices_target');
      if (code !== null) requireProduct(code, 'code');
      if (group !== null && !catalog.groups().some((g) => g.name === group))
        throw invalidInput('group', 'prices_unknown_group', { value: group });
      const need = (field: 'price' | 'percent' | 'buy' | 'pay' | 'nth'): number => {
        const v = input[field];
        if (v === null || v === undefined) throw invalidInput(field, 'required');
        return v;
      };
      let figures: Pick<PromotionRow, 'price_para' | 'percent_bp' | 'buy' | 'pay' | 'nth'> = {
        price_para: null,
        percent_bp: null,
        buy: null,
        pay: null,
        nth: null,
      };
      if (input.kind === 'price') figures = { ...figures, price_para: toPara(need('price')) ?? 0 };
      if (input.kind === 'percent') figures = { ...figures, percent_bp: bp(need('percent')) };
      if (input.kind === 'multibuy') {
        figures = { ...figures, buy: need('buy'), pay: need('pay') };
        if ((figures.pay ?? 0) >= (figures.buy ?? 0)) throw invalidInput('pay', 'prices_pay_buy');
      }
      if (input.kind === 'nth') figures = { ...figures, nth: need('nth'), percent_bp: bp(need('percent')) };
      // An „акцијска продаја“ (goods sold below their previous price) lasts at most 31 days (Закон о трговини,
      // čl. 37; docs/prices.md). A multi-buy sells more for the same price, another kind of discount: not bounded.
      if (input.kind !== 'multibuy' && win.from_day !== null && win.to_day !== null) {
        const days =
          Math.round((Date.parse(`${win.to_day}T00:00:00Z`) - Date.parse(`${win.from_day}T00:00:00Z`)) / DAY) + 1;
        if (days > PROMOTION_MAX_DAYS) throw invalidInput('toDay', 'prices_promotion_31_days', { days });
      }
      if (input.kind === 'price' && code !== null) {
        const regular = catalog.product(code, [])?.pricePara ?? 0;
        if ((figures.price_para ?? 0) >= regular) throw invalidInput('price', 'prices_not_lower');
      }
      // Two promotions on the same product (or group) with the same priority in overlapping periods: the till
      // could not say which one the shelf shows. Refused at the priority.
      current();
      const clash = promotions.find(
        (p) =>
          p.id !== input.id &&
          p.priority === input.priority &&
          p.target_code === code &&
          p.target_group === group &&
          daysOverlap(p.from_day, p.to_day, win.from_day, win.to_day),
      );
      if (clash) throw invalidInput('priority', 'prices_promotion_overlap', { other: clash.name });
      const minQty = input.minQuantity ? (toMilli(input.minQuantity) ?? null) : null;
      const at = new Date(now()).toISOString();
      const row = {
        name: input.name,
        priority: input.priority,
        target_code: code,
        target_group: group,
        kind: input.kind,
        ...figures,
        min_qty_milli: minQty,
        ...win,
        updated_at: at,
      };
      const id = db.transaction(() => {
        let id: number;
        if (input.id !== undefined) {
          const changed = db
            .prepare(
              `UPDATE promotions SET name = @name, priority = @priority, target_code = @target_code,
                 target_group = @target_group, kind = @kind, price_para = @price_para, percent_bp = @percent_bp,
                 buy = @buy, pay = @pay, nth = @nth, min_qty_milli = @min_qty_milli, from_day = @from_day,
                 to_day = @to_day, weekdays = @weekdays, from_minute = @from_minute, to_minute = @to_minute,
                 updated_at = @updated_at WHERE id = @id`,
            )
            .run({ ...row, id: input.id }).changes;
          if (changed === 0) throw new CommandError('not_found', 'not_found', {}, 'id');
          id = input.id;
        } else {
          id = Number(
            db
              .prepare(
                `INSERT INTO promotions (name, priority, target_code, target_group, kind, price_para, percent_bp, buy,
                   pay, nth, min_qty_milli, from_day, to_day, weekdays, from_minute, to_minute, updated_at)
                 VALUES (@name, @priority, @target_code, @target_group, @kind, @price_para, @percent_bp, @buy, @pay,
                   @nth, @min_qty_milli, @from_day, @to_day, @weekdays, @from_minute, @to_minute, @updated_at)`,
              )
              .run(row).lastInsertRowid,
          );
        }
        deps.audit(
          caller?.actor?.name ?? null,
          'prices.promotionPut',
          { name: input.name, from: win.from_day, to: win.to_day },
          personOf(caller),
        );
        return id;
      })();
      load();
      const saved = promotions.find((p) => p.id === id);
      if (!saved) throw new Error('promotion not saved');
      return promotionView(saved, now());
    },

    deletePromotion: (id: number, caller?: Caller): { deleted: boolean } => deleteRule('promotion', id, caller),

    schedule(input: ScheduleInput, caller?: Caller): ScheduledPriceView {
      const product = catalog.product(input.code, []);
      if (!product) throw invalidInput('code', 'goods_unknown_product', { value: input.code });
      const at = Date.parse(input.at);
      if (at <= now()) throw invalidInput('at', 'prices_at_past');
      const pricePara = toPara(input.price) ?? 0;
      if (pricePara === product.pricePara) throw invalidInput('price', 'prices_same_price');
      const id = db.transaction(() => {
        const id = Number(
          db
            .prepare(
              `INSERT INTO scheduled_prices (product_code, price_para, at, state, created_at)
               VALUES (?, ?, ?, 'pending', ?)`,
            )
            .run(product.code, pricePara, new Date(at).toISOString(), new Date(now()).toISOString()).lastInsertRowid,
        );
        deps.audit(
          caller?.actor?.name ?? null,
          'prices.schedule',
          { name: product.name, pricePara, at: new Date(at).toISOString() },
          personOf(caller),
        );
        return id;
      })();
      const row = st.scheduledOne.get(id);
      if (!row) throw new Error('scheduled change not saved');
      return scheduledView(row);
    },

    cancelScheduled(id: number, caller?: Caller): ScheduledPriceView {
      db.transaction(() => {
        const row = st.scheduledOne.get(id);
        if (!row) throw new CommandError('not_found', 'not_found', {}, 'id');
        if (row.state !== 'pending') throw invalidInput('id', 'prices_not_pending');
        st.claim.run('cancelled', null, new Date(now()).toISOString(), id);
        deps.audit(
          caller?.actor?.name ?? null,
          'prices.scheduleCancel',
          { name: productName(row.product_code) ?? row.product_code, at: row.at },
          personOf(caller),
        );
      })();
      const row = st.scheduledOne.get(id);
      if (!row) throw new Error('scheduled change lost');
      return scheduledView(row);
    },
  };
}
