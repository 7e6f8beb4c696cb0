/**
 * The manager's archive tab: receipt detail, fiscal copy, e-mail, the e-invoice through SEF for a sale to a business
 * or public-sector buyer (docs/sef.md), and lookup.
 */
import { invoiceTypeName, receiptKindName } from '../../../shared/i18n/enums.ts';
import { useEffect, useRef, useState } from 'react';
import QRCode from 'qrcode';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { ArchiveDetail, ArchiveRow, LookupRow } from '../../../shared/contract/archive.ts';
import type { SefDocumentView } from '../../../shared/contract/sef.ts';
import { sefStateText } from './SefTab.tsx';
import {
  PAYMENT_TYPES,
  isLpfrInvoiceNumber,
  type Language,
  type OrderView,
  type PaymentType,
} from '../../../shared/domain.ts';
import { formatRsd } from '../../../shared/money.ts';
import { formatMoment } from '../../../shared/i18n/time.ts';
import { ColumnTable } from './ColumnTable.tsx';
import type { ManagerT, ManagerText } from './i18n.ts';
import {
  PAYMENT_NAMES,
  call,
  useAction,
  Alert,
  DateRange,
  ChoiceField,
  dayOrRefuse,
  Field,
  OrderResult,
  PinInput,
  approvalOf,
  RowForm,
  RunButton,
  SubmitButton,
} from './common.tsx';

function Qr(props: { url: string; label: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (ref.current && props.url)
      void QRCode.toCanvas(ref.current, props.url, { margin: 4, scale: 3 }).catch(() => undefined);
  }, [props.url]);
  return <canvas ref={ref} role="img" aria-label={props.label} />;
}

function ReceiptDetail(props: { api: PosApi; t: ManagerT; lang: Language; detail: ArchiveDetail }) {
  const { api, t, lang, detail } = props;
  const [email, setEmail] = useState('');
  const [cc, setCc] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [copy, setCopy] = useState<OrderView | null>(null);
  // A fiscal copy, or an archived receipt e-mailed, needs a manager's PIN, sent with the command.
  const [pin, setPin] = useState('');
  const [error, busy, run] = useAction();
  // The order's e-invoice, or whether one may be issued for it (a `10:`/`12:` buyer, none issued yet); null: neither
  // (or SEF's commands are not this user's).
  const [sefOf, setSef] = useState<{ orderId: number; document: SefDocumentView | null; offer: boolean } | null>(null);
  const orderId = detail.orderId;
  const sef = sefOf && sefOf.orderId === orderId ? sefOf : null;
  useEffect(() => {
    if (orderId === undefined) return;
    let live = true;
    void api['sef.forOrder']({ orderId }).then((res) => {
      if (live && res.ok) setSef({ orderId, ...res.value });
    });
    return () => {
      live = false;
    };
  }, [api, orderId]);
  const r = detail.receipt;
  return (
    <section className="mgr-detail" aria-label={t('receipt', { invoice: r.invoiceNumber })}>
      <h3>{t('receipt', { invoice: r.invoiceNumber })}</h3>
      {/* An L-PFR's invoice number has the card's UID twice; the cloud's V-PFR signs with its own UID. */}
      <p data-testid="archive-processor">
        {t('signed_by', {
          processor: t(isLpfrInvoiceNumber(r.invoiceNumber) ? 'processor_lpfr' : 'processor_gateway'),
        })}
      </p>
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
              {c.invoiceNumber} · {receiptKindName(lang, c.invoiceType, c.transactionType)} · {formatRsd(c.totalPara)}
            </li>
          ))}
        </ul>
      )}
      <div className="mgr-row">
        <PinInput t={t} value={pin} onChange={setPin} />
        {detail.orderId !== undefined && (
          <RunButton
            run={run}
            busy={busy}
            action={async () =>
              setCopy(await call(api['copies.create']({ orderId: detail.orderId as number, ...approvalOf(pin) })))
            }
          >
            {t('copy')}
          </RunButton>
        )}
      </div>
      {sef?.document && (
        <p data-testid="archive-sef">
          {t('sef_issue', { order: sef.document.number })} — {sefStateText(t, sef.document)}
        </p>
      )}
      {sef?.offer && orderId !== undefined && (
        <div className="mgr-row">
          <RunButton
            run={run}
            busy={busy}
            action={async () => {
              setNote(null);
              const document = await call(api['sef.issue']({ orderId, ...(pin ? { managerPin: pin } : {}) }));
              setSef({ orderId, document, offer: false });
              setNote(t('sef_issued', { order: document.number }));
            }}
          >
            {t('sef_issue_button')}
          </RunButton>
        </div>
      )}
      <RowForm
        onSubmit={() =>
          void run(async () => {
            const ccList = cc.split(/[,;\s]+/).filter(Boolean);
            const res = await call(
              api['emails.send']({
                invoiceNumber: r.invoiceNumber,
                email: email.trim(),
                ...(ccList.length ? { cc: ccList } : {}),
                ...approvalOf(pin),
              }),
            );
            setNote(res.state === 'sent' ? t('email_sent') : t('email_queued'));
          })
        }
      >
        <Field label={t('email')}>
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </Field>
        <Field label={t('cc')}>
          <input value={cc} onChange={(e) => setCc(e.target.value)} />
        </Field>
        <SubmitButton busy={busy}>{t('send_email')}</SubmitButton>
      </RowForm>
      {note && <p role="status">{note}</p>}
      <Alert text={error} />
      {copy && <OrderResult t={t} lang={lang} order={copy} />}
    </section>
  );
}

/** A receipt's payment types in words (`Готовина, Платна картица`), each once, in the order paid. */
export function paymentNames(lang: Language, types: readonly string[]): string {
  const names = [...new Set(types)].map((p) => PAYMENT_NAMES[lang][p as PaymentType] ?? p);
  return names.length > 0 ? names.join(', ') : '—';
}

export function ArchiveTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [source, setSource] = useState<'local' | 'gateway'>('local');
  const [filters, setFilters] = useState<{
    orderNumber: string;
    invoiceNumber: string;
    startDate: string | null;
    endDate: string | null;
    invoiceType: string;
    paymentType: string;
  }>({
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
  // A search the manager asked for brings its result into view (the filters fill the screen at 1024×768).
  const results = useRef<HTMLDivElement>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked > 0) results.current?.scrollIntoView({ block: 'start' });
  }, [asked]);
  const search = (p: number, shown = true) =>
    run(async () => {
      setDetail(null);
      const startDate = dayOrRefuse(t, filters.startDate, t('date_from'));
      const endDate = dayOrRefuse(t, filters.endDate, t('date_to'));
      const q = {
        source,
        page: p,
        limit: 20,
        ...(filters.orderNumber ? { orderNumber: filters.orderNumber } : {}),
        ...(filters.invoiceNumber ? { invoiceNumber: filters.invoiceNumber } : {}),
        ...(startDate ? { startDate: new Date(`${startDate}T00:00:00`).toISOString() } : {}),
        ...(endDate ? { endDate: new Date(`${endDate}T23:59:59`).toISOString() } : {}),
        ...(filters.invoiceType ? { invoiceType: filters.invoiceType as 'normal' } : {}),
        ...(filters.paymentType ? { paymentType: filters.paymentType as PaymentType } : {}),
      };
      setRes(await call(api['archive.search'](q)));
      setPage(p);
      if (shown) setAsked((n) => n + 1);
    });
  useEffect(() => {
    void search(1, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const set = (k: keyof typeof filters) => (e: { target: { value: string } }) =>
    setFilters({ ...filters, [k]: e.target.value });
  return (
    <div className="mgr-tab">
      <RowForm onSubmit={() => void search(1)}>
        <ChoiceField
          label={t('source')}
          value={source}
          options={{ local: t('source_local'), gateway: t('source_gateway') }}
          onChange={setSource}
        />
        <Field label={t('order_number')}>
          <input value={filters.orderNumber} onChange={set('orderNumber')} />
        </Field>
        <Field label={t('invoice')}>
          <input value={filters.invoiceNumber} onChange={set('invoiceNumber')} />
        </Field>
        <DateRange
          t={t}
          lang={lang}
          from={filters.startDate}
          to={filters.endDate}
          onFrom={(startDate) => setFilters({ ...filters, startDate })}
          onTo={(endDate) => setFilters({ ...filters, endDate })}
        />
        <Field label={t('invoice_type')}>
          <select value={filters.invoiceType} onChange={set('invoiceType')}>
            <option value="">{t('any')}</option>
            {['normal', 'advance', 'copy', 'training', 'proforma'].map((v) => (
              <option key={v} value={v}>
                {invoiceTypeName(lang, v)}
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
        <SubmitButton busy={busy}>{t('search')}</SubmitButton>
      </RowForm>
      {res && (
        <div ref={results}>
          <ColumnTable
            label={t('tab_archive')}
            rows={res.rows}
            rowKey={(r) => `${r.source}-${r.orderId ?? r.invoiceNumber ?? r.orderNumber}`}
            columns={[
              { header: t('archive_when'), cell: (r) => formatMoment(r.sdcDateTime ?? r.createdAt ?? '', lang) || '—' },
              { header: t('order'), cell: (r) => r.orderNumber },
              { header: t('invoice'), cell: (r) => r.invoiceNumber ?? '—' },
              { header: t('invoice_type'), cell: (r) => receiptKindName(lang, r.invoiceType, r.transactionType) },
              { header: t('cashier'), cell: (r) => r.cashier ?? '—' },
              { header: t('payment_type'), cell: (r) => paymentNames(lang, r.paymentTypes) },
              { header: t('total'), cell: (r) => formatRsd(r.totalPara) },
              { header: t('state'), cell: (r) => t(`state_${r.state}` as ManagerText) },
              {
                header: '',
                cell: (r) =>
                  r.invoiceNumber && (
                    <RunButton
                      run={run}
                      action={async () =>
                        setDetail(await call(api['archive.get']({ invoiceNumber: r.invoiceNumber as string })))
                      }
                      label={t('details', { order: r.orderNumber })}
                    >
                      {t('details_short')}
                    </RunButton>
                  ),
              },
            ]}
          />
          <div className="mgr-row">
            <button type="button" disabled={page <= 1 || busy} onClick={() => void search(page - 1)}>
              {t('prev')}
            </button>
            <span>{t('page', { page: res.page, pages: res.pages })}</span>
            <button type="button" disabled={page >= res.pages || busy} onClick={() => void search(page + 1)}>
              {t('next')}
            </button>
          </div>
        </div>
      )}
      <Alert text={error} />
      {detail && <ReceiptDetail api={api} t={t} lang={lang} detail={detail} />}
      <RowForm
        onSubmit={() => {
          const list = numbers.split(/\s+/).filter(Boolean);
          if (list.length)
            void run(async () => setLookup((await call(api['archive.lookup']({ orderNumbers: list }))).records));
        }}
      >
        <Field label={t('lookup_numbers')}>
          <textarea rows={2} value={numbers} onChange={(e) => setNumbers(e.target.value)} />
        </Field>
        <SubmitButton busy={busy}>{t('lookup')}</SubmitButton>
      </RowForm>
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
