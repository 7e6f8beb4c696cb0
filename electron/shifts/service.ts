/**
 * Shifts and the cash drawer. The drawer is what the shift's records say it holds: the opening float, the
 * cash the shift's sales and advances took (net of change, as stored with each order) minus the cash its
 * refunds paid back, plus cash put in, minus cash taken out. The orders are the till's own, by the time
 * they were captured (queued ones too: their cash is in the drawer). Not fiscal: a shift report is a
 * non-fiscal document; the fiscal record is the receipts (docs/shifts.md).
 */
import type { Db } from '../db/open.ts';
import { CommandError } from '../errors.ts';
import { buildReport } from '../manager/reports.ts';
import type { TaxRatesCache } from '../sales/tax-rates.ts';
import { paymentTotals, type ShiftView } from '../../shared/contract/shifts.ts';
import { formatRsd, toPara } from '../../shared/money.ts';
import { paymentName } from '../../shared/i18n/enums.ts';
import { slipNamed, slipRow } from '../../shared/reports/slip.ts';
import { dayIn, dayStart } from '../../shared/i18n/time.ts';
import { ShiftStore, type ShiftRow } from './store.ts';

export interface ShiftDeps {
  db: Db;
  taxRates: TaxRatesCache;
  now(): number;
  audit(actor: string | null, action: string, detail: Record<string, unknown>, approver?: string | null): void;
}

export class ShiftService {
  readonly store: ShiftStore;
  readonly #deps: ShiftDeps;

  constructor(deps: ShiftDeps) {
    this.#deps = deps;
    this.store = new ShiftStore(deps.db);
  }

  #iso(): string {
    return new Date(this.#deps.now()).toISOString();
  }

  /** The shift with its drawer: now while open, at its close once closed. */
  view(row: ShiftRow): ShiftView {
    const until = row.closed_at ? new Date(Date.parse(row.closed_at) + 1).toISOString() : undefined;
    const report = buildReport(
      this.#deps.db,
      this.#deps.taxRates,
      { from: row.opened_at, ...(until ? { to: until } : {}) },
      this.#deps.now(),
    );
    const cashSalesPara = report.byPayment.find((p) => p.type === 'cash')?.netPara ?? 0;
    const moves = this.store.moves(row.id);
    const cashInPara = moves.filter((m) => m.kind === 'in').reduce((s, m) => s + m.amount_para, 0);
    const cashOutPara = moves.filter((m) => m.kind === 'out').reduce((s, m) => s + m.amount_para, 0);
    const expectedNow = row.opening_float_para + cashSalesPara + cashInPara - cashOutPara;
    const expectedPara = row.expected_para ?? expectedNow;
    return {
      id: row.id,
      cashier: row.cashier,
      openedAt: row.opened_at,
      closedAt: row.closed_at,
      closedBy: row.closed_by,
      openingFloatPara: row.opening_float_para,
      cashSalesPara,
      cashInPara,
      cashOutPara,
      expectedPara,
      countedPara: row.counted_para,
      differencePara: row.counted_para === null ? null : row.counted_para - expectedPara,
      countedDetail: row.counted_detail ? (JSON.parse(row.counted_detail) as Record<string, number>) : null,
      moves: moves.map((m) => ({
        id: m.id,
        kind: m.kind,
        amountPara: m.amount_para,
        reason: m.reason,
        at: m.at,
        actor: m.actor,
        approver: m.approver,
      })),
      sales: report.sales,
      refunds: report.refunds,
      byPayment: report.byPayment.map((p) => ({ type: p.type, netPara: p.netPara })),
    };
  }

  current(): ShiftView | null {
    const row = this.store.current();
    return row ? this.view(row) : null;
  }

  /** Refuses a sale when the till works in shifts and none is open. */
  requireOpen(): void {
    if (this.store.used() && !this.store.current()) throw new CommandError('conflict', 'shift_required', {}, 'shift');
  }

  open(cashier: string, openingFloat: number): ShiftView {
    const floatPara = para(openingFloat, 'openingFloat');
    const row = this.store.open(cashier, this.#iso(), floatPara);
    if (!row) throw new CommandError('conflict', 'shift_already_open', {}, 'shift');
    this.#deps.audit(cashier, 'shift.open', { shiftId: row.id, openingFloatPara: floatPara });
    return this.view(row);
  }

  cash(kind: 'in' | 'out', amount: number, reason: string, actor: string | null, approver: string | null): ShiftView {
    const amountPara = para(amount, 'amount');
    return this.store.transaction(() => {
      const row = this.store.current();
      if (!row) throw new CommandError('conflict', 'shift_not_open', {}, 'shift');
      if (kind === 'out') {
        const drawer = this.view(row).expectedPara;
        if (amountPara > drawer)
          throw new CommandError(
            'invalid_input',
            'beyond_drawer',
            { field: 'amount', drawer: formatRsd(drawer) },
            'amount',
          );
      }
      this.store.addMove({ shift_id: row.id, kind, amount_para: amountPara, reason, at: this.#iso(), actor, approver });
      this.#deps.audit(
        actor,
        kind === 'in' ? 'shift.cashIn' : 'shift.cashOut',
        { shiftId: row.id, amountPara, reason },
        approver,
      );
      return this.view(row);
    });
  }

  close(
    counted: number,
    denominations: Partial<Record<string, number>> | undefined,
    actor: string | null,
    approver: string | null,
  ): ShiftView {
    const countedPara = para(counted, 'counted');
    if (denominations) {
      const sum = Object.entries(denominations).reduce((s, [d, n]) => s + Number(d) * (n ?? 0), 0);
      if (sum !== countedPara)
        throw new CommandError(
          'invalid_input',
          'count_mismatch',
          { field: 'denominations', sum: formatRsd(sum) },
          'denominations',
        );
    }
    return this.store.transaction(() => {
      const row = this.store.current();
      if (!row) throw new CommandError('conflict', 'shift_not_open', {}, 'shift');
      const expected = this.view(row).expectedPara;
      const at = this.#iso();
      const detail = denominations ? JSON.stringify(denominations) : null;
      if (!this.store.close(row.id, at, actor, expected, countedPara, detail))
        throw new CommandError('conflict', 'shift_not_open', {}, 'shift');
      this.#deps.audit(
        actor,
        'shift.close',
        { shiftId: row.id, expectedPara: expected, countedPara, differencePara: countedPara - expected },
        approver,
      );
      return this.view(this.store.get(row.id) as ShiftRow);
    });
  }

  /**
   * The shifts open at some time during the shop's day `day` (default today), midnight to midnight in the shop's
   * time zone whatever the machine's clock is set to (it used to be the machine's day).
   */
  list(day?: string): ShiftView[] {
    const shopDay = day ?? dayIn(new Date(this.#deps.now()));
    const start = dayStart(shopDay);
    const end = dayStart(nextDay(shopDay));
    return this.store.between(new Date(start).toISOString(), new Date(end).toISOString()).map((r) => this.view(r));
  }

  get(id: number): ShiftView {
    const row = this.store.get(id);
    if (!row) throw new CommandError('not_found', 'not_found');
    return this.view(row);
  }
}

/** The ISO day after `iso` (calendar arithmetic, no clock). */
function nextDay(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** An amount the schema already checked (two decimals) as para. */
function para(amount: number, field: string): number {
  const p = toPara(amount);
  if (p === null) throw new CommandError('invalid_input', 'amount_decimals', { field }, field);
  return p;
}

/** The shift report as slip lines (32 columns), Serbian Cyrillic, marked non-fiscal. */
export function shiftLines(v: ShiftView, shown: (iso: string) => string): string[] {
  const rule = '-'.repeat(32);
  return [
    v.closedAt ? 'ИЗВЕШТАЈ О СМЕНИ' : 'X ИЗВЕШТАЈ (СМЕНА ОТВОРЕНА)',
    'НИЈЕ ФИСКАЛНИ ДОКУМЕНТ',
    `Смена бр. ${v.id}`,
    `Касир: ${v.cashier}`,
    `Отворена: ${shown(v.openedAt)}`,
    ...(v.closedAt ? [`Затворена: ${shown(v.closedAt)}${v.closedBy ? ` (${v.closedBy})` : ''}`] : []),
    rule,
    slipRow(`Продаје (${v.sales.count})`, formatRsd(v.sales.totalPara)),
    slipRow(`Рефундације (${v.refunds.count})`, formatRsd(-v.refunds.totalPara)),
    // Net per payment type, cash and card always (the close screen shows the same).
    ...paymentTotals(v).flatMap((p) => slipNamed(paymentName('sr-Cyrl', p.type), formatRsd(p.netPara))),
    rule,
    slipRow('Почетни депозит', formatRsd(v.openingFloatPara)),
    slipRow('Готовина из продаје', formatRsd(v.cashSalesPara)),
    slipRow('Полог', formatRsd(v.cashInPara)),
    slipRow('Подизање', formatRsd(-v.cashOutPara)),
    ...v.moves.map((m) => `  ${m.kind === 'in' ? '+' : '-'}${formatRsd(m.amountPara)} ${m.reason}`.slice(0, 32)),
    rule,
    slipRow('Очекивано у каси', formatRsd(v.expectedPara)),
    ...(v.countedPara !== null
      ? [slipRow('Избројано', formatRsd(v.countedPara)), slipRow('Разлика', formatRsd(v.differencePara ?? 0))]
      : []),
    rule,
    'НИЈЕ ФИСКАЛНИ ДОКУМЕНТ',
  ];
}
