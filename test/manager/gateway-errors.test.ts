/**
 * explainGatewayError: every gateway error a manager meets on the back-office flows, produced by the real
 * sandbox over HTTP, explained in all three languages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../electron/gateway/client.ts';
import { errorView } from '../../electron/outbox/engine.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import type { GatewayErrorView, Language } from '../../shared/domain.ts';
import { explainGatewayError } from '../../shared/gateway-errors.ts';

let sandbox: Sandbox;
let demo: GatewayClient;
let invoice = '';
let sdc = '';
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  demo = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'demo-key' });
  const r = await demo.issueSale('normal', JSON.stringify(body('S-1')));
  invoice = r.receipt.invoiceNumber;
  sdc = r.receipt.sdcDateTime;
});
afterAll(async () => {
  await sandbox.close();
});

function body(orderNumber: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderNumber,
    items: [{ name: 'Хлеб', quantity: 1, unitPrice: 80, totalAmount: 80, labels: ['A'] }],
    payments: [{ type: 'cash', amount: 80 }],
    ...over,
  };
}

async function failure(call: () => Promise<unknown>): Promise<GatewayErrorView> {
  try {
    await call();
  } catch (err) {
    return errorView(err);
  }
  throw new Error('expected the gateway to refuse');
}

/** The gateway's refusal of a sale of `invoiceType` sent as `body(orderNumber, over)`. */
const saleRefused = (
  invoiceType: string,
  orderNumber: string,
  over: Record<string, unknown>,
): Promise<GatewayErrorView> => failure(() => demo.issueSale(invoiceType, JSON.stringify(body(orderNumber, over))));

const LANGS: Language[] = ['sr-Cyrl', 'sr-Latn', 'en'];

function explainAll(e: GatewayErrorView): { kind: string; texts: string[] } {
  const all = LANGS.map((l) => explainGatewayError(e, l));
  const kinds = new Set(all.map((x) => x.kind));
  expect(kinds.size).toBe(1);
  const texts = all.map((x) => `${x.title} ${x.action}`);
  expect(new Set(texts).size).toBe(3); // really translated
  for (const t of texts) expect(t.length).toBeGreaterThan(30);
  return { kind: all[0]?.kind ?? '', texts };
}

describe('explainGatewayError over real sandbox errors', () => {
  it('ERR_00202 validation names the fields', async () => {
    const e = await saleRefused('normal', 'V-1', { payments: [{ type: 'gold', amount: 80 }] });
    expect(e.code).toBe('ERR_00202');
    const { kind, texts } = explainAll(e);
    expect(kind).toBe('validation');
    // Named in words in each language, never by the gateway's path.
    expect(texts.map((t) => /: ([^.]*)\./.exec(t)?.[1])).toEqual([
      'начин плаћања, плаћање 1',
      'način plaćanja, plaćanje 1',
      'payment type, payment 1',
    ]);
    for (const t of texts) expect(t).not.toMatch(/payments|\[0\]|[A-Za-z]+ is /);
  });

  it('ERR_00701 totals mismatch (advanceAmount repeating amount)', async () => {
    const e = await saleRefused('advance', 'T-1', { payments: [{ type: 'cash', amount: 80, advanceAmount: 80 }] });
    expect(e.code).toBe('ERR_00701');
    expect(explainAll(e).kind).toBe('totals');
    expect(explainGatewayError(e, 'sr-Cyrl').title).toContain('плаћања');
  });

  it('ERR_00201 missing referenced document', async () => {
    const e = await failure(() =>
      demo.issueRefund(
        'normal',
        JSON.stringify(
          body('R-1', { referentDocumentNumber: 'AA-BB-404', referentDocumentDt: sdc, buyerId: '11:1234567890125' }),
        ),
      ),
    );
    expect(e.code).toBe('ERR_00201');
    const { kind, texts } = explainAll(e);
    expect(kind).toBe('missing_reference');
    expect(texts[2]).toContain('AA-BB-404');
  });

  it('ERR_01010 with reason 2310: a label not enabled', async () => {
    const e = await saleRefused('normal', 'L-1', {
      items: [{ name: 'X', quantity: 1, unitPrice: 80, totalAmount: 80, labels: ['Ђ'] }],
    });
    expect(e).toMatchObject({ code: 'ERR_01010', reason: '2310' });
    expect(explainAll(e).kind).toBe('label');
    expect(explainGatewayError(e, 'en').action).toContain('another label');
  });

  it('ERR_00302 advance label rule (409)', async () => {
    const e = await saleRefused('advance', 'A-1', {
      items: [{ name: 'X', quantity: 1, unitPrice: 80, totalAmount: 80, labels: ['Ж'] }],
    });
    expect(e).toMatchObject({ status: 409, code: 'ERR_00302' });
    expect(explainAll(e).kind).toBe('advance_label');
    expect(explainGatewayError(e, 'sr-Latn').title).toContain('A, E ili F');
  });

  it('401 and 403 key problems', async () => {
    const bad = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'nope' });
    const e401 = await failure(() => bad.apiKeyMe());
    expect(e401.status).toBe(401);
    expect(explainAll(e401).kind).toBe('unauthorized');
    const noaccess = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'noaccess-key' });
    const e403 = await failure(() => noaccess.archiveGet(invoice));
    expect(e403).toMatchObject({ status: 403, code: null });
    expect(explainAll(e403).kind).toBe('forbidden');
  });

  it('404 unknown invoice (archive and full refund)', async () => {
    const e = await failure(() => demo.archiveGet('XX-YY-1'));
    expect(e.status).toBe(404);
    expect(explainAll(e).kind).toBe('not_found');
    const full = await failure(() =>
      demo.refundFull('XX-YY-2', JSON.stringify(body('F-1', { buyerId: '11:1234567890125' }))),
    );
    expect(explainAll(full).kind).toBe('not_found');
  });

  it('no connection and server errors say the receipt is safe', () => {
    expect(explainGatewayError({ status: null, code: null, message: 'Network error' }, 'sr-Cyrl').kind).toBe('offline');
    expect(explainGatewayError({ status: 500, code: 'ERR_00002', message: 'x' }, 'en').action).toContain('saved');
  });
});
