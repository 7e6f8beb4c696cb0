/**
 * A till speaks only for its own records (issue 39). A till's credential proves which till is asking, nothing
 * more: what the till says is taken only where it is about the till's own history, and only in a shape the hub
 * can check. The rules here are decided in the service layer (hub/services/ calls them inside its
 * transactions); the HTTP layer only carries their refusals. docs/hub.md "What a till's credential can do".
 *
 * - Times: every time a till sends is ISO 8601 with its offset, at most {@link TILL_TIME_SKEW_MS} ahead of the
 *   hub's clock and at most {@link TILL_TIME_PAST_MS} behind it (an offline till pushes weeks late; a till enrolled
 *   after years of use pushes its whole history).
 * - Invoice numbers: an invoice number signed by a till's own card (`UID-UID-counter`, an L-PFR's) is the till's
 *   only under a card the till uses: the first till of a shop to store an order under a card uses it; another till
 *   (not revoked) claiming a number under it is unproven, its order held, never stored.
 * - Refunds count against a sale, and in reports, only once fiscalized (an invoice number stored as proven).
 * - Till names: one till's in a shop, never a reserved word; the audit names a till by name and id.
 * - Tax labels: the shop's are those every till that reports labels agrees on; a till cannot widen them.
 * - A catalog a till brings passes the checks the till's own product form makes, prices above zero.
 * - The day closer's failures are kept (`hub_maintenance`) and shown as an alarm until a round works again.
 */
import { z } from 'zod';
import type { Queryable } from './db/db.ts';
import { HOLD_TTL_HOURS } from './refund-holds.ts';
import { HubError, type ProductInput, type PushRefusal } from '../shared/hub/protocol.ts';
import type { MaintenanceAlarm } from '../shared/hub/contract/results.ts';

// The wire shape lives in the hub's contract (shared/hub/contract/results.ts).
export type { MaintenanceAlarm };

/** How far ahead of the hub's clock a till's time may be (its clock a little fast). */
export const TILL_TIME_SKEW_MS = 15 * 60_000;
/** How far behind the hub's clock a till's time may be (an old till's history, pushed at its enrolment). */
export const TILL_TIME_PAST_MS = 10 * 366 * 86_400_000;

const IsoWithOffset = z.iso.datetime({ offset: true });

/**
 * Refuses (400 `invalid_time`, naming `field`) a till's time that is not ISO 8601 with an offset, or lies outside
 * the window around the hub's clock `now`. Null and absent are the caller's to allow.
 */
export function checkTillTime(value: string | null | undefined, field: string, now: number): void {
  if (value === null || value === undefined) return;
  const ms = Date.parse(value);
  if (!IsoWithOffset.safeParse(value).success || !Number.isFinite(ms))
    throw new HubError(
      400,
      'invalid_time',
      `${field}: an ISO 8601 time with its offset is required, not ${JSON.stringify(value.slice(0, 40))}`,
      field,
    );
  if (ms > now + TILL_TIME_SKEW_MS)
    throw new HubError(
      400,
      'invalid_time',
      `${field}: ${value} is ahead of the hub's clock by more than ${TILL_TIME_SKEW_MS / 60_000} minutes`,
      field,
    );
  if (ms < now - TILL_TIME_PAST_MS)
    throw new HubError(400, 'invalid_time', `${field}: ${value} is more than ten years before the hub's clock`, field);
}

/** Checks the times of one pushed event (`place`: its place in the batch as sent): an order's, a shift's. */
export function checkEventTimes(
  place: number,
  order: { created_at: string; sdc_date_time?: string | null | undefined } | null | undefined,
  shift: { opened_at: string; closed_at: string | null } | null | undefined,
  now: number,
): void {
  const at = `events.${place}.payload`;
  if (order) {
    checkTillTime(order.created_at, `${at}.created_at`, now);
    checkTillTime(order.sdc_date_time, `${at}.sdc_date_time`, now);
  }
  if (shift) {
    checkTillTime(shift.opened_at, `${at}.opened_at`, now);
    checkTillTime(shift.closed_at, `${at}.closed_at`, now);
  }
}

/**
 * The signer of an invoice number signed by one till's own card: `requestedBy-signedBy` of
 * `requestedBy-signedBy-totalCounter` where one smart card requested and signed (an L-PFR's, so both are equal:
 * shared/domain.ts `isLpfrInvoiceNumber`), or null. A V-PFR (the gateway) signs with its own UID for every till
 * on the shop's account, so its numbers name no one till: they are not judged by signer.
 */
export function invoiceSigner(invoiceNumber: string | null | undefined): string | null {
  const m = /^([A-Za-z0-9]{8})-([A-Za-z0-9]{8})-\d{1,12}$/.exec(invoiceNumber ?? '');
  return m && m[1] === m[2] ? `${m[1]}-${m[2]}` : null;
}

/** The advisory lock class of a shop's signer (the second key: shop and signer, hashed). */
const SIGNER_LOCK = 715_011;

/**
 * Whether `till` may store an order under `invoiceNumber`, in the push's transaction: null when the number is the
 * till's (its signer is one the till uses, or one no other till of the shop uses: the till uses it from now on),
 * else the id of the till that uses the signer (the claim is unproven). A number not in the signer's form is not
 * judged here (the shop's unique index still gives it to one order).
 */
export async function signerHolder(
  q: Queryable,
  till: { id: number; shopId: number },
  invoiceNumber: string | null | undefined,
  at: string,
): Promise<number | null> {
  const signer = invoiceSigner(invoiceNumber);
  if (!signer) return null;
  await q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [SIGNER_LOCK, `${till.shopId}:${signer}`]);
  const users = await q.query<{ till_id: number }>(
    `SELECT s.till_id FROM hub_signers s JOIN tills t ON t.id = s.till_id
      WHERE s.shop_id = $1 AND s.signer = $2 AND t.revoked_at IS NULL ORDER BY s.at, s.till_id`,
    [till.shopId, signer],
  );
  if (users.some((u) => u.till_id === till.id)) return null;
  if (users[0]) return users[0].till_id;
  await q.query(
    'INSERT INTO hub_signers (shop_id, signer, till_id, at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
    [till.shopId, signer, till.id, at],
  );
  return null;
}

/**
 * The answer for an order under an invoice number whose signer another till of the shop uses and this till never
 * did: held, never stored; the real sale under that number is not refused.
 */
export const unprovenRefusal = (seq: number, place: number, invoiceNumber: string): PushRefusal => ({
  seq,
  code: 'invoice_unproven',
  field: `events.${place}.payload.invoice_number`,
  message: `invoice number ${invoiceNumber} was signed for another till of this shop: this order is not stored`,
});

/**
 * In a push's transaction: when `order`'s invoice number is not the till's (`signerHolder`), records it as an
 * unproven claim (`invoice_claims`, code `invoice_unproven`, naming the till that uses the signer: the till's
 * `invoice_claimed` alarm) and returns the refusal to answer; null when the order may be stored.
 */
export async function holdUnproven(
  q: Queryable,
  till: { id: number; shopId: number },
  order: { order_number: string; invoice_number?: string | null | undefined },
  seq: number,
  place: number,
  at: string,
): Promise<PushRefusal | null> {
  const holder = await signerHolder(q, till, order.invoice_number, at);
  if (holder === null || !order.invoice_number) return null;
  await q.query(
    `INSERT INTO invoice_claims (shop_id, till_id, seq, order_number, invoice_number, holder_till_id, at, code)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'invoice_unproven') ON CONFLICT (till_id, seq) DO NOTHING`,
    [till.shopId, till.id, seq, order.order_number, order.invoice_number, holder, at],
  );
  return unprovenRefusal(seq, place, order.invoice_number);
}

/**
 * The SQL condition of a refund (the `orders` row `r`) that counts against its sale: fiscalized, with its invoice
 * number; or, until then, made under a hold the hub granted that till for it (hub/refund-holds.ts) that has not
 * lapsed. A refund pushed without a hold (no till that asked the hub could make it) takes nothing back until it is
 * fiscalized; one whose hold lapsed (24 h) neither.
 */
export const countedRefund = (r: string): string =>
  `((${r}.state = 'fiscalized' AND ${r}.invoice_number IS NOT NULL) OR EXISTS (
     SELECT 1 FROM refund_holds ch WHERE ch.shop_id = ${r}.shop_id AND ch.till_id = ${r}.till_id
        AND ch.hold_id = ${r}.data->'refundOf'->>'holdId'
        AND ch.created_at > now() - make_interval(hours => ${HOLD_TTL_HOURS})))`;

/** Whether an order's sums count in reports: every order's but a refund's not fiscalized yet. */
export const countsInReports = (o: {
  kind: string;
  state: string;
  invoice_number?: string | null | undefined;
}): boolean => !(o.kind === 'refund' || o.kind === 'refund_full') || (o.state === 'fiscalized' && !!o.invoice_number);

/**
 * An order's report facts as stored (hub/report-facts.ts): all of them, but none for a refund not fiscalized yet
 * (reports leave it out); its facts count once the till pushes it fiscalized (a new snapshot, new facts).
 */
export function countedFacts<F>(o: Parameters<typeof countsInReports>[0], facts: F[]): F[] {
  return countsInReports(o) ? facts : [];
}

/** Names no till may take: the audit's word for the admin token, and the hub's own. */
const RESERVED_NAMES = new Set(['admin', 'administrator', 'root', 'system', 'hub', 'админ', 'администратор', 'хаб']);

/** A till name as names are compared: compatibility-normalized, case folded, spaces collapsed. */
export const foldTillName = (name: string): string =>
  name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('sr');

/**
 * Why a till may not be named `name` in its shop (a reserved word, or another till's name), or null. `tillId` is
 * the till being renamed (null at enrolment).
 */
export async function tillNameRefusal(
  q: Queryable,
  shopId: number,
  tillId: number | null,
  name: string,
): Promise<{ code: string; message: string } | null> {
  const folded = foldTillName(name);
  if (RESERVED_NAMES.has(folded))
    return {
      code: 'till_name_reserved',
      message: `name: "${name}" is reserved at the hub; give the till another name`,
    };
  const others = await q.query<{ name: string }>(
    'SELECT name FROM tills WHERE shop_id = $1 AND id IS DISTINCT FROM $2 AND revoked_at IS NULL',
    [shopId, tillId],
  );
  if (others.some((o) => foldTillName(o.name) === folded))
    return { code: 'till_name_taken', message: `name: another till of this shop is named "${name}"` };
  return null;
}

/** How the hub's audit names a till: its name and its id (a name alone could be anybody's). */
export const tillActor = (till: { id: number; name: string }): string => `${till.name} (#${till.id})`;

/**
 * The shop's current tax labels: those every till of the shop (not revoked) that reports labels reports, sorted.
 * `judged` is false before any till reported (a label cannot be judged then). One till cannot widen them; a till
 * reporting fewer narrows them (its manager sees products refused and revokes a till that lies).
 */
export async function shopTaxLabels(q: Queryable, shopId: number): Promise<{ judged: boolean; labels: string[] }> {
  const rows = await q.query<{ label: string; n: number; tills: number }>(
    `WITH r AS (
       SELECT t.id, l.value FROM tills t, jsonb_array_elements_text(coalesce(t.status->'taxLabels', '[]')) AS l(value)
        WHERE t.shop_id = $1 AND t.revoked_at IS NULL)
     SELECT r.value AS label, count(DISTINCT r.id)::int AS n, (SELECT count(DISTINCT id) FROM r)::int AS tills
       FROM r GROUP BY r.value`,
    [shopId],
  );
  const tills = Number(rows[0]?.tills ?? 0);
  return {
    judged: tills > 0,
    labels: rows
      .filter((r) => Number(r.n) === tills)
      .map((r) => r.label)
      .sort(),
  };
}

/**
 * Refuses (400, naming `products.<i>.<field>`) a product of a till's catalog that the till's own product form
 * would not have made (shared/contract/catalog.ts: code up to 32, name up to 100, group up to 60 characters, up to
 * 20 barcodes of 8–14 digits), or a price that is not above zero. Labels and barcodes owned by other products are
 * the admin's checks (hub/services/catalog.ts `checkProducts`).
 */
export function checkTillCatalog(products: readonly ProductInput[]): void {
  for (const [i, p] of products.entries()) {
    if (p.deleted) continue;
    const at = (field: string, code: string, message: string): HubError =>
      new HubError(400, code, `products.${i}.${field}: ${message}`, `products.${i}.${field}`);
    if (p.pricePara <= 0) throw at('pricePara', 'price_invalid', 'a price above zero is required');
    if (p.code.length > 32) throw at('code', 'too_long', 'at most 32 characters');
    if (p.name.length > 100) throw at('name', 'too_long', 'at most 100 characters');
    if ((p.group ?? '').length > 60) throw at('group', 'too_long', 'at most 60 characters');
    const barcodes = p.barcodes ?? [];
    if (barcodes.length > 20) throw at('barcodes', 'barcode_invalid', 'at most 20 barcodes');
    const bad = barcodes.find((b) => !/^\d{8,14}$/.test(b));
    if (bad !== undefined) throw at('barcodes', 'barcode_invalid', `${bad} is not a barcode of 8–14 digits`);
  }
}

/** The day closer's task name in `hub_maintenance`. */
export const DAY_CLOSER = 'day_closer';

/** Records a round of a maintenance task: its error (failing since the first failed round), or that it worked. */
export async function noteMaintenance(q: Queryable, task: string, error: string | null, now: number): Promise<void> {
  const at = new Date(now).toISOString();
  await q.query(
    `INSERT INTO hub_maintenance (task, failing_since, error, at) VALUES ($1, CASE WHEN $2::text IS NULL THEN NULL
       ELSE $3::timestamptz END, $2, $3)
     ON CONFLICT (task) DO UPDATE SET error = excluded.error, at = excluded.at,
       failing_since = CASE WHEN excluded.error IS NULL THEN NULL
                            ELSE coalesce(hub_maintenance.failing_since, excluded.failing_since) END`,
    [task, error === null ? null : error.slice(0, 300), at],
  );
}

export async function maintenanceAlarm(q: Queryable): Promise<MaintenanceAlarm | null> {
  const rows = await q.query<{ task: string; error: string; failing_since: string; at: string }>(
    'SELECT task, error, failing_since, at FROM hub_maintenance WHERE error IS NOT NULL ORDER BY failing_since LIMIT 1',
  );
  const r = rows[0];
  return r ? { failing: true, task: r.task, error: r.error, since: r.failing_since, at: r.at } : null;
}
