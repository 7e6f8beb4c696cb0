/**
 * The goods of the bookkeeper's export at the hub (docs/exports.md, "At the hub"), over random histories of the hub's
 * book of a shop (fast-check) on PGlite and PostgreSQL, over real HTTP: goods receipts at random purchase prices and
 * discounts, their reversals, price changes, write-offs, stock-takings and the tills' pushed sales and refunds, over
 * several days, the export's period starting on a random day among them. The test keeps its own weighted average
 * purchase price per product (docs/exports.md, "The purchase value") from the net prices it posted. Then:
 * - every journal entry balances, debit = credit;
 * - each goods account equals Σ the period's movements × their purchase price to the para: the cost of goods sold
 *   (sales and refunds), the write-offs, the shortages and the surpluses; the suppliers' the receipts' purchase value;
 * - goods in retail (1340) moves by the KEP's closing − opening; the export's KEP is the hub's KEP book, its stock
 *   value the stock report's, its receipts and price changes the hub's goods documents of the period.
 * And the shop's account map at the hub: an account with a letter refused at its field with nothing saved, a map
 * saved (audited) and used by the journal and the Minimax file, another shop keeping its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthedTill } from '../../hub/service.ts';
import type { AccountsView, ExportView, Posting } from '../../shared/contract/exports.ts';
import type { HubGoodsDoc } from '../../shared/hub/goods-protocol.ts';
import type { OrderSnapshot } from '../../shared/hub/protocol.ts';
import { DEFAULT_ACCOUNTS } from '../../shared/exports/accounts.ts';
import { netPurchase, valueAt } from '../../shared/goods/calc.ts';
import { BACKENDS } from './backends.ts';
import { enrolTills, serveHub } from './served-hub.ts';
import { orderEvent, saleSnapshot } from './snapshots.ts';

const ADMIN = 'kasa-test-admin-token-hub-exports-goods-0123';
const DAY0 = Date.UTC(2026, 10, 2, 9, 0, 0);
const DAY_MS = 86_400_000;
const CODES = ['G1', 'G2'] as const;

const step = fc.record({
  t: fc.constantFrom('receipt', 'receipt', 'reversal', 'price', 'sale', 'sale', 'refund', 'writeoff', 'count', 'close'),
  product: fc.integer({ min: 0, max: CODES.length - 1 }),
  qty: fc.integer({ min: 1, max: 9_000 }),
  price: fc.integer({ min: 100, max: 60_000 }),
  discountBp: fc.constantFrom(0, 0, 250, 1_000),
  pick: fc.nat(),
  nextDay: fc.boolean(),
});
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

/** Σ debit − credit of the journal on one account (+ 0: never −0). */
const balanceOn = (journal: readonly Posting[], account: string): number =>
  journal.filter((p) => p.account === account).reduce((s, p) => s + p.debitPara - p.creditPara, 0) + 0;

describe.each(BACKENDS)('the hub export’s goods on $name', (backend) => {
  let clock = DAY0;
  let shopId = 0;
  let otherShop = 0;
  let till: AuthedTill;
  let seq = 0;
  let n = 0;
  const hub = serveHub(backend, {
    adminToken: ADMIN,
    service: { now: () => new Date(clock) },
    seed: async (service) => {
      shopId = await service.ensureDefaultShop();
      otherShop = await service.createShop('Друга продавница');
      [till] = await enrolTills(service, shopId, ['GX1']);
      await service.upsertProducts(
        shopId,
        CODES.map((code, i) => ({
          code,
          name: `Артикал ${code}`,
          pricePara: [24_990, 1_333][i] ?? 100,
          label: 'A',
          unit: 'piece',
        })),
      );
    },
  });
  const day = (): string => new Date(clock).toISOString().slice(0, 10);

  /** The net purchase price of each receipt's and reversal's line, by its movements' source and line: as posted. */
  const nets = new Map<string, number>();
  const posted: { docId: number; code: string; qty: number; net: number; reversed: boolean }[] = [];
  const days: string[] = [];

  async function apply(s: Step): Promise<void> {
    const service = hub.service;
    const code = CODES[s.product] as string;
    n++;
    if (s.t === 'receipt') {
      const doc: HubGoodsDoc = await service.postReceipt(
        shopId,
        {
          supplier: 'Добављач д.о.о.',
          pib: '101134702',
          invoiceNumber: `F-${n}`,
          invoiceDate: day(),
          confirmBelowPurchase: true,
          lines: [{ code, qtyMilli: s.qty, purchasePara: s.price, discountBp: s.discountBp }],
        },
        'Менаџер',
      );
      const net = netPurchase(s.price, s.discountBp);
      nets.set(`receipt:${doc.id}:0`, net);
      posted.push({ docId: doc.id, code, qty: s.qty, net, reversed: false });
    } else if (s.t === 'reversal') {
      const open = posted.filter((p) => !p.reversed);
      const r = open[s.pick % Math.max(1, open.length)];
      if (!r) return;
      const id = (await hub.db.query<{ id: number }>('SELECT id FROM hub_receipts WHERE doc_id = $1', [r.docId]))[0]
        ?.id as number;
      const doc = await service.reverseReceipt(shopId, id, 'Менаџер');
      r.reversed = true;
      nets.set(`reversal:${doc.id}:0`, r.net);
    } else if (s.t === 'close') {
      // The day closer's round: the book costed so far is kept, the export goes on from there (hub/export-sums.ts).
      await service.closeDays(clock);
    } else if (s.t === 'price') {
      await service.changePrice(shopId, code, s.price, 'Менаџер');
    } else if (s.t === 'writeoff') {
      await service.writeOff(shopId, { code, qtyMilli: s.qty, reason: 'Лом' }, 'Менаџер');
    } else if (s.t === 'count') {
      const count = await service.countStart(shopId, [], 'Менаџер');
      await service.countEnter(shopId, { countId: count.id, lines: [{ code, qtyMilli: s.qty }] }, 'Менаџер');
      await service.countPost(shopId, count.id, 'Менаџер');
    } else {
      const p =
        (
          await hub.db.query<{ price_para: number }>(
            'SELECT price_para FROM products WHERE shop_id = $1 AND code = $2',
            [shopId, code],
          )
        )[0]?.price_para ?? 0;
      const total = valueAt(s.qty, Number(p));
      const base = saleSnapshot(`GX-${n}`, `INV-GX-${n}`, {
        at: clock,
        quantityMilli: s.qty,
        totalPara: total,
        label: 'A',
        // The VAT within the gross at 20 %, in dinars as the gateway answers.
        taxAmount: Math.round(total / 6) / 100,
      });
      const line = base.data.lines[0] as OrderSnapshot['data']['lines'][number];
      const o: OrderSnapshot = {
        ...base,
        kind: s.t === 'refund' ? 'refund' : 'sale',
        transaction_type: s.t === 'refund' ? 'refund' : 'sale',
        data: { ...base.data, lines: [{ ...line, unitPricePara: Number(p), code }] },
        receipt: base.receipt && { ...base.receipt, transactionType: s.t === 'refund' ? 'refund' : 'sale' },
      };
      await service.push(till, { tillId: till.id, events: [orderEvent(++seq, o)] });
    }
  }

  /** The purchase price each movement of the book went at, by the test's own weighted average (in the book's order). */
  async function expectedPrices(): Promise<{ kind: string; day: string; qty: number; value: number; unit: number }[]> {
    const rows = await hub.db.query<{
      code: string;
      kind: string;
      day: string;
      source: string;
      line: number;
      q: number;
      v: number;
    }>(
      `SELECT code, kind, day, source, line, qty_milli AS q, value_para AS v FROM hub_stock_movements
        WHERE shop_id = $1 ORDER BY id`,
      [shopId],
    );
    const held = new Map<string, { qty: number; avg: number | undefined }>();
    // Goods sold before their first receipt go at the product's last purchase price (docs/exports.md).
    const last = (code: string): number => posted.filter((p) => p.code === code).at(-1)?.net ?? 0;
    return rows.map((r) => {
      const h = held.get(r.code) ?? { qty: 0, avg: undefined };
      held.set(r.code, h);
      const q = Number(r.q);
      const line = nets.get(`${r.source}:${r.line}`);
      let unit: number;
      if (line !== undefined && q > 0) {
        unit = line;
        h.avg = h.qty <= 0 || h.avg === undefined ? line : Math.round((h.qty * h.avg + q * line) / (h.qty + q));
      } else if (line !== undefined) {
        unit = line;
        const left = h.qty + q;
        if (left > 0 && h.avg !== undefined) h.avg = Math.max(0, Math.round((h.qty * h.avg + q * line) / left));
      } else unit = h.avg ?? last(r.code);
      h.qty += q;
      return { kind: r.kind, day: r.day, qty: q, value: Number(r.v), unit };
    });
  }

  async function check(from: string, to: string): Promise<void> {
    const q = `/api/admin/exports?shopId=${shopId}&from=${from}&to=${to}`;
    const r = await hub.admin('GET', q);
    expect(r.status).toBe(200);
    const view = (await r.json()) as ExportView;
    const journal = view.journal;
    const entries = new Map<number, number>();
    for (const p of journal) entries.set(p.entry, (entries.get(p.entry) ?? 0) + p.debitPara - p.creditPara);
    for (const [entry, b] of entries) expect(b, JSON.stringify(journal.filter((p) => p.entry === entry))).toBe(0);

    const moves = (await expectedPrices()).filter((m) => m.day >= from && m.day <= to);
    const out = (kinds: string[], sign?: 1 | -1): number =>
      moves
        .filter((m) => kinds.includes(m.kind) && (sign === undefined || Math.sign(m.qty) === sign))
        .reduce((s, m) => s - valueAt(m.qty, m.unit), 0) + 0;
    const a = DEFAULT_ACCOUNTS;
    expect(balanceOn(journal, a.costOfGoods)).toBe(out(['sale', 'refund']));
    expect(balanceOn(journal, a.writeOffs)).toBe(out(['writeoff']));
    expect(balanceOn(journal, a.shortages)).toBe(out(['count'], -1));
    expect(balanceOn(journal, a.surpluses)).toBe(out(['count'], 1));
    // The suppliers are credited with the receipts' purchase value, a reversal's debited back.
    expect(balanceOn(journal, a.suppliers)).toBe(out(['receipt', 'reversal']));
    expect(-balanceOn(journal, a.suppliers) + 0).toBe(view.goodsReceipts.reduce((s, g) => s + g.purchasePara, 0));

    // Goods in retail moves as the KEP does; the export's KEP is the hub's book, its stock value the stock report's.
    const kep = await hub.service.kep(shopId, from, to, 'sr-Cyrl');
    expect(view.kep.openingPara).toBe(kep.openingPara);
    expect(view.kep.closingPara).toBe(kep.closingPara);
    expect(view.kep.entries).toEqual(kep.entries);
    expect(balanceOn(journal, a.goodsRetail)).toBe(kep.closingPara - kep.openingPara);
    const stock = await hub.service.stock(shopId);
    if (to === day()) expect(view.stockValuePara).toBe(stock.byShop[0]?.retailValuePara);
    // Its receipts and price changes are the hub's goods documents of the period, value for value.
    const docs = await hub.service.goodsDocs(shopId, from, to);
    const of = (kinds: string[]) => docs.filter((d) => kinds.includes(d.kind));
    expect(view.goodsReceipts.map((g) => g.number).sort()).toEqual(
      of(['receipt', 'reversal'])
        .map((d) => d.number)
        .sort(),
    );
    expect(view.goodsReceipts.reduce((s, g) => s + g.retailPara, 0)).toBe(
      of(['receipt', 'reversal']).reduce((s, d) => s + d.valuePara, 0),
    );
    expect(view.priceChanges.map((p) => p.diffPara).sort()).toEqual(
      of(['price_change'])
        .map((d) => d.valuePara)
        .sort(),
    );
    for (const g of view.goodsReceipts) expect(g.retailPara - g.vatPara - g.marginPara).toBe(g.purchasePara);
  }

  it('balances, posts Σ movements × their purchase price and equals the hub’s goods reports, over random histories', async () => {
    days.push(day());
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 10 }), fc.nat(), async (steps, start) => {
        for (const s of steps) {
          if (s.nextDay) {
            clock += DAY_MS;
            days.push(day());
          }
          await apply(s);
        }
        const from = days[start % days.length] as string;
        await check(from, day());
      }),
      { numRuns: backend.name === 'pglite' ? 15 : 8 },
    );
    // The day closer over the whole history, then the export checked again: whatever the random steps were (a run
    // of them with no closer round after its goods out kept nothing), the export went on from kept costs once.
    clock += 2 * DAY_MS;
    days.push(day());
    await hub.service.closeDays(clock);
    await check(days[0] as string, day());
    // The goods section was not empty: receipts and goods out were posted.
    const all = (await (
      await hub.admin('GET', `/api/admin/exports?shopId=${shopId}&from=${days[0]}&to=${day()}`)
    ).json()) as ExportView;
    expect(all.goodsReceipts.length).toBeGreaterThan(0);
    // The closer's rounds kept costed goods out, which the exports went on from.
    expect(await hub.db.query('SELECT 1 FROM hub_export_goods_out WHERE shop_id = $1', [shopId])).not.toHaveLength(0);
    expect(all.journal.some((p) => p.account === DEFAULT_ACCOUNTS.costOfGoods)).toBe(true);
    // The goods file: the receipts and price changes in the till's layout, the stock value last.
    const csv = await (
      await hub.admin('GET', `/api/admin/exports?shopId=${shopId}&from=${days[0]}&to=${day()}&file=goods`)
    ).text();
    const rows = csv
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toMatch(/^"Датум";"Документ"/);
    expect(rows.length).toBe(all.goodsReceipts.length + all.priceChanges.length + 2);
  }, 120_000);

  it('sums again a kept day that a late push reached (a till that was offline): the export equals its orders', async () => {
    const service = hub.service;
    clock += DAY_MS;
    const d = day();
    const q = `/api/admin/exports?shopId=${shopId}&from=${d}&to=${d}`;
    const view = async (): Promise<ExportView> => (await (await hub.admin('GET', q)).json()) as ExportView;
    const sell = async (at: number, totalPara: number, type: 'cash' | 'card'): Promise<void> => {
      n++;
      const o = saleSnapshot(`GX-${n}`, `INV-GX-${n}`, {
        at,
        quantityMilli: 1_000,
        totalPara,
        label: 'A',
        taxAmount: Math.round(totalPara / 6) / 100,
      });
      const data = { ...o.data, payments: [{ type, amountPara: totalPara }] };
      await service.push(till, { tillId: till.id, events: [orderEvent(++seq, { ...o, data })] });
    };
    /** The day's export as read from its orders alone: nothing kept. */
    const fromOrders = async (): Promise<ExportView> => {
      const kept = await hub.db.query<{ at: string }>('SELECT at FROM hub_export_days_closed WHERE day = $1::date', [
        d,
      ]);
      await hub.db.query('DELETE FROM hub_export_days_closed WHERE day = $1::date', [d]);
      const v = await view();
      if (kept[0])
        await hub.db.query('INSERT INTO hub_export_days_closed (day, at) VALUES ($1::date, $2)', [d, kept[0].at]);
      return v;
    };
    await sell(clock, 12_000, 'cash');
    await sell(clock + 60_000, 2_500, 'card');
    // Two days on, the day closer keeps the day's sums.
    clock += 2 * DAY_MS;
    await service.closeDays(clock);
    const keptRows = async () =>
      hub.db.query<{ body: string }>('SELECT body FROM hub_export_days WHERE shop_id = $1 AND day = $2::date', [
        shopId,
        d,
      ]);
    expect(await keptRows()).toHaveLength(1);
    expect((await view()).total.grossPara).toBe(14_500);
    // The offline till comes back: its sale of that day is pushed now, into the kept day.
    await sell(Date.parse(`${d}T15:00:00.000Z`), 3_456, 'card');
    const late = await view();
    expect(late.total.grossPara).toBe(14_500 + 3_456);
    expect(late.total.byPayment.find((p) => p.type === 'card')?.netPara).toBe(2_500 + 3_456);
    expect(late).toEqual(await fromOrders());
    // The closer's next round sums the day again and drops the mark: the kept day is the orders' again.
    await service.closeDays(clock);
    expect(await hub.db.query('SELECT 1 FROM hub_days_dirty WHERE day = $1::date', [d])).toHaveLength(0);
    const resummed = await view();
    expect(resummed).toEqual(late);
    expect(resummed).toEqual(await fromOrders());
  });

  it('costs the whole book again once a product’s tax label changed after its costs were kept', async () => {
    const service = hub.service;
    const q = `/api/admin/exports?shopId=${shopId}&from=${days[0]}&to=${day()}`;
    const view = async (): Promise<ExportView> => (await (await hub.admin('GET', q)).json()) as ExportView;
    /** The export with no kept costs: the whole book costed by the export itself. */
    const wholeBook = async (): Promise<ExportView> => {
      const [head] = await hub.db.query<{ last_id: string; n: string }>(
        'SELECT last_id, n FROM hub_export_costs WHERE shop_id = $1',
        [shopId],
      );
      await hub.db.query('DELETE FROM hub_export_costs WHERE shop_id = $1', [shopId]);
      const v = await view();
      if (head)
        await hub.db.query('INSERT INTO hub_export_costs (shop_id, last_id, n) VALUES ($1, $2, $3)', [
          shopId,
          head.last_id,
          head.n,
        ]);
      return v;
    };
    await service.closeDays(clock);
    expect(await view()).toEqual(await wholeBook());
    // G1 moves to a label of another rate: the VAT within its goods out, kept under the old label, changes.
    const [g1] = await hub.db.query<{ price_para: string }>(
      `SELECT price_para FROM products WHERE shop_id = $1 AND code = 'G1'`,
      [shopId],
    );
    await service.upsertProducts(shopId, [
      { code: 'G1', name: 'Артикал G1', pricePara: Number(g1?.price_para), label: 'B', unit: 'piece' },
    ]);
    const changed = await view();
    expect(changed).toEqual(await wholeBook());
    await service.closeDays(clock);
    expect(await view()).toEqual(changed);
  });

  it('keeps the shop’s account map: refused at its field, saved, audited, used by the journal', async () => {
    const path = `/api/admin/exports/accounts`;
    const bad = await hub.call(ADMIN, 'PUT', path, { shopId, accounts: { cash: '24a', costOfGoods: '5011' } });
    expect(bad.status).toBe(400);
    expect(bad.body['field']).toBe('accounts.cash');
    expect(
      ((await hub.call(ADMIN, 'GET', `${path}?shopId=${shopId}`)).body as unknown as AccountsView).accounts,
    ).toEqual(DEFAULT_ACCOUNTS);
    const saved = await hub.call(ADMIN, 'PUT', path, { shopId, accounts: { costOfGoods: '5011', cash: '2431' } });
    expect(saved.status).toBe(200);
    expect((saved.body as unknown as AccountsView).accounts).toEqual({
      ...DEFAULT_ACCOUNTS,
      costOfGoods: '5011',
      cash: '2431',
    });
    // The other shop keeps the defaults.
    const other = await hub.call(ADMIN, 'GET', `${path}?shopId=${otherShop}`);
    expect((other.body as unknown as AccountsView).accounts).toEqual(DEFAULT_ACCOUNTS);
    const audit = await hub.call(ADMIN, 'GET', `/api/admin/audit?shopId=${shopId}`);
    const entries = audit.body['entries'] as { action: string; detail: Record<string, unknown> }[];
    expect(entries.find((e) => e.action === 'export_accounts')?.detail).toEqual({
      accounts: 'cash 2431, costOfGoods 5011',
    });
    const q = `/api/admin/exports?shopId=${shopId}&from=${days[0]}&to=${day()}`;
    const view = (await (await hub.admin('GET', q)).json()) as ExportView;
    expect(view.journal.some((p) => p.account === '5011')).toBe(true);
    expect(view.journal.some((p) => p.account === DEFAULT_ACCOUNTS.costOfGoods)).toBe(false);
    expect(await (await hub.admin('GET', `${q}&file=minimax`)).text()).toContain(';5011;');
  });
});
