import type { z } from 'zod';

/** A contract command: its input schema, its documented guarantee, and (as a type only) its result. */
export interface CommandDef<I extends z.ZodType, R> {
  readonly input: I;
  readonly doc: string;
  /** Type-level only: never read at run time. */
  readonly __result?: R;
}

/** `command<Result>()(InputSchema, 'what it guarantees')`. */
export function command<R>() {
  return <I extends z.ZodType>(input: I, doc: string): CommandDef<I, R> => ({ input, doc });
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
