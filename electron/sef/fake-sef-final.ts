/**
 * The fake SEF's checks of a final invoice that deducts advance invoices (docs/sef.md, "The final invoice of an
 * advance chain"), as SEF's rules state them: the extension's profile (RSR-02), each deducted advance an advance
 * invoice (386) this seller sent this buyer and referenced with its issue date (RSR-07), deducted with exactly the
 * taxable amounts and VAT that invoice stated, the prepaid amount their total, and the reduced totals the invoice
 * less the advances (RSE-03). Errors in SEF's words (Serbian Latin).
 */
import { SEF_CUSTOMIZATION_ID, SEF_EXTENSION_CUSTOMIZATION_ID } from '../../shared/sef/ubl.ts';
import { child, childrenNamed, descendants, parseXml, textAt, type XmlElement } from '../../shared/sef/xml.ts';

type FieldError = { FieldName: string; ErrorMessage: string };

/** What the checks need of a document SEF holds. */
export interface HeldDocument {
  number: string;
  sellerPib: string;
  buyerPib: string;
  typeCode: string;
  status: string;
  xml: string;
}

const paraOf = (text: string | undefined): number => Math.round(Number(text ?? 'NaN') * 100);

/** A TaxTotal's subtotals per category (`S|20`), in para. */
function subtotals(taxTotal: XmlElement | undefined): Map<string, { taxable: number; tax: number }> {
  const out = new Map<string, { taxable: number; tax: number }>();
  for (const st of childrenNamed(taxTotal, 'TaxSubtotal')) {
    const key = `${textAt(st, 'TaxCategory', 'ID') ?? ''}|${Number(textAt(st, 'TaxCategory', 'Percent'))}`;
    const e = out.get(key) ?? { taxable: 0, tax: 0 };
    e.taxable += paraOf(textAt(st, 'TaxableAmount'));
    e.tax += paraOf(textAt(st, 'TaxAmount'));
    out.set(key, e);
  }
  return out;
}

const sameSubtotals = (a: Map<string, { taxable: number; tax: number }>, b: typeof a): boolean =>
  [...new Set([...a.keys(), ...b.keys()])].every(
    (k) => (a.get(k)?.taxable ?? 0) === (b.get(k)?.taxable ?? 0) && (a.get(k)?.tax ?? 0) === (b.get(k)?.tax ?? 0),
  );

/** The profile a document must carry: the extension's when it has SEF's extension. */
export function profileErrors(doc: XmlElement): FieldError[] {
  const ext = descendants(doc, 'SrbDtExt').length > 0;
  const id = textAt(doc, 'CustomizationID');
  if (id === (ext ? SEF_EXTENSION_CUSTOMIZATION_ID : SEF_CUSTOMIZATION_ID)) return [];
  return [
    {
      FieldName: 'CustomizationID',
      ErrorMessage: ext
        ? `Identifikator specifikacije fakture koja koristi ekstenzije treba da počinje sa '${SEF_EXTENSION_CUSTOMIZATION_ID}'`
        : 'Nepoznat profil (CustomizationID)',
    },
  ];
}

/** A final invoice's deduction of its advance invoices checked against the advance invoices SEF holds. */
export function finalInvoiceErrors(doc: XmlElement, seller: string, buyer: string, held: HeldDocument[]): FieldError[] {
  const ext = descendants(doc, 'SrbDtExt')[0];
  if (!ext) return [];
  const errors: FieldError[] = [];
  const refs = new Map(
    childrenNamed(doc, 'BillingReference').map((b) => [
      textAt(b, 'InvoiceDocumentReference', 'ID') ?? '',
      textAt(b, 'InvoiceDocumentReference', 'IssueDate'),
    ]),
  );
  const deducted = new Map<string, { taxable: number; tax: number }>();
  let prepaid = 0;
  for (const p of childrenNamed(ext, 'InvoicedPrepaymentAmmount')) {
    const id = textAt(p, 'ID') ?? '';
    const advance = held.find(
      (d) =>
        d.number === id &&
        d.sellerPib === seller &&
        d.typeCode === '386' &&
        !['Cancelled', 'Storno', 'Rejected'].includes(d.status),
    );
    if (!advance || advance.buyerPib !== buyer) {
      errors.push({ FieldName: 'InvoicedPrepaymentAmmount', ErrorMessage: `Avansna faktura ${id} ne postoji` });
      continue;
    }
    const issued = textAt(parseXml(advance.xml), 'IssueDate');
    if (!refs.has(id) || refs.get(id) !== issued)
      errors.push({
        FieldName: 'BillingReference',
        ErrorMessage: `Referenca na avansnu fakturu ${id} treba da sadrži njen datum izdavanja (${issued ?? '?'})`,
      });
    const stated = subtotals(child(parseXml(advance.xml), 'TaxTotal'));
    const claimed = subtotals(child(p, 'TaxTotal'));
    if (!sameSubtotals(stated, claimed))
      errors.push({
        FieldName: 'InvoicedPrepaymentAmmount',
        ErrorMessage: `Osnovica i PDV avansa ${id} nisu jednaki iznosima avansne fakture`,
      });
    for (const [k, v] of stated) {
      const e = deducted.get(k) ?? { taxable: 0, tax: 0 };
      e.taxable += v.taxable;
      e.tax += v.tax;
      deducted.set(k, e);
    }
    prepaid += paraOf(textAt(parseXml(advance.xml), 'LegalMonetaryTotal', 'TaxInclusiveAmount'));
  }
  const totals = child(doc, 'LegalMonetaryTotal');
  if (paraOf(textAt(totals, 'PrepaidAmount')) !== prepaid)
    errors.push({
      FieldName: 'PrepaidAmount',
      ErrorMessage: 'Plaćeni iznos (BT-113) nije jednak zbiru avansnih faktura',
    });
  const reduced = child(ext, 'ReducedTotals');
  if (
    paraOf(textAt(reduced, 'LegalMonetaryTotal', 'TaxInclusiveAmount')) !==
    paraOf(textAt(totals, 'TaxInclusiveAmount')) - paraOf(textAt(totals, 'PrepaidAmount'))
  )
    errors.push({
      FieldName: 'ReducedTotals',
      ErrorMessage:
        '[RSE-03]-Umanjen ukupan iznos treba da bude jednak razlici ukupnog iznosa sa PDV-om (BT-112) i plaćenog iznosa (BT-113)',
    });
  const expected = subtotals(child(doc, 'TaxTotal'));
  for (const [k, v] of deducted) {
    const e = expected.get(k) ?? { taxable: 0, tax: 0 };
    expected.set(k, { taxable: e.taxable - v.taxable, tax: e.tax - v.tax });
  }
  if (!sameSubtotals(expected, subtotals(child(reduced, 'TaxTotal'))))
    errors.push({
      FieldName: 'ReducedTotals',
      ErrorMessage: 'Umanjena osnovica i PDV po kategorijama nisu jednaki iznosima fakture umanjenim za avanse',
    });
  return errors;
}
