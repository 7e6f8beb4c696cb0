import type { HubMigration } from './index.ts';

/**
 * A staff change a till pushed and the hub refused (#25: nothing a till can forge; hub/service.ts `pushedStaff`)
 * is kept with its answer, so a replay of the event (the till never got the answer) is answered the same, as a
 * refused invoice claim is (migration 5). The event itself may be pruned (hub/events.ts); its answer stays.
 */
export const h020: HubMigration = {
  name: 'staff_refusals',
  statements: [
    `CREATE TABLE staff_refusals (
       till_id integer NOT NULL REFERENCES tills(id), seq int8 NOT NULL, code text NOT NULL, field text NOT NULL,
       message text NOT NULL, at timestamptz NOT NULL, PRIMARY KEY (till_id, seq))`,
  ],
};
