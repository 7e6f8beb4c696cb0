/** The database backups and the start-up integrity check. */
import { z } from 'zod';
import { command, managerOnly } from './define.ts';
import * as s from './schemas.ts';

export interface BackupsView {
  /** `chain`: a restore point's type and the point it is built on (absent: a whole-database `.sqlite` copy). */
  backups: {
    name: string;
    kind: string;
    createdAt: string;
    bytes: number;
    chain?: { type: string; parent: string | null };
  }[];
  /** `pending`: the check runs in the background after start-up and has not finished yet. */
  integrity: { ok: boolean; problems: string[]; pending?: boolean };
  lastBackupError: string | null;
}

// Optional: a manager logged in at this till is not asked for her PIN again (electron/auth/guard.ts `selfApprover`).
const { managerPin } = s;

export const backupsCommands = {
  'backups.list': managerOnly<BackupsView>(
    'The database backups (daily, the last 7 kept) and what the start-up integrity check found.',
  ),
  'backups.restore': command<{ restartRequired: true; name: string }>('manager')(
    z.strictObject({ managerPin, name: z.string({ error: 'text' }).regex(/^[\w.-]{1,100}$/, { error: 'invalid' }) }),
    'Stages a backup (checked with integrity_check first) to replace the database at the next start; ' +
      'the current database is kept as a pre-restore copy. Audited.',
  ),
  'backups.create': managerOnly<{ name: string; createdAt: string; bytes: number }>(
    'Takes a backup now (a restore point, as the daily one; refused while the integrity check found problems). Audited.',
  ),
  'backups.copy': command<{ name: string; file: string }>('manager')(
    z.strictObject({
      managerPin,
      name: z.string({ error: 'text' }).regex(/^[\w.-]{1,100}$/, { error: 'invalid' }),
      // A folder on this till (a USB drive, a share) the manager names: absolute, existing and writable is
      // checked by the core; the copy never overwrites a file there (docs/reliability.md).
      folder: s.text(1000),
    }),
    'Copies a backup, as a whole database file that stands alone, into a folder on this till; never overwrites. Audited.',
  ),
} as const;
