/**
 * From a command to its handler, and the events back: both transports (Electron IPC in main.ts, the HTTP
 * host in host/) call `dispatch` and subscribe here; neither holds any business logic.
 *
 * Every area of the contract (shared/contract/<area>.ts) has one handlers file beside its code that builds
 * exactly that area's handlers with `areaHandlers`. The core composes them once (`composeHandlers`): a
 * name two areas provide, or a command none provides, stops the start-up, and the composed table is
 * frozen, so the handler a reader finds in the area's file is the one that runs.
 */
import {
  areaOf,
  commands,
  type AppError,
  type Area,
  type AreaCommandName,
  type CommandName,
  type CommandParsedInput,
  type CommandResult,
  type EventMessage,
  type EventName,
  type EventPayload,
  type Result,
} from '../shared/contract/index.ts';
import type { Language } from '../shared/domain.ts';
import { CommandError, toAppError, zodToAppError } from './errors.ts';
import type { Caller } from './auth/context.ts';
import type { Guard } from './auth/guard.ts';

export type { Caller } from './auth/context.ts';

/**
 * One command's handler: its parsed input, and who it runs for (the guard already authorized the call; a
 * handler called directly, as in a unit test, has no caller).
 */
export type Handler<N extends CommandName> = (
  input: CommandParsedInput<N>,
  caller?: Caller,
) => Promise<CommandResult<N>>;

/** Exactly the commands of one area, each with its handler. */
export type AreaHandlerMap<A extends Area> = { [N in AreaCommandName<A>]: Handler<N> };

/** The key under which an area's handler map names its area (not enumerable: not a command). */
export const AREA: unique symbol = Symbol('area');

/** An area's handlers as its handlers file builds them: the map of its commands, tagged with the area. */
export type AreaHandlers<A extends Area> = AreaHandlerMap<A> & { readonly [AREA]: A };

/** Any area's handlers, as composition takes them (each input type is its area's business). */
export type SomeAreaHandlers = { readonly [AREA]: Area } & Readonly<
  Record<string, (input: never, caller?: Caller) => Promise<unknown>>
>;

/** The one way an area's handlers file declares its handlers. */
export function areaHandlers<A extends Area>(area: A, handlers: AreaHandlerMap<A>): AreaHandlers<A> {
  return Object.defineProperty(handlers, AREA, { value: area, enumerable: false }) as AreaHandlers<A>;
}

/** Every command's handler by name. */
export type Handlers = { readonly [N in CommandName]: Handler<N> };

/** The composed handlers and, per command, the area whose handlers file provides it. */
export interface HandlerTable {
  readonly handlers: Handlers;
  readonly providers: ReadonlyMap<CommandName, Area>;
}

/**
 * Composes the areas' handlers into one frozen table. Throws when two areas provide the same command, when
 * an area provides a command of another area or one the contract does not have, or when a command has no
 * handler: each is a wiring mistake to catch at start-up, not at the first call.
 */
export function composeHandlers(parts: readonly SomeAreaHandlers[]): HandlerTable {
  const table: Record<string, unknown> = {};
  const providers = new Map<CommandName, Area>();
  for (const part of parts) {
    const area = part[AREA];
    for (const [name, handler] of Object.entries(part)) {
      if (!Object.hasOwn(commands, name)) throw new Error(`handler for ${name} (${area}): no such command`);
      const command = name as CommandName;
      const earlier = providers.get(command);
      if (earlier !== undefined) throw new Error(`duplicate handler for ${name} (${earlier} and ${area})`);
      if (areaOf(command) !== area)
        throw new Error(`handler for ${name} in area ${area}: it belongs to ${areaOf(command)}`);
      providers.set(command, area);
      table[name] = handler;
    }
  }
  const missing = (Object.keys(commands) as CommandName[]).filter((n) => !providers.has(n));
  if (missing.length > 0) throw new Error(`no handler for ${missing.join(', ')}`);
  return { handlers: Object.freeze(table) as Handlers, providers };
}

export interface DispatchDeps {
  table: HandlerTable;
  guard: Guard;
  language(): Language;
  logError(message: string): void;
}

/** Validates `input` with the command's schema, authorizes it and runs its handler. Never throws. */
export function createDispatch(deps: DispatchDeps): (name: string, input: unknown) => Promise<Result<unknown>> {
  const { handlers } = deps.table;
  return async (name, input) => {
    const lang = deps.language();
    if (!Object.hasOwn(commands, name)) {
      const error: AppError = {
        code: 'not_found',
        message: toAppError(new CommandError('not_found', 'unknown_command', { field: name }), lang).message,
      };
      return { ok: false, error };
    }
    const command = name as CommandName;
    let split: ReturnType<Guard['split']>;
    try {
      split = deps.guard.split(input);
    } catch (err) {
      return { ok: false, error: toAppError(err, lang) };
    }
    const parsed = commands[command].input.safeParse(split.input ?? {});
    if (!parsed.success) return { ok: false, error: zodToAppError(parsed.error, lang) };
    try {
      const handler = handlers[command] as (input: unknown, caller: Caller) => Promise<unknown>;
      return { ok: true, value: await deps.guard.run(command, parsed.data, split.approval, handler) };
    } catch (err) {
      return { ok: false, error: toAppError(err, lang, deps.logError) };
    }
  };
}

/** The contract's events: one emitter for the services, any number of listeners (the transports). */
export interface Events {
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  /** Every event, to one listener; returns the unsubscribe function. */
  subscribe(listener: (message: EventMessage) => void): () => void;
}

export function createEvents(logError: (message: string) => void): Events {
  const listeners = new Set<(m: EventMessage) => void>();
  return {
    emit(name, payload) {
      const message = { name, payload } as EventMessage;
      for (const l of listeners) {
        try {
          l(message);
        } catch (err) {
          logError(`event listener failed: ${String(err)}`);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
