/**
 * The hub UI's Роба tab (docs/goods.md "At the hub"): the shop's stock with its value at retail and purchase price
 * (and every shop's value), the goods documents, transfers between shops (send, receive, print) and the KEP book
 * (CSV and A4 PDF). Everything through the hub's contract (api.ts).
 */
import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { formatQuantity, formatRsd } from '../../../shared/money.ts';
import { formatDay } from '../dates.ts';
import { dayIn } from '../../../shared/i18n/time.ts';
import type {
  HubGoodsDoc,
  HubGoodsFormData,
  HubKepView,
  HubShopIdentity,
  HubStockView,
  HubTransfer,
} from '../../../shared/hub/goods-protocol.ts';
import type { HubShop } from '../../../shared/hub/contract.ts';
import { isHubFile } from '../../../shared/hub/client.ts';
import { Alert, ListTable } from '../ui/forms.tsx';
import { KepBook, StockTable, ValueTable } from '../ui/goods-tables.tsx';
import { mt, type ManagerT } from '../manager/i18n.ts';
import { download, hubApi } from './api.ts';
import {
  PriceChangeForm,
  ReceiveTransferForm,
  ShopIdentityForm,
  SuppliersForm,
  WriteOffForm,
} from './HubGoodsForms.tsx';
import { HubCount } from './HubCount.tsx';
import { HubReceipts } from './HubReceipts.tsx';
import type { HubKey, HubLang, HubT } from './i18n.ts';
import { Options } from '../ui/Options.tsx';
import { DayField } from './DayField.tsx';
import { FileButtons } from './FileButtons.tsx';
import { useHubRead } from './useHubRead.ts';

const FIRST_OF_YEAR = (day: string): string => `${day.slice(0, 4)}-01-01`;

export function HubGoods(props: {
  t: HubT;
  lang: HubLang;
  token: string;
  /** A refusal in the user's language, naming the form's field by `labels` (HubApp.tsx `hubErrorText`). */
  errorText: (err: unknown, labels: Readonly<Record<string, string>>) => string;
}) {
  const { t, lang, token } = props;
  // Stable as long as the parent's function is (HubApp memoizes it): the effect below reads with it.
  const parentText = props.errorText;
  const errorText = useCallback(
    (err: unknown) =>
      parentText(err, { code: t('goodsCode'), qtyMilli: t('goodsQuantity'), toShopId: t('goodsToShop') }),
    [t, parentText],
  );
  const api = useMemo(() => hubApi(token), [token]);
  const mgrT: ManagerT = (key, params) => mt(lang, key, params);
  const today = dayIn(new Date());
  const [stock, setStock] = useState<HubStockView | null>(null);
  const [docs, setDocs] = useState<HubGoodsDoc[]>([]);
  const [transfers, setTransfers] = useState<HubTransfer[]>([]);
  const [shops, setShops] = useState<HubShop[]>([]);
  const [kep, setKep] = useState<HubKepView | null>(null);
  const [formData, setFormData] = useState<HubGoodsFormData>({ suppliers: [], taxRates: [], labels: [] });
  const [identity, setIdentity] = useState<HubShopIdentity | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The key, not the text: the note follows a change of language.
  const [note, setNote] = useState<HubKey | null>(null);
  const [from, setFrom] = useState(FIRST_OF_YEAR(today));
  const [to, setTo] = useState(today);
  const [send, setSend] = useState({ toShopId: '', code: '', quantity: '' });
  const [version, setVersion] = useState(0);

  const reread = useCallback(() => setVersion((v) => v + 1), []);
  useHubRead(
    () => {
      const a = hubApi(token);
      return Promise.all([
        a.call('goodsStock', {}),
        a.call('goodsDocs', { from: FIRST_OF_YEAR(today), to: today }),
        a.call('goodsTransfers', {}),
        a.call('shops'),
        a.call('goodsKep', { from, to, lang }),
        a.call('goodsFormData', {}),
        a.call('goodsShopIdentity', {}),
      ]);
    },
    ([s, d, tr, sh, k, fd, id]) => {
      setStock(s);
      setDocs(d.docs);
      setTransfers(tr.transfers);
      setShops(sh.shops);
      setKep(isHubFile(k) ? null : k);
      setFormData(fd);
      setIdentity(id);
    },
    (err) => setError(errorText(err)),
    [token, today, from, to, lang, version, errorText],
  );

  const act = (p: Promise<unknown>, done: HubKey) => {
    setError(null);
    setNote(null);
    p.then(() => {
      setNote(done);
      reread();
    }).catch((err: unknown) => setError(errorText(err)));
  };
  const sendTransfer = (e: FormEvent) => {
    e.preventDefault();
    const qty = Number(send.quantity.replace(',', '.'));
    act(
      api.call('goodsTransferSend', {
        toShopId: Number(send.toShopId),
        lines: [{ code: send.code.trim(), qtyMilli: Math.round(qty * 1000) }],
      }),
      'goodsTransferSent',
    );
  };
  const own = stock?.shopId ?? 0;
  const forms = { t, lang, api, changed: reread, text: errorText };
  const docKind = (k: HubGoodsDoc['kind']): string =>
    ({
      receipt: t('goodsDocReceipt'),
      writeoff: t('goodsDocWriteOff'),
      price_change: t('goodsDocPriceChange'),
      transfer_out: t('goodsDocTransferOut'),
      transfer_in: t('goodsDocTransferIn'),
      count: t('goodsDocCount'),
      reversal: t('goodsDocReversal'),
      opening: t('goodsDocOpening'),
    })[k];

  return (
    <section aria-label={t('goods')} className="mgr-tab">
      <Alert text={error} />
      {note && <p role="status">{t(note)}</p>}
      <h2>{t('goodsStock')}</h2>
      {stock && (
        <ValueTable
          label={t('goodsByShop')}
          headers={[t('goodsShop'), t('goodsRetailValue'), t('goodsPurchaseValue')]}
          rows={stock.byShop.map((s) => ({ ...s, key: s.shopId }))}
        />
      )}
      {stock && stock.rows.length === 0 && <p>{t('goodsNoStock')}</p>}
      {stock && stock.rows.length > 0 && (
        <StockTable
          label={t('goodsStock')}
          headers={[
            t('goodsCode'),
            t('goodsName'),
            t('goodsQuantity'),
            t('goodsPrice'),
            t('goodsRetailValue'),
            t('goodsPurchaseValue'),
          ]}
          rows={stock.rows.map((r) => ({ ...r, quantityMilli: r.qtyMilli }))}
        />
      )}

      <h2>{t('goodsDocsForms')}</h2>
      <HubReceipts {...forms} data={formData} />
      <WriteOffForm {...forms} />
      <PriceChangeForm {...forms} />

      <HubCount lang={lang} token={token} errorText={parentText} changed={reread} />

      <h2>{t('goodsTransfers')}</h2>
      <form onSubmit={sendTransfer} className="mgr-row mgr-top" aria-label={t('goodsTransferSend')}>
        <label>
          {t('goodsToShop')}
          <select value={send.toShopId} onChange={(e) => setSend({ ...send, toShopId: e.target.value })} required>
            <option value="">—</option>
            <Options of={shops.filter((s) => s.id !== own)} value={(s) => s.id} text={(s) => s.name} />
          </select>
        </label>
        <label>
          {t('goodsCode')}
          <input value={send.code} onChange={(e) => setSend({ ...send, code: e.target.value })} required />
        </label>
        <label>
          {t('goodsQuantity')}
          <input
            inputMode="decimal"
            value={send.quantity}
            onChange={(e) => setSend({ ...send, quantity: e.target.value })}
            required
          />
        </label>
        <button type="submit">{t('goodsTransferSend')}</button>
      </form>
      <ListTable
        none={t('goodsNoTransfers')}
        count={transfers.length}
        label={t('goodsTransfers')}
        headers={[t('goodsNumber'), t('goodsFrom'), t('goodsTo'), t('goodsLines'), t('goodsState'), '']}
      >
        {transfers.map((tr) => (
          <tr key={tr.id}>
            <td>{tr.number}</td>
            <td>{tr.fromShop}</td>
            <td>{tr.toShop}</td>
            <td>
              {tr.lines
                .map(
                  (l) =>
                    `${l.name} ${formatQuantity(l.sentMilli)}` +
                    (l.receivedMilli !== null && l.receivedMilli !== l.sentMilli
                      ? ` (${t('goodsReceivedShort')} ${formatQuantity(l.receivedMilli)})`
                      : ''),
                )
                .join(', ')}
            </td>
            <td>{tr.receivedAt ? t('goodsReceived', { number: tr.receivedNumber ?? '' }) : t('goodsInTransit')}</td>
            <td>
              {!tr.receivedAt && tr.toShopId === own && (
                <button
                  type="button"
                  onClick={() =>
                    act(api.call('goodsTransferReceive', { transferId: tr.id, received: [] }), 'goodsTransferDone')
                  }
                >
                  {t('goodsReceiveAsSent', { number: tr.number })}
                </button>
              )}
              <button
                type="button"
                onClick={() =>
                  api
                    .call('goodsTransferPdf', { transferId: tr.id, lang })
                    .then((f) => download(f, `prenos-${tr.id}.pdf`))
                    .catch((err: unknown) => setError(errorText(err)))
                }
              >
                {t('goodsPdfOf', { number: tr.number })}
              </button>
            </td>
          </tr>
        ))}
      </ListTable>

      {transfers
        .filter((tr) => !tr.receivedAt && tr.toShopId === own)
        .map((tr) => (
          <ReceiveTransferForm key={tr.id} {...forms} transfer={tr} />
        ))}

      <h2>{t('goodsDocs')}</h2>
      <ListTable
        none={t('goodsNoDocs')}
        count={docs.length}
        scroll
        label={t('goodsDocs')}
        headers={[t('goodsNumber'), t('goodsKind'), t('goodsDay'), t('goodsValue')]}
      >
        {docs.map((d) => (
          <tr key={d.id}>
            <td>{d.number}</td>
            <td>{docKind(d.kind)}</td>
            <td>{formatDay(d.day, lang)}</td>
            <td className="mgr-num">{formatRsd(d.valuePara)}</td>
          </tr>
        ))}
      </ListTable>

      <h2>{t('goodsKep')}</h2>
      <div className="mgr-row mgr-top">
        <DayField lang={lang} label={t('goodsFromDay')} value={from} onChange={setFrom} />
        <DayField lang={lang} label={t('goodsToDay')} value={to} onChange={setTo} />
        <FileButtons
          kinds={['csv', 'pdf'] as const}
          label={(format) => (format === 'csv' ? t('goodsKepCsv') : t('goodsKepPdf'))}
          get={(format) => api.call('goodsKep', { from, to, lang, format })}
          name={(format) => `KEP-${from}-${to}.${format}`}
          fail={(err) => setError(errorText(err))}
        />
      </div>
      {kep?.late && kep.late.length > 0 && (
        // Days not entered in the KEP by the next day (Pravilnik o evidenciji prometa): drafts of an earlier invoice.
        <section aria-label={mgrT('kep_late_title')} className="mgr-top">
          <h3>{mgrT('kep_late_title')}</h3>
          <ul className="mgr-list">
            {kep.late.map((d) => (
              <li key={d.day} className="mgr-attention">
                {t('kepLateDay', { day: formatDay(d.day, lang), drafts: String(d.draftReceipts) })}
              </li>
            ))}
          </ul>
        </section>
      )}
      {kep && (
        <KepBook
          kep={kep}
          summary={(amounts) => t('goodsKepBalance', amounts)}
          label={t('goodsKep')}
          headers={[
            t('goodsNumber'),
            t('goodsDay'),
            t('goodsDescription'),
            t('goodsDebit'),
            t('goodsCredit'),
            t('goodsBalance'),
          ]}
          lang={lang}
        />
      )}
      <h2>{t('gfSuppliers')}</h2>
      <SuppliersForm {...forms} suppliers={formData.suppliers} />
      {identity && <ShopIdentityForm key={`${identity.pib}|${identity.address}`} {...forms} identity={identity} />}
    </section>
  );
}
