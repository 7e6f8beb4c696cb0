/**
 * The staff area: a shop's people and their PINs, as the tills push and offer them (sync) and as the hub UI
 * edits them. Every change gets a new version, so every till of the shop takes it at its next pull.
 */
import crypto from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import { recordAudit } from '../audit.ts';
import { checkedPersonName } from '../person-names.ts';
import { tillActor } from '../till-trust.ts';
import {
  HubError,
  type HubPerson,
  type HubStaffRow,
  type PushRefusal,
  type StaffInput,
  type StaffSnapshot as StaffSnapshotRow,
  type TillPerson,
} from '../../shared/hub/protocol.ts';
import { MIN_MANAGER_PIN_DIGITS, staffChangeRefusal } from '../../shared/contract/staff.ts';
import { hashPin, verifyPin } from '../../shared/node/pin.ts';
import { makeVerifiers, verifierAt } from '../pin-verifiers.ts';
import { MANAGER_PIN_TEXT, managerPinProblem } from '../../shared/staff/pin-strength.ts';
import { composeAreas, lockMasterData, type AuthedTill, type HubDeps } from './shared.ts';

/** The hub's own words for a staff refusal (for API users; the hub UI translates the code). */
const refusalText = {
  staff_self: 'a manager cannot deactivate themself: another manager does that',
  last_manager: 'the last active manager of the shop stays active',
} as const;

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
export async function pushedStaff(
  q: Queryable,
  till: AuthedTill,
  s: StaffSnapshotRow,
  seq: number,
  place: number,
  now: () => Date,
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
    return refuse('staff_unapproved', row ? 'pin_hash' : 'id', "a staff change needs a manager's approval at the hub");
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

/** What a till asks of the shop's people: its people adopted or mapped at enrolment, an approved change. */
function staffSyncService(deps: HubDeps) {
  const { db } = deps;
  return {
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
  };
}

/** The hub UI's staff list: people written by name or id, listed, deactivated or reactivated. */
function staffEditService(deps: HubDeps) {
  const { db } = deps;
  return {
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
  };
}

/** The hub UI's new people and new PINs, checked by the till's PIN rules. */
function staffPinService(deps: HubDeps) {
  const { db } = deps;

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

  return {
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
  };
}

export function staffService(deps: HubDeps) {
  return composeAreas({
    sync: staffSyncService(deps),
    edit: staffEditService(deps),
    pins: staffPinService(deps),
  });
}
