/**
 * The identity of one command call as the core established it: the person logged in at the till (the
 * session) and the manager whose PIN approved it. The guard verifies that PIN, once, and hands the
 * handler its `Caller`; the call's context is also carried with AsyncLocalStorage, so the audit log and
 * the PIN lockout know the command and the people without every service taking them as parameters.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StaffRole } from '../../shared/contract/staff.ts';
import { CommandError } from '../errors.ts';

export interface Person {
  id: number;
  name: string;
  role: StaffRole;
  mustChangePin: boolean;
}

export interface CallContext {
  command: string;
  actor: Person | null;
  approver: Person | null;
  /** The PIN the approver was verified with (never logged, never returned). */
  approvalPin: string | null;
}

/** Who a handler runs for: the session's person, and the manager whose PIN the guard verified for it. */
export interface Caller {
  readonly actor: Person | null;
  readonly approver: Person | null;
  /**
   * Discounts a manager approved when they were entered, claimed by the guard for this checkout: the
   * checkout marks them used in the order's transaction (electron/sales/discount-approvals.ts).
   */
  readonly discountApprovals?: readonly number[];
}

/** The approving manager of a command whose rule asks for one (the guard verified the PIN before the handler). */
export function approverOf(caller: Caller | undefined): Person {
  if (!caller?.approver)
    throw new CommandError('forbidden', 'approval_required', { field: 'managerPin' }, 'managerPin');
  return caller.approver;
}

/**
 * The name a document (sale, advance, final, refund, copy) is issued under: the person logged in at the till,
 * never a name the caller sends. A manager who approves is the approver in the audit row, not the cashier
 * (docs/manager.md, "Who is named on a document"). Every document command needs a session, so the guard
 * refused a call without one before its handler; this is the handler's own check.
 */
export function cashierOf(caller: Caller | undefined): string {
  if (!caller?.actor) throw new CommandError('forbidden', 'session_required', { field: 'session' }, 'session');
  return caller.actor.name;
}

/** A service's way into the staff's audit log (core.ts wires it to StaffService.audit). */
export interface AuditDeps {
  audit(actor: string | null, action: string, detail: Record<string, unknown>, approver: string | null): void;
}

/**
 * The person a back-office record names (who posted a receipt, started a count, scheduled a price): the manager
 * who approved the call, else the person logged in. The goods, stock-taking, price and label services record it
 * the same way, so the rule is written once.
 */
export function personOf(caller: Caller | undefined): string | null {
  return caller?.approver?.name ?? caller?.actor?.name ?? null;
}

/** The audit row of a back-office command: the person logged in as its actor, {@link personOf} as its approver. */
export function auditCall(
  deps: AuditDeps,
  caller: Caller | undefined,
  action: string,
  detail: Record<string, unknown>,
): void {
  deps.audit(caller?.actor?.name ?? null, action, detail, personOf(caller));
}

const storage = new AsyncLocalStorage<CallContext>();

export function runInCall<T>(context: CallContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(context, fn);
}

export function currentCall(): CallContext | undefined {
  return storage.getStore();
}

/**
 * The till's current session: who logged in last on this core (one till, one person at a time). `onEnded` hears
 * of a session the core ended itself (its person deactivated), so the counter can return to the login at once.
 */
export class Sessions {
  #current: Person | null = null;
  readonly #onEnded: ((person: Person) => void) | undefined;
  constructor(onEnded?: (person: Person) => void) {
    this.#onEnded = onEnded;
  }
  get current(): Person | null {
    return this.#current;
  }
  set(person: Person): void {
    this.#current = person;
  }
  clear(): void {
    this.#current = null;
  }
  /** Ends the session of a person who was deactivated (not a logout): `onEnded` is told. */
  end(): void {
    const person = this.#current;
    this.#current = null;
    if (person) this.#onEnded?.(person);
  }
}
