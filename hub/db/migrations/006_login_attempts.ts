import type { HubMigration } from './index.ts';

/**
 * Hub login like the till's (#25): PIN attempt counters per scope (`source:<address>`, `shop:<id>`), counted
 * before the compare (hub/attempts.ts, the counting shared with the till in shared/auth/attempts.ts). Times
 * are epoch milliseconds, as on the till.
 */
export const h006: HubMigration = {
  name: 'login_attempts',
  statements: [
    `CREATE TABLE auth_attempts (
       scope text PRIMARY KEY, failures integer NOT NULL DEFAULT 0, lockouts integer NOT NULL DEFAULT 0,
       locked_until bigint NOT NULL DEFAULT 0, updated_at bigint NOT NULL)`,
  ],
};
