/**
 * The SEF outbox's steps, for the till (electron/sef/service.ts, SQLite) and the store hub (hub/services/sef.ts,
 * PGlite or PostgreSQL): docs/sef.md, "Exactly once". What a side keeps is its own (`SefOutboxWrites`); the order
 * of things is here, once:
 * - the document's XML is frozen before the first send (the buyer's name from SEF's register; a PIB SEF does not
 *   know is refused before anything is sent);
 * - a document whose last attempt has no answer (`inDoubt`) is **looked up** at SEF by its request id before
 *   anything is sent again;
 * - the attempt is recorded (committed) before the request leaves; the send carries the same request id, which SEF
 *   answers with its first result;
 * - SEF's validation refusal parks the document for a person; anything else waits with the shared backoff;
 * - a sent document's status is polled until SEF's final state.
 * Every write names the state it expects: an answer that comes late changes nothing.
 */
import type { SefDocumentView, SefState } from '../contract/sef.ts';
import type { SefDocumentKind } from '../sef/ubl.ts';
import { backoffMs } from '../retry/backoff.ts';
import { splitBuyerId } from '../buyer-id.ts';
import { SefError, type SefClient, type SefErrorView } from './sef-client.ts';
import type { StatusReply } from '../sef/api.ts';

/** The backoff of a document whose send or poll failed (its attempts count the doublings). */
export const SEF_BACKOFF = { baseMs: 5_000, capMs: 15 * 60_000, jitter: 'full', floorMs: 1_000 } as const;
/** How often a sent document's status is asked, until its final state. */
export const SEF_POLL_MS = 60_000;

/** A document as the steps read it (each side maps its row to this). */
export interface SefOutboxDoc {
  id: number;
  state: SefState;
  number: string;
  buyerId: string;
  requestId: string;
  xml: string | null;
  inDoubt: boolean;
  attempts: number;
  invoiceId: number | null;
}

/** The columns both outboxes' rows share (SQLite keeps `in_doubt` as 0 or 1, PostgreSQL as a boolean). */
export interface SefDocColumns {
  id: number;
  kind: SefDocumentKind;
  number: string;
  buyer_id: string;
  buyer_name: string | null;
  total_para: number;
  request_id: string;
  xml: string | null;
  state: SefState;
  sef_comment: string | null;
  invoice_id: number | null;
  attempts: number;
  in_doubt: number | boolean;
  due_at: number;
  created_at: string;
  updated_at: string;
}

/** A row as the steps read it. */
export const sefOutboxDoc = (r: SefDocColumns): SefOutboxDoc => ({
  id: r.id,
  state: r.state,
  number: r.number,
  buyerId: r.buyer_id,
  requestId: r.request_id,
  xml: r.xml,
  inDoubt: r.in_doubt === true || r.in_doubt === 1,
  attempts: r.attempts,
  invoiceId: r.invoice_id,
});

/** A row as both sides' lists show it (each adds its own: the till's order, the hub's till). */
export const sefDocView = (
  r: SefDocColumns,
  lastError: SefErrorView | null,
): Omit<SefDocumentView, 'orderId' | 'orderNumber' | 'auto'> => ({
  id: r.id,
  kind: r.kind,
  number: r.number,
  buyerId: r.buyer_id,
  ...(r.buyer_name ? { buyerName: r.buyer_name } : {}),
  totalPara: r.total_para,
  state: r.state,
  ...(r.sef_comment ? { sefComment: r.sef_comment } : {}),
  ...(r.invoice_id !== null ? { sefInvoiceId: r.invoice_id } : {}),
  attempts: r.attempts,
  inDoubt: r.in_doubt === true || r.in_doubt === 1,
  ...(lastError ? { lastError } : {}),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** What building the document gave: its XML as stored, a refusal for a person, or a wait (a reference not sent). */
export type SefFrozen = { xml: string } | { refuse: SefErrorView } | { later: SefErrorView };

/** A side's writes; each one changes the document only while it is still in the state the step read. */
export interface SefOutboxWrites {
  /** Builds the document for the buyer SEF named and stores it once; returns the XML stored (maybe another pass's). */
  freeze(doc: SefOutboxDoc, buyerName: string): Promise<SefFrozen>;
  /** `attempts + 1, in_doubt = 1`, committed before the request leaves. */
  attempt(doc: SefOutboxDoc): Promise<void>;
  /** SEF holds it (`found`: by the look-up after a lost answer): queued → sent, polled from `pollAt`. */
  sent(
    doc: SefOutboxDoc,
    reply: { invoiceId: number; salesInvoiceId: number | null },
    pollAt: number,
    found: boolean,
  ): Promise<void>;
  /** Refused (SEF's validation, or before sending): waits for a person. */
  refused(doc: SefOutboxDoc, error: SefErrorView): Promise<void>;
  /** Failed for now: due again at `dueAt`, the error kept. */
  failed(doc: SefOutboxDoc, error: SefErrorView, dueAt: number): Promise<void>;
  /** SEF's final state (sent → accepted, rejected, cancelled, storno, refused). */
  final(doc: SefOutboxDoc, state: SefState, comment: string | null): Promise<void>;
  /** Not final yet: asked again at `dueAt`. */
  pollLater(doc: SefOutboxDoc, dueAt: number): Promise<void>;
}

export interface SefStepOptions {
  now: () => number;
  random?: () => number;
  sendToCir: boolean;
}

const retryAt = (doc: SefOutboxDoc, o: SefStepOptions): number =>
  o.now() + backoffMs(SEF_BACKOFF, Math.max(1, doc.attempts), o.random ?? Math.random);

/** SEF's statuses that end a document's polling, as the outbox's states. */
const FINAL: Partial<Record<StatusReply['Status'], SefState>> = {
  Approved: 'accepted',
  Rejected: 'rejected',
  Cancelled: 'cancelled',
  Storno: 'storno',
  Mistake: 'refused',
};

/** The buyer's PIB of a `10:PIB` or `12:PIB:JBKJS` buyer id. */
export const buyerPibOf = (buyerId: string): string => (splitBuyerId(buyerId)?.id ?? '').split(':')[0] ?? '';

/** Runs `call`; a SefError becomes a failure (due again with the backoff) and `null`. */
async function orFailed<T>(
  doc: SefOutboxDoc,
  w: SefOutboxWrites,
  o: SefStepOptions,
  call: () => Promise<T>,
): Promise<{ value: T } | null> {
  try {
    return { value: await call() };
  } catch (e) {
    if (!(e instanceof SefError)) throw e;
    await w.failed(doc, e.view(), retryAt(doc, o));
    return null;
  }
}

/** Freezes (if not yet), looks up (if in doubt), then sends one queued document. */
export async function sefSendStep(
  client: SefClient,
  doc: SefOutboxDoc,
  w: SefOutboxWrites,
  o: SefStepOptions,
): Promise<void> {
  let xml = doc.xml;
  if (xml === null) {
    const pib = buyerPibOf(doc.buyerId);
    const company = await orFailed(doc, w, o, () => client.company(pib));
    if (!company) return;
    if (!company.value) return w.refused(doc, { status: null, code: 'KASA_BUYER_NOT_ON_SEF', message: pib });
    const frozen = await w.freeze(doc, company.value.Name);
    if ('refuse' in frozen) return w.refused(doc, frozen.refuse);
    if ('later' in frozen) return w.failed(doc, frozen.later, retryAt(doc, o));
    xml = frozen.xml;
  }
  if (doc.inDoubt) {
    // The last attempt's answer never came (or another sender may have sent it): ask before anything leaves again.
    const found = await orFailed(doc, w, o, () => client.lookup(doc.requestId));
    if (!found) return;
    if (found.value) {
      const reply = { invoiceId: found.value.InvoiceId, salesInvoiceId: found.value.SalesInvoiceId ?? null };
      return w.sent(doc, reply, o.now() + SEF_POLL_MS, true);
    }
  }
  await w.attempt(doc);
  const attempted = { ...doc, attempts: doc.attempts + 1, inDoubt: true };
  const frozenXml = xml;
  try {
    const reply = await client.send(frozenXml, doc.requestId, o.sendToCir);
    await w.sent(
      attempted,
      { invoiceId: reply.InvoiceId, salesInvoiceId: reply.SalesInvoiceId ?? null },
      o.now() + SEF_POLL_MS,
      false,
    );
  } catch (e) {
    if (!(e instanceof SefError)) throw e;
    if (e.kind === 'refused') return w.refused(attempted, e.view());
    await w.failed(attempted, e.view(), retryAt(attempted, o));
  }
}

/** Asks SEF the status of one sent document; a final one ends its polling. */
export async function sefPollStep(
  client: SefClient,
  doc: SefOutboxDoc,
  w: SefOutboxWrites,
  o: SefStepOptions,
): Promise<void> {
  if (doc.invoiceId === null) return;
  const invoiceId = doc.invoiceId;
  const status = await orFailed(doc, w, o, () => client.status(invoiceId));
  if (!status) return;
  const state = FINAL[status.value.Status];
  if (state) await w.final(doc, state, status.value.Comment ?? null);
  else await w.pollLater(doc, o.now() + SEF_POLL_MS);
}
