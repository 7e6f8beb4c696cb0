import type { Migration } from '../open.ts';

/**
 * The customer display's tokens (issue 41 §3, electron/display/tokens.ts): a tablet on the shop's LAN opens the
 * browser host's display stream with one. Only the token's SHA-256 is kept; a revoked token stays listed.
 */
export const m032: Migration = {
  name: 'display_tokens',
  up(db) {
    db.exec(`
      CREATE TABLE display_tokens (
        id INTEGER PRIMARY KEY,
        label TEXT NOT NULL,
        language TEXT NOT NULL CHECK (language IN ('sr-Cyrl', 'sr-Latn', 'en')),
        token_sha256 TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        created_by TEXT,
        revoked_at TEXT
      );
    `);
  },
};
