/**
 * The header's shift button: the drawer's shift. No shift: open one with the counted float. An open
 * shift: the drawer now (the X report), cash in and out with a reason and a manager's PIN, print the X
 * report, close with the counted cash (a manager's PIN); the close shows the difference. Every rule is the
 * core's (shared/contract/shifts.ts); this screen only asks.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PosApi, Result } from '../../../shared/contract/index.ts';
import { DENOMINATIONS_PARA, type ShiftView } from '../../../shared/contract/shifts.ts';
import { formatRsd, parseRsdInput } from '../../../shared/money.ts';
import { usePos } from '../context.ts';
import { locale } from '../format.ts';
import { Modal } from './Modal.tsx';
import { NumberPad } from './NumberPad.tsx';
import { PinInput } from './PinPad.tsx';

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
  for (const d of DENOMINATIONS_PARA) {
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
  const language = usePos((s) => s.language);
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

  const time = (iso: string) =>
    new Date(iso).toLocaleString(locale(language), { dateStyle: 'short', timeStyle: 'short', hour12: false });

  useEffect(() => {
    void props.api['shifts.current']({}).then((r) => {
      if (r.ok) setView(r.value);
      else setError(r.error.message);
    });
  }, [props.api]);

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
    if (apply(await props.api['shifts.open']({ openingFloat: value }))) setFloat('');
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
          label: t('shift.denominationCount', { value: denominationText(target.count) }),
          value: counts[String(target.count)] ?? '',
          onChange: (v) => setCounts({ ...counts, [String(target.count)]: digits(v, 5) }),
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

  const figures = (v: ShiftView) => (
    <dl className="shift-figures">
      <div>
        <dt>{t('shift.openingFloat')}</dt>
        <dd>{formatRsd(v.openingFloatPara)}</dd>
      </div>
      <div>
        <dt>{t('shift.cashSales')}</dt>
        <dd>{formatRsd(v.cashSalesPara)}</dd>
      </div>
      <div>
        <dt>{t('shift.cashIn')}</dt>
        <dd>{formatRsd(v.cashInPara)}</dd>
      </div>
      <div>
        <dt>{t('shift.cashOut')}</dt>
        <dd>{formatRsd(-v.cashOutPara)}</dd>
      </div>
      <div className="expected">
        <dt>{t('shift.expected')}</dt>
        <dd data-testid="shift-expected">{formatRsd(v.expectedPara)}</dd>
      </div>
      {v.countedPara !== null && (
        <>
          <div>
            <dt>{t('shift.counted')}</dt>
            <dd>{formatRsd(v.countedPara)}</dd>
          </div>
          <div className={(v.differencePara ?? 0) < 0 ? 'short' : undefined}>
            <dt>{t('shift.difference')}</dt>
            <dd data-testid="shift-difference">{formatRsd(v.differencePara ?? 0)}</dd>
          </div>
        </>
      )}
    </dl>
  );

  return (
    <Modal title={t('shift.title')} onClose={() => close(null)} wide>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
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
          {figures(closedNow)}
        </section>
      ) : shift === null ? (
        <form onSubmit={open} noValidate aria-label={t('shift.openAction')}>
          <p>{t('shift.noShift')}</p>
          <label className="field">
            {t('shift.float')}
            <input inputMode="decimal" value={float} onChange={(e) => setFloat(e.target.value)} />
          </label>
          <NumberPad label={t('pad.keys')} value={float} onChange={setFloat} decimal />
          <button type="submit" className="primary">
            {t('shift.openAction')}
          </button>
        </form>
      ) : shift ? (
        <>
          <p>{t('shift.opened', { time: time(shift.openedAt), name: shift.cashier })}</p>
          {figures(shift)}
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
                <select value={kind} onChange={(e) => setKind(e.target.value === 'in' ? 'in' : 'out')}>
                  <option value="out">{t('shift.cashOut')}</option>
                  <option value="in">{t('shift.cashIn')}</option>
                </select>
              </label>
              <label className="field">
                {t('shift.amount')}
                <input
                  inputMode="decimal"
                  value={amount}
                  onFocus={() => setPadFor('amount')}
                  onChange={(e) => setAmount(e.target.value)}
                />
              </label>
              <label className="field">
                {t('shift.reason')}
                <input value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} />
              </label>
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
              <label className="field">
                {t('shift.countedField')}
                <input
                  inputMode="decimal"
                  readOnly={byDenomination}
                  value={byDenomination ? formatRsd(countedByDenomination(counts).para) : counted}
                  onFocus={() => setPadFor('counted')}
                  onChange={(e) => setCounted(e.target.value)}
                />
              </label>
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
