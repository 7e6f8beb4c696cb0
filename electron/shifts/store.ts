/** The shifts and shift_moves tables (migration 016): every read and write of the drawer's records. */
import type { Db } from '../db/open.ts';

export interface ShiftRow {
  id: number;
  cashier: string;
  opened_at: string;
  opening_float_para: number;
  closed_at: string | null;
  closed_by: string | null;
  expected_para: number | null;
  counted_para: number | null;
  counted_detail: string | null;
}

export interface MoveRow {
  id: number;
  shift_id: number;
  kind: 'in' | 'out';
  amount_para: number;
  reason: string;
  at: string;
  actor: string | null;
  approver: string | null;
}

export class ShiftStore {
  readonly #db: Db;
  readonly #open;
  readonly #byId;
  readonly #current;
  readonly #moves;
  readonly #addMove;
  readonly #close;
  readonly #between;
  readonly #any;

  constructor(db: Db) {
    this.#db = db;
    this.#open = db.prepare<[string, string, number]>(
      'INSERT INTO shifts (cashier, opened_at, opening_float_para) VALUES (?, ?, ?)',
    );
    this.#byId = db.prepare<[number], ShiftRow>('SELECT * FROM shifts WHERE id = ?');
    this.#current = db.prepare<[], ShiftRow>('SELECT * FROM shifts WHERE closed_at IS NULL');
    this.#moves = db.prepare<[number], MoveRow>('SELECT * FROM shift_moves WHERE shift_id = ? ORDER BY id');
    this.#addMove = db.prepare<[number, string, number, string, string, string | null, string | null]>(
      'INSERT INTO shift_moves (shift_id, kind, amount_para, reason, at, actor, approver) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.#close = db.prepare<[string, string | null, number, number, string | null, number]>(
      `UPDATE shifts SET closed_at = ?, closed_by = ?, expected_para = ?, counted_para = ?, counted_detail = ?
       WHERE id = ? AND closed_at IS NULL`,
    );
    // Shifts of a day: opened in it, or open across it.
    this.#between = db.prepare<[string, string], ShiftRow>(
      `SELECT * FROM shifts WHERE opened_at < ? AND (closed_at IS NULL OR closed_at >= ?) ORDER BY opened_at`,
    );
    this.#any = db.prepare<[], { one: number }>('SELECT 1 AS one FROM shifts LIMIT 1');
  }

  /** Opens a shift; null when one is already open (the unique index decides, even between racing opens). */
  open(cashier: string, at: string, floatPara: number): ShiftRow | null {
    try {
      const id = Number(this.#open.run(cashier, at, floatPara).lastInsertRowid);
      return this.get(id) ?? null;
    } catch (e) {
      if ((e as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return null;
      throw e;
    }
  }

  get(id: number): ShiftRow | undefined {
    return this.#byId.get(id);
  }

  current(): ShiftRow | undefined {
    return this.#current.get();
  }

  /** The till has worked in shifts (then every sale needs an open one). */
  used(): boolean {
    return this.#any.get() !== undefined;
  }

  moves(shiftId: number): MoveRow[] {
    return this.#moves.all(shiftId);
  }

  addMove(m: Omit<MoveRow, 'id'>): void {
    this.#addMove.run(m.shift_id, m.kind, m.amount_para, m.reason, m.at, m.actor, m.approver);
  }

  /** Closes the shift; false when it was already closed. */
  close(id: number, at: string, by: string | null, expected: number, counted: number, detail: string | null): boolean {
    return this.#close.run(at, by, expected, counted, detail, id).changes === 1;
  }

  /** Shifts that were open at some time in [from, to). */
  between(from: string, to: string): ShiftRow[] {
    return this.#between.all(to, from);
  }

  /** Runs `fn` in one immediate transaction. */
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn).immediate();
  }
}
