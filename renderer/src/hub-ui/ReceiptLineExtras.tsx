/**
 * The hub receipt form's extras (docs/goods.md "At the hub"): a line that makes a new product (its name, the tax
 * label among those the shop's tills report, unit, group and barcodes; made in the catalog when the receipt is
 * posted), and lines read from a supplier's CSV (a bad row said with its row and column, nothing added).
 */
import type { ReactNode } from 'react';
import { unitName } from '../../../shared/i18n/enums.ts';
import { hasMessage, message } from '../../../shared/messages.ts';
import type { HubReceiptLine } from '../../../shared/hub/goods-protocol.ts';
import { CsvFileButton } from '../ui/CsvFileButton.tsx';
import { CheckedField } from '../ui/forms.tsx';
import { HubCallError, type HubUiApi } from './api.ts';
import type { HubLang, HubT } from './i18n.ts';
import { Options } from '../ui/Options.tsx';

const UNITS = ['piece', 'kg', 'l'] as const;

/** A new product as the form holds it while typed. */
export interface NewProductDraft {
  name: string;
  label: string;
  unit: (typeof UNITS)[number];
  group: string;
  barcodes: string;
}

type NewProduct = NonNullable<HubReceiptLine['newProduct']>;

/** A saved draft's new product as the form shows it (null: the line names a product of the catalog). */
export function newProductDraft(np: HubReceiptLine['newProduct']): NewProductDraft | null {
  if (!np) return null;
  return {
    name: np.name,
    label: np.label,
    unit: np.unit,
    group: np.group ?? '',
    barcodes: (np.barcodes ?? []).join(', '),
  };
}

/**
 * The new product as the hub takes it; the fields refused before sending go into `bad` at the hub's own paths
 * (`lines.<i>.newProduct.<field>`), so a refusal of either is said at the same place.
 */
export function newProductInput(t: HubT, np: NewProductDraft, i: number, bad: Record<string, string>): NewProduct {
  const at = (f: string) => `lines.${i}.newProduct.${f}`;
  const barcodes = [...new Set(np.barcodes.split(/[\s,;]+/).filter(Boolean))];
  if (np.name.trim() === '') bad[at('name')] = t('gfErrRequired');
  if (np.label === '') bad[at('label')] = t('gfErrRequired');
  if (barcodes.some((b) => !/^\d{8,14}$/.test(b))) bad[at('barcodes')] = t('rcErrBarcodeInvalid');
  return {
    name: np.name.trim(),
    label: np.label,
    unit: np.unit,
    group: np.group.trim() === '' ? null : np.group.trim(),
    barcodes,
  };
}

/** A select named by its label, its error under it. */
function SelectField(props: {
  label: string;
  error: string | undefined;
  errorId: string;
  value: string;
  onChange: (v: string) => void;
  children: ReactNode;
}) {
  return (
    <CheckedField label={props.label} error={props.error} errorId={props.errorId}>
      <select
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? props.errorId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.children}
      </select>
    </CheckedField>
  );
}

/**
 * The line's „new product“ choice and, when ticked, the product's own fields. `text` renders a text field (the
 * form's own, so every field looks and is named alike).
 */
export function NewProductFields(props: {
  t: HubT;
  lang: HubLang;
  i: number;
  value: NewProductDraft | null;
  /** The shop's tax labels its tills report (refused labels are not reported). */
  labels: readonly string[];
  errors: Readonly<Record<string, string>>;
  onChange: (v: NewProductDraft | null) => void;
  text: (id: string, label: string, value: string, error: string | undefined, set: (v: string) => void) => ReactNode;
}) {
  const { t, i, value: np } = props;
  const n = String(i + 1);
  const at = (f: string) => props.errors[`lines.${i}.newProduct.${f}`];
  const set = (change: Partial<NewProductDraft>) => np && props.onChange({ ...np, ...change });
  return (
    <>
      <label className="gf-confirm">
        <input
          type="checkbox"
          checked={np !== null}
          onChange={(e) =>
            props.onChange(
              e.target.checked
                ? { name: '', label: props.labels[0] ?? '', unit: 'piece', group: '', barcodes: '' }
                : null,
            )
          }
        />
        {t('npNew', { n })}
      </label>
      {np && (
        <>
          {props.text(`gf-l${i}-np-name`, t('npName', { n }), np.name, at('name'), (v) => set({ name: v }))}
          <SelectField
            label={t('npLabel', { n })}
            error={at('label')}
            errorId={`gf-l${i}-np-label-error`}
            value={np.label}
            onChange={(v) => set({ label: v })}
          >
            {!props.labels.includes(np.label) && <option value={np.label}>{np.label || '—'}</option>}
            <Options of={props.labels} />
          </SelectField>
          <SelectField
            label={t('npUnit', { n })}
            error={at('unit')}
            errorId={`gf-l${i}-np-unit-error`}
            value={np.unit}
            onChange={(v) => set({ unit: UNITS.find((u) => u === v) ?? 'piece' })}
          >
            <Options of={UNITS} text={(u) => unitName(props.lang, u)} />
          </SelectField>
          {props.text(`gf-l${i}-np-group`, t('npGroup', { n }), np.group, at('group'), (v) => set({ group: v }))}
          {props.text(`gf-l${i}-np-barcodes`, t('npBarcodes', { n }), np.barcodes, at('barcodes'), (v) =>
            set({ barcodes: v }),
          )}
          <p className="mgr-hint">{t('npHint')}</p>
        </>
      )}
    </>
  );
}

/**
 * A supplier's CSV chosen through a button named in the UI's language: the hub reads it into lines of the shop's
 * products (`onLines`), or refuses it with the row and column in the till's words (`onError`).
 */
export function ReceiptCsvButton(props: {
  label: string;
  lang: HubLang;
  api: HubUiApi;
  error: string | undefined;
  onLines: (lines: HubReceiptLine[]) => void;
  onError: (text: string) => void;
  /** A refusal the till's messages have no words for. */
  text: (err: unknown) => string;
}) {
  const errorId = 'gf-csv-error';
  const read = (file: File) => {
    void file
      .text()
      .then((csv) => props.api.call('goodsReceiptCsvLines', { csv }))
      .then((r) => props.onLines(r.lines))
      .catch((err: unknown) => {
        const code = err instanceof HubCallError ? (err.code ?? '') : '';
        const params = err instanceof HubCallError ? err.params : {};
        props.onError(
          code !== '' && hasMessage(code)
            ? message(props.lang, code, { field: props.label, ...params })
            : props.text(err),
        );
      });
  };
  return <CsvFileButton label={props.label} errorId={errorId} error={props.error} onFile={read} />;
}
