/**
 * The hub's SEF area (issue 41 part 1, docs/sef.md "Sending from the hub"): for a shop whose SEF key is at the hub,
 * the e-invoice of every fiscalized `10:`/`12:` order a till pushes is one row of `hub_sef_documents` (hub migration
 * 034), made in the push's transaction, keyed by the document (shop, number, kind): a second push, a second till or
 * a restart never makes a second one. The hub's worker sends them through the same steps as the till
 * (shared/node/sef-outbox.ts): frozen once, looked up before any resend, polled to SEF's final state; a refused one
 * waits for a hub manager (resend under a new request id, same number); cancel or storno by SEF's rules.
 *
 * The first request id is derived from the document (shared/node/sef-request-id.ts), as the till derives it, and a
 * new document starts `in_doubt`: the first pass asks SEF whether a till sent it before the hub took over, and only
 * then sends.
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import { recordAudit } from '../audit.ts';
import { shopTaxRates } from './goods-register.ts';
import { HubError, type OrderSnapshot } from '../../shared/hub/protocol.ts';
import type { HubSefDocument } from '../../shared/hub/sef.ts';
import type { SefState } from '../../shared/contract/sef.ts';
import type { HubAuditAction } from '../../shared/contract/hub.ts';
import type { SefSeller } from '../../shared/sef/ubl.ts';
import type { SefLabelCategory } from '../../shared/sef/tax.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import {
  SefRefusal,
  sefIssueDateOf,
  sefKindOf,
  sefLinesOf,
  sefOrderDocument,
} from '../../shared/sef/order-document.ts';
import { SefError, type SefClient, type SefErrorView } from '../../shared/node/sef-client.ts';
import {
  sefPollStep,
  sefSendStep,
  sefDocView,
  sefOutboxDoc,
  type SefDocColumns,
  type SefFrozen,
  type SefOutboxWrites,
} from '../../shared/node/sef-outbox.ts';
import { sefFirstRequestId } from '../../shared/node/sef-request-id.ts';
import type { AuthedTill, HubDeps } from './shared.ts';

/** The shop's SEF link at the hub (hub/sef-link.ts): the key is inside the client only. */
export interface HubSefLink {
  shopId: number;
  client: SefClient;
  seller: SefSeller;
  sendToCir: boolean;
  labelCategories: Record<string, SefLabelCategory>;
}

interface DocRow extends SefDocColumns {
  shop_id: number;
  till_id: number;
  till_name: string;
  order_number: string;
  in_doubt: boolean;
  last_error: SefErrorView | null;
}

const SELECT_DOC = `SELECT d.*, t.name AS till_name FROM hub_sef_documents d JOIN tills t ON t.id = d.till_id`;

/** Whether the hub sends the shop's e-invoices (the shop setting the tills pull, set at the hub's start). */
async function sefFromHub(q: Queryable, shopId: number): Promise<boolean> {
  const r = await q.query<{ value: unknown }>(
    `SELECT value FROM shop_settings WHERE shop_id = $1 AND key = 'sefFromHub'`,
    [shopId],
  );
  return r[0]?.value === true;
}

/**
 * In a push's transaction: the e-invoice of a pushed order, once, when the hub sends the shop's e-invoices and the
 * order calls for one. Returns true when a document was made now.
 */
export async function queueSefDocument(
  q: Queryable,
  till: AuthedTill,
  o: OrderSnapshot,
  seller: SefSeller | null,
  at: Date,
): Promise<boolean> {
  if (!seller || !o.data.buyerId) return false;
  const k = sefKindOf({
    buyerId: o.data.buyerId,
    invoiceType: o.invoice_type,
    transactionType: o.transaction_type,
    fiscalized: o.state === 'fiscalized' && o.receipt != null,
  });
  if ('refuse' in k || !(await sefFromHub(q, till.shopId))) return false;
  const made = await q.query(
    `INSERT INTO hub_sef_documents (shop_id, till_id, order_number, kind, number, buyer_id, total_para, request_id,
       state, in_doubt, due_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $3, $5, $6, $7, 'queued', true, $8, $9, $9)
     ON CONFLICT (shop_id, number, kind) DO NOTHING RETURNING id`,
    [
      till.shopId,
      till.id,
      o.order_number,
      k.kind,
      o.data.buyerId,
      Math.abs(o.total_para),
      sefFirstRequestId(seller.pib, k.kind, o.order_number),
      at.getTime(),
      at.toISOString(),
    ],
  );
  if (made.length)
    await recordAudit(
      q,
      { shopId: till.shopId, actor: 'hub', action: 'sef_issue', detail: { number: o.order_number, kind: k.kind } },
      at.getTime(),
    );
  return made.length > 0;
}

const viewOf = (r: DocRow): HubSefDocument => ({
  ...sefDocView(r, r.last_error),
  tillName: r.till_name,
  orderNumber: r.order_number,
});

/** A build's refusal as the error a hub manager reads beside the document. */
const refusalOf = (e: SefRefusal): SefErrorView => ({
  status: null,
  code: `KASA_${e.key.toUpperCase()}`,
  message: e.params['label'] ?? e.key,
});

/** The hub's rows of the outbox: read, written in the state they were read in, built, audited. */
function sefRows(deps: HubDeps) {
  const { db, now } = deps;
  const row = async (id: number): Promise<DocRow | undefined> =>
    (await db.query<DocRow>(`${SELECT_DOC} WHERE d.id = $1`, [id]))[0];

  /** Writes a document's fields while it is still in the state `from`: a late answer changes nothing. */
  const set = async (id: number, fields: Record<string, unknown>, from: SefState): Promise<void> => {
    const keys = Object.keys(fields);
    const sets = [...keys.map((k, i) => `${k} = $${i + 3}`), `updated_at = $${keys.length + 3}`].join(', ');
    await db.query(`UPDATE hub_sef_documents SET ${sets} WHERE id = $1 AND state = $2`, [
      id,
      from,
      ...keys.map((k) => fields[k]),
      now().toISOString(),
    ]);
  };

  /** The document's XML from the pushed order, or why not (a credit note's sale not sent yet: later). */
  const build = async (r: DocRow, l: HubSefLink, buyerName: string): Promise<SefFrozen> => {
    const orders = await db.query<{
      data: OrderSnapshot['data'];
      receipt: OrderSnapshot['receipt'];
      kind: string;
      sdc_date_time: string | null;
    }>(
      `SELECT data, receipt, kind, sdc_date_time FROM orders WHERE till_id = $1 AND order_number = $2
        ORDER BY seq DESC LIMIT 1`,
      [r.till_id, r.order_number],
    );
    const o = orders[0];
    const invoiceNumber = o?.receipt?.invoiceNumber;
    // When the receipt was signed: the gateway's time in the receipt, else the order's column (the same).
    const sdc = (o?.receipt as { sdcDateTime?: string } | null | undefined)?.sdcDateTime ?? o?.sdc_date_time;
    if (!o || !invoiceNumber || !sdc)
      return { refuse: { status: null, code: 'KASA_SEF_NOT_FISCALIZED', message: r.number } };
    // A final sale of an advance chain deducts its advance invoices: made at the till only (docs/sef.md).
    if (o.kind === 'finalize') return { refuse: { status: null, code: 'KASA_SEF_FINAL_AT_TILL', message: r.number } };
    let corrects: { number: string; issueDate: string } | undefined;
    if (r.kind === 'credit_note') {
      const original = await db.query<{ number: string; state: SefState; xml: string | null; created_at: string }>(
        `SELECT d.number, d.state, d.xml, d.created_at FROM hub_sef_documents d
           JOIN order_keys k ON k.till_id = d.till_id AND k.order_number = d.order_number
          WHERE d.shop_id = $1 AND k.invoice_number = $2 AND d.kind <> 'credit_note'`,
        [r.shop_id, o.data.refundOf?.invoiceNumber ?? ''],
      );
      const sale = original[0];
      if (!sale) return { refuse: { status: null, code: 'KASA_SEF_NO_ORIGINAL', message: r.number } };
      if (sale.state === 'queued')
        return { later: { status: null, code: 'KASA_SEF_ORIGINAL_QUEUED', message: sale.number } };
      if (!['sent', 'accepted'].includes(sale.state))
        return { refuse: { status: null, code: 'KASA_SEF_NO_ORIGINAL', message: sale.number } };
      corrects = { number: sale.number, issueDate: sefIssueDateOf(sale) };
    }
    const rates = (await shopTaxRates(db, r.shop_id)).map((t) => ({ ...t, categoryName: '', categoryType: 0 }));
    try {
      const xml = sefOrderDocument({
        kind: r.kind,
        number: r.number,
        issueDate: dayIn(now(), deps.zone),
        seller: l.seller,
        buyerId: r.buyer_id,
        buyerName,
        lines: sefLinesOf(o.data.lines, o.receipt?.taxItems ?? [], rates, l.labelCategories),
        fiscalReceipt: { invoiceNumber, issueDate: dayIn(new Date(sdc), deps.zone) },
        corrects,
      });
      return { xml };
    } catch (e) {
      if (e instanceof SefRefusal) return { refuse: refusalOf(e) };
      throw e;
    }
  };

  const writes = (l: HubSefLink): SefOutboxWrites => ({
    freeze: async (doc, buyerName) => {
      const r = await row(doc.id);
      if (!r) return { refuse: { status: null, code: 'KASA_NOT_FOUND', message: doc.number } };
      const built = await build(r, l, buyerName);
      if (!('xml' in built)) return built;
      await db.query('UPDATE hub_sef_documents SET xml = $2, buyer_name = $3 WHERE id = $1 AND xml IS NULL', [
        doc.id,
        built.xml,
        buyerName,
      ]);
      // Another pass may have frozen it first: its bytes are the ones sent, always.
      return { xml: (await row(doc.id))?.xml ?? built.xml };
    },
    attempt: async (doc) => {
      await db.query(
        `UPDATE hub_sef_documents SET attempts = attempts + 1, in_doubt = true, updated_at = $2
          WHERE id = $1 AND state = 'queued'`,
        [doc.id, now().toISOString()],
      );
    },
    sent: async (doc, reply, pollAt, found) => {
      await set(
        doc.id,
        {
          state: 'sent',
          in_doubt: false,
          invoice_id: reply.invoiceId,
          sales_invoice_id: reply.salesInvoiceId,
          last_error: null,
          due_at: pollAt,
        },
        'queued',
      );
      if (found && doc.attempts === 0)
        await audit(l.shopId, 'sef_found', { number: doc.number, invoiceId: reply.invoiceId });
    },
    refused: async (doc, error) => {
      await set(doc.id, { state: 'refused', in_doubt: false, last_error: JSON.stringify(error) }, 'queued');
      await audit(l.shopId, 'sef_refused', { number: doc.number, code: error.code, message: error.message });
    },
    failed: async (doc, error, dueAt) => {
      await set(doc.id, { due_at: dueAt, last_error: JSON.stringify(error) }, doc.state);
    },
    final: async (doc, state, comment) => {
      await set(doc.id, { state, sef_comment: comment, last_error: null }, 'sent');
      await audit(l.shopId, 'sef_final', { number: doc.number, state });
    },
    pollLater: async (doc, dueAt) => {
      await set(doc.id, { due_at: dueAt }, 'sent');
    },
  });

  const audit = (
    shopId: number,
    action: HubAuditAction,
    detail: Record<string, string | number | boolean | null>,
    actor = 'hub',
  ) => recordAudit(db, { shopId, actor, action, detail }, now().getTime());

  const docOf = async (shopId: number, id: number): Promise<DocRow> => {
    const r = await row(id);
    if (!r || r.shop_id !== shopId) throw new HubError(404, 'sef_document_not_found', `no e-invoice ${id}`, 'id');
    return r;
  };

  return { row, set, writes, audit, docOf };
}

export function sefService(deps: HubDeps & { setSefFromHub: (shopId: number, on: boolean) => Promise<unknown> }) {
  const { db, now } = deps;
  const link = deps.sef;

  const { row, set, writes, audit, docOf } = sefRows(deps);
  return {
    /**
     * Tells every shop's tills whether the hub sends its e-invoices (the shop setting `sefFromHub` they pull): true
     * for the shop of the hub's SEF key, false where it was true before (the key was taken away: the tills send again).
     */
    async publishSefFromHub(shopId: number | null): Promise<void> {
      const shops = await db.query<{ id: number; on: boolean }>(
        `SELECT s.id, coalesce(ss.value = 'true'::jsonb, false) AS on FROM shops s
           LEFT JOIN shop_settings ss ON ss.shop_id = s.id AND ss.key = 'sefFromHub'`,
      );
      for (const shop of shops)
        if (shop.id === shopId || shop.on) await deps.setSefFromHub(shop.id, shop.id === shopId);
    },

    /** The shop's e-invoices at the hub, newest first; `sending`: whether the hub sends them. */
    async sefDocuments(shopId: number): Promise<{ sending: boolean; documents: HubSefDocument[] }> {
      const rows = await db.query<DocRow>(`${SELECT_DOC} WHERE d.shop_id = $1 ORDER BY d.id DESC LIMIT 200`, [shopId]);
      return { sending: link()?.shopId === shopId, documents: rows.map(viewOf) };
    },

    /**
     * A document SEF refused goes again under a NEW request id (SEF made nothing for the refused one) and the same
     * number, rebuilt; a queued one is only made due now; anything else is SEF's already.
     */
    async sefRetry(shopId: number, id: number, actor: string): Promise<HubSefDocument> {
      const r = await docOf(shopId, id);
      const at = now();
      if (r.state === 'refused') {
        await db.query(
          `UPDATE hub_sef_documents SET state = 'queued', xml = NULL, request_id = $2, in_doubt = false, due_at = $3,
             updated_at = $4 WHERE id = $1 AND state = 'refused'`,
          [id, randomUUID(), at.getTime(), at.toISOString()],
        );
        await audit(shopId, 'sef_retry', { number: r.number }, actor);
      } else if (r.state === 'queued') {
        await db.query('UPDATE hub_sef_documents SET due_at = $2 WHERE id = $1', [id, at.getTime()]);
      } else throw new HubError(409, 'sef_not_retryable', 'this e-invoice is at SEF already', 'id');
      // The worker takes it now, not at its next round.
      deps.onSefQueued();
      return viewOf((await row(id)) as DocRow);
    },

    /** Cancels a sent document the buyer has not acted on, or stornoes an accepted one (SEF's rules). */
    async sefCancel(shopId: number, id: number, comment: string, actor: string): Promise<HubSefDocument> {
      const r = await docOf(shopId, id);
      const l = link();
      if (!l || l.shopId !== shopId) throw new HubError(503, 'sef_not_set_up', 'the hub has no SEF key for this shop');
      if (r.invoice_id === null || (r.state !== 'sent' && r.state !== 'accepted'))
        throw new HubError(409, 'sef_not_cancellable', 'this e-invoice cannot be cancelled or reversed now', 'id');
      try {
        if (r.state === 'sent') await l.client.cancel(r.invoice_id, comment);
        else await l.client.storno(r.invoice_id, r.number, comment);
      } catch (e) {
        if (e instanceof SefError && e.kind === 'refused') throw new HubError(409, 'sef_refused', e.message, 'comment');
        throw new HubError(503, 'sef_unreachable', 'SEF could not be reached; try again');
      }
      const [state, action]: [SefState, HubAuditAction] =
        r.state === 'sent' ? ['cancelled', 'sef_cancel'] : ['storno', 'sef_storno'];
      await set(id, { state, sef_comment: comment }, r.state);
      await audit(shopId, action, { number: r.number, comment }, actor);
      return viewOf((await row(id)) as DocRow);
    },

    /** One pass of the hub's SEF worker: every due document sent, looked up or polled. Never throws. */
    async sefPass(): Promise<{ nextInMs: number } | 'idle'> {
      const l = link();
      if (!l) return 'idle';
      const at = now().getTime();
      const due = await db.query<DocRow>(
        `${SELECT_DOC} WHERE d.shop_id = $1 AND d.state IN ('queued', 'sent') AND d.due_at <= $2
          ORDER BY d.due_at, d.id LIMIT 20`,
        [l.shopId, at],
      );
      const w = writes(l);
      const options = { now: () => now().getTime(), sendToCir: l.sendToCir };
      for (const r of due) {
        try {
          if (r.state === 'queued') await sefSendStep(l.client, sefOutboxDoc(r), w, options);
          else await sefPollStep(l.client, sefOutboxDoc(r), w, options);
        } catch (err) {
          deps.log?.(`sef: document ${r.number}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      const next = await db.query<{ at: number | null }>(
        `SELECT min(due_at) AS at FROM hub_sef_documents WHERE shop_id = $1 AND state IN ('queued', 'sent')`,
        [l.shopId],
      );
      const nextAt = next[0]?.at;
      return nextAt === null || nextAt === undefined
        ? 'idle'
        : { nextInMs: Math.max(0, Number(nextAt) - now().getTime()) };
    },
  };
}
