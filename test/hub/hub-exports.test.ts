/**
 * The bookkeeper's export at the hub (docs/exports.md, "At the hub") over a random history of two tills (fast-check):
 * two real tills (SQLite, the sandbox gateway over HTTP) enrolled at a real hub (PGlite, over HTTP) sell (one or two
 * labels, cash and card), refund, take advances and finalize them; once the hub holds every order, the hub's export
 * of the shop for the day equals the sum of the two tills' own exports to the para: the turnover (gross, VAT, sales,
 * refunds, advances), per payment type and per label and rate, the documents, and the journal's day entries per
 * account; every journal entry balances. Its CSV and PDF files are the till's layouts (checked by their headers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Core } from '../../electron/core.ts';
import type { ExportView, Posting } from '../../shared/contract/exports.ts';
import type { OrderView } from '../../shared/domain.ts';
import { dayIn } from '../../shared/i18n/time.ts';
import { ok, until } from '../support/core-calls.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { bodyStart } from '../support/http.ts';
import { refund } from '../exports/support.ts';
import { BACKENDS } from './backends.ts';
import { tillRig } from './till-rig.ts';

const ADMIN_TOKEN = 'kasa-test-admin-token-hub-exports-012345';
const managerPin = MANAGER_PIN;

describe('the hub export of a shop of two tills (pglite)', () => {
  const backend = BACKENDS.find((b) => b.name === 'pglite');
  if (!backend) throw new Error('no pglite backend');
  const rig = tillRig(backend, ADMIN_TOKEN);
  const hub = rig.hub;
  const tills: Core[] = [];
  const sales: [number, number][] = [];
  const advances: [number, number][] = [];

  beforeAll(async () => {
    for (const id of ['EXP1', 'EXP2']) {
      const env = { KASA_HUB_URL: hub.url, KASA_HUB_ENROL_CODE: await hub.service.newEnrolCode(rig.shopId) };
      const { core } = await rig.openTill(id, { env });
      await ok(core, 'staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
      await ok(core, 'staff.login', { pin: MANAGER_PIN });
      tills.push(core);
    }
    // Opened here, closed with the file: the rig closes a test's tills after each test.
    rig.cores.splice(0);
  }, 120_000);
  afterAll(async () => {
    for (const c of tills) await c.close();
  });

  const money = fc.integer({ min: 1, max: 50_000 }).map((p) => p / 100);
  const action = fc.record({
    t: fc.constantFrom('sale', 'sale', 'refund', 'advance', 'finalize'),
    till: fc.integer({ min: 0, max: 1 }),
    price: money,
    second: fc.option(fc.record({ price: money, label: fc.constantFrom('E', 'F') }), { nil: undefined }),
    card: fc.boolean(),
    pick: fc.nat(),
  });
  type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

  async function apply(a: Action): Promise<void> {
    const c = tills[a.till] as Core;
    const type = a.card ? 'card' : 'cash';
    if (a.t === 'sale' || a.t === 'advance') {
      const lines = [
        { name: 'Роба', quantity: 1, unitPrice: a.price, labels: ['A'] },
        ...(a.second ? [{ name: 'Друго', quantity: 1, unitPrice: a.second.price, labels: [a.second.label] }] : []),
      ];
      const total = lines.reduce((s, l) => s + Math.round(l.unitPrice * 100), 0) / 100;
      const o = await ok<OrderView>(c, 'sales.checkout', {
        lines,
        payments: [{ type, amount: total }],
        ...(a.t === 'advance' ? { invoiceType: 'advance' } : {}),
      });
      expect(o.state).toBe('fiscalized');
      (a.t === 'sale' ? sales : advances).push([a.till, o.orderId]);
      return;
    }
    const list = a.t === 'refund' ? sales : advances;
    const picked = list.length ? list.splice(a.pick % list.length, 1)[0] : undefined;
    if (!picked) return;
    const [at, id] = picked;
    const owner = tills[at] as Core;
    const done =
      a.t === 'refund'
        ? await refund(owner, id)
        : await ok<OrderView>(owner, 'advances.finalize', {
            orderId: id,
            payments: [{ type, amount: 0 }],
          });
    expect(done.state).toBe('fiscalized');
  }

  const sum = <T>(xs: readonly T[], f: (x: T) => number): number => xs.reduce((s, x) => s + f(x), 0);
  /** Σ debit − credit per account of the journal's day entries (the turnover's). */
  const dayAccounts = (journal: readonly Posting[]): Map<string, number> => {
    const m = new Map<string, number>();
    for (const p of journal.filter((x) => /^(Промет|Promet|Turnover) /.test(x.document)))
      m.set(p.account, (m.get(p.account) ?? 0) + p.debitPara - p.creditPara);
    return new Map([...m].filter(([, v]) => v !== 0));
  };

  async function check(): Promise<void> {
    const today = dayIn(new Date());
    const count = (c: Core): number =>
      c.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM hub_outbox').get()?.n ?? 1;
    await until(() => tills.every((c) => count(c) === 0));
    const own = await Promise.all(
      tills.map((c) => ok<ExportView>(c, 'exports.build', { managerPin, from: today, to: today })),
    );
    const r = await hub.admin('GET', `/api/admin/exports?shopId=${rig.shopId}&from=${today}&to=${today}`);
    expect(r.status).toBe(200);
    const view = (await r.json()) as ExportView;
    expect(view.total.sales.count).toBeGreaterThan(0);

    for (const k of ['grossPara', 'taxPara'] as const) expect(view.total[k]).toBe(sum(own, (v) => v.total[k]));
    for (const k of ['sales', 'refunds', 'advances'] as const) {
      expect(view.total[k].totalPara).toBe(sum(own, (v) => v.total[k].totalPara));
      expect(view.total[k].count).toBe(sum(own, (v) => v.total[k].count));
    }
    const byKey = <T>(rows: T[], key: (x: T) => string, val: (x: T) => number) => {
      const m = new Map<string, number>();
      for (const x of rows) m.set(key(x), (m.get(key(x)) ?? 0) + val(x));
      return new Map([...m].filter(([, v]) => v !== 0));
    };
    const payments = (vs: ExportView[]) =>
      byKey(
        vs.flatMap((v) => v.total.byPayment),
        (p) => p.type,
        (p) => p.netPara,
      );
    expect(payments([view])).toEqual(payments(own));
    for (const f of ['netPara', 'taxPara'] as const) {
      const labels = (vs: ExportView[]) =>
        byKey(
          vs.flatMap((v) => v.total.byLabel),
          (l) => `${l.label} ${l.rate}`,
          (l) => l[f],
        );
      expect(labels([view])).toEqual(labels(own));
    }
    expect(view.documents.length).toBe(sum(own, (v) => v.documents.length));
    expect(sum(view.documents, (d) => d.grossPara)).toBe(sum(own, (v) => sum(v.documents, (d) => d.grossPara)));
    // The journal: each entry balances; the day entries post per account what the tills' day entries post together.
    const entries = new Map<number, number>();
    for (const p of view.journal) entries.set(p.entry, (entries.get(p.entry) ?? 0) + p.debitPara - p.creditPara);
    for (const [, b] of entries) expect(b).toBe(0);
    const together = new Map<string, number>();
    for (const v of own) for (const [a, x] of dayAccounts(v.journal)) together.set(a, (together.get(a) ?? 0) + x);
    expect(dayAccounts(view.journal)).toEqual(new Map([...together].filter(([, x]) => x !== 0)));
  }

  it('equals the sum of its tills’ own exports to the para over random histories', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 3, maxLength: 8 }), async (actions) => {
        for (const a of actions) await apply(a);
        await check();
      }),
      {
        numRuns: 3,
        examples: [
          [
            [
              { t: 'sale', till: 0, price: 120, second: { price: 50, label: 'E' }, card: false, pick: 0 },
              { t: 'sale', till: 1, price: 99.99, second: undefined, card: true, pick: 0 },
              { t: 'refund', till: 0, price: 1, second: undefined, card: false, pick: 0 },
              { t: 'advance', till: 1, price: 300, second: undefined, card: false, pick: 0 },
              { t: 'finalize', till: 0, price: 1, second: undefined, card: true, pick: 0 },
              { t: 'advance', till: 0, price: 40, second: { price: 10, label: 'F' }, card: true, pick: 0 },
            ],
          ],
        ],
      },
    );
  }, 300_000);

  it('writes the till’s files: the turnover CSV, the Minimax file and the A4 PDF', async () => {
    const today = dayIn(new Date());
    const q = `/api/admin/exports?shopId=${rig.shopId}&from=${today}&to=${today}`;
    const csv = await hub.admin('GET', `${q}&file=turnover&lang=sr-Cyrl`);
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\r\n')[0]).toMatch(/^"Датум";"Врста"/);
    const minimax = await hub.admin('GET', `${q}&file=minimax`);
    expect((await minimax.text()).split('\r\n')[0]).toContain('Datum;Opis;Konto');
    const pdf = await hub.admin('GET', `${q}&file=pdf`);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(await bodyStart(pdf, 5)).toBe('%PDF-');
    // An end before the start is refused at `to`.
    const bad = await hub.admin('GET', `/api/admin/exports?shopId=${rig.shopId}&from=${today}&to=2000-01-01`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { field?: string }).field).toBe('to');
  }, 60_000);
});
