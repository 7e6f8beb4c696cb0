/**
 * The header's shift button (Ctrl+S): the drawer's shift. No shift: open one with the counted float (the field
 * has the focus; Enter opens it and returns to the sale). An open shift: the float and the cash put in and taken
 * out, cash in and out with a reason and a manager's PIN, print the X report, close with the counted cash (a
 * manager's PIN). The close is blind: the expected drawer is shown only after the count, with the difference, the
 * sales and refunds, and the totals per payment type, as on the printed report. Every rule is the core's
 * (shared/contract/shifts.ts); this screen only asks.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PosApi, Result } from '../../../shared/contract/index.ts';
import { DENOMINATIONS_PARA, PARA_REST, paymentTotals, type ShiftView } from '../../../shared/contract/shifts.ts';
import { paymentName } from '../../../shared/i18n/enums.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { formatRsd, parseRsdInput } from '../../../shared/money.ts';
import { usePos } from '../context.ts';
import { ChoiceSelect } from '../ui/Options.tsx';
import { Modal } from './Modal.tsx';
import { NumberPad } from './NumberPad.tsx';
import { PinInput } from './PinPad.tsx';
import { FormErrorText, TextField } from './TextField.tsx';

/** An amount typed the Serbian way, as the RSD number the contract takes; null when it is not one. */
function rsd(text: string): number | null {
  const para = parseRsdInput(text);
  return para === null || para < 0 ? null : para / 100;
}

/** A manager's PIN, typed for one action (never kept: cleared after each send). */
function PinField(props: { label: string; value: string; onChange: (v: string) => void; onFocus: () => void }) {
  return (
    <label className="field">
      {props.label}
      <PinInput value={props.value} onChange={props.onChange} onFocus={props.onFocus} />
    </label>
  );
}

/**
 * The field the on-screen keypad types into: the one last touched (an amount, the counted cash, a
 * denomination's count, a manager's PIN). Counts and PINs take digits only.
 */
type PadTarget = 'amount' | 'counted' | 'movePin' | 'closePin' | { count: number };

/** A note or coin as the cashier reads it on the money: 5.000, 50, 1 (dinars, no decimals). */
const denominationText = (para: number): string => formatRsd(para).replace(/,00$/, '');

/**
 * The drawer counted by denomination: a count per note and coin; the total fills the counted amount. Only
 * digits are taken (a count is whole); the core checks again that the counts add up to the amount sent.
 */
function DenominationCount(props: {
  counts: Record<string, string>;
  onChange: (c: Record<string, string>) => void;
  onFocus: (para: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="denominations" aria-label={t('shift.byDenomination')}>
      {DENOMINATIONS_PARA.map((para) => (
        <label key={para} className="denomination">
          <span>{denominationText(para)} ×</span>
          <input
            inputMode="numeric"
            aria-label={t('shift.denominationCount', { value: denominationText(para) })}
            value={props.counts[String(para)] ?? ''}
            onFocus={() => props.onFocus(para)}
            onChange={(e) =>
              props.onChange({ ...props.counts, [String(para)]: e.target.value.replace(/\D/g, '').slice(0, 5) })
            }
          />
        </label>
      ))}
      {/* The drawer's cash can end in para (prices and change are to the para): counted as para, 0 to 99. */}
      <label className="denomination para-rest">
        <span>{t('shift.paraRest')}</span>
        <input
          inputMode="numeric"
          aria-label={t('shift.paraRest')}
          value={props.counts[String(PARA_REST)] ?? ''}
          onFocus={() => props.onFocus(PARA_REST)}
          onChange={(e) =>
            props.onChange({ ...props.counts, [String(PARA_REST)]: e.target.value.replace(/\D/g, '').slice(0, 2) })
          }
        />
      </label>
    </fieldset>
  );
}

/** The counts typed (those above zero) and what they add up to, in para. */
function countedByDenomination(counts: Record<string, string>): {
  denominations: Record<string, number>;
  para: number;
} {
  const denominations: Record<string, number> = {};
  let para = 0;
  for (const d of [...DENOMINATIONS_PARA, PARA_REST]) {
    const n = Number(counts[String(d)] || '0');
    if (n > 0) {
      denominations[String(d)] = n;
      para += n * d;
    }
  }
  return { denominations, para };
}

export function ShiftDialog(props: { api: PosApi }) {
  const { t } = useTranslation();
  const close = usePos((s) => s.openDialog);
  const setShift = usePos((s) => s.setShift);
  const setNotice = usePos((s) => s.setNotice);
  const language = usePos((s) => s.language);
  const floatRef = useRef<HTMLInputElement>(null);
  const [shift, setView] = useState<ShiftView | null | undefined>(undefined);
  const [closedNow, setClosedNow] = useState<ShiftView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [float, setFloat] = useState('');
  const [kind, setKind] = useState<'in' | 'out'>('out');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [movePin, setMovePin] = useState('');
  const [counted, setCounted] = useState('');
  const [closePin, setClosePin] = useState('');
  const [byDenomination, setByDenomination] = useState(false);
  const [counts, setCounts] = useState<Record<string, string>>({});
  const [padFor, setPadFor] = useState<PadTarget>('amount');

  // The shop's clock (Europe/Belgrade), whatever the machine's zone is (issue 38).
  const time = (iso: string) => formatMoment(iso, language);

  useEffect(() => {
    void props.api['shifts.current']({}).then((r) => {
      if (r.ok) setView(r.value);
      else setError(r.error.message);
    });
  }, [props.api]);
  // No shift: the float is what the cashier types first (the dialog opens before the shift is read).
  useEffect(() => {
    if (shift === null && !closedNow) floatRef.current?.focus();
  }, [shift, closedNow]);

  /** Shows the result of a command: the new shift, or the core's message. */
  const apply = (r: Result<ShiftView>): boolean => {
    if (!r.ok) {
      setError(r.error.message);
      return false;
    }
    setError(null);
    setView(r.value.closedAt ? null : r.value);
    setShift(r.value.closedAt ? null : r.value);
    return true;
  };

  const open = async (e: FormEvent) => {
    e.preventDefault();
    const value = rsd(float);
    if (value === null) return setError(t('shift.invalidAmount'));
    const r = await props.api['shifts.open']({ openingFloat: value });
    if (!apply(r) || !r.ok) return;
    // Opened: back to the sale at once, the float said in the notice.
    setFloat('');
    close(null);
    setNotice({ kind: 'info', key: 'shift.openedNotice', params: { float: formatRsd(r.value.openingFloatPara) } });
  };

  const move = async (e: FormEvent) => {
    e.preventDefault();
    const value = rsd(amount);
    if (value === null) return setError(t('shift.invalidAmount'));
    const r = await props.api['shifts.cash']({ kind, amount: value, reason, approval: { managerPin: movePin } });
    setMovePin('');
    if (apply(r)) {
      setAmount('');
      setReason('');
    }
  };

  const closeShift = async (e: FormEvent) => {
    e.preventDefault();
    const tally = countedByDenomination(counts);
    const value = byDenomination ? tally.para / 100 : rsd(counted);
    if (value === null) return setError(t('shift.invalidAmount'));
    const r = await props.api['shifts.close']({
      counted: value,
      ...(byDenomination ? { denominations: tally.denominations } : {}),
      approval: { managerPin: closePin },
    });
    setClosePin('');
    if (apply(r) && r.ok) setClosedNow(r.value);
  };

  const printX = async () => {
    if (!shift) return;
    const r = await props.api['shifts.print']({ shiftId: shift.id });
    if (r.ok) {
      setError(null);
      setInfo(t('shift.printed'));
    } else setError(r.error.message);
  };

  // The keypad of the open shift: what it types into, what that field is called, and whether it takes a comma.
  const digits = (v: string, max: number) => v.replace(/\D/g, '').slice(0, max);
  // The counted amount is the counts' sum while counting by denomination: the keypad goes back to the amount.
  const target: PadTarget = padFor === 'counted' && byDenomination ? 'amount' : padFor;
  const pad: { label: string; value: string; onChange: (v: string) => void; decimal: boolean } =
    typeof target === 'object'
      ? {
          label:
            target.count === PARA_REST
              ? t('shift.paraRest')
              : t('shift.denominationCount', { value: denominationText(target.count) }),
          value: counts[String(target.count)] ?? '',
          onChange: (v) =>
            setCounts({ ...counts, [String(target.count)]: digits(v, target.count === PARA_REST ? 2 : 5) }),
          decimal: false,
        }
      : target === 'counted'
        ? { label: t('shift.countedField'), value: counted, onChange: setCounted, decimal: true }
        : target === 'movePin'
          ? { label: t('shift.managerPin'), value: movePin, onChange: (v) => setMovePin(digits(v, 8)), decimal: false }
          : target === 'closePin'
            ? {
                label: t('shift.managerPin'),
                value: closePin,
                onChange: (v) => setClosePin(digits(v, 8)),
                decimal: false,
              }
            : { label: t('shift.amount'), value: amount, onChange: setAmount, decimal: true };
  /** Which form the keypad's field is in: its caption says so, as two fields share a label (the PINs). */
  const padForm = target === 'amount' || target === 'movePin' ? t('shift.moves') : t('shift.closeAction');

  const row = (label: string, para: number, testId?: string, className?: string) => (
    <div className={className}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{formatRsd(para)}</dd>
    </div>
  );
  /** The open shift, blind: the float and the cash moved by hand, never what the drawer should hold. */
  const openFigures = (v: ShiftView) => (
    <dl className="shift-figures">
      {row(t('shift.openingFloat'), v.openingFloatPara, 'shift-float')}
      {row(t('shift.cashIn'), v.cashInPara)}
      {row(t('shift.cashOut'), -v.cashOutPara)}
    </dl>
  );
  /** The closed shift, as on the printed report: sales and refunds, each payment type, then the drawer. */
  const closedFigures = (v: ShiftView) => (
    <div className="shift-closed">
      <dl className="shift-figures" aria-label={t('shift.byPayment')}>
        {row(t('shift.salesCount', { count: v.sales.count }), v.sales.totalPara, 'shift-sales')}
        {row(t('shift.refundsCount', { count: v.refunds.count }), -v.refunds.totalPara, 'shift-refunds')}
        {paymentTotals(v).map((p) => (
          <div key={p.type}>
            <dt>{paymentName(language, p.type)}</dt>
            <dd data-testid={`shift-pay-${p.type}`}>{formatRsd(p.netPara)}</dd>
          </div>
        ))}
      </dl>
      <dl className="shift-figures" aria-label={t('shift.drawer')}>
        {row(t('shift.openingFloat'), v.openingFloatPara)}
        {row(t('shift.cashSales'), v.cashSalesPara)}
        {row(t('shift.cashIn'), v.cashInPara)}
        {row(t('shift.cashOut'), -v.cashOutPara)}
        {row(t('shift.expected'), v.expectedPara, 'shift-expected', 'expected')}
        {v.countedPara !== null && row(t('shift.counted'), v.countedPara, 'shift-counted')}
        {v.countedPara !== null &&
          row(
            t('shift.difference'),
            v.differencePara ?? 0,
            'shift-difference',
            (v.differencePara ?? 0) < 0 ? 'short' : undefined,
          )}
      </dl>
    </div>
  );

  return (
    <Modal title={t('shift.title')} onClose={() => close(null)} wide>
      <FormErrorText text={error} />
      {info && !error && <p role="status">{info}</p>}
      {closedNow ? (
        <section aria-label={t('shift.closed')}>
          <p role="status">
            {t('shift.closed')}{' '}
            {closedNow.differencePara === 0
              ? t('shift.exact')
              : `${(closedNow.differencePara ?? 0) < 0 ? t('shift.short') : t('shift.over')}: ${formatRsd(
                  Math.abs(closedNow.differencePara ?? 0),
                )} RSD`}
          </p>
          {closedFigures(closedNow)}
        </section>
      ) : shift === null ? (
        <form onSubmit={open} noValidate aria-label={t('shift.openAction')}>
          <p>{t('shift.noShift')}</p>
          <TextField
            label={t('shift.float')}
            value={float}
            onChange={setFloat}
            input={{ ref: floatRef, inputMode: 'decimal' }}
          />
          <NumberPad label={t('pad.keys')} value={float} onChange={setFloat} decimal />
          <button type="submit" className="primary">
            {t('shift.openAction')}
          </button>
        </form>
      ) : shift ? (
        <>
          <p>{t('shift.opened', { time: time(shift.openedAt), name: shift.cashier })}</p>
          {openFigures(shift)}
          <p className="help">{t('shift.blind')}</p>
          {shift.moves.length > 0 && (
            <ul className="shift-moves" aria-label={t('shift.moves')}>
              {shift.moves.map((m) => (
                <li key={m.id}>
                  {m.kind === 'in' ? t('shift.cashIn') : t('shift.cashOut')}: {formatRsd(m.amountPara)} RSD — {m.reason}
                </li>
              ))}
            </ul>
          )}
          <div className="shift-forms">
            <form onSubmit={move} noValidate aria-label={t('shift.moves')}>
              <h3>{t('shift.moves')}</h3>
              <label className="field">
                {t('shift.kind')}
                <ChoiceSelect
                  value={kind}
                  options={{ out: t('shift.cashOut'), in: t('shift.cashIn') }}
                  onChange={setKind}
                />
              </label>
              <TextField
                label={t('shift.amount')}
                value={amount}
                onChange={setAmount}
                input={{ inputMode: 'decimal', onFocus: () => setPadFor('amount') }}
              />
              <TextField label={t('shift.reason')} value={reason} onChange={setReason} input={{ maxLength: 200 }} />
              <PinField
                label={t('shift.managerPin')}
                value={movePin}
                onChange={setMovePin}
                onFocus={() => setPadFor('movePin')}
              />
              <button type="submit">{t('shift.record')}</button>
            </form>
            <form onSubmit={closeShift} noValidate aria-label={t('shift.closeAction')}>
              <h3>{t('shift.closeAction')}</h3>
              <TextField
                label={t('shift.countedField')}
                value={byDenomination ? formatRsd(countedByDenomination(counts).para) : counted}
                onChange={setCounted}
                input={{ inputMode: 'decimal', readOnly: byDenomination, onFocus: () => setPadFor('counted') }}
              />
              <button type="button" aria-expanded={byDenomination} onClick={() => setByDenomination(!byDenomination)}>
                {t('shift.byDenomination')}
              </button>
              {byDenomination && (
                <DenominationCount counts={counts} onChange={setCounts} onFocus={(count) => setPadFor({ count })} />
              )}
              <PinField
                label={t('shift.managerPin')}
                value={closePin}
                onChange={setClosePin}
                onFocus={() => setPadFor('closePin')}
              />
              <button type="submit" className="danger">
                {t('shift.closeAction')}
              </button>
            </form>
            {/* One keypad for the field last touched (the amount until another is chosen), for a touch-only till. */}
            <div className="shift-pad">
              <p className="help" data-testid="pad-target">
                {t('shift.padTarget', { field: pad.label, form: padForm })}
              </p>
              <NumberPad label={t('pad.keys')} value={pad.value} onChange={pad.onChange} decimal={pad.decimal} />
            </div>
          </div>
        </>
      ) : null}
      <div className="dialog-buttons">
        {shift && !closedNow && (
          <button type="button" onClick={() => void printX()}>
            {t('shift.printX')}
          </button>
        )}
        <button type="button" data-close onClick={() => close(null)}>
          {t('shift.close')} <kbd>Esc</kbd>
        </button>
      </div>
    </Modal>
  );
}
