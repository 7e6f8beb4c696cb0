/**
 * The hub's Артикли section: the shop's products listed with search and keyset paging (GET /api/admin/products),
 * a product changed by picking it from the list (the form comes filled; its code is not retyped), a new one
 * added, a group's prices changed by a percentage with a preview of how many products change, and the catalog
 * exported as CSV. Every refusal is shown at its field; the hub refuses a product whole, so nothing changes.
 */
import { useEffect, useRef, useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { formatRsd, parseRsdInput } from '../../../shared/money.ts';
import { formatPercent } from '../../../shared/catalog/percent.ts';
import { unitName } from '../../../shared/i18n/enums.ts';
import { MgrTable } from '../ui/forms.tsx';
import { hubErrorText } from './HubApp.tsx';
import { download, HubCallError, hubApi } from './api.ts';
import type { HubProduct as WireProduct, HubProductPage } from '../../../shared/hub/contract.ts';
import { ct, type HubCatalogKey } from './catalog-i18n.ts';
import type { HubLang, HubT } from './i18n.ts';
import { Options } from '../ui/Options.tsx';
import { usePages } from '../ui/usePages.ts';
import { useBulkPrice } from '../ui/useBulkPrice.ts';

const PAGE = 50;
const UNITS = ['piece', 'kg', 'l'] as const;

/** A product as the list shows it: the hub's (shared/hub/contract/results.ts) with its optional fields filled. */
export type HubProduct = Required<Omit<WireProduct, 'deleted' | 'version' | 'group'>> & { group: string | null };
interface Page {
  products: HubProduct[];
  next: string | null;
  total: number;
}

/** The hub's page with each product's optional fields filled (no group, no quick key, no barcodes). */
const listed = (page: HubProductPage): Page => ({
  ...page,
  products: page.products.map(({ deleted: _deleted, version: _version, ...p }) => ({
    ...p,
    group: p.group ?? null,
    favourite: p.favourite ?? false,
    barcodes: p.barcodes ?? [],
  })),
});
type Field = 'code' | 'name' | 'price' | 'label' | 'unit' | 'group' | 'barcodes';
type Errors = Partial<Record<Field, string>>;

/** A field with its label and, below it, its error (announced, and named by the input's aria-describedby). */
export function Labelled(props: { id: string; label: string; error: string | undefined; children: ReactNode }) {
  return (
    <div className="mgr-field-group">
      <div className="mgr-field">
        <label htmlFor={props.id}>{props.label}</label>
        {props.children}
      </div>
      {props.error && (
        <span id={`${props.id}-error`} role="alert" className="mgr-error mgr-field-error">
          {props.error}
        </span>
      )}
    </div>
  );
}

const invalid = (id: string, error: string | undefined) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

/** The hub's refusal of a product, at the form's field it names. */
function productError(t: HubT, lang: HubLang, err: unknown, labels: readonly string[], label: string): Errors {
  const c = (key: HubCatalogKey, p?: Record<string, string>) => ct(lang, key, p);
  if (err instanceof HubCallError) {
    if (err.code === 'barcode_taken') return { barcodes: c('barcodeTaken') };
    if (err.code === 'label_not_current')
      return { label: c('labelNotCurrent', { value: label, labels: labels.join(', ') }) };
    const parts = (err.field ?? '').split('.').filter((s) => !/^\d+$/.test(s) && s !== 'products');
    const field = parts[0];
    if (field === 'pricePara') return { price: c('priceInvalid') };
    if (field === 'barcodes') return { barcodes: c('barcodeInvalid') };
    if (field === 'code' || field === 'name' || field === 'label' || field === 'unit' || field === 'group')
      return { [field]: hubErrorText(t, err, { [field]: field }) };
  }
  return { name: hubErrorText(t, err) };
}

export function ProductForm(props: {
  t: HubT;
  lang: HubLang;
  token: string;
  product: HubProduct | null;
  labels: readonly string[];
  onDone: (message: string) => void;
  onClose: () => void;
}) {
  const { t, lang, token, labels } = props;
  const c = (key: HubCatalogKey, p?: Record<string, string>) => ct(lang, key, p);
  const p = props.product;
  const [form, setForm] = useState({
    code: p?.code ?? '',
    name: p?.name ?? '',
    price: p ? formatRsd(p.pricePara).replace(/\./g, '') : '',
    label: p?.label ?? labels[0] ?? '',
    unit: p?.unit ?? ('piece' as HubProduct['unit']),
    group: p?.group ?? '',
    favourite: p?.favourite ?? false,
    barcodes: p?.barcodes.join(', ') ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = (key: keyof typeof form, value: string | boolean) => setForm((f) => ({ ...f, [key]: value }));
  // The shop's tax labels may arrive after the form opened: a new product then has the first, the one the list
  // shows as chosen (the form once said „required“ about a label the manager saw selected).
  const label = form.label === '' && !p ? (labels[0] ?? '') : form.label;

  const check = (): Errors => {
    const e: Errors = {};
    if (!p && form.code.trim() === '') e.code = c('required', { field: t('code') });
    if (form.name.trim() === '') e.name = c('required', { field: t('name') });
    const price = parseRsdInput(form.price);
    if (price === null || price < 0) e.price = c('priceInvalid');
    if (label.trim() === '') e.label = c('required', { field: t('label') });
    else if (labels.length > 0 && !labels.includes(label))
      e.label = c('labelNotCurrent', { value: label, labels: labels.join(', ') });
    if (form.barcodes.split(/[\s,;]+/).some((b) => b !== '' && !/^\d{8,14}$/.test(b))) e.barcodes = c('barcodeInvalid');
    return e;
  };
  const product = (deleted = false) => ({
    code: p?.code ?? form.code.trim(),
    name: form.name.trim(),
    pricePara: parseRsdInput(form.price) ?? 0,
    label,
    unit: form.unit,
    group: form.group.trim() === '' ? null : form.group.trim(),
    favourite: form.favourite,
    barcodes: [...new Set(form.barcodes.split(/[\s,;]+/).filter(Boolean))],
    ...(deleted ? { deleted: true } : {}),
  });
  const save = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      // "New product" never overwrites one: an existing code is picked from the list instead.
      if (!p) {
        const code = form.code.trim();
        const same = await hubApi(token).call('products', { q: code, limit: 5 });
        if (same.products.some((x) => x.code === code)) {
          setErrors({ code: c('codeTaken', { value: code }) });
          return;
        }
      }
      await hubApi(token).call('putProducts', { products: [product()] });
      props.onDone(c('saved', { name: form.name.trim() }));
    } catch (err) {
      setErrors(productError(t, lang, err, labels, label));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (): Promise<void> => {
    if (!p) return;
    setBusy(true);
    try {
      await hubApi(token).call('putProducts', { products: [{ ...product(true), name: p.name }] });
      props.onDone(c('removed', { name: p.name }));
    } catch (err) {
      setConfirming(false);
      setErrors(productError(t, lang, err, labels, label));
    } finally {
      setBusy(false);
    }
  };
  const title = p ? `${c('editTitle')}: ${p.name}` : c('addTitle');
  // A text field of the form: its id (`hp-<key>`), value, change and error all follow from its key; `focused` is
  // the field the form focuses when it opens.
  const text = (
    key: 'code' | 'name' | 'price' | 'barcodes',
    label: string,
    input: ComponentProps<'input'>,
    focused = false,
  ) => (
    <Labelled id={`hp-${key}`} label={label} error={errors[key]}>
      <input
        id={`hp-${key}`}
        ref={focused ? first : undefined}
        {...input}
        value={form[key]}
        onChange={(e) => set(key, e.target.value)}
        {...invalid(`hp-${key}`, errors[key])}
      />
    </Labelled>
  );
  return (
    <form aria-label={title} onSubmit={(e) => void save(e)} className="mgr-panel">
      <h2>{title}</h2>
      <div className="mgr-row mgr-top">
        {p ? (
          <div className="mgr-field">
            <span id="hp-code-label">{c('codeFixed')}</span>
            <output aria-labelledby="hp-code-label" className="mgr-fixed">
              {p.code}
            </output>
          </div>
        ) : (
          text('code', t('code'), {}, true)
        )}
        {text('name', t('name'), { size: 30 }, p !== null)}
        {text('price', t('price'), { inputMode: 'decimal' })}
        <Labelled id="hp-label" label={t('label')} error={errors.label}>
          {labels.length > 0 && (p === null || labels.includes(p.label)) ? (
            <select
              id="hp-label"
              value={label}
              onChange={(e) => set('label', e.target.value)}
              {...invalid('hp-label', errors.label)}
            >
              <Options of={labels} />
            </select>
          ) : (
            <input
              id="hp-label"
              size={4}
              value={label}
              onChange={(e) => set('label', e.target.value)}
              {...invalid('hp-label', errors.label)}
            />
          )}
        </Labelled>
        <Labelled id="hp-unit" label={t('unit')} error={errors.unit}>
          <select id="hp-unit" value={form.unit} onChange={(e) => set('unit', e.target.value)}>
            <Options of={UNITS} text={(u) => unitName(lang, u)} />
          </select>
        </Labelled>
        <Labelled id="hp-group" label={c('group')} error={errors.group}>
          <input id="hp-group" value={form.group} onChange={(e) => set('group', e.target.value)} />
        </Labelled>
        {text('barcodes', c('barcodes'), { size: 32, inputMode: 'numeric' })}
        <label className="check">
          <input type="checkbox" checked={form.favourite} onChange={(e) => set('favourite', e.target.checked)} />{' '}
          {c('favourite')}
        </label>
      </div>
      <div className="mgr-row">
        <button type="submit" className="primary" disabled={busy}>
          {t('save')}
        </button>
        <button type="button" onClick={props.onClose}>
          {c('cancel')}
        </button>
        {p &&
          (confirming ? (
            <span role="group" aria-label={c('remove')}>
              {c('removeAsk', { name: p.name })}{' '}
              <button type="button" disabled={busy} onClick={() => void remove()}>
                {c('removeYes')}
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                {c('cancel')}
              </button>
            </span>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              {c('remove')}
            </button>
          ))}
      </div>
    </form>
  );
}

/** A group's prices by a percentage: choose the group, type the percentage, see how many change, confirm. */
function BulkPrice(props: {
  t: HubT;
  lang: HubLang;
  token: string;
  groups: readonly { name: string; products: number }[];
  onDone: (message: string) => void;
}) {
  const { t, lang, token } = props;
  const c = (key: HubCatalogKey, p?: Record<string, string>) => ct(lang, key, p);
  const { group, setGroup, percent, setPercent, errors, setErrors, preview, setPreview, busy, setBusy, checked } =
    useBulkPrice();
  const mark = lang === 'en' ? '.' : ',';
  const send = async (dryRun: boolean): Promise<void> => {
    const bp = checked({ groupRequired: c('groupRequired'), percentInvalid: c('percentInvalid') });
    if (bp === null) return;
    setBusy(true);
    try {
      const r = await hubApi(token).call('bulkPrice', {
        group,
        percentBp: bp,
        ...(dryRun ? { dryRun: true } : {}),
      });
      const params = { count: String(r.count), group, percent: formatPercent(bp, mark) };
      if (dryRun) setPreview({ group, percentBp: bp, count: r.count });
      else {
        setPreview(null);
        setPercent('');
        props.onDone(c('bulkDone', params));
      }
    } catch (err) {
      setPreview(null);
      if (err instanceof HubCallError && err.code === 'group_unknown')
        setErrors({ group: c('groupUnknown', { value: group }) });
      else if (err instanceof HubCallError && err.field === 'percentBp') setErrors({ percent: c('percentInvalid') });
      else setErrors({ group: hubErrorText(t, err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      aria-label={c('bulkTitle')}
      onSubmit={(e) => {
        e.preventDefault();
        void send(preview === null);
      }}
      className="mgr-panel"
    >
      <h2>{c('bulkTitle')}</h2>
      <div className="mgr-row mgr-top">
        <Labelled id="hb-group" label={c('bulkGroup')} error={errors.group}>
          <select
            id="hb-group"
            value={group}
            onChange={(e) => setGroup(e.target.value)}
            {...invalid('hb-group', errors.group)}
          >
            <option value="">{c('chooseGroup')}</option>
            <Options of={props.groups} value={(g) => g.name} text={(g) => `${g.name} (${g.products})`} />
          </select>
        </Labelled>
        <Labelled id="hb-percent" label={c('bulkPercent')} error={errors.percent}>
          <input
            id="hb-percent"
            inputMode="decimal"
            size={8}
            value={percent}
            onChange={(e) => setPercent(e.target.value)}
            {...invalid('hb-percent', errors.percent)}
          />
        </Labelled>
        <div className="mgr-field-actions">
          {preview === null ? (
            <button type="submit" disabled={busy}>
              {c('bulkPreview')}
            </button>
          ) : (
            <button type="submit" className="primary" disabled={busy}>
              {c('bulkConfirm')}
            </button>
          )}
        </div>
      </div>
      {preview && (
        <p role="status">
          {c('bulkAsk', {
            count: String(preview.count),
            group: preview.group,
            percent: formatPercent(preview.percentBp, mark),
          })}
        </p>
      )}
    </form>
  );
}

/** The Артикли section. */
export function HubCatalog({ t, lang, token }: { t: HubT; lang: HubLang; token: string }) {
  const c = (key: HubCatalogKey, p?: Record<string, string>) => ct(lang, key, p);
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<HubProduct | 'new' | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [version, setVersion] = useState(0);
  const [groups, setGroups] = useState<{ name: string; products: number }[]>([]);
  const [labels, setLabels] = useState<string[]>([]);
  const { page, shown, more } = usePages(
    (after) => {
      const q = query.trim();
      return hubApi(token)
        .call('products', { limit: PAGE, ...(q !== '' ? { q } : {}), ...(after !== undefined ? { after } : {}) })
        .then(listed);
    },
    [token, query, version, t],
    (err) => setMessage({ text: hubErrorText(t, err), error: true }),
  );
  useEffect(() => {
    hubApi(token)
      .call('productGroups')
      .then((r) => {
        setGroups(r.groups);
        setLabels(r.labels);
      })
      .catch(() => undefined);
  }, [token, version]);
  const done = (text: string) => {
    setEditing(null);
    setMessage({ text, error: false });
    setVersion((v) => v + 1);
  };
  const exportCsv = async (): Promise<void> => {
    try {
      download(await hubApi(token).call('productsCsv', { lang }), 'kasa-catalog.csv');
    } catch {
      setMessage({ text: t('errFailed'), error: true });
    }
  };
  return (
    <section aria-label={t('catalog')} className="mgr-tab">
      <div className="mgr-row mgr-middle">
        <input
          type="search"
          aria-label={c('search')}
          placeholder={c('search')}
          size={32}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <button type="button" onClick={() => setEditing('new')}>
          {c('add')}
        </button>
        <button type="button" onClick={() => void exportCsv()}>
          {c('csvExport')}
        </button>
        {page && <span>{c('shown', { shown: String(shown.length), total: String(page.total) })}</span>}
      </div>
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'mgr-error' : undefined}>
          {message.text}
        </p>
      )}
      {editing !== null && (
        <ProductForm
          key={editing === 'new' ? '' : editing.code}
          t={t}
          lang={lang}
          token={token}
          product={editing === 'new' ? null : editing}
          labels={labels}
          onClose={() => setEditing(null)}
          onDone={done}
        />
      )}
      {page && shown.length === 0 && <p>{query.trim() === '' ? c('empty') : c('noMatch', { query: query.trim() })}</p>}
      {shown.length > 0 && (
        <MgrTable
          scroll
          label={t('catalog')}
          headers={[t('code'), t('name'), t('price'), t('label'), t('unit'), c('group'), c('edit')]}
        >
          {shown.map((p) => (
            <tr key={p.code}>
              <td>{p.code}</td>
              <td>
                {p.favourite ? '★ ' : ''}
                {p.name}
              </td>
              <td className="mgr-num">{formatRsd(p.pricePara)}</td>
              <td>{p.label}</td>
              <td>{unitName(lang, p.unit)}</td>
              <td>{p.group ?? '—'}</td>
              <td>
                <button type="button" aria-label={c('editOne', { name: p.name })} onClick={() => setEditing(p)}>
                  {c('edit')}
                </button>
              </td>
            </tr>
          ))}
        </MgrTable>
      )}
      {page?.next && (
        <button type="button" onClick={more}>
          {c('more')}
        </button>
      )}
      <BulkPrice t={t} lang={lang} token={token} groups={groups} onDone={done} />
    </section>
  );
}
