/**
 * Менаџер → Роба (docs/goods.md): stock on hand with its values, goods receipts (a draft calculated line by line,
 * posted with a manager's PIN, reversed by a document), suppliers, the KEP book for a period with its CSV, and the
 * price change records. The core calculates, checks and numbers everything; this screen only shows and asks.
 */
import { useContext, useEffect, useState, type ReactNode } from 'react';
import type { PosApi, Result } from '../../../shared/contract/index.ts';
import type {
  CountSummary,
  CountView,
  PdfFile,
  ReorderView,
  ReceiptSummary,
  ReceiptView,
  StockView,
  SupplierView,
} from '../../../shared/contract/goods.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatQuantity, formatRsd, parseQuantityInput } from '../../../shared/money.ts';
import { isoDay } from '../dates.ts';
import {
  call,
  DateRange,
  dayOrRefuse,
  Field,
  NoteAndAlert,
  PinInput,
  pinOf,
  RowForm,
  RunButton,
  saveBase64,
  saveFile,
  SelfApproval,
  SubmitButton,
  useAction,
  type InputAttrs,
  type Run,
} from './common.tsx';
import type { ManagerT } from './i18n.ts';
import { KepBook, StockTable, ValueTable } from '../ui/goods-tables.tsx';
import { ColumnTable } from './ColumnTable.tsx';
import {
  CountCsvButton,
  CountLinesTable,
  CountScope,
  CountsList,
  CountTotals,
  openCountTitle,
} from './CountTables.tsx';
import { HubBookNote, HubCountsSection, HubReceiptsSection } from './HubGoodsSections.tsx';
import { ReceiptHeaderFields, ReceiptLineFields, ReceiptLinesTable, useReceiptDraft } from './ReceiptLineForm.tsx';

/**
 * What each goods form a manager approves keeps: the PIN typed (a manager logged in posts without hers,
 * `SELF_APPROVED`), the note its last action left and the action's state. `approved` sends a command with the PIN
 * typed and clears the PIN once the command was accepted (a refused one keeps it, to be corrected); `pinField` is
 * the PIN's field.
 */
function useApprovedAction(t: ManagerT) {
  const selfApproves = useContext(SelfApproval);
  const [pin, setPin] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const approved = async <V,>(command: (approval: { managerPin?: string }) => Promise<Result<V>>): Promise<V> => {
    const value = await call(command(pinOf(pin)));
    setPin('');
    return value;
  };
  const pinField = <PinInput t={t} value={pin} onChange={setPin} selfApproves={selfApproves} />;
  return { note, setNote, error, busy, run, approved, pinField };
}

type Section = 'stock' | 'receipts' | 'suppliers' | 'kep' | 'prices' | 'counts' | 'reorder' | 'shop';
const SECTIONS: Section[] = ['stock', 'receipts', 'suppliers', 'kep', 'prices', 'counts', 'reorder', 'shop'];

/** Saves a PDF the core made (its bytes in base64) as a file: the browser's download, Electron's save. */
export const savePdf = (f: PdfFile): void => saveBase64(f, 'application/pdf');

/** A button that saves a PDF the core makes (`make`); it waits while an action of its section runs. */
function PdfButton(props: { run: Run; busy: boolean; make: () => Promise<Result<PdfFile>>; children: ReactNode }) {
  return (
    <RunButton run={props.run} busy={props.busy} action={async () => savePdf(await call(props.make()))}>
      {props.children}
    </RunButton>
  );
}

/** Saves a CSV the core made as a file (with a BOM, so a spreadsheet reads the Cyrillic right). */
function saveCsv(fileName: string, csv: string): void {
  saveFile(fileName, new Blob(['\ufeff' + csv], { type: 'text/csv;charset=utf-8' }));
}

export function GoodsTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { t, api } = props;
  const [section, setSection] = useState<Section>('stock');
  // Enrolled at a store hub: the shop's book is the hub's; receipts and counts entered here go to it (say which).
  const [enrolled, setEnrolled] = useState(false);
  useEffect(() => {
    void api['hub.status']({}).then((r) => setEnrolled(r.ok && r.value.enrolled));
  }, [api]);
  return (
    <div className="mgr-tab">
      {enrolled && <HubBookNote t={t} />}
      <div className="mgr-row" role="group" aria-label={t('goods_sections')}>
        {SECTIONS.map((s) => (
          <button key={s} type="button" aria-pressed={section === s} onClick={() => setSection(s)}>
            {t(`goods_${s}`)}
          </button>
        ))}
      </div>
      {section === 'stock' && <StockSection {...props} />}
      {section === 'receipts' && (enrolled ? <HubReceiptsSection {...props} /> : <ReceiptsSection {...props} />)}
      {section === 'suppliers' && <SuppliersSection {...props} />}
      {section === 'kep' && <KepSection {...props} />}
      {section === 'prices' && <PricesSection {...props} />}
      {section === 'counts' && (enrolled ? <HubCountsSection {...props} /> : <CountsSection {...props} />)}
      {section === 'reorder' && <ReorderSection {...props} />}
      {section === 'shop' && <ShopSection {...props} />}
    </div>
  );
}

type Props = { api: PosApi; t: ManagerT; lang: Language };

function StockSection({ api, t }: Props) {
  const [query, setQuery] = useState('');
  const [stock, setStock] = useState<StockView | null>(null);
  const [error, busy, run] = useAction();
  const show = () => void run(async () => setStock(await call(api['goods.stock'](query ? { query } : {}))));
  useEffect(show, [api]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <>
      <RowForm onSubmit={show} label={t('goods_stock')}>
        <Field label={t('goods_search')}>
          <input value={query} onChange={(e) => setQuery(e.target.value)} />
        </Field>
        <SubmitButton busy={busy}>{t('show')}</SubmitButton>
      </RowForm>
      <NoteAndAlert note={null} error={error} />
      {stock && (
        <>
          <p role="status">
            {t('goods_stock_totals', {
              items: stock.totals.items,
              retail: formatRsd(stock.totals.retailValuePara),
              purchase: stock.totals.purchaseValuePara === null ? '—' : formatRsd(stock.totals.purchaseValuePara),
            })}
            {stock.totals.negative > 0 && ` ${t('goods_negative_count', { count: stock.totals.negative })}`}
          </p>
          <StockTable
            label={t('goods_stock')}
            headers={[
              t('goods_code'),
              t('goods_name'),
              t('goods_group'),
              t('goods_quantity'),
              t('goods_retail_price'),
              t('goods_retail_value'),
              t('goods_purchase_value'),
            ]}
            rows={stock.items}
            withGroup
            belowZero={t('goods_below_zero')}
          />
          <ValueTable
            label={t('goods_by_group')}
            headers={[t('goods_group'), t('goods_items'), t('goods_retail_value'), t('goods_purchase_value')]}
            rows={stock.groups.map((g) => ({
              ...g,
              key: g.group ?? '',
              name: g.group ?? t('goods_no_group'),
              figures: [g.items],
            }))}
          />
        </>
      )}
    </>
  );
}

/**
 * A supplier's fields, in the order the form and the table show them (each labelled `goods_<field>`), with their
 * controls' size and keyboard.
 */
const SUPPLIER_INPUTS = {
  name: {},
  pib: { inputMode: 'numeric', size: 10 },
  address: {},
  account: { size: 22 },
  contact: {},
} as const satisfies Record<string, InputAttrs>;
type SupplierField = keyof typeof SUPPLIER_INPUTS;
// The record's keys are exactly the fields; Object.keys only forgets that.
const SUPPLIER_FIELDS = Object.keys(SUPPLIER_INPUTS) as SupplierField[];
const NO_SUPPLIER: Record<SupplierField, string> = { name: '', pib: '', address: '', account: '', contact: '' };

function SuppliersSection({ api, t }: Props) {
  const [list, setList] = useState<SupplierView[]>([]);
  const [form, setForm] = useState(NO_SUPPLIER);
  const { note, setNote, error, busy, run, approved, pinField } = useApprovedAction(t);
  const load = () => void run(async () => setList(await call(api['suppliers.list']({}))));
  useEffect(load, [api]); // eslint-disable-line react-hooks/exhaustive-deps
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const save = () =>
    void run(async () => {
      const saved = await approved((approval) =>
        api['suppliers.put']({
          ...approval,
          name: form.name,
          pib: form.pib.trim(),
          address: form.address || null,
          account: form.account || null,
          contact: form.contact || null,
        }),
      );
      setNote(t('goods_supplier_saved', { name: saved.name }));
      setForm(NO_SUPPLIER);
      setList(await call(api['suppliers.list']({})));
    });
  return (
    <>
      <RowForm onSubmit={save} label={t('goods_supplier_new')}>
        {SUPPLIER_FIELDS.map((k) => (
          <Field key={k} label={t(`goods_${k}`)}>
            <input {...SUPPLIER_INPUTS[k]} value={form[k]} onChange={set(k)} />
          </Field>
        ))}
        {pinField}
        <SubmitButton busy={busy}>{t('goods_save_supplier')}</SubmitButton>
      </RowForm>
      <NoteAndAlert note={note} error={error} />
      <ColumnTable
        label={t('goods_suppliers')}
        rows={list}
        rowKey={(s) => s.id}
        columns={SUPPLIER_FIELDS.map((k) => ({
          header: t(`goods_${k}`),
          names: k === 'name',
          cell: (s: SupplierView) => s[k] ?? '—',
        }))}
      />
    </>
  );
}

function ReceiptsSection({ api, t, lang }: Props) {
  const [receipts, setReceipts] = useState<ReceiptSummary[]>([]);
  const [draft, setDraft] = useState<ReceiptView | null>(null);
  const [confirm, setConfirm] = useState(false);
  const { note, setNote, error, busy, run, approved, pinField } = useApprovedAction(t);
  const { header, line, setLine, lines, setLines, addLine, reload } = useReceiptDraft(api, t, run, async () =>
    setReceipts(await call(api['goods.receipts']({}))),
  );
  const save = () =>
    void run(async () => {
      const saved = await approved((approval) =>
        api['goods.receiptSave']({
          ...approval,
          ...(draft ? { id: draft.id } : {}),
          ...header.input(),
          lines,
        }),
      );
      setDraft(saved);
      setNote(t('goods_draft_saved'));
      await reload();
    });
  const post = () =>
    void run(async () => {
      if (!draft) return;
      const posted = await approved((approval) =>
        api['goods.receiptPost']({ ...approval, id: draft.id, ...(confirm ? { confirmBelowPurchase: true } : {}) }),
      );
      setNote(t('goods_posted', { number: posted.number ?? '' }));
      setDraft(null);
      setLines([]);
      setConfirm(false);
      header.setInvoiceNumber('');
      await reload();
    });
  /** A supplier's CSV: its lines join the draft on the screen (nothing is saved until „Сачувај нацрт“). */
  const fromCsv = (file: File | undefined) =>
    void run(async () => {
      if (!file) return;
      const read = await call(api['goods.receiptLinesCsv']({ csv: await file.text() }));
      setLines([...lines, ...read]);
      setNote(t('goods_lines_imported', { count: read.length, name: file.name }));
    });
  /** A saved draft back on the screen to be edited, then saved again over itself. */
  const openDraft = (r: ReceiptSummary) =>
    void run(async () => {
      const view = await call(api['goods.receipt']({ id: r.id }));
      setDraft(view);
      header.open({ ...view, supplierId: view.supplier.id });
      setLines(
        view.lines.map((l) => ({
          code: l.code,
          ...(l.newProduct && l.unit ? { name: l.name, label: l.label, unit: l.unit } : {}),
          ...(l.newProduct && l.group ? { group: l.group } : {}),
          ...(l.newProduct && l.barcode ? { barcode: l.barcode } : {}),
          quantity: l.quantityMilli / 1000,
          purchasePrice: l.purchasePara / 100,
          ...(l.discountBp ? { discountPercent: l.discountBp / 100 } : {}),
          retailPrice: l.retailPara / 100,
        })),
      );
      setNote(t('goods_draft_opened', { invoice: view.invoiceNumber }));
    });
  const removeLine = (i: number) => {
    setLines(lines.filter((_l, j) => j !== i));
    // The calculation shown beside each line belonged to the saved draft's order: it is shown again once saved.
    setDraft(draft ? { ...draft, lines: [] } : null);
  };
  const reverse = (r: ReceiptSummary) =>
    void run(async () => {
      const rev = await approved((approval) => api['goods.receiptReverse']({ ...approval, id: r.id }));
      setNote(t('goods_reversed', { number: r.number ?? '', reversal: rev.number ?? '' }));
      await reload();
    });
  return (
    <>
      <h3>{t('goods_receipt_new')}</h3>
      <ReceiptHeaderFields t={t} lang={lang} header={header} />
      <RowForm onSubmit={addLine} label={t('goods_line')}>
        <ReceiptLineFields t={t} line={line} setLine={setLine} newProduct />
        <SubmitButton busy={busy}>{t('goods_add_line')}</SubmitButton>
        <label className="mgr-file">
          {t('goods_lines_csv')}
          <input
            type="file"
            className="visually-hidden"
            accept=".csv,.txt,text/csv,text/plain"
            onChange={(e) => {
              fromCsv(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
      </RowForm>
      <ReceiptLinesTable t={t} lines={lines} calc={draft?.lines} busy={busy} onRemove={removeLine} />
      <RowForm onSubmit={save} label={t('goods_receipt_actions')}>
        {pinField}
        <SubmitButton busy={busy} disabled={lines.length === 0}>
          {t('goods_save_draft')}
        </SubmitButton>
        <label>
          <input type="checkbox" checked={confirm} onChange={(e) => setConfirm(e.target.checked)} />{' '}
          {t('goods_confirm_below')}
        </label>
        <button type="button" disabled={busy || !draft} onClick={post}>
          {t('goods_post')}
        </button>
      </RowForm>
      <NoteAndAlert note={note} error={error} />
      <ColumnTable
        label={t('goods_receipts')}
        rows={receipts}
        rowKey={(r) => r.id}
        columns={[
          { header: t('goods_number'), names: true, cell: (r) => r.number ?? t('goods_draft') },
          { header: t('goods_supplier'), cell: (r) => r.supplier.name },
          { header: t('goods_invoice_number'), cell: (r) => r.invoiceNumber },
          {
            header: t('goods_state'),
            cell: (r) => t(r.kind === 'reversal' ? 'goods_state_reversal' : `goods_state_${r.state}`),
          },
          { header: t('goods_retail_value'), num: true, cell: (r) => formatRsd(r.retailPara) },
          {
            header: '',
            cell: (r) => (
              <>
                <PdfButton run={run} busy={busy} make={() => api['goods.receiptPdf']({ id: r.id })}>
                  {t('goods_pdf_of', { number: r.number ?? t('goods_draft') })}
                </PdfButton>{' '}
                {r.state === 'draft' && (
                  <button type="button" disabled={busy} onClick={() => openDraft(r)}>
                    {t('goods_open_draft', { invoice: r.invoiceNumber })}
                  </button>
                )}
                {r.kind === 'receipt' && r.state === 'posted' && (
                  <button type="button" disabled={busy} onClick={() => reverse(r)}>
                    {t('goods_reverse', { number: r.number ?? '' })}
                  </button>
                )}
              </>
            ),
          },
        ]}
      />
    </>
  );
}

/**
 * What a section shows for a period (this month until changed): read by `read` when the section opens and again
 * when asked, a day that is not one refused naming its field.
 */
function usePeriodView<V>(api: PosApi, t: ManagerT, read: (period: { from: string; to: string }) => Promise<V>) {
  const today = isoDay(new Date());
  const [from, setFrom] = useState<string | null>(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState<string | null>(today);
  const [view, setView] = useState<V | null>(null);
  const [error, busy, run] = useAction();
  const show = () =>
    void run(async () =>
      setView(await read({ from: dayOrRefuse(t, from, t('date_from')), to: dayOrRefuse(t, to, t('date_to')) })),
    );
  useEffect(show, [api]); // eslint-disable-line react-hooks/exhaustive-deps
  return { from, to, setFrom, setTo, view, error, busy, run, show };
}

/** The period's form (its days and „Прикажи“, then `children`) and its alert. */
function PeriodForm(props: {
  t: ManagerT;
  lang: Language;
  label: string;
  period: ReturnType<typeof usePeriodView>;
  children?: ReactNode;
}) {
  const { t, period } = props;
  return (
    <>
      <RowForm onSubmit={period.show} label={props.label}>
        <DateRange
          t={t}
          lang={props.lang}
          from={period.from}
          to={period.to}
          onFrom={period.setFrom}
          onTo={period.setTo}
        />
        <SubmitButton busy={period.busy}>{t('show')}</SubmitButton>
        {props.children}
      </RowForm>
      <NoteAndAlert note={null} error={period.error} />
    </>
  );
}

function KepSection({ api, t, lang }: Props) {
  const period = usePeriodView(api, t, (p) => call(api['goods.kep']({ ...p, csv: true })));
  const { view: kep, busy, run } = period;
  return (
    <>
      <PeriodForm t={t} lang={lang} label={t('goods_kep')} period={period}>
        {kep?.csv && (
          <a
            href={`data:text/csv;charset=utf-8,${encodeURIComponent('\ufeff' + kep.csv)}`}
            download={`KEP-${kep.from}-${kep.to}.csv`}
          >
            {t('goods_kep_csv')}
          </a>
        )}
        {kep && (
          <PdfButton run={run} busy={busy} make={() => api['goods.kepPdf']({ from: kep.from, to: kep.to })}>
            {t('goods_kep_pdf')}
          </PdfButton>
        )}
      </PeriodForm>
      {kep && (
        <>
          {(kep.late.draftReceipts > 0 || kep.late.unsignedSales > 0) && (
            <p className="mgr-warn" role="alert">
              {t('goods_kep_late', { drafts: kep.late.draftReceipts, sales: kep.late.unsignedSales })}
            </p>
          )}
          <KepBook
            kep={kep}
            summary={(amounts) => t('goods_kep_summary', amounts)}
            summaryStatus
            label={t('goods_kep')}
            headers={[
              t('goods_kep_no'),
              t('goods_kep_date'),
              t('goods_kep_description'),
              t('goods_kep_debit'),
              t('goods_kep_credit'),
              t('goods_kep_balance'),
            ]}
            lang={lang}
          />
        </>
      )}
    </>
  );
}

function PricesSection({ api, t, lang }: Props) {
  const period = usePeriodView(api, t, (p) => call(api['goods.priceChanges'](p)));
  const { view: rows, busy, run } = period;
  return (
    <>
      <PeriodForm t={t} lang={lang} label={t('goods_prices')} period={period} />
      {rows && (
        <ColumnTable
          scroll
          label={t('goods_prices')}
          rows={rows}
          rowKey={(p) => p.id}
          columns={[
            { header: t('goods_number'), cell: (p) => p.number },
            { header: t('goods_name'), names: true, cell: (p) => p.name },
            { header: t('goods_old_price'), num: true, cell: (p) => formatRsd(p.oldPara) },
            { header: t('goods_new_price'), num: true, cell: (p) => formatRsd(p.newPara) },
            { header: t('goods_quantity'), num: true, cell: (p) => formatQuantity(p.quantityMilli) },
            { header: t('goods_difference'), num: true, cell: (p) => formatRsd(p.diffPara) },
            {
              header: '',
              cell: (p) => (
                <PdfButton run={run} busy={busy} make={() => api['goods.priceChangePdf']({ id: p.id })}>
                  {t('goods_pdf_of', { number: p.number })}
                </PdfButton>
              ),
            },
          ]}
        />
      )}
    </>
  );
}

function CountsSection({ api, t, lang }: Props) {
  const [counts, setCounts] = useState<CountSummary[]>([]);
  const [groups, setGroups] = useState<string[]>([]);
  const [chosen, setChosen] = useState<string[]>([]);
  const [open, setOpen] = useState<CountView | null>(null);
  const [code, setCode] = useState('');
  const [quantity, setQuantity] = useState('');
  const { note, setNote, error, busy, run, approved, pinField } = useApprovedAction(t);
  const reload = async () => {
    const list = await call(api['goods.counts']({}));
    setCounts(list);
    const current = list.find((c) => c.state === 'open');
    setOpen(current ? await call(api['goods.count']({ id: current.id })) : null);
    setGroups((await call(api['catalog.groups']({}))).map((g) => g.name));
  };
  useEffect(() => void run(reload), [api]); // eslint-disable-line react-hooks/exhaustive-deps
  const start = () =>
    void run(async () => {
      const started = await approved((approval) =>
        api['goods.countStart']({ ...approval, ...(chosen.length ? { groups: chosen } : {}) }),
      );
      setNote(t('goods_count_started', { number: started.number }));
      await reload();
    });
  const enter = () =>
    void run(async () => {
      if (!open) return;
      // A scan (or a code with no quantity) adds one; a typed quantity replaces what was counted.
      const typed = quantity.trim();
      const milli = typed ? parseQuantityInput(typed) : 1000;
      if (milli === null) throw new Error(t('goods_number_needed', { field: t('goods_counted') }));
      setOpen(
        await call(
          api['goods.countEnter']({ id: open.id, lines: [{ code: code.trim(), quantity: milli / 1000, add: !typed }] }),
        ),
      );
      setNote(t('goods_count_entered', { code: code.trim() }));
      setCounts(await call(api['goods.counts']({})));
      setCode('');
      setQuantity('');
    });
  const importCsv = (file: File | undefined) =>
    void run(async () => {
      if (!open || !file) return;
      setOpen(await call(api['goods.countImport']({ id: open.id, csv: await file.text() })));
      setNote(t('goods_count_imported', { name: file.name }));
      setCounts(await call(api['goods.counts']({})));
    });
  /** Posts or cancels the open count with the manager's PIN, and says which count it was. */
  const close = (
    command: 'goods.countPost' | 'goods.countCancel',
    said: 'goods_count_posted' | 'goods_count_cancelled',
  ) =>
    void run(async () => {
      if (!open) return;
      const closed = await approved((approval) => api[command]({ ...approval, id: open.id }));
      setNote(t(said, { number: closed.number }));
      await reload();
    });
  const post = () => close('goods.countPost', 'goods_count_posted');
  const cancel = () => close('goods.countCancel', 'goods_count_cancelled');
  return (
    <>
      {!open && (
        <RowForm onSubmit={start} label={t('goods_count_start')}>
          <CountScope t={t} groups={groups} chosen={chosen} onChange={setChosen} />
          {pinField}
          <SubmitButton busy={busy}>
            {chosen.length ? t('goods_count_start_groups') : t('goods_count_start_all')}
          </SubmitButton>
        </RowForm>
      )}
      <NoteAndAlert note={note} error={error} />
      {open && (
        <>
          <h3>{openCountTitle(t, open)}</h3>
          <RowForm onSubmit={enter} label={t('goods_count_enter')}>
            <Field label={t('goods_code_or_barcode')}>
              <input value={code} onChange={(e) => setCode(e.target.value)} size={14} />
            </Field>
            <Field label={t('goods_counted')}>
              <input value={quantity} onChange={(e) => setQuantity(e.target.value)} size={6} inputMode="decimal" />
            </Field>
            <SubmitButton busy={busy} disabled={!code.trim()}>
              {t('goods_count_enter')}
            </SubmitButton>
            <CountCsvButton t={t} onFile={importCsv} />
          </RowForm>
          <CountTotals t={t} view={open} />
          <CountLinesTable t={t} view={open} />
          <RowForm onSubmit={post} label={t('goods_count_post_actions')}>
            {pinField}
            <SubmitButton busy={busy}>{t('goods_count_post')}</SubmitButton>
            <button type="button" disabled={busy} onClick={cancel}>
              {t('goods_count_cancel')}
            </button>
          </RowForm>
        </>
      )}
      <CountsList
        t={t}
        lang={lang}
        counts={counts}
        actions={(c) => (
          <PdfButton run={run} busy={busy} make={() => api['goods.countPdf']({ id: c.id })}>
            {t('goods_pdf_of', { number: c.number })}
          </PdfButton>
        )}
      />
    </>
  );
}

function ReorderSection({ api, t }: Props) {
  const [view, setView] = useState<ReorderView | null>(null);
  const [code, setCode] = useState('');
  const [minimum, setMinimum] = useState('');
  const { note, setNote, error, busy, run, approved, pinField } = useApprovedAction(t);
  const load = async () => setView(await call(api['goods.reorder']({ csv: true })));
  useEffect(() => void run(load), [api]); // eslint-disable-line react-hooks/exhaustive-deps
  const save = () =>
    void run(async () => {
      const milli = parseQuantityInput(minimum);
      if (milli === null) throw new Error(t('goods_number_needed', { field: t('goods_minimum') }));
      await approved((approval) => api['goods.minimumSet']({ ...approval, code: code.trim(), minimum: milli / 1000 }));
      setNote(t('goods_minimum_saved', { code: code.trim(), minimum: formatQuantity(milli) }));
      setCode('');
      setMinimum('');
      await load();
    });
  return (
    <>
      <RowForm onSubmit={save} label={t('goods_minimum_set')}>
        <Field label={t('goods_code')}>
          <input value={code} onChange={(e) => setCode(e.target.value)} size={10} />
        </Field>
        <Field label={t('goods_minimum')}>
          <input value={minimum} onChange={(e) => setMinimum(e.target.value)} size={6} inputMode="decimal" />
        </Field>
        {pinField}
        <SubmitButton busy={busy}>{t('goods_minimum_save')}</SubmitButton>
      </RowForm>
      <NoteAndAlert note={note} error={error} />
      <div className="mgr-row">
        <PdfButton run={run} busy={busy} make={() => api['goods.reorderPdf']({})}>
          {t('goods_reorder_pdf')}
        </PdfButton>
        <button
          type="button"
          disabled={busy || !view?.csv}
          onClick={() => view?.csv && saveCsv('narucivanje.csv', view.csv)}
        >
          {t('goods_reorder_csv')}
        </button>
      </div>
      {view && view.suppliers.length === 0 && <p role="status">{t('goods_reorder_none')}</p>}
      {view?.suppliers.map((g) => {
        // The supplier heads its section and names its table.
        const title = g.supplier ? `${g.supplier.name} (${g.supplier.pib})` : t('goods_reorder_no_supplier');
        return (
          <section key={g.supplier?.id ?? 0}>
            <h3>{title}</h3>
            <ColumnTable
              label={title}
              rows={g.items}
              rowKey={(i) => i.code}
              columns={[
                { header: t('goods_code'), cell: (i) => i.code },
                { header: t('goods_name'), names: true, cell: (i) => i.name },
                { header: t('goods_quantity'), num: true, cell: (i) => formatQuantity(i.onHandMilli) },
                { header: t('goods_minimum'), num: true, cell: (i) => formatQuantity(i.minimumMilli) },
                { header: t('goods_reorder_order'), num: true, cell: (i) => formatQuantity(i.orderMilli) },
              ]}
            />
          </section>
        );
      })}
    </>
  );
}

/** The shop's PIB and address for the A4 documents' title block, and the setting against selling below zero. */
function ShopSection({ api, t }: Props) {
  const [form, setForm] = useState({ shopPib: '', shopAddress: '', noNegativeCounted: false });
  const { note, setNote, error, busy, run, approved, pinField } = useApprovedAction(t);
  useEffect(
    () =>
      void run(async () => {
        const s = await call(api['settings.get']({}));
        setForm({ shopPib: s.shopPib, shopAddress: s.shopAddress, noNegativeCounted: s.noNegativeCounted });
      }),
    [api], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const save = () =>
    void run(async () => {
      await approved((approval) => api['settings.update']({ ...approval, ...form }));
      setNote(t('goods_shop_saved'));
    });
  return (
    <>
      <RowForm onSubmit={save} label={t('goods_shop')}>
        <Field label={t('goods_shop_pib')}>
          <input
            value={form.shopPib}
            onChange={(e) => setForm({ ...form, shopPib: e.target.value })}
            inputMode="numeric"
            size={10}
          />
        </Field>
        <Field label={t('goods_shop_address')}>
          <input
            value={form.shopAddress}
            onChange={(e) => setForm({ ...form, shopAddress: e.target.value })}
            size={30}
          />
        </Field>
        <label>
          <input
            type="checkbox"
            checked={form.noNegativeCounted}
            onChange={(e) => setForm({ ...form, noNegativeCounted: e.target.checked })}
          />{' '}
          {t('goods_no_negative_counted')}
        </label>
        {pinField}
        <SubmitButton busy={busy}>{t('goods_shop_save')}</SubmitButton>
      </RowForm>
      <NoteAndAlert note={note} error={error} />
    </>
  );
}
