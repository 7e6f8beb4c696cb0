/** The manager's tab of orders that need attention. */
import { useEffect, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import { printerErrorText } from '../../../shared/i18n/printer-errors.ts';
import type { Language, OrderView, TaxLabel } from '../../../shared/domain.ts';
import type { LateReceipt } from '../../../shared/contract/printer.ts';
import { explainGatewayError } from '../../../shared/gateway-errors.ts';
import { formatRsd } from '../../../shared/money.ts';
import {
  approvalOf,
  call,
  localTime,
  pinOf,
  useAction,
  useActedList,
  Alert,
  Field,
  PinInput,
  RowForm,
  RunButton,
  SubmitButton,
  TaxLabelOptions,
} from './common.tsx';
import type { ManagerT } from './i18n.ts';
import { RetriesList } from './RetriesList.tsx';
import type { KepView } from '../../../shared/contract/goods.ts';
import { kepDate } from '../../../shared/i18n/goods.ts';
import { dayIn } from '../../../shared/i18n/time.ts';
import { ReceiptChecks } from './ReceiptChecks.tsx';

/** One rejected order: what the gateway said (explained), and the fix: new labels, or resend as is. */
function AttentionOrder(props: {
  api: PosApi;
  t: ManagerT;
  lang: Language;
  order: OrderView;
  labels: TaxLabel[];
  onDone: (note: string) => void;
}) {
  const { api, t, lang, order } = props;
  const used = [...new Set(order.lines.flatMap((l) => l.labels))];
  const [replace, setReplace] = useState<Record<string, string>>({});
  const [pin, setPin] = useState('');
  // Another sale's receipt came back for this number: it is taken, so only a new number helps.
  const mismatch = order.lastError?.code === 'KASA_RECEIPT_MISMATCH';
  // The L-PFR cannot prove it never signed it: looked up again, or freed by a manager who checked its journal.
  const unproven = order.lastError?.code === 'LPFR_UNPROVEN';
  const [checked, setChecked] = useState(false);
  const [error, busy, run] = useAction();
  const explained = order.lastError ? explainGatewayError(order.lastError, lang) : null;
  /** Queues the order again unchanged (looked up first where its outcome is unknown), named `label`. */
  const resendButton = (label: 'resend' | 'lpfr_look_again') => (
    <RunButton
      run={run}
      busy={busy}
      action={async () => {
        await call(api['orders.resend']({ orderId: order.orderId }));
        props.onDone(t('resent', { order: order.orderNumber }));
      }}
    >
      {t(label, { order: order.orderNumber })}
    </RunButton>
  );
  const changes = Object.fromEntries(Object.entries(replace).filter(([from, to]) => to !== '' && to !== from));
  return (
    <li aria-label={t('attention_order', { order: order.orderNumber })} className="mgr-attention">
      <p>
        <strong>{order.orderNumber}</strong> · {formatRsd(order.totalPara)} · {order.cashier ?? ''}{' '}
        {localTime(order.createdAt, lang)}
      </p>
      {explained && (
        <div className="mgr-error">
          <p>{explained.title}</p>
          <p>{explained.action}</p>
        </div>
      )}
      {mismatch && (
        <RowForm
          onSubmit={() =>
            void run(async () => {
              const r = await api['orders.reissue']({ ...pinOf(pin), orderId: order.orderId });
              // Refused because lookup + archive show the number's receipt is this sale's (the core
              // settled the sale with it): said at the tab, and the list reloaded.
              if (!r.ok && r.error.code === 'conflict') {
                setPin('');
                props.onDone(r.error.message);
                return;
              }
              const v = await call(Promise.resolve(r));
              setPin('');
              props.onDone(t('reissued', { order: order.orderNumber, to: v.orderNumber }));
            })
          }
        >
          <PinInput selfApproves t={t} value={pin} onChange={setPin} />
          <SubmitButton busy={busy} disabled={pin === ''}>
            {t('reissue', { order: order.orderNumber })}
          </SubmitButton>
        </RowForm>
      )}
      {unproven && (
        <RowForm
          onSubmit={() =>
            void run(async () => {
              await call(api['orders.lpfrNotSigned']({ ...pinOf(pin), orderId: order.orderId, journalChecked: true }));
              setPin('');
              props.onDone(t('lpfr_signing', { order: order.orderNumber }));
            })
          }
        >
          <label className="check">
            <input type="checkbox" checked={checked} onChange={(e) => setChecked(e.target.checked)} />
            {t('lpfr_journal_checked', { order: order.orderNumber })}
          </label>
          <PinInput selfApproves t={t} value={pin} onChange={setPin} />
          <SubmitButton busy={busy} disabled={pin === '' || !checked}>
            {t('lpfr_not_signed', { order: order.orderNumber })}
          </SubmitButton>
          {resendButton('lpfr_look_again')}
        </RowForm>
      )}
      {!mismatch && !unproven && (
        <RowForm
          onSubmit={() =>
            void run(async () => {
              await call(api['orders.fixLabels']({ orderId: order.orderId, replace: changes, ...approvalOf(pin) }));
              setPin('');
              props.onDone(t('resent', { order: order.orderNumber }));
            })
          }
        >
          {used.map((label) => (
            <Field key={label} label={t('replace_label', { label })}>
              <select
                value={replace[label] ?? ''}
                onChange={(e) => setReplace({ ...replace, [label]: e.target.value })}
              >
                <option value="">{t('keep_label')}</option>
                <TaxLabelOptions lang={lang} labels={props.labels} />
              </select>
            </Field>
          ))}
          <PinInput selfApproves t={t} value={pin} onChange={setPin} />
          <SubmitButton busy={busy} disabled={Object.keys(changes).length === 0}>
            {t('fix_labels', { order: order.orderNumber })}
          </SubmitButton>
          {resendButton('resend')}
        </RowForm>
      )}
      <Alert text={error} />
    </li>
  );
}

/** Fiscalized orders signed under another tax-rate group than the one at capture: a note, not a park. */
function TaxGroupChanged(props: { t: ManagerT; lang: Language; orders: OrderView[] }) {
  const { t, lang } = props;
  return (
    <section aria-label={t('tax_group_title')}>
      <h3>{t('tax_group_title')}</h3>
      <ul className="mgr-list">
        {props.orders.map((o) => (
          <li key={o.orderId} className="mgr-attention">
            <p>
              <strong>{o.orderNumber}</strong> · {o.receipt?.invoiceNumber ?? ''} · {formatRsd(o.totalPara)} ·{' '}
              {o.cashier ?? ''} {localTime(o.createdAt, lang)}
            </p>
            <p>
              {t('tax_group_note', {
                captured: o.taxGroupChanged?.capturedGroupId ?? '',
                issued: o.taxGroupChanged?.issuedGroupId ?? '',
              })}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Sales nobody could sign whose fiscal receipt has not reached the buyer (`print.lateReceipts`): here, not in
 * the printer's held jobs, because it is a customer owed a fiscal receipt (a sale's matter, shown with or
 * without a printer, before the receipt is even issued), not a print job's. Each issued one can be printed.
 */
function LateReceipts(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const { list, note, error, busy, run, reload, act } = useActedList(
    async () => (await call(api['print.lateReceipts']({}))).receipts,
  );
  useEffect(() => {
    void reload();
    // Issued or printed meanwhile: the list follows the orders and the printer.
    const offOrder = api.on('order.updated', () => void reload());
    const offPrint = api.on('print.status', () => void reload());
    return () => {
      offOrder();
      offPrint();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const stateText = (r: LateReceipt): string => {
    if (r.orderState === 'queued') return t('late_state_queued');
    if (r.orderState === 'needs_attention') return t('late_state_attention');
    if (r.job === 'failed')
      return t('late_state_failed', { invoice: r.invoiceNumber ?? '', error: printerErrorText(lang, r.lastError) });
    return t('late_state_waiting', { invoice: r.invoiceNumber ?? '' });
  };
  return (
    <section aria-label={t('late_title')} data-testid="late-receipts">
      <h3>{t('late_title')}</h3>
      {list && list.length === 0 && <p>{t('late_none')}</p>}
      <ul className="mgr-list">
        {list?.map((r) => (
          <li key={r.orderId} className="mgr-attention" aria-label={t('late_order', { order: r.orderNumber })}>
            <p>
              <strong>{r.orderNumber}</strong> · {formatRsd(r.totalPara)} · {r.cashier ?? ''}{' '}
              {localTime(r.soldAt, lang)} · {t(r.slip === 'printing' ? 'late_slip_printing' : 'late_slip_none')}
            </p>
            <p>{stateText(r)}</p>
            {r.orderState === 'fiscalized' && (
              <RunButton
                run={run}
                busy={busy}
                action={act(
                  () => api['print.lateReceipt']({ orderId: r.orderId }),
                  t('late_printed', { order: r.orderNumber }),
                )}
              >
                {t('late_print', { order: r.orderNumber })}
              </RunButton>
            )}
          </li>
        ))}
      </ul>
      {note && <p role="status">{note}</p>}
      <Alert text={error} />
    </section>
  );
}

/**
 * The KEP's days not entered by the next day (Pravilnik o evidenciji prometa: docs/goods.md): each with its draft
 * receipts and unsigned sales; nothing shown while every day is in the book.
 */
function LateKepDays(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [days, setDays] = useState<KepView['late']['days']>([]);
  useEffect(() => {
    const today = dayIn(new Date());
    void api['goods.kep']({ from: today, to: today }).then((r) => {
      if (r.ok) setDays(r.value.late.days);
    });
  }, [api]);
  if (days.length === 0) return null;
  return (
    <section aria-label={t('kep_late_title')} data-testid="kep-late-days">
      <h3>{t('kep_late_title')}</h3>
      <ul className="mgr-list">
        {days.map((d) => (
          <li key={d.day} className="mgr-attention">
            {t('kep_late_day', { day: kepDate(d.day, lang), drafts: d.draftReceipts, sales: d.unsignedSales })}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function AttentionTab(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [orders, setOrders] = useState<OrderView[] | null>(null);
  const [changed, setChanged] = useState<OrderView[]>([]);
  const [labels, setLabels] = useState<TaxLabel[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [error, , run] = useAction();
  const reload = () =>
    run(async () => {
      const [list, rates, flagged] = await Promise.all([
        call(api['orders.list']({ state: 'needs_attention', limit: 100 })),
        api['taxRates.get']({}),
        call(api['orders.list']({ taxGroupChanged: true, limit: 100 })),
      ]);
      setOrders(list.orders);
      setChanged(flagged.orders);
      if (rates.ok) setLabels(rates.value.labels);
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
            onDone={(text) => {
              setNote(text);
              void reload();
            }}
          />
        ))}
      </ul>
      {changed.length > 0 && <TaxGroupChanged t={t} lang={lang} orders={changed} />}
      {note && <p role="status">{note}</p>}
      <Alert text={error} />
      <LateKepDays api={api} t={t} lang={lang} />
      <LateReceipts api={api} t={t} lang={lang} />
      <ReceiptChecks api={api} t={t} lang={lang} />
      <RetriesList api={api} t={t} />
    </div>
  );
}
