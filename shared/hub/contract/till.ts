/** What an enrolled till may ask of the hub, with its credential (docs/hub.md, "What a till's credential can do"). */
import { z } from 'zod';
import {
  AdoptCatalogInput,
  HubError,
  LookupInput,
  MAX_BATCH_EVENTS,
  OfferStaffInput,
  ParkInput,
  ParkTakeInput,
  PushInput,
  RefundHoldInput,
  RefundReleaseInput,
  TillPinInput,
  TillStaffChangeInput,
  type ChangesResult,
  type HubOrder,
  type HubParkedCart,
  type HubParkedSummary,
  type HubPerson,
  type PushResult,
  type RefundHoldResult,
  type TillPinAnswer,
} from '../protocol.ts';
import { endpoint, tillEndpoint } from './define.ts';

/** A push of more events than a batch holds is refused whole, before its events are validated. */
export function batchLimit(raw: unknown): void {
  const events = typeof raw === 'object' && raw ? (raw as { events?: unknown }).events : undefined;
  if (!Array.isArray(events) || events.length <= MAX_BATCH_EVENTS) return;
  throw new HubError(
    413,
    'batch_too_large',
    `a batch holds at most ${MAX_BATCH_EVENTS} events, not ${events.length}`,
    'events',
  );
}

const nonNegative = { error: 'a non-negative integer is required' };
/** The master-data cursor a till asks after (the query string's `since`, default 0). */
export const ChangesQuery = z.object({
  since: z.coerce.number(nonNegative).int(nonNegative).min(0, nonNegative).max(Number.MAX_SAFE_INTEGER).optional(),
});

export const TILL_API = {
  /** The till's history (sales, refunds, shifts, audit) in batches; a refused batch is recorded for its alarm. */
  push: tillEndpoint<PushResult>()('POST /api/till/push', PushInput, { precheck: batchLimit, recordRefusal: true }),
  /** The shop's master data (products, staff, settings) changed after `since`. */
  changes: tillEndpoint<ChangesResult>()('GET /api/till/changes', ChangesQuery),
  /** A sale of the shop for a refund on this till; 404 `order_not_found` when the hub knows none. */
  lookup: tillEndpoint<HubOrder>()('POST /api/till/lookup', LookupInput),
  /** Holds the lines of a sale this till is about to refund; a refusal is an answer (`held: false`). */
  refundHold: tillEndpoint<RefundHoldResult>()('POST /api/till/refund-hold', RefundHoldInput),
  refundRelease: tillEndpoint<{ released: true }>()('POST /api/till/refund-release', RefundReleaseInput),
  park: tillEndpoint<{ id: number }>()('PUT /api/till/parked', ParkInput),
  parkedList: endpoint<{ carts: HubParkedSummary[] }>()({ method: 'GET', path: '/api/till/parked', caller: 'till' }),
  /** Takes a parked cart (gone from the hub as it is answered); 404 `parked_not_found` when another till took it. */
  parkedTake: tillEndpoint<HubParkedCart>()('POST /api/till/parked/take', ParkTakeInput),
  /** The till's catalog offered at enrolment: written only with a hub manager's PIN, which the guard checks. */
  adoptCatalog: tillEndpoint<{ adopted: boolean; hubProducts: number }>()('POST /api/till/catalog', AdoptCatalogInput, {
    pin: { field: 'approverPin', scope: 'approval', optional: true },
  }),
  /** The till's people offered at enrolment: adopted by a shop without a manager, else the shop's answered. */
  offerStaff: tillEndpoint<{ adopted: boolean; hub: HubPerson[] }>()('POST /api/till/staff', OfferStaffInput),
  /** A staff change made at the till, approved by a hub manager's PIN that the guard checks. */
  staffChange: tillEndpoint<{ changed: number; approver: string }>()(
    'POST /api/till/staff/change',
    TillStaffChangeInput,
    { pin: { field: 'approverPin', scope: 'approval' } },
  ),
  /**
   * A PIN typed at a till, checked at the hub (issue 39: tills hold no hash of the hub's), counted like a login;
   * with `newPin`, the person's own PIN change, the current PIN being the proof.
   */
  tillPin: tillEndpoint<TillPinAnswer>()('POST /api/till/pin', TillPinInput),
} as const;
