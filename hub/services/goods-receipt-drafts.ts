/**
 * Goods receipts at the hub as the till keeps them (docs/goods.md "At the hub"): a receipt is saved as a draft
 * (editable, moving nothing), posted once by a hub manager (hub/services/goods-receipts.ts posts its lines), and a
 * posted receipt is changed only by a reversal: a numbered document referencing it that takes its quantities back
 * out at the book's price (a KEP credit). As on the till, a reversal is not refused when the goods were sold
 * meanwhile: the stock goes below zero, which the book allows and flags. Table `hub_receipts` (hub migration 031).
 */
import { netPurchase, valueAt } from '../../shared/goods/calc.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import {
  HubReceiptInput,
  type HubGoodsDoc,
  type HubReceipt,
  type HubReceiptDraftInput,
} from '../../shared/hub/goods-protocol.ts';
import type { ReceiptA4 } from '../../shared/node/goods-a4.ts';
import type { Queryable } from '../db/db.ts';
import { docMove, hubMoveMany } from '../goods/ledger.ts';
import { docNumber, postHubDocument } from '../goods/post.ts';
import { productsOf } from './goods.ts';
import { postReceiptLines, receiptSupplier, type PricedLine } from './goods-receipts.ts';
import { receiptProducts } from './goods-receipt-products.ts';
import type { HubDeps } from './shared.ts';

interface ReceiptRow {
  id: number;
  kind: 'receipt' | 'reversal';
  state: 'draft' | 'posted' | 'reversed';
  input: HubReceiptDraftInput | Record<string, never>;
  reverses: number | null;
  created_at: string;
  updated_at: string;
  actor: string | null;
  doc_id: number | null;
  number: number | null;
  year: number | null;
  at: string | null;
  value_para: number | null;
  detail: ReceiptDetail | null;
  rev_number: number | null;
  rev_year: number | null;
  by_number: number | null;
  by_year: number | null;
  supplier_name: string | null;
  supplier_pib: string | null;
}

/** What a posted receipt's (or reversal's) document keeps: its supplier, invoice and priced lines. */
interface ReceiptDetail {
  supplier: string;
  pib: string;
  invoiceNumber: string;
  invoiceDate: string;
  lines: PricedLine[];
  reversesNumber?: string;
}

const SELECT_RECEIPTS = `
  SELECT r.id, r.kind, r.state, r.input, r.reverses, r.created_at, r.updated_at, r.actor, r.doc_id,
         d.number, d.year, d.at, d.value_para, d.detail, od.number AS rev_number, od.year AS rev_year,
         bd.number AS by_number, bd.year AS by_year, s.name AS supplier_name, s.pib AS supplier_pib
    FROM hub_receipts r
    LEFT JOIN hub_goods_docs d ON d.id = r.doc_id
    LEFT JOIN hub_receipts o ON o.id = r.reverses LEFT JOIN hub_goods_docs od ON od.id = o.doc_id
    LEFT JOIN hub_receipts b ON b.reverses = r.id LEFT JOIN hub_goods_docs bd ON bd.id = b.doc_id
    LEFT JOIN hub_suppliers s ON s.shop_id = r.shop_id AND s.id = (r.input->>'supplierId')::int4
   WHERE r.shop_id = $1 AND ($2::int4 IS NULL OR r.id = $2)
   ORDER BY r.id DESC LIMIT 300`;

const numberOf = (n: number | null, y: number | null): string | null =>
  n === null || y === null ? null : docNumber(n, y);

function receiptOf(r: ReceiptRow): HubReceipt {
  const draft = r.state === 'draft' ? (r.input as HubReceiptDraftInput) : null;
  const d = r.detail;
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    number: numberOf(r.number, r.year),
    reverses: r.reverses,
    reversesNumber: numberOf(r.rev_number, r.rev_year),
    reversedBy: numberOf(r.by_number, r.by_year),
    supplier: d?.supplier ?? r.supplier_name ?? draft?.supplier ?? '',
    pib: d?.pib ?? r.supplier_pib ?? draft?.pib ?? '',
    invoiceNumber: d?.invoiceNumber ?? draft?.invoiceNumber ?? '',
    invoiceDate: d?.invoiceDate ?? draft?.invoiceDate ?? '',
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    actor: r.actor,
    valuePara: draft
      ? draft.lines.reduce((v, l) => v + valueAt(l.qtyMilli, netPurchase(l.purchasePara, l.discountBp ?? 0)), 0)
      : Number(r.value_para ?? 0),
    lineCount: draft ? draft.lines.length : (d?.lines.length ?? 0),
    draft,
  };
}

/** A shop's receipt locked for a change, or 404 at `id`. */
async function lockedReceipt(q: Queryable, shopId: number, id: number): Promise<ReceiptRow> {
  await q.query('SELECT id FROM hub_receipts WHERE shop_id = $1 AND id = $2 FOR UPDATE', [shopId, id]);
  const r = (await q.query<ReceiptRow>(SELECT_RECEIPTS, [shopId, id]))[0];
  if (!r) throw new HubError(404, 'receipt_unknown', 'the shop has no such receipt', 'id');
  return r;
}

/** Refuses a change of a receipt that is no longer a draft, at `id`. */
function refuseUnlessDraft(r: ReceiptRow): void {
  if (r.state !== 'draft') throw new HubError(409, 'receipt_posted', 'the receipt is posted already', 'id');
}

export function goodsReceiptDraftsService(deps: HubDeps) {
  const { db, iso } = deps;
  const one = async (shopId: number, id: number): Promise<HubReceipt> => {
    const r = (await db.query<ReceiptRow>(SELECT_RECEIPTS, [shopId, id]))[0];
    if (!r) throw new HubError(404, 'receipt_unknown', 'the shop has no such receipt', 'id');
    return receiptOf(r);
  };
  return {
    /**
     * Saves a draft (new, or over an earlier draft by `id`): nothing moves. Refused at its field, nothing saved:
     * an unknown supplier or a wrong PIB, a product the shop does not carry, a receipt posted already.
     */
    async saveDraft(shopId: number, input: HubReceiptDraftInput, actor: string | null): Promise<HubReceipt> {
      const at = iso();
      const id = await db.tx(async (q) => {
        if (input.supplierId !== undefined || input.supplier) await receiptSupplier(q, shopId, input);
        // A line of a product the catalog has, or one that makes a product when posted (checked, nothing made).
        const known = input.lines.flatMap((l, i) => (l.newProduct ? [] : [{ code: l.code, i }]));
        await productsOf(
          q,
          shopId,
          known.map((l) => l.code),
          (k) => `lines.${known[k]?.i ?? k}.code`,
        );
        await receiptProducts(q, shopId, input.lines);
        const { id: draftId, shopId: _shop, ...form } = input;
        if (draftId !== undefined) {
          refuseUnlessDraft(await lockedReceipt(q, shopId, draftId));
          await q.query('UPDATE hub_receipts SET input = $2, updated_at = $3, actor = $4 WHERE id = $1', [
            draftId,
            JSON.stringify(form),
            at,
            actor,
          ]);
          return draftId;
        }
        const made = await q.query<{ id: number }>(
          `INSERT INTO hub_receipts (shop_id, kind, state, input, created_at, updated_at, actor)
           VALUES ($1, 'receipt', 'draft', $2, $3, $3, $4) RETURNING id`,
          [shopId, JSON.stringify(form), at, actor],
        );
        return made[0]?.id ?? 0;
      });
      return one(shopId, id);
    },

    /** Deletes a draft (a posted receipt is refused at `id`). */
    async deleteDraft(shopId: number, id: number): Promise<void> {
      await db.tx(async (q) => {
        refuseUnlessDraft(await lockedReceipt(q, shopId, id));
        await q.query('DELETE FROM hub_receipts WHERE id = $1', [id]);
      });
    },

    /**
     * Posts a draft exactly once (its row locked: a second post, however close, is refused at `id` and numbers
     * nothing). An empty draft is refused at `lines`; the rest as a receipt posted at once.
     */
    async postDraft(shopId: number, id: number, confirm: boolean, actor: string | null): Promise<HubGoodsDoc> {
      return postHubDocument(deps, shopId, 'receipt', actor, async (q, doc) => {
        const r = await lockedReceipt(q, shopId, id);
        refuseUnlessDraft(r);
        const form = r.input as HubReceiptDraftInput;
        if (!form.lines.length) throw new HubError(400, 'receipt_empty', 'the receipt has no lines', 'lines');
        const input = HubReceiptInput.parse({ ...form, confirmBelowPurchase: confirm || form.confirmBelowPurchase });
        const posted = await postReceiptLines(q, shopId, input, doc, actor);
        await q.query("UPDATE hub_receipts SET state = 'posted', doc_id = $2, updated_at = $3 WHERE id = $1", [
          id,
          doc.id,
          doc.at,
        ]);
        return posted;
      });
    },

    /**
     * Reverses a posted receipt: a numbered reversal referencing it takes each line's quantity back out at the
     * book's price (a KEP credit), once. Refused at `id`: a draft, a reversal, a receipt reversed already.
     */
    async reverseReceipt(shopId: number, id: number, actor: string | null): Promise<HubGoodsDoc> {
      return postHubDocument(deps, shopId, 'reversal', actor, async (q, doc) => {
        const r = await lockedReceipt(q, shopId, id);
        if (r.kind === 'reversal')
          throw new HubError(409, 'receipt_not_reversible', 'a reversal is not reversed', 'id');
        if (r.state === 'draft') throw new HubError(409, 'receipt_draft', 'a draft is deleted, not reversed', 'id');
        if (r.state === 'reversed')
          throw new HubError(409, 'receipt_reversed', 'the receipt is reversed already', 'id');
        const original = r.detail as ReceiptDetail;
        const held = new Map(
          (
            await q.query<{ code: string; price_para: number }>(
              'SELECT code, price_para FROM hub_stock WHERE shop_id = $1 AND code = ANY($2::text[]) ORDER BY code FOR UPDATE',
              [shopId, original.lines.map((l) => l.code)],
            )
          ).map((s) => [s.code, Number(s.price_para)]),
        );
        // Each line back out at the price the book holds it at now (the reversal's page shows that price).
        const lines: PricedLine[] = original.lines.map((l) => ({
          ...l,
          qtyMilli: -l.qtyMilli,
          pricePara: held.get(l.code) ?? l.pricePara,
          oldPara: null,
        }));
        const value = await hubMoveMany(
          q,
          shopId,
          lines.map((l, i) =>
            docMove(doc, 'reversal', i, { code: l.code, name: l.name, qtyMilli: l.qtyMilli, pricePara: l.pricePara }),
          ),
        );
        await q.query("UPDATE hub_receipts SET state = 'reversed', updated_at = $2 WHERE id = $1", [id, doc.at]);
        await q.query(
          `INSERT INTO hub_receipts (shop_id, kind, state, input, doc_id, reverses, created_at, updated_at, actor)
           VALUES ($1, 'reversal', 'posted', '{}'::jsonb, $2, $3, $4, $4, $5)`,
          [shopId, doc.id, id, doc.at, actor],
        );
        const { supplier, pib, invoiceNumber, invoiceDate } = original;
        const reversesNumber = numberOf(r.number, r.year) ?? '';
        return {
          valuePara: value,
          detail: { reverses: id, reversesNumber, supplier, pib, invoiceNumber, invoiceDate, lines },
        };
      });
    },
    ...postedReceipts(deps),
  };
}

/** A receipt posted at once, the shop's receipts, and the posted ones as their A4 pages show them. */
function postedReceipts(deps: HubDeps) {
  const { db } = deps;
  return {
    /**
     * Posts a goods receipt at once (one transaction, postReceiptLines), kept among the shop's receipts so that
     * it can be reversed. Refused at its field, nothing saved: a wrong PIB, an unknown supplier, an invoice already
     * received from that supplier, a product the shop does not carry, a retail price below purchase unless confirmed.
     */
    async postReceipt(shopId: number, input: HubReceiptInput, actor: string | null): Promise<HubGoodsDoc> {
      return postHubDocument(deps, shopId, 'receipt', actor, async (q, doc) => {
        const posted = await postReceiptLines(q, shopId, input, doc, actor);
        await q.query(
          `INSERT INTO hub_receipts (shop_id, kind, state, input, doc_id, created_at, updated_at, actor)
           VALUES ($1, 'receipt', 'posted', '{}'::jsonb, $2, $3, $3, $4)`,
          [shopId, doc.id, doc.at, actor],
        );
        return posted;
      });
    },

    /** A shop's receipts (drafts, posted, reversed, reversals), newest first. */
    async goodsReceipts(shopId: number): Promise<HubReceipt[]> {
      return (await db.query<ReceiptRow>(SELECT_RECEIPTS, [shopId, null])).map(receiptOf);
    },

    /** A posted receipt or reversal as its A4 page shows it (404 at `id` for a draft or another shop's). */
    async receiptForPrint(shopId: number, id: number): Promise<ReceiptA4> {
      const r = (await db.query<ReceiptRow>(SELECT_RECEIPTS, [shopId, id]))[0];
      if (!r?.detail) throw new HubError(404, 'receipt_unknown', 'the shop has no such posted receipt', 'id');
      const d = r.detail;
      const lines = d.lines.map((l) => ({
        code: l.code,
        name: l.name,
        quantityMilli: l.qtyMilli,
        purchasePara: l.purchasePara,
        discountBp: l.discountBp,
        netPara: l.netPara,
        marginBp: l.marginBp,
        ratePercent: l.ratePercent ?? null,
        retailPara: l.pricePara,
        purchaseValuePara: valueAt(l.qtyMilli, l.netPara),
        retailValuePara: valueAt(l.qtyMilli, l.pricePara),
      }));
      return {
        kind: r.kind,
        state: r.state,
        number: numberOf(r.number, r.year),
        supplier: { name: d.supplier, pib: d.pib },
        invoiceNumber: d.invoiceNumber,
        invoiceDate: d.invoiceDate,
        postedAt: r.at,
        postedBy: r.actor,
        purchasePara: lines.reduce((v, l) => v + l.purchaseValuePara, 0),
        retailPara: lines.reduce((v, l) => v + l.retailValuePara, 0),
        lines,
        reversesNumber: d.reversesNumber ?? null,
      };
    },
  };
}

/**
 * Writes a till's receipt draft (hub/services/till-goods.ts decides when, in its transaction): over the draft
 * `id` it made, or a new one under (till, the till's draft id). This file stays the one writer of `hub_receipts`.
 */
export async function writeTillDraft(
  q: Queryable,
  draft: { shopId: number; tillId: number; tillDraftId: number; version: number; id: number | null },
  form: unknown,
  at: string,
  actor: string,
): Promise<void> {
  if (draft.id !== null)
    await q.query('UPDATE hub_receipts SET input = $2, updated_at = $3, actor = $4, till_version = $5 WHERE id = $1', [
      draft.id,
      JSON.stringify(form),
      at,
      actor,
      draft.version,
    ]);
  else
    await q.query(
      `INSERT INTO hub_receipts (shop_id, kind, state, input, created_at, updated_at, actor, till_id, till_draft_id,
                                 till_version)
       VALUES ($1, 'receipt', 'draft', $2, $3, $3, $4, $5, $6, $7)`,
      [draft.shopId, JSON.stringify(form), at, actor, draft.tillId, draft.tillDraftId, draft.version],
    );
}
