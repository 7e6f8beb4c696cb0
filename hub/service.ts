/**
 * The hub's rules: enrolment, till credentials, ingest of the tills' history (exactly once, gaps found),
 * master data with a change cursor, lookups across the shop's tills, status and the shop's day.
 * The hub never fiscalizes: it stores what the tills report.
 */
import crypto from 'node:crypto';
import type { z } from 'zod';
import { dbError, isDataException, type HubDb, type Queryable } from './db/db.ts';
import { hubReport, tillLive, type HubReport, type TillLive } from './reports.ts';
import { hubReceipts } from './report-receipts.ts';
import type { ReceiptRow } from '../shared/reports/receipts.ts';
import { orderFacts } from './report-facts.ts';
import { DEFAULT_HUB_TIME_ZONE, closeDays, markDirty } from './report-days.ts';
import { pruneEvents } from './events.ts';
import { recordAudit } from './audit.ts';
import { checkedPersonName } from './person-names.ts';
import { listEnrolCodes, revokeEnrolCode, type EnrolCodeRow, type EnrolCodeState } from './enrol-codes.ts';
import {
  countedRefund,
  checkEventTimes,
  checkTillCatalog,
  countedFacts,
  holdUnproven,
  unprovenRefusal,
  maintenanceAlarm,
  shopTaxLabels,
  tillActor,
  tillNameRefusal,
  type MaintenanceAlarm,
} from './till-trust.ts';
import {
  OrderSnapshot,
  ShiftSnapshot,
  StaffSnapshot,
  TillRefusal,
  TillStatus,
  type ReportInput,
  type ChangesResult,
  type HubOrder,
  type LookupInput,
  type ProductInput,
  type PushInput,
  type PushRefusal,
  type PushResult,
  type ShopSettings,
  type StaffInput,
  type HubStaffRow,
  type HubPerson,
  type StaffSnapshot as StaffSnapshotRow,
  type TillPerson,
} from '../shared/hub/protocol.ts';
import { MIN_MANAGER_PIN_DIGITS, staffChangeRefusal } from '../shared/contract/staff.ts';
import { foldText } from '../shared/catalog/fold.ts';
import { hashPin, verifyPin } from '../shared/node/pin.ts';
import { makeVerifiers, tillPinKey, verifierAt } from './pin-verifiers.ts';
import { MANAGER_PIN_TEXT, managerPinProblem } from '../shared/staff/pin-strength.ts';
import { HubError } from '../shared/hub/protocol.ts';
import { changePriceByPercent } from '../shared/catalog/price-change.ts';
import { catalogCsv } from '../shared/catalog/csv-export.ts';
import type { Language } from '../shared/domain.ts';

export { HubError };

/** The hub's own words for a staff refusal (for API users; the hub UI translates the code). */
const refusalText = {
  staff_self: 'a manager cannot deactivate themself: another manager does that',
  last_manager: 'the last active manager of the shop stays active',
} as const;

export interface AuthedTill {
  id: number;
  shopId: number;
  name: string;
}

const sha256 = (s: string): string => crypto.createHash('sha256').update(s).digest('hex');
const CRED_PREFIX = 'kh1';

/** A till's history event digest: the same event always hashes the same; an altered one does not. */
export const eventDigest = (e: { kind: string; ref: string; payload: unknown }): string =>
  sha256(JSON.stringify([e.kind, e.ref, e.payload]));

/**
 * The payloads of one kind in a batch, parsed, at their events' places (null at the other kinds'); the first
 * that does not parse refuses the whole batch (400 `code`, naming the field: `events.3.payload.data.lines.0.labels`,
 * where 3 is the event's place in the batch as the till sent it).
 */
function payloads<T>(
  events: readonly { kind: string; payload: unknown }[],
  sent: readonly unknown[],
  kind: string,
  schema: z.ZodType<T>,
  code: string,
): (T | null)[] {
  return events.map((e) => {
    if (e.kind !== kind) return null;
    const parsed = schema.safeParse(e.payload);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = [`events.${sent.indexOf(e)}.payload`, ...(issue?.path ?? []).map(String)].join('.');
      throw new HubError(400, code, `${field}: ${issue?.message ?? 'invalid'}`, field);
    }
    return parsed.data;
  });
}

/** The order's upsert failed on the shop's invoice-number index: another order holds the number. */
const isInvoiceClaimed = (err: unknown): boolean => {
  const e = dbError(err);
  return e?.state === '23505' && e.constraint === 'order_keys_shop_invoice';
};

/** Text safe to store whatever a refusal quoted (a NUL or a lone surrogate becomes U+FFFD). */
const storable = (s: string): string => s.replace(/\0/g, '\uFFFD').replace(LONE_SURROGATES, '\uFFFD');
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The answer for an order whose invoice number another order of the shop holds (`place`: its place in the batch). */
const claimRefusal = (seq: number, place: number, invoiceNumber: string): PushRefusal => ({
  seq,
  code: 'invoice_claimed',
  field: `events.${place}.payload.invoice_number`,
  message: `invoice number ${invoiceNumber} belongs to another order of this shop: this order is not stored`,
});

/**
 * The refusal of an event the hub took before and refused (an invoice claim, a staff change), answered again to
 * its replay (the till never got the first answer); null when it was applied.
 */
async function replayRefusal(q: Queryable, tillId: number, seq: number, place: number): Promise<PushRefusal | null> {
  const claim = await q.query<{ invoice_number: string; code: string }>(
    'SELECT invoice_number, code FROM invoice_claims WHERE till_id = $1 AND seq = $2',
    [tillId, seq],
  );
  if (claim[0])
    return claim[0].code === 'invoice_unproven'
      ? unprovenRefusal(seq, place, claim[0].invoice_number)
      : claimRefusal(seq, place, claim[0].invoice_number);
  const staff = await q.query<{ code: string; field: string; message: string }>(
    'SELECT code, field, message FROM staff_refusals WHERE till_id = $1 AND seq = $2',
    [tillId, seq],
  );
  const r = staff[0];
  return r ? { seq, code: r.code, field: `events.${place}.payload.${r.field}`, message: r.message } : null;
}

/** A row of the hub's `products` table. */
interface ProductRow {
  code: string;
  name: string;
  price_para: number;
  label: string;
  unit: 'piece' | 'kg' | 'l';
  grp: string | null;
  favourite: boolean;
  barcodes: string[];
  deleted: boolean;
  version: number;
}

/** A product row as the contract names its fields. */
const productOf = (p: ProductRow) => ({
  code: p.code,
  name: p.name,
  pricePara: p.price_para,
  label: p.label,
  unit: p.unit,
  group: p.grp,
  favourite: p.favourite,
  barcodes: p.barcodes,
});

export interface HubServiceOptions {
  now?: () => Date;
  /** How long a new enrolment code may be spent (default 24 h; `KASA_HUB_ENROL_CODE_HOURS`). */
  enrolCodeTtlMs?: number;
  /** The shops' calendar day for stored day totals (hub/report-days.ts; `KASA_HUB_TIME_ZONE`). */
  timeZone?: string;
}

export const DEFAULT_ENROL_CODE_TTL_MS = 24 * 3600_000;

export function createHubService(db: HubDb, options: HubServiceOptions = {}) {
  const now = options.now ?? (() => new Date());
  const iso = (): string => now().toISOString();
  const codeTtl = options.enrolCodeTtlMs ?? DEFAULT_ENROL_CODE_TTL_MS;
  const zone = options.timeZone ?? DEFAULT_HUB_TIME_ZONE;

  async function tillById(
    q: Queryable,
    id: number,
  ): Promise<(AuthedTill & { cred_hash: string; last_seq: number; revoked: boolean }) | undefined> {
    const rows = await q.query<{
      id: number;
      shop_id: number;
      name: string;
      cred_hash: string;
      last_seq: number;
      revoked_at: string | null;
    }>('SELECT id, shop_id, name, cred_hash, last_seq, revoked_at FROM tills WHERE id = $1', [id]);
    const r = rows[0];
    return (
      r && {
        id: r.id,
        shopId: r.shop_id,
        name: r.name,
        cred_hash: r.cred_hash,
        last_seq: r.last_seq,
        revoked: r.revoked_at !== null,
      }
    );
  }

  /** Gaps in a till's received sequence, as ranges (above its pruned floor, hub/events.ts). */
  async function gapsOf(q: Queryable, tillId: number): Promise<{ from: number; to: number }[]> {
    const rows = await q.query<{ from_seq: number; to_seq: number }>(
      `WITH f AS (SELECT events_floor AS floor FROM tills WHERE id = $1)
       SELECT seq + 1 AS from_seq, next - 1 AS to_seq FROM (
         SELECT seq, lead(seq) OVER (ORDER BY seq) AS next FROM till_events WHERE till_id = $1 AND seq > (SELECT floor FROM f)
         UNION ALL SELECT (SELECT floor FROM f) AS seq,
                          (SELECT min(seq) FROM till_events WHERE till_id = $1 AND seq > (SELECT floor FROM f)) AS next
       ) s WHERE next > seq + 1 ORDER BY from_seq`,
      [tillId],
    );
    return rows.map((r) => ({ from: r.from_seq, to: r.to_seq }));
  }

  /** Why a till's status may not rename it (`status.name`), or null: another till's name, or a reserved word. */
  async function renameRefusal(
    q: Queryable,
    till: AuthedTill,
    name: string | undefined,
  ): Promise<{ code: string; field: string; message: string } | null> {
    if (name === undefined || name === till.name) return null;
    await q.query('SELECT pg_advisory_xact_lock($1, $2)', [715_012, till.shopId]);
    const no = await tillNameRefusal(q, till.shopId, till.id, name);
    return no && { ...no, field: 'status.name' };
  }

  /** Bumps the change cursor; callers hold the master-data lock so versions commit in order. */
  async function lockMasterData(q: Queryable): Promise<void> {
    await q.query('SELECT pg_advisory_xact_lock(715002)');
  }

  /**
   * A new PIN checked by the till's rules and hashed (the PIN is never stored or logged): 4 to 8 digits, a
   * manager's at least `MIN_MANAGER_PIN_DIGITS` (tills carry the hashes: issue 25), and no other active person's
   * of the shop (`except`: the person whose PIN it becomes), since a PIN identifies its person at the till.
   */
  async function checkedNewPin(
    shopId: number,
    role: 'cashier' | 'manager',
    pin: string,
    except: string | null,
    field: string,
  ): Promise<string> {
    if (!/^\d{4,8}$/.test(pin)) throw new HubError(400, 'pin_format', `${field}: 4 to 8 digits`, field);
    if (role === 'manager' && pin.length < MIN_MANAGER_PIN_DIGITS)
      throw new HubError(
        400,
        'pin_short',
        `${field}: a manager's PIN has at least ${MIN_MANAGER_PIN_DIGITS} digits`,
        field,
      );
    // Not a PIN anyone tries first (shared/staff/pin-strength.ts), the till's own rule.
    if (role === 'manager' && managerPinProblem(pin)) throw new HubError(400, 'pin_trivial', MANAGER_PIN_TEXT, field);
    const others = await db.query<{ pin_hash: string }>(
      'SELECT pin_hash FROM staff WHERE shop_id = $1 AND active AND name IS DISTINCT FROM $2',
      [shopId, except],
    );
    let taken = false;
    // Every hash is checked, so the time taken does not tell which one matched.
    for (const o of others) if (await verifyPin(pin, o.pin_hash)) taken = true;
    if (taken) throw new HubError(409, 'pin_taken', `${field}: another person of this shop has this PIN`, field);
    return hashPin(pin);
  }

  /** A person of the shop by name, or 404 naming the field. */
  async function staffRow(
    q: Queryable,
    shopId: number,
    name: string,
  ): Promise<{ name: string; role: 'cashier' | 'manager'; active: boolean }> {
    const rows = await q.query<{ name: string; role: 'cashier' | 'manager'; active: boolean }>(
      'SELECT name, role, active FROM staff WHERE shop_id = $1 AND name = $2',
      [shopId, name],
    );
    const row = rows[0];
    if (!row) throw new HubError(404, 'staff_unknown', 'name: no such person in this shop', 'name');
    return row;
  }

  /** How many active managers a shop has (the staff rules: who may approve, and that one always stays). */
  async function activeManagers(q: Queryable, shopId: number): Promise<number> {
    const r = await q.query<{ n: number }>(
      "SELECT count(*)::int8 AS n FROM staff WHERE shop_id = $1 AND role = 'manager' AND active",
      [shopId],
    );
    return Number(r[0]?.n ?? 0);
  }

  /**
   * A staff snapshot a till pushed (#25: nothing a till can forge). Applied by the person's id only when no
   * manager's approval is needed: the shop has no active manager yet (it adopts the till's people, as a shop
   * without staff does at enrolment). An unchanged person is nothing to do (no echo). Anything else (a new person,
   * a role, a name, an active flag, anyone's PIN) needs a manager's approval the hub verifies (`tillStaffChange`), so
   * it is refused: taken, not applied (the batch goes on; the till is never stuck on it), and recorded in the
   * hub's audit. Returns the refusal to answer for it, or null.
   */
  async function pushedStaff(
    q: Queryable,
    till: AuthedTill,
    s: StaffSnapshotRow,
    seq: number,
    place: number,
  ): Promise<PushRefusal | null> {
    const refuse = async (code: string, field: string, message: string): Promise<PushRefusal> => {
      await recordAudit(
        q,
        { shopId: till.shopId, actor: tillActor(till), action: 'staff_refused', detail: { name: s.name, code } },
        now().getTime(),
      );
      // Kept with its answer: a replay of this event is answered the same (`replayRefusal`).
      await q.query(
        `INSERT INTO staff_refusals (till_id, seq, code, field, message, at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (till_id, seq) DO NOTHING`,
        [till.id, seq, code, field, message, now().toISOString()],
      );
      return { seq, code, field: `events.${place}.payload.${field}`, message };
    };
    if (!s.id) return refuse('staff_no_id', 'id', 'a person without an id is not taken');
    await lockMasterData(q);
    const rows = await q.query<{ name: string; role: string; pin_hash: string; active: boolean }>(
      'SELECT name, role, pin_hash, active FROM staff WHERE shop_id = $1 AND id = $2',
      [till.shopId, s.id],
    );
    const row = rows[0];
    const active = s.active === 1;
    if (row && row.name === s.name && row.role === s.role && row.pin_hash === s.pin_hash && row.active === active)
      return null;
    // Issue 39: the PIN hash before is no proof of a person's own PIN change (tills held those hashes); that change
    // goes through the hub with the current PIN (`setOwnPin`).
    const unmanaged = (await activeManagers(q, till.shopId)) === 0;
    if (!unmanaged)
      return refuse(
        'staff_unapproved',
        row ? 'pin_hash' : 'id',
        "a staff change needs a manager's approval at the hub",
      );
    if (await nameTaken(q, till.shopId, s.name, s.id))
      return refuse('staff_name_taken', 'name', `another person of this shop is named ${s.name}`);
    // A new or changed name follows the names' rule (issue 39); one the hub already holds is left as it is.
    if (row?.name !== s.name)
      try {
        await checkedPersonName(q, till.shopId, s.name, s.id, 'name');
      } catch (err) {
        if (err instanceof HubError && err.code !== null) return refuse(err.code, 'name', err.message);
        throw err;
      }
    await upsertPerson(q, till.shopId, { id: s.id, name: s.name, role: s.role, pinHash: s.pin_hash, active });
    return null;
  }

  /** Whether a person of the shop other than `id` has this name (a name is one person's in a shop). */
  async function nameTaken(q: Queryable, shopId: number, name: string, id: string): Promise<boolean> {
    const rows = await q.query('SELECT 1 FROM staff WHERE shop_id = $1 AND name = $2 AND id <> $3', [shopId, name, id]);
    return rows.length > 0;
  }

  /**
   * Writes one person of a shop by id, in the caller's transaction (it holds the master-data lock). A row that
   * would not change keeps its version, so the tills are not sent it again; a changed one gets a new version.
   */
  async function upsertPerson(
    q: Queryable,
    shopId: number,
    p: { id: string; name: string; role: string; pinHash: string; active: boolean },
  ): Promise<void> {
    await q.query(
      `INSERT INTO staff (shop_id, id, name, role, pin_hash, active, version)
       VALUES ($1, $2, $3, $4, $5, $6, nextval('change_seq'))
       ON CONFLICT (shop_id, id) DO UPDATE SET name = excluded.name, role = excluded.role,
         pin_hash = excluded.pin_hash, active = excluded.active, version = excluded.version
       WHERE (staff.name, staff.role, staff.pin_hash, staff.active)
         IS DISTINCT FROM (excluded.name, excluded.role, excluded.pin_hash, excluded.active)`,
      [shopId, p.id, p.name, p.role, p.pinHash, p.active],
    );
  }

  /**
   * Writes people a till sent by id in the caller's transaction (it holds the master-data lock): refused whole
   * (409 naming `people.<i>.name`) when a name is another person's, and (409 `last_manager`) when a shop that had
   * an active manager would have none.
   */
  async function writePeople(q: Queryable, shopId: number, people: readonly TillPerson[]): Promise<void> {
    const before = await activeManagers(q, shopId);
    for (const [i, raw] of people.entries()) {
      // A till holds verifiers, not the hub's hashes (issue 39): a change without a new PIN keeps the hub's.
      const pinHash = raw.pinHash ?? (await knownHash(q, shopId, raw.id));
      if (pinHash === null)
        throw new HubError(400, 'invalid_input', 'pinHash: a new person needs a PIN', `people.${i}.pinHash`);
      const p = { ...raw, pinHash, name: await checkedPersonName(q, shopId, raw.name, raw.id, `people.${i}.name`) };
      if (await nameTaken(q, shopId, p.name, p.id))
        throw new HubError(
          409,
          'staff_name_taken',
          'name: another person of this shop has this name',
          `people.${i}.name`,
        );
      await upsertPerson(q, shopId, p);
    }
    if (before > 0 && (await activeManagers(q, shopId)) === 0)
      throw new HubError(409, 'last_manager', 'the shop would have no active manager', 'people');
  }

  async function knownHash(q: Queryable, shopId: number, id: string): Promise<string | null> {
    const rows = await q.query<{ pin_hash: string }>('SELECT pin_hash FROM staff WHERE shop_id = $1 AND id = $2', [
      shopId,
      id,
    ]);
    return rows[0]?.pin_hash ?? null;
  }

  async function peopleOf(q: Queryable, shopId: number): Promise<HubPerson[]> {
    const rows = await q.query<HubPerson>(
      'SELECT id, name, role, active FROM staff WHERE shop_id = $1 ORDER BY role DESC, name',
      [shopId],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, role: r.role, active: r.active }));
  }

  /**
   * A shop's live product count, counted again only when its products changed: every change (a deletion too)
   * gives the product a new version, so the newest version (one step down `products_version`) says whether the
   * count kept is still true. The list asks for it with every page; counting 100,000 rows each time would not
   * keep a page under 50 ms.
   */
  const counts = new Map<number, { version: number; n: number }>();
  async function productCount(shopId: number): Promise<number> {
    const top = await db.query<{ v: number | null }>(
      'SELECT max(version)::int8 AS v FROM products WHERE shop_id = $1',
      [shopId],
    );
    const version = Number(top[0]?.v ?? 0);
    const kept = counts.get(shopId);
    if (kept && kept.version === version) return kept.n;
    const r = await db.query<{ n: number }>(
      'SELECT count(*)::int8 AS n FROM products WHERE shop_id = $1 AND NOT deleted',
      [shopId],
    );
    const n = Number(r[0]?.n ?? 0);
    counts.set(shopId, { version, n });
    return n;
  }

  /** Writes products of a shop by code, each with a new version (the caller holds the master-data lock). */
  async function writeProducts(q: Queryable, shopId: number, products: readonly ProductInput[]): Promise<number> {
    const CHUNK = 1000;
    for (let i = 0; i < products.length; i += CHUNK) {
      const part = products.slice(i, i + CHUNK);
      await q.query(
        `INSERT INTO products (shop_id, code, name, price_para, label, unit, grp, favourite, barcodes, deleted, version)
         SELECT $1, p.code, p.name, p.price_para, p.label, p.unit, p.grp, p.favourite, p.barcodes, p.deleted, nextval('change_seq')
         FROM jsonb_to_recordset($2::jsonb) AS p(code text, name text, price_para bigint, label text, unit text, grp text,
              favourite boolean, barcodes jsonb, deleted boolean)
         ON CONFLICT (shop_id, code) DO UPDATE SET name = excluded.name, price_para = excluded.price_para,
           label = excluded.label, unit = excluded.unit, grp = excluded.grp, favourite = excluded.favourite,
           barcodes = excluded.barcodes, deleted = excluded.deleted, version = excluded.version`,
        [
          shopId,
          JSON.stringify(
            part.map((p) => ({
              code: p.code,
              name: p.name,
              price_para: p.pricePara,
              label: p.label,
              unit: p.unit,
              grp: p.group ?? null,
              favourite: p.favourite ?? false,
              barcodes: p.barcodes ?? [],
              deleted: p.deleted ?? false,
            })),
          ),
        ],
      );
    }
    // A big write leaves the planner's statistics behind (PGlite has no autovacuum): the list's keyset would be
    // planned as a scan and a sort of the whole shop. Fresh statistics keep a page on `products_live`.
    if (products.length >= 1000) await q.query('ANALYZE products');
    return products.length;
  }

  /**
   * The tax labels every till of the shop (not revoked) that reports labels reports as current, sorted; empty before
   * any reported (hub/till-trust.ts `shopTaxLabels`: one till's status cannot widen them).
   */
  async function reportedLabels(q: Queryable, shopId: number): Promise<string[]> {
    return (await shopTaxLabels(q, shopId)).labels;
  }

  /**
   * Refuses a batch of products before anything is written: a barcode given to two products of the batch, or
   * owned by a product of the shop the batch does not also change, or a label none of the shop's tills
   * reports among its current tax labels (400, `products.<i>.barcodes` / `products.<i>.label`).
   */
  async function checkProducts(q: Queryable, shopId: number, products: readonly ProductInput[]): Promise<void> {
    const live = products.map((p, i) => ({ p, i })).filter(({ p }) => !p.deleted);
    const current = await shopTaxLabels(q, shopId);
    const labels = new Set(current.labels);
    for (const { p, i } of live)
      if (current.judged && !labels.has(p.label))
        throw new HubError(
          400,
          'label_not_current',
          `the tax label ${p.label} is not among the shop's tax labels (${[...labels].join(', ')})`,
          `products.${i}.label`,
        );
    const owner = new Map<string, { code: string; i: number }>();
    for (const { p, i } of live)
      for (const b of new Set(p.barcodes ?? [])) {
        const other = owner.get(b);
        if (other && other.code !== p.code)
          throw new HubError(
            400,
            'barcode_taken',
            `the barcode ${b} also names ${other.code}`,
            `products.${i}.barcodes`,
          );
        owner.set(b, { code: p.code, i });
      }
    if (owner.size === 0) return;
    const batchCodes = new Set(products.map((p) => p.code));
    const held = await q.query<{ code: string; name: string; barcode: string }>(
      `SELECT p.code, p.name, b.value AS barcode FROM products p, jsonb_array_elements_text(p.barcodes) AS b(value)
       WHERE p.shop_id = $1 AND NOT p.deleted AND p.barcodes ?| $2::text[]`,
      [shopId, [...owner.keys()]],
    );
    for (const h of held) {
      const mine = owner.get(h.barcode);
      if (mine && !batchCodes.has(h.code))
        throw new HubError(
          400,
          'barcode_taken',
          `the barcode ${h.barcode} belongs to ${h.code} ${h.name}`,
          `products.${mine.i}.barcodes`,
        );
    }
  }

  return {
    db,

    /** The first shop of the first chain, created on a fresh hub so one command gives a working hub. */
    async ensureDefaultShop(name = 'Shop 1'): Promise<number> {
      return db.tx(async (q) => {
        await q.query('SELECT pg_advisory_xact_lock(715003)');
        const have = await q.query<{ id: number }>('SELECT id FROM shops ORDER BY id LIMIT 1');
        if (have[0]) return have[0].id;
        const chain = await q.query<{ id: number }>("INSERT INTO chains (name) VALUES ('Chain') RETURNING id");
        const shop = await q.query<{ id: number }>(
          'INSERT INTO shops (chain_id, name, created_at) VALUES ($1, $2, $3) RETURNING id',
          [chain[0]?.id, name, iso()],
        );
        return shop[0]?.id ?? 0;
      });
    },

    /** Another shop in the hub's chain. */
    async createShop(name: string): Promise<number> {
      const chain = await db.query<{ id: number }>('SELECT id FROM chains ORDER BY id LIMIT 1');
      if (!chain[0]) throw new HubError(409, 'no_chain', 'the hub has no chain yet');
      const r = await db.query<{ id: number }>(
        'INSERT INTO shops (chain_id, name, created_at) VALUES ($1, $2, $3) RETURNING id',
        [chain[0].id, name, iso()],
      );
      return r[0]?.id ?? 0;
    },

    /** A new one-time enrolment code for `shopId` (only its hash is stored), spendable until it expires. */
    async newEnrolCode(shopId: number): Promise<string> {
      const shop = await db.query('SELECT 1 FROM shops WHERE id = $1', [shopId]);
      if (!shop.length) throw new HubError(404, 'shop_unknown', `no shop ${shopId}`, 'shopId');
      const code = crypto.randomBytes(9).toString('base64url');
      await db.query('INSERT INTO enrol_codes (code_hash, shop_id, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
        sha256(code),
        shopId,
        iso(),
        now().getTime() + codeTtl,
      ]);
      return code;
    },

    /** The shop's enrolment codes, newest first (every shop's with null): never a code or its hash. */
    enrolCodes(shopId: number | null): Promise<EnrolCodeRow[]> {
      return listEnrolCodes(db, shopId, now().getTime());
    },

    /** Revokes an unspent enrolment code (hub/enrol-codes.ts); null when the shop has no such code. */
    revokeEnrolCode(id: number, shopId: number | null): Promise<{ shopId: number; state: EnrolCodeState } | null> {
      return revokeEnrolCode(db, id, shopId, iso());
    },

    /**
     * Spends an enrolment code once: a new till in the code's shop and its credential (shown only here).
     * An unknown, used or expired code is refused (403, naming `code`).
     */
    async enrol(code: string, name: string): Promise<{ tillId: number; shopId: number; credential: string }> {
      return db.tx(async (q) => {
        const rows = await q.query<{
          shop_id: number;
          used_at: string | null;
          expires_at: number;
          revoked_at: string | null;
        }>('SELECT shop_id, used_at, expires_at, revoked_at FROM enrol_codes WHERE code_hash = $1 FOR UPDATE', [
          sha256(code),
        ]);
        const row = rows[0];
        if (!row) throw new HubError(403, 'enrol_code_unknown', 'unknown enrolment code', 'code');
        if (row.revoked_at)
          throw new HubError(403, 'enrol_code_revoked', 'this enrolment code was revoked at the hub', 'code');
        if (row.used_at) throw new HubError(403, 'enrol_code_used', 'this enrolment code was already used', 'code');
        if (row.expires_at <= now().getTime())
          throw new HubError(403, 'enrol_code_expired', 'this enrolment code has expired; ask for a new one', 'code');
        // A till's name is one till's in its shop and never a reserved word (the audit names tills by it): a
        // reserved one is refused; another till's gets the new till's id (`Каса 1 (#8)`), so enrolment goes on.
        await q.query('SELECT pg_advisory_xact_lock($1, $2)', [715_012, row.shop_id]);
        const badName = await tillNameRefusal(q, row.shop_id, null, name);
        if (badName?.code === 'till_name_reserved') throw new HubError(400, badName.code, badName.message, 'name');
        const secret = crypto.randomBytes(32).toString('base64url');
        const till = await q.query<{ id: number }>(
          'INSERT INTO tills (shop_id, name, cred_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
          [row.shop_id, name, sha256(secret), iso()],
        );
        const tillId = till[0]?.id ?? 0;
        if (badName) await q.query('UPDATE tills SET name = $1 WHERE id = $2', [`${name} (#${tillId})`, tillId]);
        await q.query('UPDATE enrol_codes SET used_at = $1, till_id = $2 WHERE code_hash = $3', [
          iso(),
          tillId,
          sha256(code),
        ]);
        return { tillId, shopId: row.shop_id, credential: `${CRED_PREFIX}.${tillId}.${secret}` };
      });
    },

    /**
     * Revokes a till's credential (a lost or stolen till): every till route refuses it from then on. A
     * manager revokes only a till of their shop (`shopId`; null for the admin token). Null: no such till.
     */
    async revokeTill(tillId: number, shopId: number | null): Promise<{ shopId: number; name: string } | null> {
      const r = await db.query<{ shop_id: number; name: string }>(
        `UPDATE tills SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2 AND ($3::int4 IS NULL OR shop_id = $3)
         RETURNING shop_id, name`,
        [iso(), tillId, shopId],
      );
      return r[0] ? { shopId: r[0].shop_id, name: r[0].name } : null;
    },

    /** The till an `Authorization: Bearer kh1.<till>.<secret>` header proves, or a 401. */
    async authenticate(header: string | undefined): Promise<AuthedTill> {
      const m = /^Bearer kh1\.(\d{1,9})\.([A-Za-z0-9_-]{20,100})$/.exec(header ?? '');
      if (!m) throw new HubError(401, 'unauthenticated', 'a till credential is required');
      const till = await tillById(db, Number(m[1]));
      const given = Buffer.from(sha256(m[2] ?? ''));
      if (!till || !crypto.timingSafeEqual(given, Buffer.from(till.cred_hash))) {
        throw new HubError(401, 'unauthenticated', 'unknown till credential');
      }
      if (till.revoked) throw new HubError(403, 'till_revoked', 'this till was revoked at the hub; enrol it again');
      return { id: till.id, shopId: till.shopId, name: till.name };
    },

    /**
     * Stores a batch of a till's events, all or nothing. An event already stored with the same digest is a
     * duplicate (acknowledged again); with another digest the batch is refused as altered. Orders are
     * upserted by (till, order number), never moved back to an older event.
     */
    async push(till: AuthedTill, input: PushInput): Promise<PushResult> {
      if (input.tillId !== till.id)
        throw new HubError(
          403,
          'till_mismatch',
          `this credential belongs to till ${till.id}, not ${input.tillId}`,
          'tillId',
        );
      const events = [...input.events].sort((a, b) => a.seq - b.seq);
      for (let i = 1; i < events.length; i++) {
        if (events[i]?.seq === events[i - 1]?.seq)
          throw new HubError(
            400,
            'batch_duplicate_seq',
            `sequence ${events[i]?.seq} twice in one batch`,
            `events.${i}.seq`,
          );
      }
      const staff = payloads(events, input.events, 'staff', StaffSnapshot, 'invalid_staff');
      const orders = payloads(events, input.events, 'order', OrderSnapshot, 'invalid_order');
      const shifts = payloads(events, input.events, 'shift', ShiftSnapshot, 'invalid_shift');
      // Every time a till sends is ISO 8601 with its offset, near the hub's clock (hub/till-trust.ts): 400 naming it.
      events.forEach((e, i) => checkEventTimes(input.events.indexOf(e), orders[i], shifts[i], now().getTime()));
      const at = iso();
      const refused: PushRefusal[] = [];
      const result = await db
        .tx(async (q) => {
          const current = await q.query<{ last_seq: number; events_floor: number }>(
            'SELECT last_seq, events_floor FROM tills WHERE id = $1 FOR UPDATE',
            [till.id],
          );
          let lastSeq = current[0]?.last_seq ?? 0;
          const floor = current[0]?.events_floor ?? 0;
          let stored = 0;
          let duplicates = 0;
          const orderTimes: string[] = [];
          for (const [i, e] of events.entries()) {
            if (e.seq <= floor) {
              // Received long ago and pruned (hub/events.ts): a replay, acknowledged; its digest is gone.
              duplicates++;
              const again = await replayRefusal(q, till.id, e.seq, input.events.indexOf(e));
              if (again) refused.push(again);
              continue;
            }
            const digest = eventDigest(e);
            // An event once (till, seq): `till_events` is partitioned by month (hub migration 16), so no unique
            // index holds it; the till's row lock taken above keeps every other push of this till out meanwhile.
            const old = await q.query<{ digest: string }>(
              'SELECT digest FROM till_events WHERE till_id = $1 AND seq = $2',
              [till.id, e.seq],
            );
            if (!old.length)
              await q.query(
                `INSERT INTO till_events (till_id, seq, kind, ref, digest, payload, received_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)`,
                [till.id, e.seq, e.kind, e.ref, digest, JSON.stringify(e.payload), at],
              );
            else {
              if (old[0]?.digest !== digest)
                throw new HubError(
                  409,
                  'batch_altered',
                  `event ${e.seq} differs from the one already stored`,
                  `events.${input.events.indexOf(e)}`,
                );
              duplicates++;
              // A replay of a refused event (the answer was lost) is answered with its refusal again.
              const again = await replayRefusal(q, till.id, e.seq, input.events.indexOf(e));
              if (again) refused.push(again);
              continue;
            }
            stored++;
            lastSeq = Math.max(lastSeq, e.seq);
            const s = staff[i];
            if (s) {
              const no = await pushedStaff(q, till, s, e.seq, input.events.indexOf(e));
              if (no) refused.push(no);
            }
            const o = orders[i];
            // An invoice number under another till's signer is not this till's: held as evidence, never stored.
            const unproven = o ? await holdUnproven(q, till, o, e.seq, input.events.indexOf(e), at) : null;
            if (unproven) {
              refused.push(unproven);
              continue;
            }
            if (o) {
              orderTimes.push(o.created_at);
              // An invoice number is one order's in a shop (unique index): a second claimant is kept out of
              // `orders` (lookups and reports never see it), recorded, and answered as refused.
              const claims = o.invoice_number != null;
              if (claims) await q.query('SAVEPOINT claim');
              try {
                // The order's key first (hub migration 16): its identity and its invoice number, each once; the
                // order's row is the one of the key's first `created_at` (its month's partition).
                await q.query(
                  `WITH k AS (
                     INSERT INTO order_keys (till_id, order_number, created_at, shop_id, seq, invoice_number)
                     VALUES ($1, $2, $9, $3, $4, $12)
                     ON CONFLICT (till_id, order_number) DO UPDATE SET seq = excluded.seq,
                       invoice_number = excluded.invoice_number
                     WHERE order_keys.seq < excluded.seq RETURNING created_at)
                   INSERT INTO orders (till_id, order_number, shop_id, seq, kind, invoice_type, transaction_type, state,
                     created_at, total_para, cashier, invoice_number, sdc_date_time, data, receipt, facts, extra_receipts)
                   SELECT $1::int4, $2::text, $3::int4, $4::int8, $5::text, $6::text, $7::text, $8::text, k.created_at,
                          $10::int8, $11::text, $12::text, $13::text, $14::jsonb, $15::jsonb, $16::jsonb, $17::jsonb FROM k
                 ON CONFLICT (till_id, order_number, created_at) DO UPDATE SET seq = excluded.seq, state = excluded.state,
                   invoice_number = excluded.invoice_number, sdc_date_time = excluded.sdc_date_time,
                   data = excluded.data, receipt = excluded.receipt, cashier = excluded.cashier, facts = excluded.facts,
                   extra_receipts = excluded.extra_receipts
                 WHERE orders.seq < excluded.seq`,
                  [
                    till.id,
                    o.order_number,
                    till.shopId,
                    e.seq,
                    o.kind,
                    o.invoice_type,
                    o.transaction_type,
                    o.state,
                    o.created_at,
                    o.total_para,
                    o.data.cashier ?? null,
                    o.invoice_number ?? null,
                    o.sdc_date_time ?? null,
                    JSON.stringify(o.data),
                    o.receipt ? JSON.stringify(o.receipt) : null,
                    JSON.stringify(countedFacts(o, orderFacts({ ...o, receipt: o.receipt ?? null }))),
                    o.extra_receipts ? JSON.stringify(o.extra_receipts) : null,
                  ],
                );
                if (claims) await q.query('RELEASE SAVEPOINT claim');
              } catch (err) {
                if (!claims || !isInvoiceClaimed(err)) throw err;
                await q.query('ROLLBACK TO SAVEPOINT claim');
                const holder = await q.query<{ till_id: number; order_number: string }>(
                  'SELECT till_id, order_number FROM order_keys WHERE shop_id = $1 AND invoice_number = $2',
                  [till.shopId, o.invoice_number],
                );
                await q.query(
                  `INSERT INTO invoice_claims (shop_id, till_id, seq, order_number, invoice_number, holder_till_id,
                   holder_order_number, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (till_id, seq) DO NOTHING`,
                  [
                    till.shopId,
                    till.id,
                    e.seq,
                    o.order_number,
                    o.invoice_number,
                    holder[0]?.till_id ?? null,
                    holder[0]?.order_number ?? null,
                    at,
                  ],
                );
                refused.push(claimRefusal(e.seq, input.events.indexOf(e), o.invoice_number ?? ''));
              }
            }
            const sh = shifts[i];
            if (sh) {
              await q.query(
                `INSERT INTO shifts (till_id, shift_id, shop_id, seq, cashier, opened_at, closed_at, closed_by,
                 opening_float_para, cash_in_para, cash_out_para, expected_para, counted_para, counted_detail)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
               ON CONFLICT (till_id, shift_id) DO UPDATE SET seq = excluded.seq, closed_at = excluded.closed_at,
                 closed_by = excluded.closed_by, cash_in_para = excluded.cash_in_para,
                 cash_out_para = excluded.cash_out_para, expected_para = excluded.expected_para,
                 counted_para = excluded.counted_para, counted_detail = excluded.counted_detail
               WHERE shifts.seq < excluded.seq`,
                [
                  till.id,
                  sh.id,
                  till.shopId,
                  e.seq,
                  sh.cashier,
                  sh.opened_at,
                  sh.closed_at,
                  sh.closed_by,
                  sh.opening_float_para,
                  sh.cash_in_para,
                  sh.cash_out_para,
                  sh.expected_para,
                  sh.counted_para,
                  sh.counted_detail ? JSON.stringify(sh.counted_detail) : null,
                ],
              );
            }
          }
          // An order of a day that may be closed already marks that day of the till to be summed again.
          await markDirty(q, zone, till.id, orderTimes, now().getTime());
          // A till's name is one till's in its shop, never a reserved word: a refused rename keeps the old name.
          const statusRefused = await renameRefusal(q, till, input.status?.name);
          // A batch taken ends the till's refused batch (an empty status-only push does not: nothing moved).
          // The till's name follows the shop's name for it (renamed at the till after enrolment too).
          await q.query(
            `UPDATE tills SET last_seq = $1, last_seen = $2, status = coalesce($3, status),
             refusal = CASE WHEN $5 THEN NULL ELSE refusal END, name = coalesce($6, name) WHERE id = $4`,
            [
              lastSeq,
              at,
              input.status ? JSON.stringify(input.status) : null,
              till.id,
              events.length > 0,
              statusRefused ? null : (input.status?.name ?? null),
            ],
          );
          const acked = events.length ? (events[events.length - 1]?.seq ?? 0) : 0;
          return {
            acked,
            stored,
            duplicates,
            gaps: await gapsOf(q, till.id),
            ...(statusRefused ? { statusRefused } : {}),
          };
        })
        .catch((err: unknown) => {
          // A value the database refuses is the batch's fault: a 400 the till keeps, never a 503 it retries.
          if (isDataException(err))
            throw new HubError(400, 'invalid_value', 'the batch holds a value the hub cannot store', 'events');
          throw err;
        });
      return refused.length ? { ...result, refused } : result;
    },

    /**
     * Records that a till's batch was refused whole (its `batch_refused` alarm until a later batch is taken).
     * Only what the refusal says is kept: never the batch.
     */
    async noteRefusal(
      till: AuthedTill,
      refusal: { status: number; code: string; field?: string | undefined; message: string },
    ): Promise<void> {
      const note = {
        at: iso(),
        status: refusal.status,
        code: storable(refusal.code).slice(0, 60),
        field: storable(refusal.field ?? '').slice(0, 200),
        message: storable(refusal.message).slice(0, 300),
      };
      await db.query('UPDATE tills SET refusal = $1 WHERE id = $2', [JSON.stringify(note), till.id]);
    },

    /** Clears a till's refused invoice claims once a manager has looked (its `invoice_claimed` alarm ends). */
    async clearClaims(tillId: number, shopId: number | null): Promise<number> {
      const r = await db.query(
        `UPDATE invoice_claims SET cleared_at = $1 WHERE till_id = $2 AND cleared_at IS NULL
           AND ($3::int4 IS NULL OR shop_id = $3) RETURNING id`,
        [iso(), tillId, shopId],
      );
      return r.length;
    },

    /** Master data of the till's shop changed after `since`, oldest first, at most `limit` rows per kind. */
    async changes(till: AuthedTill, since: number, limit = 5000): Promise<ChangesResult> {
      await db.query('UPDATE tills SET last_seen = $1 WHERE id = $2', [iso(), till.id]);
      const products = await db.query<ProductRow>(
        'SELECT * FROM products WHERE shop_id = $1 AND version > $2 ORDER BY version LIMIT $3',
        [till.shopId, since, limit],
      );
      // Issue 39: never the hub's PIN hash; this till's own verifier of each person's PIN, once the hub made one
      // (hub/pin-verifiers.ts), whose version counts as the person's.
      const pinKey = await tillPinKey(db, till.id);
      const staff = await db.query<{
        id: string;
        name: string;
        role: 'cashier' | 'manager';
        verifier: string;
        active: boolean;
        version: number;
      }>(
        `SELECT * FROM (SELECT s.id, s.name, s.role, s.active, coalesce(v.verifier, '') AS verifier,
             greatest(s.version, coalesce(v.version, 0)) AS version
           FROM staff s LEFT JOIN pin_verifiers v ON v.till_id = $4 AND v.person_id = s.id
           WHERE s.shop_id = $1) p WHERE version > $2 ORDER BY version LIMIT $3`,
        [till.shopId, since, limit, till.id],
      );
      const settings = await db.query<{ key: string; value: unknown; version: number }>(
        'SELECT key, value, version FROM shop_settings WHERE shop_id = $1 AND version > $2 ORDER BY version LIMIT $3',
        [till.shopId, since, limit],
      );
      // With a full page of one kind, the cursor stops where that page ends so nothing is skipped.
      const fullP = products.length === limit ? products[products.length - 1]?.version : undefined;
      const fullS = staff.length === limit ? staff[staff.length - 1]?.version : undefined;
      const fullT = settings.length === limit ? settings[settings.length - 1]?.version : undefined;
      const bound = Math.min(fullP ?? Infinity, fullS ?? Infinity, fullT ?? Infinity);
      const ps = products.filter((p) => p.version <= bound);
      const ss = staff.filter((s) => s.version <= bound);
      const ts = settings.filter((t) => t.version <= bound);
      const top = Math.max(
        since,
        ...ps.map((p) => p.version),
        ...ss.map((s) => s.version),
        ...ts.map((t) => t.version),
      );
      return {
        cursor: top,
        more: Number.isFinite(bound),
        products: ps.map((p) => ({ ...productOf(p), deleted: p.deleted, version: p.version })),
        staff: ss.map((s) => ({
          id: s.id,
          name: s.name,
          role: s.role,
          verifier: s.verifier,
          active: s.active,
          version: Number(s.version),
        })),
        pinKey,
        settings: ts.map((t) => ({ key: t.key, value: t.value, version: t.version })),
      };
    },

    /**
     * Creates or changes products of a shop (a price change, a new barcode, a deletion) in one transaction.
     * Refused whole (400, naming `products.<i>.<field>`, nothing written) when a barcode would name two
     * products, or a label is not among the tax labels the shop's tills report (not judged before any has).
     */
    async upsertProducts(shopId: number, products: readonly ProductInput[]): Promise<number> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        await checkProducts(q, shopId, products);
        return writeProducts(q, shopId, products);
      });
    },

    /**
     * A till's catalog offered at its enrolment, in ONE transaction: adopted when the shop has no products (the
     * first till brings the shop's catalog), else nothing is written and the shop's count is answered, for the
     * manager to choose. With `replace` (the manager chose the till's) the shop's products the till does not
     * have are deleted and the till's written, each with a new version the other tills pull.
     * Issue 39: a till's word alone writes nothing. `approver` is the hub manager whose PIN the hub checked (null:
     * none given): without one an offer is answered with the shop's count only, and a `replace` is refused (403
     * `catalog_unapproved` at `approverPin`). Every product passes the till's own product rules and the admin's
     * checks (labels the shop's tills agree on, barcodes), refused at its field with nothing written.
     */
    async adoptCatalog(
      shopId: number,
      products: readonly ProductInput[],
      replace = false,
      approver: string | null = null,
    ): Promise<{ adopted: boolean; hubProducts: number }> {
      if (approver === null && replace)
        throw new HubError(
          403,
          'catalog_unapproved',
          "approverPin: a till's catalog replaces the shop's only with a hub manager's PIN",
          'approverPin',
        );
      checkTillCatalog(products);
      return db.tx(async (q) => {
        await lockMasterData(q);
        const have = await q.query<{ n: number }>(
          'SELECT count(*)::int8 AS n FROM products WHERE shop_id = $1 AND NOT deleted',
          [shopId],
        );
        const hubProducts = Number(have[0]?.n ?? 0);
        if ((hubProducts > 0 && !replace) || approver === null) return { adopted: false, hubProducts };
        if (replace)
          await q.query(
            `UPDATE products SET deleted = true, version = nextval('change_seq')
             WHERE shop_id = $1 AND NOT deleted AND NOT (code = ANY($2::text[]))`,
            [shopId, products.map((p) => p.code)],
          );
        // After the deletion: a barcode of a product the till's catalog replaces is free for the till's.
        await checkProducts(q, shopId, products);
        await writeProducts(q, shopId, products);
        return { adopted: true, hubProducts: products.length };
      });
    },

    /**
     * A till's people offered at its enrolment, in ONE transaction: adopted when the shop has no active manager
     * (the first till brings the shop's people), else nothing is written and the shop's people are answered
     * (never a PIN hash), for the till's manager to map each of theirs to one of them or add them as new.
     */
    async offerStaff(shopId: number, people: readonly TillPerson[]): Promise<{ adopted: boolean; hub: HubPerson[] }> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        if ((await activeManagers(q, shopId)) > 0) return { adopted: false, hub: await peopleOf(q, shopId) };
        await writePeople(q, shopId, people);
        return { adopted: true, hub: [] };
      });
    },

    /**
     * A staff change of an enrolled till, written by id in one transaction once the server checked the approving
     * manager's PIN against the shop's own active managers (`approverFor`). Every other till gets it by pull.
     */
    async tillStaffChange(shopId: number, people: readonly TillPerson[]): Promise<number> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        await writePeople(q, shopId, people);
        return people.length;
      });
    },

    /** A shop's people as a till maps its own to them: id, name, role, active; never a PIN hash. */
    shopPeople(shopId: number): Promise<HubPerson[]> {
      return peopleOf(db, shopId);
    },

    /** Sets a shop's shared settings (each given key; an unchanged value keeps its version) in one transaction. */
    async setShopSettings(shopId: number, settings: ShopSettings): Promise<number> {
      const shop = await db.query('SELECT 1 FROM shops WHERE id = $1', [shopId]);
      if (!shop.length) throw new HubError(404, 'shop_unknown', `no shop ${shopId}`, 'shopId');
      return db.tx(async (q) => {
        await lockMasterData(q);
        let changed = 0;
        for (const [key, value] of Object.entries(settings)) {
          if (value === undefined) continue;
          const r = await q.query(
            `INSERT INTO shop_settings (shop_id, key, value, version) VALUES ($1, $2, $3, nextval('change_seq'))
             ON CONFLICT (shop_id, key) DO UPDATE SET value = excluded.value, version = excluded.version
             WHERE shop_settings.value IS DISTINCT FROM excluded.value RETURNING key`,
            [shopId, key, JSON.stringify(value)],
          );
          changed += r.length;
        }
        return changed;
      });
    },

    /** A shop's shared settings as the hub holds them. */
    async shopSettings(shopId: number): Promise<ShopSettings> {
      const rows = await db.query<{ key: string; value: unknown }>(
        'SELECT key, value FROM shop_settings WHERE shop_id = $1 ORDER BY key',
        [shopId],
      );
      return Object.fromEntries(rows.map((r) => [r.key, r.value])) as ShopSettings;
    },

    /** Creates or changes staff of a shop (PIN hashes, never PINs). */
    async upsertStaff(shopId: number, staff: readonly StaffInput[], self: string | null = null): Promise<number> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        const managers = async (): Promise<number> =>
          Number(
            (
              await q.query<{ n: number }>(
                "SELECT count(*)::int8 AS n FROM staff WHERE shop_id = $1 AND role = 'manager' AND active",
                [shopId],
              )
            )[0]?.n ?? 0,
          );
        const before = await managers();
        for (const [i, s] of staff.entries()) {
          // By id when given (a rename), else the person of that name keeps their id, else a new person.
          const known = await q.query<{ id: string }>(
            'SELECT id FROM staff WHERE shop_id = $1 AND (id = $2::text OR ($2::text IS NULL AND name = $3))',
            [shopId, s.id ?? null, s.name],
          );
          const id = known[0]?.id ?? s.id ?? crypto.randomUUID();
          const name = await checkedPersonName(q, shopId, s.name, id, `staff.${i}.name`);
          if (await nameTaken(q, shopId, name, id))
            throw new HubError(
              409,
              'staff_name_taken',
              'name: another person of this shop has this name',
              `staff.${i}.name`,
            );
          await upsertPerson(q, shopId, {
            id,
            name,
            role: s.role,
            pinHash: s.pinHash,
            active: s.active ?? true,
          });
        }
        // The staff screen's rules hold here too (shared/contract/staff.ts), in its order: a shop that had an
        // active manager keeps one (said first, also to the last one changing herself), and a manager never
        // deactivates or demotes themself. A refusal rolls the whole list back.
        if (before > 0 && (await managers()) === 0)
          throw new HubError(409, 'last_manager', 'the shop would have no active manager', 'staff');
        const selfChange = staff.findIndex((s) => s.name === self && (s.role !== 'manager' || s.active === false));
        if (selfChange >= 0)
          throw new HubError(
            409,
            'staff_self',
            'a manager cannot deactivate or demote themself',
            `staff.${selfChange}`,
          );
        return staff.length;
      });
    },

    /** A shop's people for the hub UI: name, role and whether active; never a PIN hash. */
    async listStaff(shopId: number): Promise<HubStaffRow[]> {
      const rows = await db.query<{ name: string; role: HubStaffRow['role']; active: boolean }>(
        'SELECT name, role, active FROM staff WHERE shop_id = $1 ORDER BY role DESC, name',
        [shopId],
      );
      return rows.map((r) => ({ name: r.name, role: r.role, active: r.active }));
    },

    /**
     * Deactivates or reactivates a person of the shop; `self` is the manager asking (null: the admin token).
     * Nobody deactivates themself and the last active manager stays (shared/contract/staff.ts). The change
     * gets a new version, so it reaches every till of the shop with the staff sync, and the database's
     * trigger ends the person's hub sessions. Returns false when nothing changed.
     */
    async setStaffActive(shopId: number, name: string, active: boolean, self: string | null): Promise<boolean> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        const target = await staffRow(q, shopId, name);
        if (target.active === active) return false;
        const others = await q.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM staff WHERE shop_id = $1 AND role = 'manager' AND active AND name <> $2",
          [shopId, name],
        );
        const refusal = staffChangeRefusal(
          { id: target.name, role: target.role, active: target.active },
          { active },
          self === null ? [] : [self],
          Number(others[0]?.n ?? 0),
        );
        if (refusal) throw new HubError(409, refusal.key, refusalText[refusal.key], refusal.field);
        await q.query(
          "UPDATE staff SET active = $3, version = nextval('change_seq') WHERE shop_id = $1 AND name = $2",
          [shopId, name, active],
        );
        return true;
      });
    },

    /**
     * Sets a person's new PIN (hashed here; the PIN is never stored or logged): 4 to 8 digits, a manager's at
     * least `MIN_MANAGER_PIN_DIGITS` (tills carry the hashes: issue 25) and not trivial (`pin_trivial`: 111111,
     * 123456, 654321; shared/staff/pin-strength.ts), and no other active person of the
     * shop's PIN (a PIN identifies its person at the till). Reaches the tills and ends the person's sessions.
     */
    async setStaffPin(shopId: number, name: string, pin: string): Promise<void> {
      const target = await staffRow(db, shopId, name);
      const hash = await checkedNewPin(shopId, target.role, pin, name, 'pin');
      await db.tx(async (q) => {
        await lockMasterData(q);
        await q.query(
          "UPDATE staff SET pin_hash = $3, version = nextval('change_seq') WHERE shop_id = $1 AND name = $2",
          [shopId, name, hash],
        );
        const id = await q.query<{ id: string }>('SELECT id FROM staff WHERE shop_id = $1 AND name = $2', [
          shopId,
          name,
        ]);
        // Every till's verifier of the new PIN (issue 39), in the same transaction.
        if (id[0]) await makeVerifiers(q, shopId, id[0].id, pin, hash);
      });
    },

    /**
     * A person's own PIN change asked by a till (issue 39): the till's check of the current PIN at the hub
     * (hub/pin-verifiers.ts `checkTillPin`, counted like a login) named the person and the hash it matched. The new
     * PIN follows the hub's rules (`checkedNewPin`, at `newPin`) and is set only if the hash is still the person's;
     * every till of the shop gets its verifier of it. Returns the asking till's verifier.
     */
    async setOwnPin(till: AuthedTill, personId: string, currentHash: string, newPin: string): Promise<string | null> {
      const rows = await db.query<{ name: string; role: 'cashier' | 'manager' }>(
        'SELECT name, role FROM staff WHERE shop_id = $1 AND id = $2 AND active',
        [till.shopId, personId],
      );
      const who = rows[0];
      if (!who) throw new HubError(404, 'staff_unknown', 'id: no such person in this shop', 'id');
      const hash = await checkedNewPin(till.shopId, who.role, newPin, who.name, 'newPin');
      return db.tx(async (q) => {
        await lockMasterData(q);
        const set = await q.query(
          `UPDATE staff SET pin_hash = $4, version = nextval('change_seq')
           WHERE shop_id = $1 AND id = $2 AND pin_hash = $3 RETURNING id`,
          [till.shopId, personId, currentHash, hash],
        );
        if (set.length === 0)
          throw new HubError(409, 'pin_changed', 'pin: this PIN changed meanwhile; try again', 'pin');
        await makeVerifiers(q, till.shopId, personId, newPin, hash);
        return verifierAt(q, till.id, personId);
      });
    },

    /**
     * Adds a person of the shop from the hub UI (a manager's session or the admin token): the till's staff rules
     * in one transaction (the name rule of `shared/staff/person-name.ts`, one person per name, a PIN of 4 to 8
     * digits, a manager's at least `MIN_MANAGER_PIN_DIGITS`, no other active person's PIN), under a new id and
     * a new version, so every till of the shop gets the person with the staff sync. Returns the name kept (NFC).
     */
    async addStaff(shopId: number, input: { name: string; role: 'cashier' | 'manager'; pin: string }): Promise<string> {
      const shop = await db.query('SELECT 1 FROM shops WHERE id = $1', [shopId]);
      if (!shop.length) throw new HubError(404, 'shop_unknown', `no shop ${shopId}`, 'shopId');
      const id = crypto.randomUUID();
      // The name first (a refusal there costs no hashing), then the PIN, then the write under the lock.
      const early = await checkedPersonName(db, shopId, input.name, id, 'name');
      if (await nameTaken(db, shopId, early, id))
        throw new HubError(409, 'staff_name_taken', 'name: another person of this shop has this name', 'name');
      const pinHash = await checkedNewPin(shopId, input.role, input.pin, null, 'pin');
      return db.tx(async (q) => {
        await lockMasterData(q);
        // Checked again under the lock: another manager may have added the name meanwhile.
        const name = await checkedPersonName(q, shopId, input.name, id, 'name');
        if (await nameTaken(q, shopId, name, id))
          throw new HubError(409, 'staff_name_taken', 'name: another person of this shop has this name', 'name');
        await upsertPerson(q, shopId, { id, name, role: input.role, pinHash, active: true });
        await makeVerifiers(q, shopId, id, input.pin, pinHash);
        return name;
      });
    },

    /** A sale of any till of the asking till's shop, by order or invoice number (for refunds and copies). */
    async lookup(till: AuthedTill, input: LookupInput): Promise<HubOrder | null> {
      const rows = await db.query<{
        till_id: number;
        name: string;
        order_number: string;
        kind: OrderSnapshot['kind'];
        invoice_type: OrderSnapshot['invoice_type'];
        transaction_type: OrderSnapshot['transaction_type'];
        state: OrderSnapshot['state'];
        created_at: string;
        total_para: number;
        data: OrderSnapshot['data'];
        invoice_number: string | null;
        sdc_date_time: string | null;
        receipt: OrderSnapshot['receipt'];
      }>(
        // Through the order's key (hub migration 16): one probe of order_keys by one key at a time, then the order
        // in the one month table its time names, instead of a probe of every month's index.
        `SELECT o.*, t.name FROM order_keys k
           JOIN orders o ON o.till_id = k.till_id AND o.order_number = k.order_number AND o.created_at = k.created_at
           JOIN tills t ON t.id = k.till_id
          WHERE k.shop_id = $1 AND ${
            input.invoiceNumber !== undefined
              ? `k.invoice_number = $2 ${input.orderNumber !== undefined ? 'AND k.order_number = $3' : ''}`
              : 'k.order_number = $2'
          }
          ORDER BY k.created_at LIMIT 1`,
        input.invoiceNumber !== undefined
          ? [till.shopId, input.invoiceNumber, ...(input.orderNumber !== undefined ? [input.orderNumber] : [])]
          : [till.shopId, input.orderNumber ?? ''],
      );
      const r = rows[0];
      if (!r) return null;
      // Every refund of it (one probe of orders_refund_of): whether any till refunded it, and what OTHER tills
      // refunded, so a partial refund here never takes back more than is left.
      const allRefunds = r.invoice_number
        ? await db.query<{ till_id: number; order_number: string; refund_of: unknown }>(
            `SELECT o.till_id, o.order_number, o.data->'refundOf' AS refund_of FROM orders o
             WHERE o.shop_id = $1 AND o.kind IN ('refund', 'refund_full') AND o.data->'refundOf'->>'invoiceNumber' = $2
               AND ${countedRefund('o')}
             ORDER BY o.till_id, o.order_number`,
            [till.shopId, r.invoice_number],
          )
        : [];
      const refunds = allRefunds.filter((x) => x.till_id !== till.id);
      return {
        tillId: r.till_id,
        tillName: r.name,
        refunded: allRefunds.length > 0,
        refunds: refunds.map((x) => ({ tillId: x.till_id, orderNumber: x.order_number, refundOf: x.refund_of })),
        order: {
          order_number: r.order_number,
          kind: r.kind,
          invoice_type: r.invoice_type,
          transaction_type: r.transaction_type,
          state: r.state,
          created_at: r.created_at,
          total_para: r.total_para,
          data: r.data,
          invoice_number: r.invoice_number,
          sdc_date_time: r.sdc_date_time,
          receipt: r.receipt,
        },
      };
    },

    /** Every till of a shop (of the chain without `shopId`), live: last seen, reported queues, gaps, alarms. */
    async tillStatus(shopId?: number, now = Date.now()): Promise<TillLive[]> {
      const tills = await db.query<{
        id: number;
        shop_id: number;
        name: string;
        last_seen: string | null;
        status: unknown;
        refusal: unknown;
        revoked_at: string | null;
      }>(
        'SELECT id, shop_id, name, last_seen, status, refusal, revoked_at FROM tills WHERE ($1::int4 IS NULL OR shop_id = $1) ORDER BY id',
        [shopId ?? null],
      );
      const claims = await db.query<{
        till_id: number;
        seq: number;
        order_number: string;
        invoice_number: string;
        holder_till_id: number | null;
        holder_order_number: string | null;
        at: string;
        code: string;
      }>(
        `SELECT c.till_id, c.seq, c.order_number, c.invoice_number, c.holder_till_id, c.holder_order_number, c.at, c.code
           FROM invoice_claims c JOIN tills t ON t.id = c.till_id
          WHERE c.cleared_at IS NULL AND ($1::int4 IS NULL OR t.shop_id = $1) ORDER BY c.id`,
        [shopId ?? null],
      );
      const out: TillLive[] = [];
      for (const t of tills) {
        const status = TillStatus.safeParse(t.status);
        const refusal = TillRefusal.safeParse(t.refusal);
        out.push(
          tillLive(
            {
              tillId: t.id,
              name: t.name,
              shopId: t.shop_id,
              lastSeen: t.last_seen,
              status: status.success ? status.data : null,
              gaps: await gapsOf(db, t.id),
              refusal: refusal.success ? refusal.data : null,
              revoked: t.revoked_at !== null,
              claims: claims
                .filter((c) => c.till_id === t.id)
                .map((c) => ({
                  seq: c.seq,
                  orderNumber: c.order_number,
                  invoiceNumber: c.invoice_number,
                  holderTillId: c.holder_till_id,
                  holderOrderNumber: c.holder_order_number,
                  at: c.at,
                  code: c.code,
                })),
            },
            now,
          ),
        );
      }
      return out;
    },

    /**
     * One page of a shop's catalog (deleted products left out) in code order after `after`: all products, or
     * those whose code starts with `query` or whose name holds it (case folded). `next` is the code to pass as
     * `after` for the next page, null on the last; `total` counts the shop's products. A keyset on
     * `products_live`: as fast at the 2,000th page as at the first.
     */
    async productPage(
      shopId: number,
      o: { query?: string; after?: string; limit?: number } = {},
    ): Promise<{ products: (ProductInput & { version: number })[]; next: string | null; total: number }> {
      const limit = o.limit ?? 50;
      // Each folded word anywhere in the folded name and code (hub migration 15), so „mleko 2“ finds „Млеко 2,8%“.
      const words = foldText(o.query ?? '')
        .split(' ')
        .filter(Boolean)
        .slice(0, 8);
      // Two statements, so the plain page's plan is the keyset on `products_live` whatever a search needs.
      const rows =
        words.length === 0
          ? await db.query<ProductRow>(
              `SELECT * FROM products WHERE shop_id = $1 AND NOT deleted AND code > $2 ORDER BY code LIMIT $3`,
              [shopId, o.after ?? '', limit + 1],
            )
          : await db.query<ProductRow>(
              `SELECT * FROM products WHERE shop_id = $1 AND NOT deleted AND code > $2
                 AND ${words.map((_, i) => `search LIKE $${i + 4}`).join(' AND ')}
               ORDER BY code LIMIT $3`,
              // A folded word is letters and digits only: nothing in it is a LIKE wildcard.
              [shopId, o.after ?? '', limit + 1, ...words.map((w) => `%${w}%`)],
            );
      const page = rows.slice(0, limit);
      return {
        products: page.map((p) => ({ ...productOf(p), version: Number(p.version) })),
        next: rows.length > limit ? (page.at(-1)?.code ?? null) : null,
        total: await productCount(shopId),
      };
    },

    /** The tax labels the shop's tills report (the product form's choice; empty before any till reported). */
    taxLabels(shopId: number): Promise<string[]> {
      return reportedLabels(db, shopId);
    },

    /** A shop's product groups with their product counts, by name (the bulk price change's choice). */
    async productGroups(shopId: number): Promise<{ name: string; products: number }[]> {
      const rows = await db.query<{ name: string; n: number }>(
        `SELECT grp AS name, count(*)::int8 AS n FROM products WHERE shop_id = $1 AND NOT deleted AND grp IS NOT NULL
         GROUP BY grp ORDER BY grp`,
        [shopId],
      );
      return rows.map((r) => ({ name: r.name, products: Number(r.n) }));
    },

    /**
     * Changes every price of a shop's group by `percentBp` hundredths of a percent (shared/catalog/price-change.ts)
     * in ONE transaction; each changed product gets a new version, so every till takes it at its next pull.
     * A dry run only counts. 400 `group_unknown` at `group` when the group has no products.
     */
    async bulkPrice(shopId: number, group: string, percentBp: number, dryRun = false): Promise<number> {
      return db.tx(async (q) => {
        await lockMasterData(q);
        const rows = await q.query<{ code: string; price_para: number }>(
          'SELECT code, price_para FROM products WHERE shop_id = $1 AND grp = $2 AND NOT deleted',
          [shopId, group],
        );
        if (rows.length === 0) throw new HubError(400, 'group_unknown', `the group ${group} has no products`, 'group');
        if (dryRun) return rows.length;
        const changed = rows
          .map((r) => ({ code: r.code, price: changePriceByPercent(Number(r.price_para), percentBp) }))
          .filter((c, i) => c.price !== Number(rows[i]?.price_para));
        if (changed.length > 0)
          await q.query(
            `UPDATE products p SET price_para = c.price, version = nextval('change_seq')
             FROM jsonb_to_recordset($2::jsonb) AS c(code text, price bigint)
             WHERE p.shop_id = $1 AND p.code = c.code`,
            [shopId, JSON.stringify(changed)],
          );
        return rows.length;
      });
    },

    /** A shop's whole catalog as CSV with the till import's columns, in code order (shared/catalog/csv-export.ts). */
    async productsCsv(shopId: number, lang: Language = 'sr-Cyrl'): Promise<{ csv: string; products: number }> {
      const rows = await db.query<ProductRow>(
        'SELECT * FROM products WHERE shop_id = $1 AND NOT deleted ORDER BY code',
        [shopId],
      );
      return { csv: catalogCsv(rows.map(productOf), lang), products: rows.length };
    },

    /** The active managers of every shop (id, name, shop, PIN hash), for the hub UI's login. */
    async managers(shopId: number): Promise<{ shopId: number; id: string; name: string; pinHash: string }[]> {
      const rows = await db.query<{ shop_id: number; id: string; name: string; pin_hash: string }>(
        "SELECT shop_id, id, name, pin_hash FROM staff WHERE shop_id = $1 AND role = 'manager' AND active ORDER BY name",
        [shopId],
      );
      return rows.map((r) => ({ shopId: r.shop_id, id: r.id, name: r.name, pinHash: r.pin_hash }));
    },

    /**
     * The shop a hub login is for: the one it names, or the hub's only shop when it names none. A hub of
     * several shops needs the shop named (the PIN is compared with that shop's managers only).
     */
    async loginShop(shopId: number | undefined): Promise<number> {
      const shops = await db.query<{ id: number }>('SELECT id FROM shops ORDER BY id LIMIT 2');
      if (shopId === undefined) {
        if (shops.length === 1 && shops[0]) return shops[0].id;
        throw new HubError(400, 'invalid_input', 'shopId: this hub has several shops; name the shop', 'shopId');
      }
      const have = await db.query('SELECT 1 FROM shops WHERE id = $1', [shopId]);
      if (!have.length) throw new HubError(404, 'shop_unknown', `no shop ${shopId}`, 'shopId');
      return shopId;
    },

    /** The shops' ids and names, for the hub UI's login (which shop a manager logs in to). */
    async shops(): Promise<{ id: number; name: string }[]> {
      return db.query<{ id: number; name: string }>('SELECT id, name FROM shops ORDER BY id');
    },

    /** The consolidated report (hub/reports.ts). */
    report(input: ReportInput, now = Date.now()): Promise<HubReport> {
      return hubReport(db, input, now, zone);
    },

    /** The receipts list for the accountant (hub/report-receipts.ts). */
    receipts(input: ReportInput, now = Date.now()): Promise<ReceiptRow[]> {
      return hubReceipts(db, input, now);
    },

    /** The day closer's failure while it lasts (hub/till-trust.ts): the managers' alarm; null while it works. */
    maintenance(): Promise<MaintenanceAlarm | null> {
      return maintenanceAlarm(db);
    },

    /** One round of closing days (hub/report-days.ts): what the day closer runs, for tests and benchmarks. */
    closeDays(at = Date.now()): Promise<{ closed: number; resummed: number }> {
      return closeDays(db, zone, at);
    },

    /** Prunes acknowledged history older than `keepMs` (hub/events.ts), as the day closer does. */
    pruneEvents(keepMs: number, at = Date.now()): Promise<number> {
      return pruneEvents(db, keepMs, at);
    },

    /** Orders of a shop stored at the hub (count, and the sum of totals), for tests and reports. */
    async orderCount(shopId: number): Promise<{ orders: number; totalPara: number }> {
      const r = await db.query<{ n: number; total: number }>(
        'SELECT count(*)::int8 AS n, coalesce(sum(total_para), 0)::int8 AS total FROM orders WHERE shop_id = $1',
        [shopId],
      );
      return { orders: r[0]?.n ?? 0, totalPara: r[0]?.total ?? 0 };
    },
  };
}

export type HubService = ReturnType<typeof createHubService>;
