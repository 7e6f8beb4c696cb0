/**
 * The L-PFR as the sync engine's second processor (outbox/lpfr-port.ts): the client and the one mapping
 * (map.ts) behind the port, and the PIN rule. The card asks for its PIN after power-up or reinsertion
 * (GSC 1500); the stored PIN is entered then, once. A PIN the card refused is never entered again by itself:
 * five wrong PINs lock the card for good, so only a person with a new PIN (Менаџер → Подешавања) tries again.
 */
import type { IssuedReceipt } from '../gateway/types.ts';
import type { OrderRow } from '../orders/store.ts';
import { LpfrFailure, snapshotOfInvoice, type LpfrPort } from '../outbox/lpfr-port.ts';
import type { LpfrState } from '../../shared/domain.ts';
import { LpfrClient } from './client.ts';
import { LpfrError, type LpfrErrorCode } from './errors.ts';
import { lpfrToIssuedReceipt, toLpfrInvoice, LpfrUnsupportedError, type LpfrOrder } from './map.ts';
import { GSC } from './protocol.ts';
import type { LpfrStatus } from './types.ts';

export interface LpfrRouteOptions {
  baseUrl: string;
  /** The stored PIN (secret store), read when the card asks for it. */
  pin: () => string | null;
  /** The referenced receipt of a refund or copy that waited for its original (by `depends_on`). */
  referentOf: (order: OrderRow) => { invoiceNumber: string; sdcDateTime: string } | undefined;
  /** Who issues, when the frozen request names no cashier (the till's id). */
  cashier: () => string;
  /** „ЕСИР број“ (IB/version from the ESIR's approval), or null when not entered yet. */
  esirNumber?: () => string | null;
  log?: (line: string) => void;
  /** One request's timeout. Default 8 s: a signature takes tens of ms, a card's PIN entry a little more. */
  timeoutMs?: number;
}

export interface LpfrRoute extends LpfrPort {
  readonly client: LpfrClient;
  /** The L-PFR's status now (for the Менаџер screen); throws an LpfrError when it does not answer. */
  status(): Promise<LpfrStatus>;
}

/** What a refusal says of the L-PFR as a whole; null when it concerns only the order. */
/** How many mapped bodies the route keeps between `accepts` and `sign` (a pass is at most a few hundred). */
const MAPPED_KEEP = 512;

export function lpfrStateOf(code: LpfrErrorCode): LpfrState | null {
  switch (code) {
    case 'pin_required':
    case 'pin_wrong':
    case 'card_locked':
    case 'card_absent':
    case 'audit_locked':
      return code;
    case 'unreachable':
    case 'timeout':
    case 'connection_lost':
    case 'server_error':
      return 'unreachable';
    case 'device':
    case 'language':
      return 'error';
    case 'invalid':
    case 'invalid_labels':
    case 'rejected':
    case 'malformed':
    case 'unknown':
      return null;
  }
}

/** The state the status's GSCs report, before any PIN is entered. */
function stateOfStatus(status: LpfrStatus): LpfrState | 'needs_pin' {
  const gsc = new Set(status.gsc);
  if (gsc.has(GSC.cardLocked)) return 'card_locked';
  if (gsc.has(GSC.cardAbsent)) return 'card_absent';
  if (gsc.has(GSC.auditLocked)) return 'audit_locked';
  if (gsc.has(GSC.seFailure) || gsc.has(GSC.protocolUnsupported) || gsc.has(GSC.notConfigured)) return 'error';
  if (gsc.has(GSC.pinRequired)) return 'needs_pin';
  return 'ready';
}

export function createLpfrRoute(options: LpfrRouteOptions): LpfrRoute {
  const client = new LpfrClient({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs ?? 8000 });
  /** The PIN the card last refused: never entered again by Kasa itself. */
  let refusedPin: string | null = null;

  const orderOf = (o: OrderRow): LpfrOrder => ({
    kind: o.kind,
    invoiceType: o.invoice_type,
    transactionType: o.transaction_type,
    request: o.request ?? '',
    referent: options.referentOf(o),
  });
  // The same order always maps to the same bytes (map.ts), so a resend after `not_signed` is the same invoice.
  // The engine asks `accepts` of every due order on each pass and then signs it: the body mapped for the
  // question is kept for the signing (keyed by everything the mapping reads), so a pass maps each order once.
  const mapped = new Map<number, { key: string; body: string }>();
  const bodyOf = (o: OrderRow): string => {
    const order = orderOf(o);
    const cashier = options.cashier();
    const esirNumber = options.esirNumber?.() ?? null;
    const key = JSON.stringify([
      order.kind,
      order.invoiceType,
      order.request,
      order.referent ?? null,
      cashier,
      esirNumber,
    ]);
    const hit = mapped.get(o.id);
    if (hit?.key === key) return hit.body;
    const body = toLpfrInvoice(order, { cashier, ...(esirNumber ? { esirNumber } : {}) });
    if (mapped.size >= MAPPED_KEEP) mapped.delete(mapped.keys().next().value as number);
    mapped.set(o.id, { key, body });
    return body;
  };

  const failure = (err: unknown): LpfrFailure => {
    if (err instanceof LpfrFailure) return err;
    if (err instanceof LpfrError)
      return new LpfrFailure({
        outcome: err.outcome,
        code: err.code,
        state: lpfrStateOf(err.code),
        message: err.message,
      });
    return new LpfrFailure({
      outcome: 'unknown',
      code: 'unknown',
      state: 'error',
      message: err instanceof Error ? err.message : String(err),
    });
  };

  return {
    client,
    status: () => client.status({ timeoutMs: 3000 }),
    async readiness() {
      let status: LpfrStatus;
      try {
        status = await client.status({ timeoutMs: 3000 });
      } catch (err) {
        return err instanceof LpfrError ? (lpfrStateOf(err.code) ?? 'error') : 'unreachable';
      }
      const state = stateOfStatus(status);
      if (state !== 'needs_pin') return state;
      const pin = options.pin();
      if (!pin) return 'pin_required';
      if (pin === refusedPin) return 'pin_wrong';
      try {
        await client.enterPin(pin, { timeoutMs: 5000 });
        options.log?.('L-PFR: PIN entered, the card is unlocked');
        return 'ready';
      } catch (err) {
        if (err instanceof LpfrError && err.code === 'pin_wrong') {
          refusedPin = pin;
          options.log?.('L-PFR: the card refused the stored PIN; it is not entered again until a manager changes it');
          return 'pin_wrong';
        }
        return err instanceof LpfrError ? (lpfrStateOf(err.code) ?? 'error') : 'unreachable';
      }
    },
    accepts(order) {
      try {
        bodyOf(order);
        return true;
      } catch (err) {
        if (err instanceof LpfrUnsupportedError) return false;
        throw err;
      }
    },
    async sign(order): Promise<IssuedReceipt> {
      const body = bodyOf(order);
      try {
        const issued = lpfrToIssuedReceipt(
          await client.signInvoice(body, order.order_number),
          body,
          order.order_number,
        );
        mapped.delete(order.id);
        return issued;
      } catch (err) {
        throw failure(err);
      }
    },
    async counter() {
      let status: LpfrStatus;
      try {
        status = await client.status({ timeoutMs: 3000 });
      } catch (err) {
        throw failure(err);
      }
      const last = status.lastInvoiceNumber?.trim() ?? '';
      const time = status.sdcDateTime ? { sdcDateTime: status.sdcDateTime } : {};
      const fromLast = snapshotOfInvoice(last);
      if (fromLast) return { ...fromLast, ...time };
      // No invoice yet: the card's counter is 0.
      if (last === '' && status.uid) return { uid: status.uid, counter: 0, ...time };
      throw new LpfrFailure({
        outcome: 'unknown',
        code: 'malformed',
        state: null,
        message: `The L-PFR's status names no readable last invoice (${last || 'none'}) or card`,
      });
    },
    async find(order): Promise<IssuedReceipt | null> {
      const body = bodyOf(order);
      try {
        const found = await client.findInvoice(order.order_number);
        return found ? lpfrToIssuedReceipt(found, body, order.order_number) : null;
      } catch (err) {
        throw failure(err);
      }
    },
  };
}
