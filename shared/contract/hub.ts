/** The store hub, as the till's manager sees it (owned by electron/hub; docs/hub.md). */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import { normalizeFingerprint } from '../hub/fingerprint.ts';

/** The SHA-256 of the hub's certificate as a person types it (grouped hex, colons, any case). */
const fingerprint = z
  .string({ error: 'text' })
  .trim()
  .max(200, { error: 'too_long' })
  .refine((v) => normalizeFingerprint(v) !== null, { error: 'hub_fingerprint' });

const hubUrl = z
  .string({ error: 'text' })
  .trim()
  .url({ error: 'url' })
  .regex(/^https?:\/\//, { error: 'url' })
  .max(300, { error: 'too_long' });

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
  /** The SHA-256 of the hub's certificate this till pinned (64 hex digits); null for plain HTTP on loopback. */
  fingerprint?: string | null;
  /**
   * The hub showed another certificate (`seen`, 64 hex digits) than the pinned one: nothing was sent to it.
   * An alarm until a round works (the old certificate is back, or a manager pinned the new one).
   */
  pinMismatch?: { seen: string; at: string } | null;
  /**
   * After enrolment into a shop that already has products: both counts (`hubProducts` null when the hub could
   * not be asked), waiting for the manager's `hub.catalogChoice`; nothing is pulled until then.
   */
  catalogChoice?: { tillProducts: number; hubProducts: number | null } | null;
  /**
   * After enrolment into a shop that already has a manager: this till's people and the shop's (`hub` null when the
   * hub could not be asked), waiting for the manager's `hub.staffChoice`; nothing is pulled until then. Never a PIN
   * hash.
   */
  staffChoice?: {
    till: { id: string; name: string; role: 'cashier' | 'manager' }[];
    hub: { id: string; name: string; role: 'cashier' | 'manager'; active: boolean }[] | null;
  } | null;
  /**
   * This till's own goods book and the shop's at the hub (docs/goods.md "A till enrolled later brings its book"):
   * how many products the till's book holds on hand (not zero), and, once brought over as the shop's opening stock,
   * that document's number and when. Absent on a till not enrolled.
   */
  goodsOpening?: { tillLines: number; brought: { number: string; at: string } | null } | null;
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
  'hub.status': command<HubStatusView>('session')(
    z.strictObject({}),
    "This till's link to the store hub: enrolled, backlog, last sync, gaps.",
  ),
  'hub.enrol': command<{ tillId: number; shopId: number }>('manager')(
    z.strictObject({
      managerPin: s.pin,
      url: hubUrl,
      code: z.string({ error: 'text' }).trim().min(6, { error: 'required' }).max(64, { error: 'too_long' }),
      /** The SHA-256 of the hub's certificate, as the hub shows it: required for an https URL, and pinned. */
      fingerprint: fingerprint.optional(),
    }),
    'Enrols this till with a store hub using a one-time code (manager only, audited); an https hub must show ' +
      'the certificate with the given fingerprint, which is pinned. The hub credential is stored like the API ' +
      'key and sync starts at once. A till already enrolled is refused.',
  ),
  'hub.catalogChoice': command<{ kept: 'hub' | 'till' }>('manager')(
    z.strictObject({ managerPin: s.pin, keep: z.enum(['hub', 'till'], { error: 'invalid' }) }),
    "The manager's choice after enrolling into a shop that has products (manager only, audited): `hub` keeps the " +
      "shop's catalog (the till's is replaced by it), `till` sends this till's catalog to the hub as the shop's.",
  ),
  'hub.staffChoice': command<{ mapped: number; added: number }>('session')(
    z.strictObject({
      /** The PIN of a manager of the shop at the hub: the hub checks it (this till may not know that person yet). */
      hubPin: s.pin,
      choices: z
        .array(
          z.strictObject({
            /** The till person's id. */
            id: z.string({ error: 'text' }).uuid({ error: 'invalid' }),
            /** The hub person they are (the till takes their id, PIN and role); absent or null: add as new. */
            hubId: z.string({ error: 'text' }).uuid({ error: 'invalid' }).nullable().optional(),
            /** Add as new under this name (theirs when absent), refused when another person has it. */
            name: s.text(100).optional(),
          }),
        )
        .max(10_000, { error: 'too_long' }),
    }),
    "The manager's staff choice after enrolling into a shop that has a manager (audited): each of this till's " +
      "people is mapped to a person of the hub or added there as new. The hub checks the manager's PIN against " +
      "its own managers (`hubPin`); a name taken by another person is refused at that person's field. A manager's " +
      'session at this till asks.',
  ),
  'hub.repin': command<{ fingerprint: string }>('manager')(
    z.strictObject({ managerPin: s.pin, fingerprint, url: hubUrl.optional() }),
    'Pins a new certificate of the hub (a shop that replaced it) and optionally its new URL, once the hub shows ' +
      'exactly that certificate (manager only, audited). The till stays enrolled.',
  ),
  'hub.goodsOpening': command<{ number: string }>('manager')(
    z.strictObject({ managerPin: s.pin }),
    "Brings this till's own goods book to its shop at the hub as the opening stock (manager only, audited): each " +
      "product on hand at the shop's retail price and the till's purchase price. The hub checks the manager's PIN " +
      'against its own managers, refuses a shop whose book has movements already, and makes it once (a resend ' +
      "answers the same document). From then on the till's own book is no longer the shop's.",
  ),
} as const;

/** What was done at the hub, as its audit log (hub/audit.ts) records it and the hub UI names it. */
export type HubAuditAction =
  | 'login'
  | 'login_locked'
  | 'logout'
  | 'shop_create'
  | 'enrol_code'
  | 'enrol_code_revoke'
  | 'products'
  | 'products_bulk_price'
  | 'catalog_adopt'
  | 'settings'
  | 'staff'
  | 'staff_deactivate'
  | 'staff_reactivate'
  | 'staff_pin'
  | 'staff_own_pin'
  | 'staff_create'
  | 'staff_adopt'
  | 'staff_till'
  | 'staff_refused'
  | 'till_revoke'
  | 'claims_clear'
  | 'goods_receipt'
  | 'goods_writeoff'
  | 'goods_price_change'
  | 'goods_transfer_out'
  | 'goods_transfer_in'
  | 'prices_list'
  | 'prices_promotion'
  | 'prices_schedule'
  | 'prices_delete'
  | 'goods_supplier'
  | 'goods_shop_identity'
  | 'goods_count_start'
  | 'goods_count_post'
  | 'goods_count_cancel'
  | 'goods_receipt_draft'
  | 'goods_receipt_draft_delete'
  | 'goods_receipt_reverse'
  | 'goods_minimum'
  | 'goods_opening'
  | 'export_accounts'
  | 'sef_issue'
  | 'sef_found'
  | 'sef_refused'
  | 'sef_final'
  | 'sef_retry'
  | 'sef_cancel'
  | 'sef_storno';

/** One entry of the hub's audit log, as `GET /api/admin/audit` answers it. */
export interface HubAuditEntry {
  id: number;
  at: string;
  shopId: number | null;
  actor: string;
  action: HubAuditAction;
  detail: Record<string, string | number | boolean | null>;
}
