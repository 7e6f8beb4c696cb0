/**
 * Менаџер → Роба on a till enrolled at a store hub (docs/goods.md "What a till enrolled at a hub still does itself,
 * and how it merges"): the receipts and counts entered here go into the shop's book at the hub. A receipt is saved
 * as a draft at the hub (kept in this till's queue while the hub is away) and posted with a hub manager's PIN that
 * the hub checks; counted quantities go into the hub's open count, offline too. The hub's answer, or its refusal at
 * its field in the user's language, is shown here. The core queues, sends and says; this screen shows and asks.
 */
import { useEffect, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { HubCountsView, HubDraftView } from '../../../shared/contract/hub-goods.ts';
import type { Language } from '../../../shared/domain.ts';
import { formatQuantity, parseQuantityInput } from '../../../shared/money.ts';
import {
  call,
  CheckedField,
  Field,
  localTime,
  MgrTable,
  NoteAndAlert,
  RowForm,
  SubmitButton,
  useAction,
  useFieldErrors,
  type FieldedError,
} from './common.tsx';
import { ColumnTable } from './ColumnTable.tsx';
import { quantityOrDash } from './CountTables.tsx';
import type { ManagerT } from './i18n.ts';
import { ReceiptHeaderFields, ReceiptLineFields, ReceiptLinesTable, useReceiptDraft } from './ReceiptLineForm.tsx';

type Props = { api: PosApi; t: ManagerT; lang: Language };

/** Which sections of Роба act on the shop's book at the hub and which are this till's own (three languages). */
export function HubBookNote({ t }: { t: ManagerT }) {
  return (
    <p className="mgr-note" role="note" data-testid="goods-book-note">
      {t('goods_hub_book')} {t('goods_hub_sections')}
    </p>
  );
}

/** A field of the receipt form a refusal names: a line's refusal is said under the lines. */
const receiptField = (e: FieldedError): string | undefined =>
  e.field?.startsWith('lines.') ? 'lines' : e.field === 'approverPin' ? 'approverPin' : e.field;

export function HubReceiptsSection({ api, t, lang }: Props) {
  const [drafts, setDrafts] = useState<HubDraftView[]>([]);
  const [editing, setEditing] = useState<number | null>(null);
  const [pin, setPin] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const { header, line, setLine, lines, setLines, addLine, reload } = useReceiptDraft(api, t, run, async () =>
    setDrafts(await call(api['hubGoods.receipts']({}))),
  );
  const labels = {
    supplierId: t('goods_supplier'),
    invoiceNumber: t('goods_invoice_number'),
    invoiceDate: t('goods_invoice_date'),
    lines: t('goods_lines'),
    approverPin: t('hub_goods_pin'),
    id: t('goods_invoice_number'),
  };
  const { fieldErrors, setFieldErrors, fail, errorProps } = useFieldErrors(labels, 'hub-receipt', receiptField);
  const save = () =>
    void run(async () => {
      setFieldErrors({});
      const saved = await call(
        api['hubGoods.receiptSave']({
          ...(editing !== null ? { id: editing } : {}),
          ...header.input(),
          lines,
        }),
      ).catch(fail);
      if (!saved) return;
      setNote(
        saved.state === 'at_hub'
          ? t('hub_goods_saved_at_hub', { id: String(saved.hubId ?? '') })
          : t('hub_goods_saved_queued'),
      );
      setEditing(null);
      setLines([]);
      header.setInvoiceNumber('');
      await reload();
    });
  const open = (d: HubDraftView) => {
    setEditing(d.id);
    header.open(d);
    setLines(
      d.lines.map((l) => ({
        code: l.code,
        quantity: l.qtyMilli / 1000,
        purchasePrice: l.purchasePara / 100,
        ...(l.discountBp ? { discountPercent: l.discountBp / 100 } : {}),
        ...(l.pricePara !== undefined
          ? { retailPrice: l.pricePara / 100 }
          : { marginPercent: (l.marginBp ?? 0) / 100 }),
      })),
    );
    setNote(t('goods_draft_opened', { invoice: d.invoiceNumber }));
  };
  const post = (d: HubDraftView) =>
    void run(async () => {
      setFieldErrors({});
      const posted = await call(api['hubGoods.receiptPost']({ id: d.id, approverPin: pin.trim() })).catch(fail);
      setPin('');
      if (!posted) return;
      setNote(t('goods_posted', { number: posted.hubNumber ?? '' }));
      await reload();
    });
  const stateText = (d: HubDraftView): string =>
    d.state === 'at_hub'
      ? t('hub_goods_state_at_hub', { id: String(d.hubId ?? '') })
      : d.state === 'posted'
        ? t('hub_goods_state_posted', { number: d.hubNumber ?? '' })
        : d.state === 'refused'
          ? t('hub_goods_state_refused', { reason: d.refusal?.message ?? '' })
          : t('hub_goods_state_queued');
  return (
    <>
      <h3>{editing !== null ? t('hub_goods_receipt_edit') : t('hub_goods_receipt_new')}</h3>
      <ReceiptHeaderFields
        t={t}
        lang={lang}
        header={header}
        checked={{ idPrefix: 'hub-receipt', fieldErrors, errorProps }}
      />
      <RowForm onSubmit={addLine} label={t('goods_line')}>
        <ReceiptLineFields t={t} line={line} setLine={setLine} />
        <SubmitButton busy={busy}>{t('goods_add_line')}</SubmitButton>
      </RowForm>
      <ReceiptLinesTable t={t} lines={lines} busy={busy} onRemove={(i) => setLines(lines.filter((_l, j) => j !== i))} />
      {fieldErrors.lines && (
        <p id="hub-receipt-lines-error" role="alert" className="mgr-error">
          {fieldErrors.lines}
        </p>
      )}
      <div className="mgr-row">
        <button type="button" disabled={busy || lines.length === 0} onClick={save}>
          {t('hub_goods_save')}
        </button>
      </div>
      <NoteAndAlert note={note} error={error} />
      <h3>{t('hub_goods_drafts')}</h3>
      <div className="mgr-row">
        <CheckedField
          label={labels.approverPin}
          error={fieldErrors.approverPin}
          errorId="hub-receipt-approverPin-error"
        >
          <input
            type="password"
            inputMode="numeric"
            autoComplete="off"
            value={pin}
            onChange={(e) => setPin(e.target.value)}
            {...errorProps('approverPin')}
          />
        </CheckedField>
      </div>
      <MgrTable
        label={t('hub_goods_drafts')}
        headers={[t('goods_invoice_number'), t('goods_supplier'), t('goods_lines'), t('hub_goods_state'), '']}
      >
        {drafts.map((d) => (
          <tr key={d.id}>
            <th scope="row">{d.invoiceNumber}</th>
            <td>{d.supplier}</td>
            <td className="mgr-num">{d.lines.length}</td>
            <td>{stateText(d)}</td>
            <td>
              {d.state !== 'posted' && (
                <button type="button" disabled={busy} onClick={() => open(d)}>
                  {t('hub_goods_open', { invoice: d.invoiceNumber })}
                </button>
              )}
              {d.state === 'at_hub' && (
                <button type="button" disabled={busy || !pin.trim()} onClick={() => post(d)}>
                  {t('hub_goods_post', { invoice: d.invoiceNumber })}
                </button>
              )}
            </td>
          </tr>
        ))}
      </MgrTable>
      <p className="mgr-hint">{t('hub_goods_post_hint')}</p>
    </>
  );
}

/** The hub's open counts: this till's entries (typed or scanned) go into one, offline too. */
export function HubCountsSection({ api, t, lang }: Props) {
  const [view, setView] = useState<HubCountsView | null>(null);
  const [countId, setCountId] = useState('');
  const [code, setCode] = useState('');
  const [quantity, setQuantity] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const labels = { code: t('goods_code_or_barcode'), countId: t('hub_goods_count'), quantity: t('goods_counted') };
  const { fieldErrors, setFieldErrors, fail, errorProps } = useFieldErrors(labels, 'hub-count', (e) =>
    e.field === 'countId' || e.field === 'quantity' ? e.field : e.field ? 'code' : undefined,
  );
  const reload = async () => {
    const v = await call(api['hubGoods.counts']({}));
    setView(v);
    setCountId((c) => c || String(v.counts[0]?.id ?? ''));
  };
  useEffect(() => void run(reload), [api]); // eslint-disable-line react-hooks/exhaustive-deps
  const enter = () =>
    void run(async () => {
      setFieldErrors({});
      const typed = quantity.trim();
      const milli = typed ? parseQuantityInput(typed) : null;
      if (typed && milli === null) throw new Error(t('goods_number_needed', { field: labels.quantity }));
      const entry = await call(
        api['hubGoods.countEnter']({
          countId: Number(countId),
          code: code.trim(),
          ...(milli !== null ? { quantity: milli / 1000 } : {}),
        }),
      ).catch(fail);
      if (!entry) return;
      setNote(
        entry.state === 'sent'
          ? t('hub_goods_counted_at_hub', {
              name: entry.name ?? entry.code,
              sheet: formatQuantity(entry.sheetMilli ?? 0),
              total: formatQuantity(entry.countedMilli ?? 0),
            })
          : t('hub_goods_counted_queued', { code: entry.code }),
      );
      setCode('');
      setQuantity('');
      await reload();
    });
  const chosen = view?.counts.find((c) => String(c.id) === countId);
  const entries = (view?.entries ?? []).filter((e) => String(e.countId) === countId);
  return (
    <>
      <h3>{t('hub_goods_counts')}</h3>
      {view && !view.online && (
        <p role="status">
          {t('hub_goods_counts_offline', { at: view.counts[0] ? localTime(view.counts[0].seenAt, lang) : '—' })}
        </p>
      )}
      {view && view.counts.length === 0 && <p>{t('hub_goods_no_counts')}</p>}
      <RowForm onSubmit={enter} label={t('hub_goods_count_entry')}>
        <CheckedField label={labels.countId} error={fieldErrors.countId} errorId="hub-count-countId-error">
          <select value={countId} onChange={(e) => setCountId(e.target.value)} {...errorProps('countId')}>
            {(view?.counts ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {t('hub_goods_count_option', {
                  number: c.number,
                  scope: c.groups?.join(', ') ?? t('hub_goods_whole_shop'),
                })}
              </option>
            ))}
          </select>
        </CheckedField>
        <CheckedField label={labels.code} error={fieldErrors.code} errorId="hub-count-code-error">
          <input value={code} onChange={(e) => setCode(e.target.value)} size={14} {...errorProps('code')} />
        </CheckedField>
        <Field label={labels.quantity}>
          <input value={quantity} onChange={(e) => setQuantity(e.target.value)} size={6} inputMode="decimal" />
        </Field>
        <SubmitButton busy={busy} disabled={!chosen || !code.trim()}>
          {t('hub_goods_count_enter')}
        </SubmitButton>
      </RowForm>
      <p className="mgr-hint">{t('hub_goods_count_hint')}</p>
      <NoteAndAlert note={note} error={error} />
      {entries.length > 0 && (
        <ColumnTable
          label={t('hub_goods_entries')}
          rows={entries}
          rowKey={(e) => e.id}
          columns={[
            { header: t('goods_code'), names: true, cell: (e) => (e.name ? `${e.code} ${e.name}` : e.code) },
            { header: t('goods_counted'), num: true, cell: (e) => `${e.add ? '+' : ''}${formatQuantity(e.qtyMilli)}` },
            {
              header: t('hub_goods_state'),
              cell: (e) =>
                e.state === 'sent'
                  ? t('hub_goods_entry_sent')
                  : e.state === 'refused'
                    ? t('hub_goods_state_refused', { reason: e.refusal?.message ?? '' })
                    : t('hub_goods_state_queued'),
            },
            { header: t('hub_goods_sheet'), num: true, cell: (e) => quantityOrDash(e.sheetMilli) },
            { header: t('hub_goods_total'), num: true, cell: (e) => quantityOrDash(e.countedMilli) },
          ]}
        />
      )}
    </>
  );
}
