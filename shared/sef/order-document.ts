/**
 * An order's e-invoice, from the order as the till keeps it and the store hub stores it (docs/sef.md): its lines as
 * SEF lines (each tax label to its SEF category through the gateway's rates: the receipt's own tax items first) and
 * the document's XML. Used by the till's SEF outbox (electron/sef/service.ts) and the hub's (hub/services/sef.ts);
 * what it refuses is a `SefRefusal` naming the field, which each side turns into its own error.
 */
import type { TaxLabel } from '../domain.ts';
import { dayIn } from '../i18n/time.ts';
import { splitBuyerId } from '../buyer-id.ts';
import { sefCategoryFor, type SefLabelCategory } from './tax.ts';
import { buildSefDocument, type SefAdvance, type SefDocumentKind, type SefLine, type SefSeller } from './ubl.ts';

/** Why a document cannot be built: the field at fault, the message key and its parameters. */
export class SefRefusal extends Error {
  readonly field: string;
  readonly key: string;
  readonly params: Record<string, string>;
  constructor(field: string, key: string, params: Record<string, string> = {}) {
    super(key);
    this.name = 'SefRefusal';
    this.field = field;
    this.key = key;
    this.params = params;
  }
}

/** An order's line as both sides keep it. */
export interface SefOrderLine {
  name: string;
  quantityMilli: number;
  totalPara: number;
  labels: readonly string[];
}

/** A receipt's tax item as both sides keep it (the gateway's rates as applied). */
export interface SefReceiptTax {
  label?: string | undefined;
  rate?: number | string | undefined;
  categoryName?: string | undefined;
}

/** The labels and rates for an order: the receipt's own tax items first, then the gateway's rates now. */
function labelsOf(taxItems: readonly SefReceiptTax[], now: readonly TaxLabel[]): TaxLabel[] {
  const fromReceipt: TaxLabel[] = taxItems.flatMap((t) =>
    t.label === undefined
      ? []
      : [{ label: t.label, rate: Number(t.rate ?? 0), categoryName: t.categoryName ?? '', categoryType: 0 }],
  );
  const known = new Set(fromReceipt.map((l) => l.label));
  return [...fromReceipt, ...now.filter((l) => !known.has(l.label))];
}

/**
 * The order's lines as SEF lines, each label's rate from the receipt's own tax items, else from the gateway's rates
 * `now`; refuses a label not mapped to a SEF category (`labelCategories`).
 */
export function sefLinesOf(
  lines: readonly SefOrderLine[],
  taxItems: readonly SefReceiptTax[],
  now: readonly TaxLabel[],
  labelCategories: Record<string, SefLabelCategory>,
): SefLine[] {
  const labels = labelsOf(taxItems, now);
  const out: SefLine[] = [];
  for (const l of lines) {
    const label = l.labels[0];
    if (label === undefined || l.labels.length > 1)
      throw new SefRefusal('labelCategories', 'sef_label_unmapped', { label: l.labels.join(', ') });
    const cat = sefCategoryFor(label, labels, labelCategories);
    if (!cat.ok) throw new SefRefusal('labelCategories', 'sef_label_unmapped', { label });
    const quantityMilli = Math.abs(l.quantityMilli);
    const totalPara = Math.abs(l.totalPara);
    if (quantityMilli === 0 || totalPara === 0) continue;
    out.push({ name: l.name, quantityMilli, totalPara, category: cat.category });
  }
  return out;
}

export interface SefOrderDocumentInput {
  kind: SefDocumentKind;
  number: string;
  /** The day it is issued (the shop's calendar). */
  issueDate: string;
  seller: SefSeller;
  buyerId: string;
  buyerName: string | null;
  lines: SefLine[];
  fiscalReceipt: { invoiceNumber: string; issueDate: string };
  corrects?: { number: string; issueDate: string } | undefined;
  advances?: readonly SefAdvance[] | undefined;
}

/** Refuses a shop without the seller's PIB and name. */
export function sefCheckSeller(seller: SefSeller): void {
  if (!seller.pib || !seller.name) throw new SefRefusal('seller.pib', 'sef_no_seller');
}

const ISSUABLE_BUYERS = ['10', '12'];

/** What of an order decides its e-invoice (both sides' order shapes have these). */
export interface SefOrderKindInput {
  buyerId?: string | undefined;
  invoiceType: string;
  transactionType: string;
  /** Fiscalized, with its receipt. */
  fiscalized: boolean;
}

/** The document an order calls for (a `10:`/`12:` buyer, fiscalized, not training, copy or proforma), or why none. */
export function sefKindOf(o: SefOrderKindInput): { kind: SefDocumentKind } | { refuse: string } {
  const buyer = o.buyerId ? splitBuyerId(o.buyerId) : null;
  if (!buyer || !ISSUABLE_BUYERS.includes(buyer.code)) return { refuse: 'sef_not_business_buyer' };
  if (o.invoiceType === 'training' || o.invoiceType === 'copy' || o.invoiceType === 'proforma') {
    return { refuse: 'sef_not_issuable' };
  }
  if (!o.fiscalized) return { refuse: 'sef_not_fiscalized' };
  if (o.transactionType === 'refund') return { kind: 'credit_note' };
  if (o.invoiceType === 'advance') return { kind: 'advance' };
  return { kind: 'invoice' };
}

/** The document's XML; refuses a shop without its seller data or a buyer that is not a business's. */
export function sefOrderDocument(d: SefOrderDocumentInput): string {
  sefCheckSeller(d.seller);
  const buyer = splitBuyerId(d.buyerId);
  if (!buyer) throw new SefRefusal('orderId', 'sef_not_business_buyer');
  const [pib, jbkjs] = buyer.id.split(':') as [string, string | undefined];
  return buildSefDocument({
    kind: d.kind,
    number: d.number,
    issueDate: d.issueDate,
    vatPoint: '35',
    seller: d.seller,
    buyer: { pib, jbkjs, name: d.buyerName ?? pib },
    lines: d.lines,
    fiscalReceipt: d.fiscalReceipt,
    corrects: d.corrects,
    advances: d.advances,
  });
}

/** The issue date a sent document carries (its XML is frozen at the first send), else the day it was made. */
export function sefIssueDateOf(doc: { xml: string | null; created_at: string }): string {
  return (
    /<cbc:IssueDate>(\d{4}-\d{2}-\d{2})<\/cbc:IssueDate>/.exec(doc.xml ?? '')?.[1] ?? dayIn(new Date(doc.created_at))
  );
}
