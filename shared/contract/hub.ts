/** The store hub, as the till's manager sees it (owned by electron/hub; docs/hub.md). */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';

/** This till's link to the store hub. The credential is never part of it. */
export interface HubStatusView {
  /** A hub URL is set (KASA_HUB_URL or an enrolment). */
  configured: boolean;
  url: string | null;
  enrolled: boolean;
  tillId: number | null;
  /** The hub's shop this till belongs to (from the enrolment). */
  shopId?: number | null;
  /** Changes not yet acknowledged by the hub. */
  pending: number;
  /** The master-data change cursor this till has applied up to. */
  cursor: number;
  lastOkAt: string | null;
  /** When the hub last acknowledged a push of this till's history, and when master data was last pulled. */
  lastPushAt?: string | null;
  lastPullAt?: string | null;
  lastError: string | null;
  /** Sequence ranges the hub reports it never received from this till. */
  gaps: { from: number; to: number }[];
  /**
   * The hub refused this till's changes: an alarm. `stuck`: the oldest waiting change (`seq`) was refused
   * whole; it stays on this till with the changes after it, offered again now and then (`retryAt`). Not
   * stuck: the hub took the change but did not store its order (`invoice_claimed`: its invoice number is
   * another order's at the hub). The till's own order is never touched. Absent or null: nothing refused.
   */
  refused?: HubRefusedView | null;
}

export interface HubRefusedView {
  at: string;
  seq: number;
  /** The hub's code: `invalid_order`, `invalid_text`, `invalid_value`, `batch_altered`, `invoice_claimed` … */
  code: string;
  stuck: boolean;
  /** Stuck only: when the till offers the batch again. */
  retryAt?: string | null;
}

export const hubCommands = {
  'hub.status': command<HubStatusView>()(
    z.strictObject({}),
    "This till's link to the store hub: enrolled, backlog, last sync, gaps.",
    { auth: 'session' },
  ),
  'hub.enrol': command<{ tillId: number; shopId: number }>()(
    z.strictObject({
      managerPin: s.pin,
      url: z
        .string({ error: 'text' })
        .trim()
        .url({ error: 'url' })
        .regex(/^https?:\/\//, { error: 'url' })
        .max(300, { error: 'too_long' }),
      code: z.string({ error: 'text' }).trim().min(6, { error: 'required' }).max(64, { error: 'too_long' }),
    }),
    'Enrols this till with a store hub using a one-time code (manager only, audited); the hub credential is ' +
      'stored like the API key and sync starts at once. A till already enrolled is refused.',
    { auth: 'manager' },
  ),
} as const;

/** What was done at the hub, as its audit log (hub/audit.ts) records it and the hub UI names it. */
export type HubAuditAction =
  | 'login'
  | 'login_locked'
  | 'logout'
  | 'shop_create'
  | 'enrol_code'
  | 'products'
  | 'settings'
  | 'staff'
  | 'till_revoke'
  | 'claims_clear';

/** One entry of the hub's audit log, as `GET /api/admin/audit` answers it. */
export interface HubAuditEntry {
  id: number;
  at: string;
  shopId: number | null;
  actor: string;
  action: HubAuditAction;
  detail: Record<string, string | number | boolean | null>;
}
