/**
 * SEF's documents (shared/sef/ubl.ts) against the OASIS UBL 2.1 schemas: the invoice (380), advance invoice (386)
 * and credit note (381), with the arithmetic in para (docs/sef.md).
 */
import { describe, expect, it } from 'vitest';
import { buildSefDocument, sefTotals, type SefDocumentInput } from '../../shared/sef/ubl.ts';
import { sefCategoryFor } from '../../shared/sef/tax.ts';
import type { TaxLabel } from '../../shared/domain.ts';
import { HAVE_XMLLINT, ublProblems } from './xsd.ts';

const PROD_LABELS: TaxLabel[] = [
  { label: 'Ђ', rate: 20, categoryName: 'О-ПДВ', categoryType: 0 },
  { label: 'Е', rate: 10, categoryName: 'П-ПДВ', categoryType: 0 },
  { label: 'Г', rate: 0, categoryName: 'Без ПДВ', categoryType: 0 },
];

function cat(label: string) {
  const r = sefCategoryFor(label, PROD_LABELS, { Г: { code: 'E', exemptionCode: 'PDV-RS-25-2-3' } });
  if (!r.ok) throw new Error(r.reason);
  return r.category;
}

const base: SefDocumentInput = {
  kind: 'invoice',
  number: 'KASA7K2Q-20261128-4XN9QD-0001',
  issueDate: '2026-11-28',
  vatPoint: '35',
  seller: {
    pib: '100000017',
    registrationNumber: '12345678',
    name: 'Демо д.о.о.',
    city: 'Нови Сад',
    bankAccount: '160-0000000001234-56',
  },
  buyer: { pib: '101134702', name: 'Купац & син д.о.о.', street: 'Балканска 21', city: 'Београд', postalZone: '11000' },
  lines: [
    { name: 'Хлеб <бели>', quantityMilli: 3000, totalPara: 25_500, category: cat('Ђ') },
    { name: 'Млеко', quantityMilli: 1500, totalPara: 19_999, category: cat('Е') },
    { name: 'Марке', quantityMilli: 1000, totalPara: 5_000, category: cat('Г') },
  ],
  fiscalReceipt: { invoiceNumber: 'KS7DEM01-T3STSE01-123', issueDate: '2026-11-28' },
};

describe.skipIf(!HAVE_XMLLINT)('SEF UBL documents against the UBL 2.1 XSD', () => {
  it('an invoice (380) is valid UBL 2.1 and carries the profile, the receipt and the buyer', () => {
    const xml = buildSefDocument(base);
    expect(ublProblems(xml)).toBe('');
    expect(xml).toContain('<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>');
    expect(xml).toContain('urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.rs:srbdt:2021');
    expect(xml).toContain('<cbc:ID>KS7DEM01-T3STSE01-123</cbc:ID>');
    expect(xml).toContain('<cbc:EndpointID schemeID="9948">101134702</cbc:EndpointID>');
    expect(xml).toContain('Купац &amp; син д.о.о.');
    expect(xml).toContain('<cbc:TaxExemptionReasonCode>PDV-RS-25-2-3</cbc:TaxExemptionReasonCode>');
  });

  it('an advance invoice (386) for a public-funds buyer carries JBKJS', () => {
    const xml = buildSefDocument({ ...base, kind: 'advance', buyer: { ...base.buyer, jbkjs: '10520' } });
    expect(ublProblems(xml)).toBe('');
    expect(xml).toContain('<cbc:InvoiceTypeCode>386</cbc:InvoiceTypeCode>');
    expect(xml).toContain('<cac:PartyIdentification><cbc:ID>JBKJS:10520</cbc:ID></cac:PartyIdentification>');
  });

  it('a credit note (381) is valid UBL 2.1 and names the invoice it corrects', () => {
    const xml = buildSefDocument({
      ...base,
      kind: 'credit_note',
      number: 'KASA7K2Q-20261128-4XN9QD-0002',
      corrects: { number: base.number, issueDate: '2026-11-28' },
    });
    expect(ublProblems(xml)).toBe('');
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).toMatch(/<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>KASA7K2Q-20261128-4XN9QD-0001/);
    expect(xml).toContain('<cbc:CreditedQuantity unitCode="H87">3.000</cbc:CreditedQuantity>');
  });

  it('the validation can fail: an element out of the schema order is refused', () => {
    const xml = buildSefDocument(base).replace(
      /(<cbc:IssueDate>2026-11-28<\/cbc:IssueDate>)\n(<cbc:InvoiceTypeCode>380<\/cbc:InvoiceTypeCode>)/,
      '$2\n$1',
    );
    expect(ublProblems(xml)).toMatch(/InvoiceTypeCode|IssueDate/);
  });
});

describe('SEF document arithmetic', () => {
  it('tax per category is the VAT contained in its gross, lines split the taxable amount exactly', () => {
    const t = sefTotals(base.lines);
    expect(t.gross).toBe(25_500 + 19_999 + 5_000);
    // 255,00 at 20 %: 42,50 tax; 199,99 at 10 %: 18,18 tax; exempt: none.
    expect(t.byCategory.map((c) => [c.category.code, c.taxable, c.tax])).toEqual([
      ['S', 21_250, 4_250],
      ['S', 18_181, 1_818],
      ['E', 5_000, 0],
    ]);
    expect(t.lineNet.reduce((a, b) => a + b, 0)).toBe(t.net);
  });

  it('a label of a rate SEF has no category for is refused until the manager maps it', () => {
    expect(sefCategoryFor('Г', PROD_LABELS)).toEqual({ ok: false, reason: 'unmapped' });
    expect(sefCategoryFor('G', PROD_LABELS)).toEqual({ ok: false, reason: 'unknown_label' });
    expect(sefCategoryFor('Ђ', PROD_LABELS)).toEqual({ ok: true, category: { code: 'S', percent: 20 } });
  });
});
