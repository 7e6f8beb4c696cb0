/**
 * The IPC channel names, in one module that both ends import: the main process (ipc.ts) and the sandboxed
 * preload (preload.ts; bundled into it, so it must stay free of Node and Electron imports).
 */

/** The IPC channel of a command. */
export const channelOf = (command: string): string => `pos:${command}`;

/** The one channel every contract event travels on. */
export const EVENT_CHANNEL = 'pos:event';
