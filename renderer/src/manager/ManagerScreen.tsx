/**
 * The manager's screens over the counter: refunds, advances, archive (detail, fiscal copy, e-mail,
 * lookup), staff, settings (API key: entered, never shown), report and audit log. Opened with the
 * "Менаџер" button or F11; while open, the counter's keyboard shortcuts are held back.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import QRCode from 'qrcode';
import type { AppError, PosApi, Result } from '../../../shared/contract/index.ts';
import type {
  AccountView,
  ArchiveDetail,
  BackupsView,
  ArchiveRow,
  AuditEntry,
  LookupRow,
  RefundSource,
  ReportView,
  SettingsView,
  StaffView,
} from '../../../shared/contract/manager.ts';
import {
  isPrinterDevicePath,
  parsePrinterUri,
  type PrintStatus,
  type PrinterProfileView,
} from '../../../shared/contract/printer.ts';
import { PAYMENT_TYPES, type Language, type OrderView, type PaymentType } from '../../../shared/domain.ts';
import { message } from '../../../shared/messages.ts';
import { explainGatewayError } from '../../../shared/gateway-errors.ts';
import { formatQuantity, formatRsd, milliToDecimal, parseQuantityInput } from '../../../shared/money.ts';
import { usePos } from '../context.ts';
import { Modal } from '../components/Modal.tsx';
import { mt, type ManagerText } from './i18n.ts';
import './manager.css';

type T = (key: ManagerText, params?: Record<string, string | number>) => string;
type Tab = 'refund' | 'advances' | 'archive' | 'attention' | 'staff' | 'settings' | 'reports' | 'audit';
const TABS: Tab[] = ['refund', 'advances', 'archive', 'attention', 'staff', 'settings', 'reports', 'audit'];
const isTab = (v: string | null): v is Tab => (TABS as string[]).includes(v ?? '');

const PAYMENT_NAMES: Record<Language, Partial<Record<PaymentType, string>>> = {
  'sr-Cyrl': { cash: 'Готовина', card: 'Картица', wireTransfer: 'Пренос на рачун', voucher: 'Ваучер', other: 'Друго' },
  'sr-Latn': { cash: 'Gotovina', card: 'Kartica', wireTransfer: 'Prenos na račun', voucher: 'Vaučer', other: 'Drugo' },
  en: { cash: 'Cash', card: 'Card', wireTransfer: 'Wire transfer', voucher: 'Voucher', other: 'Other' },
};

/** Unwraps a command result: the value, or throws the AppError's message (shown by the caller). */
async function call<V>(p: Promise<Result<V>>): Promise<V> {
  const r = await p;
  if (!r.ok) throw r.error;
  return r.value;
}

function errorText(err: unknown): string {
  const e = err as Partial<AppError>;
  return typeof e.message === 'string' ? e.message : String(err);
}

/** Runs an action, keeping its error text for an alert. */
function useAction(): [string | null, boolean, (fn: () => Promise<void>) => Promise<void>] {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return [error, busy, run];
}

function Alert(props: { text: string | null }) {
  return props.text ? (
    <p role="alert" className="mgr-error">
      {props.text}
    </p>
  ) : null;
}

function Field(props: { label: string; children: ReactNode }) {
  return (
    <label className="mgr-field">
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

function PaymentSelect(props: {
  lang: Language;
  label: string;
  value: PaymentType;
  onChange: (v: PaymentType) => void;
}) {
  return (
    <Field label={props.label}>
      <select value={props.value} onChange={(e) => props.onChange(e.target.value as PaymentType)}>
        {PAYMENT_TYPES.map((p) => (
          <option key={p} value={p}>
            {PAYMENT_NAMES[props.lang][p] ?? p}
          </option>
        ))}
      </select>
    </Field>
  );
}

function PinInput(props: { t: T; value: string; onChange: (v: string) => void; label?: string }) {
  return (
    <Field label={props.label ?? props.t('manager_pin')}>
      <input
        type="password"
        inputMode="numeric"
        autoComplete="off"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </Field>
  );
}

/** An order's state and, when the gateway complained, the explanation a manager understands. */
export function OrderResult(props: { t: T; lang: Language; order: OrderView }) {
  const { t, lang, order } = props;
  const stateKey = `state_${order.state}` as ManagerText;
  return (
    <section className="mgr-result" aria-label={t('result')}>
      <p>
        <strong data-testid="mgr-result-state">{t(stateKey)}</strong> · {t('order')} {order.orderNumber} · {t('total')}{' '}
        {formatRsd(order.totalPara)}
      </p>
      {order.receipt && <p data-testid="mgr-result-invoice">{order.receipt.invoiceNumber}</p>}
      {order.state === 'queued' && (
        <p role="status">
          {order.referencedOrderId && !order.referentDocumentNumber ? t('waits_for') : t('queued_offline')}
        </p>
      )}
      {order.lastError && (
        <div role="alert" className="mgr-error">
          <p>{explainGatewayError(order.lastError, lang).title}</p>
          <p>{explainGatewayError(order.lastError, lang).action}</p>
        </div>
      )}
      {[order.receipt, ...(order.extraReceipts ?? [])].map((r) =>
        r ? (
          <pre key={r.invoiceNumber} className="mgr-journal" aria-label={`${t('journal')} ${r.invoiceNumber}`}>
            {r.journal}
          </pre>
        ) : null,
      )}
    </section>
  );
}

// ---- refunds ----------------------------------------------------------------------------------

function RefundTab(props: { api: PosApi; t: T; lang: Language }) {
  const { api, t, lang } = props;
  const [recent, setRecent] = useState<OrderView[]>([]);
  const [query, setQuery] = useState('');
  const [source, setSource] = useState<RefundSource | null>(null);
  const [qty, setQty] = useState<Record<number, string>>({});
  const [full, setFull] = useState(false);
  const [buyerId, setBuyerId] = useState('');
  const [skipBuyer, setSkipBuyer] = useState(false);
  const [payment, setPayment] = useState<PaymentType>('cash');
  const [pin, setPin] = useState('');
  const [result, setResult] = useState<OrderView | null>(null);
  const [error, busy, run] = useAction();

  useEffect(() => {
    void api['orders.list']({ limit: 30 }).then((r) => {
      if (r.ok) setRecent(r.value.orders.filter((o) => o.kind === 'sale' && o.state !== 'needs_attention'));
    });
  }, [api]);

  const load = (q: { orderId?: number; invoiceNumber?: string }) =>
    run(async () => {
      setResult(null);
      setQty({});
      setFull(false);
      setSource(await call(api['refunds.source'](q)));
    });

  const find = async (e: FormEvent) => {
    e.preventDefault();
    const text = query.trim();
    if (/^[^-\s]+-[^-\s]+-\d+$/.test(text) && !recent.some((o) => o.orderNumber === text))
      return load({ invoiceNumber: text });
    const local = recent.find((o) => o.orderNumber === text);
    if (local) return load({ orderId: local.orderId });
    await run(async () => {
      const found = await call(api['archive.search']({ source: 'local', orderNumber: text, limit: 1 }));
      const row = found.rows[0];
      if (row?.orderId) setSource(await call(api['refunds.source']({ orderId: row.orderId })));
      else setSource(await call(api['refunds.source']({ invoiceNumber: text })));
    });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!source) return;
    void run(async () => {
      const lines = Object.entries(qty)
        .map(([index, text]) => ({ index: Number(index), milli: parseQuantityInput(text) }))
        .filter((l) => l.milli !== null && l.milli !== 0)
        .map((l) => ({ index: l.index, quantity: milliToDecimal(l.milli as number) }));
      const order = await call(
        api['refunds.create']({
          managerPin: pin,
          ...(source.orderId !== undefined
            ? { orderId: source.orderId }
            : { invoiceNumber: source.invoiceNumber ?? '' }),
          ...(full ? { full: true } : { lines }),
          ...(buyerId.trim() ? { buyerId: buyerId.trim() } : {}),
          ...(skipBuyer ? { skipBuyerId: true } : {}),
          paymentType: payment,
        }),
      );
      setResult(order);
      setPin('');
    });
  };

  return (
    <div className="mgr-tab">
      <form onSubmit={(e) => void find(e)} className="mgr-row">
        <Field label={t('recent')}>
          <select
            value=""
            onChange={(e) => {
              const id = Number(e.target.value);
              if (id) void load({ orderId: id });
            }}
          >
            <option value="">{t('choose')}</option>
            {recent.map((o) => (
              <option key={o.orderId} value={o.orderId}>
                {o.orderNumber} · {formatRsd(o.totalPara)} · {t(`state_${o.state}` as ManagerText)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('original')}>
          <input value={query} onChange={(e) => setQuery(e.target.value)} />
        </Field>
        <button type="submit" disabled={busy}>
          {t('find')}
        </button>
      </form>
      {source && (
        <form onSubmit={submit}>
          <p>
            {source.orderNumber ?? ''} {source.invoiceNumber ?? ''} · {t(`state_${source.state}` as ManagerText)} ·{' '}
            {formatRsd(source.totalPara)}
          </p>
          {source.lines.length > 0 && (
            <table aria-label={t('lines')} className="mgr-table">
              <thead>
                <tr>
                  <th>{t('col_item')}</th>
                  <th>{t('col_sold')}</th>
                  <th>{t('col_refunded')}</th>
                  <th>{t('col_left')}</th>
                  <th>{t('col_qty')}</th>
                </tr>
              </thead>
              <tbody>
                {source.lines.map((l) => (
                  <tr key={l.index}>
                    <td>{l.name}</td>
                    <td>{formatQuantity(l.soldMilli)}</td>
                    <td>{formatQuantity(l.refundedMilli)}</td>
                    <td>{formatQuantity(l.remainingMilli)}</td>
                    <td>
                      <input
                        aria-label={t('qty_for', { name: l.name })}
                        inputMode="decimal"
                        disabled={full}
                        value={qty[l.index] ?? ''}
                        onChange={(e) => setQty({ ...qty, [l.index]: e.target.value })}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <label className="check">
            <input
              type="checkbox"
              checked={full}
              disabled={!source.fullRefundAllowed}
              onChange={(e) => setFull(e.target.checked)}
            />{' '}
            {t('full')}
          </label>
          <div className="mgr-row">
            <Field label={t('buyer_id')}>
              <input value={buyerId} disabled={skipBuyer} onChange={(e) => setBuyerId(e.target.value)} />
            </Field>
            <label className="check">
              <input type="checkbox" checked={skipBuyer} onChange={(e) => setSkipBuyer(e.target.checked)} />{' '}
              {t('skip_buyer')}
            </label>
            <PaymentSelect lang={lang} label={t('refund_payment')} value={payment} onChange={setPayment} />
            <PinInput t={t} value={pin} onChange={setPin} />
            <button type="submit" disabled={busy}>
              {t('do_refund')}
            </button>
          </div>
        </form>
      )}
      <Alert text={error} />
      {result && <OrderResult t={t} lang={lang} order={result} />}
    </div>
  );
}

// ---- advances ---------------------------------------------------------------------------------

function AdvancesTab(props: { api: PosApi; t: T; lang: Language }) {
  const { api, t, lang } = props;
  const [open, setOpen] = useState<OrderView[]>([]);
  const [payment, setPayment] = useState<PaymentType>('cash');
  const [result, setResult] = useState<OrderView | null>(null);
  const [error, busy, run] = useAction();
  const reload = () => run(async () => setOpen((await call(api['advances.list']({}))).advances));
  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="mgr-tab">
      <h3>{t('advances_open')}</h3>
      <PaymentSelect lang={lang} label={t('final_payment')} value={payment} onChange={setPayment} />
      {open.length === 0 && <p>{t('none')}</p>}
      <ul className="mgr-list">
        {open.map((a) => (
          <li key={a.orderId}>
            {a.orderNumber} · {formatRsd(a.totalPara)} · {t(`state_${a.state}` as ManagerText)}{' '}
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  setResult(await call(api['advances.finalize']({ orderId: a.orderId, paymentType: payment })));
                  setOpen((await call(api['advances.list']({}))).advances);
                })
              }
            >
              {t('finalize', { order: a.orderNumber })}
            </button>
          </li>
        ))}
      </ul>
      <Alert text={error} />
      {result && <OrderResult t={t} lang={lang} order={result} />}
    </div>
  );
}

// ---- archive ----------------------------------------------------------------------------------

function Qr(props: { url: string; label: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (ref.current && props.url)
      void QRCode.toCanvas(ref.current, props.url, { margin: 4, scale: 3 }).catch(() => undefined);
  }, [props.url]);
  return <canvas ref={ref} role="img" aria-label={props.label} />;
}

function ReceiptDetail(props: { api: PosApi; t: T; lang: Language; detail: ArchiveDetail }) {
  const { api, t, lang, detail } = props;
  const [email, setEmail] = useState('');
  const [cc, setCc] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [copy, setCopy] = useState<OrderView | null>(null);
  const [error, busy, run] = useAction();
  const r = detail.receipt;
  return (
    <section className="mgr-detail" aria-label={t('receipt', { invoice: r.invoiceNumber })}>
      <h3>{t('receipt', { invoice: r.invoiceNumber })}</h3>
      <div className="mgr-row">
        <pre className="mgr-journal" aria-label={t('journal')}>
          {r.journal}
        </pre>
        <Qr url={r.verificationUrl} label={t('qr')} />
      </div>
      {detail.chain.length > 1 && (
        <ul className="mgr-list">
          {detail.chain.map((c) => (
            <li key={c.invoiceNumber}>
              {c.invoiceNumber} · {c.invoiceType}/{c.transactionType} · {formatRsd(c.totalPara)}
            </li>
          ))}
        </ul>
      )}
      <div className="mgr-row">
        {detail.orderId !== undefined && (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              void run(async () => setCopy(await call(api['copies.create']({ orderId: detail.orderId as number }))))
            }
          >
            {t('copy')}
          </button>
        )}
      </div>
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const ccList = cc.split(/[,;\s]+/).filter(Boolean);
            const res = await call(
              api['emails.send']({
                invoiceNumber: r.invoiceNumber,
                email: email.trim(),
                ...(ccList.length ? { cc: ccList } : {}),
              }),
            );
            setNote(res.state === 'sent' ? t('email_sent') : t('email_queued'));
          });
        }}
      >
        <Field label={t('email')}>
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label={t('cc')}>
          <input value={cc} onChange={(e) => setCc(e.target.value)} />
        </Field>
        <button type="submit" disabled={busy}>
          {t('send_email')}
        </button>
      </form>
      {note && <p role="status">{note}</p>}
      <Alert text={error} />
      {copy && <OrderResult t={t} lang={lang} order={copy} />}
    </section>
  );
}

function ArchiveTab(props: { api: PosApi; t: T; lang: Language }) {
  const { api, t, lang } = props;
  const [source, setSource] = useState<'local' | 'gateway'>('local');
  const [filters, setFilters] = useState({
    orderNumber: '',
    invoiceNumber: '',
    startDate: '',
    endDate: '',
    invoiceType: '',
    paymentType: '',
  });
  const [page, setPage] = useState(1);
  const [res, setRes] = useState<{ rows: ArchiveRow[]; page: number; pages: number } | null>(null);
  const [detail, setDetail] = useState<ArchiveDetail | null>(null);
  const [numbers, setNumbers] = useState('');
  const [lookup, setLookup] = useState<LookupRow[] | null>(null);
  const [error, busy, run] = useAction();
  const search = (p: number) =>
    run(async () => {
      setDetail(null);
      const q = {
        source,
        page: p,
        limit: 20,
        ...(filters.orderNumber ? { orderNumber: filters.orderNumber } : {}),
        ...(filters.invoiceNumber ? { invoiceNumber: filters.invoiceNumber } : {}),
        ...(filters.startDate ? { startDate: new Date(`${filters.startDate}T00:00:00`).toISOString() } : {}),
        ...(filters.endDate ? { endDate: new Date(`${filters.endDate}T23:59:59`).toISOString() } : {}),
        ...(filters.invoiceType ? { invoiceType: filters.invoiceType as 'normal' } : {}),
        ...(filters.paymentType ? { paymentType: filters.paymentType as PaymentType } : {}),
      };
      setRes(await call(api['archive.search'](q)));
      setPage(p);
    });
  useEffect(() => {
    void search(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const set = (k: keyof typeof filters) => (e: { target: { value: string } }) =>
    setFilters({ ...filters, [k]: e.target.value });
  return (
    <div className="mgr-tab">
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void search(1);
        }}
      >
        <Field label={t('source')}>
          <select value={source} onChange={(e) => setSource(e.target.value as 'local' | 'gateway')}>
            <option value="local">{t('source_local')}</option>
            <option value="gateway">{t('source_gateway')}</option>
          </select>
        </Field>
        <Field label={t('order_number')}>
          <input value={filters.orderNumber} onChange={set('orderNumber')} />
        </Field>
        <Field label={t('invoice')}>
          <input value={filters.invoiceNumber} onChange={set('invoiceNumber')} />
        </Field>
        <Field label={t('date_from')}>
          <input type="date" value={filters.startDate} onChange={set('startDate')} />
        </Field>
        <Field label={t('date_to')}>
          <input type="date" value={filters.endDate} onChange={set('endDate')} />
        </Field>
        <Field label={t('invoice_type')}>
          <select value={filters.invoiceType} onChange={set('invoiceType')}>
            <option value="">{t('any')}</option>
            {['normal', 'advance', 'copy', 'training', 'proforma'].map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('payment_type')}>
          <select value={filters.paymentType} onChange={set('paymentType')}>
            <option value="">{t('any')}</option>
            {PAYMENT_TYPES.map((p) => (
              <option key={p} value={p}>
                {PAYMENT_NAMES[lang][p] ?? p}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" disabled={busy}>
          {t('search')}
        </button>
      </form>
      {res && (
        <>
          <table className="mgr-table" aria-label={t('tab_archive')}>
            <thead>
              <tr>
                <th>{t('order')}</th>
                <th>{t('invoice')}</th>
                <th>{t('invoice_type')}</th>
                <th>{t('total')}</th>
                <th>{t('state')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {res.rows.map((r) => (
                <tr key={`${r.source}-${r.orderId ?? r.invoiceNumber ?? r.orderNumber}`}>
                  <td>{r.orderNumber}</td>
                  <td>{r.invoiceNumber ?? '—'}</td>
                  <td>
                    {r.invoiceType}/{r.transactionType}
                  </td>
                  <td>{formatRsd(r.totalPara)}</td>
                  <td>{t(`state_${r.state}` as ManagerText)}</td>
                  <td>
                    {r.invoiceNumber && (
                      <button
                        type="button"
                        onClick={() =>
                          void run(async () =>
                            setDetail(await call(api['archive.get']({ invoiceNumber: r.invoiceNumber as string }))),
                          )
                        }
                      >
                        {t('details', { order: r.orderNumber })}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="mgr-row">
            <button type="button" disabled={page <= 1 || busy} onClick={() => void search(page - 1)}>
              {t('prev')}
            </button>
            <span>{t('page', { page: res.page, pages: res.pages })}</span>
            <button type="button" disabled={page >= res.pages || busy} onClick={() => void search(page + 1)}>
              {t('next')}
            </button>
          </div>
        </>
      )}
      <Alert text={error} />
      {detail && <ReceiptDetail api={api} t={t} lang={lang} detail={detail} />}
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          const list = numbers.split(/\s+/).filter(Boolean);
          if (list.length)
            void run(async () => setLookup((await call(api['archive.lookup']({ orderNumbers: list }))).records));
        }}
      >
        <Field label={t('lookup_numbers')}>
          <textarea rows={2} value={numbers} onChange={(e) => setNumbers(e.target.value)} />
        </Field>
        <button type="submit" disabled={busy}>
          {t('lookup')}
        </button>
      </form>
      {lookup && (
        <ul className="mgr-list" aria-label={t('lookup')}>
          {lookup.map((l) => (
            <li key={l.orderNumber}>
              {l.orderNumber}: {l.fiscalized ? t('yes') : t('no')} {l.invoiceNumber ?? ''}{' '}
              {l.localState ? `(${t(`state_${l.localState}` as ManagerText)})` : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

// ---- orders that need attention ---------------------------------------------------------------

/** One rejected order: what the gateway said (explained), and the fix: new labels, or resend as is. */
function AttentionOrder(props: { api: PosApi; t: T; lang: Language; order: OrderView; labels: string[]; onDone: () => void }) {
  const { api, t, lang, order } = props;
  const used = [...new Set(order.lines.flatMap((l) => l.labels))];
  const [replace, setReplace] = useState<Record<string, string>>({});
  const [error, busy, run] = useAction();
  const explained = order.lastError ? explainGatewayError(order.lastError, lang) : null;
  const changes = Object.fromEntries(Object.entries(replace).filter(([from, to]) => to !== '' && to !== from));
  return (
    <li aria-label={t('attention_order', { order: order.orderNumber })} className="mgr-attention">
      <p>
        <strong>{order.orderNumber}</strong> · {formatRsd(order.totalPara)} · {order.cashier ?? ''}{' '}
        {new Date(order.createdAt).toLocaleString(lang === 'en' ? 'en-GB' : 'sr-RS')}
      </p>
      {explained && (
        <div className="mgr-error">
          <p>{explained.title}</p>
          <p>{explained.action}</p>
        </div>
      )}
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await call(api['orders.fixLabels']({ orderId: order.orderId, replace: changes }));
            props.onDone();
          });
        }}
      >
        {used.map((label) => (
          <Field key={label} label={t('replace_label', { label })}>
            <select value={replace[label] ?? ''} onChange={(e) => setReplace({ ...replace, [label]: e.target.value })}>
              <option value="">{t('keep_label')}</option>
              {props.labels.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </Field>
        ))}
        <button type="submit" disabled={busy || Object.keys(changes).length === 0}>
          {t('fix_labels', { order: order.orderNumber })}
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await call(api['orders.resend']({ orderId: order.orderId }));
              props.onDone();
            })
          }
        >
          {t('resend', { order: order.orderNumber })}
        </button>
      </form>
      <Alert text={error} />
    </li>
  );
}

function AttentionTab(props: { api: PosApi; t: T; lang: Language }) {
  const { api, t, lang } = props;
  const [orders, setOrders] = useState<OrderView[] | null>(null);
  const [labels, setLabels] = useState<string[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [error, , run] = useAction();
  const reload = () =>
    run(async () => {
      const [list, rates] = await Promise.all([
        call(api['orders.list']({ state: 'needs_attention', limit: 100 })),
        api['taxRates.get']({}),
      ]);
      setOrders(list.orders);
      if (rates.ok) setLabels(rates.value.labels.map((l) => l.label));
    });
  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="mgr-tab">
      <h3>{t('attention_title')}</h3>
      {orders && orders.length === 0 && <p>{t('none')}</p>}
      <ul className="mgr-list" aria-label={t('attention_title')}>
        {orders?.map((o) => (
          <AttentionOrder
            key={o.orderId}
            api={api}
            t={t}
            lang={lang}
            order={o}
            labels={labels}
            onDone={() => {
              setNote(t('resent', { order: o.orderNumber }));
              void reload();
            }}
          />
        ))}
      </ul>
      {note && <p role="status">{note}</p>}
      <Alert text={error} />
    </div>
  );
}

// ---- staff ------------------------------------------------------------------------------------

function StaffTab(props: { api: PosApi; t: T; onChanged: () => void }) {
  const { api, t } = props;
  const [list, setList] = useState<{ staff: StaffView[]; online: boolean } | null>(null);
  const [form, setForm] = useState({
    name: '',
    role: 'cashier' as 'cashier' | 'manager',
    pin: '',
    email: '',
    managerPin: '',
  });
  const [pins, setPins] = useState({ currentPin: '', newPin: '' });
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const reload = async () => setList(await call(api['staff.list']({})));
  useEffect(() => {
    void run(reload);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="mgr-tab">
      {list && !list.online && <p role="status">{t('offline_cache')}</p>}
      <table className="mgr-table" aria-label={t('staff')}>
        <thead>
          <tr>
            <th>{t('name')}</th>
            <th>{t('role')}</th>
            <th>{t('email')}</th>
          </tr>
        </thead>
        <tbody>
          {list?.staff.map((s) => (
            <tr key={s.id}>
              <td>{s.name}</td>
              <td>{s.role === 'manager' ? t('role_manager') : t('role_cashier')}</td>
              <td>{s.email ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await call(
              api['staff.create']({
                managerPin: form.managerPin,
                name: form.name,
                role: form.role,
                pin: form.pin,
                ...(form.email ? { email: form.email } : {}),
              }),
            );
            setForm({ ...form, name: '', pin: '', email: '', managerPin: '' });
            setNote(t('saved'));
            await reload();
          });
        }}
      >
        <Field label={t('name')}>
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field label={t('role')}>
          <select
            value={form.role}
            onChange={(e) => setForm({ ...form, role: e.target.value as 'cashier' | 'manager' })}
          >
            <option value="cashier">{t('role_cashier')}</option>
            <option value="manager">{t('role_manager')}</option>
          </select>
        </Field>
        <PinInput t={t} label={t('pin')} value={form.pin} onChange={(v) => setForm({ ...form, pin: v })} />
        <Field label={t('email')}>
          <input type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </Field>
        <PinInput t={t} value={form.managerPin} onChange={(v) => setForm({ ...form, managerPin: v })} />
        <button type="submit" disabled={busy}>
          {t('add_person')}
        </button>
      </form>
      <h3>{t('change_pin')}</h3>
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await call(api['staff.changePin'](pins));
            setPins({ currentPin: '', newPin: '' });
            setNote(t('saved'));
            props.onChanged();
          });
        }}
      >
        <PinInput
          t={t}
          label={t('current_pin')}
          value={pins.currentPin}
          onChange={(v) => setPins({ ...pins, currentPin: v })}
        />
        <PinInput t={t} label={t('new_pin')} value={pins.newPin} onChange={(v) => setPins({ ...pins, newPin: v })} />
        <button type="submit" disabled={busy}>
          {t('save')}
        </button>
      </form>
      {note && <p role="status">{note}</p>}
      <Alert text={error} />
    </div>
  );
}

// ---- settings ---------------------------------------------------------------------------------

function AccountBox(props: { t: T; account: AccountView }) {
  const { t, account: a } = props;
  return (
    <dl className="mgr-dl" aria-label={t('account')}>
      <dt>{t('account')}</dt>
      <dd>{a.mode === 'demo' ? t('mode_demo') : t('mode_live')}</dd>
      <dt>{t('key')}</dt>
      <dd data-testid="masked-key">{a.maskedKey ?? '—'}</dd>
      <dt>{t('gateway_url')}</dt>
      <dd>{a.gatewayUrl ?? '—'}</dd>
      <dt>{t('shop')}</dt>
      <dd>
        {a.shopName ?? ''} {a.shopId ? `(${a.shopId})` : ''}
      </dd>
      <dt>{t('company')}</dt>
      <dd>{a.companyName ?? ''}</dd>
      <dt>{t('key_version')}</dt>
      <dd>{a.keyVersion ?? '—'}</dd>
      <dt>{t('state')}</dt>
      <dd data-testid="account-env">{t(`env_${a.environment}` as ManagerText)}</dd>
    </dl>
  );
}

function SettingsTab(props: { api: PosApi; t: T; lang: Language }) {
  const { api, t } = props;
  const [view, setView] = useState<SettingsView | null>(null);
  const [account, setAccount] = useState<AccountView | null>(null);
  const [keyForm, setKeyForm] = useState({ apiKey: '', gatewayUrl: '', managerPin: '' });
  const [form, setForm] = useState({
    terminalId: '',
    outageWarnMinutes: '',
    outageAlarmMinutes: '',
    trainingMode: false,
    language: 'sr-Cyrl',
    managerPin: '',
  });
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  useEffect(() => {
    void run(async () => {
      const v = await call(api['settings.get']({}));
      setView(v);
      setAccount(v.account);
      setKeyForm((k) => ({ ...k, gatewayUrl: v.gatewayUrl ?? '' }));
      setForm((f) => ({
        ...f,
        terminalId: v.terminalId,
        outageWarnMinutes: String(v.outageWarnMinutes),
        outageAlarmMinutes: String(v.outageAlarmMinutes),
        trainingMode: v.trainingMode,
        language: v.language,
      }));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="mgr-tab">
      {account && <AccountBox t={t} account={account} />}
      <button
        type="button"
        disabled={busy}
        onClick={() => void run(async () => setAccount(await call(api['settings.verifyApiKey']({}))))}
      >
        {t('verify')}
      </button>
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setAccount(await call(api['settings.setApiKey'](keyForm)));
            setKeyForm({ ...keyForm, apiKey: '', managerPin: '' });
            setNote(t('saved'));
          });
        }}
      >
        <Field label={t('gateway_url')}>
          <input
            type="url"
            value={keyForm.gatewayUrl}
            onChange={(e) => setKeyForm({ ...keyForm, gatewayUrl: e.target.value })}
          />
        </Field>
        <Field label={t('new_key')}>
          <input
            type="password"
            autoComplete="off"
            value={keyForm.apiKey}
            onChange={(e) => setKeyForm({ ...keyForm, apiKey: e.target.value })}
          />
        </Field>
        <PinInput t={t} value={keyForm.managerPin} onChange={(v) => setKeyForm({ ...keyForm, managerPin: v })} />
        <button type="submit" disabled={busy}>
          {t('set_key')}
        </button>
      </form>
      {view && (
        <form
          className="mgr-row"
          onSubmit={(e) => {
            e.preventDefault();
            void run(async () => {
              const v = await call(
                api['settings.update']({
                  managerPin: form.managerPin,
                  terminalId: form.terminalId,
                  outageWarnMinutes: Number(form.outageWarnMinutes),
                  outageAlarmMinutes: Number(form.outageAlarmMinutes),
                  trainingMode: form.trainingMode,
                  language: form.language as Language,
                }),
              );
              setView(v);
              setForm({ ...form, managerPin: '' });
              setNote(t('saved'));
            });
          }}
        >
          <Field label={t('terminal')}>
            <input value={form.terminalId} onChange={(e) => setForm({ ...form, terminalId: e.target.value })} />
          </Field>
          <Field label={t('warn_minutes')}>
            <input
              inputMode="numeric"
              value={form.outageWarnMinutes}
              onChange={(e) => setForm({ ...form, outageWarnMinutes: e.target.value })}
            />
          </Field>
          <Field label={t('alarm_minutes')}>
            <input
              inputMode="numeric"
              value={form.outageAlarmMinutes}
              onChange={(e) => setForm({ ...form, outageAlarmMinutes: e.target.value })}
            />
          </Field>
          <Field label={t('language')}>
            <select value={form.language} onChange={(e) => setForm({ ...form, language: e.target.value })}>
              <option value="sr-Cyrl">Српски (ћирилица)</option>
              <option value="sr-Latn">Srpski (latinica)</option>
              <option value="en">English</option>
            </select>
          </Field>
          <label className="check">
            <input
              type="checkbox"
              checked={form.trainingMode}
              onChange={(e) => setForm({ ...form, trainingMode: e.target.checked })}
            />{' '}
            {t('training')}
          </label>
          <PinInput t={t} value={form.managerPin} onChange={(v) => setForm({ ...form, managerPin: v })} />
          <button type="submit" disabled={busy}>
            {t('save')}
          </button>
        </form>
      )}
      {note && <p role="status">{note}</p>}
      <Alert text={error} />
      <PrinterSection api={api} t={t} lang={props.lang} />
      <BackupsSection api={api} t={t} lang={props.lang} />
    </div>
  );
}

// ---- printer ----------------------------------------------------------------------------------

type PrinterField = 'uri' | 'profileId' | 'header' | 'footer' | 'managerPin';

/** A form field whose error is shown right under it (outside the label, so the label stays the name). */
function CheckedField(props: { label: string; error: string | undefined; errorId: string; children: ReactNode }) {
  return (
    <div className="mgr-field-group">
      <Field label={props.label}>{props.children}</Field>
      {props.error && (
        <span id={props.errorId} role="alert" className="mgr-error mgr-field-error">
          {props.error}
        </span>
      )}
    </div>
  );
}

/**
 * The core names a bad field by its contract name (`uri`); shown next to that field, the message names it
 * by the label the person sees instead.
 */
function relabel(text: string, field: string, label: string): string {
  const escaped = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`([„"“])${escaped}([“"”])`, 'g'), `$1${label}$2`);
}

/**
 * The receipt printer: its live state (from `print.status`), the address, profile, header/footer and
 * auto-print (saved with `printer.configure` after a manager's approval), a test page and a reprint.
 * `KASA_PRINTER` in the environment overrides the saved address; the section says so.
 */
function PrinterSection(props: { api: PosApi; t: T; lang: Language }) {
  const { api, t, lang } = props;
  const [status, setStatus] = useState<PrintStatus | null>(null);
  const [profiles, setProfiles] = useState<PrinterProfileView[]>([]);
  const [form, setForm] = useState({ uri: '', profileId: '', autoPrint: true, managerPin: '' });
  // null: untouched, so the stored text is kept (the contract does not return it).
  const [header, setHeader] = useState<string | null>(null);
  const [footer, setFooter] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<PrinterField, string>>>({});
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const labels: Record<PrinterField, string> = {
    uri: t('printer_address'),
    profileId: t('printer_profile'),
    header: t('printer_header'),
    footer: t('printer_footer'),
    managerPin: t('manager_pin'),
  };

  useEffect(() => {
    const off = api.on('print.status', setStatus);
    void run(async () => {
      const [s, p] = await Promise.all([call(api['print.status']({})), call(api['printer.profiles']({}))]);
      setStatus(s);
      setProfiles(p.profiles);
      setForm((f) => ({
        ...f,
        uri: s.uriSource === 'settings' && s.uri ? s.uri : '',
        profileId: p.current,
        autoPrint: s.autoPrint,
      }));
    });
    return off;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api]);

  /** Shows an `invalid_input` next to its field; anything else goes to the section's alert. */
  const fail = (err: unknown) => {
    const e = err as Partial<AppError> & { field?: unknown };
    const field = typeof e.field === 'string' ? (e.field.split('.')[0] as PrinterField) : undefined;
    if (e.code === 'invalid_input' && field && field in labels) {
      setFieldErrors({ [field]: relabel(errorText(err), field, labels[field]) });
      return;
    }
    throw err;
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    setNote(null);
    setFieldErrors({});
    const uri = form.uri.trim();
    const target = parsePrinterUri(uri);
    // The same rule the core applies, checked before the manager's approval is asked for and audited.
    if (!uri || !target || (target.kind === 'file' && !isPrinterDevicePath(target.path))) {
      setFieldErrors({ uri: message(lang, uri ? 'printer_uri' : 'required', { field: labels.uri }) });
      return;
    }
    void run(async () => {
      try {
        await call(api['staff.approve']({ managerPin: form.managerPin, action: 'printer.configure', detail: uri }));
      } catch (err) {
        return fail(err);
      }
      try {
        const s = await call(
          api['printer.configure']({
            uri,
            profileId: form.profileId,
            autoPrint: form.autoPrint,
            ...(header !== null ? { header } : {}),
            ...(footer !== null ? { footer } : {}),
          }),
        );
        setStatus(s);
        setForm({ ...form, uri, managerPin: '' });
        setHeader(null);
        setFooter(null);
        setNote(t('printer_saved'));
      } catch (err) {
        fail(err);
      }
    });
  };

  const when = (iso: string) => new Date(iso).toLocaleString(lang === 'en' ? 'en-GB' : 'sr-RS');
  const profileText = (p: PrinterProfileView) => t('printer_profile_option', { name: p.name, paper: p.paperMm });
  const currentProfile = status ? profiles.find((p) => p.id === status.profileId) : undefined;
  const errorProps = (field: PrinterField) =>
    fieldErrors[field] ? { 'aria-invalid': true, 'aria-describedby': `printer-${field}-error` } : {};

  return (
    <section className="mgr-printer" aria-label={t('printer')}>
      <h3>{t('printer')}</h3>
      {status && (
        <dl className="mgr-dl" aria-label={t('printer_status')}>
          <dt>{t('state')}</dt>
          <dd
            data-testid="printer-state"
            className={status.state === 'failed' || status.state === 'offline' ? 'mgr-error' : ''}
          >
            {t(`printer_state_${status.state}` as ManagerText)}
          </dd>
          <dt>{t('printer_address')}</dt>
          <dd>
            <code data-testid="printer-uri">{status.uri ?? '—'}</code>{' '}
            <span data-testid="printer-source">({t(`printer_source_${status.uriSource}` as ManagerText)})</span>
          </dd>
          <dt>{t('printer_profile')}</dt>
          <dd data-testid="printer-profile">
            {currentProfile
              ? profileText(currentProfile)
              : status.profileId === 'custom'
                ? t('printer_custom')
                : status.profileId}
          </dd>
          <dt>{t('printer_auto_short')}</dt>
          <dd>{status.autoPrint ? t('yes') : t('no')}</dd>
          <dt>{t('printer_queued')}</dt>
          <dd data-testid="printer-queued">{status.queued}</dd>
          {status.failed > 0 && (
            <>
              <dt>{t('printer_failed_jobs')}</dt>
              <dd>{status.failed}</dd>
            </>
          )}
          <dt>{t('printer_last_printed')}</dt>
          <dd data-testid="printer-last-printed">{status.lastPrintedAt ? when(status.lastPrintedAt) : '—'}</dd>
          {status.lastError && (
            <>
              <dt>{t('printer_last_error')}</dt>
              <dd data-testid="printer-last-error" className="mgr-error">
                {status.lastError}
              </dd>
            </>
          )}
        </dl>
      )}
      {status?.uriSource === 'env' && (
        <p role="note" className="mgr-warn" data-testid="printer-env-note">
          {t('printer_env_note')}
        </p>
      )}
      <form className="mgr-printer-form" onSubmit={save} noValidate>
        <div className="mgr-row mgr-top">
          <CheckedField label={labels.uri} error={fieldErrors.uri} errorId="printer-uri-error">
            <input
              value={form.uri}
              size={34}
              spellCheck={false}
              autoComplete="off"
              placeholder="tcp://192.168.1.50:9100"
              aria-describedby={fieldErrors.uri ? 'printer-uri-error printer-uri-hint' : 'printer-uri-hint'}
              aria-invalid={fieldErrors.uri ? true : undefined}
              onChange={(e) => setForm({ ...form, uri: e.target.value })}
            />
          </CheckedField>
          <CheckedField label={labels.profileId} error={fieldErrors.profileId} errorId="printer-profileId-error">
            <select
              value={form.profileId}
              {...errorProps('profileId')}
              onChange={(e) => setForm({ ...form, profileId: e.target.value })}
            >
              {profiles.map((p) => (
                <option key={p.id} value={p.id}>
                  {profileText(p)}
                </option>
              ))}
              {form.profileId === 'custom' && <option value="custom">{t('printer_custom')}</option>}
            </select>
          </CheckedField>
        </div>
        <p id="printer-uri-hint" className="mgr-hint">
          {t('printer_address_hint')}
        </p>
        <div className="mgr-row mgr-top">
          <CheckedField label={labels.header} error={fieldErrors.header} errorId="printer-header-error">
            <textarea
              rows={3}
              cols={42}
              value={header ?? ''}
              aria-describedby="printer-text-hint"
              {...errorProps('header')}
              onChange={(e) => setHeader(e.target.value)}
            />
          </CheckedField>
          <CheckedField label={labels.footer} error={fieldErrors.footer} errorId="printer-footer-error">
            <textarea
              rows={3}
              cols={42}
              value={footer ?? ''}
              aria-describedby="printer-text-hint"
              {...errorProps('footer')}
              onChange={(e) => setFooter(e.target.value)}
            />
          </CheckedField>
        </div>
        <p id="printer-text-hint" className="mgr-hint">
          {t('printer_text_hint')}
        </p>
        <div className="mgr-row">
          <label className="check">
            <input
              type="checkbox"
              checked={form.autoPrint}
              onChange={(e) => setForm({ ...form, autoPrint: e.target.checked })}
            />{' '}
            {t('printer_auto')}
          </label>
          <CheckedField label={labels.managerPin} error={fieldErrors.managerPin} errorId="printer-managerPin-error">
            <input
              type="password"
              inputMode="numeric"
              autoComplete="off"
              value={form.managerPin}
              {...errorProps('managerPin')}
              onChange={(e) => setForm({ ...form, managerPin: e.target.value })}
            />
          </CheckedField>
          <button type="submit" disabled={busy}>
            {t('printer_save')}
          </button>
        </div>
      </form>
      <div className="mgr-row">
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              setNote(null);
              const { jobId } = await call(api['print.test']({}));
              setNote(t('printer_test_queued', { job: jobId }));
            })
          }
        >
          {t('print_test')}
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              setNote(null);
              const { jobId } = await call(api['print.reprintLast']({}));
              setNote(jobId === null ? t('printer_nothing') : t('printer_reprint_queued', { job: jobId }));
            })
          }
        >
          {t('printer_reprint')}
        </button>
      </div>
      {note && <p role="status">{note}</p>}
      <Alert text={error} />
    </section>
  );
}

// ---- backups ----------------------------------------------------------------------------------

/** The database backups with the start-up integrity check; restore stages one for the next start. */
function BackupsSection(props: { api: PosApi; t: T; lang: Language }) {
  const { api, t, lang } = props;
  const [pin, setPin] = useState('');
  const [view, setView] = useState<BackupsView | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [confirmPin, setConfirmPin] = useState('');
  const [restored, setRestored] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const [confirmError, confirmBusy, runConfirm] = useAction();
  return (
    <section className="mgr-backups" aria-label={t('backups')}>
      <h3>{t('backups')}</h3>
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setView(await call(api['backups.list']({ managerPin: pin })));
            setPin('');
          });
        }}
      >
        <PinInput t={t} value={pin} onChange={setPin} />
        <button type="submit" disabled={busy}>
          {t('backups_show')}
        </button>
      </form>
      <Alert text={error} />
      {view && (
        <>
          <p role="status" data-testid="integrity" className={view.integrity.ok ? '' : 'mgr-error'}>
            {view.integrity.ok
              ? t('integrity_ok')
              : t('integrity_bad', { problems: view.integrity.problems.join('; ') })}
          </p>
          {view.lastBackupError && <p className="mgr-error">{t('backup_error', { message: view.lastBackupError })}</p>}
          {view.backups.length === 0 ? (
            <p>{t('none')}</p>
          ) : (
            <table className="mgr-table" aria-label={t('backups')}>
              <thead>
                <tr>
                  <th>{t('backup_name')}</th>
                  <th>{t('backup_kind')}</th>
                  <th>{t('at')}</th>
                  <th>{t('backup_size')}</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {view.backups.map((b) => (
                  <tr key={b.name}>
                    <td>{b.name}</td>
                    <td>{b.kind}</td>
                    <td>{new Date(b.createdAt).toLocaleString(lang === 'en' ? 'en-GB' : 'sr-RS')}</td>
                    <td>{Math.round(b.bytes / 1024)} KB</td>
                    <td>
                      <button type="button" onClick={() => setConfirm(b.name)}>
                        {t('restore', { name: b.name })}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {restored && (
        <p role="status" className="mgr-warn">
          {t('restore_staged', { name: restored })}
        </p>
      )}
      {confirm && (
        <Modal title={t('restore_title')} onClose={() => setConfirm(null)}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void runConfirm(async () => {
                const r = await call(api['backups.restore']({ managerPin: confirmPin, name: confirm }));
                setRestored(r.name);
                setConfirm(null);
                setConfirmPin('');
              });
            }}
          >
            <p>{t('restore_confirm', { name: confirm })}</p>
            <PinInput t={t} value={confirmPin} onChange={setConfirmPin} />
            <Alert text={confirmError} />
            <div className="dialog-buttons">
              <button type="button" data-close onClick={() => setConfirm(null)}>
                {t('cancel')}
              </button>
              <button type="submit" className="danger" disabled={confirmBusy}>
                {t('restore_do')}
              </button>
            </div>
          </form>
        </Modal>
      )}
    </section>
  );
}

// ---- report and audit -------------------------------------------------------------------------

function ReportsTab(props: { api: PosApi; t: T; lang: Language }) {
  const { api, t, lang } = props;
  const [range, setRange] = useState({ from: '', to: '', cashier: '' });
  const [report, setReport] = useState<ReportView | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const input = () => ({
    ...(range.from ? { from: new Date(`${range.from}T00:00:00`).toISOString() } : {}),
    ...(range.to ? { to: new Date(`${range.to}T23:59:59.999`).toISOString() } : {}),
    ...(range.cashier ? { cashier: range.cashier } : {}),
  });
  return (
    <div className="mgr-tab">
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => setReport(await call(api['reports.summary'](input()))));
        }}
      >
        <Field label={t('date_from')}>
          <input type="date" value={range.from} onChange={(e) => setRange({ ...range, from: e.target.value })} />
        </Field>
        <Field label={t('date_to')}>
          <input type="date" value={range.to} onChange={(e) => setRange({ ...range, to: e.target.value })} />
        </Field>
        <Field label={t('cashier')}>
          <input value={range.cashier} onChange={(e) => setRange({ ...range, cashier: e.target.value })} />
        </Field>
        <button type="submit" disabled={busy}>
          {t('show')}
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => void run(async () => (await call(api['reports.print'](input())), setNote(t('printed'))))}
        >
          {t('print')}
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const { fileName, csv } = await call(api['reports.csv'](input()));
              const a = document.createElement('a');
              a.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
              a.download = fileName;
              a.click();
              URL.revokeObjectURL(a.href);
            })
          }
        >
          {t('csv')}
        </button>
      </form>
      {report && (
        <section aria-label={t('report')}>
          <table className="mgr-table" aria-label={t('report')}>
            <tbody>
              <tr>
                <th>{t('sales')}</th>
                <td>{report.sales.count}</td>
                <td>{formatRsd(report.sales.totalPara)}</td>
              </tr>
              <tr>
                <th>{t('advances')}</th>
                <td>{report.advances.count}</td>
                <td>{formatRsd(report.advances.totalPara)}</td>
              </tr>
              <tr>
                <th>{t('refunds')}</th>
                <td>{report.refunds.count}</td>
                <td>{formatRsd(-report.refunds.totalPara)}</td>
              </tr>
              <tr>
                <th>{t('not_fiscalized')}</th>
                <td>{report.notFiscalized}</td>
                <td />
              </tr>
              <tr>
                <th>{t('training_excluded')}</th>
                <td>{report.trainingExcluded}</td>
                <td />
              </tr>
            </tbody>
          </table>
          <table className="mgr-table" aria-label={t('by_payment')}>
            <tbody>
              {report.byPayment.map((p) => (
                <tr key={p.type}>
                  <th>{PAYMENT_NAMES[lang][p.type] ?? p.type}</th>
                  <td>{formatRsd(p.netPara)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="mgr-table" aria-label={t('by_label')}>
            <tbody>
              {report.byLabel.map((l) => (
                <tr key={l.label}>
                  <th>
                    {l.label} {l.rate}%
                  </th>
                  <td>{formatRsd(l.netPara)}</td>
                  <td>
                    {t('tax')} {formatRsd(l.taxPara)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {note && <p role="status">{note}</p>}
      <Alert text={error} />
    </div>
  );
}

function AuditTab(props: { api: PosApi; t: T; lang: Language }) {
  const { api, t, lang } = props;
  const [pin, setPin] = useState('');
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [error, busy, run] = useAction();
  return (
    <div className="mgr-tab">
      <form
        className="mgr-row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            setEntries((await call(api['audit.list']({ managerPin: pin, limit: 100 }))).entries);
            setPin('');
          });
        }}
      >
        <PinInput t={t} value={pin} onChange={setPin} />
        <button type="submit" disabled={busy}>
          {t('show')}
        </button>
      </form>
      <Alert text={error} />
      {entries && (
        <table className="mgr-table" aria-label={t('audit')}>
          <thead>
            <tr>
              <th>{t('at')}</th>
              <th>{t('actor')}</th>
              <th>{t('action')}</th>
              <th>{t('detail')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>{new Date(e.at).toLocaleString(lang === 'en' ? 'en-GB' : 'sr-RS')}</td>
                <td>{e.actor ?? '—'}</td>
                <td>{e.action}</td>
                <td>
                  <code>{e.detail}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

// ---- the shell --------------------------------------------------------------------------------

/** The manager overlay. */
export function ManagerScreen(props: { api: PosApi; onClose: () => void; initialTab?: string }) {
  const lang = usePos((s) => s.language);
  const t: T = (key, params) => mt(lang, key, params);
  const [tab, setTab] = useState<Tab>(isTab(props.initialTab ?? null) ? (props.initialTab as Tab) : 'refund');
  const [defaultPin, setDefaultPin] = useState(false);
  const checkDefault = () =>
    void props.api['staff.list']({}).then((r) => {
      if (r.ok) setDefaultPin(r.value.staff.some((s) => s.role === 'manager' && s.mustChangePin && s.active));
    });
  useEffect(checkDefault, [props.api]);
  return (
    <div className="mgr" role="dialog" aria-modal="true" aria-label={t('title')}>
      <header className="mgr-head">
        <h2>{t('title')}</h2>
        <nav aria-label={t('tabs')} role="tablist">
          {TABS.map((k) => (
            <button key={k} type="button" role="tab" aria-selected={tab === k} onClick={() => setTab(k)}>
              {t(`tab_${k}` as ManagerText)}
            </button>
          ))}
        </nav>
        <button type="button" onClick={props.onClose}>
          {t('close')}
        </button>
      </header>
      {defaultPin && (
        <p role="note" className="mgr-warn">
          {t('default_pin_warning')}
        </p>
      )}
      <div role="tabpanel" aria-label={t(`tab_${tab}` as ManagerText)} className="mgr-body">
        {tab === 'refund' && <RefundTab api={props.api} t={t} lang={lang} />}
        {tab === 'advances' && <AdvancesTab api={props.api} t={t} lang={lang} />}
        {tab === 'archive' && <ArchiveTab api={props.api} t={t} lang={lang} />}
        {tab === 'attention' && <AttentionTab api={props.api} t={t} lang={lang} />}
        {tab === 'staff' && <StaffTab api={props.api} t={t} onChanged={checkDefault} />}
        {tab === 'settings' && <SettingsTab api={props.api} t={t} lang={lang} />}
        {tab === 'reports' && <ReportsTab api={props.api} t={t} lang={lang} />}
        {tab === 'audit' && <AuditTab api={props.api} t={t} lang={lang} />}
      </div>
    </div>
  );
}

/**
 * The "Менаџер" button and F11, and the overlay. While the overlay is open the counter's shortcuts are
 * held back (this listener is registered before the counter's, so it sees keys first); Escape closes it.
 */
export function ManagerLauncher(props: { api: PosApi }) {
  const lang = usePos((s) => s.language);
  const loggedIn = usePos((s) => s.cashier !== null);
  const tab = usePos((s) => s.managerTab);
  const openManager = usePos((s) => s.openManager);
  const closeManager = usePos((s) => s.closeManager);
  const openRef = useRef(false);
  const loggedInRef = useRef(false);
  useEffect(() => {
    openRef.current = tab !== null;
    loggedInRef.current = loggedIn;
  }, [tab, loggedIn]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F11' && loggedInRef.current) {
        e.preventDefault();
        e.stopImmediatePropagation();
        if (openRef.current) closeManager();
        else openManager();
        return;
      }
      if (!openRef.current) return;
      // Escape inside a dialog of the manager screens closes that dialog (its own handler stops the key
      // there), not the whole manager screen.
      if (e.key === 'Escape' && e.target instanceof Element && e.target.closest('[aria-modal="true"]:not(.mgr)')) return;
      e.stopImmediatePropagation();
      if (e.key === 'Escape') closeManager();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [openManager, closeManager]);
  // The manager screens open over a till someone is logged in to.
  if (!loggedIn) return null;
  return (
    <>
      <button type="button" className="mgr-open" onClick={() => openManager()}>
        {mt(lang, 'open')}
      </button>
      {tab !== null && <ManagerScreen api={props.api} onClose={closeManager} initialTab={tab} />}
    </>
  );
}
