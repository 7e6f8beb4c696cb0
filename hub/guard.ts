/**
 * The hub's guard (issue 39): who may call what, decided in one place from the contract's declarations
 * (shared/hub/contract/), as the till's core decides in electron/auth. For every request it identifies the caller
 * the endpoint declares (a till's credential, a manager's session or the admin token), reads the input by the
 * endpoint's schema (a refusal names the field), settles the shop the call acts on (a manager's own shop only),
 * checks a manager's PIN the endpoint asks for (counted before the compare, with its lockouts audited) and records
 * a till's refused batch for its alarm. Handlers (hub/routes/) get what it decided and decide nothing of this;
 * the HTTP layer (hub/server.ts, hub/router.ts) carries bytes.
 */
import crypto from 'node:crypto';
import type http from 'node:http';
import { schemaRefusal } from '../shared/node/http/index.ts';
import { verifyPin } from '../shared/node/pin.ts';
import { isKasaError } from '../shared/errors.ts';
import type { HubCaller, HubEndpoint, ParsedOf, PinCheck } from '../shared/hub/contract.ts';
import { HubError, REFUSED_BATCH_STATUSES, refuseUnstorableText } from '../shared/hub/protocol.ts';
import { beginLoginAttempt, loginSucceeded } from './attempts.ts';
import { makeVerifiers } from './pin-verifiers.ts';
import { recordAudit, type HubAuditAction, type HubAuditEntry } from './audit.ts';

/** What an audit line of the hub holds besides its actor and action. */
type AuditDetail = HubAuditEntry['detail'];
import { refuseOversizedShape } from './input-shape.ts';
import { approvalScopes, loginScopes } from './login-throttle.ts';
import { sessionOf } from './sessions.ts';
import { tillActor } from './till-trust.ts';
import type { AuthedTill, HubService } from './service.ts';

/** A manager's session (one shop) or the admin token (`shopId` null: the whole chain). */
export interface ManagerCaller {
  shopId: number | null;
  name: string;
  /** The session's token hash (a session only): what a logout ends. */
  session?: string;
  /** Whom a staff change is made by: the manager (who may not deactivate themself); null for the admin token. */
  self: string | null;
}

/** The active manager whose PIN was given. */
export interface Approver {
  shopId: number;
  id: string;
  name: string;
}

export type WhoOf<C extends HubCaller> = C extends 'till' ? AuthedTill : C extends 'public' ? null : ManagerCaller;
export type ShopOf<E> = E extends { shop: 'required' } ? number : E extends { shop: 'optional' } ? number | null : null;
export type ApproverOf<E> = E extends { pin: { optional: true } }
  ? Approver | null
  : E extends { pin: PinCheck }
    ? Approver
    : null;

/** What the guard decided for one call: the handler's whole view of the request. */
export interface Admitted<E extends HubEndpoint> {
  who: WhoOf<E['caller']>;
  input: ParsedOf<E>;
  shop: ShopOf<E>;
  approver: ApproverOf<E>;
}

export interface GuardOptions {
  service: HubService;
  /** The admin token (its SHA-256 is kept, compared in constant time). */
  adminToken: string;
  now: () => number;
  log?: (line: string) => void;
  /** Called once per PIN compare (tests count evaluations). */
  onPinCompare?: (shopId: number) => void;
}

/** One request as the guard sees it: its headers and source, and its raw input (read by the HTTP layer). */
export interface GuardRequest {
  req: http.IncomingMessage;
  /** The body as JSON, or for a GET the query string, with the path's parameters. */
  raw: () => Promise<unknown>;
}

export type Guard = ReturnType<typeof createGuard>;

/**
 * The active manager of the shop whose PIN this is: counted in `scopes` BEFORE the compare (hub/attempts.ts,
 * shared with the till), compared with that shop's active managers only; 429 while a scope is locked (each
 * lockout audited), 401 at `field` when no manager has it. One shop's wrong PINs never lock another's.
 */
async function managerOfPin(
  o: GuardOptions,
  shopId: number,
  pin: string,
  scopes: string[],
  source: string,
  field: string,
): Promise<Approver> {
  const decision = await beginLoginAttempt(o.service.db, scopes, o.now());
  for (const l of decision.started) {
    o.log?.(`hub: PIN login locked for ${l.scope} until ${new Date(l.until).toISOString()}`);
    await recordAudit(o.service.db, {
      shopId,
      actor: source,
      action: 'login_locked',
      detail: { scope: l.scope.startsWith('shop:') ? 'shop' : 'source', until: l.until },
    });
  }
  if (decision.refusedUntil !== null) {
    const seconds = Math.max(1, Math.ceil((decision.refusedUntil - o.now()) / 1000));
    throw new HubError(429, 'login_paused', `too many wrong PINs; try again in ${seconds} seconds`, field);
  }
  o.onPinCompare?.(shopId);
  let found: (Approver & { pinHash: string }) | undefined;
  // Every manager's hash is checked, so the time taken does not tell which one matched.
  for (const m of await o.service.managers(shopId)) if ((await verifyPin(pin, m.pinHash)) && !found) found = m;
  if (!found) throw new HubError(401, 'pin_unknown', 'no active manager of this shop has this PIN', field);
  await loginSucceeded(o.service.db, scopes, o.now());
  // The PIN is in clear here: the tills that lack this manager's verifier get one (hub/pin-verifiers.ts).
  await makeVerifiers(o.service.db, shopId, found.id, pin, found.pinHash);
  return { shopId: found.shopId, id: found.id, name: found.name };
}

export function createGuard(o: GuardOptions) {
  const { service } = o;
  const adminHash = crypto.createHash('sha256').update(o.adminToken).digest();

  const manager = async (req: http.IncomingMessage): Promise<ManagerCaller> => {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const given = crypto
      .createHash('sha256')
      .update(m?.[1] ?? '')
      .digest();
    if (m && crypto.timingSafeEqual(given, adminHash)) return { shopId: null, name: 'admin', self: null };
    const hash = given.toString('hex');
    const session = m ? await sessionOf(service.db, hash, o.now()) : null;
    if (session) return { ...session, session: hash, self: session.name };
    throw new HubError(401, 'unauthenticated', 'the manager token is required');
  };

  /** Who asks, as the endpoint's caller: refused 401/403 before a byte of the input is read. */
  const identify = async (caller: HubCaller, req: http.IncomingMessage): Promise<unknown> => {
    switch (caller) {
      case 'public':
        return null;
      case 'till':
        return service.authenticate(req.headers.authorization);
      case 'manager':
        return manager(req);
      case 'admin': {
        const who = await manager(req);
        if (who.shopId !== null) throw new HubError(403, 'forbidden', 'only the chain (the admin token) creates shops');
        return who;
      }
    }
  };

  /** The input by the endpoint's schema: oversized shapes, its own precheck, unstorable text, then the schema. */
  const parse = async (e: HubEndpoint, raw: () => Promise<unknown>): Promise<unknown> => {
    if (!e.input) return undefined;
    const value = await raw();
    refuseOversizedShape(value);
    e.precheck?.(value);
    // Every input is checked for text PostgreSQL cannot store (a NUL, a lone surrogate): 400, never 503.
    refuseUnstorableText(value);
    const parsed = e.input.safeParse(value);
    if (!parsed.success) throw schemaRefusal(parsed.error);
    return parsed.data;
  };

  /** The shop a manager's call acts on: a manager's own shop only; the admin token the one named (or none). */
  const shopOf = (e: HubEndpoint, who: unknown, input: unknown): number | null => {
    if (!e.shop) return null;
    const scope = who as ManagerCaller;
    const asked = (input as { shopId?: number } | undefined)?.shopId;
    if (scope.shopId !== null) {
      if (asked !== undefined && asked !== scope.shopId)
        throw new HubError(403, 'forbidden', `this manager may act on shop ${scope.shopId} only`, 'shopId');
      return scope.shopId;
    }
    if (asked === undefined && e.shop === 'required')
      throw new HubError(400, 'invalid_input', 'shopId: a positive integer is required', 'shopId');
    return asked ?? null;
  };

  /**
   * The PIN the endpoint asks for. A login is counted per source machine and shop (hub/login-throttle.ts), a
   * till's approval per till and shop; either way also per shop.
   */
  const approve = async (e: HubEndpoint, who: unknown, input: unknown, req: http.IncomingMessage) => {
    if (!e.pin) return null;
    const pin = (input as Record<string, unknown>)[e.pin.field];
    if (pin === undefined && e.pin.optional) return null;
    if (typeof pin !== 'string') throw new HubError(400, 'invalid_input', `${e.pin.field}: required`, e.pin.field);
    if (e.pin.scope === 'login') {
      const shopId = await service.loginShop((input as { shopId?: number }).shopId);
      const source = req.socket.remoteAddress ?? 'unknown';
      return managerOfPin(o, shopId, pin, loginScopes(shopId, source), source, e.pin.field);
    }
    const till = who as AuthedTill;
    return managerOfPin(o, till.shopId, pin, approvalScopes(till.id, till.shopId), tillActor(till), e.pin.field);
  };

  /**
   * A receipt draft the input names (`ownDraft`) must be one this till made: another till's, or one made at the
   * hub, is refused 403 at the field before anything runs (a draft of another shop is unknown to this till: 404).
   */
  const ownDraft = async (e: HubEndpoint, who: unknown, input: unknown): Promise<void> => {
    if (!e.ownDraft) return;
    const id = (input as Record<string, unknown>)[e.ownDraft.field];
    if (typeof id !== 'number') return;
    const till = who as AuthedTill;
    const rows = await service.db.query<{ till_id: number | null }>(
      'SELECT till_id FROM hub_receipts WHERE id = $1 AND shop_id = $2',
      [id, till.shopId],
    );
    const row = rows[0];
    if (!row) throw new HubError(404, 'receipt_unknown', 'the shop has no such receipt', e.ownDraft.field);
    if (row.till_id === null || Number(row.till_id) !== till.id)
      throw new HubError(403, 'receipt_other_till', 'a till changes only the drafts it made', e.ownDraft.field);
  };

  /** A till's batch the hub refused whole (400, 409, 413, 422) is recorded for the till's alarm. */
  const recordRefusal = async (e: HubEndpoint, who: unknown, err: unknown): Promise<void> => {
    if (!e.recordRefusal || !who) return;
    if (!isKasaError(err) || err.code === null || err.status === null) return;
    if (!REFUSED_BATCH_STATUSES.includes(err.status)) return;
    await service.noteRefusal(who as AuthedTill, {
      status: err.status,
      code: err.code,
      field: err.field,
      message: err.message,
    });
  };

  return {
    /**
     * Runs one call of `e`: the caller first, then the input, the shop and the PIN, then `handle` with what was
     * decided. A refusal is thrown as a HubError for the HTTP layer to answer.
     */
    async run<E extends HubEndpoint, Out>(
      e: E,
      request: GuardRequest,
      handle: (call: Admitted<E>) => Promise<Out>,
    ): Promise<Out> {
      const who = await identify(e.caller, request.req);
      try {
        const input = await parse(e, request.raw);
        const shop = shopOf(e, who, input);
        await ownDraft(e, who, input);
        const approver = await approve(e, who, input, request.req);
        return await handle({ who, input, shop, approver } as Admitted<E>);
      } catch (err) {
        await recordRefusal(e, who, err);
        throw err;
      }
    },

    /** Records an action of a manager or the admin token (`shopId`: the shop acted on; default the caller's). */
    audit(who: ManagerCaller, action: HubAuditAction, detail: AuditDetail, shopId?: number | null) {
      return recordAudit(service.db, { shopId: shopId ?? who.shopId, actor: who.name, action, detail }, o.now());
    },
  };
}
