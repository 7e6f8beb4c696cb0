/**
 * People at the till: cashiers and managers with PINs, manager approval, and the audit log.
 *
 * - A PIN is stored only as `scrypt$<salt>$<hash>` (node:crypto scrypt, 16-byte random salt per PIN) and
 *   compared with `timingSafeEqual`. PINs never leave the core and are never logged.
 * - A PIN identifies its person, so PINs are unique among active people.
 * - First run: a default manager (`Менаџер`, in the till's language) with PIN `0000` is created and flagged
 *   `mustChangePin`; the UI warns until it is changed (README: "First run").
 * - Cashiers live on the gateway (`/cashiers`, when online) and are cached here for offline login.
 * - Wrong PINs are counted per till and per logged-in person in SQLite before the compare, with an
 *   exponential lockout (electron/auth/attempts.ts); the first-run PIN approves nothing.
 */
import crypto from 'node:crypto';
import type { Db } from '../db/open.ts';
import type { GatewayClient } from '../gateway/client.ts';
import { GatewayError } from '../gateway/errors.ts';
import { CommandError } from '../errors.ts';
import { countUpTo } from '../orders/store.ts';
import { PinAttempts, type Lockout } from './attempts.ts';
import { hashPin } from '../../shared/node/pin.ts';
import { isTillVerifier } from '../../shared/node/pin-verifier.ts';
import { decidedHere, matchesPin, type HubPins } from './hub-pins.ts';
import { currentCall } from './context.ts';
import type { StaffRole, StaffView, AuditEntry } from '../../shared/contract/index.ts';
import { staffChangeRefusal } from '../../shared/contract/staff.ts';
import type { Language } from '../../shared/domain.ts';
import { message } from '../../shared/messages.ts';
import { personName, personNameProblem } from '../../shared/staff/person-name.ts';
import { DEFAULT_MANAGER_PIN, managerPinProblem } from '../../shared/staff/pin-strength.ts';

export { DEFAULT_MANAGER_PIN };

interface StaffRow {
  id: number;
  uid: string;
  name: string;
  role: StaffRole;
  pin_hash: string;
  gateway_id: number | null;
  email: string | null;
  phone: string | null;
  active: number;
  must_change_pin: number;
  /** 1: a person the store hub sent (migration 034). */
  at_hub: number;
}

export interface StaffDeps {
  db: Db;
  client: () => GatewayClient;
  now: () => number;
  /** PIN entry was locked (the status-bar alarm). */
  onLockout?: (lockout: Lockout) => void;
  /** The till's language: the first manager's name is written in it (sr-Cyrl when not given). */
  language?: () => Language;
  /**
   * At a till enrolled with a store hub a staff change goes to the hub first, approved by the PIN typed in `field`,
   * which the hub checks against its own managers (hub-client/sync.ts `approveStaff`); it throws when refused or
   * unreachable, and answers false when the till is not enrolled (the change is the till's own).
   */
  hubStaff?: (approverPin: string, person: HubPersonChange, field: string) => Promise<boolean>;
  /**
   * The first-run manager set their first PIN: at an enrolled till they are nobody at the hub yet, and the hub link
   * offers them to the shop (adopted, or a staff choice for a hub manager: hub-client/sync.ts `offerLatePeople`).
   */
  hubFirstPin?: () => Promise<void>;
  /** At a till enrolled with a store hub: its verifiers, the hub's PIN check and own-PIN change (./hub-pins.ts). */
  hubPins?: HubPins;
}

/**
 * A person as a staff change sends them to the hub: the stable id, and with a PIN set here its hash and the PIN itself
 * (the hub makes every till's verifier of it: electron/auth/hub-pins.ts); no hash keeps the hub's.
 */
export interface HubPersonChange {
  id: string;
  name: string;
  role: StaffRole;
  pinHash?: string;
  pin?: string;
  active: boolean;
}

export class StaffService {
  readonly #db: Db;
  readonly #deps: StaffDeps;
  readonly attempts: PinAttempts;

  constructor(deps: StaffDeps) {
    this.#db = deps.db;
    this.#deps = deps;
    this.attempts = new PinAttempts(deps.db, deps.now, (l) => {
      this.audit(currentCall()?.actor?.name ?? null, 'staff.pinLockout', {
        scope: l.scope,
        until: new Date(l.until).toISOString(),
      });
      deps.onLockout?.(l);
    });
  }

  /** Creates the default manager (PIN 0000, must change) when no manager exists. Returns true if it did. */
  async ensureDefaultManager(): Promise<boolean> {
    const n =
      this.#db.prepare<[], { n: number }>("SELECT count(*) AS n FROM staff WHERE role = 'manager'").get()?.n ?? 0;
    if (n > 0) return false;
    const hash = await hashPin(DEFAULT_MANAGER_PIN);
    const at = this.#iso();
    // A person's name from then on (renamed in the setup flow), so in the language the till was set up in.
    const name = message(this.#deps.language?.() ?? 'sr-Cyrl', 'default_manager_name');
    this.#db
      .prepare(
        `INSERT INTO staff (uid, name, role, pin_hash, active, must_change_pin, created_at, updated_at)
         VALUES (?, ?, 'manager', ?, 1, 1, ?, ?)`,
      )
      .run(crypto.randomUUID(), name, hash, at, at);
    this.audit(null, 'staff.defaultManager', { name });
    return true;
  }

  /** No active manager has a PIN of their own yet: the till is new (AppInfo.firstRun). */
  firstRun(): boolean {
    const row = this.#db
      .prepare<[], { n: number }>(
        "SELECT count(*) AS n FROM staff WHERE role = 'manager' AND active = 1 AND must_change_pin = 0",
      )
      .get();
    return (row?.n ?? 0) === 0;
  }

  /** The active person whose PIN this is. Wrong PIN: forbidden (`pin_wrong`), counted for the lockout. */
  async identify(pin: string, field: string): Promise<StaffView> {
    const actor = currentCall()?.actor;
    const scopes = ['till', ...(actor ? [`person:${actor.id}`] : [])];
    // Counted (or refused) atomically before the slow compare: a parallel burst cannot outrun the lock.
    this.attempts.begin(scopes);
    // Deactivated people are checked too, so that their login is refused in words (not as a wrong PIN).
    const rows = this.#db.prepare<[], StaffRow>("SELECT * FROM staff WHERE pin_hash <> '' ORDER BY active DESC").all();
    const ctx = this.#deps.hubPins?.context() ?? null;
    let found: StaffRow | undefined;
    // Every hash is checked, so the time taken does not tell which row matched; an active person wins.
    for (const row of rows) if ((await matchesPin(pin, row.pin_hash, row.uid, ctx)) && !found) found = row;
    // Enrolled: a manager's verifier, a hash this till made of a person at the hub, or an unknown PIN is the hub's
    // to decide while it answers; with the hub away this till's match stands (./hub-pins.ts).
    let hubAway = false;
    if (this.#deps.hubPins && ctx && !(found && decidedHere(found.pin_hash, found.role, found.at_hub === 1))) {
      const learns = found !== undefined && !isTillVerifier(found.pin_hash);
      const answer = await this.#deps.hubPins.check(pin, found?.uid, field, learns);
      if (answer.kind === 'person') {
        found = this.#db.prepare<[string], StaffRow>('SELECT * FROM staff WHERE uid = ?').get(answer.id);
        // The hub's person not pulled here yet (a second at most): asked again in a moment.
        if (!found) throw new CommandError('unavailable', 'hub_needed', { field }, field);
      } else if (answer.kind === 'unknown' && found?.active === 1) found = undefined;
      hubAway = answer.kind === 'away';
    }
    if (!found) {
      this.audit(actor?.name ?? null, 'staff.pinRejected', { field, command: currentCall()?.command ?? null });
      // Nothing here matched, and the hub, which alone checks some person's PIN here, did not answer in time: not
      // „wrong PIN“ to that person on a slow LAN, but „try again“. Counted for the lockout all the same (no
      // `succeed`): a guess learns nothing from it.
      if (hubAway && this.#someoneOnlyTheHubChecks())
        throw new CommandError('unavailable', 'pin_hub_away', { field }, field);
      throw new CommandError('forbidden', 'pin_wrong', { field }, field);
    }
    if (found.active !== 1) {
      // Counted like a wrong PIN (no `succeed`): a deactivated person's PIN opens nothing.
      this.audit(found.name, 'staff.inactiveRefused', { id: found.id, command: currentCall()?.command ?? null });
      throw new CommandError('forbidden', 'staff_inactive', { field }, field);
    }
    this.attempts.succeed(scopes);
    return toView(found);
  }

  /** An active person whose PIN only the hub checks here (pulled with no verifier of it yet): a PIN may be theirs. */
  #someoneOnlyTheHubChecks(): boolean {
    return (
      this.#db.prepare("SELECT 1 FROM staff WHERE active = 1 AND at_hub = 1 AND pin_hash = ''").get() !== undefined
    );
  }

  /**
   * The active manager whose PIN this is (counted against brute force like every PIN). Only the guard asks
   * (electron/auth/guard.ts), once per command; handlers receive the manager. The first-run PIN approves
   * nothing.
   */
  async approver(pin: string, field = 'managerPin'): Promise<StaffView> {
    const call = currentCall();
    const who = await this.identify(pin, field);
    if (who.role !== 'manager') {
      this.audit(who.name, 'approval.refused', { field, command: call?.command ?? null });
      throw new CommandError('forbidden', 'pin_not_manager', { field }, field);
    }
    if (who.mustChangePin) {
      this.audit(who.name, 'approval.refused', { field, command: call?.command ?? null, reason: 'first-run PIN' });
      throw new CommandError('forbidden', 'pin_must_change', { field }, field);
    }
    return who;
  }

  /** Writes one audit entry (who, what, details as JSON; the approving manager of the current call). */
  audit(
    actor: string | null,
    action: string,
    detail: Record<string, unknown> = {},
    approver: string | null = currentCall()?.approver?.name ?? null,
  ): void {
    this.#db
      .prepare('INSERT INTO audit_log (at, actor, action, detail, approver) VALUES (?, ?, ?, ?, ?)')
      .run(this.#iso(), actor, action, JSON.stringify(detail), approver);
  }

  /** The audit log, newest first; the total counted up to `COUNT_CAP` past the page (the log grows for years). */
  auditList(limit: number, offset: number): { entries: AuditEntry[]; total: number } {
    const entries = this.#db
      .prepare<[number, number], AuditEntry>(
        'SELECT id, at, actor, approver, action, detail FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?',
      )
      .all(limit, offset);
    const total = countUpTo(this.#db, 'SELECT 1 FROM audit_log', [], offset);
    return { entries, total };
  }

  /**
   * Everyone who can log in. When the gateway answers, its cashiers are merged into the local cache
   * first (new ones without a PIN until a manager sets one); offline the cache answers alone.
   */
  async list(search?: string): Promise<{ staff: StaffView[]; online: boolean }> {
    let online = true;
    try {
      const res = await this.#deps
        .client()
        .listCashiers({ limit: 100, ...(search ? { search } : {}) }, { timeoutMs: 5000 });
      this.#db.transaction(() => {
        for (const raw of res.items) this.#mergeCashier(raw);
      })();
    } catch {
      online = false;
    }
    const rows = this.#db.prepare<[], StaffRow>('SELECT * FROM staff ORDER BY role DESC, name').all();
    const q = search?.toLocaleLowerCase('sr');
    const staff = rows
      .map(toView)
      .filter((s) => !q || s.name.toLocaleLowerCase('sr').includes(q) || (s.email ?? '').toLowerCase().includes(q));
    return { staff, online };
  }

  /** Registers the person at the gateway (`POST /cashiers`), then stores them with the hashed PIN. */
  async create(
    actor: string,
    input: { name: string; role: StaffRole; pin: string; email?: string | undefined; phone?: string | undefined },
    managerPin?: string,
  ): Promise<StaffView> {
    input = { ...input, name: personName(input.name) };
    this.#ensureNameFree(input.name, null);
    this.#ensureManagerPinStrong(input.pin, input.role, 'pin');
    await this.#ensurePinFree(input.pin, null, 'pin');
    const uid = crypto.randomUUID();
    const hash = await hashPin(input.pin);
    // Enrolled: the hub first (the manager's PIN checked there); refused or away, nothing is made. Taken there, the
    // person is the hub's from now on (`at_hub`), before this till's next pull brings them back.
    const atHub =
      managerPin !== undefined &&
      (await this.#deps.hubStaff?.(
        managerPin,
        { id: uid, name: input.name, role: input.role, pinHash: hash, pin: input.pin, active: true },
        'managerPin',
      )) === true;
    const body: Record<string, unknown> = { name: input.name, active: true };
    if (input.email) body['email'] = input.email;
    if (input.phone) body['phone'] = input.phone;
    const created = await this.#gateway(() => this.#deps.client().createCashier(body));
    const gatewayId = typeof created['id'] === 'number' ? created['id'] : null;
    const at = this.#iso();
    // Enrolled, the hub's pull may have brought the person already (with this till's verifier): that row is theirs.
    const id =
      this.#db
        .prepare<unknown[], { id: number }>(
          `INSERT INTO staff (uid, name, role, pin_hash, gateway_id, email, phone, active, must_change_pin, created_at,
             updated_at, at_hub) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 0, ?, ?, ?)
           ON CONFLICT (uid) DO UPDATE SET gateway_id = excluded.gateway_id, email = excluded.email,
             phone = excluded.phone
           RETURNING id`,
        )
        .get(
          uid,
          input.name,
          input.role,
          hash,
          gatewayId,
          input.email ?? null,
          input.phone ?? null,
          at,
          at,
          atHub ? 1 : 0,
        )?.id ?? 0;
    this.audit(actor, 'staff.create', { id, name: input.name, role: input.role, gatewayId });
    return this.get(id);
  }

  /**
   * Updates a person (at the gateway too when registered there). `self` are the ids of the people acting
   * (the approving manager, the manager logged in): nobody deactivates or demotes themself, and the last
   * active manager stays (shared/contract/staff.ts `staffChangeRefusal`). Refused: nothing changes. Audited as
   * `staff.deactivate`, `staff.reactivate`, `staff.resetPin` or `staff.update`, with actor and approver.
   */
  async update(
    actor: string,
    input: {
      id: number;
      name?: string | undefined;
      role?: StaffRole | undefined;
      pin?: string | undefined;
      email?: string | undefined;
      phone?: string | undefined;
      active?: boolean | undefined;
    },
    self: readonly number[] = [],
    managerPin?: string,
  ): Promise<StaffView> {
    const row = this.#row(input.id);
    const others =
      this.#db
        .prepare<[number], { n: number }>(
          "SELECT count(*) AS n FROM staff WHERE role = 'manager' AND active = 1 AND id <> ?",
        )
        .get(input.id)?.n ?? 0;
    const refusal = staffChangeRefusal(
      { id: row.id, role: row.role, active: row.active === 1 },
      { role: input.role, active: input.active },
      self,
      others,
    );
    if (refusal) throw new CommandError('invalid_input', refusal.key, { field: refusal.field }, refusal.field);
    if (input.name !== undefined) {
      const name = personName(input.name);
      input = { ...input, name };
      this.#ensureNameFree(name, input.id);
    }
    if (input.pin === DEFAULT_MANAGER_PIN) throw new CommandError('invalid_input', 'pin_weak', { field: 'pin' }, 'pin');
    if (input.pin) this.#ensureManagerPinStrong(input.pin, input.role ?? row.role, 'pin');
    if (input.pin) await this.#ensurePinFree(input.pin, input.id, 'pin');
    const hash = input.pin ? await hashPin(input.pin) : null;
    // A verifier is not the hub's hash: without a new PIN the hub keeps the one it holds.
    const kept = row.pin_hash !== '' && !isTillVerifier(row.pin_hash) ? row.pin_hash : undefined;
    const after: HubPersonChange = {
      id: row.uid,
      name: input.name ?? row.name,
      role: input.role ?? row.role,
      ...(hash !== null ? { pinHash: hash, pin: input.pin } : kept ? { pinHash: kept } : {}),
      active: input.active ?? row.active === 1,
    };
    const synced =
      after.name !== row.name || after.role !== row.role || hash !== null || after.active !== (row.active === 1);
    // Enrolled: who may log in, and as what, changes at the hub first (the manager's PIN checked there). A person
    // without a PIN yet (a gateway cashier) is not at the hub; one pulled from the hub without a verifier here is.
    if (managerPin !== undefined && synced && (hash !== null || row.pin_hash !== '' || row.gateway_id === null))
      await this.#deps.hubStaff?.(managerPin, after, 'managerPin');
    if (row.gateway_id !== null) {
      const patch: Record<string, unknown> = {};
      if (input.name !== undefined) patch['name'] = input.name;
      if (input.email !== undefined) patch['email'] = input.email;
      if (input.phone !== undefined) patch['phone'] = input.phone;
      if (input.active !== undefined) patch['active'] = input.active;
      if (Object.keys(patch).length)
        await this.#gateway(() => this.#deps.client().updateCashier(row.gateway_id as number, patch));
    }
    this.#db
      .prepare(
        `UPDATE staff SET name = coalesce(?, name), role = coalesce(?, role), pin_hash = coalesce(?, pin_hash),
           email = coalesce(?, email), phone = coalesce(?, phone), active = coalesce(?, active),
           must_change_pin = CASE WHEN ? IS NULL THEN must_change_pin ELSE 0 END, updated_at = ? WHERE id = ?`,
      )
      .run(
        input.name ?? null,
        input.role ?? null,
        hash,
        input.email ?? null,
        input.phone ?? null,
        input.active === undefined ? null : input.active ? 1 : 0,
        hash,
        this.#iso(),
        input.id,
      );
    const fields = Object.keys(input).filter((k) => k !== 'id' && k !== 'pin' && k !== 'active');
    const target = { id: input.id, name: input.name ?? row.name };
    // One line per kind of change, so the log reads as what happened (never the PIN itself).
    if (input.active !== undefined && input.active !== (row.active === 1))
      this.audit(actor, input.active ? 'staff.reactivate' : 'staff.deactivate', target);
    if (input.pin) this.audit(actor, 'staff.resetPin', target);
    if (fields.length > 0) this.audit(actor, 'staff.update', { ...target, fields });
    return this.get(input.id);
  }

  /** Changes the PIN of whoever `currentPin` belongs to. */
  async changePin(currentPin: string, newPin: string): Promise<StaffView> {
    const who = await this.identify(currentPin, 'currentPin');
    if (newPin === DEFAULT_MANAGER_PIN)
      throw new CommandError('invalid_input', 'pin_weak', { field: 'newPin' }, 'newPin');
    // A manager's new PIN, the first-run change included, is not a trivial one (shared/staff/pin-strength.ts).
    this.#ensureManagerPinStrong(newPin, who.role, 'newPin');
    await this.#ensurePinFree(newPin, who.id, 'newPin');
    const mine = this.#row(who.id);
    // Enrolled, a person of the hub (one it sent, or one made here through it whose hash this till still holds until
    // its pull brings the verifier): through the hub, their current PIN being the proof it checks against its own
    // hash (issue 39); with the hub away it waits (`hub_needed`). Changed here alone, the hub and the other tills
    // would never learn it (a till's own staff push needs a manager's approval there). This till's new verifier comes
    // with the answer (or by pull: until then the hub decides their PIN here).
    if (
      !who.mustChangePin &&
      this.#deps.hubPins?.context() &&
      (mine.at_hub === 1 || mine.pin_hash === '' || isTillVerifier(mine.pin_hash))
    ) {
      const verifier = await this.#deps.hubPins.ownChange(currentPin, mine.uid, newPin);
      if (verifier !== false) {
        this.#db
          .prepare('UPDATE staff SET pin_hash = ?, must_change_pin = 0, updated_at = ? WHERE id = ?')
          .run(verifier ?? '', this.#iso(), who.id);
        this.audit(who.name, 'staff.changePin', { id: who.id });
        return this.get(who.id);
      }
    }
    const hash = await hashPin(newPin);
    // Enrolled: a manager's PIN this till made changes at the hub first, their current PIN being the approval the
    // hub checks; the first-run manager on 0000 is nobody at the hub yet.
    if (who.role === 'manager' && !who.mustChangePin) {
      const row = mine;
      await this.#deps.hubStaff?.(
        currentPin,
        { id: row.uid, name: row.name, role: row.role, pinHash: hash, pin: newPin, active: row.active === 1 },
        'currentPin',
      );
    }
    this.#db
      .prepare('UPDATE staff SET pin_hash = ?, must_change_pin = 0, updated_at = ? WHERE id = ?')
      .run(hash, this.#iso(), who.id);
    this.audit(who.name, 'staff.changePin', { id: who.id });
    // The PIN is set whatever the hub says; with the hub away the offer waits as a choice with no hub list.
    if (who.mustChangePin) await this.#deps.hubFirstPin?.();
    return this.get(who.id);
  }

  get(id: number): StaffView {
    return toView(this.#row(id));
  }

  #row(id: number): StaffRow {
    const row = this.#db.prepare<[number], StaffRow>('SELECT * FROM staff WHERE id = ?').get(id);
    if (!row) throw new CommandError('not_found', 'staff_not_found', { id });
    return row;
  }

  /** True while the person may act: exists and is active (a session of a deactivated person ends). */
  isActive(id: number): boolean {
    return (
      this.#db.prepare<[number], { active: number }>('SELECT active FROM staff WHERE id = ?').get(id)?.active === 1
    );
  }

  /**
   * Names identify people to each other (and to the hub): two people never share one, and a name follows the names'
   * rule shared with the hub (shared/staff/person-name.ts: no invisible characters, no word mixing scripts, no
   * look-alike of another person's name). `name` is already `personName`d.
   */
  #ensureNameFree(name: string, exceptId: number | null): void {
    const other = this.#db
      .prepare<[string, number], { id: number }>('SELECT id FROM staff WHERE name = ? AND id <> ?')
      .get(name, exceptId ?? 0);
    if (other) throw new CommandError('invalid_input', 'staff_name_taken', { field: 'name', value: name }, 'name');
    const others = this.#db
      .prepare<[number], { name: string }>('SELECT name FROM staff WHERE id <> ?')
      .all(exceptId ?? 0)
      .map((r) => r.name);
    const problem = personNameProblem(name, others);
    if (problem)
      throw new CommandError(
        'invalid_input',
        problem.key,
        { field: 'name', ...(problem.key === 'name_lookalike' ? { other: problem.other } : {}) },
        'name',
      );
  }

  /** A manager's PIN is not one digit repeated, a run (1234, 4321) or 0000: `pin_trivial` at `field`. */
  #ensureManagerPinStrong(pin: string, role: StaffRole, field: string): void {
    if (role !== 'manager') return;
    const problem = managerPinProblem(pin);
    if (problem) throw new CommandError('invalid_input', problem.key, { field }, field);
  }

  async #ensurePinFree(pin: string, exceptId: number | null, field: string): Promise<void> {
    const rows = this.#db.prepare<[], StaffRow>("SELECT * FROM staff WHERE active = 1 AND pin_hash <> ''").all();
    const ctx = this.#deps.hubPins?.context() ?? null;
    for (const row of rows) {
      if (row.id !== exceptId && (await matchesPin(pin, row.pin_hash, row.uid, ctx))) {
        throw new CommandError('invalid_input', 'pin_weak', { field }, field);
      }
    }
  }

  #mergeCashier(raw: unknown): void {
    if (!raw || typeof raw !== 'object') return;
    const c = raw as Record<string, unknown>;
    const id = typeof c['id'] === 'number' ? c['id'] : Number(c['id']);
    const name = typeof c['name'] === 'string' ? c['name'] : null;
    if (!Number.isInteger(id) || !name) return;
    const email = typeof c['email'] === 'string' ? c['email'] : null;
    const phone = typeof c['phone'] === 'string' ? c['phone'] : null;
    const active = c['active'] === false ? 0 : 1;
    const at = this.#iso();
    const existing = this.#db.prepare<[number], { id: number }>('SELECT id FROM staff WHERE gateway_id = ?').get(id);
    // A person of this name without a gateway link is this cashier: one the hub sent (created at another till,
    // which registered them at the gateway), or one made here while the gateway was away. A name is one person's
    // at a till, so the row takes the link rather than a second person of the name arriving without a PIN.
    const named = existing
      ? undefined
      : this.#db
          .prepare<[string], { id: number }>('SELECT id FROM staff WHERE name = ? AND gateway_id IS NULL')
          .get(name);
    if (named) {
      this.#db
        .prepare('UPDATE staff SET gateway_id = ?, email = coalesce(email, ?), phone = coalesce(phone, ?) WHERE id = ?')
        .run(id, email, phone, named.id);
    } else if (existing) {
      // Who may log in here is the till's and the hub's decision (a manager deactivated them): the gateway's
      // flag does not undo it, nor would it travel back to the hub as a change of this till.
      this.#db
        .prepare('UPDATE staff SET name = ?, email = ?, phone = ?, updated_at = ? WHERE id = ?')
        .run(name, email, phone, at, existing.id);
    } else {
      this.#db
        .prepare(
          `INSERT INTO staff (uid, name, role, pin_hash, gateway_id, email, phone, active, must_change_pin, created_at,
             updated_at) VALUES (?, ?, 'cashier', '', ?, ?, ?, ?, 0, ?, ?)`,
        )
        .run(crypto.randomUUID(), name, id, email, phone, active, at, at);
    }
  }

  async #gateway<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw gatewayCommandError(err);
    }
  }

  #iso(): string {
    return new Date(this.#deps.now()).toISOString();
  }

  /**
   * The manager's staff choice at enrolment (hub-client/sync.ts), in the caller's transaction: a person added to
   * the shop keeps their id under the name the hub took for them, and a person mapped to one of the hub's takes
   * that person's id (their PIN hash and role then come by pull), or goes when the hub's is here already.
   */
  static applyStaffChoice(
    db: Db,
    added: readonly { id: string; name: string }[],
    mapped: readonly { from: string; to: string }[],
  ): void {
    const rename = db.prepare('UPDATE staff SET name = ? WHERE uid = ?');
    for (const a of added) rename.run(a.name, a.id);
    // The hub's person's PIN is theirs: the hash this till made of its own person goes (their verifier comes by pull).
    const adopt = db.prepare("UPDATE staff SET uid = ?, pin_hash = '' WHERE uid = ?");
    // A hub person this till already has (pulled before its own person had a PIN: a till enrolled on its first-run
    // PIN) is that person here already: the till's row of them goes, and the hub's stays.
    const here = db.prepare<[string], { id: number }>('SELECT id FROM staff WHERE uid = ?');
    const drop = db.prepare('DELETE FROM staff WHERE uid = ?');
    for (const m of mapped) {
      if (here.get(m.to)) drop.run(m.from);
      else adopt.run(m.to, m.from);
    }
  }

  /**
   * The shop's people as the store hub sends them (hub-client/sync.ts), in the caller's transaction: each taken
   * whole by its id (never by name: the hub's "Менаџер" is not this till's first-run one) and marked `at_hub`, with
   * this till's verifier of their PIN in the place of a hash; until the hub made one, a hash this till made of them
   * stays (it verifies nothing elsewhere: a manager made here before enrolment approves offline), else '' (the hub
   * decides their PIN here until then; issue 39); its PIN no longer to be changed here; a row that already says so
   * is left as it is. The caller turns the
   * outbox rows its triggers write into notes of the till's history (no echo to the hub).
   *
   * A person new here whose name is a cashier's this till took from the gateway's list and who has no PIN here
   * (nobody may log in as them yet) is that cashier: the row takes the hub's id, keeping its gateway link. Every
   * till imports the gateway's cashiers itself, each under its own id, and the one whose PIN a manager set reaches
   * the others by pull; without this they would hold two people of one name.
   */
  static applyHubStaff(
    db: Db,
    people: readonly { id: string; name: string; role: StaffRole; verifier: string; active: boolean }[],
    at: string,
  ): void {
    const update = db.prepare(
      `UPDATE staff SET name = ?, role = ?, pin_hash = ?, active = ?, updated_at = ?, must_change_pin = 0, at_hub = 1
         WHERE uid = ? AND (name IS NOT ? OR role IS NOT ? OR pin_hash IS NOT ? OR active IS NOT ?
           OR must_change_pin = 1 OR at_hub = 0)`,
    );
    const exists = db.prepare<[string], { id: number }>('SELECT id FROM staff WHERE uid = ?');
    // A hash this till made (a manager made here before enrolment), kept while the hub has no verifier for this till.
    const ownHash = db.prepare<[string], { pin_hash: string }>(
      "SELECT pin_hash FROM staff WHERE uid = ? AND must_change_pin = 0 AND substr(pin_hash, 1, 7) = 'scrypt$'",
    );
    const insert = db.prepare(
      'INSERT INTO staff (uid, name, role, pin_hash, active, created_at, updated_at, at_hub) VALUES (?, ?, ?, ?, ?, ?, ?, 1)',
    );
    const pinless = db.prepare<[string, string], { id: number }>(
      "SELECT id FROM staff WHERE name = ? AND uid <> ? AND pin_hash = '' AND gateway_id IS NOT NULL",
    );
    const adopt = db.prepare('UPDATE staff SET uid = ? WHERE id = ?');
    for (const s of people) {
      const active = s.active ? 1 : 0;
      const imported = exists.get(s.id) ? undefined : pinless.get(s.name, s.id);
      if (imported) adopt.run(s.id, imported.id);
      const pin = s.verifier === '' ? (ownHash.get(s.id)?.pin_hash ?? '') : s.verifier;
      if (imported || exists.get(s.id)) update.run(s.name, s.role, pin, active, at, s.id, s.name, s.role, pin, active);
      else insert.run(s.id, s.name, s.role, s.verifier, active, at, at);
    }
  }
}

/** A gateway failure of a back-office call as a command error a manager understands. */
export function gatewayCommandError(err: unknown, notFoundField?: string, invoice?: string): CommandError {
  if (err instanceof GatewayError) {
    if (err.kind !== 'http' || err.status === null || err.status >= 500) {
      return new CommandError('unavailable', 'gateway_unreachable', { reason: err.message });
    }
    if (err.status === 404 && notFoundField) {
      return new CommandError(
        'invalid_input',
        'invoice_not_found',
        { field: notFoundField, invoice: invoice ?? '' },
        notFoundField,
      );
    }
    if (err.status === 401) return new CommandError('forbidden', 'api_key_invalid', { field: 'apiKey' });
    if (err.status === 403) return new CommandError('forbidden', 'api_key_forbidden', { field: 'apiKey' });
    const first = err.validationErrors[0];
    if (first) return new CommandError('invalid_input', 'invalid', { field: first.field }, first.field);
    return new CommandError('conflict', 'gateway_unreachable', { reason: err.message });
  }
  return new CommandError('unavailable', 'gateway_unreachable', {
    reason: err instanceof Error ? err.message : String(err),
  });
}

function toView(r: StaffRow): StaffView {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    active: r.active === 1,
    ...(r.email ? { email: r.email } : {}),
    ...(r.phone ? { phone: r.phone } : {}),
    ...(r.gateway_id !== null ? { gatewayId: r.gateway_id } : {}),
    mustChangePin: r.must_change_pin === 1,
  };
}
