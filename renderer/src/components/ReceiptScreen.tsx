import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import { formatRsd } from '../../../shared/money.ts';
import { usePos, usePosPick } from '../context.ts';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { EmailView } from '../../../shared/contract/emails.ts';
import type { Language, OrderView } from '../../../shared/domain.ts';
import { explainGatewayError } from '../../../shared/gateway-errors.ts';
import { ActionButton } from './SaleScreen.tsx';

/** Draws the verification URL as a QR code on a canvas (the accessible name says what it is). */
export function ReceiptQr(props: { url: string; label: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!ref.current) return;
    QRCode.toCanvas(ref.current, props.url, { errorCorrectionLevel: 'M', margin: 4, scale: 4 }).catch(() =>
      setFailed(true),
    );
  }, [props.url]);
  return (
    <>
      <canvas ref={ref} role="img" aria-label={props.label} data-url={props.url} className="qr" />
      {failed && <p className="help">{props.url}</p>}
    </>
  );
}

/** What "print again" did: the original sent to the printer, or a fiscal copy issued (or queued). */
type Reprint = { kind: 'original' } | { kind: 'copy'; order: OrderView };

/** The fiscal copy's state, kept current from `order.updated` (a copy taken offline is issued later). */
function CopyResult(props: { api: PosApi; copy: OrderView; language: Language }) {
  const { t } = useTranslation();
  const [order, setOrder] = useState(props.copy);
  useEffect(() => {
    const refresh = () =>
      void props.api['orders.get']({ orderId: props.copy.orderId }).then((r) => {
        if (r.ok) setOrder(r.value);
      });
    const offOrder = props.api.on('order.updated', (p) => {
      if (p.orderId === props.copy.orderId) refresh();
    });
    // A missed event (reconnect) is caught up by the next status change.
    const offSync = props.api.on('sync.status', refresh);
    return () => {
      offOrder();
      offSync();
    };
  }, [props.api, props.copy]);
  const explained = order.lastError ? explainGatewayError(order.lastError, props.language) : null;
  // The copy prints itself only through auto-print with a printer set (core.ts); said as it is. Unknown
  // (not read yet) counts as printing: the screen never claims a problem it has not seen.
  const printer = usePos((s) => s.printer);
  const how = printer?.configured === false ? 'NoPrinter' : printer?.autoPrint === false ? 'NoAuto' : '';
  return (
    <section className={`copy-result ${order.state}`} aria-label={t('copy.region')} data-testid="copy-result">
      <p role="status" data-state={order.state}>
        {order.state === 'fiscalized'
          ? t(`copy.fiscalized${how}`, { number: order.receipt?.invoiceNumber ?? order.orderNumber })
          : order.state === 'queued'
            ? t(`copy.queued${how}`, { number: order.orderNumber })
            : t('copy.attention', { number: order.orderNumber })}
      </p>
      {explained && (
        <p className="help error" role="alert">
          {explained.title} {explained.action}
        </p>
      )}
    </section>
  );
}

/**
 * The receipt by e-mail (`emails.send`): the core sends it through the gateway as a PDF once the order is
 * fiscalized, and keeps it queued while offline; the state follows `email.updated`.
 */
function EmailReceipt(props: { api: PosApi; orderId: number; initial: string }) {
  const { t } = useTranslation();
  const [address, setAddress] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [mail, setMail] = useState<EmailView | null>(null);
  useEffect(() => {
    if (!mail) return;
    return props.api.on('email.updated', (m) => {
      if (m.id === mail.id) setMail(m);
    });
  }, [props.api, mail]);
  const send = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await props.api['emails.send']({ orderId: props.orderId, email: address });
      if (r.ok) setMail(r.value);
      else setError(r.error.message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="email-receipt" aria-label={t('mail.region')}>
      <form onSubmit={(e) => void send(e)}>
        <label>
          {t('mail.address')}
          <input
            type="email"
            value={address}
            autoFocus
            required
            onChange={(e) => setAddress(e.target.value)}
            aria-invalid={error !== null}
          />
        </label>
        <button type="submit" disabled={busy || address.trim() === ''}>
          {t('mail.send')}
        </button>
      </form>
      {error && (
        <p className="help error" role="alert">
          {error}
        </p>
      )}
      {mail && (
        <p role="status" data-state={mail.state}>
          {t(`mail.${mail.state}`, { email: mail.email, message: mail.lastError?.message ?? '' })}
        </p>
      )}
    </section>
  );
}

/** After payment: state, totals, the journal verbatim and its QR; print again; the next sale with one key. */
export function ReceiptScreen(props: { api: PosApi }) {
  const { t } = useTranslation();
  const { newSale, setNotice, withApproval, language } = usePosPick('newSale', 'setNotice', 'withApproval', 'language');
  const sale = usePos((s) => s.lastSale);
  // Unknown (not read yet) counts as set: the screen never claims a problem it has not seen.
  const noPrinter = usePos((s) => s.printer?.configured === false);
  const [printing, setPrinting] = useState(false);
  const [reprint, setReprint] = useState<Reprint | null>(null);
  const [emailOpen, setEmailOpen] = useState(false);
  const printRef = useRef<HTMLDivElement>(null);
  // Layout effect: the keys work from the first frame the screen is shown (a fast double F12 is not lost).
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey && (e.key === 'p' || e.key === 'P')) {
        e.preventDefault();
        printRef.current?.querySelector<HTMLButtonElement>('button[aria-keyshortcuts="Ctrl+P"]')?.click();
      } else if (e.ctrlKey && (e.key === 'e' || e.key === 'E')) {
        e.preventDefault();
        setEmailOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!sale) return null;
  const state = sale.order?.state ?? sale.result.state;
  const receipt = sale.order?.receipt ?? sale.result.receipt;
  const totalPara = sale.order?.totalPara ?? sale.result.totalPara;
  const changePara = sale.order?.changePara ?? sale.result.changePara;
  const invoiceType = sale.order?.invoiceType ?? 'normal';
  // Which fiscal processor signed it: the cloud's (V-PFR) or the shop's own (L-PFR), in the cashier's words.
  const processor = sale.order?.processor ?? sale.result.processor;
  // Training, proforma and copy receipts are issued by the gateway but are not fiscal receipts.
  const nonFiscal = invoiceType === 'training' || invoiceType === 'proforma' || invoiceType === 'copy';
  /**
   * A fiscal receipt is printed once: while it has not been printed (its job failed, waits, or there was
   * none) it is simply printed; a second paper copy is a fiscal COPY issued through the gateway (the core
   * prints it when it is issued, and queues it while offline). A non-fiscal receipt is never copied.
   */
  const print = async () => {
    setPrinting(true);
    try {
      const orderId = sale.result.orderId;
      const status = await props.api['print.status']({});
      if (status.ok && status.value.state === 'unconfigured') {
        setNotice({ kind: 'error', key: 'receipt.noPrinterConfigured' });
        return;
      }
      const r = await props.api['print.receipt']({ orderId });
      if (r.ok) {
        setReprint({ kind: 'original' });
        setNotice({ kind: 'info', key: 'receipt.printed' });
        return;
      }
      if (r.error.code !== 'conflict') {
        setNotice({ kind: 'error', key: 'error.generic', params: { message: r.error.message } });
        return;
      }
      if (nonFiscal) {
        setNotice({ kind: 'error', key: 'receipt.alreadyPrinted' });
        return;
      }
      // A fiscal copy needs a manager's approval in the core: the approval dialog asks, then sends again.
      await withApproval(
        (approval) => props.api['copies.create']({ orderId, ...(approval ? { approval } : {}) }),
        (copy) => {
          setReprint({ kind: 'copy', order: copy });
          setNotice(null);
        },
      );
    } finally {
      setPrinting(false);
    }
  };
  return (
    <main
      className="receipt"
      aria-label={t('receipt.title', { number: receipt?.invoiceNumber ?? sale.result.orderNumber })}
    >
      <section className="receipt-info">
        <h1>{t('receipt.title', { number: receipt?.invoiceNumber ?? '' })}</h1>
        <p
          className={`state-badge ${state}`}
          role="status"
          aria-label={t('receipt.state')}
          data-testid="receipt-state"
          data-state={state}
        >
          {state === 'fiscalized' && nonFiscal
            ? t('receipt.nonFiscal', { type: t(`invoice.${invoiceType}`) })
            : t(`receipt.${state}`)}
        </p>
        {state === 'fiscalized' && processor && (
          <p className="processor" data-testid="receipt-processor" data-processor={processor}>
            {t('lpfr.signedBy', {
              processor: t(processor === 'lpfr' ? 'lpfr.processorLpfr' : 'lpfr.processorGateway'),
            })}
          </p>
        )}
        {state === 'queued' && (
          <p className="help">{t(noPrinter ? 'receipt.queuedHelpNoPrinter' : 'receipt.queuedHelp')}</p>
        )}
        {/* A sale nobody could sign: whether the customer holds the slip, or nothing (said as it is). */}
        {sale.result.outageSlip && (
          <p
            className={sale.result.outageSlip === 'printing' ? 'help' : 'help error'}
            role={sale.result.outageSlip === 'printing' ? 'status' : 'alert'}
            data-testid="outage-slip"
            data-slip={sale.result.outageSlip}
          >
            {t(sale.result.outageSlip === 'printing' ? 'receipt.outageSlip' : 'receipt.outageNoSlip')}
          </p>
        )}
        {noPrinter && (
          <p className="help error" data-testid="receipt-no-printer">
            {t('receipt.noPrinterConfigured')}
          </p>
        )}
        {state === 'needs_attention' && (
          // The same explanation as the manager's needs-attention list, never the gateway's own words.
          <div className="help error" data-testid="receipt-attention">
            <p>
              {t('receipt.attentionHelp', {
                message: sale.order?.lastError ? explainGatewayError(sale.order.lastError, language).title : '',
              })}
            </p>
            {sale.order?.lastError && <p>{explainGatewayError(sale.order.lastError, language).action}</p>}
          </div>
        )}
        {/* One line, not a tile: the actions stay above the status bar at 1024×768. */}
        {sale.order?.ipsReference && (
          <p className="processor">
            {t('receipt.ipsReference')}: <span data-testid="receipt-ips-reference">{sale.order.ipsReference}</span>
          </p>
        )}
        <dl className="pay-summary">
          <div>
            <dt>{t('receipt.orderNumber')}</dt>
            <dd data-testid="order-number">{sale.result.orderNumber}</dd>
          </div>
          <div>
            <dt>{t('receipt.total')}</dt>
            <dd data-testid="receipt-total">{formatRsd(totalPara)}</dd>
          </div>
          {/* Proforma and training take no money (#21 case 10d): nothing paid, no change to show. */}
          {invoiceType !== 'training' && invoiceType !== 'proforma' && (
            <>
              <div>
                <dt>{t('receipt.paid')}</dt>
                <dd>{formatRsd(sale.paidPara)}</dd>
              </div>
              <div className="change">
                <dt>{t('receipt.change')}</dt>
                <dd>
                  <output aria-label={t('receipt.change')} data-testid="receipt-change">
                    {formatRsd(changePara)}
                  </output>
                </dd>
              </div>
            </>
          )}
        </dl>
        <div className="actions" ref={printRef}>
          <ActionButton label={t('action.newSale')} shortcut="Enter" onClick={newSale} className="primary pay" />
          <ActionButton
            label={t('action.printAgain')}
            shortcut="Ctrl+P"
            onClick={() => void print()}
            disabled={!receipt || printing}
          />
          <ActionButton label={t('mail.open')} shortcut="Ctrl+E" onClick={() => setEmailOpen(true)} />
        </div>
        {emailOpen && <EmailReceipt api={props.api} orderId={sale.result.orderId} initial={sale.order?.email ?? ''} />}
        {reprint?.kind === 'copy' && (
          <CopyResult key={reprint.order.orderId} api={props.api} copy={reprint.order} language={language} />
        )}
      </section>
      {receipt && (
        <section className="paper" aria-label={t('receipt.journal')}>
          {receipt.journal.trim() ? (
            <pre className="journal" aria-label={t('receipt.journal')} data-testid="journal">
              {receipt.journal}
            </pre>
          ) : (
            <p role="status">{t('receipt.journalUnavailable', { invoice: receipt.invoiceNumber })}</p>
          )}
          <ReceiptQr url={receipt.verificationUrl} label={t('receipt.qr')} />
        </section>
      )}
    </main>
  );
}
