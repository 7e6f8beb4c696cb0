/**
 * IPS instant payments through the whole core (createCore on a real SQLite file, the embedded sandbox gateway over
 * HTTP, a real TCP printer on an ephemeral port decoded with the project's ESC/POS decoder):
 * - the manager's IPS account is checked by its control pair at the field, in the user's language, nothing saved;
 * - `ips.request` builds the PT code for the shop's account and name, and refuses before they are set;
 * - a sale paid by the transfer is fiscalized with the payment type `mobileMoney` („Инстант плаћање“ on the
 *   journal), its reference stored with the order and sent in the receipt's metaFields;
 * - a reference without an IPS payment is refused at its field with nothing saved;
 * - the code prints as a native QR with the amount, the account and the reference under it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IpsRequestView, SettingsView } from '../../shared/contract/index.ts';
import type { OrderView } from '../../shared/domain.ts';
import { parseIpsQr } from '../../shared/payments/ips-qr.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset } from '../../electron/printer/profiles.ts';
import { until, attachPrinter } from '../printer/helpers.ts';
import { cleanupAfterEach } from '../support/cleanups.ts';
import {
  BREAD_AND_MILK,
  closeCores,
  fails,
  MANAGER_PIN,
  ok,
  orderCount,
  settled,
  startCore,
} from '../support/session.ts';

const later = cleanupAfterEach();
afterEach(closeCores);

const ACCOUNT = '840000000095584510';
const setIps = (core: Parameters<typeof ok>[0], ipsAccount: string, ipsName = 'Продавница Код Мике') =>
  ok<SettingsView>(core, 'settings.update', { managerPin: MANAGER_PIN, ipsAccount, ipsName });

describe('the IPS settings', () => {
  it("refuses an account whose check digits are wrong at its field, in the user's language, saving nothing", async () => {
    const core = await startCore();
    const bad = await fails(core, 'settings.update', {
      managerPin: MANAGER_PIN,
      ipsAccount: '840-955845-11',
      ipsName: 'Продавница Код Мике',
    });
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'ipsAccount' });
    expect(bad.message).toBe(
      'Рачун у пољу „Рачун за ИПС уплате“ нема исправан контролни број (последње две цифре): проверите да ли је тачно преписан.',
    );
    const shape = await fails(core, 'settings.update', { managerPin: MANAGER_PIN, ipsAccount: '840-9558' });
    expect(shape).toMatchObject({ code: 'invalid_input', field: 'ipsAccount' });
    expect(shape.message).toContain('840-955845-10');
    expect(await ok<SettingsView>(core, 'settings.get')).toMatchObject({ ipsAccount: '', ipsName: '' });

    await ok(core, 'settings.update', { managerPin: MANAGER_PIN, language: 'en' });
    const en = await fails(core, 'settings.update', { managerPin: MANAGER_PIN, ipsAccount: '840000000095584511' });
    expect(en.message).toBe(
      'The account in “Account for IPS payments” has wrong check digits (the last two): check it was copied exactly.',
    );
    await ok(core, 'settings.update', { managerPin: MANAGER_PIN, language: 'sr-Latn' });
    const latn = await fails(core, 'settings.update', { managerPin: MANAGER_PIN, ipsAccount: '840000000095584511' });
    expect(latn.message).toContain('nema ispravan kontrolni broj');

    // Written the usual way, it is stored as the 18 digits the code carries; a cashier cannot set it.
    expect(await setIps(core, ' 840-955845-10 ')).toMatchObject({ ipsAccount: ACCOUNT });
    expect((await fails(core, 'settings.update', { managerPin: '1111', ipsAccount: '' })).code).toBe('forbidden');
    // The name is one line without the delimiter.
    const pipe = await fails(core, 'settings.update', { managerPin: MANAGER_PIN, ipsName: 'Мика|Жика' });
    expect(pipe).toMatchObject({ code: 'invalid_input', field: 'ipsName' });
  });
});

describe('a sale paid by IPS', () => {
  it('the code names the shop, the amount and a model 97 reference; the sale carries mobileMoney and the reference', async () => {
    const core = await startCore({ now: () => Date.parse('2026-11-28T15:30:05Z') });
    const notSet = await fails(core, 'ips.request', { amount: 540 });
    expect(notSet).toMatchObject({ code: 'unavailable' });
    expect(notSet.message).toContain('Менаџер → Подешавања → ИПС плаћање');
    await setIps(core, '840-955845-10');

    const qr = await ok<IpsRequestView>(core, 'ips.request', { amount: 540 });
    // 16:30:05 in Belgrade on 28.11.2026, then two random digits, under model 97 with its control pair.
    expect(qr.reference).toMatch(/^97\d{2}261128163005\d{2}$/);
    expect(parseIpsQr(qr.payload)).toEqual({
      ok: true,
      fields: {
        kind: 'PT',
        account: ACCOUNT,
        name: 'Продавница Код Мике',
        amountPara: 54000,
        paymentCode: '221',
        reference: qr.reference,
      },
    });

    // The cashier sees the transfer arrive: the sale is made with the instant payment and the reference.
    const sale = await ok<{ orderId: number; state: string }>(core, 'sales.checkout', {
      lines: BREAD_AND_MILK.lines,
      payments: [{ type: 'mobileMoney', amount: 540 }],
      ipsReference: qr.reference,
    });
    await settled(core, sale.orderId);
    const order = await ok<OrderView>(core, 'orders.get', { orderId: sale.orderId });
    expect(order.payments).toEqual([{ type: 'mobileMoney', amountPara: 54000 }]);
    expect(order.ipsReference).toBe(qr.reference);
    expect(order.receipt?.journal).toMatch(/Инстант плаћање: +540,00/);
    const request = JSON.parse(
      core.db.prepare<[number], { request: string }>('SELECT request FROM orders WHERE id = ?').get(sale.orderId)!
        .request,
    ) as { payments: unknown; metaFields: Record<string, string> };
    expect(request.payments).toEqual([{ type: 'mobileMoney', amount: 540 }]);
    expect(request.metaFields['ipsReference']).toBe(qr.reference);
  });

  it('refuses a reference on a sale without an IPS payment, or a forged one, at its field; nothing is saved', async () => {
    const core = await startCore();
    await setIps(core, ACCOUNT);
    const qr = await ok<IpsRequestView>(core, 'ips.request', { amount: 540 });
    const before = orderCount(core);
    const cash = await fails(core, 'sales.checkout', { ...BREAD_AND_MILK, ipsReference: qr.reference });
    expect(cash).toMatchObject({ code: 'invalid_input', field: 'ipsReference' });
    expect(cash.message).toContain('ИПС (инстант)');
    const forged = await fails(core, 'sales.checkout', {
      lines: BREAD_AND_MILK.lines,
      payments: [{ type: 'mobileMoney', amount: 540 }],
      ipsReference: `97${qr.reference.slice(2, 4) === '00' ? '01' : '00'}${qr.reference.slice(4)}`,
    });
    expect(forged).toMatchObject({ code: 'invalid_input', field: 'ipsReference' });
    expect(orderCount(core)).toBe(before);
  });

  it('prints the code on the thermal printer as a native QR with what it says under it', async () => {
    const profile = findPreset('epson-tm-t88v')!;
    const core = await startCore({ env: { KASA_LANG: 'sr-Cyrl', KASA_PRINTER_ALLOW_LOOPBACK: '1' } });
    await setIps(core, ACCOUNT);
    const qr = await ok<IpsRequestView>(core, 'ips.request', { amount: 1234.56 });
    expect((await fails(core, 'ips.print', { amount: 1234.56, reference: qr.reference })).message).toBe(
      'Штампач није подешен — Менаџер → Подешавања → Штампач',
    );
    const server = await attachPrinter(core, later, { autoPrint: true });
    await ok(core, 'ips.print', { amount: 1234.56, reference: qr.reference });
    await until(() => server.jobs.length === 1);
    const printed = decodeEscPos(server.jobs[0]!, { codePages: codePageNumbers(profile) });
    expect(printed.problems).toEqual([]);
    expect(printed.drawerPulses).toEqual([]);
    expect(printed.qr).toHaveLength(1);
    // The decoder reads the QR's bytes one to one: the UTF-8 of the name comes back through latin1.
    expect(Buffer.from(printed.qr[0]!.data, 'latin1').toString('utf8')).toBe(qr.payload);
    const lines = printed.lines.map((l) => l.trimEnd()).filter((l) => l !== '');
    expect(lines[0]).toBe('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
    expect(lines.at(-1)).toBe('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');
    expect(lines).toEqual(
      expect.arrayContaining([
        'Износ: 1.234,56 RSD',
        'Прималац: Продавница Код Мике',
        'Рачун: 840-0000000955845-10',
        `Позив на број: ${qr.reference}`,
      ]),
    );
  });
});
