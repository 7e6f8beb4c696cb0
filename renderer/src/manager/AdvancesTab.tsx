/** The manager's advances tab. */
import { useEffect, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { Language, OrderView, PaymentType } from '../../../shared/domain.ts';
import { formatRsd } from '../../../shared/money.ts';
import type { ManagerText } from './i18n.ts';
import { type T, call, useAction, Alert, PaymentSelect, OrderResult } from './common.tsx';

export function AdvancesTab(props: { api: PosApi; t: T; lang: Language }) {
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
