/**
 * One truth about tax (issue 37, section 6; shared/tax-summary.ts): the till's report (real SQLite, stored days
 * included), the store hub's report (PGlite, fed the till's own outbox snapshots) and the sum of the receipts'
 * own tax items agree to the para, and the gross by label adds up to the gross. Receipts as the gateway and an
 * L-PFR issue them: several labels per line, refunds, advances and their final sales with the advance refund,
 * orders not signed yet.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../electron/db/open.ts';
import { buildReport } from '../../electron/manager/reports.ts';
import { TaxRatesCache } from '../../electron/sales/tax-rates.ts';
import { lpfrToIssuedReceipt } from '../../electron/lpfr/map.ts';
import { includedTax, paraToDecimal } from '../../shared/money.ts';
import type { ReportView } from '../../shared/contract/reports.ts';
import { OrderSnapshot } from '../../shared/hub/protocol.ts';
import type { AuthedTill } from '../../hub/service.ts';
import { apportion, taxSummary } from '../../shared/tax-summary.ts';
import { BACKENDS } from '../hub/backends.ts';
import { openHubService } from '../hub/served-hub.ts';
import { tempDatabases } from '../support/temp-db.ts';

const { tmp, db, cleanup } = tempDatabases('kasa-tax-truth-');
afterEach(() => cleanup());

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 4, 4, 6, 0, 0);
const NOW = T0 + 3 * DAY;
/** The gateway's tax rates (a production group, and a demo label at 0.5 %): the receipts state them. */
const RATES: Record<string, number> = { Ђ: 20, Е: 10, Г: 0, А: 0, P: 0.5 };
const LABELS = Object.keys(RATES);

interface Line {
  labels: string[];
  totalPara: number;
}
type TaxItem = { label: string; rate: number; amount: number };

/** The tax items a processor states for items: per label, VAT included in the gross of every item carrying it. */
function taxItemsOf(lines: readonly Line[]): TaxItem[] {
  const base = new Map<string, number>();
  for (const l of lines) for (const label of new Set(l.labels)) base.set(label, (base.get(label) ?? 0) + l.totalPara);
  return [...base].map(([label, para]) => ({
    label,
    rate: RATES[label] ?? 0,
    amount: paraToDecimal(includedTax(para, RATES[label] ?? 0)),
  }));
}

/** A receipt as an L-PFR signs it, mapped as the till stores it (electron/lpfr/map.ts). */
function lpfrReceipt(n: number, lines: readonly Line[], refund: boolean): Record<string, unknown> {
  const total = lines.reduce((s, l) => s + l.totalPara, 0);
  return lpfrToIssuedReceipt(
    {
      invoiceNumber: `LPF1CARD-LPF1CARD-${n}`,
      invoiceCounter: `${n}/${n}${refund ? 'ПР' : 'ПП'}`,
      sdcDateTime: '2026-05-04T10:00:00.000+02:00',
      totalAmount: paraToDecimal(total),
      taxItems: taxItemsOf(lines).map((t) => ({ ...t, categoryType: 0, categoryName: 'ПДВ' })),
    },
    JSON.stringify({ invoiceType: 'Normal', transactionType: refund ? 'Refund' : 'Sale', invoiceNumber: `O-${n}` }),
  ) as Record<string, unknown>;
}

interface OrderSpec {
  kind: 'sale' | 'advance' | 'refund' | 'finalize' | 'lpfr_sale' | 'lpfr_refund' | 'queued';
  lines: Line[];
  /** A finalize: the part of its total the advances paid (the advance refund's total). */
  advancePart: number;
  at: number;
}

interface Inserted {
  spec: OrderSpec;
  receipts: { sign: 1 | -1; taxItems: TaxItem[]; total: number }[];
  gross: number;
}

let n = 0;
function insert(d: Db, s: OrderSpec): Inserted {
  const total = s.lines.reduce((sum, l) => sum + l.totalPara, 0);
  const no = ++n;
  const refund = s.kind === 'refund' || s.kind === 'lpfr_refund';
  const kind = refund ? 'refund' : s.kind === 'finalize' ? 'finalize' : 'sale';
  const invoiceType = s.kind === 'advance' ? 'advance' : 'normal';
  const advancePart = s.kind === 'finalize' ? Math.min(s.advancePart, total) : 0;
  const paid = total - advancePart;
  let receipt: Record<string, unknown> | null = null;
  let extra: Record<string, unknown>[] | null = null;
  const receipts: Inserted['receipts'] = [];
  if (s.kind === 'lpfr_sale' || s.kind === 'lpfr_refund') {
    receipt = lpfrReceipt(no, s.lines, refund);
    receipts.push({ sign: refund ? -1 : 1, taxItems: receipt['taxItems'] as TaxItem[], total });
  } else if (s.kind !== 'queued') {
    const taxItems = taxItemsOf(s.lines);
    receipt = {
      invoiceNumber: `INV-${no}`,
      sdcDateTime: new Date(s.at).toISOString(),
      transactionType: refund ? 'refund' : 'sale',
      invoiceType,
      totalAmount: paraToDecimal(total),
      taxItems,
    };
    receipts.push({ sign: refund ? -1 : 1, taxItems, total });
    if (s.kind === 'finalize') {
      // The advance refund (АР) cancels what the chain paid: the advances' own labels (here the first line's).
      const arItems = taxItemsOf([{ labels: s.lines[0]?.labels ?? ['Ђ'], totalPara: advancePart }]);
      extra = [
        {
          invoiceNumber: `INV-${no}-AR`,
          sdcDateTime: new Date(s.at).toISOString(),
          transactionType: 'refund',
          invoiceType: 'advance',
          totalAmount: paraToDecimal(advancePart),
          taxItems: arItems,
        },
      ];
      receipts.push({ sign: -1, taxItems: arItems, total: advancePart });
    }
  }
  const data = {
    lines: s.lines.map((l, i) => ({
      name: `P${i}`,
      quantityMilli: 1000,
      unitPricePara: l.totalPara,
      discountPara: 0,
      totalPara: l.totalPara,
      labels: l.labels,
    })),
    payments: [{ type: 'cash', amountPara: s.kind === 'finalize' ? paid : total }],
    cashier: 'Ана',
  };
  d.prepare(
    `INSERT INTO orders (order_number, kind, invoice_type, transaction_type, state, created_at, total_para, data,
       receipt, extra_receipts, invoice_number, processor) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    `O-${no}`,
    kind,
    invoiceType,
    refund ? 'refund' : s.kind === 'finalize' ? 'finalize' : 'sale',
    s.kind === 'queued' ? 'queued' : 'fiscalized',
    new Date(s.at).toISOString(),
    total,
    JSON.stringify(data),
    receipt ? JSON.stringify(receipt) : null,
    extra ? JSON.stringify(extra) : null,
    receipt ? (receipt['invoiceNumber'] as string) : null,
    receipt ? (s.kind.startsWith('lpfr') ? 'lpfr' : 'gateway') : null,
  );
  return { spec: s, receipts, gross: refund ? -total : s.kind === 'finalize' ? paid : total };
}

/** Σ of the receipts' own tax items per label and rate, signed, in para: the truth the reports must tell. */
function receiptsTruth(list: readonly Inserted[]): { tax: number; gross: number; byTax: Map<string, number> } {
  const byTax = new Map<string, number>();
  let tax = 0;
  for (const o of list)
    for (const r of o.receipts)
      for (const t of r.taxItems) {
        const para = r.sign * Math.round(t.amount * 100);
        tax += para;
        const key = `${t.label} ${t.rate}`;
        byTax.set(key, (byTax.get(key) ?? 0) + para);
      }
  return { tax, gross: list.reduce((s, o) => s + o.gross, 0), byTax };
}

/**
 * A till's database enrolled at a hub (so its triggers fill the hub outbox), with the gateway's tax rates or none
 * (the hub has none: a label no receipt of the period states is named at rate 0 at both).
 */
function till(withRates = true): { d: Db; rates: TaxRatesCache } {
  const d = db(tmp());
  d.prepare("INSERT INTO hub_state (key, value) VALUES ('till_id', '1')").run();
  if (withRates)
    d.prepare(
      "INSERT OR REPLACE INTO tax_rates (id, group_id, valid_from, body, fetched_at) VALUES (1, 1, '2024-01-01', ?, '2026-01-01')",
    ).run(JSON.stringify(LABELS.map((label) => ({ label, rate: RATES[label], categoryName: 'ПДВ', categoryType: 0 }))));
  return { d, rates: new TaxRatesCache(d) };
}

/** The till's hub outbox as the hub receives it: each order's snapshots, parsed as the hub parses them. */
function outbox(d: Db): { seq: number; kind: 'order'; ref: string; payload: OrderSnapshot }[] {
  return d
    .prepare<[], { ref: string; payload: string }>(
      "SELECT ref, payload FROM hub_outbox WHERE kind = 'order' ORDER BY seq",
    )
    .all()
    .map((r) => ({ ref: r.ref, payload: OrderSnapshot.parse(JSON.parse(r.payload)) }))
    .map((e, i) => ({ seq: i + 1, kind: 'order' as const, ...e }));
}

const labelRows = (r: ReportView): string[] =>
  r.byLabel
    .filter((l) => l.netPara !== 0 || l.taxPara !== 0)
    .map((l) => `${l.label} ${l.rate}: ${l.netPara} / ${l.taxPara}`)
    .sort();
const taxRows = (r: ReportView): string[] =>
  r.byTax
    .filter((x) => x.taxPara !== 0)
    .map((x) => `${x.label} ${x.rate}: ${x.taxPara}`)
    .sort();

function checkTill(r: ReportView, list: readonly Inserted[]): void {
  const truth = receiptsTruth(list);
  expect(r.taxPara).toBe(truth.tax);
  expect(r.grossPara).toBe(truth.gross);
  expect(taxRows(r)).toEqual(
    [...truth.byTax]
      .filter(([, v]) => v !== 0)
      .map(([k, v]) => `${k}: ${v}`)
      .sort(),
  );
  expect(r.byLabel.reduce((s, l) => s + l.netPara, 0)).toBe(r.grossPara);
  expect(r.byLabel.reduce((s, l) => s + l.taxPara, 0)).toBe(r.taxPara);
  expect(r.netPara).toBe(r.grossPara - r.taxPara);
}

const line = fc.record({
  labels: fc.uniqueArray(fc.constantFrom(...LABELS), { minLength: 1, maxLength: 3 }),
  totalPara: fc.integer({ min: 0, max: 300_000 }),
});
const orderSpec = fc.record({
  kind: fc.constantFrom('sale', 'sale', 'advance', 'refund', 'finalize', 'lpfr_sale', 'lpfr_refund', 'queued'),
  lines: fc.array(line, { minLength: 1, maxLength: 4 }),
  advancePart: fc.integer({ min: 0, max: 400_000 }),
  at: fc.integer({ min: T0, max: NOW - 1 }),
}) as fc.Arbitrary<OrderSpec>;

describe('shared/tax-summary.ts', () => {
  it('apportions exactly, the para left to the largest remainders', () => {
    expect(apportion(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(apportion(300_000, [100_002, 200_002])).toEqual([100_001, 199_999]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 6 }),
        (total, weights) => {
          fc.pre(weights.some((w) => w > 0));
          const parts = apportion(total, weights);
          expect(parts.reduce((s, p) => s + p, 0)).toBe(total);
          parts.forEach((p, i) => {
            const exact = (total * (weights[i] as number)) / weights.reduce((s, w) => s + w, 0);
            expect(Math.abs(p - exact)).toBeLessThan(1 + 1e-6);
          });
        },
      ),
    );
  });

  it('a receipt known only by its tax items: each label gets the gross its VAT implies, the rest the 0 % label', () => {
    const s = taxSummary([
      {
        sign: -1,
        totalPara: 150_000,
        taxItems: [
          { label: 'Ђ', rate: 20, amount: 166.67 },
          { label: 'Г', rate: 0, amount: 0 },
        ],
      },
    ]);
    expect(s).toEqual({
      grossPara: -150_000,
      taxPara: -16_667,
      byLabel: [
        { label: 'Ђ', rate: 20, grossPara: -100_002, taxPara: -16_667 },
        { label: 'Г', rate: 0, grossPara: -49_998, taxPara: 0 },
      ],
    });
  });
});

describe('one truth about tax: till = hub = Σ receipts', () => {
  it('the issue: a final sale of 3,500.00 at Е after an advance of 1,500.00 is 2,000.00 of gross and 181.82 of VAT', () => {
    const { d, rates } = till();
    const list = [
      // Yesterday: the advance (АП) of 1,500.00 at Е, 10 %: its VAT, 136.36, is yesterday's.
      insert(d, { kind: 'advance', lines: [{ labels: ['Е'], totalPara: 150_000 }], advancePart: 0, at: T0 }),
      // Today: the final sale (ПП, 3,500.00 at Е: VAT 318.18) and its advance refund (АР, 1,500.00: −136.36).
      insert(d, {
        kind: 'finalize',
        lines: [{ labels: ['Е'], totalPara: 350_000 }],
        advancePart: 150_000,
        at: T0 + DAY,
      }),
    ];
    const today = { from: new Date(T0 + DAY - 3_600_000).toISOString(), to: new Date(NOW).toISOString() };
    const r = buildReport(d, rates, today, NOW);
    expect(r.byLabel).toEqual([{ label: 'Е', rate: 10, netPara: 200_000, taxPara: 18_182 }]);
    expect(r.grossPara).toBe(200_000);
    expect(r.taxPara).toBe(18_182);
    checkTill(r, list.slice(1));
  });

  it('eight receipts of a day (several labels a line, a refund, an advance and its final sale, an L-PFR, one not signed): the gross by label adds up', () => {
    const { d, rates } = till();
    const at = (h: number): number => T0 + DAY + h * 3_600_000;
    const list = [
      insert(d, { kind: 'advance', lines: [{ labels: ['Е'], totalPara: 150_000 }], advancePart: 0, at: T0 }),
      insert(d, { kind: 'sale', lines: [{ labels: ['Е'], totalPara: 200_000 }], advancePart: 0, at: at(1) }),
      insert(d, { kind: 'sale', lines: [{ labels: ['Ђ', 'Е'], totalPara: 150_000 }], advancePart: 0, at: at(2) }),
      insert(d, {
        kind: 'finalize',
        lines: [{ labels: ['Е'], totalPara: 350_000 }],
        advancePart: 150_000,
        at: at(3),
      }),
      insert(d, { kind: 'refund', lines: [{ labels: ['Ђ'], totalPara: 60_000 }], advancePart: 0, at: at(4) }),
      insert(d, {
        kind: 'lpfr_sale',
        lines: [
          { labels: ['Ђ'], totalPara: 120_000 },
          { labels: ['Г'], totalPara: 50_000 },
        ],
        advancePart: 0,
        at: at(5),
      }),
      insert(d, { kind: 'lpfr_refund', lines: [{ labels: ['Г'], totalPara: 10_000 }], advancePart: 0, at: at(6) }),
      insert(d, { kind: 'queued', lines: [{ labels: ['А'], totalPara: 30_000 }], advancePart: 0, at: at(7) }),
    ];
    const day = { from: new Date(T0 + DAY - 3_600_000).toISOString(), to: new Date(NOW).toISOString() };
    const r = buildReport(d, rates, day, NOW);
    checkTill(r, list.slice(1));
    expect(labelRows(r)).toEqual(
      [
        // 2,000.00 + 750.00 (half the two-label line) + 2,000.00 (the final sale's new money) = 4,750.00;
        // 181.82 + 136.36 (the two-label line's Е) + 318.18 − 136.36 (the final sale less its advance refund).
        'Е 10: 475000 / 50000',
        // 750.00 (half the two-label line) − 600.00 + 1,200.00 (L-PFR) = 1,350.00; 250.00 − 100.00 + 200.00.
        'Ђ 20: 135000 / 35000',
        'Г 0: 40000 / 0',
        // Not signed yet: its gross under its line's label, no VAT until a receipt states it.
        'А 0: 30000 / 0',
      ].sort(),
    );
  });
});

for (const backend of BACKENDS.filter((b) => b.name === 'pglite')) {
  describe(`till = hub (${backend.name}) = Σ receipts, over random receipts`, () => {
    const central = openHubService(backend, {
      service: { now: () => new Date(NOW), timeZone: 'Europe/Belgrade' },
      seed: (service) => service.ensureDefaultShop(),
    });

    it('to the para, the till reading its stored days again', async () => {
      let tillNo = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(orderSpec, { minLength: 1, maxLength: 14 }), async (specs) => {
          const { d, rates } = till(false);
          const list = specs.map((s) => insert(d, s));
          const range = { from: new Date(T0 - DAY).toISOString(), to: new Date(NOW).toISOString() };
          // Twice: the second reads the closed days the first stored.
          const first = buildReport(d, rates, range, NOW);
          const r = buildReport(d, rates, range, NOW);
          expect(r).toEqual(first);
          checkTill(r, list);
          // A shop of its own: the hub names a label's rate from the receipts of the shop's period.
          const shopId = await central.service.createShop(`Тест ${++tillNo}`);
          const enrolled = await central.service.enrol(await central.service.newEnrolCode(shopId), `К-${tillNo}`);
          const t: AuthedTill = { id: enrolled.tillId, shopId, name: `К-${tillNo}` };
          const res = await central.service.push(t, { tillId: t.id, events: outbox(d) });
          expect(res.refused ?? []).toEqual([]);
          const hub = (await central.service.report({ ...range, shopId })).total;
          expect(hub.taxPara).toBe(r.taxPara);
          expect(hub.grossPara).toBe(r.grossPara);
          expect(taxRows(hub)).toEqual(taxRows(r));
          expect(labelRows(hub)).toEqual(labelRows(r));
          cleanup();
        }),
        { numRuns: 40 },
      );
    }, 300_000);
  });
}
