/**
 * Buyer IDs through the whole core (createCore → dispatch) on a real SQLite file and the
 * embedded sandbox gateway over HTTP. Unknown codes and identifiers against their code's rule are refused
 * at field buyerId, in three languages, with nothing captured; refunds take over the original's buyer ID;
 * a correction without refund of money carries the seller's PIB; no buyer ID only where a manager allows it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import {
  makeRefund,
  tryRefund,
  closeCores,
  control,
  MANAGER_PIN,
  ok,
  orderCount,
  startCore,
} from '../support/session.ts';
import type { RefundSource, SettingsView } from '../../shared/contract/index.ts';
import type { Language, OrderView } from '../../shared/domain.ts';

afterEach(closeCores);

const start = (lang: Language = 'sr-Cyrl'): Promise<Core> =>
  startCore({ prefix: 'kasa-buyer-', env: { KASA_LANG: lang } });

async function ledgerSize(c: Core): Promise<number> {
  return ((await control(c, 'ledger')) as { receipts: unknown[] }).receipts.length;
}

/** What the order was sent with (its frozen request) and what the gateway issued (its stored receipt). */
function sent(c: Core, orderId: number): { request: Record<string, unknown>; receipt: Record<string, unknown> } {
  const row = c.db
    .prepare<[number], { request: string; receipt: string }>('SELECT request, receipt FROM orders WHERE id = ?')
    .get(orderId);
  return {
    request: JSON.parse(row?.request ?? '{}') as Record<string, unknown>,
    receipt: JSON.parse(row?.receipt ?? '{}') as Record<string, unknown>,
  };
}

const sale = (buyerId?: string) => ({
  lines: [
    { name: 'Хлеб', quantity: 3, unitPrice: 80, labels: ['A'] },
    { name: 'Млеко', quantity: 2, unitPrice: 150, labels: ['A'] },
  ],
  payments: [{ type: 'cash', amount: 540 }],
  ...(buyerId ? { buyerId } : {}),
});

const REFUSED: Record<Language, Record<string, string>> = {
  'sr-Cyrl': {
    '99:x': 'Непозната врста ИД купца у пољу „ИД купца“: дозвољене шифре Пореске управе су 10–16, 20–23, 30–35 и 40.',
    '20:abc': 'ИД купца у пољу „ИД купца“: број личне карте или пасоша има тачно 9 цифара.',
    '12:101134702':
      'ИД купца у пољу „ИД купца“: шифра 12 тражи ПИБ:ЈБКЈС (исправан ПИБ од 9 цифара, двотачка, ЈБКЈС од 5 цифара).',
  },
  'sr-Latn': {
    '99:x': 'Nepoznata vrsta ID kupca u polju „ID kupca“: dozvoljene šifre Poreske uprave su 10–16, 20–23, 30–35 i 40.',
    '20:abc': 'ID kupca u polju „ID kupca“: broj lične karte ili pasoša ima tačno 9 cifara.',
    '12:101134702':
      'ID kupca u polju „ID kupca“: šifra 12 traži PIB:JBKJS (ispravan PIB od 9 cifara, dvotačka, JBKJS od 5 cifara).',
  },
  en: {
    '99:x': 'Unknown buyer ID type in "Buyer ID": the Tax Administration codes are 10–16, 20–23, 30–35 and 40.',
    '20:abc': 'Buyer ID in "Buyer ID": an ID card or passport number has exactly 9 digits.',
    '12:101134702':
      'Buyer ID in "Buyer ID": code 12 needs PIB:JBKJS (a valid 9-digit PIB, a colon, the 5-digit JBKJS).',
  },
};

describe('buyer IDs at the counter and in refunds (issue 21, case 10)', () => {
  it.each(['sr-Cyrl', 'sr-Latn', 'en'] as const)(
    'refuses 99:x, 20:abc and 12:<PIB> without :JBKJS at field buyerId with nothing captured (%s)',
    async (lang) => {
      const c = await start(lang);
      const s = await ok<{ orderId: number }>(c, 'sales.checkout', sale());
      const before = orderCount(c);
      const issued = await ledgerSize(c);
      for (const [buyerId, text] of Object.entries(REFUSED[lang])) {
        const atCounter = await c.dispatch('sales.checkout', sale(buyerId));
        expect(atCounter).toMatchObject({
          ok: false,
          error: { code: 'invalid_input', field: 'buyerId', message: text },
        });
        const refund = await tryRefund(c, {
          orderId: s.orderId,
          full: true,
          buyerId,
        });
        expect(refund).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'buyerId', message: text } });
      }
      expect(orderCount(c)).toBe(before);
      expect(await ledgerSize(c)).toBe(issued);
    },
  );

  it('accepts every code of the list by its own rule and sends it as typed', async () => {
    const c = await start();
    for (const buyerId of [
      '10:101134702',
      '11:0101990710008',
      '12:101134702:12345',
      '16:123456789012',
      '20:008123456',
      '22:1234567890123',
      '23:012345678',
      '30:C01X00T47',
      '35:12E3456',
      '40:DE-123456789',
    ]) {
      const s = await ok<OrderView>(c, 'sales.checkout', sale(buyerId));
      expect(s.state).toBe('fiscalized');
      expect(sent(c, s.orderId).request['buyerId']).toBe(buyerId);
      expect(sent(c, s.orderId).receipt['buyerId']).toBe(buyerId);
    }
  });

  it('a refund is prefilled with and takes over the original’s buyer ID', async () => {
    const c = await start();
    const s = await ok<OrderView>(c, 'sales.checkout', sale('20:008123456'));
    const source = await ok<RefundSource>(c, 'refunds.source', { orderId: s.orderId });
    expect(source).toMatchObject({ buyerId: '20:008123456', withoutBuyerIdAllowed: false });
    const refund = await makeRefund(c, {
      orderId: s.orderId,
      lines: [{ index: 0, quantity: 1 }],
    });
    expect(refund.state).toBe('fiscalized');
    expect(sent(c, refund.orderId).request).toMatchObject({ buyerId: '20:008123456' });
    expect(sent(c, refund.orderId).request['settings']).not.toHaveProperty('skipBuyerIdValidation');
    expect(sent(c, refund.orderId).receipt['buyerId']).toBe('20:008123456');
    // Found by its invoice number (as the form does for a typed number), the same.
    const byInvoice = await ok<RefundSource>(c, 'refunds.source', { invoiceNumber: s.receipt?.invoiceNumber });
    expect(byInvoice.buyerId).toBe('20:008123456');
    // A typed buyer ID wins over the original's.
    const typed = await makeRefund(c, {
      orderId: s.orderId,
      lines: [{ index: 0, quantity: 1 }],
      buyerId: '23:012345678',
    });
    expect(sent(c, typed.orderId).request['buyerId']).toBe('23:012345678');
  });

  it('a correction without refund of money carries the seller’s own PIB from the issued receipt', async () => {
    const c = await start('en');
    const s = await ok<OrderView>(c, 'sales.checkout', sale());
    const tin = (sent(c, s.orderId).receipt['additional'] as { tin: string }).tin;
    expect(tin).toMatch(/^\d{9}$/);
    const source = await ok<RefundSource>(c, 'refunds.source', { orderId: s.orderId });
    expect(source.sellerBuyerId).toBe(`10:${tin}`);
    expect(source.buyerId).toBeUndefined();
    // Another buyer ID with a correction is refused at the field, nothing captured.
    const before = orderCount(c);
    const wrong = await tryRefund(c, {
      orderId: s.orderId,
      full: true,
      correction: true,
      buyerId: '20:008123456',
    });
    expect(wrong).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        field: 'buyerId',
        message: `A correction without refund of money carries the seller's PIB ${tin} as the buyer ID (Buyer ID).`,
      },
    });
    expect(orderCount(c)).toBe(before);
    const correction = await makeRefund(c, {
      orderId: s.orderId,
      full: true,
      correction: true,
    });
    expect(correction).toMatchObject({ kind: 'refund_full', state: 'fiscalized' });
    expect(sent(c, correction.orderId).request['buyerId']).toBe(`10:${tin}`);
    expect(sent(c, correction.orderId).receipt['buyerId']).toBe(`10:${tin}`);
    const data = c.db
      .prepare<[number], { data: string }>('SELECT data FROM orders WHERE id = ?')
      .get(correction.orderId);
    expect(JSON.parse(data?.data ?? '{}')).toMatchObject({ correction: true, buyerId: `10:${tin}` });
  });

  it('no buyer ID is refused unless the manager’s setting allows it', async () => {
    const c = await start();
    const s = await ok<OrderView>(c, 'sales.checkout', sale());
    expect((await ok<SettingsView>(c, 'settings.get')).allowRefundWithoutBuyerId).toBe(false);
    const before = orderCount(c);
    const skipped = await tryRefund(c, {
      orderId: s.orderId,
      full: true,
      skipBuyerId: true,
    });
    expect(skipped).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        field: 'buyerId',
        message: 'Повраћај без ИД купца није дозвољен у подешавањима (ИД купца): унесите ИД купца.',
      },
    });
    const none = await tryRefund(c, {
      orderId: s.orderId,
      full: true,
    });
    expect(none).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'buyerId' } });
    expect(orderCount(c)).toBe(before);

    const view = await ok<SettingsView>(c, 'settings.update', {
      managerPin: MANAGER_PIN,
      allowRefundWithoutBuyerId: true,
    });
    expect(view.allowRefundWithoutBuyerId).toBe(true);
    expect((await ok<RefundSource>(c, 'refunds.source', { orderId: s.orderId })).withoutBuyerIdAllowed).toBe(true);
    const allowed = await makeRefund(c, {
      orderId: s.orderId,
      full: true,
      skipBuyerId: true,
    });
    expect(allowed.state).toBe('fiscalized');
    expect(sent(c, allowed.orderId).request).not.toHaveProperty('buyerId');
    expect(sent(c, allowed.orderId).request['settings']).toMatchObject({ skipBuyerIdValidation: true });
  });
});
