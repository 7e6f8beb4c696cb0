/**
 * An in-memory `PosApi` for component and store tests: every command answers `internal` unless a test
 * gives it a handler; `emit` plays events to subscribers.
 */
import {
  COMMAND_NAMES,
  type CommandInput,
  type CommandName,
  type CommandResult,
  type EventName,
  type EventPayload,
  type PosApi,
  type Result,
} from '../../../shared/contract/index.ts';

export type FakeHandlers = {
  [N in CommandName]?: (input: CommandInput<N>) => Result<CommandResult<N>> | Promise<Result<CommandResult<N>>>;
};

export interface FakeApi {
  api: PosApi;
  /** Every call, in order: the command and its input. */
  calls: { name: CommandName; input: unknown }[];
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
}

/** `{ok:true,value}` shorthand. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function createFakeApi(handlers: FakeHandlers): FakeApi {
  const calls: FakeApi['calls'] = [];
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  const api: Record<string, unknown> = {};
  for (const name of COMMAND_NAMES) {
    api[name] = async (input: unknown) => {
      calls.push({ name, input });
      const h = handlers[name] as ((i: unknown) => Result<unknown> | Promise<Result<unknown>>) | undefined;
      if (!h) return { ok: false, error: { code: 'internal', message: `fake: no handler for ${name}` } };
      return h(input);
    };
  }
  api.on = (name: EventName, listener: (p: unknown) => void) => {
    const set = listeners.get(name) ?? new Set();
    listeners.set(name, set);
    set.add(listener);
    return () => set.delete(listener);
  };
  return {
    api: api as PosApi,
    calls,
    emit(name, payload) {
      for (const l of listeners.get(name) ?? []) l(payload);
    },
  };
}
