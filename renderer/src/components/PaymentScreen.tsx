import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PAYMENT_TYPES, type PaymentType } from '../../../shared/domain.ts';
import { formatRsd, parseRsdInput } from '../../../shared/money.ts';
import { usePos } from '../context.ts';
import { cartTotal, type PaymentEntry } from '../store/index.ts';
import { ruleNamesOf } from '../store/cart.ts';
import { ActionButton } from './SaleScreen.tsx';
import { BuyerIdField, buyerIdValue, checkBuyerId, type BuyerIdValue } from './BuyerIdField.tsx';
import { IpsDialog } from './IpsPayment.tsx';
import { FormErrorText, TextField } from './TextField.tsx';
import { Options } from '../ui/Options.tsx';

const MAIN_TYPES: PaymentType[] = ['cash', 'card'];
const OTHER_TYPES = PAYMENT_TYPES.filter((p) => !MAIN_TYPES.includes(p));

/** The amounts typed per payment type, checked against what is due. Cash may exceed it: the rest is change. */
export function checkPayments(amounts: Partial<Record<PaymentType, string>>, duePara: number) {
  const payments: PaymentEntry['payments'] = [];
  const invalid: PaymentType[] = [];
  for (const type of PAYMENT_TYPES) {
    const text = amounts[type]?.trim() ?? '';
    if (text === '') continue;
    const para = parseRsdInput(text);
    if (para === null || para < 0) invalid.push(type);
    else if (para > 0) payments.push({ type, amountPara: para });
  }
  const paid = payments.reduce((s, p) => s + p.amountPara, 0);
  const nonCash = payments.filter((p) => p.type !== 'cash').reduce((s, p) => s + p.amountPara, 0);
  const error =
    invalid.length > 0
      ? 'dialog.invalidPrice'
      : nonCash > duePara
        ? 'pay.nonCashTooMuch'
        : paid < duePara
          ? 'pay.notEnough'
          : null;
  return {
    payments,
    invalid,
    paid,
    nonCash,
    change: Math.max(0, paid - duePara),
    remaining: Math.max(0, duePara - paid),
    error,
  };
}

/**
 * What F5 (cash) or F6 (card) puts in its field: what is left to pay once every other tender's amount is
 * counted, so "500 cash, the rest by card" is 500, F6. Cash still showing the amount the screen opened with
 * (`cashTouched` false) is a suggestion, not a tender: it is cleared, and the key fills the whole total.
 */
export function fillRest(
  type: 'cash' | 'card',
  amounts: Partial<Record<PaymentType, string>>,
  duePara: number,
  cashTouched: boolean,
): Partial<Record<PaymentType, string>> {
  const others: Partial<Record<PaymentType, string>> = { ...amounts, [type]: '' };
  if (type === 'card' && !cashTouched) others.cash = '';
  const paidByOthers = checkPayments(others, duePara).paid;
  return { ...others, [type]: formatRsd(Math.max(0, duePara - paidByOthers)) };
}

/**
 * What an IPS transfer pays (F7): what is left once the other tenders are counted (cash only when the cashier
 * typed it: the suggestion is not a tender), and the other payments that go with it on the receipt.
 */
export function ipsRest(
  amounts: Partial<Record<PaymentType, string>>,
  duePara: number,
  cashTouched: boolean,
): { restPara: number; others: PaymentEntry['payments']; error: string | null } {
  const others: Partial<Record<PaymentType, string>> = { ...amounts, mobileMoney: '' };
  if (!cashTouched) others.cash = '';
  const check = checkPayments(others, duePara);
  const restPara = Math.max(0, duePara - check.paid);
  const error =
    check.invalid.length > 0
      ? 'dialog.invalidPrice'
      : check.nonCash > duePara
        ? 'pay.nonCashTooMuch'
        : restPara === 0
          ? 'ips.nothingLeft'
          : null;
  return { restPara, others: check.payments, error };
}

/** F12 on the sale screen: split payment, change, buyer ID, e-mail, invoice type; F7 pays by IPS QR. */
export function PaymentScreen() {
  const { t } = useTranslation();
  const lines = usePos((s) => s.lines);
  const busy = usePos((s) => s.busy);
  // The core's training mode is the truth: the till never switches it on its own.
  const training = usePos((s) => s.info?.trainingMode ?? false);
  const checkout = usePos((s) => s.checkout);
  const setScreen = usePos((s) => s.setScreen);
  const tendered = usePos((s) => s.tendered);
  const due = cartTotal(lines);
  const [typed, setAmounts] = useState<Partial<Record<PaymentType, string>>>({});
  const [cashTouched, setCashTouched] = useState(false);
  // Until the cashier types cash, it shows what is left after the other tenders, following the total: a
  // scan answered just after the screen opened changes what is due.
  const amounts: Partial<Record<PaymentType, string>> = cashTouched
    ? typed
    : { ...typed, cash: formatRsd(Math.max(0, due - checkPayments({ ...typed, cash: '' }, due).nonCash)) };
  const [showMore, setShowMore] = useState(false);
  const language = usePos((s) => s.language);
  // The sale's buyer lives in the store: a business buyer's price list prices the cart as soon as the buyer ID is
  // valid, and going back to the cart and here again keeps it (docs/prices.md).
  const saleBuyerId = usePos((s) => s.saleBuyerId);
  const setSaleBuyer = usePos((s) => s.setSaleBuyer);
  const [buyerValue, setBuyerValue] = useState<BuyerIdValue>(() => buyerIdValue(saleBuyerId ?? undefined));
  const [email, setEmail] = useState('');
  const invoiceTypes: PaymentEntry['invoiceType'][] = training ? ['training', 'proforma'] : ['normal', 'proforma'];
  const [invoiceType, setInvoiceType] = useState<PaymentEntry['invoiceType']>(invoiceTypes[0] ?? 'normal');
  const [submitted, setSubmitted] = useState(false);
  // The IPS QR dialog, open for this amount (para); its own error when it cannot open.
  const [ipsPara, setIpsPara] = useState<number | null>(null);
  const [ipsError, setIpsError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // Proforma and training take no money: no amounts, no change; the core sends a nominal payment.
  const noMoney = invoiceType === 'proforma' || invoiceType === 'training';
  const check = checkPayments(amounts, due);
  const payError = noMoney ? null : check.error;
  const buyer = checkBuyerId(buyerValue, language);
  const validBuyer = 'buyerId' in buyer ? (buyer.buyerId ?? null) : null;
  useEffect(() => setSaleBuyer(validBuyer), [validBuyer, setSaleBuyer]);
  const ruleNames = ruleNamesOf(lines);
  const emailError =
    email.trim() !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? 'pay.invalidEmail' : null;

  const setAmount = (type: PaymentType, text: string) => {
    tendered();
    const next = { ...amounts, [type]: text };
    if (type === 'cash') setCashTouched(true);
    setAmounts(next);
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitted(true);
    tendered();
    if (busy || payError || 'error' in buyer || emailError) return;
    void checkout({
      payments: noMoney ? [] : check.payments,
      invoiceType,
      ...(buyer.buyerId ? { buyerId: buyer.buyerId } : {}),
      ...(email.trim() ? { email: email.trim() } : {}),
    });
  };

  const ips = ipsRest(amounts, due, cashTouched);
  const openIps = () => {
    setIpsError(null);
    if (busy || noMoney) return;
    if ('error' in buyer || emailError) {
      setSubmitted(true);
      return;
    }
    if (ips.error) {
      setIpsError(ips.error);
      return;
    }
    tendered();
    setIpsPara(ips.restPara);
  };
  const ipsArrived = (reference: string) => {
    if (ipsPara === null || 'error' in buyer) return;
    void checkout({
      payments: [...ips.others, { type: 'mobileMoney', amountPara: ipsPara }],
      invoiceType,
      ...(buyer.buyerId ? { buyerId: buyer.buyerId } : {}),
      ...(email.trim() ? { email: email.trim() } : {}),
      ipsReference: reference,
    });
  };

  const quickFill = (type: 'cash' | 'card') => {
    tendered();
    setAmounts(fillRest(type, amounts, due, cashTouched));
    setCashTouched(true);
  };

  // Layout effect: the keys work from the first frame the screen is shown (a fast double F12 is not lost).
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // The IPS dialog has its own keys (Esc cancels it): none of the payment screen's act behind it.
      if (ipsPara !== null) return;
      if (e.key === 'F7') {
        e.preventDefault();
        openIps();
      } else if (e.key === 'F12' || e.key === 'F10') {
        e.preventDefault();
        formRef.current?.requestSubmit();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        setScreen('sale');
      } else if (e.key === 'F5' || e.key === 'F6') {
        e.preventDefault();
        quickFill(e.key === 'F5' ? 'cash' : 'card');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const amountField = (type: PaymentType, autoFocus = false) => (
    <label className="field amount" key={type}>
      {t(`payment.${type}`)}
      <input
        inputMode="decimal"
        autoFocus={autoFocus}
        value={amounts[type] ?? ''}
        onChange={(e) => setAmount(type, e.target.value)}
        onFocus={(e) => e.target.select()}
        aria-invalid={check.invalid.includes(type)}
      />
    </label>
  );

  // Payment and e-mail errors are i18n keys; the buyer ID's is already text in the UI language (shared/buyer-id.ts).
  const shownError = submitted
    ? payError
      ? t(payError)
      : 'error' in buyer
        ? buyer.error
        : emailError
          ? t(emailError)
          : null
    : null;

  return (
    <main className="payment" aria-label={t('pay.title')}>
      <form ref={formRef} onSubmit={submit} noValidate>
        <h1>{t('pay.title')}</h1>
        <dl className="pay-summary">
          <div>
            <dt>{t('pay.due')}</dt>
            <dd data-testid="due">{formatRsd(due)}</dd>
          </div>
          {!noMoney && (
            <>
              <div>
                <dt>{t('pay.paid')}</dt>
                <dd data-testid="paid">{formatRsd(check.paid)}</dd>
              </div>
              <div>
                <dt>{t('pay.remaining')}</dt>
                <dd data-testid="remaining">{formatRsd(check.remaining)}</dd>
              </div>
              <div className="change">
                <dt>{t('pay.change')}</dt>
                <dd>
                  <output aria-label={t('pay.change')} data-testid="change">
                    {formatRsd(check.change)}
                  </output>
                </dd>
              </div>
            </>
          )}
        </dl>
        {noMoney && (
          <p className="no-money" role="status" data-testid="no-money">
            {t(`noMoney.${invoiceType}`)}
          </p>
        )}
        {!noMoney && (
          <fieldset className="amounts">
            <legend>{t('pay.paid')}</legend>
            {amountField('cash', true)}
            {amountField('card')}
            <div className="quick-pay">
              {(
                [
                  ['cash', t('payment.cash'), 'F5'],
                  ['card', t('payment.card'), 'F6'],
                ] as const
              ).map(([type, name, shortcut]) => (
                <ActionButton
                  key={type}
                  label={`${name} = ${fillRest(type, amounts, due, cashTouched)[type] ?? ''}`}
                  shortcut={shortcut}
                  onClick={() => quickFill(type)}
                />
              ))}
              <ActionButton
                label={`${t('ips.button')} = ${formatRsd(ips.restPara)}`}
                shortcut="F7"
                className="ips-button"
                onClick={openIps}
              />
            </div>
            <FormErrorText text={ipsError && t(ipsError)} />
            <button type="button" className="link" aria-expanded={showMore} onClick={() => setShowMore(!showMore)}>
              {t('pay.moreTypes')}
            </button>
            {showMore && <div className="more-types">{OTHER_TYPES.map((type) => amountField(type))}</div>}
          </fieldset>
        )}
        <fieldset className="buyer">
          <legend>{t('pay.buyerId')}</legend>
          <BuyerIdField
            lang={language}
            value={buyerValue}
            onChange={setBuyerValue}
            typeLabel={t('pay.buyerType')}
            idLabel={t('pay.buyerId')}
            noneLabel={t('pay.buyerNone')}
            className="field"
            invalid={'error' in buyer}
          />
          {ruleNames.length > 0 && (
            <p role="status" className="price-rules" data-testid="pay-price-rules">
              {t('pay.priceRules', { names: ruleNames.join(', ') })}
            </p>
          )}
          <TextField
            label={t('pay.email')}
            value={email}
            onChange={setEmail}
            input={{ type: 'email', 'aria-invalid': emailError !== null }}
          />
          <label className="field">
            {t('pay.invoiceType')}
            <select value={invoiceType} onChange={(e) => setInvoiceType(e.target.value as PaymentEntry['invoiceType'])}>
              <Options of={invoiceTypes} text={(it) => t(`invoice.${it}`)} />
            </select>
          </label>
        </fieldset>
        <FormErrorText text={shownError} />
        <div className="dialog-buttons">
          <button type="button" onClick={() => setScreen('sale')} aria-keyshortcuts="Escape">
            {t('action.back')} <kbd>Esc</kbd>
          </button>
          <button type="submit" className="primary pay" disabled={busy} aria-keyshortcuts="F12">
            {busy ? t('pay.saving') : t('pay.confirm')} <kbd>F12</kbd>
          </button>
        </div>
      </form>
      {ipsPara !== null && <IpsDialog amountPara={ipsPara} onArrived={ipsArrived} onCancel={() => setIpsPara(null)} />}
    </main>
  );
}
