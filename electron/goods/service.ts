/**
 * Goods (docs/goods.md): suppliers, goods receipts with their retail price calculation, write-offs, the stock
 * list, the price change records and the KEP book. It writes suppliers, goods_receipts, goods_receipt_lines and
 * write_offs; stock and its movements go through the ledger (ledger.ts), products through the catalog service.
 * A document that moves goods is posted in ONE transaction: numbered, its goods moved, audited.
 */
import type { Db } from '../db/open.ts';
import type { CatalogService } from '../catalog/service.ts';
import { auditCall, personOf, type AuditDeps, type Caller } from '../auth/context.ts';
import { CommandError, invalidInput } from '../errors.ts';
import type {
  KepView,
  PriceChangeView,
  ReceiptInput,
  ReceiptLineView,
  ReceiptSummary,
  ReceiptView,
  StockItemView,
  StockView,
  SupplierInput,
  SupplierView,
  WriteOffView,
} from '../../shared/contract/goods.ts';
import type { Language } from '../../shared/domain.ts';
import { toMilli, toPara } from '../../shared/money.ts';
import { marginOf, netPurchase, retailFromMargin, valueAt, vatIn } from '../../shared/goods/calc.ts';
import { kepCsv, kepWords } from '../../shared/i18n/goods.ts';
import { kepBook, turnoverEntries, type KepRaw } from '../../shared/goods/kep.ts';
import { dayStart } from '../../shared/i18n/time.ts';
import { CountCsvRefusal } from '../../shared/goods/stocktake-rules.ts';
import { parseReceiptCsv, type ReceiptCsvLine } from '../../shared/goods/receipt-csv.ts';
import { bookDay, docMove, move, nextNumber, stockOf } from './ledger.ts';

export interface GoodsDeps extends AuditDeps {
  /** The rate (percent) of a tax label in the gateway's rates in force, undefined when it is not among them. */
  rateOf(label: string): number | undefined;
  labels(): string[];
  language(): Language;
  /** True when a store hub owns the catalog: products and prices are made there, not by a receipt here. */
  hubOwnsCatalog?(): boolean;
  now?(): Date;
}

/** A row of `suppliers`: its columns read here are the view's fields, one to one. */
type SupplierRow = SupplierView;

interface ReceiptRow {
  id: number;
  kind: 'receipt' | 'reversal';
  state: 'draft' | 'posted' | 'reversed';
  number: number | null;
  year: number | null;
  supplier_id: number;
  invoice_number: string;
  invoice_date: string;
  reverses: number | null;
  created_at: string;
  posted_at: string | null;
  posted_by: string | null;
  purchase_para: number;
  retail_para: number;
}

interface LineRow {
  receipt_id: number;
  line: number;
  product_code: string;
  name: string;
  label: string;
  unit: string | null;
  grp: string | null;
  barcode: string | null;
  qty_milli: number;
  purchase_para: number;
  discount_bp: number;
  margin_bp: number;
  retail_para: number;
}

const bp = (percent: number | undefined): number => Math.round((percent ?? 0) * 100);
const docNumber = (n: number | null, year: number | null): string | null => (n && year ? `${n}/${year}` : null);

export type GoodsService = ReturnType<typeof createGoodsService>;

/** The columns of a numbered one-product goods document (write_offs, price_changes). */
interface NumberedRow {
  id: number;
  number: number;
  year: number;
  at: string;
  product_code: string;
  name: string;
  qty_milli: number;
}

export function createGoodsService(db: Db, catalog: CatalogService, deps: GoodsDeps) {
  const now = (): Date => deps.now?.() ?? new Date();
  const st = {
    supplier: db.prepare<[number], SupplierRow>('SELECT * FROM suppliers WHERE id = ?'),
    supplierByPib: db.prepare<[string], SupplierRow>('SELECT * FROM suppliers WHERE pib = ?'),
    suppliers: db.prepare<[], SupplierRow>('SELECT * FROM suppliers ORDER BY name COLLATE NOCASE, id'),
    receipt: db.prepare<[number], ReceiptRow>('SELECT * FROM goods_receipts WHERE id = ?'),
    lines: db.prepare<[number], LineRow>('SELECT * FROM goods_receipt_lines WHERE receipt_id = ? ORDER BY line'),
    invoiceTaken: db.prepare<[number, string, number], { id: number }>(
      `SELECT id FROM goods_receipts WHERE supplier_id = ? AND invoice_number = ? AND kind = 'receipt'
         AND state = 'posted' AND id != ?`,
    ),
    insertLine: db.prepare(
      `INSERT INTO goods_receipt_lines (receipt_id, line, product_code, name, label, unit, grp, barcode, qty_milli,
         purchase_para, discount_bp, margin_bp, retail_para)
       VALUES (@receipt, @line, @code, @name, @label, @unit, @grp, @barcode, @qty, @purchase, @discount, @margin,
         @retail)`,
    ),
    productCode: db.prepare<[string], { code: string; name: string; label: string; unit: string; grp: string | null }>(
      'SELECT code, name, label, unit, grp FROM products WHERE code = ?',
    ),
  };

  function byBarcode(code: string): ReturnType<typeof st.productCode.get> {
    if (!/^\d{8,14}$/.test(code)) return undefined;
    const owner = catalog.barcodeOwner(code);
    return owner ? st.productCode.get(owner.code) : undefined;
  }

  function supplierView(r: SupplierRow): SupplierView {
    return { id: r.id, name: r.name, pib: r.pib, address: r.address, account: r.account, contact: r.contact };
  }

  function lineView(l: LineRow): ReceiptLineView {
    const rate = deps.rateOf(l.label) ?? null;
    const net = netPurchase(l.purchase_para, l.discount_bp);
    return {
      line: l.line,
      code: l.product_code,
      name: l.name,
      label: l.label,
      ratePercent: rate,
      quantityMilli: l.qty_milli,
      purchasePara: l.purchase_para,
      discountBp: l.discount_bp,
      netPara: net,
      marginBp: l.margin_bp,
      retailPara: l.retail_para,
      vatPara: rate === null ? 0 : vatIn(l.retail_para, rate),
      purchaseValuePara: valueAt(l.qty_milli, net),
      retailValuePara: valueAt(l.qty_milli, l.retail_para),
      newProduct: l.unit !== null && !st.productCode.get(l.product_code),
      unit: l.unit as ReceiptLineView['unit'],
      group: l.grp,
      barcode: l.barcode,
    };
  }

  function summary(r: ReceiptRow, lineCount: number): ReceiptSummary {
    const supplier = st.supplier.get(r.supplier_id);
    if (!supplier) throw new Error(`receipt ${r.id}: no supplier`);
    return {
      id: r.id,
      kind: r.kind,
      state: r.state,
      number: docNumber(r.number, r.year),
      supplier: supplierView(supplier),
      invoiceNumber: r.invoice_number,
      invoiceDate: r.invoice_date,
      createdAt: r.created_at,
      postedAt: r.posted_at,
      postedBy: r.posted_by,
      reverses: r.reverses,
      purchasePara: r.purchase_para,
      retailPara: r.retail_para,
      lineCount,
    };
  }

  function receiptView(id: number): ReceiptView {
    const r = st.receipt.get(id);
    if (!r) throw new CommandError('not_found', 'goods_receipt_not_found', { id });
    const lines = st.lines.all(id).map(lineView);
    const { lineCount: _n, ...rest } = summary(r, lines.length);
    return { ...rest, lines };
  }

  /**
   * The days not entered in the KEP by the next day (Pravilnik o evidenciji prometa: every change by the next day),
   * newest first, at most a month of them: a day before yesterday with a goods receipt still a draft (its invoice
   * date) or a sale still unsigned (its Belgrade day).
   */
  function lateDays(yesterday: string): { day: string; draftReceipts: number; unsignedSales: number }[] {
    const days = new Map<string, { day: string; draftReceipts: number; unsignedSales: number }>();
    const at = (day: string) => {
      let d = days.get(day);
      if (!d) days.set(day, (d = { day, draftReceipts: 0, unsignedSales: 0 }));
      return d;
    };
    for (const r of db
      .prepare<[string], { day: string; n: number }>(
        `SELECT invoice_date AS day, count(*) AS n FROM goods_receipts WHERE state = 'draft' AND invoice_date < ?
          GROUP BY invoice_date`,
      )
      .all(yesterday))
      at(r.day).draftReceipts += r.n;
    for (const r of db
      .prepare<[string], { created_at: string }>(
        `SELECT created_at FROM orders WHERE state != 'fiscalized' AND invoice_type = 'normal' AND created_at < ?`,
      )
      .all(new Date(dayStart(yesterday)).toISOString()))
      at(bookDay(r.created_at)).unsignedSales++;
    return [...days.values()].sort((a, b) => (a.day < b.day ? 1 : -1)).slice(0, 31);
  }

  /** Checks and calculates a draft's lines; throws at the first bad field (nothing saved). */
  function calculate(input: ReceiptInput): Omit<LineRow, 'receipt_id'>[] {
    const labels = deps.labels();
    if (labels.length === 0) throw invalidInput('lines', 'tax_rates_missing');
    return input.lines.map((l, i) => {
      const at = (f: string): string => `lines.${i}.${f}`;
      // A scanned line names the product by one of its barcodes.
      const product = st.productCode.get(l.code) ?? byBarcode(l.code);
      let label: string;
      let name: string;
      if (product) {
        label = product.label;
        name = product.name;
        if (deps.rateOf(label) === undefined)
          throw invalidInput(at('code'), 'goods_product_label', { value: label, labels: labels.join(', ') });
      } else {
        if (!l.name) throw invalidInput(at('name'), 'goods_new_product');
        if (!l.label) throw invalidInput(at('label'), 'goods_new_product');
        if (!l.unit) throw invalidInput(at('unit'), 'goods_new_product');
        label = l.label;
        name = l.name;
        if (deps.rateOf(label) === undefined)
          throw invalidInput(at('label'), 'label_not_current', { value: label, labels: labels.join(', ') });
        if (l.barcode) {
          const owner = catalog.barcodeOwner(l.barcode);
          if (owner) throw invalidInput(at('barcode'), 'barcode_taken', { value: l.barcode, other: owner.name });
        }
      }
      const rate = deps.rateOf(label) ?? 0;
      const qty = toMilli(l.quantity) ?? 0;
      const purchase = toPara(l.purchasePrice) ?? 0;
      const discount = bp(l.discountPercent);
      const net = netPurchase(purchase, discount);
      let retail: number;
      let margin: number;
      if (l.retailPrice !== undefined) {
        retail = toPara(l.retailPrice) ?? 0;
        margin = marginOf(net, retail, rate) ?? 0;
      } else {
        margin = bp(l.marginPercent);
        retail = retailFromMargin(net, margin, rate);
      }
      return {
        line: i,
        product_code: product?.code ?? l.code,
        name,
        label,
        unit: product ? null : (l.unit ?? null),
        grp: product ? null : (l.group ?? null),
        barcode: product ? null : (l.barcode ?? null),
        qty_milli: qty,
        purchase_para: purchase,
        discount_bp: discount,
        margin_bp: margin,
        retail_para: retail,
      };
    });
  }

  function refuseTakenInvoice(supplierId: number, invoiceNumber: string, id: number): void {
    if (st.invoiceTaken.get(supplierId, invoiceNumber, id))
      throw invalidInput('invoiceNumber', 'goods_invoice_taken', { value: invoiceNumber });
  }

  /**
   * A numbered one-product document (a write-off, a price change record) from `table` as the views show it, by
   * `where` and its values: its number (5/2026), moment, product and quantity, then its own fields (`own`).
   */
  const numberedViews = <R extends NumberedRow, V>(
    table: 'write_offs' | 'price_changes',
    where: string,
    values: (string | number)[],
    own: (r: R) => V,
  ) =>
    db
      .prepare<(string | number)[], R>(`SELECT * FROM ${table} ${where}`)
      .all(...values)
      .map((r) => ({
        id: r.id,
        number: `${r.number}/${r.year}`,
        at: r.at,
        code: r.product_code,
        name: r.name,
        quantityMilli: r.qty_milli,
        ...own(r),
      }));

  /** Write-offs as the screens show them: one by id after it is made, or a period's (`where` and its values). */
  function writeOffRows(where: string, values: (string | number)[]): WriteOffView[] {
    type Row = NumberedRow & { price_para: number; value_para: number; reason: string; actor: string | null };
    return numberedViews('write_offs', where, values, (w: Row) => ({
      pricePara: w.price_para,
      valuePara: w.value_para,
      reason: w.reason,
      actor: w.actor,
    }));
  }

  /** Price change records (нивелације) as the screens and documents show them (`where` and its values). */
  function priceChangeRows(where: string, values: (string | number)[]): PriceChangeView[] {
    type Row = NumberedRow & {
      old_para: number;
      new_para: number;
      diff_para: number;
      source: PriceChangeView['source'];
    };
    return numberedViews('price_changes', where, values, (p: Row) => ({
      oldPara: p.old_para,
      newPara: p.new_para,
      diffPara: p.diff_para,
      source: p.source,
    }));
  }

  const totals = (lines: readonly Omit<LineRow, 'receipt_id'>[]): { purchase: number; retail: number } => ({
    purchase: lines.reduce((s, l) => s + valueAt(l.qty_milli, netPurchase(l.purchase_para, l.discount_bp)), 0),
    retail: lines.reduce((s, l) => s + valueAt(l.qty_milli, l.retail_para), 0),
  });

  return {
    suppliers(): SupplierView[] {
      return st.suppliers.all().map(supplierView);
    },

    putSupplier(input: SupplierInput, caller: Caller | undefined): SupplierView {
      const other = st.supplierByPib.get(input.pib);
      if (other && other.id !== input.id)
        throw invalidInput('pib', 'goods_pib_taken', { value: input.pib, other: other.name });
      const stamp = now().toISOString();
      const row = {
        name: input.name,
        pib: input.pib,
        address: input.address || null,
        account: input.account || null,
        contact: input.contact || null,
        at: stamp,
      };
      const id = db.transaction(() => {
        let id: number;
        if (input.id !== undefined) {
          if (!st.supplier.get(input.id)) throw new CommandError('not_found', 'goods_supplier_not_found');
          db.prepare(
            `UPDATE suppliers SET name = @name, pib = @pib, address = @address, account = @account, contact = @contact,
               updated_at = @at WHERE id = @id`,
          ).run({ ...row, id: input.id });
          id = input.id;
        } else {
          id = Number(
            db
              .prepare(
                `INSERT INTO suppliers (name, pib, address, account, contact, updated_at)
                 VALUES (@name, @pib, @address, @account, @contact, @at)`,
              )
              .run(row).lastInsertRowid,
          );
        }
        auditCall(deps, caller, 'suppliers.put', { name: input.name, pib: input.pib });
        return id;
      })();
      const saved = st.supplier.get(id);
      if (!saved) throw new Error('supplier not saved');
      return supplierView(saved);
    },

    receipts(limit: number): ReceiptSummary[] {
      return db
        .prepare<[number], ReceiptRow & { n: number }>(
          `SELECT r.*, (SELECT count(*) FROM goods_receipt_lines l WHERE l.receipt_id = r.id) AS n
             FROM goods_receipts r ORDER BY r.id DESC LIMIT ?`,
        )
        .all(limit)
        .map((r) => summary(r, r.n));
    },

    receipt: receiptView,

    /**
     * A supplier's CSV as receipt lines for the draft on the screen: `code;quantity;purchase price[;discount %]`
     * per row (`;` or a tab; a decimal comma or point; a header row skipped). The code is the product's code or one
     * of its barcodes; each line keeps the product's retail price (the manager may change it). A bad row is refused
     * naming its row and column; nothing is returned then.
     */
    linesFromCsv(csv: string): ReceiptInput['lines'] {
      let read: ReceiptCsvLine<{ code: string }>[];
      try {
        read = parseReceiptCsv(csv, (code) => st.productCode.get(code) ?? byBarcode(code), 1000);
      } catch (e) {
        if (e instanceof CountCsvRefusal) throw invalidInput('csv', e.key, e.params);
        throw e;
      }
      return read.map((l) => {
        const retail = catalog.product(l.product.code, deps.labels())?.pricePara ?? 0;
        return {
          code: l.product.code,
          quantity: l.qtyMilli / 1000,
          purchasePrice: l.purchasePara / 100,
          ...(l.discountBp ? { discountPercent: l.discountBp / 100 } : {}),
          ...(retail > 0 ? { retailPrice: retail / 100 } : { marginPercent: 0 }),
        };
      });
    },

    saveDraft(input: ReceiptInput): ReceiptView {
      if (!st.supplier.get(input.supplierId)) throw invalidInput('supplierId', 'goods_supplier_not_found');
      const lines = calculate(input);
      refuseTakenInvoice(input.supplierId, input.invoiceNumber, input.id ?? 0);
      const t = totals(lines);
      const id = db.transaction(() => {
        let id: number;
        if (input.id !== undefined) {
          const r = st.receipt.get(input.id);
          if (!r) throw new CommandError('not_found', 'goods_receipt_not_found', { id: input.id });
          if (r.state !== 'draft' || r.kind !== 'receipt') throw new CommandError('conflict', 'goods_receipt_posted');
          db.prepare(
            `UPDATE goods_receipts SET supplier_id = ?, invoice_number = ?, invoice_date = ?, purchase_para = ?,
               retail_para = ? WHERE id = ?`,
          ).run(input.supplierId, input.invoiceNumber, input.invoiceDate, t.purchase, t.retail, input.id);
          db.prepare('DELETE FROM goods_receipt_lines WHERE receipt_id = ?').run(input.id);
          id = input.id;
        } else {
          id = Number(
            db
              .prepare(
                `INSERT INTO goods_receipts (kind, state, supplier_id, invoice_number, invoice_date, created_at,
                   purchase_para, retail_para) VALUES ('receipt', 'draft', ?, ?, ?, ?, ?, ?)`,
              )
              .run(input.supplierId, input.invoiceNumber, input.invoiceDate, now().toISOString(), t.purchase, t.retail)
              .lastInsertRowid,
          );
        }
        for (const l of lines)
          st.insertLine.run({
            receipt: id,
            line: l.line,
            code: l.product_code,
            name: l.name,
            label: l.label,
            unit: l.unit,
            grp: l.grp,
            barcode: l.barcode,
            qty: l.qty_milli,
            purchase: l.purchase_para,
            discount: l.discount_bp,
            margin: l.margin_bp,
            retail: l.retail_para,
          });
        return id;
      })();
      return receiptView(id);
    },

    post(id: number, confirmBelowPurchase: boolean, caller: Caller | undefined): ReceiptView {
      const at = now().toISOString();
      db.transaction(() => {
        const r = st.receipt.get(id);
        if (!r) throw new CommandError('not_found', 'goods_receipt_not_found', { id });
        if (r.state !== 'draft') throw new CommandError('conflict', 'goods_receipt_posted');
        refuseTakenInvoice(r.supplier_id, r.invoice_number, r.id);
        const lines = st.lines.all(id);
        const labels = deps.labels();
        lines.forEach((l, i) => {
          if (deps.rateOf(l.label) === undefined)
            throw invalidInput(`lines.${i}.code`, 'goods_product_label', { value: l.label, labels: labels.join(', ') });
          const net = netPurchase(l.purchase_para, l.discount_bp);
          const withoutVat = l.retail_para - vatIn(l.retail_para, deps.rateOf(l.label) ?? 0);
          if (!confirmBelowPurchase && withoutVat < net)
            throw invalidInput(`lines.${i}.retailPrice`, 'goods_below_purchase', { name: l.name });
        });
        const year = Number(bookDay(at).slice(0, 4));
        const number = nextNumber(db, 'receipt', year);
        for (const l of lines) {
          const product = catalog.product(l.product_code, labels);
          if (!product || product.pricePara !== l.retail_para) {
            if (deps.hubOwnsCatalog?.()) throw invalidInput(`lines.${l.line}.code`, 'goods_hub_catalog');
            catalog.put(
              product
                ? {
                    code: product.code,
                    name: product.name,
                    pricePara: l.retail_para,
                    label: product.label,
                    unit: product.unit,
                    group: product.group,
                    favourite: product.favourite,
                    barcodes: product.barcodes,
                  }
                : {
                    code: l.product_code,
                    name: l.name,
                    pricePara: l.retail_para,
                    label: l.label,
                    unit: l.unit ?? 'piece',
                    group: l.grp,
                    favourite: false,
                    barcodes: l.barcode ? [l.barcode] : [],
                  },
              'receipt',
            );
          }
          move(
            db,
            docMove({ kind: 'receipt', id, at }, l.line, {
              code: l.product_code,
              name: product?.name ?? l.name,
              qtyMilli: l.qty_milli,
              pricePara: l.retail_para,
              purchasePara: netPurchase(l.purchase_para, l.discount_bp),
            }),
          );
        }
        const changed = db
          .prepare(
            `UPDATE goods_receipts SET state = 'posted', number = ?, year = ?, posted_at = ?, posted_by = ?
             WHERE id = ? AND state = 'draft'`,
          )
          .run(number, year, at, personOf(caller), id).changes;
        if (changed !== 1) throw new CommandError('conflict', 'goods_receipt_posted');
        auditCall(deps, caller, 'goods.receiptPost', {
          number: `${number}/${year}`,
          invoice: r.invoice_number,
          lines: lines.length,
          retailPara: r.retail_para,
        });
      })();
      return receiptView(id);
    },

    reverse(id: number, caller: Caller | undefined): ReceiptView {
      const at = now().toISOString();
      const reversalId = db.transaction(() => {
        const r = st.receipt.get(id);
        if (!r) throw new CommandError('not_found', 'goods_receipt_not_found', { id });
        if (r.kind !== 'receipt' || r.state !== 'posted') throw new CommandError('conflict', 'goods_not_reversible');
        const year = Number(bookDay(at).slice(0, 4));
        const number = nextNumber(db, 'reversal', year);
        const newId = Number(
          db
            .prepare(
              `INSERT INTO goods_receipts (kind, state, number, year, supplier_id, invoice_number, invoice_date,
                 reverses, created_at, posted_at, posted_by, purchase_para, retail_para)
               VALUES ('reversal', 'posted', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(
              number,
              year,
              r.supplier_id,
              r.invoice_number,
              r.invoice_date,
              id,
              at,
              at,
              personOf(caller),
              -r.purchase_para,
              -r.retail_para,
            ).lastInsertRowid,
        );
        for (const l of st.lines.all(id)) {
          st.insertLine.run({
            receipt: newId,
            line: l.line,
            code: l.product_code,
            name: l.name,
            label: l.label,
            unit: null,
            grp: null,
            barcode: null,
            qty: -l.qty_milli,
            purchase: l.purchase_para,
            discount: l.discount_bp,
            margin: l.margin_bp,
            retail: stockOf(db, l.product_code)?.price_para ?? l.retail_para,
          });
          move(
            db,
            docMove({ kind: 'reversal', id: newId, at }, l.line, {
              code: l.product_code,
              name: l.name,
              qtyMilli: -l.qty_milli,
              pricePara: l.retail_para,
            }),
          );
        }
        db.prepare("UPDATE goods_receipts SET state = 'reversed' WHERE id = ?").run(id);
        auditCall(deps, caller, 'goods.receiptReverse', {
          number: `${number}/${year}`,
          of: docNumber(r.number, r.year),
        });
        return newId;
      })();
      return receiptView(reversalId);
    },

    writeOff(input: { code: string; quantity: number; reason: string }, caller: Caller | undefined): WriteOffView {
      const at = now().toISOString();
      const id = db.transaction(() => {
        const product = st.productCode.get(input.code);
        const held = stockOf(db, input.code);
        if (!product && !held) throw invalidInput('code', 'goods_unknown_product', { value: input.code });
        const qty = toMilli(input.quantity) ?? 0;
        const day = bookDay(at);
        const year = Number(day.slice(0, 4));
        const number = nextNumber(db, 'writeoff', year);
        const name = product?.name ?? held?.name ?? input.code;
        const price = held?.price_para ?? catalog.product(input.code, [])?.pricePara ?? 0;
        const woId = Number(
          db
            .prepare(
              `INSERT INTO write_offs (number, year, at, day, product_code, name, qty_milli, price_para, value_para,
                 reason, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
            )
            .run(number, year, at, day, input.code, name, qty, price, input.reason, personOf(caller)).lastInsertRowid,
        );
        const moved = docMove({ kind: 'writeoff', id: woId, at }, 0, {
          code: input.code,
          name,
          qtyMilli: -qty,
          pricePara: price,
        });
        move(db, moved);
        const value = db
          .prepare<[string], { v: number }>('SELECT value_para AS v FROM stock_movements WHERE source = ? AND line = 0')
          .get(moved.source);
        db.prepare('UPDATE write_offs SET value_para = ? WHERE id = ?').run(-(value?.v ?? 0), woId);
        auditCall(deps, caller, 'goods.writeOff', {
          number: `${number}/${year}`,
          name,
          quantityMilli: qty,
          reason: input.reason,
        });
        return woId;
      })();
      const row = writeOffRows('WHERE id = ?', [id])[0];
      if (!row) throw new Error('write-off not saved');
      return row;
    },

    writeOffs(from: string, to: string): WriteOffView[] {
      return writeOffRows('WHERE day BETWEEN ? AND ? ORDER BY year, number', [from, to]);
    },

    stock(filter: { query?: string; group?: string }, manager: boolean): StockView {
      const rows = db
        .prepare<
          [],
          {
            code: string;
            name: string;
            qty: number;
            price: number;
            purchase: number | null;
            grp: string | null;
            unit: string | null;
          }
        >(
          `SELECT s.product_code AS code, coalesce(p.name, s.name) AS name, s.qty_milli AS qty, s.price_para AS price,
                  s.purchase_para AS purchase, p.grp AS grp, p.unit AS unit
             FROM stock s LEFT JOIN products p ON p.code = s.product_code
            ORDER BY s.product_code`,
        )
        .all();
      const q = filter.query?.toLocaleLowerCase('sr');
      const items: StockItemView[] = rows
        .filter((r) => (filter.group === undefined || r.grp === filter.group) && r.qty !== 0)
        .filter((r) => !q || r.code.toLocaleLowerCase('sr').includes(q) || r.name.toLocaleLowerCase('sr').includes(q))
        .map((r) => ({
          code: r.code,
          name: r.name,
          group: r.grp,
          unit: r.unit ?? 'piece',
          quantityMilli: r.qty,
          negative: r.qty < 0,
          pricePara: r.price,
          retailValuePara: valueAt(r.qty, r.price),
          purchasePara: manager ? r.purchase : null,
          purchaseValuePara: manager && r.purchase !== null ? valueAt(r.qty, r.purchase) : null,
        }));
      const groups = new Map<string | null, StockView['groups'][number]>();
      for (const i of items) {
        const g = groups.get(i.group) ?? {
          group: i.group,
          items: 0,
          retailValuePara: 0,
          purchaseValuePara: manager ? 0 : null,
        };
        g.items++;
        g.retailValuePara += i.retailValuePara;
        if (g.purchaseValuePara !== null) g.purchaseValuePara += i.purchaseValuePara ?? 0;
        groups.set(i.group, g);
      }
      return {
        items,
        groups: [...groups.values()].sort((a, b) => (a.group ?? '').localeCompare(b.group ?? '', 'sr')),
        totals: {
          items: items.length,
          retailValuePara: items.reduce((s, i) => s + i.retailValuePara, 0),
          purchaseValuePara: manager ? items.reduce((s, i) => s + (i.purchaseValuePara ?? 0), 0) : null,
          negative: items.filter((i) => i.negative).length,
        },
      };
    },

    /** The quantity on hand of each of these product codes (the counter's search shows it). */
    onHand(codes: readonly string[]): Map<string, number> {
      const out = new Map<string, number>();
      for (const c of codes) {
        const r = stockOf(db, c);
        if (r) out.set(c, r.qty_milli);
      }
      return out;
    },

    priceChanges(from: string, to: string): PriceChangeView[] {
      return priceChangeRows('WHERE day BETWEEN ? AND ? ORDER BY year, number', [from, to]);
    },

    /** One price change record (нивелација), or null. */
    priceChange(id: number): PriceChangeView | null {
      return priceChangeRows('WHERE id = ?', [id])[0] ?? null;
    },

    /** One write-off, or null. */
    writeOffById(id: number): WriteOffView | null {
      return writeOffRows('WHERE id = ?', [id])[0] ?? null;
    },

    kep(from: string, to: string, withCsv: boolean): KepView {
      const lang = deps.language();
      const w = kepWords(lang);
      // Σ every earlier day's change of balance (kept per day by the ledger: flat as history grows).
      const opening =
        db.prepare<[string], { v: number | null }>('SELECT sum(value_para) AS v FROM kep_days WHERE day < ?').get(from)
          ?.v ?? 0;
      const raw: KepRaw[] = [];
      // Goods receipts and their reversals: the retail value they brought in (or took out).
      for (const r of db
        .prepare<
          [string, string],
          {
            day: string;
            at: string;
            source: string;
            v: number;
            kind: string;
            number: number;
            year: number;
            name: string;
            inv: string;
          }
        >(
          `SELECT m.day, min(m.at) AS at, m.source, sum(m.value_para) AS v, g.kind, g.number, g.year, s.name,
                  g.invoice_number AS inv
             FROM stock_movements m
             JOIN goods_receipts g ON m.source = g.kind || ':' || g.id
             JOIN suppliers s ON s.id = g.supplier_id
            WHERE m.kind IN ('receipt', 'reversal') AND m.day BETWEEN ? AND ?
            GROUP BY m.source`,
        )
        .all(from, to))
        raw.push({
          day: r.day,
          order: 1,
          at: r.at,
          description: (r.kind === 'receipt' ? w.receipt : w.reversal)
            .replace('{number}', `${r.number}/${r.year}`)
            .replace('{supplier}', r.name)
            .replace('{invoice}', r.inv),
          value: r.v,
        });
      for (const p of this.priceChanges(from, to)) {
        if (p.diffPara === 0) continue;
        raw.push({
          day: bookDay(p.at),
          order: 2,
          at: p.at,
          description: w.priceChange.replace('{number}', p.number).replace('{name}', p.name),
          value: p.diffPara,
        });
      }
      for (const o of this.writeOffs(from, to))
        raw.push({
          day: bookDay(o.at),
          order: 3,
          at: o.at,
          description: w.writeOff.replace('{number}', o.number).replace('{name}', o.name).replace('{reason}', o.reason),
          value: -o.valuePara,
        });
      // Stock-takings: per count and day the surpluses (debit) and the shortages (credit), each as one entry.
      for (const c of db
        .prepare<
          [string, string],
          { day: string; at: string; surplus: number; shortage: number; number: number; year: number }
        >(
          `SELECT m.day, min(m.at) AS at, sum(max(m.value_para, 0)) AS surplus, sum(min(m.value_para, 0)) AS shortage,
                  c.number, c.year
             FROM stock_movements m JOIN stock_counts c ON m.source = 'count:' || c.id
            WHERE m.kind = 'count' AND m.day BETWEEN ? AND ?
            GROUP BY m.source, m.day`,
        )
        .all(from, to)) {
        const number = `${c.number}/${c.year}`;
        if (c.surplus !== 0)
          raw.push({
            day: c.day,
            order: 3,
            at: c.at,
            description: w.countSurplus.replace('{number}', number),
            value: c.surplus,
          });
        if (c.shortage !== 0)
          raw.push({
            day: c.day,
            order: 3,
            at: c.at,
            description: w.countShortage.replace('{number}', number),
            value: c.shortage,
          });
      }
      // The fiscal turnover of each day by payment type (refunds reduce it), and the difference between it and the
      // retail value of the goods the day's receipts took out or back (discounts, items kept outside the book).
      // Summed in SQLite (a year holds hundreds of thousands of sales), each day's types in the order they first
      // appear (by order, then by payment).
      const turnover = new Map<string, Map<string, number>>();
      for (const s of db
        .prepare<[string, string], { day: string; payType: string; amount: number }>(
          `SELECT s.day, json_extract(p.value, '$.type') AS payType, sum(json_extract(p.value, '$.amountPara')) AS amount
             FROM stock_sales s, json_each(s.payments) p
            WHERE s.day BETWEEN ? AND ?
            GROUP BY s.day, payType
            ORDER BY s.day, min(s.order_id * 1000 + p.key)`,
        )
        .all(from, to)) {
        const byType = turnover.get(s.day) ?? new Map<string, number>();
        byType.set(s.payType, (byType.get(s.payType) ?? 0) + s.amount);
        turnover.set(s.day, byType);
      }
      const soldValue = new Map(
        db
          .prepare<[string, string], { day: string; v: number }>(
            `SELECT day, sum(value_para) AS v FROM stock_movements WHERE kind IN ('sale', 'refund') AND day BETWEEN ? AND ?
             GROUP BY day`,
          )
          .all(from, to)
          .map((r) => [r.day, r.v]),
      );
      raw.push(...turnoverEntries(turnover, soldValue, w));
      const { entries, closingPara: balance } = kepBook(opening, raw);
      const stockValue = db
        .prepare<[], { qty: number; price: number }>('SELECT qty_milli AS qty, price_para AS price FROM stock')
        .all()
        .reduce((sum, r) => sum + valueAt(r.qty, r.price), 0);
      const today = bookDay(now());
      const yesterdayStart = new Date(dayStart(today) - 1);
      const late = {
        draftReceipts:
          db
            .prepare<[string], { n: number }>(
              "SELECT count(*) AS n FROM goods_receipts WHERE state = 'draft' AND invoice_date < ?",
            )
            .get(bookDay(yesterdayStart))?.n ?? 0,
        unsignedSales:
          db
            .prepare<[string], { n: number }>(
              "SELECT count(*) AS n FROM orders WHERE state != 'fiscalized' AND invoice_type = 'normal' AND created_at < ?",
            )
            .get(new Date(dayStart(today)).toISOString())?.n ?? 0,
        days: lateDays(bookDay(yesterdayStart)),
      };
      const view: KepView = {
        from,
        to,
        openingPara: opening,
        entries,
        closingPara: balance,
        stockValuePara: stockValue,
        late,
      };
      return withCsv ? { ...view, csv: kepCsv(view, lang) } : view;
    },
  };
}
