/**
 * The manager's advances tab (docs/advances.md): the open advances with their chains, and for
 * the chosen one the final receipt (its items, editable; the advances paid; the rest and how it is paid)
 * or a further advance of the same order. The open list says what each advance is for (its description); the
 * final items are picked from the catalog (at the catalog's price, the product named) or typed, prices with the
 * decimal comma, labels written as everywhere else (`taxLabelName`).
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { AdvanceChainView } from '../../../shared/contract/advances.ts';
import type { ProductView } from '../../../shared/contract/catalog.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import type { Language, OrderView, PaymentType, TaxLabel } from '../../../shared/domain.ts';
import {
  formatQuantity,
  formatRsd,
  lineTotal,
  milliToDecimal,
  paraToDecimal,
  parseQuantityInput,
  toPara,
} from '../../../shared/money.ts';
import type { ManagerT, ManagerText } from './i18n.ts';
import { taxLabelName } from '../../../shared/i18n/enums.ts';
import { defaultLabel } from '../store/cart.ts';
import {
  call,
  useAction,
  useFieldErrors,
  Alert,
  CheckedField,
  Field,
  MgrTable,
  PaymentSelect,
  OrderResult,
  SubmitButton,
  TaxLabelOptions,
} from './common.tsx';

/** One editable line of the final receipt, as typed. */
interface Draft {
  name: string;
  quantity: string;
  price: string;
  label: string;
  /** The advance line's discount (para), kept while its quantity and price are unchanged. */
  discountPara: number;
  /** The catalog product it sells (picked from the catalog): the core checks its price against the catalog's. */
  productId?: number;
}

/**
 * The typed cells of a final receipt's line, in the order of its columns: each named by its column and the line's
 * number; the amounts are decimal numbers in fields as wide as they need.
 */
const DRAFT_CELLS: readonly {
  key: 'name' | 'quantity' | 'price';
  label: ManagerText;
  input?: { inputMode: 'decimal'; size: number };
}[] = [
  { key: 'name', label: 'adv_item_name' },
  { key: 'quantity', label: 'adv_item_qty', input: { inputMode: 'decimal', size: 6 } },
  { key: 'price', label: 'adv_item_price', input: { inputMode: 'decimal', size: 9 } },
];

/**
 * How an advance is paid and, for a bank transfer, the day the money came in (its ESIR time, docs/advances.md),
 * with the refusal of that day: the first advance's and a further advance's forms each keep one.
 */
function useAdvancePayment(t: ManagerT, idPrefix: string) {
  const [payment, setPayment] = useState<PaymentType>('cash');
  const [paidOn, setPaidOn] = useState('');
  const labels = { paidOn: t('adv_paid_on') };
  const errors = useFieldErrors(labels, idPrefix, (e) => e.field);
  return {
    payment,
    setPayment,
    paidOn,
    setPaidOn,
    labels,
    errors,
    /** Ids of the error messages start with it (`<idPrefix>-paidOn-error`). */
    idPrefix,
    /** The command's payment of `amount` and, for a transfer whose day was typed, that day. */
    input: (amount: number) => ({
      payments: [{ type: payment, amount }],
      ...(payment === 'wireTransfer' && paidOn !== '' ? { paidOn } : {}),
    }),
  };
}

/** The fields of a `useAdvancePayment`: how it is paid, and for a transfer the day, its refusal shown under it. */
function PaymentAndPaidOn(props: { lang: Language; label: string; pay: ReturnType<typeof useAdvancePayment> }) {
  const { pay } = props;
  return (
    <>
      <PaymentSelect lang={props.lang} label={props.label} value={pay.payment} onChange={pay.setPayment} />
      {pay.payment === 'wireTransfer' && (
        <CheckedField
          label={pay.labels.paidOn}
          error={pay.errors.fieldErrors.paidOn}
          errorId={`${pay.idPrefix}-paidOn-error`}
        >
          <input
            type="date"
            value={pay.paidOn}
            {...pay.errors.errorProps('paidOn')}
            onChange={(e) => pay.setPaidOn(e.target.value)}
          />
        </CheckedField>
      )}
    </>
  );
}

/** A price as the field shows it: the decimal comma, `1.234,50`. */
const priceText = (para: number): string => formatRsd(para);

/** What an advance is for, as its lines name it (the first advance's description). */
export function advanceDescription(order: OrderView): string {
  return order.lines.map((l) => l.name).join(', ');
}
/** Para of a typed price ("1.234,50", "1234.5"), or null. */
function parsePrice(text: string): number | null {
  const t = text.trim().replace(/\s/g, '');
  const normalized = t.includes(',') ? t.replace(/\./g, '').replace(',', '.') : t;
  if (!/^\d+(\.\d{1,2})?$/.test(normalized)) return null;
  return toPara(Number(normalized));
}

function draftsOf(order: OrderView): Draft[] {
  return order.lines.map((l) => ({
    name: l.name,
    quantity: formatQuantity(l.quantityMilli),
    price: priceText(l.unitPricePara),
    label: l.labels.join(','),
    discountPara: l.discountPara,
    ...(l.productId !== undefined ? { productId: l.productId } : {}),
  }));
}

export function AdvancesTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [open, setOpen] = useState<OrderView[]>([]);
  const [chains, setChains] = useState<AdvanceChainView[]>([]);
  const [chosen, setChosen] = useState<OrderView | null>(null);
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [payment, setPayment] = useState<PaymentType>('cash');
  const [furtherAmount, setFurtherAmount] = useState('');
  const [result, setResult] = useState<OrderView | null>(null);
  // A first advance (a deposit): the money received now, as one "Аванс" line of a tax label.
  const [labels, setLabels] = useState<TaxLabel[]>([]);
  const [firstName, setFirstName] = useState('');
  const [firstAmount, setFirstAmount] = useState('');
  const [firstLabel, setFirstLabel] = useState('');
  const firstPay = useAdvancePayment(t, 'adv-first');
  const furtherPay = useAdvancePayment(t, 'adv-further');
  const [error, busy, run] = useAction();
  // The catalog search of the final receipt's editor.
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<ProductView[]>([]);
  useEffect(() => {
    const q = search.trim();
    if (q === '') return;
    let live = true;
    void api['catalog.search']({ query: q, limit: 8 }).then((r) => live && setFound(r.ok ? r.value : []));
    return () => {
      live = false;
    };
  }, [api, search]);
  const labelText = (code: string): string => {
    const l = labels.find((x) => x.label === code);
    return l ? taxLabelName(lang, l) : code;
  };
  const addProduct = (p: ProductView) => {
    setDrafts((ds) => [
      ...ds,
      { name: p.name, quantity: '1', price: priceText(p.pricePara), label: p.label, discountPara: 0, productId: p.id },
    ]);
    setSearch('');
  };

  const reload = async (): Promise<void> => {
    const list = await call(api['advances.list']({}));
    setOpen(list.advances);
    setChains(list.chains ?? []);
  };
  useEffect(() => {
    void api['taxRates.get']({}).then((r) => {
      if (r.ok) {
        setLabels(r.value.labels);
        setFirstLabel((l) => l || defaultLabel(r.value));
      }
    });
    void run(reload);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const chainOf = (orderId: number): AdvanceChainView | undefined => chains.find((c) => c.orderId === orderId);
  const choose = (a: OrderView) => {
    setChosen(a);
    setDrafts(draftsOf(a));
    setResult(null);
  };

  // The final receipt's total from the typed lines (null while a line does not parse).
  const priced = drafts.map((d) => {
    const q = parseQuantityInput(d.quantity);
    const p = parsePrice(d.price);
    return q === null || p === null || q <= 0 || !d.name.trim() || !d.label.trim() || d.discountPara > lineTotal(p, q)
      ? null
      : { d, q, p, total: lineTotal(p, q, d.discountPara) };
  });
  const valid = priced.length > 0 && priced.every((x) => x !== null);
  const totalPara = valid ? priced.reduce((s, x) => s + (x?.total ?? 0), 0) : null;
  const paidPara = chosen ? (chainOf(chosen.orderId)?.paidPara ?? chosen.totalPara) : 0;
  const restPara = totalPara === null ? null : totalPara - paidPara;

  // A changed quantity or price drops the advance line's discount (it was for the old line).
  const setDraft = (i: number, patch: Partial<Draft>) =>
    setDrafts((ds) =>
      ds.map((d, j) =>
        j === i
          ? {
              ...d,
              ...patch,
              ...(patch.quantity !== undefined || patch.price !== undefined ? { discountPara: 0 } : {}),
            }
          : d,
      ),
    );

  const finalize = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen || !valid) return;
    void run(async () => {
      const lines = priced.map((x) => ({
        name: x?.d.name.trim() ?? '',
        quantity: milliToDecimal(x?.q ?? 0),
        unitPrice: paraToDecimal(x?.p ?? 0),
        labels: (x?.d.label ?? '')
          .split(',')
          .map((l) => l.trim())
          .filter(Boolean),
        ...(x && x.d.discountPara > 0 ? { discount: paraToDecimal(x.d.discountPara) } : {}),
        ...(x?.d.productId !== undefined ? { productId: x.d.productId } : {}),
      }));
      const rest = restPara ?? 0;
      setResult(
        await call(
          api['advances.finalize']({
            orderId: chosen.orderId,
            lines,
            paymentType: payment,
            ...(rest > 0 ? { payments: [{ type: payment, amount: paraToDecimal(rest) }] } : {}),
          }),
        ),
      );
      setChosen(null);
      await reload();
    });
  };

  const further = (e: FormEvent) => {
    e.preventDefault();
    if (!chosen) return;
    const para = parsePrice(furtherAmount);
    const label = chosen.lines[0]?.labels[0] ?? 'A';
    furtherPay.errors.setFieldErrors({});
    void run(async () => {
      const amount = paraToDecimal(para ?? 0);
      try {
        setResult(
          await call(
            api['advances.add']({
              orderId: chosen.orderId,
              lines: [{ name: t('adv_line_name'), quantity: 1, unitPrice: amount, labels: [label] }],
              ...furtherPay.input(amount),
            }),
          ),
        );
      } catch (err) {
        furtherPay.errors.fail(err);
        return;
      }
      setChosen(null);
      setFurtherAmount('');
      furtherPay.setPaidOn('');
      await reload();
    });
  };

  const first = (e: FormEvent) => {
    e.preventDefault();
    const para = parsePrice(firstAmount);
    if (para === null || para <= 0 || !firstLabel) return;
    firstPay.errors.setFieldErrors({});
    void run(async () => {
      const amount = paraToDecimal(para);
      let sold;
      try {
        sold = await call(
          api['sales.checkout']({
            invoiceType: 'advance',
            lines: [
              { name: firstName.trim() || t('adv_line_name'), quantity: 1, unitPrice: amount, labels: [firstLabel] },
            ],
            ...firstPay.input(amount),
          }),
        );
      } catch (err) {
        firstPay.errors.fail(err);
        return;
      }
      setResult(await call(api['orders.get']({ orderId: sold.orderId })));
      setFirstAmount('');
      setFirstName('');
      firstPay.setPaidOn('');
      await reload();
    });
  };

  return (
    <div className="mgr-tab">
      <h3>{t('adv_first')}</h3>
      <form onSubmit={first} className="mgr-row" aria-label={t('adv_first')}>
        <Field label={t('adv_first_name')}>
          <input value={firstName} placeholder={t('adv_line_name')} onChange={(e) => setFirstName(e.target.value)} />
        </Field>
        <Field label={t('adv_first_amount')}>
          <input inputMode="decimal" value={firstAmount} onChange={(e) => setFirstAmount(e.target.value)} />
        </Field>
        <Field label={t('adv_item_label')}>
          <select value={firstLabel} onChange={(e) => setFirstLabel(e.target.value)}>
            <TaxLabelOptions lang={lang} labels={labels} />
          </select>
        </Field>
        <PaymentAndPaidOn lang={lang} label={t('adv_further_payment')} pay={firstPay} />
        <SubmitButton busy={busy} disabled={(parsePrice(firstAmount) ?? 0) <= 0 || !firstLabel}>
          {t('adv_first_btn')}
        </SubmitButton>
      </form>
      <h3>{t('advances_open')}</h3>
      {open.length === 0 && <p>{t('none')}</p>}
      <ul className="mgr-list">
        {open.map((a) => {
          const chain = chainOf(a.orderId);
          return (
            <li key={a.orderId}>
              {t('adv_open_item', {
                description: advanceDescription(a),
                time: formatMoment(a.createdAt, lang),
                order: a.orderNumber,
                total: formatRsd(a.totalPara),
                state: t(`state_${a.state}` as ManagerText),
              })}{' '}
              <button
                type="button"
                disabled={busy}
                aria-pressed={chosen?.orderId === a.orderId}
                onClick={() => choose(a)}
              >
                {t('adv_select', { order: a.orderNumber })}
              </button>
              {chain && chain.advances.length > 1 && (
                <ol className="mgr-chain" aria-label={t('adv_chain')}>
                  {chain.advances.map((c, i) => (
                    <li key={c.orderId}>
                      {c.invoiceNumber ?? c.orderNumber} · {formatRsd(c.totalPara)}
                      {c.refundedPara > 0 ? ` · ${t('adv_refunded', { amount: formatRsd(c.refundedPara) })}` : ''}
                      {i > 0
                        ? ` · ${t('adv_follows', { invoice: chain.advances[i - 1]?.invoiceNumber ?? chain.advances[i - 1]?.orderNumber ?? '' })}`
                        : ''}
                    </li>
                  ))}
                </ol>
              )}
              {chain && (
                <div>
                  {t('adv_paid')}: {formatRsd(chain.paidPara)}
                </div>
              )}
            </li>
          );
        })}
      </ul>

      {chosen && (
        <>
          <form onSubmit={finalize} aria-label={t('adv_final_items')}>
            <h4>{t('adv_selected', { order: chosen.orderNumber })}</h4>
            <MgrTable
              label={t('adv_final_items')}
              headers={[...DRAFT_CELLS.map((c) => t(c.label)), t('adv_item_label'), '']}
            >
              {drafts.map((d, i) => (
                <tr key={i}>
                  {DRAFT_CELLS.map((c) => (
                    <td key={c.key}>
                      <input
                        aria-label={`${t(c.label)} ${i + 1}`}
                        {...c.input}
                        value={d[c.key]}
                        onChange={(e) => setDraft(i, { [c.key]: e.target.value })}
                      />
                    </td>
                  ))}
                  <td>
                    <select
                      aria-label={`${t('adv_item_label')} ${i + 1}`}
                      value={d.label}
                      onChange={(e) => setDraft(i, { label: e.target.value })}
                    >
                      {!labels.some((l) => l.label === d.label) && (
                        <option value={d.label}>{labelText(d.label)}</option>
                      )}
                      <TaxLabelOptions lang={lang} labels={labels} />
                    </select>
                  </td>
                  <td>
                    <button
                      type="button"
                      aria-label={t('adv_remove_line', { n: i + 1 })}
                      disabled={drafts.length <= 1}
                      onClick={() => setDrafts((ds) => ds.filter((_, j) => j !== i))}
                    >
                      ✕
                    </button>
                  </td>
                </tr>
              ))}
            </MgrTable>
            <div className="mgr-row">
              <Field label={t('adv_catalog')}>
                <input
                  type="search"
                  value={search}
                  placeholder={t('adv_catalog_hint')}
                  onChange={(e) => setSearch(e.target.value)}
                />
              </Field>
              {search.trim() !== '' && found.length > 0 && (
                <ul className="mgr-list mgr-found" aria-label={t('adv_catalog')}>
                  {found.map((p) => (
                    <li key={p.id}>
                      <button type="button" onClick={() => addProduct(p)}>
                        {t('adv_catalog_add', { name: p.name, price: formatRsd(p.pricePara) })}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              <button
                type="button"
                onClick={() =>
                  setDrafts((ds) => [
                    ...ds,
                    {
                      name: '',
                      quantity: '1',
                      price: '',
                      label: chosen.lines[0]?.labels.join(',') ?? 'A',
                      discountPara: 0,
                    },
                  ])
                }
              >
                {t('adv_add_line')}
              </button>
            </div>
            <p data-testid="adv-sums">
              {t('adv_final_total')}: {totalPara === null ? '—' : formatRsd(totalPara)} · {t('adv_paid')}:{' '}
              {formatRsd(paidPara)} · {t('adv_rest')}:{' '}
              <strong>{restPara === null ? '—' : formatRsd(Math.max(0, restPara))}</strong>
            </p>
            <div className="mgr-row">
              <PaymentSelect lang={lang} label={t('final_payment')} value={payment} onChange={setPayment} />
              <SubmitButton busy={busy} disabled={!valid}>
                {t('adv_finalize_btn')}
              </SubmitButton>
            </div>
          </form>
          <h4>{t('adv_further')}</h4>
          <form onSubmit={further} className="mgr-row" aria-label={t('adv_further')}>
            <Field label={t('adv_further_amount')}>
              <input inputMode="decimal" value={furtherAmount} onChange={(e) => setFurtherAmount(e.target.value)} />
            </Field>
            <PaymentAndPaidOn lang={lang} label={t('adv_further_payment')} pay={furtherPay} />
            <SubmitButton busy={busy} disabled={parsePrice(furtherAmount) === null}>
              {t('adv_further_btn')}
            </SubmitButton>
          </form>
        </>
      )}
      <Alert text={error} />
      {result && <OrderResult t={t} lang={lang} order={result} />}
    </div>
  );
}
