/**
 * The manager's refund tab. The recent sales are listed by time, cashier, items and total; the refund is paid
 * back the way the original was paid (its largest tender) unless the manager picks another; a refusal is shown
 * under the field it is about (the line's quantity, the buyer ID, the PIN), in the manager's language.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { RefundSource } from '../../../shared/contract/refunds.ts';
import type { Language, OrderView, PaymentType } from '../../../shared/domain.ts';
import { formatQuantity, formatRsd, milliToDecimal, parseQuantityInput } from '../../../shared/money.ts';
import type { ManagerT, ManagerText } from './i18n.ts';
import { message } from '../../../shared/messages.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import {
  call,
  fieldError,
  pinOf,
  useAction,
  Alert,
  CheckedField,
  Field,
  MgrTable,
  PaymentSelect,
  PinInput,
  OrderResult,
  SubmitButton,
} from './common.tsx';
import {
  BuyerIdField,
  NO_BUYER_ID,
  buyerIdValue,
  checkBuyerId,
  type BuyerIdValue,
} from '../components/BuyerIdField.tsx';
import { Check } from '../components/Check.tsx';

/** The tender that carried most of a sale (its first on a tie): what its refund is paid back in by default. */
export function mainTender(payments: readonly { type: PaymentType; amountPara: number }[]): PaymentType {
  let best: { type: PaymentType; amountPara: number } | undefined;
  for (const p of payments) if (!best || p.amountPara > best.amountPara) best = p;
  return best?.type ?? 'cash';
}

/** A recent sale as the picker shows it: the time, who sold it, what and for how much. */
export function saleChoiceText(o: OrderView, lang: Language, t: ManagerT): string {
  const names = o.lines.map((l) => l.name);
  const items = names.slice(0, 3).join(', ') + (names.length > 3 ? ' …' : '');
  return t('refund_pick_option', {
    time: formatMoment(o.createdAt, lang),
    cashier: o.cashier ?? '—',
    items,
    total: formatRsd(o.totalPara),
  });
}

/** Fields a refusal may name: the search, a line's quantity (`line-INDEX`), and the form's own. */
type RefundField = 'query' | 'lines' | 'full' | 'buyerId' | 'paymentType' | 'managerPin' | `line-${number}`;

export function RefundTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [recent, setRecent] = useState<OrderView[]>([]);
  const [query, setQuery] = useState('');
  const [source, setSource] = useState<RefundSource | null>(null);
  const [qty, setQty] = useState<Record<number, string>>({});
  const [full, setFull] = useState(false);
  const [buyer, setBuyer] = useState<BuyerIdValue>(NO_BUYER_ID);
  const [skipBuyer, setSkipBuyer] = useState(false);
  const [correction, setCorrection] = useState(false);
  const [payment, setPayment] = useState<PaymentType>('cash');
  const [pin, setPin] = useState('');
  const [result, setResult] = useState<OrderView | null>(null);
  const [error, busy, run] = useAction();
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<RefundField, string>>>({});
  const errorId = (f: RefundField) => `refund-${f}-error`;
  const invalid = (f: RefundField) =>
    fieldErrors[f] ? { 'aria-invalid': true as const, 'aria-describedby': errorId(f) } : {};
  const fieldMessage = (f: RefundField) =>
    fieldErrors[f] ? (
      <span id={errorId(f)} role="alert" className="mgr-error mgr-field-error">
        {fieldErrors[f]}
      </span>
    ) : null;

  useEffect(() => {
    void api['orders.list']({ limit: 30 }).then((r) => {
      if (r.ok)
        setRecent(
          r.value.orders.filter((o) => (o.kind === 'sale' || o.kind === 'finalize') && o.state !== 'needs_attention'),
        );
    });
  }, [api]);

  /** A refusal of the search goes under the search field; any other to the alert. */
  const searchFailed = (err: unknown): void => {
    const hit = fieldError(err, { query: t('original') }, (e) =>
      e.field === undefined || e.field === 'invoiceNumber' || e.field === 'orderId' || e.code === 'not_found'
        ? 'query'
        : undefined,
    );
    if (!hit) throw err;
    setFieldErrors({ query: hit.text });
  };
  const load = (q: { orderId?: number; invoiceNumber?: string }) =>
    run(async () => {
      setResult(null);
      setQty({});
      setFull(false);
      setFieldErrors({});
      try {
        show(await call(api['refunds.source'](q)));
      } catch (err) {
        searchFailed(err);
      }
    });

  /** The original, with the refund's buyer ID prefilled from it. */
  const show = (s: RefundSource) => {
    setSource(s);
    setBuyer(buyerIdValue(s.buyerId));
    setSkipBuyer(false);
    setCorrection(false);
    setPayment(mainTender(s.payments));
  };
  // A correction without refund of money carries the seller's own PIB.
  const shownBuyer = correction && source?.sellerBuyerId ? buyerIdValue(source.sellerBuyerId) : buyer;
  const buyerCheck = checkBuyerId(buyer, lang);

  const find = async (e: FormEvent) => {
    e.preventDefault();
    const text = query.trim();
    if (/^[^-\s]+-[^-\s]+-\d+$/.test(text) && !recent.some((o) => o.orderNumber === text))
      return load({ invoiceNumber: text });
    const local = recent.find((o) => o.orderNumber === text);
    if (local) return load({ orderId: local.orderId });
    await run(async () => {
      setFieldErrors({});
      if (!text) {
        setFieldErrors({ query: message(lang, 'required', { field: t('original') }) });
        return;
      }
      try {
        const found = await call(api['archive.search']({ source: 'local', orderNumber: text, limit: 1 }));
        const row = found.rows[0];
        if (row?.orderId) show(await call(api['refunds.source']({ orderId: row.orderId })));
        else show(await call(api['refunds.source']({ invoiceNumber: text })));
      } catch (err) {
        searchFailed(err);
      }
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!source) return;
    void run(async () => {
      setFieldErrors({});
      if (!correction && !skipBuyer && 'error' in buyerCheck) {
        setFieldErrors({ buyerId: buyerCheck.error });
        return;
      }
      const typed = Object.entries(qty)
        .filter(([, text]) => text.trim() !== '')
        .map(([index, text]) => ({ index: Number(index), milli: parseQuantityInput(text) }));
      // A quantity that is no number is said at its line, not dropped silently.
      const bad = typed.find((l) => l.milli === null);
      if (bad) {
        const name = source.lines.find((l) => l.index === bad.index)?.name ?? '';
        setFieldErrors({ [`line-${bad.index}`]: message(lang, 'number', { field: t('qty_for', { name }) }) });
        return;
      }
      const chosen = typed.filter((l) => l.milli !== 0);
      if (!full && chosen.length === 0) {
        setFieldErrors({ lines: t('refund_choose_lines') });
        return;
      }
      const lines = chosen.map((l) => ({ index: l.index, quantity: milliToDecimal(l.milli as number) }));
      // The core's refusal of `lines.N.*` is about the N-th line sent: shown at that line of the table.
      const labels: Record<string, string> = {
        lines: t('lines'),
        full: t('full'),
        buyerId: t('buyer_id'),
        paymentType: t('refund_payment'),
        managerPin: t('manager_pin'),
        ...Object.fromEntries(
          lines.map((l) => {
            const name = source.lines.find((x) => x.index === l.index)?.name ?? '';
            return [`line-${l.index}`, t('qty_for', { name })];
          }),
        ),
      };
      const toField = (e: { field?: string }): string | undefined => {
        const f = e.field;
        if (f === undefined) return undefined;
        if (f === 'approval.managerPin') return 'managerPin';
        const m = /^lines\.(\d+)\./.exec(f);
        if (m) {
          const sent = lines[Number(m[1])];
          return sent ? `line-${sent.index}` : 'lines';
        }
        return f.split('.')[0];
      };
      try {
        await submitRefund(lines);
      } catch (err) {
        const hit = fieldError(err, labels, toField);
        if (!hit) throw err;
        if (hit.field === 'managerPin') setPin('');
        setFieldErrors({ [hit.field]: hit.text });
      }
    });
  };

  const submitRefund = async (lines: { index: number; quantity: number }[]) => {
    if (!source) return;
    {
      const order = await call(
        api['refunds.create']({
          ...pinOf(pin),
          ...(source.orderId !== undefined
            ? { orderId: source.orderId }
            : { invoiceNumber: source.invoiceNumber ?? '' }),
          ...(full ? { full: true } : { lines }),
          ...(correction
            ? { correction: true }
            : skipBuyer
              ? { skipBuyerId: true }
              : 'buyerId' in buyerCheck && buyerCheck.buyerId
                ? { buyerId: buyerCheck.buyerId }
                : {}),
          paymentType: payment,
        }),
      );
      setResult(order);
      setPin('');
    }
  };

  return (
    <div className="mgr-tab">
      <form onSubmit={(e) => void find(e)} className="mgr-row">
        <Field label={t('recent')}>
          <select
            value=""
            onChange={(e) => {
              const id = Number(e.target.value);
              if (id) void load({ orderId: id });
            }}
          >
            <option value="">{t('choose')}</option>
            {recent.map((o) => (
              <option key={o.orderId} value={o.orderId}>
                {saleChoiceText(o, lang, t)}
              </option>
            ))}
          </select>
        </Field>
        <CheckedField label={t('original')} error={fieldErrors.query} errorId={errorId('query')}>
          <input value={query} onChange={(e) => setQuery(e.target.value)} {...invalid('query')} />
        </CheckedField>
        <SubmitButton busy={busy}>{t('find')}</SubmitButton>
      </form>
      {source && (
        <form onSubmit={submit}>
          <p data-testid="refund-source">
            {source.orderNumber ?? ''} {source.invoiceNumber ?? ''}
            {source.sdcDateTime ? ` · ${formatMoment(source.sdcDateTime, lang)}` : ''} ·{' '}
            {t(`state_${source.state}` as ManagerText)} · {formatRsd(source.totalPara)}
          </p>
          {source.lines.length > 0 && (
            <MgrTable
              label={t('lines')}
              headers={[t('col_item'), t('col_sold'), t('col_refunded'), t('col_left'), t('col_qty')]}
            >
              {source.lines.map((l) => (
                <tr key={l.index}>
                  <td>{l.name}</td>
                  <td>{formatQuantity(l.soldMilli)}</td>
                  <td>{formatQuantity(l.refundedMilli)}</td>
                  <td>{formatQuantity(l.remainingMilli)}</td>
                  <td>
                    <input
                      aria-label={t('qty_for', { name: l.name })}
                      inputMode="decimal"
                      disabled={full}
                      value={qty[l.index] ?? ''}
                      onChange={(e) => setQty({ ...qty, [l.index]: e.target.value })}
                      {...invalid(`line-${l.index}`)}
                    />
                    {fieldMessage(`line-${l.index}`)}
                  </td>
                </tr>
              ))}
            </MgrTable>
          )}
          {fieldMessage('lines')}
          <Check label={t('full')} checked={full} disabled={!source.fullRefundAllowed} onChange={setFull} />
          {fieldMessage('full')}
          <div className="mgr-row">
            <BuyerIdField
              lang={lang}
              value={shownBuyer}
              onChange={setBuyer}
              typeLabel={t('buyer_type')}
              idLabel={t('buyer_id')}
              noneLabel={t('buyer_choose')}
              className="mgr-field"
              disabled={skipBuyer || correction}
              invalid={fieldErrors.buyerId !== undefined}
              errorId={errorId('buyerId')}
            />
            {fieldMessage('buyerId')}
            <Check
              label={t('refund_correction')}
              checked={correction}
              disabled={!source.sellerBuyerId}
              onChange={(checked) => {
                setCorrection(checked);
                if (checked) setSkipBuyer(false);
              }}
            />
            {source.withoutBuyerIdAllowed && (
              <Check label={t('skip_buyer')} checked={skipBuyer} disabled={correction} onChange={setSkipBuyer} />
            )}
            <PaymentSelect lang={lang} label={t('refund_payment')} value={payment} onChange={setPayment} />
            {fieldMessage('paymentType')}
            <PinInput selfApproves t={t} value={pin} onChange={setPin} />
            {fieldMessage('managerPin')}
            <SubmitButton busy={busy}>{t('do_refund')}</SubmitButton>
          </div>
        </form>
      )}
      <Alert text={error} />
      {result && <OrderResult t={t} lang={lang} order={result} />}
    </div>
  );
}
