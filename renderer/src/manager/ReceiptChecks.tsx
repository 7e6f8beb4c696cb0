/**
 * Fiscalized sales whose receipt differs from what was sent in its items, payments or extra fields
 * ("differs — check"). The receipt is the sale's own (its identity matched, docs/outbox.md); a manager
 * compares the details. Never a reason to issue the sale again.
 */
import { useEffect, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { Language, OrderView } from '../../../shared/domain.ts';
import { formatRsd } from '../../../shared/money.ts';
import { PAYMENT_NAMES, call, localTime, useAction, Alert } from './common.tsx';
import type { ManagerT } from './i18n.ts';

function fieldName(t: ManagerT, field: string): string {
  if (field === 'items') return t('checks_field_items');
  if (field === 'payments') return t('checks_field_payments');
  if (field.startsWith('metaFields.')) return `${t('checks_field_meta')} (${field.slice('metaFields.'.length)})`;
  return field;
}

/** `cash 540,00; card 10,00` → the payment types named in the UI language. */
function paymentsText(lang: Language, text: string): string {
  const names = PAYMENT_NAMES[lang] as Record<string, string | undefined>;
  return text
    .split('; ')
    .map((part) => {
      const [type, ...rest] = part.split(' ');
      return [names[type ?? ''] ?? type, ...rest].join(' ');
    })
    .join('; ');
}

export function ReceiptChecks(props: { api: PosApi; t: ManagerT; lang: Language }) {
  const { api, t, lang } = props;
  const [orders, setOrders] = useState<OrderView[]>([]);
  const [error, , run] = useAction();
  useEffect(() => {
    void run(async () => {
      setOrders((await call(api['orders.list']({ receiptCheck: true, limit: 100 }))).orders);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (orders.length === 0 && !error) return null;
  return (
    <section aria-label={t('checks_title')}>
      <h3>{t('checks_title')}</h3>
      <p>{t('checks_intro')}</p>
      <ul className="mgr-list" aria-label={t('checks_title')}>
        {orders.map((o) => (
          <li
            key={o.orderId}
            className="mgr-attention"
            aria-label={t('checks_order', { order: o.orderNumber, invoice: o.receiptCheck?.invoiceNumber ?? '' })}
          >
            <p>
              <strong>{o.orderNumber}</strong> · {o.receiptCheck?.invoiceNumber ?? ''} · {formatRsd(o.totalPara)} ·{' '}
              {localTime(o.createdAt, lang)}
            </p>
            <ul>
              {(o.receiptCheck?.fields ?? []).map((f) => (
                <li key={f.field}>
                  {t('checks_field', {
                    field: fieldName(t, f.field),
                    expected: f.field === 'payments' ? paymentsText(lang, f.expected) : f.expected,
                    got: f.field === 'payments' ? paymentsText(lang, f.got) : f.got,
                  })}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <Alert text={error} />
    </section>
  );
}
