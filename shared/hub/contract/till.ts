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
import { endpoint } from './define.ts';

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
  push: endpoint<PushResult>()({
    method: 'POST',
    path: '/api/till/push',
    caller: 'till',
    input: PushInput,
    precheck: batchLimit,
    recordRefusal: true,
  }),
  /** The shop's master data (products, staff, settings) changed after `since`. */
  changes: endpoint<ChangesResult>()({ method: 'GET', path: '/api/till/changes', caller: 'till', input: ChangesQuery }),
  /** A sale of the shop for a refund on this till; 404 `order_not_found` when the hub knows none. */
  lookup: endpoint<HubOrder>()({ method: 'POST', path: '/api/till/lookup', caller: 'till', input: LookupInput }),
  /** Holds the lines of a sale this till is about to refund; a refusal is an answer (`held: false`). */
  refundHold: endpoint<RefundHoldResult>()({
    method: 'POST',
    path: '/api/till/refund-hold',
    caller: 'till',
    input: RefundHoldInput,
  }),
  refundRelease: endpoint<{ released: true }>()({
    method: 'POST',
    path: '/api/till/refund-release',
    caller: 'till',
    input: RefundReleaseInput,
  }),
  park: endpoint<{ id: number }>()({ method: 'PUT', path: '/api/till/parked', caller: 'till', input: ParkInput }),
  parkedList: endpoint<{ carts: HubParkedSummary[] }>()({ method: 'GET', path: '/api/till/parked', caller: 'till' }),
  /** Takes a parked cart (gone from the hub as it is answered); 404 `parked_not_found` when another till took it. */
  parkedTake: endpoint<HubParkedCart>()({
    method: 'POST',
    path: '/api/till/parked/take',
    caller: 'till',
    input: ParkTakeInput,
  }),
  /** The till's catalog offered at enrolment: written only with a hub manager's PIN, which the guard checks. */
  adoptCatalog: endpoint<{ adopted: boolean; hubProducts: number }>()({
    method: 'POST',
    path: '/api/till/catalog',
    caller: 'till',
    input: AdoptCatalogInput,
    pin: { field: 'approverPin', scope: 'approval', optional: true },
  }),
  /** The till's people offered at enrolment: adopted by a shop without a manager, else the shop's answered. */
  offerStaff: endpoint<{ adopted: boolean; hub: HubPerson[] }>()({
    method: 'POST',
    path: '/api/till/staff',
    caller: 'till',
    input: OfferStaffInput,
  }),
  /** A staff change made at the till, approved by a hub manager's PIN that the guard checks. */
  staffChange: endpoint<{ changed: number; approver: string }>()({
    method: 'POST',
    path: '/api/till/staff/change',
    caller: 'till',
    input: TillStaffChangeInput,
    pin: { field: 'approverPin', scope: 'approval' },
  }),
  /**
   * A PIN typed at a till, checked at the hub (issue 39: tills hold no hash of the hub's), counted like a login;
   * with `newPin`, the person's own PIN change, the current PIN being the proof.
   */
  tillPin: endpoint<TillPinAnswer>()({ method: 'POST', path: '/api/till/pin', caller: 'till', input: TillPinInput }),
} as const;
