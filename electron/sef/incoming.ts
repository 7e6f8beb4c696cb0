/**
 * Incoming e-invoices (docs/sef.md, "Incoming invoices"): a supplier's invoice fetched from SEF becomes a goods
 * receipt draft in one step, through the goods service's own commands (electron/goods: the supplier found by PIB
 * or made, the draft saved with its calculation), in one transaction with the row that says this SEF invoice was
 * taken: a second fetch never makes a second draft.
 *
 * A line's product code is the supplier's item code (`SellersItemIdentification`), else its GTIN, else a code
 * made of the supplier's PIB and the line number; an unknown product gets the name, the gateway's label of the
 * line's VAT rate and a unit from the line's unit code. The purchase price is the line's net price rounded to the
 * para. The margin starts at 0 %: the draft is the manager's to price before posting (nothing moves before).
 */
import type { Db } from '../db/open.ts';
import type { GoodsService } from '../goods/service.ts';
import type { Caller } from '../auth/context.ts';
import type { TaxLabel } from '../../shared/domain.ts';
import type { SefIncomingResult } from '../../shared/contract/sef.ts';
import { ReceiptInput, type SupplierView } from '../../shared/contract/goods.ts';
import { pibProblem } from '../../shared/goods/pib.ts';
import { child, childrenNamed, parseXml, textAt, type XmlElement } from '../../shared/sef/xml.ts';
import type { SefClient } from '../../shared/node/sef-client.ts';
import { CommandError } from '../errors.ts';

export interface IncomingDeps {
  db: Db;
  goods: GoodsService;
  taxLabels: () => readonly TaxLabel[];
  now: () => number;
  /** A failure in the manager's language (a goods refusal, an unreadable invoice). */
  describe: (err: unknown) => string;
}

/** A parsed incoming invoice, before it is a draft. */
export interface IncomingInvoice {
  number: string;
  issueDate: string;
  supplier: { pib: string; name: string; address: string | null; account: string | null };
  lines: {
    code: string;
    name: string;
    gtin?: string | undefined;
    quantity: number;
    unit: 'piece' | 'kg' | 'l';
    netPrice: number;
    percent: number;
  }[];
}

const UNITS: Record<string, 'piece' | 'kg' | 'l'> = { KGM: 'kg', LTR: 'l', H87: 'piece', C62: 'piece', XPP: 'piece' };

/** Reads a supplier's UBL invoice; throws a CommandError saying what is missing. */
export function readIncoming(xml: string): IncomingInvoice {
  let doc: XmlElement;
  try {
    doc = parseXml(xml);
  } catch {
    throw new CommandError('invalid_input', 'sef_incoming_not_xml');
  }
  if (doc.name !== 'Invoice') throw new CommandError('invalid_input', 'sef_incoming_not_invoice');
  const party = child(doc, 'AccountingSupplierParty', 'Party');
  const pib = textAt(party, 'EndpointID') ?? textAt(party, 'PartyTaxScheme', 'CompanyID')?.replace(/^RS/, '') ?? '';
  if (pibProblem(pib)) throw new CommandError('invalid_input', 'sef_incoming_pib', { pib: pib || '—' });
  const name = textAt(party, 'PartyLegalEntity', 'RegistrationName') ?? textAt(party, 'PartyName', 'Name') ?? pib;
  const addr = child(party, 'PostalAddress');
  const address = [textAt(addr, 'StreetName'), textAt(addr, 'CityName')].filter(Boolean).join(', ') || null;
  const account = textAt(doc, 'PaymentMeans', 'PayeeFinancialAccount', 'ID') ?? null;
  const number = textAt(doc, 'ID');
  const issueDate = textAt(doc, 'IssueDate');
  if (!number || !issueDate) throw new CommandError('invalid_input', 'sef_incoming_no_number');
  const lines = childrenNamed(doc, 'InvoiceLine').map((l: XmlElement, i: number) => {
    const item = child(l, 'Item');
    const qty = child(l, 'InvoicedQuantity');
    const gtin = textAt(item, 'StandardItemIdentification', 'ID');
    const sellers = textAt(item, 'SellersItemIdentification', 'ID');
    const quantity = Number(qty?.text.trim());
    const net = Number(textAt(l, 'LineExtensionAmount'));
    if (!(quantity > 0) || !Number.isFinite(net))
      throw new CommandError('invalid_input', 'sef_incoming_line', { line: i + 1 });
    const priceText = textAt(l, 'Price', 'PriceAmount');
    const netPrice = priceText !== undefined ? Number(priceText) : net / quantity;
    return {
      code: (sellers ?? (gtin && /^\d{8,14}$/.test(gtin) ? gtin : undefined) ?? `${pib}-${i + 1}`).slice(0, 32),
      name: (textAt(item, 'Name') ?? `Ставка ${i + 1}`).slice(0, 100),
      gtin: gtin && /^\d{8,14}$/.test(gtin) ? gtin : undefined,
      quantity: Math.round(quantity * 1000) / 1000,
      unit: UNITS[qty?.attrs['unitCode'] ?? 'H87'] ?? 'piece',
      netPrice: Math.round(netPrice * 100) / 100,
      percent: Number(textAt(item, 'ClassifiedTaxCategory', 'Percent') ?? '0'),
    };
  });
  if (lines.length === 0) throw new CommandError('invalid_input', 'sef_incoming_line', { line: 1 });
  return {
    number: number.slice(0, 40),
    issueDate,
    supplier: { pib, name: name.slice(0, 120), address, account },
    lines,
  };
}

/** Fetches every new incoming invoice and makes each a goods receipt draft, once. */
export async function fetchIncoming(
  deps: IncomingDeps,
  client: SefClient,
  caller: Caller | undefined,
): Promise<SefIncomingResult> {
  const ids = await client.purchaseIds();
  const seen = deps.db.prepare<[number], { sef_id: number }>(
    'SELECT sef_id FROM sef_purchase_invoices WHERE sef_id = ?',
  );
  const result: SefIncomingResult = { made: [], skipped: 0, failed: [] };
  for (const sefId of ids) {
    if (seen.get(sefId)) {
      result.skipped++;
      continue;
    }
    let invoice: IncomingInvoice;
    try {
      invoice = readIncoming(await client.purchaseXml(sefId));
    } catch (e) {
      result.failed.push({ sefId, reason: deps.describe(e) });
      continue;
    }
    try {
      const made = deps.db.transaction(() => {
        if (seen.get(sefId)) return null;
        const supplier: SupplierView =
          deps.goods.suppliers().find((x) => x.pib === invoice.supplier.pib) ??
          deps.goods.putSupplier(
            {
              name: invoice.supplier.name,
              pib: invoice.supplier.pib,
              address: invoice.supplier.address,
              account:
                invoice.supplier.account && /^(\d{3}-\d{1,13}-\d{2}|\d{18})$/.test(invoice.supplier.account)
                  ? invoice.supplier.account
                  : null,
            },
            caller,
          );
        const labels = deps.taxLabels();
        const input = ReceiptInput.parse({
          supplierId: supplier.id,
          invoiceNumber: invoice.number,
          invoiceDate: invoice.issueDate,
          lines: invoice.lines.map((l) => {
            const label = labels.find((t) => t.rate === l.percent)?.label;
            return {
              code: l.code,
              name: l.name,
              ...(label ? { label } : {}),
              unit: l.unit,
              ...(l.gtin ? { barcode: l.gtin } : {}),
              quantity: l.quantity,
              purchasePrice: l.netPrice,
              marginPercent: 0,
            };
          }),
        });
        const receipt = deps.goods.saveDraft(input);
        deps.db
          .prepare(
            'INSERT INTO sef_purchase_invoices (sef_id, receipt_id, supplier_pib, number, fetched_at) VALUES (?, ?, ?, ?, ?)',
          )
          .run(sefId, receipt.id, invoice.supplier.pib, invoice.number, new Date(deps.now()).toISOString());
        return {
          sefId,
          receiptId: receipt.id,
          supplier: supplier.name,
          invoiceNumber: invoice.number,
          lines: input.lines.length,
        };
      })();
      if (made) result.made.push(made);
      else result.skipped++;
    } catch (e) {
      result.failed.push({ sefId, reason: deps.describe(e) });
    }
  }
  return result;
}
