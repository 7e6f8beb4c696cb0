/**
 * A local fake SEF over real HTTP, built from the public API's shapes (shared/sef/api.ts, docs/sef.md): what the
 * sandbox gateway is for the fiscal API. Tests run against it, and demo mode embeds it when no SEF key is set.
 *
 * What it does as SEF does:
 * - `ApiKey` header, else 401;
 * - a sales document in UBL (`POST …/sales-invoice/ubl?requestId=…&sendToCir=…`) is checked (profile, number
 *   unique per seller, the buyer registered on SEF, a public-funds buyer's JBKJS known, S only at 20 % or 10 %,
 *   totals that add up, a final invoice's deduction of its advance invoices: electron/sef/fake-sef-final.ts) and
 *   refused with SEF-shaped errors (`ErrorCode`, `Message`, `FieldErrors`), or stored;
 * - the same `requestId` again returns the first result and stores nothing (SEF's idempotency key);
 * - statuses: Sent, then the buyer's Approved or Rejected (`decide`, or `autoDecision` on the next status read),
 *   Cancelled (seller, before the buyer acted), Storno (seller, after approval);
 * - incoming (purchase) invoices: their ids and each one's UBL;
 * - the register of companies (`getAllCompanies`, `CheckIfCompanyRegisteredOnEfaktura`).
 *
 * Fault injection as the sandbox's (electron/sandbox/faults.ts): drop before processing, process then drop the
 * answer (the lost answer), 500, delay, hang.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultPlan, type FaultRule } from '../sandbox/faults.ts';
import { readBody } from '../../shared/node/http/index.ts';
import { finalInvoiceErrors, profileErrors } from './fake-sef-final.ts';
import {
  child,
  childrenNamed,
  descendants,
  parseXml,
  textAt,
  XmlError,
  type XmlElement,
} from '../../shared/sef/xml.ts';
import { SEF_PATHS, type ErrorReply, type SefCompany, type SefStatus } from '../../shared/sef/api.ts';

export const FAKE_SEF_KEY = 'sef-demo-key';

export interface FakeSefDocument {
  invoiceId: number;
  salesInvoiceId: number;
  purchaseInvoiceId: number;
  requestId: string;
  number: string;
  sellerPib: string;
  buyerPib: string;
  typeCode: string;
  status: SefStatus;
  comment: string | null;
  xml: string;
}

export interface FakeSefControls {
  setFaults(rules: readonly FaultRule[], seed?: number): void;
  /** Every document SEF holds (what a test counts: one per requestId, one per number). */
  documents(): FakeSefDocument[];
  /** The buyer's decision on a sent document. */
  decide(invoiceId: number, status: 'Approved' | 'Rejected', comment?: string): void;
  /** The decision applied at the next status read of a Sent document (demo mode: Approved); null: none. */
  setAutoDecision(status: 'Approved' | 'Rejected' | null): void;
  addCompany(company: SefCompany): void;
  /** An incoming invoice from a supplier, for the shop; returns its purchase invoice id. */
  addPurchaseInvoice(xml: string): number;
  /** Requests by "METHOD path", as clients sent them (dropped ones too). */
  stats(): Record<string, number>;
  /** Drops the connections of requests held by a `hang` fault (their clients see the connection reset). */
  releaseHung(): void;
}

export interface FakeSef {
  url: string;
  apiKey: string;
  controls: FakeSefControls;
  close(): Promise<void>;
}

export interface FakeSefOptions {
  port?: number;
  apiKey?: string;
  companies?: SefCompany[];
  autoDecision?: 'Approved' | 'Rejected' | null;
}

/** Companies every fake SEF knows (the demo shop's buyers and suppliers). */
export const FAKE_SEF_COMPANIES: SefCompany[] = [
  { VatRegistrationCode: '100002508', RegistrationCode: '08000017', Name: 'Демо д.о.о.' },
  { VatRegistrationCode: '101134702', RegistrationCode: '07012345', Name: 'Купац д.о.о.' },
  {
    VatRegistrationCode: '100002532',
    RegistrationCode: '07076765',
    Name: 'Дом здравља Нови Сад',
    BugetCompanyNumber: '10520',
  },
  { VatRegistrationCode: '100002516', RegistrationCode: '08000084', Name: 'Добављач д.о.о.' },
];

class Refusal extends Error {
  readonly status: number;
  readonly body: ErrorReply;
  constructor(status: number, body: ErrorReply) {
    super(body.Message ?? 'refused');
    this.status = status;
    this.body = body;
  }
}

const invalid = (fields: { FieldName: string; ErrorMessage: string }[]): Refusal =>
  new Refusal(400, { ErrorCode: 'ValidationError', Message: 'Validacija nije prošla', FieldErrors: fields });

const paraOf = (text: string | undefined): number => Math.round(Number(text ?? 'NaN') * 100);

export async function startFakeSef(options: FakeSefOptions = {}): Promise<FakeSef> {
  const apiKey = options.apiKey ?? FAKE_SEF_KEY;
  const faults = new FaultPlan();
  const companies = new Map<string, SefCompany>();
  for (const c of [...FAKE_SEF_COMPANIES, ...(options.companies ?? [])]) companies.set(c.VatRegistrationCode, c);
  const docs: FakeSefDocument[] = [];
  const byRequest = new Map<string, FakeSefDocument>();
  const purchases: { id: number; xml: string }[] = [];
  let autoDecision = options.autoDecision ?? null;
  let nextId = 1001;
  const counts = new Map<string, number>();
  const hung = new Set<http.ServerResponse>();

  const sendReply = (d: FakeSefDocument) => ({
    InvoiceId: d.invoiceId,
    PurchaseInvoiceId: d.purchaseInvoiceId,
    SalesInvoiceId: d.salesInvoiceId,
  });

  /** SEF's checks of a sales document; returns what it stores. */
  function check(
    xml: string,
    requestId: string,
  ): Omit<FakeSefDocument, 'invoiceId' | 'salesInvoiceId' | 'purchaseInvoiceId'> {
    let doc: XmlElement;
    try {
      doc = parseXml(xml);
    } catch (e) {
      throw invalid([{ FieldName: 'xml', ErrorMessage: e instanceof XmlError ? e.message : 'Dokument nije XML' }]);
    }
    const errors: { FieldName: string; ErrorMessage: string }[] = [];
    if (doc.name !== 'Invoice' && doc.name !== 'CreditNote') {
      throw invalid([{ FieldName: 'Invoice', ErrorMessage: 'Dokument nije ni faktura ni knjižno odobrenje' }]);
    }
    errors.push(...profileErrors(doc));
    const number = textAt(doc, 'ID') ?? '';
    if (number === '') errors.push({ FieldName: 'ID', ErrorMessage: 'Broj fakture je obavezan' });
    const typeCode = textAt(doc, doc.name === 'Invoice' ? 'InvoiceTypeCode' : 'CreditNoteTypeCode') ?? '';
    if (!['380', '386', '381', '383'].includes(typeCode)) {
      errors.push({ FieldName: 'InvoiceTypeCode', ErrorMessage: `Vrsta dokumenta ${typeCode} nije dozvoljena` });
    }
    const sellerPib = textAt(doc, 'AccountingSupplierParty', 'Party', 'EndpointID') ?? '';
    const buyer = child(doc, 'AccountingCustomerParty', 'Party');
    const buyerPib = textAt(buyer, 'EndpointID') ?? '';
    const company = companies.get(buyerPib);
    if (!company || company.Deleted) {
      errors.push({
        FieldName: 'AccountingCustomerParty',
        ErrorMessage: `Kompanija sa PIB-om ${buyerPib} nije registrovana na SEF-u`,
      });
    }
    const jbkjs = textAt(buyer, 'PartyIdentification', 'ID');
    if (jbkjs !== undefined && company && jbkjs !== `JBKJS:${company.BugetCompanyNumber ?? ''}`) {
      errors.push({
        FieldName: 'PartyIdentification',
        ErrorMessage: `${jbkjs} ne pripada PIB-u ${buyerPib}`,
      });
    }
    if (company?.BugetCompanyNumber && jbkjs === undefined) {
      errors.push({
        FieldName: 'PartyIdentification',
        ErrorMessage: 'Za korisnika javnih sredstava JBKJS je obavezan',
      });
    }
    if (typeCode === '381' && !child(doc, 'BillingReference')) {
      errors.push({
        FieldName: 'BillingReference',
        ErrorMessage: 'Knjižno odobrenje mora da navede fakturu koju ispravlja',
      });
    }
    for (const cat of [...descendants(doc, 'TaxCategory'), ...descendants(doc, 'ClassifiedTaxCategory')]) {
      const id = textAt(cat, 'ID');
      const pct = Number(textAt(cat, 'Percent'));
      if (id === 'S' && pct !== 20 && pct !== 10) {
        errors.push({ FieldName: 'TaxCategory', ErrorMessage: `Kategorija S je 20 ili 10 procenata, ne ${pct}` });
      }
      if (id !== 'S' && textAt(cat, 'TaxExemptionReasonCode') === undefined) {
        errors.push({
          FieldName: 'TaxExemptionReasonCode',
          ErrorMessage: `Kategorija ${id ?? '?'} traži šifru osnova oslobođenja`,
        });
      }
    }
    const totals = child(doc, 'LegalMonetaryTotal');
    const lineTag = doc.name === 'Invoice' ? 'InvoiceLine' : 'CreditNoteLine';
    const lines = childrenNamed(doc, lineTag);
    if (lines.length === 0) errors.push({ FieldName: lineTag, ErrorMessage: 'Faktura mora imati bar jednu stavku' });
    const sumLines = lines.reduce((s, l) => s + paraOf(textAt(l, 'LineExtensionAmount')), 0);
    if (sumLines !== paraOf(textAt(totals, 'LineExtensionAmount'))) {
      errors.push({ FieldName: 'LegalMonetaryTotal', ErrorMessage: 'Zbir stavki nije jednak ukupnom iznosu' });
    }
    const tax = paraOf(textAt(doc, 'TaxTotal', 'TaxAmount'));
    if (paraOf(textAt(totals, 'TaxExclusiveAmount')) + tax !== paraOf(textAt(totals, 'TaxInclusiveAmount'))) {
      errors.push({
        FieldName: 'TaxInclusiveAmount',
        ErrorMessage: 'Iznos bez PDV-a i PDV ne daju iznos sa PDV-om',
      });
    }
    if (
      number !== '' &&
      docs.some((d) => d.sellerPib === sellerPib && d.number === number && d.status !== 'Cancelled')
    ) {
      errors.push({ FieldName: 'ID', ErrorMessage: `Faktura broj ${number} već postoji` });
    }
    errors.push(...finalInvoiceErrors(doc, sellerPib, buyerPib, docs));
    if (errors.length > 0) throw invalid(errors);
    return { requestId, number, sellerPib, buyerPib, typeCode, status: 'Sent', comment: null, xml };
  }

  function find(invoiceId: number): FakeSefDocument {
    const d = docs.find((x) => x.invoiceId === invoiceId);
    if (!d) throw new Refusal(404, { ErrorCode: 'NotFound', Message: `Invoice ${invoiceId} not found` });
    return d;
  }

  async function route(
    req: http.IncomingMessage,
    url: URL,
    body: Buffer,
  ): Promise<{ status: number; body: unknown; xml?: boolean }> {
    if (req.headers['apikey'] !== apiKey)
      throw new Refusal(401, { ErrorCode: 'Unauthorized', Message: 'Invalid API key' });
    const method = req.method ?? 'GET';
    const p = url.pathname;
    const json = (): Record<string, unknown> => {
      try {
        const v: unknown = JSON.parse(body.toString('utf8') || '{}');
        return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
      } catch {
        throw invalid([{ FieldName: 'body', ErrorMessage: 'Not JSON' }]);
      }
    };
    if (method === 'POST' && p === SEF_PATHS.send) {
      const requestId = url.searchParams.get('requestId') ?? '';
      if (requestId === '') throw invalid([{ FieldName: 'requestId', ErrorMessage: 'requestId is required' }]);
      const cir = url.searchParams.get('sendToCir');
      if (cir !== 'Yes' && cir !== 'No') throw invalid([{ FieldName: 'sendToCir', ErrorMessage: 'Yes or No' }]);
      const seen = byRequest.get(requestId);
      if (seen) return { status: 200, body: sendReply(seen) };
      const checked = check(body.toString('utf8'), requestId);
      const id = nextId++;
      const d: FakeSefDocument = {
        ...checked,
        invoiceId: id,
        salesInvoiceId: id + 50_000,
        purchaseInvoiceId: id + 90_000,
      };
      docs.push(d);
      byRequest.set(requestId, d);
      return { status: 200, body: sendReply(d) };
    }
    if (method === 'GET' && p.startsWith(`${SEF_PATHS.byRequestId}/`)) {
      const d = byRequest.get(decodeURIComponent(p.slice(SEF_PATHS.byRequestId.length + 1)));
      if (!d) throw new Refusal(404, { ErrorCode: 'NotFound', Message: 'No document with this requestId' });
      return { status: 200, body: sendReply(d) };
    }
    if (method === 'GET' && p === SEF_PATHS.status) {
      const d = find(Number(url.searchParams.get('invoiceId')));
      if (d.status === 'Sent' && autoDecision) d.status = autoDecision;
      return { status: 200, body: { InvoiceId: d.invoiceId, Status: d.status, Comment: d.comment } };
    }
    if (method === 'POST' && (p === SEF_PATHS.cancel || p === SEF_PATHS.storno)) {
      const input = json();
      const d = find(Number(input['invoiceId']));
      const comment = String(input['cancelComments'] ?? input['stornoComment'] ?? '');
      if (p === SEF_PATHS.cancel) {
        if (d.status !== 'Sent' && d.status !== 'Seen') {
          throw new Refusal(400, {
            ErrorCode: 'InvalidStatus',
            Message: `A document in status ${d.status} cannot be cancelled`,
          });
        }
        d.status = 'Cancelled';
      } else {
        if (d.status !== 'Approved') {
          throw new Refusal(400, {
            ErrorCode: 'InvalidStatus',
            Message: `A document in status ${d.status} cannot be stornoed`,
          });
        }
        d.status = 'Storno';
      }
      d.comment = comment || null;
      return { status: 200, body: { InvoiceId: d.invoiceId, Status: d.status } };
    }
    if (method === 'POST' && p === SEF_PATHS.purchaseIds) {
      return { status: 200, body: { PurchaseInvoiceIds: purchases.map((x) => x.id) } };
    }
    if (method === 'GET' && p === SEF_PATHS.purchaseXml) {
      const found = purchases.find((x) => x.id === Number(url.searchParams.get('invoiceId')));
      if (!found) throw new Refusal(404, { ErrorCode: 'NotFound', Message: 'Purchase invoice not found' });
      return { status: 200, body: found.xml, xml: true };
    }
    if (method === 'GET' && p === SEF_PATHS.companies) {
      return { status: 200, body: [...companies.values()] };
    }
    if (method === 'POST' && p === SEF_PATHS.registered) {
      const input = json();
      const c = companies.get(String(input['vatNumber'] ?? ''));
      return { status: 200, body: { EFakturaRegisteredCompany: c !== undefined && !c.Deleted } };
    }
    throw new Refusal(404, { ErrorCode: 'NotFound', Message: `Cannot ${method} ${p}` });
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://sef');
      const key = `${req.method ?? 'GET'} ${url.pathname}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const body = await readBody(req, 5 * 1024 * 1024);
      const fault = faults.pick(key);
      if (fault?.action === 'drop_before') return void req.socket.destroy();
      if (fault?.action === 'hang') {
        hung.add(res);
        res.once('close', () => hung.delete(res));
        return;
      }
      if (fault?.action === 'delay') await new Promise((r) => setTimeout(r, fault.delayMs ?? 1000));
      let reply: { status: number; body: unknown; xml?: boolean };
      if (fault?.action === 'error500') {
        reply = { status: 500, body: { ErrorCode: 'InternalServerError', Message: 'Internal server error' } };
      } else {
        try {
          reply = await route(req, url, body);
        } catch (e) {
          reply =
            e instanceof Refusal
              ? { status: e.status, body: e.body }
              : { status: 500, body: { ErrorCode: 'InternalServerError', Message: 'Internal server error' } };
        }
      }
      if (fault?.action === 'drop_after') return void req.socket.destroy();
      const text = reply.xml ? String(reply.body) : JSON.stringify(reply.body);
      res.writeHead(reply.status, {
        'content-type': reply.xml ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8',
      });
      res.end(fault?.action === 'malformed' ? text.slice(0, Math.floor(text.length / 2)) : text);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const controls: FakeSefControls = {
    setFaults: (rules, seed) => faults.set(rules, seed),
    documents: () => docs.map((d) => ({ ...d })),
    decide(invoiceId, status, comment) {
      const d = find(invoiceId);
      d.status = status;
      d.comment = comment ?? null;
    },
    setAutoDecision(status) {
      autoDecision = status;
    },
    addCompany: (c) => void companies.set(c.VatRegistrationCode, c),
    addPurchaseInvoice(xml) {
      const id = 7001 + purchases.length;
      purchases.push({ id, xml });
      return id;
    },
    stats: () => Object.fromEntries(counts),
    releaseHung() {
      for (const r of [...hung]) r.socket?.destroy();
    },
  };
  let closing: Promise<void> | null = null;
  return {
    url,
    apiKey,
    controls,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const r of [...hung]) r.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
