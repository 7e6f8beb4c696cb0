import { z } from 'zod';
import { id, managerPin } from './schemas.ts';

/**
 * Who may run a command; the core's guard (electron/auth/guard.ts) checks it before any handler runs.
 * - `public`: anyone who reaches the core (the login screen, status bar).
 * - `session`: the person logged in at the till (cashier or manager) whose PIN is not the first-run 0000.
 * - `manager`: an active manager's PIN travels with the command (`managerPin`, or `approval.managerPin`).
 * - `approval`: a logged-in person's action approved by a manager: the session and a manager's PIN.
 * Some `session` commands need more by their input: see `escalation` in authz.ts.
 */
export type AuthRule = 'public' | 'session' | 'manager' | 'approval';

/** A contract command: its input schema, its documented guarantee, its rule, and (as a type only) its result. */
export interface CommandDef<I extends z.ZodType, R> {
  readonly input: I;
  readonly doc: string;
  readonly auth: AuthRule;
  /** Type-level only: never read at run time. */
  readonly __result?: R;
}

/**
 * `command<Result>('session')(InputSchema, 'what it guarantees')`: who may run it stands beside what it answers;
 * the input's type is inferred from its schema.
 */
export function command<R>(auth: AuthRule) {
  return <I extends z.ZodType>(input: I, doc: string): CommandDef<I, R> => ({ input, doc, auth });
}
/**
 * A manager's command whose input is only the manager's PIN (a manager's view or a manager's action on the whole
 * till): `managerOnly<Result>('what it guarantees')`.
 */
export function managerOnly<R>(doc: string) {
  return command<R>('manager')(z.strictObject({ managerPin }), doc);
}
/** A manager's action on one record named by its id (post, reverse, cancel, delete): `managerOnRecord<Result>(doc)`. */
export function managerOnRecord<R>(doc: string) {
  return command<R>('manager')(z.strictObject({ managerPin, id }), doc);
}
/** A contract event: its payload type, documented. */
export interface EventDef<P> {
  readonly doc: string;
  readonly __payload?: P;
}

export function event<P>(doc: string): EventDef<P> {
  return { doc };
}

/** Errors every command may return instead of a value. Anything unexpected becomes `internal`. */
export type AppError =
  | {
      code: 'invalid_input';
      /** Dotted path of the first offending field, e.g. `lines.0.unitPrice`. */
      field: string;
      message: string;
      issues: { field: string; message: string }[];
    }
  | { code: 'not_found'; message: string }
  | { code: 'conflict'; message: string }
  | {
      code: 'forbidden';
      message: string;
      /** What is missing, when the UI can supply it: `approval.managerPin` (ask a manager, send it again). */
      field?: string;
    }
  | { code: 'unavailable'; message: string }
  | { code: 'storage'; message: string }
  | { code: 'internal'; message: string };

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };
