/**
 * The customer display's tokens (docs/payments.md, "The customer display"): a manager makes one per tablet; the
 * browser host lets it open the display stream and nothing else. Only the SHA-256 of a token is kept (32 random
 * bytes: a hash without a salt is enough against a stolen database), the secret is shown once. A revoked token is
 * refused from then on and its open streams are closed (`onRevoked`).
 */
import crypto from 'node:crypto';
import type { DisplayTokenView } from '../../shared/contract/index.ts';
import type { Language } from '../../shared/domain.ts';
import type { Db } from '../db/open.ts';
import { CommandError } from '../errors.ts';

interface Row {
  id: number;
  label: string;
  language: Language;
  created_at: string;
  created_by: string | null;
  revoked_at: string | null;
}

const view = (r: Row): DisplayTokenView => ({
  id: r.id,
  label: r.label,
  language: r.language,
  createdAt: r.created_at,
  createdBy: r.created_by,
  revokedAt: r.revoked_at,
});

const sha256 = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

export interface DisplayTokens {
  list(): DisplayTokenView[];
  create(label: string, language: Language, by: string | null): DisplayTokenView & { token: string };
  revoke(id: number): DisplayTokenView;
  /** The display a token opens, or null (unknown, revoked, malformed). */
  verify(token: string | null | undefined): { id: number; language: Language } | null;
  /** Called with a token's id when it is revoked; returns the unsubscribe function. */
  onRevoked(listener: (id: number) => void): () => void;
}

export function createDisplayTokens(db: Db, now: () => number): DisplayTokens {
  const q = {
    all: db.prepare<[], Row>('SELECT * FROM display_tokens ORDER BY id DESC'),
    one: db.prepare<[number], Row>('SELECT * FROM display_tokens WHERE id = ?'),
    byHash: db.prepare<[string], Row>('SELECT * FROM display_tokens WHERE token_sha256 = ? AND revoked_at IS NULL'),
    insert: db.prepare<[string, string, string, string, string | null]>(
      'INSERT INTO display_tokens (label, language, token_sha256, created_at, created_by) VALUES (?, ?, ?, ?, ?)',
    ),
    revoke: db.prepare<[string, number]>(
      'UPDATE display_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    ),
  };
  const revokedListeners = new Set<(id: number) => void>();
  return {
    list: () => q.all.all().map(view),
    create(label, language, by) {
      const token = crypto.randomBytes(32).toString('base64url');
      const id = Number(
        q.insert.run(label, language, sha256(token), new Date(now()).toISOString(), by).lastInsertRowid,
      );
      return { ...view(q.one.get(id) as Row), token };
    },
    revoke(id) {
      if (!q.one.get(id)) throw new CommandError('not_found', 'not_found', {}, 'id');
      q.revoke.run(new Date(now()).toISOString(), id);
      for (const l of revokedListeners) l(id);
      return view(q.one.get(id) as Row);
    },
    verify(token) {
      // A token is 43 base64url characters; anything else is not looked up.
      if (!token || !/^[\w-]{43}$/.test(token)) return null;
      const row = q.byHash.get(sha256(token));
      return row ? { id: row.id, language: row.language } : null;
    },
    onRevoked(listener) {
      revokedListeners.add(listener);
      return () => revokedListeners.delete(listener);
    },
  };
}
