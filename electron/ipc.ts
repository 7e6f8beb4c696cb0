/**
 * The Electron transport: one IPC handler per contract command, registered through one wrapper that
 * checks the sender, lets the core validate the input, and always answers `{ok, value} | {ok:false, error}`.
 */
import { COMMAND_NAMES, type Result } from '../shared/contract/index.ts';
import type { Core } from './core.ts';
import { channelOf } from './ipc-channels.ts';

// The channel names are shared with the preload through ipc-channels.ts (one definition, both ends).
export { channelOf, EVENT_CHANNEL } from './ipc-channels.ts';

/** The part of Electron's ipcMain this needs (so it is testable without Electron). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, input: unknown) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}
export interface IpcEventLike {
  senderFrame: { url: string } | null;
}

/** Only the app's own pages (app://kasa/…) may call commands. */
export function isTrustedSender(event: IpcEventLike): boolean {
  const url = event.senderFrame?.url;
  if (!url) return false;
  try {
    const u = new URL(url);
    return u.protocol === 'app:' && u.host === 'kasa';
  } catch {
    return false;
  }
}

export function registerCommands(ipcMain: IpcMainLike, core: Pick<Core, 'dispatch' | 'logger'>): () => void {
  for (const name of COMMAND_NAMES) {
    ipcMain.handle(channelOf(name), async (event, input): Promise<Result<unknown>> => {
      if (!isTrustedSender(event)) {
        core.logger.warn(`ipc: refused ${name} from ${event.senderFrame?.url ?? 'unknown sender'}`);
        return { ok: false, error: { code: 'forbidden', message: 'untrusted sender' } };
      }
      return core.dispatch(name, input);
    });
  }
  return () => COMMAND_NAMES.forEach((n) => ipcMain.removeHandler(channelOf(n)));
}
