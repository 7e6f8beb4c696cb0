/** Printing commands and events (owned by electron/printer). */
export const printerCommands = {} as const;
export const printerEvents = {} as const;
