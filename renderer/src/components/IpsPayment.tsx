/**
 * Payment by IPS instant transfer (docs/payments.md): the till shows the NBS IPS QR code for what is left to pay,
 * the customer scans it with „IPS скенирај“ in their bank's app, and the cashier confirms once the transfer has
 * arrived on the shop's account („Уплата стигла“): only then is the sale made, with the payment type „Инстант
 * плаћање“ and the code's reference stored with the order. „Откажи“ (Esc) goes back to the payment screen, nothing
 * sold. The code can be printed for a customer who cannot scan the screen.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import type { IpsRequestView } from '../../../shared/contract/index.ts';
import { formatRsd } from '../../../shared/money.ts';
import { IPS_QR_RENDER, formatAccount } from '../../../shared/payments/ips-qr.ts';
import { usePos } from '../context.ts';
import { Modal } from './Modal.tsx';
import { FormErrorText } from './TextField.tsx';

/** The IPS QR code drawn on a canvas, its accessible name saying what it is; `data-payload` holds its text. */
export function IpsQr(props: { payload: string; label: string; scale?: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!ref.current) return;
    QRCode.toCanvas(ref.current, props.payload, { ...IPS_QR_RENDER, scale: props.scale ?? 5 }).catch(() =>
      setFailed(true),
    );
  }, [props.payload, props.scale]);
  return (
    <>
      <canvas ref={ref} role="img" aria-label={props.label} data-payload={props.payload} className="qr ips-qr" />
      {failed && <p className="help">{props.payload}</p>}
    </>
  );
}

/** The code, what it says, and the cashier's three choices. */
export function IpsDialog(props: {
  amountPara: number;
  /** The transfer arrived: make the sale with this reference. */
  onArrived: (reference: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const ipsRequest = usePos((s) => s.ipsRequest);
  const ipsPrint = usePos((s) => s.ipsPrint);
  const ipsHidden = usePos((s) => s.ipsHidden);
  const busy = usePos((s) => s.busy);
  const [view, setView] = useState<IpsRequestView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void ipsRequest(props.amountPara).then((r) => {
      if (!live) return;
      if (r.ok) setView(r.value);
      else setError(r.error.message);
    });
    return () => {
      live = false;
      // The customer display shows the code only while this dialog does.
      ipsHidden();
    };
  }, [ipsRequest, ipsHidden, props.amountPara]);

  const print = () => {
    if (!view) return;
    setNote(null);
    setError(null);
    void ipsPrint(view.amountPara, view.reference).then((r) => {
      if (r.ok) setNote(t('ips.printed'));
      else setError(r.error.message);
    });
  };
  const arrived = () => {
    if (view && !busy) props.onArrived(view.reference);
  };

  return (
    <Modal title={t('ips.title')} onClose={props.onCancel} wide>
      <div
        className="ips-payment"
        onKeyDown={(e) => {
          if (e.key === 'F9') {
            e.preventDefault();
            print();
          }
        }}
      >
        {view ? (
          <>
            <IpsQr payload={view.payload} label={t('ips.qr')} />
            <dl className="ips-fields">
              <div className="ips-amount">
                <dt>{t('ips.amount')}</dt>
                <dd data-testid="ips-amount">{formatRsd(view.amountPara)} RSD</dd>
              </div>
              <div>
                <dt>{t('ips.payee')}</dt>
                <dd>{view.name}</dd>
              </div>
              <div>
                <dt>{t('ips.account')}</dt>
                <dd>{formatAccount(view.account)}</dd>
              </div>
              <div>
                <dt>{t('ips.reference')}</dt>
                <dd data-testid="ips-reference">{view.reference}</dd>
              </div>
            </dl>
            <p className="help">{t('ips.help')}</p>
          </>
        ) : (
          !error && <p role="status">{t('ips.loading')}</p>
        )}
        {note && <p role="status">{note}</p>}
        <FormErrorText text={error} />
      </div>
      <div className="dialog-buttons">
        <button type="button" onClick={props.onCancel} aria-keyshortcuts="Escape">
          {t('ips.cancel')} <kbd>Esc</kbd>
        </button>
        <button type="button" onClick={print} disabled={!view} aria-keyshortcuts="F9">
          {t('ips.print')} <kbd>F9</kbd>
        </button>
        <button type="button" className="primary pay" onClick={arrived} disabled={!view || busy}>
          {busy ? t('pay.saving') : t('ips.arrived')}
        </button>
      </div>
    </Modal>
  );
}
