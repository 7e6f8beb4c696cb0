/**
 * Every payment type has exactly one name per language (shared/i18n/enums.ts PAYMENT_NAMES), and the receipt Kasa
 * prints, the report and the counter show that one. Before issue 39 three tables differed: the counter said
 * „Картица“, the slips „Платна картица“ and the report slip „Картица“ / „Инстант“ / „Друго“.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, PAYMENT_TYPES, type PaymentType } from '../../shared/domain.ts';
import { PAYMENT_NAMES, paymentName } from '../../shared/i18n/enums.ts';
import { PAYMENT_TYPE_NAMES } from '../../shared/fiscal-text.ts';
import { reportLines, summarizeOrders } from '../../shared/reports/view.ts';
import { outageSlipLines } from '../../electron/printer/outage-slip.ts';
import { refundSlipLines } from '../../electron/printer/refund-slip.ts';
import { uiMessages } from '../../renderer/src/i18n/ui.ts';

const ROOT = path.join(import.meta.dirname, '../..');

/** The app's source files (not its tests): where a second table of payment names could hide. */
function appSources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : appSources(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

describe('payment-type names', () => {
  it('exactly one name per type and language, and no other table of them in the app', () => {
    for (const lang of LANGUAGES) {
      const names = PAYMENT_NAMES[lang];
      expect(Object.keys(names).sort(), lang).toEqual([...PAYMENT_TYPES].sort());
      for (const type of PAYMENT_TYPES) expect(names[type].trim(), `${lang} ${type}`).not.toBe('');
      expect(new Set(Object.values(names)).size, `${lang}: two types share a name`).toBe(PAYMENT_TYPES.length);
    }
    // A `card: 'Картица'`-like entry anywhere else is a second table.
    const entry = /\b(card|wireTransfer|mobileMoney|voucher|factoring)\s*:\s*'[^']*[А-Яа-яЂЈЉЊЋЏђјљњћџčćšžđ]/;
    const others = ['shared', 'electron', 'renderer/src', 'hub']
      .flatMap(appSources)
      .filter((rel) => rel !== 'shared/i18n/enums.ts' && entry.test(fs.readFileSync(path.join(ROOT, rel), 'utf8')));
    expect(others).toEqual([]);
  });

  it('the receipt, the report and the counter show the same name', () => {
    const report = summarizeOrders([], () => 20, { from: '2026-11-28T00:00', to: '2026-11-28T23:59' });
    for (const type of PAYMENT_TYPES) {
      const name = paymentName('sr-Cyrl', type);
      const payments = [{ type, amountPara: 10_000 }];
      // The paper Kasa prints: the receipt's payment names (the sandbox's journal too), the slips.
      expect(PAYMENT_TYPE_NAMES[type], type).toBe(name);
      const outage = outageSlipLines({
        orderNumber: 'T-1',
        soldAt: '2026-11-28T10:00:00Z',
        lines: [],
        payments,
        totalPara: 10_000,
        changePara: 0,
        terminalId: 'T',
      });
      expect(outage.join('\n'), type).toContain(`${name}:`);
      const refund = refundSlipLines({ invoiceNumber: 'A-B-1', sdcDateTime: '2026-11-28T10:00:00Z', payments });
      expect(refund.join('\n'), type).toContain(`${name}:`);
      // The report slip: the whole name, on its own line when it does not fit beside the amount.
      const lines = reportLines({
        ...report,
        byPayment: [{ type, salesPara: 10_000, refundsPara: 0, netPara: 10_000 }],
      });
      expect(
        lines.some((l) => l.startsWith(name)),
        type,
      ).toBe(true);
      expect(lines.every((l) => l.length <= 32)).toBe(true);
    }
    // The counter's payment buttons, in each language.
    for (const lang of LANGUAGES)
      for (const type of PAYMENT_TYPES)
        expect((uiMessages[lang].payment as Record<PaymentType, string>)[type], `${lang} ${type}`).toBe(
          PAYMENT_NAMES[lang][type],
        );
  });
});
