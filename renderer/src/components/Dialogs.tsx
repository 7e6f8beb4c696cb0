import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { taxLabelName } from '../../../shared/i18n/enums.ts';
import { defaultLabel } from '../store/cart.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { PRODUCT_UNITS, type ProductUnit } from '../../../shared/contract/catalog.ts';
import { formatRsd, lineTotal, parseQuantityInput, parseRsdInput, roundDiv } from '../../../shared/money.ts';
import { usePos, usePosPick } from '../context.ts';
import { formatLineQuantity } from '../format.ts';
import { Modal } from './Modal.tsx';
import { NumberPad } from './NumberPad.tsx';
import { FieldErrorText, FormErrorText, TextField, type InputAttrs } from './TextField.tsx';
import { Options } from '../ui/Options.tsx';

function Buttons(props: { onCancel: () => void; okLabel?: string }) {
  const { t } = useTranslation();
  return (
    <div className="dialog-buttons">
      <button type="button" data-close onClick={props.onCancel}>
        {t('action.cancel')} <kbd>Esc</kbd>
      </button>
      <button type="submit" className="primary">
        {props.okLabel ?? t('action.ok')} <kbd>Enter</kbd>
      </button>
    </div>
  );
}

/** Validates a typed quantity for a unit: pieces whole, kg/l up to 3 decimals. */
export function checkQuantity(text: string, unit: ProductUnit): { milli: number } | { error: string } {
  const milli = parseQuantityInput(text);
  if (milli === null || milli <= 0) return { error: 'dialog.invalidQuantity' };
  if (unit === 'piece' && milli % 1000 !== 0) return { error: 'dialog.invalidPieces' };
  return { milli };
}

/** The cart's selected line (undefined when none is) and its index: what the line dialogs act on. */
function useSelectedLine() {
  const line = usePos((s) => s.lines[s.selected]);
  const index = usePos((s) => s.selected);
  return { line, index };
}

/** F4: the selected line's quantity; or the weight of a product sold by weight, before it becomes a line. */
export function QuantityDialog() {
  const { t } = useTranslation();
  const weighing = usePos((s) => s.weighing);
  const { line: selectedLine, index } = useSelectedLine();
  const setQuantity = usePos((s) => s.setQuantity);
  const addWeighed = usePos((s) => s.addWeighed);
  const close = usePos((s) => s.openDialog);
  const line = weighing ? { name: weighing.product.name, unit: weighing.product.unit } : selectedLine;
  const [text, setText] = useState(() =>
    selectedLine && !weighing ? formatLineQuantity(selectedLine.quantityMilli, selectedLine.unit) : '',
  );
  const [error, setError] = useState<string | null>(null);
  if (!line) return null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = checkQuantity(text, line.unit);
    if ('error' in r) setError(r.error);
    else if (weighing) addWeighed(r.milli);
    else setQuantity(index, r.milli);
  };
  return (
    <Modal title={t('dialog.quantityTitle', { name: line.name })} onClose={() => close(null)}>
      <form onSubmit={submit} noValidate>
        <TextField
          label={
            <>
              {t('sale.quantity')} ({t(`unit.${line.unit}`)})
            </>
          }
          value={text}
          onChange={setText}
          input={{
            inputMode: 'decimal',
            'aria-invalid': error !== null,
            'aria-describedby': error ? 'qty-error' : undefined,
          }}
        />
        <NumberPad label={t('pad.keys')} value={text} onChange={setText} decimal={line.unit !== 'piece'} />
        <FormErrorText id="qty-error" text={error && t(error)} />
        <Buttons onCancel={() => close(null)} />
      </form>
    </Modal>
  );
}

/**
 * One amount in RSD for the selected line (discount, price), typed the Serbian way. `submit` gets the text,
 * acts on it and returns an error message key, or null when it was accepted.
 */
function LineAmountDialog(props: {
  title: string;
  label: string;
  initial: string;
  help?: string;
  /** The keypad offers `%`. */
  percent?: boolean;
  /** Controls shown above the amount (the discount's scope). */
  before?: ReactNode;
  submit: (text: string) => string | null;
}) {
  const { t } = useTranslation();
  const close = usePos((s) => s.openDialog);
  const [text, setText] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(props.submit(text));
  };
  return (
    <Modal title={props.title} onClose={() => close(null)}>
      <form onSubmit={submit} noValidate>
        {props.before}
        <TextField
          label={props.label}
          value={text}
          onChange={setText}
          input={{ inputMode: 'decimal', 'aria-invalid': error !== null, 'data-autofocus': true }}
        />
        <NumberPad label={t('pad.keys')} value={text} onChange={setText} decimal percent={props.percent} />
        {props.help && <p className="help">{props.help}</p>}
        <FormErrorText text={error && t(error)} />
        <Buttons onCancel={() => close(null)} />
      </form>
    </Modal>
  );
}

/**
 * A discount typed as an amount (`150,00`) or a share of the line (`10%`, up to three decimals), in para:
 * a share is rounded half up to the para. Empty is no discount; null when it is neither.
 */
export function discountPara(text: string, linePara: number): number | null {
  const t = text.trim();
  if (t === '') return 0;
  if (!t.endsWith('%')) return parseRsdInput(t);
  const share = parseQuantityInput(t.slice(0, -1).trim());
  return share === null ? null : roundDiv(linePara * share, 100_000);
}

/**
 * F6: a discount in RSD or as a percentage, on the selected line or on the whole sale. A sale's discount is
 * shared over its lines in proportion (store's setSaleDiscount): the receipt shows line discounts.
 */
export function DiscountDialog() {
  const { t } = useTranslation();
  const { line, index } = useSelectedLine();
  const lines = usePos((s) => s.lines);
  const setDiscount = usePos((s) => s.setDiscount);
  const setSaleDiscount = usePos((s) => s.setSaleDiscount);
  const [scope, setScope] = useState<'line' | 'sale'>('line');
  // A discount on the whole sale never silently replaces the lines' own: with some, the cashier chooses (keep
  // them and add this one, the default; or replace them).
  const [keep, setKeep] = useState(true);
  if (!line) return null;
  const gross = lines.reduce((sum, l) => sum + lineTotal(l.unitPricePara, l.quantityMilli), 0);
  const own = lines.reduce((sum, l) => sum + l.discountPara, 0);
  const adding = scope === 'sale' && own > 0 && keep;
  return (
    <LineAmountDialog
      title={scope === 'line' ? t('dialog.discountTitle', { name: line.name }) : t('dialog.saleDiscountTitle')}
      label={t('dialog.discountAmount')}
      initial={line.discountPara > 0 ? formatRsd(line.discountPara) : ''}
      help={t('dialog.discountHelp')}
      percent
      before={
        <>
          <fieldset className="scope">
            <legend>{t('dialog.discountScope')}</legend>
            {(['line', 'sale'] as const).map((s) => (
              <label key={s}>
                <input type="radio" name="scope" checked={scope === s} onChange={() => setScope(s)} />
                {t(s === 'line' ? 'dialog.scopeLine' : 'dialog.scopeSale')}
              </label>
            ))}
          </fieldset>
          {scope === 'sale' && own > 0 && (
            <fieldset className="scope line-discounts" data-testid="line-discounts">
              <legend>{t('dialog.lineDiscountsHave', { amount: formatRsd(own) })}</legend>
              <label>
                <input type="radio" name="keep" checked={keep} onChange={() => setKeep(true)} />
                {t('dialog.keepLineDiscounts')}
              </label>
              <label>
                <input type="radio" name="keep" checked={!keep} onChange={() => setKeep(false)} />
                {t('dialog.replaceLineDiscounts')}
              </label>
            </fieldset>
          )}
        </>
      }
      submit={(text) => {
        // A share of what is left to discount: the line, the sale, or (keeping the lines' own) the sale after them.
        const total =
          scope === 'line' ? lineTotal(line.unitPricePara, line.quantityMilli) : adding ? gross - own : gross;
        const para = discountPara(text, total);
        if (para === null || para < 0) return 'dialog.invalidPrice';
        if (para > total) return 'dialog.invalidDiscount';
        // Beyond the limit, the core asks for a manager's approval now; the discount applies once approved.
        void (scope === 'sale' ? setSaleDiscount(para, adding) : setDiscount(index, para));
        return null;
      }}
    />
  );
}

/** F3: an item not in the catalog: name, unit price, quantity, a label from the current tax rates. */
export function ManualDialog() {
  const { t } = useTranslation();
  const language = usePos((s) => s.language);
  const taxRates = usePos((s) => s.taxRates);
  const labels = taxRates?.labels ?? [];
  const addManual = usePos((s) => s.addManual);
  const close = usePos((s) => s.openDialog);
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const [qty, setQty] = useState('1');
  const [padFor, setPadFor] = useState<'price' | 'qty'>('price');
  const [unit, setUnit] = useState<ProductUnit>('piece');
  const [label, setLabel] = useState(defaultLabel(taxRates));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next: Record<string, string> = {};
    const unitPricePara = parseRsdInput(price);
    const q = checkQuantity(qty, unit);
    if (name.trim() === '') next.name = 'dialog.required';
    if (unitPricePara === null || unitPricePara < 0) next.price = 'dialog.invalidPrice';
    if ('error' in q) next.qty = q.error;
    if (label === '') next.label = 'dialog.required';
    setErrors(next);
    if (Object.keys(next).length > 0 || unitPricePara === null || 'error' in q) return;
    addManual({ name: name.trim().slice(0, 100), unitPricePara, quantityMilli: q.milli, label, unit });
  };
  const err = (k: string) => <FieldErrorText text={errors[k] ? t(errors[k]) : null} />;
  // The dialog's text fields differ only in their field, label, value and control; each is invalid, with its
  // message under it, while the check above refused it.
  const text = (field: string, label: string, value: string, onChange: (v: string) => void, input: InputAttrs) => (
    <TextField
      label={label}
      value={value}
      onChange={onChange}
      input={{ ...input, 'aria-invalid': !!errors[field] }}
      error={err(field)}
    />
  );
  return (
    <Modal title={t('dialog.manualTitle')} onClose={() => close(null)}>
      <form onSubmit={submit} noValidate className="grid-form">
        {text('name', t('sale.name'), name, setName, { maxLength: 100 })}
        {text('price', t('dialog.unitPrice'), price, setPrice, {
          inputMode: 'decimal',
          onFocus: () => setPadFor('price'),
        })}
        {text('qty', t('sale.quantity'), qty, setQty, { inputMode: 'decimal', onFocus: () => setPadFor('qty') })}
        <UnitField value={unit} onChange={setUnit} />
        <label className="field">
          {t('dialog.label')}
          <select value={label} onChange={(e) => setLabel(e.target.value)} aria-invalid={!!errors.label}>
            <Options of={labels} value={(l) => l.label} text={(l) => taxLabelName(language, l)} />
          </select>
          {err('label')}
        </label>
        {/* One keypad for the numeric field last in focus (the price until another is chosen). */}
        <NumberPad
          label={t('pad.keys')}
          value={padFor === 'price' ? price : qty}
          onChange={padFor === 'price' ? setPrice : setQty}
          decimal={padFor === 'price' || unit !== 'piece'}
        />
        <Buttons onCancel={() => close(null)} />
      </form>
    </Modal>
  );
}

/** The unit of measure a product is sold in (pieces, kg, l), as a labelled select. */
export function UnitField(props: { value: ProductUnit; onChange: (unit: ProductUnit) => void }) {
  const { t } = useTranslation();
  return (
    <label className="field">
      {t('dialog.unit')}
      <select value={props.value} onChange={(e) => props.onChange(e.target.value as ProductUnit)}>
        {PRODUCT_UNITS.map((u) => (
          <option key={u} value={u}>
            {t(`unit.${u}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** F9: park the cart, optionally named. */
export function ParkDialog() {
  const { t } = useTranslation();
  const park = usePos((s) => s.park);
  const close = usePos((s) => s.openDialog);
  const [name, setName] = useState('');
  return (
    <Modal title={t('dialog.parkTitle')} onClose={() => close(null)}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void park(name);
        }}
      >
        <TextField label={t('dialog.parkName')} value={name} onChange={setName} input={{ maxLength: 60 }} />
        <Buttons onCancel={() => close(null)} okLabel={t('action.park')} />
      </form>
    </Modal>
  );
}

/** One parked cart: its description, Resume, and (for this till's own carts) Delete. */
/** One parked cart: resume it, or delete it after a second, explicit confirmation (a cart is gone for good). */
function ParkedRow(props: { text: string; onResume: () => void; onDelete?: () => void }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  // The question takes the focus, on its safe answer: a second Enter does not delete.
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);
  return (
    <li>
      <span>{props.text}</span>
      {confirming ? (
        <>
          <span role="status">{t('dialog.deleteQuestion')}</span>
          <button
            type="button"
            onClick={() => setConfirming(false)}
            aria-label={`${t('action.cancel')}: ${props.text}`}
            ref={cancelRef}
          >
            {t('action.cancel')}
          </button>
          <button
            type="button"
            className="danger"
            onClick={props.onDelete}
            aria-label={`${t('dialog.deleteConfirm')}: ${props.text}`}
          >
            {t('dialog.deleteConfirm')}
          </button>
        </>
      ) : (
        <>
          <button
            type="button"
            className="primary"
            data-resume
            onClick={props.onResume}
            aria-label={`${t('dialog.resume')}: ${props.text}`}
          >
            {t('dialog.resume')}
          </button>
          {props.onDelete && (
            <button
              type="button"
              className="danger"
              onClick={() => setConfirming(true)}
              aria-label={`${t('dialog.delete')}: ${props.text}`}
            >
              {t('dialog.delete')}
            </button>
          )}
        </>
      )}
    </li>
  );
}

/** F7: parked carts, to resume or discard. */
export function ParkedDialog() {
  const { t } = useTranslation();
  const { parked, language, loadParked, resume, resumeRemote } = usePosPick(
    'parked',
    'language',
    'loadParked',
    'resume',
    'resumeRemote',
  );
  const remove = usePos((s) => s.deleteParked);
  const close = usePos((s) => s.openDialog);
  const cart = usePos((s) => s.lines);
  /** The cart the cashier asked to resume while another is open: the question comes first. */
  const [asking, setAsking] = useState<{ name: string; go: (parkCurrent: boolean) => void } | null>(null);
  const remote = usePos((s) => s.remoteParked);
  const loadRemote = usePos((s) => s.loadRemoteParked);
  useEffect(() => {
    void loadParked();
    void loadRemote();
  }, [loadParked, loadRemote]);
  // The list arrives after the dialog opened (focus then sat on Back, and Enter closed it): once it is
  // there, focus goes to the first cart's Resume, so Enter resumes it.
  const listRef = useRef<HTMLUListElement>(null);
  const focused = useRef(false);
  useEffect(() => {
    if (focused.current || parked.length === 0) return;
    focused.current = true;
    listRef.current?.querySelector<HTMLButtonElement>('button[data-resume]')?.focus();
  }, [parked.length]);
  // Resuming never merges two customers' carts: with a cart open the cashier parks it first, or cancels.
  const resumeOr = (name: string, go: (parkCurrent: boolean) => void) => () => {
    if (cart.length === 0) go(false);
    else setAsking({ name, go });
  };
  if (asking) {
    const total = cart.reduce((sum, l) => sum + lineTotal(l.unitPricePara, l.quantityMilli) - l.discountPara, 0);
    return (
      <Modal key="ask" title={t('dialog.resumeAskTitle')} onClose={() => close(null)}>
        <p>{t('dialog.resumeAsk', { lines: cart.length, total: formatRsd(total), name: asking.name })}</p>
        <div className="dialog-buttons">
          <button type="button" className="primary" onClick={() => asking.go(true)}>
            {t('dialog.parkAndResume')}
          </button>
          {/* Cancel goes back to the list; Esc, as everywhere on the counter, closes it. */}
          <button type="button" onClick={() => setAsking(null)}>
            {t('action.cancel')}
          </button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal title={t('dialog.parkedTitle')} onClose={() => close(null)} wide>
      {parked.length === 0 ? (
        <p>{t('dialog.noParked')}</p>
      ) : (
        <ul className="parked-list" aria-label={t('dialog.parkedTitle')} ref={listRef}>
          {parked.map((p) => {
            const name = p.name ?? t('dialog.unnamed');
            const text = t('dialog.parkedItem', {
              name,
              lines: p.lines,
              total: formatRsd(p.totalPara),
              time: formatMoment(p.createdAt, language, { timeOnly: true }),
            });
            return (
              <ParkedRow
                key={p.id}
                text={text}
                onResume={resumeOr(name, (parkCurrent) => void resume(p.id, parkCurrent))}
                onDelete={() => void remove(p.id)}
              />
            );
          })}
        </ul>
      )}
      <section aria-label={t('dialog.otherTills')}>
        <h3>{t('dialog.otherTills')}</h3>
        {remote === null ? null : !remote.online ? (
          <p className="help">{t('dialog.otherTillsOffline')}</p>
        ) : remote.sales.length === 0 ? (
          <p className="help">{t('dialog.noOtherTills')}</p>
        ) : (
          <ul className="parked-list" aria-label={t('dialog.otherTills')}>
            {remote.sales.map((p) => {
              const name = p.name ?? t('dialog.unnamed');
              const text = t('dialog.remoteItem', {
                name,
                terminal: p.terminal ?? '?',
                lines: p.lines,
                total: formatRsd(p.totalPara),
              });
              return (
                <ParkedRow
                  key={p.draftId}
                  text={text}
                  onResume={resumeOr(name, (parkCurrent) => void resumeRemote(p.draftId, parkCurrent))}
                />
              );
            })}
          </ul>
        )}
      </section>
      <div className="dialog-buttons">
        <button type="button" data-close onClick={() => close(null)}>
          {t('action.back')} <kbd>Esc</kbd>
        </button>
      </div>
    </Modal>
  );
}

/** F5: a new unit price for the selected line; applied only after a manager approves it. */
export function PriceDialog() {
  const { t } = useTranslation();
  const { line, index } = useSelectedLine();
  const requestApproval = usePos((s) => s.requestApproval);
  const close = usePos((s) => s.openDialog);
  if (!line) return null;
  return (
    <LineAmountDialog
      title={t('dialog.priceTitle', { name: line.name })}
      label={t('dialog.unitPrice')}
      initial={formatRsd(line.unitPricePara)}
      help={t('dialog.priceHelp')}
      submit={(text) => {
        const para = parseRsdInput(text);
        if (para === null || para < 0) return 'dialog.invalidPrice';
        if (para === line.unitPricePara) close(null);
        else requestApproval({ kind: 'price', index, unitPricePara: para });
        return null;
      }}
    />
  );
}
