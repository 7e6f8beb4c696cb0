/**
 * The final invoice (380) of an advance chain in SEF's profile (docs/sef.md, "The final invoice of an advance
 * chain"): the whole sale's lines and totals, less the advance invoices (386) already sent. SEF carries the
 * deduction in its UBL extension `sbt:SrbDtExt` (namespace http://mfin.gov.rs/srbdt/srbdtext):
 *
 * - per advance invoice an `sbt:InvoicedPrepaymentAmmount` (SEF's spelling): its number (`cbc:ID`) and its
 *   `cac:TaxTotal` per tax category (taxable amount and VAT, as that invoice stated them);
 * - `sbt:ReducedTotals`: the sale's VAT per category less the advances', and the totals less them
 *   (`TaxExclusiveAmount`, `TaxInclusiveAmount` = the invoice's TaxInclusiveAmount − PrepaidAmount, SEF's rule
 *   RSE-03, and `PayableAmount`);
 * - each advance invoice referenced in a `cac:BillingReference` with its issue date (rule RSR-07), and
 *   `cbc:PrepaidAmount` = Σ the advance invoices' totals with VAT.
 *
 * Each advance's figures are recomputed from its own lines with the same arithmetic its invoice was built with
 * (`sefTotals`), so they are the amounts SEF holds for it, to the para. Pure.
 */
import type { Para } from '../money.ts';
import type { SefCategory } from './tax.ts';
import { amount, esc, sefTotals, taxCategory, type SefAdvance, type SefTotals } from './ubl.ts';

export interface AdvanceDeduction {
  advances: { number: string; issueDate: string; totals: SefTotals }[];
  /** Σ the advance invoices' totals with VAT. */
  prepaid: Para;
  /** The sale less the advances, per category and in all. */
  reduced: { byCategory: SefTotals['byCategory']; net: Para; tax: Para; gross: Para };
}

const catKey = (c: SefCategory): string => `${c.code}|${c.percent}|${c.exemptionCode ?? ''}`;

export function advanceDeduction(sale: SefTotals, advances: readonly SefAdvance[]): AdvanceDeduction {
  const adv = advances.map((a) => ({ number: a.number, issueDate: a.issueDate, totals: sefTotals(a.lines) }));
  const byCat = new Map<string, { category: SefCategory; taxable: Para; tax: Para }>();
  for (const c of sale.byCategory) byCat.set(catKey(c.category), { ...c });
  for (const a of adv)
    for (const c of a.totals.byCategory) {
      const e = byCat.get(catKey(c.category)) ?? { category: c.category, taxable: 0, tax: 0 };
      e.taxable -= c.taxable;
      e.tax -= c.tax;
      byCat.set(catKey(c.category), e);
    }
  const prepaid = adv.reduce((s, a) => s + a.totals.gross, 0);
  const net = sale.net - adv.reduce((s, a) => s + a.totals.net, 0);
  const tax = sale.tax - adv.reduce((s, a) => s + a.totals.tax, 0);
  return {
    advances: adv,
    prepaid,
    reduced: { byCategory: [...byCat.values()], net, tax, gross: sale.gross - prepaid },
  };
}

const rsd = (tag: string, para: Para): string => `<cbc:${tag} currencyID="RSD">${amount(para)}</cbc:${tag}>`;

function taxTotal(tax: Para, byCategory: SefTotals['byCategory']): string {
  return (
    `<cac:TaxTotal>${rsd('TaxAmount', tax)}` +
    byCategory
      .map(
        (c) =>
          `<cac:TaxSubtotal>${rsd('TaxableAmount', c.taxable)}${rsd('TaxAmount', c.tax)}` +
          `${taxCategory('TaxCategory', c.category)}</cac:TaxSubtotal>`,
      )
      .join('') +
    '</cac:TaxTotal>'
  );
}

/** `cec:UBLExtensions` with SEF's `sbt:SrbDtExt`: the first child of the invoice. */
export function advanceExtension(d: AdvanceDeduction): string {
  const prepayments = d.advances
    .map(
      (a) =>
        `<sbt:InvoicedPrepaymentAmmount><cbc:ID>${esc(a.number)}</cbc:ID>` +
        `${taxTotal(a.totals.tax, a.totals.byCategory)}</sbt:InvoicedPrepaymentAmmount>`,
    )
    .join('');
  const r = d.reduced;
  const reduced =
    `<sbt:ReducedTotals>${taxTotal(r.tax, r.byCategory)}<cac:LegalMonetaryTotal>` +
    `${rsd('TaxExclusiveAmount', r.net)}${rsd('TaxInclusiveAmount', r.gross)}${rsd('PayableAmount', r.gross)}` +
    '</cac:LegalMonetaryTotal></sbt:ReducedTotals>';
  return (
    '<cec:UBLExtensions><cec:UBLExtension><cec:ExtensionContent>' +
    `<sbt:SrbDtExt>${prepayments}${reduced}</sbt:SrbDtExt>` +
    '</cec:ExtensionContent></cec:UBLExtension></cec:UBLExtensions>'
  );
}

/** One `cac:BillingReference` per advance invoice, with its issue date. */
export function advanceReferences(d: AdvanceDeduction): string {
  return d.advances
    .map(
      (a) =>
        `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${esc(a.number)}</cbc:ID>` +
        `<cbc:IssueDate>${a.issueDate}</cbc:IssueDate></cac:InvoiceDocumentReference></cac:BillingReference>`,
    )
    .join('');
}
