/** The audit log: who did what, and which manager approved it. */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';

export interface AuditEntry {
  id: number;
  at: string;
  actor: string | null;
  /** The manager who approved the action, when one did. */
  approver: string | null;
  action: string;
  detail: string | null;
}

// Optional: a manager logged in at this till is not asked for her PIN again (electron/auth/guard.ts `selfApprover`).
const { managerPin } = s;

export const auditCommands = {
  'audit.list': command<{ entries: AuditEntry[]; total: number }>('manager')(
    z.strictObject({ managerPin, limit: s.pageLimit.optional(), offset: z.number().int().min(0).optional() }),
    'The audit log, newest first (managers only).',
  ),
} as const;
