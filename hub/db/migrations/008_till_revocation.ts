import type { HubMigration } from './index.ts';

/**
 * Revoking a till and expiring enrolment codes (#25). `tills.revoked_at`: a manager revoked the till's
 * credential at the hub; every till route refuses it from then on. `enrol_codes.expires_at` (epoch ms): a
 * code is refused after it (24 h by default); codes made before this migration get 24 h from now.
 */
export const h008: HubMigration = {
  name: 'till_revocation',
  statements: [
    `ALTER TABLE tills ADD COLUMN revoked_at text`,
    `ALTER TABLE enrol_codes ADD COLUMN expires_at bigint`,
    `UPDATE enrol_codes SET expires_at = (extract(epoch FROM now()) * 1000)::bigint + 86400000`,
    `ALTER TABLE enrol_codes ALTER COLUMN expires_at SET NOT NULL`,
  ],
};
