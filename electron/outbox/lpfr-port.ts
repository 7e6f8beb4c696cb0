/**
 * What the sync engine needs of the shop's local fiscal processor (L-PFR, docs/lpfr.md): whether it can sign
 * now, sign one order, and say what became of an order whose signing has no known outcome. The engine owns
 * the routing and the exactly-once bookkeeping (engine.ts, "the L-PFR lane"); electron/lpfr/route.ts adapts
 * the L-PFR client and its mapping to this port.
 */
import type { IssuedReceipt } from '../gateway/types.ts';
import type { LpfrSnapshot, OrderRow } from '../orders/store.ts';
import type { LpfrState } from '../../shared/domain.ts';

export interface LpfrPort {
  /**
   * Whether the L-PFR can sign now: it answers, its card is in, its security element is unlocked. When the
   * card asks for the PIN, the stored PIN is entered, but never again a PIN the card refused (five wrong PINs
   * lock the card for good).
   */
  readiness(): Promise<LpfrState>;
  /** False for an order the L-PFR cannot represent: it waits for the gateway. */
  accepts(order: OrderRow): boolean;
  /** Signs the order with its order number as RequestId. Throws an LpfrFailure. */
  sign(order: OrderRow): Promise<IssuedReceipt>;
  /**
   * The invoice the L-PFR signed for the order's RequestId, or null when it finds none: on a device that remembers
   * only its latest RequestIds that is no proof by itself (the engine checks `counter`). Throws an LpfrFailure.
   */
  find(order: OrderRow): Promise<IssuedReceipt | null>;
  /**
   * The card's UID and its total counter now (from GET /status, `lastInvoiceNumber` UID-UID-N; 0 before the
   * first invoice), with the L-PFR's own time (`sdcDateTime`) when it says. Throws an LpfrFailure when the L-PFR
   * does not answer or does not say.
   */
  counter(): Promise<LpfrSnapshot & { sdcDateTime?: string }>;
}

/** The card and total counter an L-PFR invoice names (requestedBy-signedBy-totalCounter), or null. */
export function snapshotOfInvoice(invoiceNumber: string | undefined | null): LpfrSnapshot | null {
  const m = /^([A-Za-z0-9]{8})-([A-Za-z0-9]{8})-(\d{1,15})$/.exec(invoiceNumber ?? '');
  if (!m?.[2] || !m[3]) return null;
  return { uid: m[2], counter: Number(m[3]) };
}

/**
 * Why the L-PFR did not sign. `not_signed`: it answered, and nothing was signed (refused before signing, or
 * never reached). `unknown`: the request may have been signed (timeout, cut connection, unreadable reply).
 * `state`: what the refusal says of the L-PFR as a whole (card out, PIN, down), or null when it concerns only
 * this order (a label or field the L-PFR refuses).
 */
export class LpfrFailure extends Error {
  readonly outcome: 'not_signed' | 'unknown';
  readonly code: string;
  readonly state: LpfrState | null;

  constructor(init: { outcome: 'not_signed' | 'unknown'; code: string; state: LpfrState | null; message: string }) {
    super(init.message);
    this.name = 'LpfrFailure';
    this.outcome = init.outcome;
    this.code = init.code;
    this.state = init.state;
  }
}
