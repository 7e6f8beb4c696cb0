/**
 * The till's side of the store hub. Up: the rows the triggers of migration 009 put into `hub_outbox`
 * (in the same transaction as the order, its state change, the audit entry or the staff change) are pushed
 * in batches, oldest first, and deleted only once the hub acknowledged them; a lost answer means the same
 * batch again, which the hub acknowledges as duplicates. Down: master data after `hub_state.cursor`, each
 * batch applied in one transaction together with the new cursor, every table written by its owner (products
 * by the catalog, people by auth/staff.ts, settings by Settings). A round runs every second; after one that
 * failed (hub away) the next waits longer each time (policy `hubSync`), and one that works restores the pace.
 *
 * Configuration: KASA_HUB_URL (or the `hubUrl` setting) and, once, KASA_HUB_ENROL_CODE with KASA_HUB_FINGERPRINT
 * (the SHA-256 of the hub's certificate, pinned at enrolment into `hub_state.pin`); the credential the
 * hub issues lives in `<dataDir>/hub-credential` (0600, like the host's API key file) and is never logged.
 * Without a hub URL nothing here runs and the till behaves exactly as without a hub.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/open.ts';
import type { Logger } from '../log/logger.ts';
import { writePrivate } from '../settings/secrets.ts';
import { CommandError } from '../errors.ts';
import { createCatalogService, type CatalogService } from '../catalog/service.ts';
import { StaffService } from '../auth/staff.ts';
import { applyHubPrices } from '../prices/service.ts';
import { HubPriceChange } from '../../shared/hub/prices.ts';
import type { HubPinAnswer, PinContext } from '../auth/hub-pins.ts';
import { Settings } from '../settings/settings.ts';
import type { HubRefusedView, HubStatusView } from '../../shared/contract/hub.ts';
import type { BarcodeRule } from '../../shared/contract/catalog.ts';
import {
  REFUSED_BATCH_STATUSES,
  ShopSettings,
  type ChangesResult,
  type HubEvent,
  type HubOrder,
  type HubPerson,
  type PushResult,
  type TillPerson,
  type TillPrinter,
  type TillStatus,
} from '../../shared/hub/protocol.ts';
import type { RefundHoldInput } from '../../shared/hub/protocol.ts';
import type { PrintStatus } from '../../shared/contract/printer.ts';
import { HubClient, HubError, HubTransportError } from './client.ts';
import { normalizeFingerprint } from '../../shared/hub/fingerprint.ts';
import { PinMismatchError, type PinnedFetch } from '../../shared/node/pinned-fetch.ts';
import { shiftOutboxSql } from '../db/migrations/017_hub_shifts.ts';
import { ORDER_ROW_SNAPSHOT_JSON } from '../db/migrations/024_hub_extra_receipts.ts';
import { createSyncLoop, type SyncLoop } from '../retry/loop.ts';
import { POLICIES, type BackoffPolicy } from '../retry/policy.ts';

export const PUSH_BATCH = 200;
/** A batch the hub refused whole is offered again after this long (a fixed hub may take it), not every second. */
export const REFUSED_RETRY_MS = 10 * 60_000;

/** The hub's word on a refund hold, as the till acts on it. */
export type RefundHoldAnswer =
  | { outcome: 'held' }
  | { outcome: 'refused'; remaining: { index: number; quantityMilli: number }[] }
  | { outcome: 'away' };

export interface HubSyncOptions {
  db: Db;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** The till's gateway queue, reported to the hub with every push. */
  counts: () => { queued: number; needsAttention: number; oldestQueuedAt: string | null };
  /** The receipt printer's state, reported with every push (the hub's till view and its alarms). */
  printer?: () => PrintStatus;
  /** The current tax labels (the gateway's), reported so the hub refuses a product with another label. */
  taxLabels?: () => string[];
  /** The current labels' VAT rates (percent), reported with the labels for the hub's goods receipts. */
  taxRates?: () => { label: string; rate: number }[];
  terminalId: () => string;
  /**
   * Milliseconds between sync rounds (default 1000: a hub price change is on the till within ~1 s). After a
   * round that failed the next waits per the policy `hubSync` instead, longer with each failure in a row.
   */
  intervalMs?: number;
  /** The wait after a failed round (default the policy `hubSync`; tests pass their own numbers). */
  backoff?: BackoffPolicy;
  /** How long a refused batch waits before it is offered again (default {@link REFUSED_RETRY_MS}). */
  refusedRetryMs?: number;
  /**
   * A batch from the hub was applied, with how many products and people it changed: the core tells the counter
   * (`catalog.changed`) and ends the session of a person the hub deactivated (`session.ended`).
   */
  onApplied?(applied: { products: number; staff: number; prices: number }): void;
  /** The transport of a plain-HTTP hub on loopback (tests); an https hub is always the pinned transport. */
  fetch?: PinnedFetch;
  /** After each round that reached the hub: the counter's stock snapshot refreshes (electron/goods/hub-stock.ts). */
  afterRound?(hub: HubClient): Promise<void>;
  /** A round failed (the hub away): the counter's stock figures become the last known, with their time. */
  afterFailedRound?(): void;
  /** This till's own goods book on hand (electron/goods/opening.ts): what it may bring to the hub as opening stock. */
  ownStock?(): { code: string; qtyMilli: number; purchasePara: number | null }[];
}

/** What `hub.status` shows (the contract's view; never the credential). */
export type HubSyncStatus = HubStatusView;

/** The till's link to its hub, in `hub_state` (parked carts' marks are in `hub_parked`: hub-client/parked.ts). */
type HubLinkKey =
  | 'url'
  | 'till_id'
  | 'shop_id'
  | 'cursor'
  | 'refused'
  | 'pin'
  | 'catalog_choice'
  | 'staff_choice'
  | 'staff_offer'
  | 'pin_key'
  | 'goods_opening';

/** How long a PIN typed at the till waits for the hub before the till's own verifiers decide (the hub away). */
export const HUB_PIN_WAIT_MS = 5000;

/** The staff choice after enrolment: the till's people (by id) and the shop's (null: the hub could not be asked). */
export type StaffChoiceView = NonNullable<HubStatusView['staffChoice']>;

/** The hub's refusal of a staff change in the till's words, at the field it concerns. */
function staffChangeError(err: unknown, pinField: string, nameField: (i: number) => string): CommandError {
  if (err instanceof HubError && (err.status === 401 || err.status === 429) && err.field === 'approverPin')
    return new CommandError('forbidden', 'hub_pin_not_manager', { field: pinField }, pinField);
  if (err instanceof HubError && err.code === 'staff_name_taken') {
    const field = nameField(Number(/^people\.(\d+)/.exec(err.field ?? '')?.[1] ?? '0'));
    return new CommandError('invalid_input', 'staff_name_taken', { field, value: '' }, field);
  }
  if (err instanceof HubError && (err.code === 'name_invisible' || err.code === 'name_mixed_script')) {
    const field = nameField(Number(/^people\.(\d+)/.exec(err.field ?? '')?.[1] ?? '0'));
    return new CommandError('invalid_input', err.code, { field }, field);
  }
  if (err instanceof HubError && err.code === 'last_manager')
    return new CommandError('invalid_input', 'last_manager', { field: 'active' }, 'active');
  return new CommandError('unavailable', 'hub_needed', { field: pinField }, pinField);
}

/** The hub's pause of this till's PINs (429) as the till's own lockout message: until when. */
function hubPinLocked(err: HubError, field: string): CommandError {
  const seconds = Number(/(\d+) seconds/.exec(err.message)?.[1] ?? '30');
  return new CommandError(
    'forbidden',
    'pin_locked',
    { until: new Date(Date.now() + seconds * 1000).toISOString(), field },
    field,
  );
}

const credentialFile = (dataDir: string): string => path.join(dataDir, 'hub-credential');

function readCredential(dataDir: string): string | null {
  const file = credentialFile(dataDir);
  if (!fs.existsSync(file)) return null;
  if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) {
    throw new Error(`${file} is readable by other users; run chmod 600 on it`);
  }
  return fs.readFileSync(file, 'utf8').trim() || null;
}

export class HubSync {
  readonly #o: HubSyncOptions;
  readonly #db: Db;
  readonly #catalog: CatalogService;
  readonly #settings: Settings;
  #client: HubClient | null = null;
  #loop: SyncLoop | null = null;
  #stopped = false;
  #started = false;
  #lastOkAt: string | null = null;
  #lastError: string | null = null;
  #gaps: { from: number; to: number }[] = [];
  #lastPushAt: string | null = null;
  #lastPullAt: string | null = null;
  /** The last change the hub took but did not store (its order refused for its invoice number); until restart. */
  #refusedEvent: HubRefusedView | null = null;
  /** The hub showed a certificate other than the pinned one (nothing was sent): until a round works again. */
  #pinMismatch: { seen: string; at: string } | null = null;

  constructor(o: HubSyncOptions) {
    this.#o = o;
    this.#db = o.db;
    this.#catalog = createCatalogService(o.db);
    this.#settings = new Settings(o.db, o.env);
  }

  #state(key: HubLinkKey): string | undefined {
    return this.#db.prepare<[string], { value: string }>('SELECT value FROM hub_state WHERE key = ?').get(key)?.value;
  }
  #setState(key: HubLinkKey, value: string): void {
    this.#db
      .prepare('INSERT INTO hub_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value')
      .run(key, value);
  }

  /** The hub URL: the environment wins over the stored setting. */
  url(): string | null {
    const fromEnv = this.#o.env.KASA_HUB_URL?.trim();
    return fromEnv || this.#state('url') || null;
  }

  /** The hub client once this till is enrolled (parked carts go through it), else null. */
  client(): HubClient | null {
    return this.tillId() === null ? null : this.#hub();
  }

  tillId(): number | null {
    const v = this.#state('till_id');
    return v ? Number(v) : null;
  }

  /**
   * Enrols this till with a one-time code: stores the credential (0600 file) and the till id, and queues
   * the till's whole existing history (orders, audit, shifts) in one transaction so it reaches the hub too. The
   * till's people are offered apart (`#offerStaff`): never merged silently with the shop's. The people go first, so
   * that a shop without a manager has this till's before its catalog is offered with `managerPin` (the PIN the
   * manager typed to enrol, which the hub checks itself: issue 39).
   */
  async enrol(
    url: string,
    code: string,
    fingerprint?: string | null,
    managerPin?: string,
  ): Promise<{ tillId: number; shopId: number }> {
    const pin = normalizeFingerprint(fingerprint ?? '');
    // An https hub must show the certificate with this fingerprint, or the code is never sent to it.
    const anon = new HubClient({ baseUrl: url, fingerprint: pin, ...(this.#o.fetch ? { fetch: this.#o.fetch } : {}) });
    // The hub lists the till by the name the shop gave it (the header's „Каса 2“), else by its terminal id.
    const r = await anon.enrol(code, this.#tillName());
    writePrivate(credentialFile(this.#o.dataDir), r.credential + '\n');
    this.#db.transaction(() => {
      this.#setState('url', url);
      this.#setState('pin', pin ?? '');
      this.#setState('till_id', String(r.tillId));
      this.#setState('shop_id', String(r.shopId));
      this.#setState('cursor', '0');
      // History from before enrolment, in capture order (the triggers take over from here).
      this.#db.exec(`
        INSERT INTO hub_outbox (kind, ref, payload)
          SELECT 'order', order_number, ${ORDER_ROW_SNAPSHOT_JSON} FROM orders ORDER BY id;
        INSERT INTO hub_outbox (kind, ref, payload)
          SELECT 'audit', 'audit:' || id, json_object('at', at, 'actor', actor, 'action', action, 'detail', detail)
          FROM audit_log ORDER BY id;
      `);
      for (const { id } of this.#db.prepare<[], { id: number }>('SELECT id FROM shifts ORDER BY id').all())
        this.#db.prepare(shiftOutboxSql('?')).run(id);
    })();
    this.#client = null;
    this.#pinMismatch = null;
    this.#o.logger.info(`hub: enrolled as till ${r.tillId} of shop ${r.shopId} at ${url}`);
    await this.#offerStaff();
    await this.#offerCatalog(managerPin);
    return { tillId: r.tillId, shopId: r.shopId };
  }

  /** The till's own people with a PIN of their own (the first-run manager on 0000 is nobody yet), for the hub. */
  #tillPeople(): TillPerson[] {
    return this.#db
      .prepare<[], { uid: string; name: string; role: TillPerson['role']; pin_hash: string; active: number }>(
        // A hash this till made; a verifier of a person pulled from the hub is not offered back (issue 39).
        "SELECT uid, name, role, pin_hash, active FROM staff WHERE must_change_pin = 0 AND pin_hash LIKE 'scrypt$%' ORDER BY id",
      )
      .all()
      .map((r) => ({ id: r.uid, name: r.name, role: r.role, pinHash: r.pin_hash, active: r.active === 1 }));
  }

  /**
   * At enrolment the till's people go to a shop without an active manager (the hub adopts them). When the shop
   * has one, nothing is merged (two "Менаџер" are two people): both lists wait for the manager's choice
   * (`chooseStaff`, the Hub tab), and no master data is pulled until then.
   */
  async #offerStaff(late = false): Promise<void> {
    const people = this.#tillPeople();
    if (people.length === 0) return;
    const pending = (hub: HubPerson[] | null, till: readonly TillPerson[] = people) =>
      this.#setState(
        'staff_choice',
        JSON.stringify({ till: till.map((p) => ({ id: p.id, name: p.name, role: p.role })), hub }),
      );
    const hub = this.#hub();
    try {
      if (!hub) throw new Error('no hub client after enrolment');
      const r = await hub.offerStaff(people);
      // People the shop already has (by id: mapped or added at an earlier choice) are nobody to choose for.
      const known = new Set(r.hub.map((h) => h.id));
      const unknown = people.filter((p) => !known.has(p.id));
      if (r.adopted) this.#o.logger.info(`hub: the shop adopted this till's ${people.length} people`);
      else if (unknown.length) pending(r.hub, unknown);
    } catch (err) {
      // A late offer is made again by the next round (`staff_offer`): the hub was there at enrolment.
      if (late) throw err;
      // Unknown whether the shop has people: the manager decides rather than anything being merged.
      this.#noteError(err);
      pending(null);
    }
  }

  /**
   * A first-run manager who set their first PIN after this till enrolled (an enrolled till may be set up on 0000):
   * nobody at the hub yet, so the shop adopts them when it has no manager, else they wait for the manager's choice
   * like the people of an enrolment (the Hub tab), and pulls wait with them. Not enrolled, or a choice already
   * pending: nothing to do (the pending choice's people are offered as they were).
   */
  async offerLatePeople(): Promise<void> {
    if (this.tillId() === null || this.staffChoice() !== null) return;
    this.#setState('staff_offer', '1');
    try {
      await this.#offerLate();
    } catch (err) {
      this.#noteError(err);
    }
  }

  /** The late offer when one is due (`staff_offer`), until the hub answered it: each sync round tries it first. */
  async #offerLate(): Promise<void> {
    if (!this.#state('staff_offer')) return;
    if (this.staffChoice() === null) await this.#offerStaff(true);
    this.#db.prepare("DELETE FROM hub_state WHERE key = 'staff_offer'").run();
  }

  /** The staff choice waiting for the manager after enrolment (the till's people and the shop's), or null. */
  staffChoice(): StaffChoiceView | null {
    const v = this.#state('staff_choice');
    return v ? (JSON.parse(v) as StaffChoiceView) : null;
  }

  /**
   * The manager's staff choice after enrolment: each till person (by id) is mapped to a person of the hub (the till
   * takes that person's id, and with the next pull their PIN hash and role) or added as new (with `name`, another
   * name when theirs is taken). The hub checks `approverPin` against the shop's own managers and adds the new ones
   * in one transaction; only then the till changes, in one transaction, and pulls start again from the first
   * change. Throws CommandError naming the field (`choices.<i>.hubId`, `choices.<i>.name`, `hubPin`).
   */
  async chooseStaff(
    approverPin: string,
    choices: readonly { id: string; hubId?: string | null | undefined; name?: string | undefined }[],
  ): Promise<{ mapped: number; added: number }> {
    const pending = this.staffChoice();
    if (pending === null) throw new CommandError('conflict', 'hub_no_staff_choice', { field: 'choices' }, 'choices');
    const hub = this.#hub();
    if (!hub) throw new CommandError('unavailable', 'hub_needed', { field: 'choices' }, 'choices');
    const mine = new Map(this.#tillPeople().map((p) => [p.id, p]));
    const taken = new Set<string>();
    const adds: { at: number; person: TillPerson }[] = [];
    const maps: { from: string; to: string }[] = [];
    for (const [i, t] of pending.till.entries()) {
      const at = choices.findIndex((c) => c.id === t.id);
      const c = choices[at];
      const field = `choices.${at < 0 ? i : at}.hubId`;
      if (!c) throw new CommandError('invalid_input', 'hub_staff_choice_missing', { field, value: t.name }, field);
      if (c.hubId) {
        if (!pending.hub?.some((h) => h.id === c.hubId) || taken.has(c.hubId))
          throw new CommandError('invalid_input', 'hub_staff_choice_twice', { field }, field);
        taken.add(c.hubId);
        maps.push({ from: t.id, to: c.hubId });
      } else {
        const person = mine.get(t.id);
        if (person) adds.push({ at, person: { ...person, name: c.name?.trim() || person.name } });
      }
    }
    try {
      await hub.staffChange(
        approverPin,
        adds.map((a) => a.person),
      );
    } catch (err) {
      throw staffChangeError(err, 'hubPin', (i) => `choices.${adds[i]?.at ?? 0}.name`);
    }
    this.#db.transaction(() => {
      StaffService.applyStaffChoice(
        this.#db,
        adds.map((a) => ({ id: a.person.id, name: a.person.name })),
        maps,
      );
      this.#db.prepare("DELETE FROM hub_state WHERE key = 'staff_choice'").run();
      this.#setState('cursor', '0');
    })();
    this.start();
    return { mapped: maps.length, added: adds.length };
  }

  /** This till's hub id and PIN key, the salt of its verifiers (electron/auth/hub-pins.ts), once it pulled the key. */
  pinContext(): PinContext | null {
    const tillId = this.tillId();
    const pinKey = this.#state('pin_key');
    return tillId !== null && pinKey ? { tillId, pinKey } : null;
  }

  /**
   * Whose PIN this is, asked of the hub (electron/auth/hub-pins.ts): the person, nobody (401), or `away` when the hub
   * does not answer in time or answers otherwise (this till's verifiers decide). `everyTill`: the PIN matched a hash
   * this till made, so the hub makes every till's verifier of it, not only this till's. A hub that paused this till's
   * PINs (429) is a lockout here too.
   */
  async checkPin(pin: string, personId: string | undefined, field: string, everyTill = false): Promise<HubPinAnswer> {
    const hub = this.tillId() === null ? null : this.#hub();
    if (!hub) return { kind: 'away' };
    try {
      const input = { pin, ...(personId ? { id: personId } : {}), ...(everyTill ? { everyTill: true as const } : {}) };
      const r = await hub.tillPin(input, HUB_PIN_WAIT_MS);
      return { kind: 'person', id: r.id };
    } catch (err) {
      if (err instanceof HubError && err.status === 401) return { kind: 'unknown' };
      if (err instanceof HubError && err.status === 429) throw hubPinLocked(err, field);
      this.#noteError(err);
      return { kind: 'away' };
    }
  }

  /**
   * A person's own PIN change through the hub, their current PIN being the proof (issue 39): this till's new
   * verifier, or null (it comes by pull), or false when the till is not enrolled. Refused at the field concerned;
   * the hub away: `hub_needed`, nothing changes.
   */
  async ownPin(currentPin: string, personId: string, newPin: string): Promise<string | null | false> {
    if (this.tillId() === null) return false;
    const hub = this.#hub();
    if (!hub) throw new CommandError('unavailable', 'hub_needed', { field: 'currentPin' }, 'currentPin');
    try {
      const r = await hub.tillPin({ pin: currentPin, id: personId, newPin }, HUB_PIN_WAIT_MS * 3);
      return r.verifier ?? null;
    } catch (err) {
      if (err instanceof HubError && (err.status === 401 || err.status === 409))
        throw new CommandError('forbidden', 'pin_wrong', { field: 'currentPin' }, 'currentPin');
      if (err instanceof HubError && err.status === 429) throw hubPinLocked(err, 'currentPin');
      if (err instanceof HubError && err.field === 'newPin') {
        const key = err.code === 'pin_short' || err.code === 'pin_trivial' ? 'pin_trivial' : 'pin_weak';
        throw new CommandError('invalid_input', key, { field: 'newPin' }, 'newPin');
      }
      this.#noteError(err);
      throw new CommandError('unavailable', 'hub_needed', { field: 'currentPin' }, 'currentPin');
    }
  }

  /**
   * A staff change at this till, approved by `approverPin` (the PIN typed at the till in `field`): when the till is
   * enrolled it goes to the hub first, which checks the PIN against the shop's own managers and applies it (every
   * till gets it by pull); refused or unreachable, nothing changes here (CommandError: the PIN's field, the name,
   * or `hub_needed`). Not enrolled: false, the change is the till's own.
   */
  async approveStaff(approverPin: string, person: TillPerson, field: string): Promise<boolean> {
    if (this.tillId() === null) return false;
    const hub = this.#hub();
    if (!hub) throw new CommandError('unavailable', 'hub_needed', { field }, field);
    // What waits to go up goes first (a first-run manager's new PIN, which the shop may have adopted), so the hub
    // knows the approving manager this till just set; the hub takes a batch sent twice as duplicates.
    await this.syncOnce().catch((err: unknown) => this.#noteError(err));
    try {
      await hub.staffChange(approverPin, [person]);
    } catch (err) {
      throw staffChangeError(err, field, () => 'name');
    }
    return true;
  }

  /**
   * At enrolment the till's catalog goes to a hub whose shop has no products (the hub adopts it). When the shop
   * has products, nothing is overwritten: both counts wait for the manager's choice (`chooseCatalog`, the Hub
   * tab), and no master data is pulled until then (it would overwrite the till's products by code). The hub adopts
   * it only with a hub manager's PIN (`managerPin`, checked there); without one, or refused, the choice waits for
   * the manager as well.
   */
  async #offerCatalog(managerPin?: string): Promise<void> {
    const products = this.#catalog.all();
    if (products.length === 0) return;
    const pending = (hubProducts: number | null) =>
      this.#setState('catalog_choice', JSON.stringify({ tillProducts: products.length, hubProducts }));
    const hub = this.#hub();
    try {
      if (!hub) throw new Error('no hub client after enrolment');
      // A PIN the hub does not know (this till's manager is not the shop's yet) still learns the shop's count.
      const r = await hub
        .adoptCatalog(products, false, managerPin)
        .catch((err: unknown) =>
          managerPin !== undefined && err instanceof HubError && err.field === 'approverPin'
            ? hub.adoptCatalog(products, false)
            : Promise.reject(err),
        );
      if (r.adopted) this.#o.logger.info(`hub: the shop adopted this till's ${products.length} products`);
      else pending(r.hubProducts);
    } catch (err) {
      // Unknown whether the shop has products: the manager decides rather than the hub's overwriting them.
      this.#noteError(err);
      pending(null);
    }
  }

  /**
   * This till's own goods book and the shop's (null: not enrolled): the products it holds on hand, and the opening
   * document it became at the hub once brought over (`goods_opening`: its key, and its number once answered).
   */
  goodsOpening(): NonNullable<HubStatusView['goodsOpening']> | null {
    if (this.tillId() === null) return null;
    const v = this.#state('goods_opening');
    const kept = v ? (JSON.parse(v) as { key: string; number?: string; at?: string }) : null;
    return {
      tillLines: this.#o.ownStock?.().length ?? 0,
      brought: kept?.number && kept.at ? { number: kept.number, at: kept.at } : null,
    };
  }

  /**
   * Brings this till's own goods book to the hub as its shop's opening stock, with a hub manager's PIN (checked
   * there). The key is kept before it is sent, so a retry after a lost answer sends the same one and the hub
   * answers the same document. Throws the hub's refusal (HubError) or the network's error; the number once done.
   */
  async bringGoods(managerPin: string): Promise<string> {
    const hub = this.#hub();
    if (!hub) throw new Error('not enrolled');
    const v = this.#state('goods_opening');
    const kept = v ? (JSON.parse(v) as { key: string; number?: string }) : null;
    if (kept?.number) return kept.number;
    const key = kept?.key ?? `opening-${this.tillId() ?? 0}-${randomUUID()}`;
    if (!kept) this.#setState('goods_opening', JSON.stringify({ key }));
    const r = await hub.goodsOpening(key, this.#o.ownStock?.() ?? [], managerPin);
    this.#setState('goods_opening', JSON.stringify({ key, number: r.doc.number, at: r.doc.at }));
    return r.doc.number;
  }

  /** The catalog choice waiting for the manager after enrolment, or null. */
  catalogChoice(): { tillProducts: number; hubProducts: number | null } | null {
    const v = this.#state('catalog_choice');
    return v ? (JSON.parse(v) as { tillProducts: number; hubProducts: number | null }) : null;
  }

  /**
   * The manager's choice between the hub's catalog and this till's: `hub` empties the till's catalog and pulls
   * the shop's whole; `till` makes the till's catalog the shop's at the hub (the others' products deleted there),
   * then pulls it back. Either way the pulls start again from the first change. Sending the till's needs
   * `managerPin` to be a hub manager's PIN: the hub checks it (HubError at `approverPin` otherwise).
   */
  async chooseCatalog(keep: 'hub' | 'till', managerPin?: string): Promise<void> {
    if (this.catalogChoice() === null) return;
    if (keep === 'till') {
      const hub = this.#hub();
      if (!hub) throw new Error('not enrolled');
      await hub.adoptCatalog(this.#catalog.all(), true, managerPin);
    }
    this.#db.transaction(() => {
      if (keep === 'hub') this.#catalog.clear();
      this.#db.prepare("DELETE FROM hub_state WHERE key = 'catalog_choice'").run();
      this.#setState('cursor', '0');
    })();
    this.start();
  }

  /**
   * Pins another certificate of the hub (a shop that replaced it), and optionally a new URL: only once the
   * hub at that URL shows exactly that certificate. Throws PinMismatchError (it shows another one),
   * HubTransportError (a URL the till may not use) or the network's error; nothing changes then.
   */
  async repin(fingerprint: string, url?: string): Promise<void> {
    const pin = normalizeFingerprint(fingerprint);
    const target = url ?? this.url();
    if (!pin || !target) throw new HubTransportError('no_pin');
    const probe = new HubClient({
      baseUrl: target,
      fingerprint: pin,
      ...(this.#o.fetch ? { fetch: this.#o.fetch } : {}),
    });
    await probe.health();
    this.#db.transaction(() => {
      if (url) this.#setState('url', url);
      this.#setState('pin', pin);
    })();
    this.#client = null;
    this.#pinMismatch = null;
    this.#lastError = null;
    this.#o.logger.info(`hub: pinned a new certificate of the hub at ${target}`);
    this.#loop?.kick();
  }

  #hub(): HubClient | null {
    if (this.#client) return this.#client;
    const url = this.url();
    const credential = readCredential(this.#o.dataDir);
    if (!url || !credential) return null;
    try {
      this.#client = new HubClient({
        baseUrl: url,
        credential,
        fingerprint: this.#state('pin') || null,
        ...(this.#o.fetch ? { fetch: this.#o.fetch } : {}),
      });
    } catch (err) {
      // A URL the till may not use (plain HTTP on the LAN, https without a pin): said, never a fallback.
      if (!(err instanceof HubTransportError)) throw err;
      this.#noteError(err);
      return null;
    }
    return this.#client;
  }

  /**
   * Starts the sync loop when a hub is configured (enrolling first with KASA_HUB_ENROL_CODE if needed); on a
   * started loop (e.g. right after an enrolment) a round now, whatever its backoff.
   */
  start(): void {
    const url = this.url();
    if (!url || this.#stopped) return;
    if (this.#started) return this.#loop?.kick();
    this.#started = true;
    const tick = async (): Promise<'failed' | undefined> => {
      try {
        if (!this.tillId()) {
          const code = this.#o.env.KASA_HUB_ENROL_CODE?.trim();
          if (!code) throw new Error('not enrolled: set KASA_HUB_ENROL_CODE or enrol in the settings');
          await this.enrol(url, code, this.#o.env.KASA_HUB_FINGERPRINT?.trim() || null);
        }
        await this.syncOnce();
        return undefined;
      } catch (err) {
        this.#noteError(err);
        this.#o.afterFailedRound?.();
        return 'failed';
      }
    };
    this.#loop = createSyncLoop(tick, { backoff: this.#o.backoff ?? POLICIES.hubSync });
    this.#loop.start(this.#o.intervalMs ?? 1000);
  }

  #noteError(err: unknown): void {
    if (err instanceof PinMismatchError) this.#pinMismatch = { seen: err.seen, at: new Date().toISOString() };
    const msg =
      err instanceof HubError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
    if (msg !== this.#lastError) this.#o.logger.warn(`hub: ${msg}`);
    this.#lastError = msg;
  }

  /** One round: push everything pending (batch by batch), then pull master data until current. */
  async syncOnce(): Promise<void> {
    const hub = this.#hub();
    const tillId = this.tillId();
    if (!hub || !tillId) return;
    await this.#offerLate();
    for (let round = 0; round < 50; round++) {
      const rows = this.#db
        .prepare<[number], { seq: number; kind: HubEvent['kind']; ref: string; payload: string }>(
          'SELECT seq, kind, ref, payload FROM hub_outbox ORDER BY seq LIMIT ?',
        )
        .all(PUSH_BATCH);
      const events: HubEvent[] = rows.map((r) => ({
        seq: r.seq,
        kind: r.kind,
        ref: r.ref,
        payload: JSON.parse(r.payload) as Record<string, unknown>,
      }));
      const stuck = this.#stuck();
      if (stuck && events[0]?.seq === stuck.seq && Date.now() < Date.parse(stuck.retryAt ?? '')) {
        // The hub refused this batch: it stays here, and only the till's status goes up until the retry.
        await hub.push(tillId, [], this.#status());
        break;
      }
      const pushed = await this.#pushOrKeep(hub, tillId, events);
      if (!pushed) break;
      const res = pushed.result;
      this.#gaps = res.gaps;
      if (res.gaps.length)
        this.#o.logger.warn(
          `hub: the hub reports missing sequences ${res.gaps.map((g) => `${g.from}-${g.to}`).join(', ')}`,
        );
      const claimed = res.refused?.[res.refused.length - 1];
      if (claimed) {
        this.#refusedEvent = { at: new Date().toISOString(), seq: claimed.seq, code: claimed.code, stuck: false };
        this.#o.logger.warn(`hub: the hub did not store change ${claimed.seq}: ${claimed.code}: ${claimed.message}`);
      }
      if (pushed.sent) this.#db.prepare('DELETE FROM hub_outbox WHERE seq <= ?').run(res.acked);
      this.#lastPushAt = new Date().toISOString();
      if (pushed.sent < events.length || rows.length < PUSH_BATCH) break;
    }
    // Until the manager chose between the hub's catalog and this till's, and mapped this till's people to the
    // shop's, nothing comes down (#offerCatalog, #offerStaff).
    for (let round = 0; round < 1000 && this.catalogChoice() === null && this.staffChoice() === null; round++) {
      const cursor = Number(this.#state('cursor') ?? '0');
      const c = await hub.changes(cursor);
      if (c.cursor > cursor) this.applyChanges(c);
      this.#lastPullAt = new Date().toISOString();
      if (!c.more) break;
    }
    this.#lastOkAt = new Date().toISOString();
    this.#lastError = null;
    this.#pinMismatch = null;
    await this.#o.afterRound?.(hub);
  }

  /**
   * Pushes `events`. A batch the hub refuses for what it holds (400/409/413) is kept on this till and
   * recorded (`refused`, an alarm here and at the hub) instead of failing the round, so master data still
   * comes down every second and the batch is not hammered at the hub. When the refusal names an event after
   * the first, the events before it are pushed alone. Returns the answer and how many events it covers, or
   * null when nothing was taken.
   */
  async #pushOrKeep(
    hub: HubClient,
    tillId: number,
    events: HubEvent[],
  ): Promise<{ result: PushResult; sent: number } | null> {
    let batch = events;
    let refusedAt: { seq: number; err: HubError } | null = null;
    for (;;) {
      try {
        const result = await hub.push(tillId, batch, this.#status());
        if (refusedAt) this.#keepRefused(refusedAt.seq, refusedAt.err);
        else if (batch.length && this.#state('refused')) this.#setState('refused', '');
        return { result, sent: batch.length };
      } catch (err) {
        if (!(err instanceof HubError) || !REFUSED_BATCH_STATUSES.includes(err.status) || !batch.length) throw err;
        const place = Number(/^events\.(\d+)/.exec(err.field ?? '')?.[1] ?? '0');
        const seq = batch[place]?.seq ?? batch[0]?.seq ?? 0;
        if (place > 0 && place < batch.length && !refusedAt) {
          refusedAt = { seq, err };
          batch = batch.slice(0, place);
          continue;
        }
        this.#keepRefused(refusedAt?.seq ?? batch[0]?.seq ?? 0, refusedAt?.err ?? err);
        return null;
      }
    }
  }

  #keepRefused(seq: number, err: HubError): void {
    const now = Date.now();
    const view: HubRefusedView = {
      at: new Date(now).toISOString(),
      seq,
      code: err.code ?? 'refused',
      stuck: true,
      retryAt: new Date(now + (this.#o.refusedRetryMs ?? REFUSED_RETRY_MS)).toISOString(),
    };
    this.#setState('refused', JSON.stringify(view));
    this.#o.logger.warn(
      `hub: the hub refused change ${seq} and those after it (${err.status} ${err.code}: ${err.message}); ` +
        'they stay on this till and are offered again later',
    );
  }

  /** The batch the hub refused whole, while it is refused (kept in `hub_state`, so a restart still knows). */
  #stuck(): HubRefusedView | null {
    const raw = this.#state('refused');
    if (!raw) return null;
    try {
      return JSON.parse(raw) as HubRefusedView;
    } catch {
      return null;
    }
  }

  /** The name the hub lists this till by: the shop's name for it (the header's „Каса 2“), else its terminal id. */
  #tillName(): string {
    return this.#settings.get('tillName')?.trim() || this.#o.terminalId();
  }

  #status(): TillStatus {
    const hubQueued = this.#db.prepare<[], { n: number }>('SELECT count(*) AS n FROM hub_outbox').get()?.n ?? 0;
    const printer = this.#o.printer?.();
    const taxLabels = this.#o.taxLabels?.() ?? [];
    const taxRates = this.#o.taxRates?.() ?? [];
    const name = this.#tillName().slice(0, 100);
    return {
      ...this.#o.counts(),
      hubQueued,
      ...(name ? { name } : {}),
      ...(printer ? { printer: tillPrinter(printer) } : {}),
      ...(taxLabels.length > 0 ? { taxLabels: taxLabels.slice(0, 50) } : {}),
      ...(taxRates.length > 0 ? { taxRates: taxRates.slice(0, 50) } : {}),
    };
  }

  /**
   * Applies one master-data batch and its cursor in ONE transaction: products (with barcodes and the
   * search index), deletions, staff, shop settings, each written by its owner. A crash leaves either the
   * whole batch or none of it.
   */
  applyChanges(c: ChangesResult): void {
    const at = new Date().toISOString();
    // Shop settings from the hub, checked like any input; a key this till does not know is left alone.
    const settings = (c.settings ?? []).flatMap((t) => {
      const parsed = ShopSettings.safeParse({ [t.key]: t.value });
      if (!parsed.success || !(t.key in parsed.data)) {
        this.#o.logger.warn(`hub: ignored the shop setting ${JSON.stringify(t.key.slice(0, 40))} (unknown or invalid)`);
        return [];
      }
      return [t];
    });
    // Price rules from the hub, each checked with the hub's own schema; one that does not parse is left out.
    const prices = (c.prices ?? []).flatMap((raw) => {
      const parsed = HubPriceChange.safeParse(raw);
      if (parsed.success) return [parsed.data];
      this.#o.logger.warn(`hub: ignored a price rule (${parsed.error.issues[0]?.path.join('.') ?? 'invalid'})`);
      return [];
    });
    this.#db.transaction(() => {
      this.#catalog.applyHubProducts(c.products, at);
      applyHubPrices(this.#db, prices, at);
      // The hub's own staff change is not sent back to it: a late echo of an older state would undo a newer
      // change made at the hub meanwhile (deactivated, then reactivated with a new PIN: the echo re-deactivates).
      // The staff triggers' rows become notes in the till's history (not deleted: the hub counts the sequence).
      const before =
        this.#db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM hub_outbox').get()?.seq ?? 0;
      StaffService.applyHubStaff(this.#db, c.staff, at);
      this.#db
        .prepare(
          `UPDATE hub_outbox SET kind = 'audit', ref = 'hub-staff:' || seq,
             payload = json_object('at', ?, 'actor', NULL, 'action', 'staff.fromHub', 'detail', json_object('name', ref))
           WHERE kind = 'staff' AND seq > ?`,
        )
        .run(at, before);
      for (const t of settings) {
        // Checked above against ShopSettings: the rules are the catalog's, stored as the hub sent them.
        if (t.key === 'barcodeRules') this.#catalog.setBarcodeRules(t.value as BarcodeRule[]);
        else this.#settings.set(t.key, String(t.value));
      }
      // This till's PIN key (the salt of the verifiers just applied), kept with them in one transaction.
      if (c.pinKey && /^[0-9a-f]{64}$/.test(c.pinKey)) this.#setState('pin_key', c.pinKey);
      this.#setState('cursor', String(c.cursor));
    })();
    this.#o.onApplied?.({ products: c.products.length, staff: c.staff.length, prices: prices.length });
  }

  /** A sale of another till of this shop, via the hub (LAN), or null (no hub, unknown, unreachable). */
  async lookup(q: { orderNumber?: string; invoiceNumber?: string }): Promise<HubOrder | null> {
    const hub = this.#hub();
    if (!hub) return null;
    try {
      return await hub.lookup(q);
    } catch (err) {
      this.#noteError(err);
      return null;
    }
  }

  /**
   * Holds a refund's lines at the hub (hub/refund-holds.ts): `held`, `refused` with what is left, or `away` when
   * this till has no hub or cannot reach it (the refund then goes on with this till's own checks).
   */
  async holdRefund(input: RefundHoldInput): Promise<RefundHoldAnswer> {
    const hub = this.client();
    if (!hub) return { outcome: 'away' };
    try {
      const r = await hub.refundHold(input);
      return r.held ? { outcome: 'held' } : { outcome: 'refused', remaining: r.remaining ?? [] };
    } catch (err) {
      this.#noteError(err);
      return { outcome: 'away' };
    }
  }

  /** Lets a hold go, best effort (a hold whose refund never comes lapses at the hub). */
  async releaseRefund(holdId: string): Promise<void> {
    await this.client()
      ?.refundRelease(holdId)
      .catch(() => undefined);
  }

  status(): HubSyncStatus {
    const pending = this.#db.prepare<[], { n: number }>('SELECT count(*) AS n FROM hub_outbox').get()?.n ?? 0;
    return {
      configured: this.url() !== null,
      url: this.url(),
      enrolled: this.tillId() !== null,
      tillId: this.tillId(),
      shopId: this.#state('shop_id') ? Number(this.#state('shop_id')) : null,
      pending,
      cursor: Number(this.#state('cursor') ?? '0'),
      lastOkAt: this.#lastOkAt,
      lastError: this.#lastError,
      lastPushAt: this.#lastPushAt,
      lastPullAt: this.#lastPullAt,
      gaps: this.#gaps,
      refused: this.#stuck() ?? this.#refusedEvent,
      fingerprint: this.#state('pin') || null,
      pinMismatch: this.#pinMismatch,
      catalogChoice: this.catalogChoice(),
      staffChoice: this.staffChoice(),
      goodsOpening: this.goodsOpening(),
    };
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#loop?.stop();
  }
}

/** What the hub is told about the printer: its state and what it reports, and what waits for people. */
export function tillPrinter(s: PrintStatus): TillPrinter {
  return {
    // Out of reach while idle (the status poll found no printer) is `offline` to the hub too: the next
    // receipt will not print, whether or not a job waits yet.
    state: s.state === 'idle' && s.printer.source === 'unreachable' ? 'offline' : s.state,
    paper: s.printer.paper,
    coverOpen: s.printer.coverOpen,
    error: s.printer.error,
    unconfirmed: s.confirm !== null,
    held: s.held,
  };
}
