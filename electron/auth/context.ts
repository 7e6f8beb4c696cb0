/**
 * The identity of one command call as the core established it (issue #12): the person logged in at the
 * till (the session) and the manager whose PIN approved it. Carried through the handler with
 * AsyncLocalStorage, so a handler that asks for the manager again is not asked to hash the PIN twice.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StaffRole } from '../../shared/contract/manager.ts';

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

const storage = new AsyncLocalStorage<CallContext>();

export function runInCall<T>(context: CallContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(context, fn);
}

export function currentCall(): CallContext | undefined {
  return storage.getStore();
}

/** The till's current session: who logged in last on this core (one till, one person at a time). */
export class Sessions {
  #current: Person | null = null;
  get current(): Person | null {
    return this.#current;
  }
  set(person: Person): void {
    this.#current = person;
  }
  clear(): void {
    this.#current = null;
  }
}
