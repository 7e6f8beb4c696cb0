/**
 * Discounts a manager approved when they were entered (table discount_approvals, migration 018).
 *
 * The counter asks `sales.approveDiscount` as soon as a discount is typed; a line beyond the limit needs a
 * manager's PIN there, and the approval is kept for exactly that line (name, code, price, quantity,
 * discount) and for the cashier who asked. The checkout's guard then claims one unused approval per such
 * line (`claim`, synchronous, so two checkouts running at once cannot claim the same one) and the checkout
 * marks it used in the order's own transaction (`consume`): one approval, one sale. A line changed after
 * the approval matches nothing and needs a manager at checkout, as before.
 */
import type Database from 'better-sqlite3';
import type { DiscountedLine } from '../../shared/contract/authz.ts';
import type { Person } from '../auth/context.ts';
import { CommandError } from '../errors.ts';

/** An approval given at entry is for the sale being rung up: after this long it is not used any more. */
export const DISCOUNT_APPROVAL_TTL_MS = 12 * 60 * 60 * 1000;

/** The canonical text an approval is kept under: equal exactly when every figure of the line is equal. */
export function approvalKey(line: DiscountedLine): string {
  return JSON.stringify([line.name, line.gtin, line.unitPricePara, line.quantityMilli, line.discountPara]);
}

export class DiscountApprovals {
  readonly #insert: Database.Statement<
    [{ line: string; actorId: number | null; actor: string | null; approverId: number; approver: string; at: string }]
  >;
  readonly #open: Database.Statement<[string, number | null, string], { id: number }>;
  readonly #use: Database.Statement<[string, string, number]>;
  readonly #approvers: Database.Statement<[string], { approver: string }>;
  readonly #now: () => number;
  /** Claimed by a call still running (its checkout has not committed or failed yet). */
  readonly #reserved = new Set<number>();
  /** Claimed since the last `drain`: the guard takes them for the call it is deciding. */
  #pending: number[] = [];

  constructor(db: Database.Database, now: () => number) {
    this.#now = now;
    this.#insert = db.prepare(
      `INSERT INTO discount_approvals (line, actor_id, actor, approver_id, approver, created_at)
       VALUES (@line, @actorId, @actor, @approverId, @approver, @at)`,
    );
    this.#open = db.prepare(
      `SELECT id FROM discount_approvals
       WHERE line = ? AND actor_id IS ? AND used_order IS NULL AND created_at >= ? ORDER BY id`,
    );
    this.#use = db.prepare(
      'UPDATE discount_approvals SET used_order = ?, used_at = ? WHERE id = ? AND used_order IS NULL',
    );
    this.#approvers = db.prepare(
      'SELECT DISTINCT approver FROM discount_approvals WHERE id IN (SELECT value FROM json_each(?)) ORDER BY approver',
    );
  }

  /** Keeps a manager's approval of each of these lines, for the cashier who asked. */
  record(lines: readonly DiscountedLine[], actor: Person | null, approver: Person): void {
    const at = new Date(this.#now()).toISOString();
    for (const line of lines)
      this.#insert.run({
        line: approvalKey(line),
        actorId: actor?.id ?? null,
        actor: actor?.name ?? null,
        approverId: approver.id,
        approver: approver.name,
        at,
      });
  }

  /** Takes an unused, unreserved approval of exactly this line for this cashier; false when there is none. */
  claim(line: DiscountedLine, actorId: number | null): boolean {
    const since = new Date(this.#now() - DISCOUNT_APPROVAL_TTL_MS).toISOString();
    const free = this.#open.all(approvalKey(line), actorId, since).find((r) => !this.#reserved.has(r.id));
    if (!free) return false;
    this.#reserved.add(free.id);
    this.#pending.push(free.id);
    return true;
  }

  /** The approvals claimed since the last call (one escalation's worth). */
  drain(): number[] {
    const ids = this.#pending;
    this.#pending = [];
    return ids;
  }

  /** The call that claimed these ended: they are free again unless its checkout used them. */
  release(ids: readonly number[]): void {
    for (const id of ids) this.#reserved.delete(id);
  }

  /** Marks them used by this order; called inside the order's transaction, so they go with it or not at all. */
  consume(ids: readonly number[], orderNumber: string): void {
    const at = new Date(this.#now()).toISOString();
    for (const id of ids)
      if (this.#use.run(orderNumber, at, id).changes !== 1)
        throw new CommandError('conflict', 'approval_required', { field: 'approval.managerPin' });
  }

  /** Who approved them (for the audit line of the sale that used them). */
  approvers(ids: readonly number[]): string[] {
    return this.#approvers.all(JSON.stringify(ids)).map((r) => r.approver);
  }
}
