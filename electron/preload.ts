/**
 * The sandboxed preload (built as CommonJS): exposes `window.pos`, one function per contract command
 * and `on(event, listener)` for contract events. Nothing generic: no channel names, no raw IPC.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { COMMAND_NAMES, EVENT_NAMES } from '../shared/contract/index.ts';
import { channelOf, EVENT_CHANNEL } from './ipc-channels.ts';

/** Builds the object exposed as `window.pos`. */
export function buildPosApi(
  renderer: Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>,
): Record<string, unknown> {
  const api: Record<string, unknown> = {};
  for (const name of COMMAND_NAMES) {
    const channel = channelOf(name);
    api[name] = (input: unknown) => renderer.invoke(channel, input ?? {});
  }
  const eventNames = new Set<string>(EVENT_NAMES);
  api['on'] = (event: string, listener: (payload: unknown) => void) => {
    if (!eventNames.has(event)) throw new Error(`unknown event ${event}`);
    const handler = (_e: IpcRendererEvent, message: { name: string; payload: unknown }) => {
      if (message?.name === event) listener(message.payload);
    };
    renderer.on(EVENT_CHANNEL, handler);
    return () => renderer.removeListener(EVENT_CHANNEL, handler);
  };
  return Object.freeze(api);
}

if (contextBridge && ipcRenderer) contextBridge.exposeInMainWorld('pos', buildPosApi(ipcRenderer));
