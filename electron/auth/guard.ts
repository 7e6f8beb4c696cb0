/**
 * Authorization in the core: every command passes here in `dispatch`, after its schema and before its
 * handler. The rule is the one the command declares in its contract definition (`auth`), raised by the
 * command's input where it must be (`escalation`, shared/contract/authz.ts). The session is the core's own
 * (the person logged in at this till); a manager's PIN travels with the command, as its `managerPin` field
 * or as `approval: { managerPin }` beside the input, and is verified here, once, counted against brute
 * force: handlers receive the approving manager (`Caller`) and never verify a PIN themselves.
 * Refusals of money and configuration commands, and every approved action, are audited with the actor
 * and the approving manager.
 */
import {
  AUDITED,
  Approval,
  SELF_APPROVED,
  escalation,
  UNFISCALIZED_CASH_LIMIT_HOURS,
  type Escalation,
  type EscalationContext,
} from '../../shared/contract/authz.ts';
import { commands, type CommandName } from '../../shared/contract/index.ts';
import { CommandError } from '../errors.ts';
import type { StaffService } from './staff.ts';
import { runInCall, type CallContext, type Caller, type Person, type Sessions } from './context.ts';

export interface GuardDeps {
  sessions: Sessions;
  staff: () => StaffService;
  escalation: () => EscalationContext;
  /** Discounts approved at entry, which the escalation context claims (electron/sales/discount-approvals.ts). */
  discountApprovals?: {
    drain(): number[];
    release(ids: readonly number[]): void;
    approvers(ids: readonly number[]): string[];
  };
}

export interface Guard {
  /** Takes the optional `approval` off a raw input (it is not part of any command's schema). */
  split(raw: unknown): { input: unknown; approval: Approval | null };
  /** Authorizes `name` with its parsed input, then runs the handler in the call's context, for its caller. */
  run(
    name: CommandName,
    input: unknown,
    approval: Approval | null,
    handler: (input: unknown, caller: Caller) => Promise<unknown>,
  ): Promise<unknown>;
}

const SECRET_FIELDS = new Set(['managerPin', 'hubPin', 'pin', 'currentPin', 'newPin', 'apiKey']);

/** The input as the audit log keeps it: no PINs or keys, long text only by its length. */
export function auditSummary(input: unknown): Record<string, unknown> {
  if (!input || typeof input !== 'object') return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (SECRET_FIELDS.has(k)) continue;
    out[k] = typeof v === 'string' && v.length > 200 ? `<${v.length} chars>` : v;
  }
  const json = JSON.stringify(out);
  return json.length > 2000 ? { truncated: json.slice(0, 2000) } : out;
}

const person = (p: { id: number; name: string; role: Person['role']; mustChangePin: boolean }): Person => ({
  id: p.id,
  name: p.name,
  role: p.role,
  mustChangePin: p.mustChangePin,
});

/**
 * Why a checkout needs a manager, in the words the approval prompt shows: the line and the rule (a
 * discount beyond the limit, a price other than the catalog's). Null for every other escalation.
 */
function approvalWhy(
  reason: string,
  input: unknown,
  ctx: EscalationContext,
): { key: string; params: Record<string, string | number> } | null {
  if (reason === 'unfiscalized')
    return {
      key: 'approval_required_unfiscalized',
      params: { hours: ctx.unfiscalizedTooLong?.() ?? UNFISCALIZED_CASH_LIMIT_HOURS },
    };
  const m = /^lines\.(\d+)\.(discount|unitPrice)$/.exec(reason);
  if (!m) return null;
  if ((input as { scope?: unknown } | null)?.scope === 'sale')
    return { key: 'approval_required_sale_discount', params: { limit: ctx.discountLimitPercent } };
  const lines = (input as { lines?: { name?: unknown }[] } | null)?.lines;
  const line = lines?.[Number(m[1])];
  const name = typeof line?.name === 'string' ? line.name : String(Number(m[1]) + 1);
  return m[2] === 'discount'
    ? { key: 'approval_required_discount', params: { name, limit: ctx.discountLimitPercent } }
    : { key: 'approval_required_price', params: { name } };
}

/**
 * The session's person when she may approve her own actions without typing her PIN again: an active manager
 * logged in at this till (her PIN was verified at login; the first-run PIN's session may not). The hub's own
 * checks (staff and hub commands send the PIN on to the hub) still want it typed: their schemas require it.
 */
export function selfApprover(actor: Person | null): actor is Person {
  return actor !== null && actor.role === 'manager' && !actor.mustChangePin;
}

export function createGuard(deps: GuardDeps): Guard {
  const refuse = (
    call: CallContext,
    key: string,
    field: string,
    audit: boolean,
    reason: Record<string, unknown> = {},
    params: Record<string, string | number> = {},
  ): never => {
    if (audit)
      deps
        .staff()
        .audit(call.actor?.name ?? null, 'authz.refused', { command: call.command, reason: key, ...reason }, null);
    throw new CommandError('forbidden', key, { field, ...params }, field);
  };

  /** Runs a call whose escalation is decided: the session, the PIN, the handler, the audit line. */
  const decide = async (
    name: CommandName,
    input: unknown,
    approval: Approval | null,
    handler: (input: unknown, caller: Caller) => Promise<unknown>,
    call: CallContext,
    raised: Escalation,
    claimed: readonly number[],
  ): Promise<unknown> => {
    const rule = commands[name].auth;
    const actor = call.actor;
    if (raised?.kind === 'refuse') refuse(call, raised.key, raised.field, true);
    const needsPin = rule === 'manager' || rule === 'approval' || raised?.kind === 'approval';
    const needsSession =
      rule === 'session' || rule === 'approval' || (raised?.kind === 'approval' && rule !== 'manager');
    const reason = raised?.kind === 'approval' ? { needs: raised.reason } : {};
    if (needsSession && !actor) refuse(call, 'session_required', 'session', needsPin, reason);
    // The first-run PIN's session may do nothing but change it.
    if (rule !== 'public' && rule !== 'manager' && actor?.mustChangePin)
      refuse(call, 'pin_must_change', 'session', needsPin, reason);
    const own = input && typeof input === 'object' ? (input as Record<string, unknown>)['managerPin'] : undefined;
    if (needsPin) {
      const pin = approval?.managerPin ?? (typeof own === 'string' ? own : null);
      const field = approval ? 'approval.managerPin' : typeof own === 'string' ? 'managerPin' : 'approval.managerPin';
      if (pin === null && raised?.kind !== 'approval' && SELF_APPROVED.has(name) && selfApprover(actor)) {
        // A manager logged in at this till approves her own actions on the manager screens (`SELF_APPROVED`):
        // she is not asked for her PIN again (issue 38 §7). The audit names her as actor and approver. What the
        // counter asks a manager for, and what a sale's input raises, still asks.
        call.approver = actor;
      } else if (pin === null) {
        const why = raised?.kind === 'approval' ? approvalWhy(raised.reason, input, deps.escalation()) : null;
        if (why) refuse(call, why.key, field, true, reason, why.params);
        refuse(call, 'approval_required', field, true, reason);
      } else {
        try {
          const manager = await runInCall(call, () => deps.staff().approver(pin, field));
          call.approver = person(manager);
          call.approvalPin = pin;
        } catch (err) {
          deps
            .staff()
            .audit(
              actor?.name ?? null,
              'authz.refused',
              { command: name, reason: err instanceof CommandError ? err.key : 'error', ...reason },
              null,
            );
          throw err;
        }
      }
    }
    // A command's own `managerPin` names the manager its handler acts for. It is verified here as well when
    // the approval beside the input carried another PIN, or when the rule asked for none (`staff.approve`,
    // a manager approving a counter action: the command is the approval, not a refusal to audit).
    let approver = call.approver;
    if (typeof own === 'string' && own !== call.approvalPin)
      approver = person(await runInCall(call, () => deps.staff().approver(own, 'managerPin')));
    const value = await runInCall(call, () =>
      handler(input, { actor, approver, ...(claimed.length > 0 ? { discountApprovals: claimed } : {}) }),
    );
    // A sale whose discounts a manager approved when they were entered: audited with who approved them.
    if (claimed.length > 0 && name === 'sales.checkout')
      deps
        .staff()
        .audit(
          actor?.name ?? null,
          `approved.${name}`,
          { ...auditSummary(input), needs: 'discount', approvedAtEntry: claimed.length },
          deps.discountApprovals?.approvers(claimed).join(', ') ?? null,
        );
    // Approved cashier actions (the manager-only commands audit themselves).
    if (rule === 'approval' || raised?.kind === 'approval')
      deps
        .staff()
        .audit(
          actor?.name ?? call.approver?.name ?? null,
          `approved.${name}`,
          { ...auditSummary(input), ...reason },
          call.approver?.name ?? null,
        );
    else if (AUDITED.has(name)) deps.staff().audit(actor?.name ?? null, name, auditSummary(input), null);
    return value;
  };

  return {
    split(raw) {
      if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !Object.hasOwn(raw, 'approval'))
        return { input: raw, approval: null };
      const { approval, ...input } = raw as Record<string, unknown>;
      const parsed = Approval.safeParse(approval);
      if (!parsed.success)
        throw new CommandError('invalid_input', 'pin_format', { field: 'approval.managerPin' }, 'approval.managerPin');
      return { input, approval: parsed.data };
    },

    async run(name, input, approval, handler) {
      let actor = deps.sessions.current;
      // A person deactivated since they logged in (here, on another till, or at the hub): their session ends.
      if (actor && !deps.staff().isActive(actor.id)) {
        deps.staff().audit(actor.name, 'staff.sessionEnded', { id: actor.id, command: name }, null);
        deps.sessions.end();
        actor = null;
      }
      const call: CallContext = { command: name, actor, approver: null, approvalPin: null };
      const raised = escalation(name, input, deps.escalation());
      // Approvals given at entry that this call's escalation took: the checkout uses them, or they are free
      // again when it ends. A PIN with the call approves everything, so then none is used.
      let claimed = deps.discountApprovals?.drain() ?? [];
      if (raised !== null) {
        deps.discountApprovals?.release(claimed);
        claimed = [];
      }
      try {
        return await decide(name, input, approval, handler, call, raised, claimed);
      } finally {
        deps.discountApprovals?.release(claimed);
      }
    },
  };
}
