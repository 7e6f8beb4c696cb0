/**
 * Goods receipts and count entries a till enrolled at a store hub enters for the shop's book (docs/goods.md "What a
 * till enrolled at a hub still does itself, and how it merges"). The till's form, the hub's rules: each is kept in a
 * durable queue in SQLite (`hub_goods_drafts`, `hub_count_entries`; this file is their one writer) and sent when the
 * hub is reachable, keyed by the till's own id of it (the hub keeps one per till and key), so a resend, a kill
 * mid-send or a day offline makes one hub draft or one entry, never two. Sent at once when saved (3 s at most),
 * then after every sync round that reached the hub, in the order entered. The hub's answer (its draft id, the
 * count's line) or its refusal at a field is kept and shown; a refusal at the moment of saving saves nothing.
 * Posting is a hub manager's act: from the till with a manager's PIN that the hub checks, never the till.
 */
import type { Db } from '../db/open.ts';
import { CommandError, invalidInput } from '../errors.ts';
import type { HubClient } from '../hub-client/client.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import type { TillOpenCount, TillReceiptForm } from '../../shared/hub/till-goods-protocol.ts';
import type {
  HubCountEntryView,
  HubCountsView,
  HubDraftView,
  HubReceiptSaveInput,
  HubRefusalView,
} from '../../shared/contract/hub-goods.ts';
import { toMilli } from '../../shared/money.ts';
import { hubRefusal, type Refusal } from './hub-refusals.ts';
import type { Language } from '../../shared/domain.ts';
import { message } from '../../shared/messages.ts';
import { fieldLabel } from '../../shared/i18n/fields.ts';

interface DraftRow {
  id: number;
  form: string;
  version: number;
  sent_version: number;
  hub_id: number | null;
  hub_state: 'draft' | 'posted' | 'reversed' | null;
  hub_number: string | null;
  refusal: string | null;
  updated_at: string;
}

interface EntryRow {
  id: number;
  count_id: number;
  code: string;
  qty_milli: number;
  add_to: number;
  state: 'queued' | 'sent' | 'refused';
  name: string | null;
  sheet_milli: number | null;
  counted_milli: number | null;
  refusal: string | null;
  at: string;
}

/** What a draft keeps: the till's supplier (to open it again) and the form the hub gets. */
interface StoredForm {
  supplierId: number;
  hub: TillReceiptForm;
}

const para = (amount: number): number => Math.round(amount * 100);

/** A refusal of the hub (a 4xx); anything else (the hub away, a timeout, a 5xx) leaves the item queued. */
const refusedByHub = (err: unknown): err is HubError => err instanceof HubError && err.status < 500;

export interface HubGoodsDeps {
  db: Db;
  hub: () => HubClient | null;
  now: () => Date;
  /** The user's language: a kept refusal is said in it when read. */
  language: () => Language;
}

export function createHubGoods({ db, hub, now, language }: HubGoodsDeps) {
  const draftRow = db.prepare<[number], DraftRow>('SELECT * FROM hub_goods_drafts WHERE id = ?');
  const entryRow = db.prepare<[number], EntryRow>('SELECT * FROM hub_count_entries WHERE id = ?');
  const refusalOf = (text: string | null): Refusal | null => (text ? (JSON.parse(text) as Refusal) : null);
  /** A kept refusal with its words in the user's language (the field named by its label). */
  const said = (text: string | null): HubRefusalView | null => {
    const r = refusalOf(text);
    if (!r) return null;
    const lang = language();
    return { ...r, message: message(lang, r.key, { ...r.params, field: fieldLabel(lang, r.field) }) };
  };

  /** The till's form as the hub's: the supplier's name and PIB from the till's register, amounts in para. */
  function hubForm(input: HubReceiptSaveInput): TillReceiptForm {
    const supplier = db
      .prepare<[number], { name: string; pib: string }>('SELECT name, pib FROM suppliers WHERE id = ?')
      .get(input.supplierId);
    if (!supplier) throw invalidInput('supplierId', 'hub_goods_supplier_unknown');
    return {
      supplier: supplier.name,
      pib: supplier.pib,
      invoiceNumber: input.invoiceNumber,
      invoiceDate: input.invoiceDate,
      lines: input.lines.map((l, i) => {
        // The hub owns the catalog: a new product is made there, not from a till's receipt.
        if (l.name !== undefined || l.label !== undefined || l.unit !== undefined)
          throw invalidInput(`lines.${i}.code`, 'goods_hub_catalog');
        return {
          code: l.code,
          qtyMilli: toMilli(l.quantity) ?? 0,
          purchasePara: para(l.purchasePrice),
          ...(l.discountPercent !== undefined ? { discountBp: para(l.discountPercent) } : {}),
          ...(l.retailPrice !== undefined ? { pricePara: para(l.retailPrice) } : {}),
          ...(l.marginPercent !== undefined ? { marginBp: para(l.marginPercent) } : {}),
        };
      }),
    };
  }

  function draftView(r: DraftRow): HubDraftView {
    const form = JSON.parse(r.form) as StoredForm;
    const refusal = said(r.refusal);
    return {
      id: r.id,
      supplierId: form.supplierId,
      supplier: form.hub.supplier ?? '',
      invoiceNumber: form.hub.invoiceNumber,
      invoiceDate: form.hub.invoiceDate,
      lines: form.hub.lines,
      state: refusal
        ? 'refused'
        : r.sent_version < r.version
          ? 'queued'
          : r.hub_state === 'draft'
            ? 'at_hub'
            : 'posted',
      hubId: r.hub_id,
      hubNumber: r.hub_number,
      refusal,
      updatedAt: r.updated_at,
    };
  }

  const entryView = (r: EntryRow): HubCountEntryView => ({
    id: r.id,
    countId: r.count_id,
    code: r.code,
    name: r.name,
    qtyMilli: r.qty_milli,
    add: r.add_to === 1,
    state: r.state,
    sheetMilli: r.sheet_milli,
    countedMilli: r.counted_milli,
    refusal: said(r.refusal),
    at: r.at,
  });

  /** Sends one draft's newest version; a refusal is kept at the draft (sent again only once saved again). */
  async function sendDraft(client: HubClient, r: DraftRow): Promise<void> {
    const form = JSON.parse(r.form) as StoredForm;
    try {
      const a = await client.tillReceiptDraft({
        tillDraftId: r.id,
        version: r.version,
        ...(r.hub_id !== null ? { id: r.hub_id } : {}),
        form: form.hub,
      });
      db.prepare(
        `UPDATE hub_goods_drafts SET sent_version = max(sent_version, ?), hub_id = ?, hub_state = ?, hub_number = ?,
                refusal = NULL, sent_at = ? WHERE id = ?`,
      ).run(Math.min(a.version, r.version), a.id, a.state, a.number, now().toISOString(), r.id);
    } catch (err) {
      if (!refusedByHub(err)) throw err;
      db.prepare('UPDATE hub_goods_drafts SET sent_version = ?, refusal = ?, sent_at = ? WHERE id = ?').run(
        r.version,
        JSON.stringify(hubRefusal(err, 'receipt', (f) => form.hub.lines[Number(/^lines\.(\d+)\./.exec(f)?.[1])]?.code)),
        now().toISOString(),
        r.id,
      );
    }
  }

  /** Sends one queued count entry; a refusal is kept at the entry, which is not sent again. */
  async function sendEntry(client: HubClient, r: EntryRow): Promise<void> {
    try {
      const a = await client.tillCountEntry({
        entryId: r.id,
        countId: r.count_id,
        code: r.code,
        qtyMilli: r.qty_milli,
        add: r.add_to === 1,
      });
      db.prepare(
        `UPDATE hub_count_entries SET state = 'sent', name = ?, code = ?, sheet_milli = ?, counted_milli = ?,
                refusal = NULL, sent_at = ? WHERE id = ?`,
      ).run(a.name, a.code, a.sheetMilli, a.countedMilli, now().toISOString(), r.id);
    } catch (err) {
      if (!refusedByHub(err)) throw err;
      db.prepare("UPDATE hub_count_entries SET state = 'refused', refusal = ?, sent_at = ? WHERE id = ?").run(
        JSON.stringify(hubRefusal(err, 'count', () => r.code)),
        now().toISOString(),
        r.id,
      );
    }
  }

  let flushing: Promise<void> = Promise.resolve();
  /** Everything queued, in the order entered, one send at a time; stops at the first send the hub did not answer. */
  function flush(client: HubClient): Promise<void> {
    const run = async () => {
      for (const r of db
        .prepare<[], DraftRow>('SELECT * FROM hub_goods_drafts WHERE sent_version < version ORDER BY id')
        .all())
        await sendDraft(client, r);
      for (const r of db
        .prepare<[], EntryRow>("SELECT * FROM hub_count_entries WHERE state = 'queued' ORDER BY id")
        .all())
        await sendEntry(client, r);
    };
    flushing = flushing.then(run, run);
    return flushing;
  }

  /** Sends now when a hub is configured; the hub away leaves everything queued for the sync rounds. */
  async function trySend(): Promise<void> {
    const client = hub();
    if (client) await flush(client).catch(() => undefined);
  }

  /** The hub's refusal of what was just saved, thrown at its field (what was saved is taken back by the caller). */
  const refusedNow = (r: Refusal): CommandError =>
    r.field === 'approverPin'
      ? new CommandError('forbidden', r.key, { ...r.params, field: 'approverPin' }, 'approverPin')
      : invalidInput(r.field, r.key, r.params);

  return {
    flush,

    /**
     * Saves a receipt draft for the hub (new, or over this till's draft `id`) and sends it now when the hub is
     * reachable. A refusal by the hub now is thrown at its field and nothing is saved (the draft as it was);
     * with the hub away the draft waits in the queue.
     */
    async saveDraft(input: HubReceiptSaveInput): Promise<HubDraftView> {
      const form: StoredForm = { supplierId: input.supplierId, hub: hubForm(input) };
      const at = now().toISOString();
      const before = input.id !== undefined ? draftRow.get(input.id) : undefined;
      if (input.id !== undefined && !before) throw new CommandError('not_found', 'not_found', {});
      if (before && before.hub_state !== null && before.hub_state !== 'draft')
        throw invalidInput('id', 'goods_receipt_posted');
      const id = before
        ? (db
            .prepare(
              'UPDATE hub_goods_drafts SET form = ?, version = version + 1, refusal = NULL, updated_at = ? WHERE id = ?',
            )
            .run(JSON.stringify(form), at, before.id),
          before.id)
        : Number(
            db
              .prepare('INSERT INTO hub_goods_drafts (form, version, updated_at) VALUES (?, 1, ?)')
              .run(JSON.stringify(form), at).lastInsertRowid,
          );
      await trySend();
      const after = draftRow.get(id) as DraftRow;
      const refusal = refusalOf(after.refusal);
      if (refusal) {
        // Refused now: nothing saved, the draft as it was before (or none).
        if (before)
          db.prepare(
            'UPDATE hub_goods_drafts SET form = ?, version = ?, sent_version = ?, refusal = ?, updated_at = ? WHERE id = ?',
          ).run(before.form, before.version, before.sent_version, before.refusal, before.updated_at, id);
        else db.prepare('DELETE FROM hub_goods_drafts WHERE id = ?').run(id);
        throw refusedNow(refusal);
      }
      return draftView(after);
    },

    drafts(): HubDraftView[] {
      return db.prepare<[], DraftRow>('SELECT * FROM hub_goods_drafts ORDER BY id DESC LIMIT 200').all().map(draftView);
    },

    /** Posts a draft at the hub with a hub manager's PIN, which the hub checks (hub away: refused). */
    async postDraft(id: number, approverPin: string, confirm: boolean): Promise<HubDraftView> {
      const client = hub();
      if (!client) throw new CommandError('unavailable', 'hub_goods_no_hub', {});
      await flush(client).catch(() => undefined);
      const r = draftRow.get(id);
      if (!r) throw new CommandError('not_found', 'not_found', {});
      if (r.hub_id === null || r.sent_version < r.version)
        throw new CommandError('unavailable', 'hub_goods_not_sent', {});
      try {
        const doc = await client.tillReceiptPost(r.hub_id, approverPin, confirm);
        db.prepare("UPDATE hub_goods_drafts SET hub_state = 'posted', hub_number = ? WHERE id = ?").run(doc.number, id);
      } catch (err) {
        if (!refusedByHub(err)) throw new CommandError('unavailable', 'hub_goods_not_sent', {});
        throw refusedNow(hubRefusal(err, 'receipt'));
      }
      return draftView(draftRow.get(id) as DraftRow);
    },

    /**
     * The shop's open counts: asked of the hub (3 s at most) and kept; with the hub away the last list it gave
     * (`online` false), so counts are entered offline too. With this till's entries of them.
     */
    async counts(): Promise<HubCountsView> {
      const client = hub();
      let online = false;
      if (client) {
        try {
          const { counts } = await client.tillCounts();
          const at = now().toISOString();
          db.transaction((list: TillOpenCount[]) => {
            db.prepare('DELETE FROM hub_counts_seen').run();
            const put = db.prepare(
              'INSERT INTO hub_counts_seen (count_id, number, groups, started_at, seen_at) VALUES (?, ?, ?, ?, ?)',
            );
            for (const c of list) put.run(c.id, c.number, c.groups ? JSON.stringify(c.groups) : null, c.startedAt, at);
          })(counts);
          online = true;
        } catch {
          online = false;
        }
      }
      const counts = db
        .prepare<[], { count_id: number; number: string; groups: string | null; started_at: string; seen_at: string }>(
          'SELECT * FROM hub_counts_seen ORDER BY count_id',
        )
        .all()
        .map((c) => ({
          id: c.count_id,
          number: c.number,
          groups: c.groups ? (JSON.parse(c.groups) as string[]) : null,
          startedAt: c.started_at,
          seenAt: c.seen_at,
        }));
      const entries = db
        .prepare<[], EntryRow>('SELECT * FROM hub_count_entries ORDER BY id DESC LIMIT 500')
        .all()
        .map(entryView);
      return { online, counts, entries };
    },

    /**
     * Enters a counted quantity (a code or a barcode) into a count of the hub: queued, sent now when the hub is
     * reachable. A refusal by the hub now is thrown at its field and the entry is not kept.
     */
    async enter(countId: number, code: string, qtyMilli: number, add: boolean): Promise<HubCountEntryView> {
      const id = Number(
        db
          .prepare('INSERT INTO hub_count_entries (count_id, code, qty_milli, add_to, at) VALUES (?, ?, ?, ?, ?)')
          .run(countId, code, qtyMilli, add ? 1 : 0, now().toISOString()).lastInsertRowid,
      );
      await trySend();
      const r = entryRow.get(id) as EntryRow;
      const refusal = refusalOf(r.refusal);
      if (refusal) {
        db.prepare('DELETE FROM hub_count_entries WHERE id = ?').run(id);
        throw refusedNow(refusal);
      }
      return entryView(r);
    },
  };
}

export type HubGoods = ReturnType<typeof createHubGoods>;
