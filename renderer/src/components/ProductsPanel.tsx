import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductUnit, ProductView } from '../../../shared/contract/catalog.ts';
import type { AppError, PosApi, Result } from '../../../shared/contract/index.ts';
import { needsApproval } from '../../../shared/contract/authz.ts';
import { formatRsd, parseRsdInput } from '../../../shared/money.ts';
import { taxLabelName } from '../../../shared/i18n/enums.ts';
import { defaultLabel } from '../store/cart.ts';
import { usePos, usePosPick } from '../context.ts';
import { relabel } from '../manager/common.tsx';
import { Check } from './Check.tsx';
import { UnitField } from './Dialogs.tsx';
import { Modal } from './Modal.tsx';
import { BulkPriceDialog } from './BulkPriceDialog.tsx';
import { onHandText } from './SaleScreen.tsx';
import { FieldErrorText, TextField, type InputAttrs } from './TextField.tsx';
import { Options } from '../ui/Options.tsx';
import { usePages } from '../ui/usePages.ts';
import { ColumnHeads } from './HeadedTable.tsx';

const PAGE = 50;

/** The core's refusal of a form, shown at its field (the message is already in the user's language). */
interface FieldError {
  /** The form's field: `barcodes` for the core's `barcodes.1`. */
  field: string;
  message: string;
  /** The core's own name of the field (`barcodes.1`), which the message quotes. */
  path?: string;
}

function fieldErrorOf(error: AppError): FieldError {
  const path = 'field' in error && typeof error.field === 'string' ? error.field : '';
  return { field: path.split('.')[0] ?? '', message: error.message, path };
}

/**
 * Sends through the store's approval flow (the manager's PIN dialog when the core asks for it); a refusal
 * other than "needs a manager" comes back to the form, at its field, instead of a notice.
 */
function useApproved() {
  const withApproval = usePos((s) => s.withApproval);
  return async <T,>(
    send: (approval?: { managerPin: string }) => Promise<Result<T>>,
    done: (value: T) => void,
    refused: (e: FieldError) => void,
  ): Promise<void> => {
    await withApproval<T | null>(
      async (approval) => {
        const r = await send(approval);
        if (r.ok || needsApproval(r.error)) return r;
        refused(fieldErrorOf(r.error));
        return { ok: true, value: null };
      },
      (v) => {
        if (v !== null) done(v);
      },
    );
  };
}

/**
 * The product card's stock: asked once when the card opens (`goods.hubStock`: the shop's stock at the store hub,
 * the last known with its time while the hub is away, or the till's own book without a hub).
 */
function CardStock(props: { api: PosApi; code: string }) {
  const { t } = useTranslation();
  const language = usePos((s) => s.language);
  const [stock, setStock] = useState<{ onHandMilli?: number; onHandAsOf?: string } | null>(null);
  useEffect(() => {
    let live = true;
    void props.api['goods.hubStock']({ codes: [props.code] }).then((r) => {
      if (!live || !r.ok) return;
      const row = r.value.stock[0];
      setStock(
        row
          ? {
              onHandMilli: row.qtyMilli,
              ...(!r.value.fromHub && r.value.at && r.value.hub ? { onHandAsOf: r.value.at } : {}),
            }
          : {},
      );
    });
    return () => {
      live = false;
    };
  }, [props.api, props.code]);
  if (!stock || stock.onHandMilli === undefined) return null;
  return (
    <p className={stock.onHandMilli < 0 ? 'card-stock flagged' : 'card-stock'} data-testid="card-stock">
      {onHandText(t, stock, language)}
    </p>
  );
}

/** The product's card on a till whose catalog the hub owns: read only, with the shop's stock at the hub. */
function ProductCard(props: { api: PosApi; product: ProductView; onClose: () => void }) {
  const { t } = useTranslation();
  const { taxRates, language } = usePosPick('taxRates', 'language');
  const p = props.product;
  const rate = taxRates?.labels.find((l) => l.label === p.label);
  return (
    <Modal title={t('catalog.cardTitle', { name: p.name })} onClose={props.onClose}>
      <dl className="product-card">
        <dt>{t('catalog.code')}</dt>
        <dd>{p.code}</dd>
        <dt>{t('catalog.price')}</dt>
        <dd>{formatRsd(p.pricePara)}</dd>
        <dt>{t('catalog.label')}</dt>
        <dd>{rate ? taxLabelName(language, rate) : p.label}</dd>
        {p.barcodes.length > 0 && (
          <>
            <dt>{t('catalog.barcodes')}</dt>
            <dd>{p.barcodes.join(', ')}</dd>
          </>
        )}
      </dl>
      <CardStock api={props.api} code={p.code} />
      <div className="dialog-buttons">
        <button type="button" data-close onClick={props.onClose}>
          {t('action.back')}
        </button>
      </div>
    </Modal>
  );
}

function ProductForm(props: {
  api: PosApi;
  product: ProductView | null;
  onDone: (message: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { taxRates, language } = usePosPick('taxRates', 'language');
  const approved = useApproved();
  const p = props.product;
  const labels = taxRates?.labels ?? [];
  const [code, setCode] = useState(p?.code ?? '');
  const [name, setName] = useState(p?.name ?? '');
  const [price, setPrice] = useState(p ? formatRsd(p.pricePara) : '');
  const [label, setLabel] = useState(p?.label ?? defaultLabel(taxRates));
  const [unit, setUnit] = useState<ProductUnit>(p?.unit ?? 'piece');
  const [barcodes, setBarcodes] = useState(p?.barcodes.join(', ') ?? '');
  const [group, setGroup] = useState(p?.group ?? '');
  const [favourite, setFavourite] = useState(p?.favourite ?? false);
  const [error, setFieldError] = useState<FieldError | null>(null);
  const names: Record<string, string> = {
    code: t('catalog.code'),
    name: t('catalog.name'),
    price: t('catalog.price'),
    label: t('catalog.label'),
    unit: t('dialog.unit'),
    group: t('catalog.group'),
    barcodes: t('catalog.barcodesHint'),
  };
  // The core quotes the field by its contract name (`barcodes.1`); the form names it as the person sees it.
  const setError = (e: FieldError | null) => {
    const name = e?.path ? names[e.field] : undefined;
    setFieldError(e && e.path && name ? { ...e, message: relabel(e.message, e.path, name) } : e);
  };
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const at = (field: string) => (error?.field === field ? error.message : null);
  const invalid = (field: string) => (error?.field === field ? { 'aria-invalid': true as const } : {});

  const save = async () => {
    const pricePara = parseRsdInput(price);
    if (pricePara === null || pricePara < 0) return setError({ field: 'price', message: t('catalog.priceInvalid') });
    setError(null);
    setBusy(true);
    try {
      const input = {
        code: code.trim(),
        ...(p ? {} : { create: true }),
        name: name.trim(),
        price: pricePara / 100,
        label,
        unit,
        group: group.trim() === '' ? null : group.trim(),
        favourite,
        barcodes: barcodes.split(/[\s,;]+/).filter(Boolean),
      };
      await approved(
        (approval) => props.api['catalog.put']({ ...input, ...(approval ? { approval } : {}) }),
        (saved) => props.onDone(t('catalog.saved', { name: saved.name })),
        setError,
      );
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!p) return;
    setBusy(true);
    try {
      await approved(
        (approval) => props.api['catalog.remove']({ code: p.code, ...(approval ? { approval } : {}) }),
        () => props.onDone(t('catalog.removed', { name: p.name })),
        (e) => {
          setConfirming(false);
          setError(e);
        },
      );
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (field: string) => <FieldErrorText text={at(field)} />;
  // The form's text fields differ only in their field, label, value and control; each is invalid, with the core's
  // message under it, while the refusal names its field.
  const text = (field: string, label: string, value: string, onChange: (v: string) => void, input: InputAttrs) => (
    <TextField
      label={label}
      value={value}
      onChange={onChange}
      input={{ ...input, ...invalid(field) }}
      error={fieldError(field)}
    />
  );
  return (
    <Modal title={t(p ? 'catalog.editTitle' : 'catalog.addTitle')} onClose={props.onClose} wide>
      {p && <CardStock api={props.api} code={p.code} />}
      <form
        className="grid-form product-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {text('code', t('catalog.code'), code, setCode, { disabled: p !== null })}
        {text('name', t('catalog.name'), name, setName, { maxLength: 100 })}
        {text('price', t('catalog.price'), price, setPrice, { inputMode: 'decimal' })}
        <label className="field">
          {t('catalog.label')}
          <select value={label} onChange={(e) => setLabel(e.target.value)} {...invalid('label')}>
            {p && !labels.some((l) => l.label === p.label) && <option value={p.label}>{p.label}</option>}
            <Options of={labels} value={(l) => l.label} text={(l) => taxLabelName(language, l)} />
          </select>
          {labels.length === 0 && <span className="field-error">{t('catalog.noLabels')}</span>}
          {fieldError('label')}
        </label>
        <UnitField value={unit} onChange={setUnit} />
        {text('group', t('catalog.group'), group, setGroup, { maxLength: 60 })}
        <TextField
          className="field wide-field"
          label={t('catalog.barcodesHint')}
          value={barcodes}
          onChange={setBarcodes}
          input={{ inputMode: 'numeric', ...invalid('barcodes') }}
          error={fieldError('barcodes')}
        />
        <Check label={t('catalog.favourite')} checked={favourite} onChange={setFavourite} />
        {error && !['code', 'name', 'price', 'label', 'group', 'barcodes'].includes(error.field) && (
          <p className="field-error wide-field" role="alert">
            {error.message}
          </p>
        )}
        {confirming && p ? (
          <div className="dialog-buttons" role="group" aria-label={t('catalog.remove')}>
            <p>{t('catalog.removeAsk', { name: p.name })}</p>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('catalog.cancel')}
            </button>
            <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
              {t('catalog.removeYes')}
            </button>
          </div>
        ) : (
          <div className="dialog-buttons">
            {p && (
              <button type="button" className="danger" onClick={() => setConfirming(true)}>
                {t('catalog.remove')}
              </button>
            )}
            <button type="button" data-close onClick={props.onClose}>
              {t('catalog.cancel')}
            </button>
            <button type="submit" className="primary" disabled={busy}>
              {t('catalog.save')}
            </button>
          </div>
        )}
      </form>
    </Modal>
  );
}

/** The catalog screen's product list: search, pages in code order, add, edit and delete one product. */
export function ProductsPanel(props: {
  api: PosApi;
  onChanged: () => void;
  /** The last import's result: a new one lists the products again. */
  imported?: unknown;
}) {
  const { t } = useTranslation();
  const { refreshFavourites } = usePosPick('refreshFavourites');
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<ProductView | 'new' | null>(null);
  const [bulk, setBulk] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const { page, shown, more } = usePages(
    (after) => {
      const q = query.trim();
      const ask = after !== undefined ? { after, limit: PAGE } : q === '' ? { limit: PAGE } : { query: q, limit: PAGE };
      return props.api['catalog.list'](ask).then((r) => (r.ok ? r.value : null));
    },
    [props.api, query, version, props.imported],
  );
  const hubOwned = page?.hubOwned ?? false;
  /** After a change to the catalog: say what changed, read the list again, and tell the screen and the favourites. */
  const changed = (message: string) => {
    setStatus(message);
    setVersion((v) => v + 1);
    props.onChanged();
    void refreshFavourites();
  };
  /** The catalog as the import reads it, saved as a file (the browser's download; Electron's save dialog). */
  const exportCsv = async () => {
    const r = await props.api['catalog.export']({});
    if (!r.ok) return setStatus(r.error.message);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([r.value.csv], { type: 'text/csv;charset=utf-8' }));
    a.download = 'kasa-catalog.csv';
    a.click();
    setStatus(t('catalog.exported', { count: r.value.products }));
  };
  return (
    <section className="products" aria-label={t('catalog.products')}>
      <h2>{t('catalog.products')}</h2>
      {hubOwned && (
        <p className="warning" role="note">
          {t('catalog.hubOwned')}
        </p>
      )}
      <div className="actions row">
        <input
          type="search"
          aria-label={t('catalog.search')}
          placeholder={t('catalog.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        {!hubOwned && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            {t('catalog.add')}
          </button>
        )}
        {!hubOwned && (
          <button type="button" onClick={() => setBulk(true)}>
            {t('catalog.bulk')}
          </button>
        )}
        <button type="button" onClick={() => void exportCsv()}>
          {t('catalog.export')}
        </button>
        {page && (
          <span className="product-count">{t('catalog.shown', { shown: shown.length, total: page.total })}</span>
        )}
      </div>
      {status && <p role="status">{status}</p>}
      {page && shown.length === 0 && (
        <p>{query.trim() === '' ? t('catalog.empty') : t('catalog.noMatch', { query: query.trim() })}</p>
      )}
      {shown.length > 0 && (
        <table className="preview product-list" aria-label={t('catalog.products')}>
          <ColumnHeads
            names={[
              t('catalog.code'),
              t('catalog.name'),
              t('sale.price'),
              t('sale.label'),
              t('dialog.unit'),
              t('catalog.barcodes'),
              t('catalog.actions'),
            ]}
            num={[2]}
          />
          <tbody>
            {shown.map((p) => (
              <tr key={p.id} className={p.labelMissing ? 'flagged' : undefined}>
                <td>{p.code}</td>
                <td>
                  {p.favourite ? '★ ' : ''}
                  {p.name}
                </td>
                <td className="num">{formatRsd(p.pricePara)}</td>
                <td>{p.label}</td>
                <td>{t(`unit.${p.unit}`)}</td>
                <td className="barcodes">{p.barcodes.join(', ')}</td>
                <td>
                  {/* The hub owns the catalog: the product's card, read only, with the shop's stock at the hub. */}
                  <button
                    type="button"
                    aria-label={t(hubOwned ? 'catalog.cardOne' : 'catalog.editOne', { name: p.name })}
                    onClick={() => setEditing(p)}
                  >
                    {t(hubOwned ? 'catalog.stockCard' : 'catalog.edit')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page?.next && (
        <button type="button" onClick={more}>
          {t('catalog.more')}
        </button>
      )}
      {bulk && !hubOwned && (
        <BulkPriceDialog
          api={props.api}
          onClose={() => setBulk(false)}
          onDone={(message) => {
            setBulk(false);
            changed(message);
          }}
        />
      )}
      {editing !== null && editing !== 'new' && hubOwned && (
        <ProductCard api={props.api} product={editing} onClose={() => setEditing(null)} />
      )}
      {editing !== null && !hubOwned && (
        <ProductForm
          api={props.api}
          product={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onDone={(message) => {
            setEditing(null);
            changed(message);
          }}
        />
      )}
    </section>
  );
}
