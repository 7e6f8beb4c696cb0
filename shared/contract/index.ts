/**
 * The one contract between the UI and the core: every command (name, zod input schema, result type)
 * and every event. Both transports (Electron IPC and the HTTP host) carry exactly this and nothing else.
 */
import type { z } from 'zod';
import type { CommandDef, EventDef, Result } from './define.ts';
import type { Approval } from './authz.ts';
import { salesCommands, salesEvents } from './sales.ts';
import { printerCommands, printerEvents } from './printer.ts';
import { catalogCommands, catalogEvents } from './catalog.ts';
import { managerCommands, managerEvents } from './manager.ts';
import { retriesCommands } from './retries.ts';
import { hubCommands } from './hub.ts';

export * from './define.ts';
export { CheckoutInput, CheckoutLine } from './sales.ts';
export type { CheckoutResult, OrderListResult } from './sales.ts';

export const commands = {
  ...salesCommands,
  ...printerCommands,
  ...catalogCommands,
  ...managerCommands,
  ...retriesCommands,
  ...hubCommands,
} as const;

export const events = {
  ...salesEvents,
  ...printerEvents,
  ...catalogEvents,
  ...managerEvents,
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type EventName = keyof typeof events;

export type CommandInput<N extends CommandName> = z.input<Commands[N]['input']>;
export type CommandParsedInput<N extends CommandName> = z.output<Commands[N]['input']>;
export type CommandResult<N extends CommandName> = Commands[N] extends CommandDef<z.ZodType, infer R> ? R : never;
export type EventPayload<E extends EventName> = (typeof events)[E] extends EventDef<infer P> ? P : never;

export const COMMAND_NAMES = Object.keys(commands) as CommandName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** A command's input plus the manager's approval the core may ask for (an empty input takes only that). */
export type WithApproval<T> = string extends keyof T ? { approval?: Approval } : T & { approval?: Approval };

/** The shape of `window.pos` and of the HTTP client: one function per command, one subscriber per event. */
export type PosApi = {
  [N in CommandName]: (input: WithApproval<CommandInput<N>>) => Promise<Result<CommandResult<N>>>;
} & {
  /** Subscribes to one event; returns the unsubscribe function. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** An event as it travels: its name and payload. */
export type EventMessage = { [E in EventName]: { name: E; payload: EventPayload<E> } }[EventName];
