/**
 * SEF's documents in UBL 2.1, Serbian profile (docs/sef.md): the invoice (380) and advance invoice (386) of a
 * fiscalized sale or advance, and the credit note (381) of a refund. Built from what the till holds: para,
 * thousandths and the gateway's tax labels (mapped to SEF categories before they get here, `shared/sef/tax.ts`).
 *
 * Retail prices include VAT. Per category, the tax is the VAT contained in the category's gross total (as the
 * fiscal receipt computes it), the taxable amount the rest, and the lines' net amounts that taxable amount split
 * in proportion to their gross totals: so Σ line net = taxable amount per category and Σ tax = the receipt's,
 * exactly, in para. The sale was paid at the till: the whole amount is prepaid and nothing is payable.
 */
import { apportion } from '../tax-summary.ts';
import { includedTax, roundDiv, type Milli, type Para } from '../money.ts';
import type { SefCategory } from './tax.ts';
import { advanceDeduction, advanceExtension, advanceReferences } from './final.ts';

/** The profile (docs/sef.md, "Unsure": the 2021 form the framework spec gives). */
export const SEF_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.rs:srbdt:2021';
/** The profile of a document that carries SEF's extension (a final invoice's advances: docs/sef.md, rule RSR-02). */
export const SEF_EXTENSION_CUSTOMIZATION_ID =
  'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.rs:srbdt:2022#conformant#urn:mfin.gov.rs:srbdtext:2022';
/** The namespace of SEF's extension (`sbt:SrbDtExt`). */
export const SEF_EXTENSION_NS = 'http://mfin.gov.rs/srbdt/srbdtext';

export type SefDocumentKind = 'invoice' | 'advance' | 'credit_note';

export const SEF_TYPE_CODE: Readonly<Record<SefDocumentKind, string>> = {
  invoice: '380',
  advance: '386',
  credit_note: '381',
};

/** When VAT is due (`cac:InvoicePeriod/cbc:DescriptionCode`): 35 delivery date, 3 issue date, 432 payment. */
export type SefVatPoint = '35' | '3' | '432';

export interface SefParty {
  /** 9 digits. */
  pib: string;
  /** Matični broj (8 digits), when known. */
  registrationNumber?: string | undefined;
  /** A public-funds user's JBKJS (5 digits): buyer ID `12:PIB:JBKJS`. */
  jbkjs?: string | undefined;
  name: string;
  street?: string | undefined;
  city?: string | undefined;
  postalZone?: string | undefined;
}

export interface SefSeller extends SefParty {
  /** The account payments go to (`cac:PayeeFinancialAccount`), when the shop set one. */
  bankAccount?: string | undefined;
}

export interface SefLine {
  name: string;
  /** Positive thousandths. */
  quantityMilli: Milli;
  /** The line's gross (VAT-inclusive) total after its discount, positive para. */
  totalPara: Para;
  category: SefCategory;
}

export interface SefDocumentInput {
  kind: SefDocumentKind;
  /** The document's number, unique per seller (SEF refuses a number it has seen). */
  number: string;
  /** YYYY-MM-DD in the shop's zone. */
  issueDate: string;
  vatPoint: SefVatPoint;
  seller: SefSeller;
  buyer: SefParty;
  lines: SefLine[];
  /** The fiscal receipt this document stands beside (docs/sef.md, "fiscal receipt"). */
  fiscalReceipt: { invoiceNumber: string; issueDate: string };
  /** A credit note: the e-invoice it corrects. */
  corrects?: { number: string; issueDate: string } | undefined;
  /**
   * A final invoice (380) of an advance chain: the advance invoices (386) already sent, each with its own lines, so
   * that the deduction is exactly what each advance invoice stated (shared/sef/final.ts).
   */
  advances?: readonly SefAdvance[] | undefined;
  note?: string | undefined;
}

export interface SefAdvance {
  number: string;
  issueDate: string;
  lines: readonly SefLine[];
}

/** The totals, in para, as written to the document (tests and the list read them). */
export interface SefTotals {
  net: Para;
  tax: Para;
  gross: Para;
  byCategory: { category: SefCategory; taxable: Para; tax: Para }[];
  lineNet: Para[];
}

const EXT_XMLNS =
  'xmlns:cec="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2" ' +
  `xmlns:sbt="${SEF_EXTENSION_NS}"`;
const XMLNS =
  'xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" ' +
  'xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';

export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Para → "1234.50" (exact: integer arithmetic, no float formatting). */
export function amount(para: Para): string {
  const sign = para < 0 ? '-' : '';
  const abs = Math.abs(para);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Thousandths → "1.500". */
export function quantity(milli: Milli): string {
  return `${Math.floor(milli / 1000)}.${String(milli % 1000).padStart(3, '0')}`;
}

/** A unit price in ten-thousandths of a dinar → "12.3457" (SEF takes up to four decimals). */
function price4(tenThousandths: number): string {
  return `${Math.floor(tenThousandths / 10000)}.${String(tenThousandths % 10000).padStart(4, '0')}`;
}

const catKey = (c: SefCategory) => `${c.code}|${c.percent}|${c.exemptionCode ?? ''}`;

/** The document's arithmetic (see the module's comment). */
export function sefTotals(lines: readonly SefLine[]): SefTotals {
  const groups = new Map<string, { category: SefCategory; idx: number[]; gross: Para }>();
  lines.forEach((line, i) => {
    const key = catKey(line.category);
    const g = groups.get(key) ?? { category: line.category, idx: [], gross: 0 };
    g.idx.push(i);
    g.gross += line.totalPara;
    groups.set(key, g);
  });
  const lineNet: Para[] = lines.map(() => 0);
  const byCategory: SefTotals['byCategory'] = [];
  for (const g of groups.values()) {
    const tax = g.category.code === 'S' ? includedTax(g.gross, g.category.percent) : 0;
    const taxable = g.gross - tax;
    const parts = apportion(
      taxable,
      g.idx.map((i) => (lines[i] as SefLine).totalPara),
    );
    g.idx.forEach((i, k) => (lineNet[i] = parts[k] as number));
    byCategory.push({ category: g.category, taxable, tax });
  }
  const net = byCategory.reduce((s, c) => s + c.taxable, 0);
  const tax = byCategory.reduce((s, c) => s + c.tax, 0);
  return { net, tax, gross: net + tax, byCategory, lineNet };
}

function party(p: SefParty): string {
  const parts = [`<cbc:EndpointID schemeID="9948">${esc(p.pib)}</cbc:EndpointID>`];
  if (p.jbkjs !== undefined) {
    parts.push(`<cac:PartyIdentification><cbc:ID>JBKJS:${esc(p.jbkjs)}</cbc:ID></cac:PartyIdentification>`);
  }
  parts.push(`<cac:PartyName><cbc:Name>${esc(p.name)}</cbc:Name></cac:PartyName>`);
  parts.push(
    '<cac:PostalAddress>' +
      (p.street ? `<cbc:StreetName>${esc(p.street)}</cbc:StreetName>` : '') +
      (p.city ? `<cbc:CityName>${esc(p.city)}</cbc:CityName>` : '') +
      (p.postalZone ? `<cbc:PostalZone>${esc(p.postalZone)}</cbc:PostalZone>` : '') +
      '<cac:Country><cbc:IdentificationCode>RS</cbc:IdentificationCode></cac:Country></cac:PostalAddress>',
  );
  parts.push(
    `<cac:PartyTaxScheme><cbc:CompanyID>RS${esc(p.pib)}</cbc:CompanyID>` +
      '<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>',
  );
  parts.push(
    `<cac:PartyLegalEntity><cbc:RegistrationName>${esc(p.name)}</cbc:RegistrationName>` +
      (p.registrationNumber ? `<cbc:CompanyID>${esc(p.registrationNumber)}</cbc:CompanyID>` : '') +
      '</cac:PartyLegalEntity>',
  );
  return `<cac:Party>${parts.join('')}</cac:Party>`;
}

export function taxCategory(tag: 'TaxCategory' | 'ClassifiedTaxCategory', c: SefCategory): string {
  return (
    `<cac:${tag}><cbc:ID>${c.code}</cbc:ID><cbc:Percent>${c.percent}</cbc:Percent>` +
    (c.exemptionCode ? `<cbc:TaxExemptionReasonCode>${esc(c.exemptionCode)}</cbc:TaxExemptionReasonCode>` : '') +
    `<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:${tag}>`
  );
}

/** The document's UBL 2.1 XML (UTF-8). Throws on input the document cannot carry (no lines, a negative line). */
export function buildSefDocument(input: SefDocumentInput): string {
  if (input.lines.length === 0) throw new Error('an e-invoice needs at least one line');
  for (const l of input.lines) {
    if (!(l.quantityMilli > 0) || l.totalPara < 0) throw new Error('an e-invoice line needs a positive quantity');
  }
  const credit = input.kind === 'credit_note';
  const root = credit ? 'CreditNote' : 'Invoice';
  const ns = credit
    ? 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2'
    : 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
  const t = sefTotals(input.lines);
  const r = input.fiscalReceipt;
  const note = [`Фискални рачун ${r.invoiceNumber}`, input.note].filter(Boolean).join('; ');
  const deduction = input.advances?.length && !credit ? advanceDeduction(t, input.advances) : null;
  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  if (deduction) {
    out.push(`<${root} xmlns="${ns}" ${XMLNS} ${EXT_XMLNS}>`);
    out.push(advanceExtension(deduction));
    out.push(`<cbc:CustomizationID>${SEF_EXTENSION_CUSTOMIZATION_ID}</cbc:CustomizationID>`);
  } else {
    out.push(`<${root} xmlns="${ns}" ${XMLNS}>`);
    out.push(`<cbc:CustomizationID>${SEF_CUSTOMIZATION_ID}</cbc:CustomizationID>`);
  }
  out.push(`<cbc:ID>${esc(input.number)}</cbc:ID>`);
  out.push(`<cbc:IssueDate>${input.issueDate}</cbc:IssueDate>`);
  if (credit) out.push(`<cbc:CreditNoteTypeCode>${SEF_TYPE_CODE[input.kind]}</cbc:CreditNoteTypeCode>`);
  else out.push(`<cbc:InvoiceTypeCode>${SEF_TYPE_CODE[input.kind]}</cbc:InvoiceTypeCode>`);
  out.push(`<cbc:Note>${esc(note)}</cbc:Note>`);
  out.push('<cbc:DocumentCurrencyCode>RSD</cbc:DocumentCurrencyCode>');
  out.push(`<cac:InvoicePeriod><cbc:DescriptionCode>${input.vatPoint}</cbc:DescriptionCode></cac:InvoicePeriod>`);
  if (input.corrects !== undefined) {
    out.push(
      `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${esc(input.corrects.number)}</cbc:ID>` +
        `<cbc:IssueDate>${input.corrects.issueDate}</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>`,
    );
  }
  if (deduction) out.push(advanceReferences(deduction));
  out.push(
    `<cac:AdditionalDocumentReference><cbc:ID>${esc(r.invoiceNumber)}</cbc:ID>` +
      `<cbc:IssueDate>${r.issueDate}</cbc:IssueDate>` +
      '<cbc:DocumentDescription>Фискални рачун</cbc:DocumentDescription></cac:AdditionalDocumentReference>',
  );
  out.push(`<cac:AccountingSupplierParty>${party(input.seller)}</cac:AccountingSupplierParty>`);
  out.push(`<cac:AccountingCustomerParty>${party(input.buyer)}</cac:AccountingCustomerParty>`);
  if (!credit) out.push(`<cac:Delivery><cbc:ActualDeliveryDate>${r.issueDate}</cbc:ActualDeliveryDate></cac:Delivery>`);
  if (input.seller.bankAccount) {
    out.push(
      '<cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode>' +
        `<cac:PayeeFinancialAccount><cbc:ID>${esc(input.seller.bankAccount)}</cbc:ID></cac:PayeeFinancialAccount>` +
        '</cac:PaymentMeans>',
    );
  }
  out.push(`<cac:TaxTotal><cbc:TaxAmount currencyID="RSD">${amount(t.tax)}</cbc:TaxAmount>`);
  for (const c of t.byCategory) {
    out.push(
      `<cac:TaxSubtotal><cbc:TaxableAmount currencyID="RSD">${amount(c.taxable)}</cbc:TaxableAmount>` +
        `<cbc:TaxAmount currencyID="RSD">${amount(c.tax)}</cbc:TaxAmount>` +
        `${taxCategory('TaxCategory', c.category)}</cac:TaxSubtotal>`,
    );
  }
  out.push('</cac:TaxTotal>');
  out.push(
    '<cac:LegalMonetaryTotal>' +
      `<cbc:LineExtensionAmount currencyID="RSD">${amount(t.net)}</cbc:LineExtensionAmount>` +
      `<cbc:TaxExclusiveAmount currencyID="RSD">${amount(t.net)}</cbc:TaxExclusiveAmount>` +
      `<cbc:TaxInclusiveAmount currencyID="RSD">${amount(t.gross)}</cbc:TaxInclusiveAmount>` +
      // Paid at the till: all of it prepaid. A final invoice: the advances prepaid, the rest paid with the final
      // fiscal receipt is what the invoice asks (SEF's rule RSE-03 ties the reduced totals to it).
      `<cbc:PrepaidAmount currencyID="RSD">${amount(deduction ? deduction.prepaid : t.gross)}</cbc:PrepaidAmount>` +
      `<cbc:PayableAmount currencyID="RSD">${amount(deduction ? t.gross - deduction.prepaid : 0)}</cbc:PayableAmount>` +
      '</cac:LegalMonetaryTotal>',
  );
  input.lines.forEach((line, i) => {
    const net = t.lineNet[i] as Para;
    const tag = credit ? 'CreditNoteLine' : 'InvoiceLine';
    const qty = credit ? 'CreditedQuantity' : 'InvoicedQuantity';
    // Net unit price in ten-thousandths of a dinar: net para × 100 × 1000 / thousandths.
    const unit = roundDiv(net * 100_000, line.quantityMilli);
    out.push(
      `<cac:${tag}><cbc:ID>${i + 1}</cbc:ID>` +
        `<cbc:${qty} unitCode="H87">${quantity(line.quantityMilli)}</cbc:${qty}>` +
        `<cbc:LineExtensionAmount currencyID="RSD">${amount(net)}</cbc:LineExtensionAmount>` +
        `<cac:Item><cbc:Name>${esc(line.name)}</cbc:Name>${taxCategory('ClassifiedTaxCategory', line.category)}</cac:Item>` +
        `<cac:Price><cbc:PriceAmount currencyID="RSD">${price4(unit)}</cbc:PriceAmount></cac:Price></cac:${tag}>`,
    );
  });
  out.push(`</${root}>`);
  return out.join('\n');
}
