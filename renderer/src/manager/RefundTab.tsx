/** The manager's refund tab. */
import { useEffect, useState, type FormEvent } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { RefundSource } from '../../../shared/contract/refunds.ts';
import type { Language, OrderView, PaymentType } from '../../../shared/domain.ts';
import { formatQuantity, formatRsd, milliToDecimal, parseQuantityInput } from '../../../shared/money.ts';
import type { ManagerT, ManagerText } from './i18n.ts';
import {
  call,
  useAction,
  Alert,
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

  useEffect(() => {
    void api['orders.list']({ limit: 30 }).then((r) => {
      if (r.ok)
        setRecent(
          r.value.orders.filter((o) => (o.kind === 'sale' || o.kind === 'finalize') && o.state !== 'needs_attention'),
        );
    });
  }, [api]);

  const load = (q: { orderId?: number; invoiceNumber?: string }) =>
    run(async () => {
      setResult(null);
      setQty({});
      setFull(false);
      show(await call(api['refunds.source'](q)));
    });

  /** The original, with the refund's buyer ID prefilled from it. */
  const show = (s: RefundSource) => {
    setSource(s);
    setBuyer(buyerIdValue(s.buyerId));
    setSkipBuyer(false);
    setCorrection(false);
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
      const found = await call(api['archive.search']({ source: 'local', orderNumber: text, limit: 1 }));
      const row = found.rows[0];
      if (row?.orderId) show(await call(api['refunds.source']({ orderId: row.orderId })));
      else show(await call(api['refunds.source']({ invoiceNumber: text })));
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!source) return;
    void run(async () => {
      if (!correction && !skipBuyer && 'error' in buyerCheck) throw new Error(buyerCheck.error);
      const lines = Object.entries(qty)
        .map(([index, text]) => ({ index: Number(index), milli: parseQuantityInput(text) }))
        .filter((l) => l.milli !== null && l.milli !== 0)
        .map((l) => ({ index: l.index, quantity: milliToDecimal(l.milli as number) }));
      const order = await call(
        api['refunds.create']({
          managerPin: pin,
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
    });
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
                {o.orderNumber} · {formatRsd(o.totalPara)} · {t(`state_${o.state}` as ManagerText)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('original')}>
          <input value={query} onChange={(e) => setQuery(e.target.value)} />
        </Field>
        <SubmitButton busy={busy}>{t('find')}</SubmitButton>
      </form>
      {source && (
        <form onSubmit={submit}>
          <p>
            {source.orderNumber ?? ''} {source.invoiceNumber ?? ''} · {t(`state_${source.state}` as ManagerText)} ·{' '}
            {formatRsd(source.totalPara)}
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
                    />
                  </td>
                </tr>
              ))}
            </MgrTable>
          )}
          <Check label={t('full')} checked={full} disabled={!source.fullRefundAllowed} onChange={setFull} />
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
              invalid={!correction && !skipBuyer && 'error' in buyerCheck}
            />
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
            <PinInput t={t} value={pin} onChange={setPin} />
            <SubmitButton busy={busy}>{t('do_refund')}</SubmitButton>
          </div>
        </form>
      )}
      <Alert text={error} />
      {result && <OrderResult t={t} lang={lang} order={result} />}
    </div>
  );
}
