/**
 * A goods receipt as the manager types it, shared by the till's own receipts (GoodsTab.tsx) and those entered for
 * the store hub (HubGoodsSections.tsx): its header (supplier, invoice number and day), the line's fields, the typed
 * line read into the contract's receipt line (numbers with a decimal comma), and the table of the lines entered so far.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { ReceiptLineInput, ReceiptLineView, SupplierView } from '../../../shared/contract/goods.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatQuantity, formatRsd, parseQuantityInput, parseRsdInput } from '../../../shared/money.ts';
import { isoDay } from '../dates.ts';
import { DateField } from './DateField.tsx';
import { ColumnTable } from './ColumnTable.tsx';
import { call, CheckedField, ChoiceField, dayOrRefuse, Field, type Run } from './common.tsx';
import type { ManagerT, ManagerText } from './i18n.ts';

/** A line as typed: every field text (a new product's name, label and unit only on the till's own receipts). */
export const EMPTY_LINE = {
  code: '',
  name: '',
  label: '',
  unit: 'piece',
  quantity: '',
  purchase: '',
  discount: '',
  margin: '',
  retail: '',
};
export type TypedLine = typeof EMPTY_LINE;

const bpText = (bp: number): string => formatRsd(bp).replace(/,00$/, '');

/** The typed line as the contract's: a number that is not one is refused naming its field. */
export function receiptLineOf(t: ManagerT, line: TypedLine): ReceiptLineInput {
  const num = (text: string, field: string): number => {
    const para = parseRsdInput(text);
    if (para === null) throw new Error(t('goods_number_needed', { field }));
    return para / 100;
  };
  const quantity = parseQuantityInput(line.quantity);
  if (quantity === null) throw new Error(t('goods_number_needed', { field: t('goods_quantity') }));
  return {
    code: line.code.trim(),
    ...(line.name.trim() ? { name: line.name.trim() } : {}),
    ...(line.label.trim() ? { label: line.label.trim(), unit: line.unit as 'piece' | 'kg' | 'l' } : {}),
    quantity: quantity / 1000,
    purchasePrice: num(line.purchase, t('goods_purchase_price')),
    ...(line.discount.trim() ? { discountPercent: num(line.discount, t('goods_discount')) } : {}),
    ...(line.retail.trim()
      ? { retailPrice: num(line.retail, t('goods_retail_price')) }
      : { marginPercent: num(line.margin || '0', t('goods_margin')) }),
  };
}

/**
 * A receipt being typed: its header (`useReceiptHeader`), the line being typed and the lines entered so far;
 * `addLine` reads the typed line into them (through `run`). `reload` reads the suppliers, then the section's own
 * list (`loadList`): once when the section opens (through `run`), and by the section after each change.
 */
export function useReceiptDraft(api: PosApi, t: ManagerT, run: Run, loadList: () => Promise<void>) {
  const header = useReceiptHeader(t);
  const reload = async () => {
    header.setSuppliers(await call(api['suppliers.list']({})));
    await loadList();
  };
  const [line, setLine] = useState(EMPTY_LINE);
  const [lines, setLines] = useState<ReceiptLineInput[]>([]);
  useEffect(() => void run(reload), [api]); // eslint-disable-line react-hooks/exhaustive-deps
  const addLine = () =>
    void run(async () => {
      setLines([...lines, receiptLineOf(t, line)]);
      setLine(EMPTY_LINE);
    });
  return { header, line, setLine, lines, setLines, addLine, reload };
}

/** The line's amounts in the order they are typed, each a decimal number in a field as wide as it needs. */
const AMOUNT_FIELDS: readonly { key: keyof TypedLine; label: ManagerText; size: number }[] = [
  { key: 'quantity', label: 'goods_quantity', size: 6 },
  { key: 'purchase', label: 'goods_purchase_price', size: 8 },
  { key: 'discount', label: 'goods_discount', size: 4 },
  { key: 'margin', label: 'goods_margin', size: 4 },
  { key: 'retail', label: 'goods_retail_price', size: 8 },
];

/** The fields of one line; `newProduct`: also a new product's name, tax label and unit. */
export function ReceiptLineFields(props: {
  t: ManagerT;
  line: TypedLine;
  setLine: (l: TypedLine) => void;
  newProduct?: boolean;
}) {
  const { t, line } = props;
  const set = (k: keyof TypedLine) => (e: { target: { value: string } }) =>
    props.setLine({ ...line, [k]: e.target.value });
  return (
    <>
      <Field label={t('goods_code_or_barcode')}>
        <input value={line.code} onChange={set('code')} size={12} />
      </Field>
      {props.newProduct && (
        <>
          <Field label={t('goods_new_name')}>
            <input value={line.name} onChange={set('name')} size={14} />
          </Field>
          <Field label={t('goods_new_label')}>
            <input value={line.label} onChange={set('label')} size={3} />
          </Field>
          <ChoiceField
            label={t('goods_unit')}
            value={line.unit}
            options={{ piece: t('goods_unit_piece'), kg: t('goods_unit_kg'), l: t('goods_unit_l') }}
            onChange={(unit) => props.setLine({ ...line, unit })}
          />
        </>
      )}
      {AMOUNT_FIELDS.map((f) => (
        <Field key={f.key} label={t(f.label)}>
          <input value={line[f.key]} onChange={set(f.key)} size={f.size} inputMode="decimal" />
        </Field>
      ))}
    </>
  );
}

/** The lines entered so far; `calc`: the saved draft's calculation of each (its product's name, margin, price). */
export function ReceiptLinesTable(props: {
  t: ManagerT;
  lines: readonly ReceiptLineInput[];
  calc?: readonly ReceiptLineView[] | undefined;
  busy: boolean;
  onRemove: (i: number) => void;
}) {
  const { t, lines } = props;
  if (lines.length === 0) return null;
  return (
    <ColumnTable
      label={t('goods_lines')}
      rows={lines.map((line, i) => ({ line, calc: props.calc?.[i], i }))}
      rowKey={(r) => r.i}
      columns={[
        {
          header: t('goods_code'),
          names: true,
          cell: ({ line, calc }) => (calc ? `${line.code} ${calc.name}` : line.code),
        },
        {
          header: t('goods_quantity'),
          num: true,
          cell: ({ line }) => formatQuantity(Math.round(line.quantity * 1000)),
        },
        {
          header: t('goods_purchase_price'),
          num: true,
          cell: ({ line }) => formatRsd(Math.round(line.purchasePrice * 100)),
        },
        {
          header: t('goods_margin'),
          num: true,
          cell: ({ line, calc }) =>
            calc ? `${bpText(calc.marginBp)} %` : line.marginPercent !== undefined ? `${line.marginPercent} %` : '—',
        },
        {
          header: t('goods_retail_price'),
          num: true,
          cell: ({ line, calc }) =>
            calc
              ? formatRsd(calc.retailPara)
              : line.retailPrice !== undefined
                ? formatRsd(Math.round(line.retailPrice * 100))
                : '—',
        },
        {
          header: '',
          cell: ({ line, i }) => (
            <button type="button" disabled={props.busy} onClick={() => props.onRemove(i)}>
              {t('goods_remove_line', { code: line.code })}
            </button>
          ),
        },
      ]}
    />
  );
}

/**
 * A receipt's header as typed: the suppliers to choose from, the supplier chosen, its invoice number and the
 * invoice's day (today until changed, null while what is typed is not a day).
 */
function useReceiptHeader(t: ManagerT) {
  const [suppliers, setSuppliers] = useState<SupplierView[]>([]);
  const [supplierId, setSupplierId] = useState('');
  const [invoiceNumber, setInvoiceNumber] = useState('');
  const [invoiceDate, setInvoiceDate] = useState<string | null>(() => isoDay(new Date()));
  return {
    suppliers,
    setSuppliers,
    supplierId,
    setSupplierId,
    invoiceNumber,
    setInvoiceNumber,
    invoiceDate,
    setInvoiceDate,
    /** The header as a receipt's save sends it; an invoice day that is not a day is refused naming its field. */
    input: () => ({
      supplierId: Number(supplierId),
      invoiceNumber,
      invoiceDate: dayOrRefuse(t, invoiceDate, t('goods_invoice_date')),
    }),
    /** A saved draft's header back in the fields, to be edited. */
    open: (draft: { supplierId: number; invoiceNumber: string; invoiceDate: string }) => {
      setSupplierId(String(draft.supplierId));
      setInvoiceNumber(draft.invoiceNumber);
      setInvoiceDate(draft.invoiceDate);
    },
  };
}
type ReceiptHeader = ReturnType<typeof useReceiptHeader>;

type HeaderField = 'supplierId' | 'invoiceNumber';
type ErrorProps = { 'aria-invalid'?: boolean; 'aria-describedby'?: string };

/**
 * The header's fields: the supplier, the invoice number and its day. `checked`: a refusal naming a field is said
 * under it (the hub's receipts; a draft's `id` is its invoice number there); without it the tab's alert says it.
 */
export function ReceiptHeaderFields(props: {
  t: ManagerT;
  lang: Language;
  header: ReceiptHeader;
  checked?: {
    idPrefix: string;
    fieldErrors: Partial<Record<HeaderField | 'id', string>>;
    errorProps: (field: HeaderField) => ErrorProps;
  };
}) {
  const { t, header, checked } = props;
  const field = (name: HeaderField, label: string, control: (errorProps: ErrorProps) => ReactNode) =>
    checked ? (
      <CheckedField
        label={label}
        error={
          name === 'invoiceNumber'
            ? (checked.fieldErrors.invoiceNumber ?? checked.fieldErrors.id)
            : checked.fieldErrors[name]
        }
        errorId={`${checked.idPrefix}-${name}-error`}
      >
        {control(checked.errorProps(name))}
      </CheckedField>
    ) : (
      <Field label={label}>{control({})}</Field>
    );
  return (
    <div className="mgr-row">
      {field('supplierId', t('goods_supplier'), (p) => (
        <select value={header.supplierId} onChange={(e) => header.setSupplierId(e.target.value)} {...p}>
          <SupplierOptions t={t} suppliers={header.suppliers} />
        </select>
      ))}
      {field('invoiceNumber', t('goods_invoice_number'), (p) => (
        <input value={header.invoiceNumber} onChange={(e) => header.setInvoiceNumber(e.target.value)} {...p} />
      ))}
      <DateField
        t={t}
        lang={props.lang}
        label={t('goods_invoice_date')}
        value={header.invoiceDate}
        onChange={header.setInvoiceDate}
        required
      />
    </div>
  );
}

/** The supplier choice of a receipt: „choose“, then the till's register by name. */
function SupplierOptions(props: { t: ManagerT; suppliers: readonly SupplierView[] }) {
  return (
    <>
      <option value="">{props.t('goods_choose')}</option>
      {props.suppliers.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name}
        </option>
      ))}
    </>
  );
}
