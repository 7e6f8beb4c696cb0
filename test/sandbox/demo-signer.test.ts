/**
 * Two tills in demo mode each run their own embedded gateway. Each signs as a security element of its own
 * (`demoSigner` of its terminal id), so their invoice numbers never collide: a store hub refuses an invoice
 * number a second till claims (docs/hub.md), and two demo tills enrolled at one hub must both be heard.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { demoSigner } from '../../electron/sandbox/server.ts';
import { BREAD_AND_MILK, closeCores, ok, startCore } from '../support/session.ts';

afterEach(closeCores);

describe('demo tills sign as security elements of their own', () => {
  it('two demo tills: the same first sale gets two different invoice numbers, each with its own signer', async () => {
    const numbers: string[] = [];
    for (const terminal of ['KASA0001', 'KASA0002']) {
      const core = await startCore({ env: { KASA_TERMINAL_ID: terminal } });
      const sold = await ok<{ state: string; receipt?: { invoiceNumber: string } }>(
        core,
        'sales.checkout',
        BREAD_AND_MILK,
      );
      expect(sold.state).toBe('fiscalized');
      const number = sold.receipt?.invoiceNumber ?? '';
      expect(number.split('-')[1]).toBe(demoSigner(terminal));
      numbers.push(number);
    }
    expect(new Set(numbers).size).toBe(2);
  });

  it('a signer is 8 characters, stable for a terminal id, and differs between ids', () => {
    const ids = Array.from({ length: 500 }, (_, i) => `KASA${String(i).padStart(4, '0')}`);
    const signers = ids.map(demoSigner);
    for (const s of signers) expect(s).toMatch(/^D[0-9A-Z]{7}$/);
    expect(new Set(signers).size).toBe(ids.length);
    expect(demoSigner('KASA0001')).toBe(demoSigner('KASA0001'));
  });
});
