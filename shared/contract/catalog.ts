/** Catalog commands (owned by electron/catalog). */
export const catalogCommands = {} as const;
export const catalogEvents = {} as const;
