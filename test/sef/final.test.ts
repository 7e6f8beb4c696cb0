/**
 * The final invoice of an advance chain in SEF (docs/sef.md, "The final invoice of an advance chain"): on a whole
 * till (real SQLite file, the sandbox gateway over HTTP, the embedded fake SEF over HTTP) a business buyer pays two
 * advances, each sent as an advance invoice (386), then the final sale; its e-invoice (380) deducts both advance
 * invoices (SEF's extension, the references, the prepaid amount, the reduced totals), is valid against the UBL 2.1
 * XSDs, and goes to SEF exactly once through the outbox. Before the advances' e-invoices are at SEF it is refused
 * at the order with nothing saved; a wrong deduction is refused by the fake SEF as SEF refuses it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import type { SefDocumentView } from '../../shared/contract/sef.ts';
import type { OrderView } from '../../shared/domain.ts';
import { closeCores, fails, ok, startCore } from '../support/session.ts';
import { parseXml, child, textAt } from '../../shared/sef/xml.ts';
import { HAVE_XMLLINT, ublProblems } from './xsd.ts';

const SEND = 'POST /api/publicApi/sales-invoice/ubl';
const BUSINESS = '10:101134702';
let clock = Date.parse('2026-11-28T10:00:00Z');
const now = () => clock;

afterEach(closeCores);

const para = (text: string | undefined): number => Math.round(Number(text) * 100);

async function advance(c: Core, price: number, label: string, previous?: number): Promise<OrderView> {
  const lines = [{ name: `Аванс (${label})`, quantity: 1, unitPrice: price, labels: [label] }];
  const payments = [{ type: 'wireTransfer', amount: price }];
  const o =
    previous === undefined
      ? await ok<OrderView>(c, 'sales.checkout', { lines, payments, invoiceType: 'advance', buyerId: BUSINESS })
      : await ok<OrderView>(c, 'advances.add', { orderId: previous, lines, payments });
  expect(o.state).toBe('fiscalized');
  return o;
}

async function sendAll(c: Core): Promise<void> {
  await c.sef.outbox.pass();
}

describe('the final e-invoice of an advance chain', () => {
  it('deducts the advance invoices sent, is valid UBL 2.1, and reaches SEF once', async () => {
    const c = await startCore({ now });
    const fake = c.sef.link.fake();
    if (!fake) throw new Error('no embedded fake SEF in demo mode');
    const first = await advance(c, 1_200, 'A');
    const second = await advance(c, 330, 'A', first.orderId);
    const final = await ok<OrderView>(c, 'advances.finalize', {
      orderId: second.orderId,
      lines: [
        { name: 'Столица', quantity: 2, unitPrice: 900, labels: ['A'] },
        { name: 'Књига', quantity: 1, unitPrice: 550, labels: ['A'] },
      ],
      payments: [{ type: 'wireTransfer', amount: 1_800 + 550 - 1_530 }],
    });
    expect(final.state).toBe('fiscalized');
    expect(final.buyerId).toBe(BUSINESS);

    // Before the advances' e-invoices are at SEF: refused at the order, naming the advance; nothing saved.
    const early = await fails(c, 'sef.issue', { orderId: final.orderId });
    expect(early).toMatchObject({ code: 'invalid_input', field: 'orderId' });
    expect(early.message).toContain(first.orderNumber);
    expect((await ok<{ documents: SefDocumentView[] }>(c, 'sef.list', {})).documents).toHaveLength(0);

    for (const a of [first, second]) await ok(c, 'sef.issue', { orderId: a.orderId });
    await sendAll(c);
    expect(fake.controls.documents().map((d) => d.typeCode)).toEqual(['386', '386']);

    const doc = await ok<SefDocumentView>(c, 'sef.issue', { orderId: final.orderId });
    expect(doc.kind).toBe('invoice');
    expect((await ok<SefDocumentView>(c, 'sef.issue', { orderId: final.orderId })).id).toBe(doc.id);
    await sendAll(c);
    clock += 60_000;
    await sendAll(c);
    const sent = fake.controls.documents().filter((d) => d.number === final.orderNumber);
    expect(sent).toHaveLength(1);
    expect(fake.controls.stats()[SEND]).toBe(3);
    const listed = (await ok<{ documents: SefDocumentView[] }>(c, 'sef.list', {})).documents;
    expect(listed.find((d) => d.id === doc.id)?.state).toMatch(/sent|accepted/);

    const xml = sent[0]?.xml ?? '';
    if (HAVE_XMLLINT) expect(ublProblems(xml)).toBe('');
    expect(xml).toContain('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>');
    expect(xml).toContain('urn:mfin.gov.rs:srbdtext:2022');
    for (const a of [first, second]) {
      expect(xml).toContain(`<sbt:InvoicedPrepaymentAmmount><cbc:ID>${a.orderNumber}</cbc:ID>`);
      expect(xml).toContain(`<cac:InvoiceDocumentReference><cbc:ID>${a.orderNumber}</cbc:ID>`);
    }
    const root = parseXml(xml);
    const totals = child(root, 'LegalMonetaryTotal');
    expect(para(textAt(totals, 'TaxInclusiveAmount'))).toBe(235_000);
    expect(para(textAt(totals, 'PrepaidAmount'))).toBe(153_000);
    expect(para(textAt(totals, 'PayableAmount'))).toBe(82_000);
    const reduced = child(root, 'UBLExtensions', 'UBLExtension', 'ExtensionContent', 'SrbDtExt', 'ReducedTotals');
    expect(para(textAt(reduced, 'LegalMonetaryTotal', 'TaxInclusiveAmount'))).toBe(82_000);
    // The reduced VAT is the sale's VAT less the advances' (the demo account's A is 10 %): 213,64 within 2 350,00
    // less 109,09 within 1 200,00 and 30,00 within 330,00.
    expect(para(textAt(reduced, 'TaxTotal', 'TaxAmount'))).toBe(21_364 - 10_909 - 3_000);

    /** The document sent to the fake SEF as another number under its own request id: SEF's field errors. */
    const refused = async (doc: string, suffix: string) => {
      const res = await fetch(`${fake.url}/api/publicApi/sales-invoice/ubl?requestId=wrong-${suffix}&sendToCir=No`, {
        method: 'POST',
        headers: { ApiKey: fake.apiKey, 'Content-Type': 'application/xml' },
        body: doc.replace(`<cbc:ID>${final.orderNumber}</cbc:ID>`, `<cbc:ID>${final.orderNumber}-${suffix}</cbc:ID>`),
      });
      expect(res.status).toBe(400);
      return ((await res.json()) as { FieldErrors?: { FieldName: string; ErrorMessage: string }[] }).FieldErrors;
    };
    // A wrong deduction (the prepaid amount off by a dinar) is refused as SEF refuses it.
    const prepaidOff = xml.replace(
      '<cbc:PrepaidAmount currencyID="RSD">1530.00',
      '<cbc:PrepaidAmount currencyID="RSD">1529.00',
    );
    expect((await refused(prepaidOff, 'X'))?.map((e) => e.FieldName)).toEqual(['PrepaidAmount', 'ReducedTotals']);
    // An advance deducted with other amounts than its invoice stated is refused too.
    const otherAmounts = xml.replace(
      /(<sbt:InvoicedPrepaymentAmmount>.*?<cbc:TaxableAmount currencyID="RSD">)[\d.]+/s,
      '$11.00',
    );
    expect((await refused(otherAmounts, 'Y'))?.[0]?.ErrorMessage).toMatch(/Osnovica i PDV avansa .* nisu jednaki/);
    expect(fake.controls.documents()).toHaveLength(3);
  }, 90_000);
});
