/**
 * A price list's own prices by product in the hub's Цене form (issue 42, docs/prices.md "At the hub"): a row per
 * product, found by its code or a part of its name (the shop's catalog searched at the hub as one types, offered
 * in a list), with its price; rows added and removed, or read from a CSV file (shared/prices/items-csv.ts: a bad
 * row named by its line and column, and nothing taken from the file). A refusal of the hub names the row's field
 * (`items.2.code`, `items.2.price`) and is said under it.
 */
import { useState } from 'react';
import { formatRsd } from '../../../shared/money.ts';
import { csvProblemText, parsePriceItemsCsv, type CsvItems } from '../../../shared/prices/items-csv.ts';
import { CsvFileButton } from '../ui/CsvFileButton.tsx';
import { Labelled } from './HubCatalog.tsx';
import { hubApi } from './api.ts';
import { pt } from './prices-i18n.ts';
import type { HubLang } from './i18n.ts';

/** A row as typed: the product (its code, or a name picked from the search) and the price. */
export interface ItemRow {
  product: string;
  price: string;
}

/** The products the search offered: name → code, so a row that names a product by its name sends its code. */
export type Found = ReadonlyMap<string, string>;

/** The code a row sends: the code of the product it names (by name, any case), else what was typed. */
export function codeOf(row: ItemRow, found: Found): string {
  const typed = row.product.trim();
  return found.get(typed.toLocaleLowerCase('sr')) ?? typed;
}

/** The wire field of a row's part, as the hub names it when it refuses. */
export const itemField = (i: number, part: 'code' | 'price'): string => `items.${i}.${part}`;

/** The label of a row's part (the row counted from 1), as a refusal names it. */
export const itemLabel = (lang: HubLang, i: number, part: 'code' | 'price'): string =>
  pt(lang, part === 'code' ? 'itemProduct' : 'itemPrice', { n: i + 1 });

export function PriceItems(props: {
  lang: HubLang;
  token: string;
  rows: ItemRow[];
  onRows: (rows: ItemRow[]) => void;
  /** What the search found so far (name → code), kept by the form. */
  onFound: (name: string, code: string) => void;
  errors: Record<string, string>;
  /** A CSV file's rows replace the rows; its days, when it has them, are the list's. */
  onImport: (imported: CsvItems) => void;
}) {
  const { lang, rows } = props;
  const [offers, setOffers] = useState<{ code: string; name: string }[]>([]);
  const [importError, setImportError] = useState<string | undefined>();
  const importFile = async (file: File) => {
    const read = parsePriceItemsCsv(await file.text());
    if (!read.ok) return setImportError(csvProblemText(lang, read.problem, pt(lang, 'importCsv')));
    setImportError(undefined);
    props.onRows(read.value.items.map((i) => ({ product: i.code, price: formatRsd(i.pricePara) })));
    props.onImport(read.value);
  };
  const search = (q: string) => {
    if (q.trim().length < 2) return;
    hubApi(props.token)
      .call('products', { q: q.trim(), limit: 10 })
      .then((page) => {
        const live = page.products.filter((p) => !p.deleted);
        for (const p of live) props.onFound(p.name.toLocaleLowerCase('sr'), p.code);
        setOffers(live.map((p) => ({ code: p.code, name: p.name })));
      })
      // The search only offers names: typing the code works without it.
      .catch(() => setOffers([]));
  };
  const change = (i: number, part: keyof ItemRow, value: string) => {
    props.onRows(rows.map((r, j) => (j === i ? { ...r, [part]: value } : r)));
    if (part === 'product') search(value);
  };
  const id = (i: number, part: 'code' | 'price') => `price-list-item-${i}-${part}`;
  const described = (i: number, part: 'code' | 'price') =>
    props.errors[itemField(i, part)]
      ? { 'aria-invalid': true as const, 'aria-describedby': `${id(i, part)}-error` }
      : {};
  return (
    <fieldset className="mgr-fieldset">
      <legend>{pt(lang, 'items')}</legend>
      {props.errors.items && (
        <p role="alert" className="mgr-error">
          {props.errors.items}
        </p>
      )}
      <datalist id="price-list-products">
        {offers.map((o) => (
          <option key={o.code} value={o.name}>
            {o.code}
          </option>
        ))}
      </datalist>
      {rows.map((r, i) => (
        <div key={i} className="mgr-actions price-item-row">
          <Labelled id={id(i, 'code')} label={itemLabel(lang, i, 'code')} error={props.errors[itemField(i, 'code')]}>
            <input
              id={id(i, 'code')}
              list="price-list-products"
              autoComplete="off"
              value={r.product}
              onChange={(e) => change(i, 'product', e.target.value)}
              {...described(i, 'code')}
            />
          </Labelled>
          <Labelled id={id(i, 'price')} label={itemLabel(lang, i, 'price')} error={props.errors[itemField(i, 'price')]}>
            <input
              id={id(i, 'price')}
              inputMode="decimal"
              value={r.price}
              onChange={(e) => change(i, 'price', e.target.value)}
              {...described(i, 'price')}
            />
          </Labelled>
          <button type="button" onClick={() => props.onRows(rows.filter((_, j) => j !== i))}>
            {pt(lang, 'itemRemove', { n: i + 1 })}
          </button>
        </div>
      ))}
      <div className="mgr-actions">
        <button type="button" onClick={() => props.onRows([...rows, { product: '', price: '' }])}>
          {pt(lang, 'itemAdd')}
        </button>
        <CsvFileButton
          label={pt(lang, 'importCsv')}
          error={importError}
          errorId="price-list-csv-error"
          onFile={(f) => void importFile(f)}
        />
      </div>
    </fieldset>
  );
}
