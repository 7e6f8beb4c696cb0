/**
 * The hub UI's goods receipts, minimums and reorder list (docs/goods.md "At the hub"): the receipt form (a new
 * receipt, or a draft opened from the list), the drafts (edit, post, delete), the posted receipts and reversals
 * („Сторно“, each one's A4 PDF), the shop's minimums per product and the reorder list per supplier (CSV and A4 PDF).
 * Every control is named by its words; a refusal is said in the user's language.
 */
import { useState, type FormEvent } from 'react';
import { formatQuantity, formatRsd, parseQuantityInput } from '../../../shared/money.ts';
import { kepDate } from '../../../shared/i18n/goods.ts';
import type { ReorderView } from '../../../shared/contract/goods.ts';
import type { HubGoodsFormData, HubMinimum, HubReceipt } from '../../../shared/hub/goods-protocol.ts';
import { isHubFile } from '../../../shared/hub/client.ts';
import { ListTable, MgrTable, NoteAndAlert } from '../ui/forms.tsx';
import { download, type HubUiApi } from './api.ts';
import { ReceiptForm, refusalText, TextField } from './HubGoodsForms.tsx';
import { FileButtons } from './FileButtons.tsx';
import { useHubRead } from './useHubRead.ts';
import type { HubKey, HubLang, HubT } from './i18n.ts';

interface Props {
  t: HubT;
  lang: HubLang;
  api: HubUiApi;
  data: HubGoodsFormData;
  /** Everything changed: the tab reads stock, documents and the KEP again. */
  changed: () => void;
  text: (err: unknown) => string;
}

type Note = readonly [HubKey, Record<string, string>] | null;

export function HubReceipts(props: Props) {
  const { t, lang, api } = props;
  const text = props.text;
  const [receipts, setReceipts] = useState<HubReceipt[]>([]);
  const [editing, setEditing] = useState<HubReceipt | null>(null);
  const [version, setVersion] = useState(0);
  const [note, setNote] = useState<Note>(null);
  const [error, setError] = useState<string | null>(null);
  useHubRead(
    () => api.call('goodsReceipts', {}),
    (r) => setReceipts(r.receipts),
    (err) => setError(text(err)),
    [api, version, text],
  );
  const changed = () => {
    setVersion((v) => v + 1);
    props.changed();
  };
  const act = (p: Promise<unknown>, done: Note) => {
    setNote(null);
    setError(null);
    p.then(() => {
      setNote(done);
      changed();
    }).catch((err: unknown) => setError(refusalText(t, err, props.text)));
  };
  const pdf = (r: HubReceipt) =>
    api
      .call('goodsReceiptPdf', { id: r.id, lang })
      .then((f) => download(f, `kalkulacija-${r.id}.pdf`))
      .catch((err: unknown) => setError(refusalText(t, err, props.text)));
  const drafts = receipts.filter((r) => r.state === 'draft');
  const posted = receipts.filter((r) => r.state !== 'draft');
  const stateText = (r: HubReceipt): string =>
    r.kind === 'reversal'
      ? t('rcReversalOf', { number: r.reversesNumber ?? '' })
      : r.state === 'reversed'
        ? t('rcReversedBy', { number: r.reversedBy ?? '' })
        : t('rcPosted');

  // A draft's button shows its short word and is named in full, with the draft's invoice.
  const draftButton = (r: HubReceipt, name: HubKey, short: HubKey, onClick: () => void) => (
    <button type="button" aria-label={t(name, { invoice: r.invoiceNumber })} onClick={onClick}>
      {t(short)}
    </button>
  );
  return (
    <>
      <ReceiptForm
        key={editing?.id ?? 'new'}
        t={t}
        lang={lang}
        api={api}
        data={props.data}
        changed={changed}
        text={props.text}
        draft={editing}
        onDraftDone={() => setEditing(null)}
      />
      <NoteAndAlert note={note ? t(note[0], note[1]) : null} error={error} />
      <h3>{t('rcDrafts')}</h3>
      <ListTable
        none={t('rcNoDrafts')}
        count={drafts.length}
        label={t('rcDrafts')}
        headers={[t('gfSupplier'), t('gfInvoiceNumber'), t('gfInvoiceDate'), t('goodsLines'), t('rcPurchase'), '']}
      >
        {drafts.map((r) => (
          <tr key={r.id}>
            <td>{r.supplier}</td>
            <td>{r.invoiceNumber}</td>
            <td>{r.invoiceDate ? kepDate(r.invoiceDate, lang) : ''}</td>
            <td className="mgr-num">{r.lineCount}</td>
            <td className="mgr-num">{formatRsd(r.valuePara)}</td>
            <td>
              {draftButton(r, 'rcEdit', 'rcEditShort', () => setEditing(r))}
              {draftButton(r, 'rcPost', 'rcPostShort', () =>
                act(
                  api.call('goodsReceiptDraftPost', { id: r.id }).then((doc) => {
                    if (editing?.id === r.id) setEditing(null);
                    return doc;
                  }),
                  ['rcDraftPosted', { invoice: r.invoiceNumber }],
                ),
              )}
              {draftButton(r, 'rcDelete', 'rcDeleteShort', () =>
                act(api.call('goodsReceiptDraftDelete', { id: r.id }), [
                  'rcDraftDeleted',
                  { invoice: r.invoiceNumber },
                ]),
              )}
            </td>
          </tr>
        ))}
      </ListTable>
      <h3>{t('rcPostedList')}</h3>
      <ListTable
        none={t('rcNoPosted')}
        count={posted.length}
        scroll
        label={t('rcPostedList')}
        headers={[
          t('goodsNumber'),
          t('gfSupplier'),
          t('gfInvoiceNumber'),
          t('gfInvoiceDate'),
          t('goodsValue'),
          t('goodsState'),
          '',
        ]}
      >
        {posted.map((r) => (
          <tr key={r.id}>
            <td>{r.number}</td>
            <td>{r.supplier}</td>
            <td>{r.invoiceNumber}</td>
            <td>{r.invoiceDate ? kepDate(r.invoiceDate, lang) : ''}</td>
            <td className="mgr-num">{formatRsd(r.valuePara)}</td>
            <td>{stateText(r)}</td>
            <td>
              {r.kind === 'receipt' && r.state === 'posted' && (
                <button
                  type="button"
                  aria-label={t('rcReverseOf', { number: r.number ?? '' })}
                  onClick={() =>
                    act(api.call('goodsReceiptReverse', { id: r.id }), ['rcReversed', { number: r.number ?? '' }])
                  }
                >
                  {t('rcReverse')}
                </button>
              )}
              <button
                type="button"
                aria-label={t(r.kind === 'reversal' ? 'rcPdfOfReversal' : 'rcPdfOf', { number: r.number ?? '' })}
                onClick={() => void pdf(r)}
              >
                PDF
              </button>
            </td>
          </tr>
        ))}
      </ListTable>
      <Minimums {...props} version={version} />
    </>
  );
}

/** The shop's minimums per product and the reorder list per supplier (CSV and A4 PDF). */
function Minimums(props: Props & { version: number }) {
  const { t, lang, api } = props;
  const text = props.text;
  const [minimums, setMinimums] = useState<HubMinimum[]>([]);
  const [reorder, setReorder] = useState<ReorderView | null>(null);
  const [code, setCode] = useState('');
  const [minimum, setMinimum] = useState('');
  const [errors, setErrors] = useState<{ code?: string; minMilli?: string; form?: string }>({});
  const [saved, setSaved] = useState(0);
  useHubRead(
    () => Promise.all([api.call('goodsMinimums', {}), api.call('goodsReorder', { lang })]),
    ([m, r]) => {
      setMinimums(m.minimums);
      setReorder(isHubFile(r) ? null : r);
    },
    (err) => setErrors({ form: text(err) }),
    [api, lang, saved, props.version, text],
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const qty = parseQuantityInput(minimum);
    const bad: typeof errors = {};
    if (code.trim() === '') bad.code = t('gfErrRequired');
    if (qty === null || qty < 0) bad.minMilli = t('rcErrMinimum');
    setErrors(bad);
    if (Object.keys(bad).length > 0 || qty === null) return;
    api
      .call('goodsMinimumSet', { code: code.trim(), minMilli: qty })
      .then(() => {
        setCode('');
        setMinimum('');
        setSaved((v) => v + 1);
      })
      .catch((err: unknown) => {
        const text = refusalText(t, err, props.text);
        const field = (err as { field?: string }).field;
        setErrors(
          field === 'code' ? { code: text } : field === 'minMilli' ? { minMilli: t('rcErrMinimum') } : { form: text },
        );
      });
  };

  return (
    <>
      <h3>{t('rcMinimums')}</h3>
      <form aria-label={t('rcMinimumSet')} className="mgr-row mgr-top" onSubmit={submit} noValidate>
        <TextField id="rc-min-code" label={t('goodsCode')} value={code} error={errors.code} onChange={setCode} />
        <TextField
          id="rc-min-qty"
          label={t('rcMinimum')}
          value={minimum}
          inputMode="decimal"
          error={errors.minMilli}
          onChange={setMinimum}
        />
        <button type="submit">{t('rcMinimumSet')}</button>
      </form>
      <NoteAndAlert note={null} error={errors.form ?? null} />
      {minimums.length > 0 && (
        <MgrTable label={t('rcMinimums')} headers={[t('goodsCode'), t('rcName'), t('rcMinimum')]}>
          {minimums.map((m) => (
            <tr key={m.code}>
              <td>{m.code}</td>
              <td>{m.name}</td>
              <td className="mgr-num">{formatQuantity(m.minMilli)}</td>
            </tr>
          ))}
        </MgrTable>
      )}
      <h3>{t('rcReorder')}</h3>
      <div className="mgr-row">
        <FileButtons
          kinds={['csv', 'pdf'] as const}
          label={(format) => (format === 'csv' ? t('rcReorderCsv') : t('rcReorderPdf'))}
          get={(format) => api.call('goodsReorder', { lang, format })}
          name={(format) => `narucivanje.${format}`}
          fail={(err) => setErrors({ form: props.text(err) })}
        />
      </div>
      {reorder && (
        <ListTable
          none={t('rcNothingToOrder')}
          count={reorder.suppliers.length}
          label={t('rcReorder')}
          headers={[t('gfSupplier'), t('goodsCode'), t('rcName'), t('rcOnHand'), t('rcMinimum'), t('rcToOrder')]}
        >
          {reorder.suppliers.flatMap((g) =>
            g.items.map((i) => (
              <tr key={`${g.supplier?.pib ?? ''}-${i.code}`}>
                <td>{g.supplier ? `${g.supplier.name} (${g.supplier.pib})` : t('rcNoSupplier')}</td>
                <td>{i.code}</td>
                <td>{i.name}</td>
                <td className="mgr-num">{formatQuantity(i.onHandMilli)}</td>
                <td className="mgr-num">{formatQuantity(i.minimumMilli)}</td>
                <td className="mgr-num">{formatQuantity(i.orderMilli)}</td>
              </tr>
            )),
          )}
        </ListTable>
      )}
    </>
  );
}
