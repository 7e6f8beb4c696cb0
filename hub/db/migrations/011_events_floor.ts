import type { HubMigration } from './index.ts';

/**
 * Acknowledged history is pruned (#25, hub/events.ts): `tills.events_floor` is the sequence up to which a till's
 * events were all received (no gap below it) and deleted from `till_events` once older than the keep period.
 * A replay at or below it is acknowledged as a duplicate; gaps are looked for above it only.
 */
export const h011: HubMigration = {
  name: 'events_floor',
  statements: [`ALTER TABLE tills ADD COLUMN events_floor bigint NOT NULL DEFAULT 0`],
};
