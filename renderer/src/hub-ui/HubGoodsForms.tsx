/**
 * The hub UI's goods forms (docs/goods.md "At the hub"): a goods receipt with its lines and calculation (the
 * supplier's discount, the margin → the retail price with VAT from the label's rate the tills report, or the retail
 * price kept and the margin shown), a write-off with its reason, a price change, receiving a transfer with the
 * counted quantities, the shop's suppliers and the shop's PIB and address. A refusal is said under its field, in
 * the user's language; the hub posts each document whole or not at all.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { marginOf, netPurchase, retailFromMargin } from '../../../shared/goods/calc.ts';
import { formatQuantity, formatRsd, parseQuantityInput, parseRsdInput } from '../../../shared/money.ts';
import { dayIn } from '../../../shared/i18n/time.ts';
import type {
  HubGoodsFormData,
  HubReceipt,
  HubReceiptDraftInput,
  HubShopIdentity,
  HubSupplier,
  HubTransfer,
} from '../../../shared/hub/goods-protocol.ts';
import type { HubProduct } from '../../../shared/hub/contract/results.ts';
import { CheckedField, NoteAndAlert } from '../ui/forms.tsx';
import { mt, type ManagerT } from '../manager/i18n.ts';
import { HubCallError, type HubUiApi } from './api.ts';
import type { HubKey, HubLang, HubT } from './i18n.ts';
import {
  NewProductFields,
  newProductDraft,
  newProductInput,
  ReceiptCsvButton,
  type NewProductDraft,
} from './ReceiptLineExtras.tsx';
import { Options } from '../ui/Options.tsx';
import { DayField } from './DayField.tsx';
import { useHubRead } from './useHubRead.ts';

/** What the last post said, as its words' key (said in the language shown now). */
type Note = readonly [HubKey, Record<string, string>] | null;

/** Errors by the field they belong to (the hub's field path, e.g. `lines.1.marginBp`). */
type Errors = Readonly<Record<string, string>>;

/** The hub's refusal codes the forms say in words; anything else is "not valid" at its field. */
const CODE_TEXT: Readonly<Record<string, HubKey>> = {
  pib_check: 'gfErrPibCheck',
  pib_format: 'gfErrPibFormat',
  bank_account: 'gfErrBankAccount',
  supplier_pib_taken: 'gfErrPibTaken',
  invoice_known: 'gfErrInvoiceKnown',
  below_purchase: 'gfErrBelowPurchase',
  product_unknown: 'gfErrProductUnknown',
  rate_unknown: 'gfErrRateUnknown',
  supplier_unknown: 'gfErrSupplierUnknown',
  receipt_empty: 'rcErrEmpty',
  receipt_posted: 'rcErrPosted',
  receipt_draft: 'rcErrDraft',
  receipt_reversed: 'rcErrReversed',
  receipt_not_reversible: 'rcErrNotReversible',
  receipt_unknown: 'rcErrUnknown',
  product_code_taken: 'rcErrCodeTaken',
  barcode_taken: 'rcErrBarcodeTaken',
  barcode_invalid: 'rcErrBarcodeInvalid',
  label_not_current: 'rcErrLabelNotCurrent',
  price_required: 'rcErrPriceRequired',
  too_long: 'rcErrTooLong',
};

/** A refusal of the hub in words: its code's, else the generic text (a list's buttons, which have no field). */
export function refusalText(t: HubT, err: unknown, text: (err: unknown) => string): string {
  const key = err instanceof HubCallError && err.code ? CODE_TEXT[err.code] : undefined;
  return key ? t(key) : text(err);
}

/** A refusal of the hub as its field's error; one naming no field is the form's own (key ''). */
function refusalAt(
  t: HubT,
  err: unknown,
  text: (err: unknown) => string,
  rename: (field: string) => string = (f) => f,
): Errors {
  if (!(err instanceof HubCallError) || !err.field) return { '': text(err) };
  const key = err.code ? CODE_TEXT[err.code] : undefined;
  return { [rename(err.field)]: key ? t(key) : t('gfErrField') };
}

/** A percentage typed as "25" or "12,5" in hundredths of a percent (bp); null when it is not one. */
function parsePercentBp(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^\d{1,5}(\.\d{1,2})?$/.test(t)) return null;
  return Math.round(Number(t) * 100);
}

const percentText = (bp: number | null, lang: HubLang): string =>
  bp === null ? '—' : `${(bp / 100).toFixed(2).replace('.', lang === 'en' ? '.' : ',')} %`;

/** A field's refusal unless what was typed in it is `ok`, as a small form's `check` answers it. */
const refusedUnless = (ok: boolean, field: string, text: string): Record<string, string> =>
  ok ? {} : { [field]: text };

/** A PIB typed (a supplier's, the shop's) refused when it is not nine digits; the hub checks its check digit. */
const pibCheck = (t: HubT, pib: string): Record<string, string> =>
  refusedUnless(/^\d{9}$/.test(pib.trim()), 'pib', t('gfErrPibFormat'));

/** A form's frame: its heading, note and alert, and the form named by its heading. */
function FormBox(props: {
  title: string;
  t: HubT;
  note: Note;
  /** The form's errors: the one naming no field is said at the top. */
  errors: Errors;
  onSubmit: (e: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <form onSubmit={props.onSubmit} aria-label={props.title} className="mgr-top" noValidate>
      <h3>{props.title}</h3>
      <NoteAndAlert note={props.note && props.t(...props.note)} error={props.errors[''] ?? null} />
      {props.children}
    </form>
  );
}

/** A text field with its error under it, named by its label. */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (v: string) => void;
  inputMode?: 'decimal' | 'numeric';
  list?: string;
}) {
  const errorId = `${props.id}-error`;
  return (
    <CheckedField label={props.label} error={props.error} errorId={errorId}>
      <input
        value={props.value}
        inputMode={props.inputMode}
        list={props.list}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </CheckedField>
  );
}

/** A small form's state (useFormPost): its values, the refusals under its fields, the note of its last post. */
type FormPost<V> = ReturnType<typeof useFormPost<V>>;

/**
 * A form of a few text fields in a row and its button: each field named by its label, its error under it. On
 * submit, a `required` field left empty and what `check` refuses are said under their fields and nothing is sent;
 * else `send` posts the values and answers the note to show.
 */
function FieldsForm<K extends string>(props: {
  t: HubT;
  id: string;
  title: string;
  submit: string;
  form: FormPost<Record<K, string>>;
  /** Each field: its value's key, its label, the hub's field its errors come at (default: the key). */
  fields: readonly { key: K; label: string; at?: string; inputMode?: 'decimal' | 'numeric'; required?: true }[];
  /** The refusals of what was typed other than an empty required field, by the hub's field. */
  check: (values: Readonly<Record<K, string>>) => Record<string, string>;
  send: (values: Readonly<Record<K, string>>) => Promise<Note>;
}) {
  const { t, form } = props;
  const onSubmit = (e: FormEvent) => {
    const bad: Record<string, string> = {};
    for (const f of props.fields)
      if (f.required && form.v[f.key].trim() === '') bad[f.at ?? f.key] = t('gfErrRequired');
    form.post(e, { ...bad, ...props.check(form.v) }, () => props.send(form.v));
  };
  return (
    <FormBox t={t} title={props.title} note={form.note} errors={form.errors} onSubmit={onSubmit}>
      <div className="mgr-row">
        {props.fields.map((f) => (
          <TextField
            key={f.key}
            id={`${props.id}-${f.key}`}
            label={f.label}
            value={form.v[f.key]}
            inputMode={f.inputMode}
            error={form.errors[f.at ?? f.key]}
            onChange={(x) => form.setV({ ...form.v, [f.key]: x })}
          />
        ))}
        <button type="submit">{props.submit}</button>
      </div>
    </FormBox>
  );
}

/**
 * A small form's state and its post: `bad` are the fields refused before sending (nothing is sent then), `send` the
 * call, answering the note to show; the fields start again after a post unless `keep`.
 */
function useFormPost<V>(t: HubT, text: (err: unknown) => string, initial: V, keep = false) {
  const [v, setV] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [note, setNote] = useState<Note>(null);
  const post = (e: FormEvent, bad: Record<string, string>, send: () => Promise<Note>) => {
    e.preventDefault();
    setNote(null);
    setErrors(bad);
    if (Object.keys(bad).length > 0) return;
    send()
      .then((n) => {
        setNote(n);
        if (!keep) setV(initial);
      })
      .catch((err: unknown) => setErrors(refusalAt(t, err, text)));
  };
  return { v, setV, errors, note, post };
}

interface LineDraft {
  product: string;
  quantity: string;
  purchase: string;
  discount: string;
  mode: 'margin' | 'retail';
  margin: string;
  retail: string;
  /** The product the line makes when posted (null: a product of the catalog). */
  newProduct: NewProductDraft | null;
}
const EMPTY_LINE: LineDraft = {
  product: '',
  quantity: '',
  purchase: '',
  discount: '',
  mode: 'margin',
  margin: '',
  retail: '',
  newProduct: null,
};

interface FormProps {
  t: HubT;
  lang: HubLang;
  api: HubUiApi;
  /** Everything changed: the tab reads stock, documents and the KEP again. */
  changed: () => void;
  /** A refusal with no field of its own, in the user's language. */
  text: (err: unknown) => string;
}

/** The line's product as the shop's catalog knows it: by code, barcode, or a name typed (the search's one match). */
function useProducts(api: HubUiApi, typed: readonly string[]) {
  const [found, setFound] = useState<Record<string, HubProduct[]>>({});
  const key = typed.join('\u0001');
  useHubRead(
    () => {
      const wanted = key.split('\u0001').filter((s) => s.trim().length >= 2);
      return Promise.all(
        wanted.map(async (q) => [q, (await api.call('products', { q: q.trim(), limit: 8 })).products] as const),
      );
    },
    (pairs) => setFound(Object.fromEntries(pairs)),
    () => undefined,
    [api, key],
  );
  const matches = (q: string): HubProduct[] => found[q] ?? [];
  return {
    matches,
    /**
     * Whether the catalog has answered for what a field says. A line added a moment ago (typed, or from a
     * supplier's CSV) is not looked up yet: the form does not call its product unknown but sends its code as
     * typed, and the hub, which knows its catalog, decides (under load the form said „no such product“ of a
     * product the shop has, clicked before the search came back).
     */
    known: (q: string): boolean => q.trim().length < 2 || Object.hasOwn(found, q),
    /** The product a field names: its code or barcode among the matches, or the one match of a name. */
    productOf(q: string): HubProduct | null {
      const list = matches(q);
      const s = q.trim();
      return (
        list.find((p) => p.code === s || (p.barcodes ?? []).includes(s)) ??
        (list.length === 1 ? (list[0] ?? null) : null)
      );
    },
  };
}

/** A draft's line as the form shows it (amounts and percentages as a person types them). */
function lineOfDraft(l: HubReceiptDraftInput['lines'][number]): LineDraft {
  const bp = (v: number): string => String(v / 100).replace('.', ',');
  return {
    product: l.code,
    quantity: formatQuantity(l.qtyMilli),
    purchase: formatRsd(l.purchasePara),
    discount: l.discountBp ? bp(l.discountBp) : '',
    mode: l.pricePara === undefined ? 'margin' : 'retail',
    margin: l.marginBp === undefined ? '' : bp(l.marginBp),
    retail: l.pricePara === undefined ? '' : formatRsd(l.pricePara),
    newProduct: newProductDraft(l.newProduct),
  };
}

/**
 * The goods receipt: supplier, their invoice, lines with their calculation; saved as a draft or posted by the
 * manager. With `draft` (a saved draft opened from the list) the form edits it: saved over it, or posted as it.
 */
export function ReceiptForm(
  props: FormProps & { data: HubGoodsFormData; draft?: HubReceipt | null; onDraftDone?: () => void },
) {
  const { t, lang, api, data, draft } = props;
  const mgrT: ManagerT = (key, params) => mt(lang, key, params);
  // An opened draft fills the form when it is mounted (the list mounts a new form for each draft it opens).
  const form = draft?.draft ?? null;
  const [supplierId, setSupplierId] = useState(form?.supplierId === undefined ? '' : String(form.supplierId));
  const [invoice, setInvoice] = useState(form?.invoiceNumber ?? '');
  const [invoiceDate, setInvoiceDate] = useState(form?.invoiceDate ?? dayIn(new Date()));
  const [lines, setLines] = useState<LineDraft[]>(
    form?.lines.length ? form.lines.map(lineOfDraft) : [{ ...EMPTY_LINE }],
  );
  const [confirm, setConfirm] = useState(form?.confirmBelowPurchase ?? false);
  const [errors, setErrors] = useState<Errors>({});
  const [note, setNote] = useState<Note>(null);
  const products = useProducts(
    api,
    lines.map((l) => l.product),
  );
  const productOf = products.productOf;
  const rates = new Map(data.taxRates.map((r) => [r.label, r.rate]));
  const setLine = (i: number, change: Partial<LineDraft>) =>
    setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...change } : l)));

  /** A line's calculation as typed (null parts where a figure is missing). */
  const calc = (l: LineDraft) => {
    const p = l.newProduct ? null : productOf(l.product);
    const label = l.newProduct?.label ?? p?.label;
    const rate = label === undefined ? undefined : rates.get(label);
    const purchase = parseRsdInput(l.purchase);
    const discount = l.discount.trim() === '' ? 0 : parsePercentBp(l.discount);
    const net = purchase !== null && discount !== null ? netPurchase(purchase, discount) : null;
    const margin = parsePercentBp(l.margin);
    const retail =
      l.mode === 'retail'
        ? parseRsdInput(l.retail)
        : net !== null && margin !== null && rate !== undefined
          ? retailFromMargin(net, margin, rate)
          : null;
    const shownMargin = net !== null && retail !== null && rate !== undefined ? marginOf(net, retail, rate) : null;
    return { p, rate, purchase, discount, net, margin, retail, shownMargin };
  };

  /** The form as the hub takes it, or null with the errors of the fields said before anything is sent. */
  const collect = () => {
    setNote(null);
    const bad: Record<string, string> = {};
    if (supplierId === '') bad['supplierId'] = t('gfErrSupplierUnknown');
    if (invoice.trim() === '') bad['invoiceNumber'] = t('gfErrRequired');
    const out = lines.map((l, i) => {
      const c = calc(l);
      const qty = parseQuantityInput(l.quantity);
      if (l.newProduct && l.product.trim() === '') bad[`lines.${i}.code`] = t('gfErrRequired');
      if (!c.p && !l.newProduct && products.known(l.product)) bad[`lines.${i}.code`] = t('gfErrProductUnknown');
      const newProduct = l.newProduct ? { newProduct: newProductInput(t, l.newProduct, i, bad) } : {};
      if (qty === null || qty <= 0) bad[`lines.${i}.qtyMilli`] = t('gfErrQuantity');
      if (c.purchase === null) bad[`lines.${i}.purchasePara`] = t('gfErrAmount');
      if (c.discount === null) bad[`lines.${i}.discountBp`] = t('gfErrPercent');
      if (l.mode === 'margin' && c.margin === null) bad[`lines.${i}.price`] = t('gfErrPercent');
      if (l.mode === 'retail' && c.retail === null) bad[`lines.${i}.price`] = t('gfErrAmount');
      return {
        code: c.p?.code ?? l.product.trim(),
        qtyMilli: qty ?? 0,
        purchasePara: c.purchase ?? 0,
        ...(c.discount ? { discountBp: c.discount } : {}),
        ...(l.mode === 'retail' ? { pricePara: c.retail ?? 0 } : { marginBp: c.margin ?? 0 }),
        ...newProduct,
      };
    });
    setErrors(bad);
    if (Object.keys(bad).length > 0) return null;
    return {
      supplierId: Number(supplierId),
      invoiceNumber: invoice.trim(),
      invoiceDate,
      lines: out,
      ...(confirm ? { confirmBelowPurchase: true } : {}),
    };
  };
  const refused = (err: unknown) =>
    setErrors(refusalAt(t, err, props.text, (f) => f.replace(/\.(pricePara|marginBp)$/, '.price')));
  const done = (n: Note) => {
    setNote(n);
    setLines([{ ...EMPTY_LINE }]);
    setInvoice('');
    setConfirm(false);
    props.onDraftDone?.();
    props.changed();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = collect();
    if (!body) return;
    // An opened draft is saved as it is now and posted; else the receipt is posted at once.
    const posted = draft
      ? api
          .call('goodsReceiptDraftSave', { ...body, id: draft.id })
          .then(() => api.call('goodsReceiptDraftPost', { id: draft.id }))
      : api.call('goodsReceipt', body);
    posted.then((doc) => done(['gfReceiptPosted', { number: doc.number }])).catch(refused);
  };
  const saveDraft = () => {
    const body = collect();
    if (!body) return;
    api
      .call('goodsReceiptDraftSave', { ...body, ...(draft ? { id: draft.id } : {}) })
      .then((r) => done(['rcDraftSaved', { invoice: r.invoiceNumber }]))
      .catch(refused);
  };

  return (
    <FormBox
      t={t}
      title={draft ? t('rcEditing', { invoice: draft.invoiceNumber }) : t('gfReceipt')}
      note={note}
      errors={errors}
      onSubmit={submit}
    >
      <div className="mgr-row">
        <CheckedField label={t('gfSupplier')} error={errors['supplierId']} errorId="gf-supplier-error">
          <select value={supplierId} onChange={(e) => setSupplierId(e.target.value)}>
            <option value="">{t('gfChoose')}</option>
            <Options of={data.suppliers} value={(s) => s.id} text={(s) => s.name} />
          </select>
        </CheckedField>
        <TextField
          id="gf-invoice"
          label={t('gfInvoiceNumber')}
          value={invoice}
          error={errors['invoiceNumber']}
          onChange={setInvoice}
        />
        <DayField lang={lang} label={t('gfInvoiceDate')} value={invoiceDate} onChange={setInvoiceDate} />
      </div>
      <fieldset>
        <legend>{t('gfLines')}</legend>
        {lines.map((l, i) => {
          const n = String(i + 1);
          const c = calc(l);
          const at = (f: string) => errors[`lines.${i}.${f}`];
          return (
            <div key={i} className="mgr-row gf-line">
              <TextField
                id={`gf-l${i}-product`}
                label={l.newProduct ? t('npCode', { n }) : t('gfProduct', { n })}
                value={l.product}
                error={at('code')}
                list={`gf-l${i}-products`}
                onChange={(v) => setLine(i, { product: v })}
              />
              {(
                [
                  ['quantity', 'gfQuantity', 'qtyMilli'],
                  ['purchase', 'gfPurchase', 'purchasePara'],
                  ['discount', 'gfDiscount', 'discountBp'],
                ] as const
              ).map(([k, label, field]) => (
                <TextField
                  key={k}
                  id={`gf-l${i}-${k}`}
                  label={t(label, { n })}
                  value={l[k]}
                  inputMode="decimal"
                  error={at(field)}
                  onChange={(v) => setLine(i, { [k]: v })}
                />
              ))}
              <label className="mgr-field">
                <span>{t('gfMode', { n })}</span>
                <select value={l.mode} onChange={(e) => setLine(i, { mode: e.target.value as LineDraft['mode'] })}>
                  <option value="margin">{t('gfModeMargin')}</option>
                  <option value="retail">{t('gfModeRetail')}</option>
                </select>
              </label>
              <TextField
                id={`gf-l${i}-price`}
                label={l.mode === 'margin' ? t('gfMargin', { n }) : t('gfRetail', { n })}
                value={l.mode === 'margin' ? l.margin : l.retail}
                inputMode="decimal"
                error={at('price')}
                onChange={(v) => setLine(i, l.mode === 'margin' ? { margin: v } : { retail: v })}
              />
              <p className="mgr-hint gf-calc" aria-live="polite">
                {c.p ? `${c.p.name}: ` : l.newProduct?.name ? `${l.newProduct.name}: ` : ''}
                {t('gfCalc', {
                  net: c.net === null ? '—' : formatRsd(c.net),
                  retail: c.retail === null ? '—' : formatRsd(c.retail),
                  margin:
                    (c.p || l.newProduct) && c.rate === undefined ? t('gfNoRate') : percentText(c.shownMargin, lang),
                })}
              </p>
              <NewProductFields
                t={t}
                lang={lang}
                i={i}
                value={l.newProduct}
                labels={data.labels}
                errors={errors}
                onChange={(np) => setLine(i, { newProduct: np })}
                text={(id, label, value, error, set) => (
                  <TextField id={id} label={label} value={value} error={error} onChange={set} />
                )}
              />
              {lines.length > 1 && (
                <button type="button" onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}>
                  {t('gfRemoveLine', { n })}
                </button>
              )}
            </div>
          );
        })}
        <button type="button" onClick={() => setLines((ls) => [...ls, { ...EMPTY_LINE }])}>
          {t('gfAddLine')}
        </button>
        <ReceiptCsvButton
          label={mgrT('goods_lines_csv')}
          lang={lang}
          api={api}
          error={errors['csv']}
          text={props.text}
          onError={(text) => setErrors({ csv: text })}
          onLines={(read) => {
            setErrors({});
            // The file's lines after those typed so far (an untouched empty line gives way to them).
            setLines((ls) => [
              ...ls.filter((l) => l.product.trim() !== '' || l.newProduct !== null),
              ...read.map(lineOfDraft),
            ]);
            setNote(['rcCsvAdded', { count: String(read.length) }]);
          }}
        />
      </fieldset>
      <label className="gf-confirm">
        <input type="checkbox" checked={confirm} onChange={(e) => setConfirm(e.target.checked)} />
        {t('gfConfirmBelow')}
      </label>
      <button type="submit">{t('gfPostReceipt')}</button>
      <button type="button" onClick={saveDraft}>
        {t('rcSaveDraft')}
      </button>
      {draft && (
        <button type="button" onClick={() => done(null)}>
          {t('rcStopEditing')}
        </button>
      )}
      {lines.map((l, i) => (
        <datalist key={i} id={`gf-l${i}-products`}>
          <Options of={products.matches(l.product)} value={(p) => p.code} text={(p) => p.name} />
        </datalist>
      ))}
    </FormBox>
  );
}

/** A write-off (отпис) with its reason. */
export function WriteOffForm(props: FormProps) {
  const { t, api } = props;
  const form = useFormPost(t, props.text, { code: '', quantity: '', reason: '' });
  return (
    <FieldsForm
      t={t}
      id="gf-wo"
      title={t('gfWriteOff')}
      submit={t('gfPostWriteOff')}
      form={form}
      fields={[
        { key: 'code', label: t('gfCode'), required: true },
        { key: 'quantity', label: t('gfWriteQuantity'), at: 'qtyMilli', inputMode: 'decimal' },
        { key: 'reason', label: t('gfReason'), required: true },
      ]}
      check={(v) => refusedUnless((parseQuantityInput(v.quantity) ?? 0) > 0, 'qtyMilli', t('gfErrQuantity'))}
      send={async (v) => {
        const qtyMilli = parseQuantityInput(v.quantity) ?? 0;
        const doc = await api.call('goodsWriteOff', { code: v.code.trim(), qtyMilli, reason: v.reason.trim() });
        props.changed();
        return ['gfWriteOffPosted', { number: doc.number }];
      }}
    />
  );
}

/** A product's new retail price (a нивелација for goods on hand). */
export function PriceChangeForm(props: FormProps) {
  const { t, api } = props;
  const form = useFormPost(t, props.text, { code: '', price: '' });
  return (
    <FieldsForm
      t={t}
      id="gf-pc"
      title={t('gfPriceChange')}
      submit={t('gfChangePrice')}
      form={form}
      fields={[
        { key: 'code', label: t('gfPriceCode'), required: true },
        { key: 'price', label: t('gfNewPrice'), at: 'pricePara', inputMode: 'decimal' },
      ]}
      check={(v) => refusedUnless((parseRsdInput(v.price) ?? 0) > 0, 'pricePara', t('gfErrAmount'))}
      send={async (v) => {
        const pricePara = parseRsdInput(v.price) ?? 0;
        const { doc } = await api.call('goodsPriceChange', { code: v.code.trim(), pricePara });
        props.changed();
        return doc ? ['gfPriceChangedDoc', { number: doc.number }] : ['gfPriceChangedNone', {}];
      }}
    />
  );
}

/** Receiving a transfer with the quantities counted on arrival (each difference stays on the transfer). */
export function ReceiveTransferForm(props: FormProps & { transfer: HubTransfer }) {
  const { t, api, transfer } = props;
  const [counted, setCounted] = useState<string[]>(() => transfer.lines.map((l) => formatQuantity(l.sentMilli)));
  const [errors, setErrors] = useState<Errors>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const bad: Record<string, string> = {};
    const received = transfer.lines.map((l, i) => {
      const q = parseQuantityInput(counted[i] ?? '');
      if (q === null || q < 0) bad[`received.${i}.qtyMilli`] = t('gfErrQuantity');
      return { code: l.code, qtyMilli: q ?? 0 };
    });
    setErrors(bad);
    if (Object.keys(bad).length > 0) return;
    api
      .call('goodsTransferReceive', { transferId: transfer.id, received })
      .then(() => props.changed())
      .catch((err: unknown) => setErrors(refusalAt(t, err, props.text)));
  };
  return (
    <FormBox
      t={t}
      title={t('gfReceiveCounted', { number: transfer.number })}
      note={null}
      errors={errors}
      onSubmit={submit}
    >
      <div className="mgr-row">
        {transfer.lines.map((l, i) => (
          <TextField
            key={l.code}
            id={`gf-tr${transfer.id}-${i}`}
            label={t('gfCounted', { name: l.name, sent: formatQuantity(l.sentMilli) })}
            value={counted[i] ?? ''}
            inputMode="decimal"
            error={errors[`received.${i}.qtyMilli`]}
            onChange={(v) => setCounted((c) => c.map((x, j) => (j === i ? v : x)))}
          />
        ))}
        <button type="submit">{t('gfReceiveAsCounted', { number: transfer.number })}</button>
      </div>
    </FormBox>
  );
}

const NO_SUPPLIER = { name: '', pib: '', address: '', bankAccount: '', contact: '' };

/** The shop's suppliers: the list, and a form for a new one or the one being changed. */
export function SuppliersForm(props: FormProps & { suppliers: HubSupplier[] }) {
  const { t, api } = props;
  const [id, setId] = useState<number | null>(null);
  const form = useFormPost(t, props.text, NO_SUPPLIER);
  return (
    <>
      {props.suppliers.length === 0 && <p>{t('gfNoSuppliers')}</p>}
      {props.suppliers.length > 0 && (
        <ul className="mgr-list" aria-label={t('gfSuppliers')}>
          {props.suppliers.map((s) => (
            <li key={s.id}>
              {s.name}, {t('gfPib')} {s.pib}
              {s.address ? `, ${s.address}` : ''}{' '}
              <button
                type="button"
                onClick={() => {
                  setId(s.id);
                  form.setV({
                    name: s.name,
                    pib: s.pib,
                    address: s.address,
                    bankAccount: s.bankAccount,
                    contact: s.contact,
                  });
                }}
              >
                {t('gfEditSupplier', { name: s.name })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <FieldsForm
        t={t}
        id="gf-sup"
        title={id === null ? t('gfNewSupplier') : t('gfSupplierForm')}
        submit={t('gfSaveSupplier')}
        form={form}
        fields={[
          { key: 'name', label: t('gfSupplierName'), required: true },
          { key: 'pib', label: t('gfPib'), inputMode: 'numeric' },
          { key: 'address', label: t('gfAddress') },
          { key: 'bankAccount', label: t('gfBankAccount') },
          { key: 'contact', label: t('gfContact') },
        ]}
        check={(v) => pibCheck(t, v.pib)}
        send={async (v) => {
          await api.call('goodsSupplierPut', { ...(id !== null ? { id } : {}), ...v });
          setId(null);
          props.changed();
          return ['gfSupplierSaved', {}];
        }}
      />
    </>
  );
}

/** The shop's PIB and address, which its A4 documents print (keyed by what the hub holds). */
export function ShopIdentityForm(props: FormProps & { identity: HubShopIdentity }) {
  const { t, api } = props;
  // What the hub holds; the tab keys this form by it, so a fresh read starts the form again.
  const held = { pib: props.identity.pib, address: props.identity.address };
  const form = useFormPost(t, props.text, held, true);
  return (
    <FieldsForm
      t={t}
      id="gf-shop"
      title={t('gfShopData')}
      submit={t('gfSaveShopData')}
      form={form}
      fields={[
        { key: 'pib', label: t('gfShopPib'), inputMode: 'numeric' },
        { key: 'address', label: t('gfShopAddress'), required: true },
      ]}
      check={(v) => pibCheck(t, v.pib)}
      send={async (v) => {
        await api.call('goodsShopIdentityPut', { pib: v.pib.trim(), address: v.address.trim() });
        return ['gfShopDataSaved', {}];
      }}
    />
  );
}
