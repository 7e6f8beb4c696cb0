/**
 * One writer per table. Every table has one module (or one folder, where a folder is the table's owner)
 * that INSERTs, UPDATEs, DELETEs or REPLACEs its rows; any other module goes through that owner. The
 * check reads the source: the SQL text of every module of the till (electron/, shared/) and of the hub
 * (hub/, whose own database has tables of the same names), comments left out. Migrations and SQL
 * triggers write where they must and are not modules.
 *
 * A new table needs an owner here; a write from another module fails with the module, the table and the
 * line. SQL kept in a constant and run elsewhere counts for the module that holds the text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** No module writes these: SQL triggers of the migrations do. */
const TRIGGER_ONLY = 'trigger only';

/** The till's database (electron/db/migrations): table -> its writer, a module or a folder ending in `/`. */
const TILL_OWNERS: Record<string, string> = {
  attempts: 'electron/orders/',
  audit_log: 'electron/auth/staff.ts',
  auth_attempts: 'electron/auth/attempts.ts',
  discount_approvals: 'electron/sales/discount-approvals.ts',
  draft_deletions: 'electron/catalog/drafts.ts',
  email_outbox: 'electron/manager/email.ts',
  // Goods and the KEP book (docs/goods.md): the ledger (stock, movements, price changes, numbers) and the goods
  // service (suppliers, receipts, write-offs), one folder.
  goods_numbers: 'electron/goods/',
  goods_receipt_lines: 'electron/goods/',
  goods_receipts: 'electron/goods/',
  price_changes: 'electron/goods/',
  stock: 'electron/goods/',
  stock_movements: 'electron/goods/',
  stock_counts: 'electron/goods/',
  stock_count_lines: 'electron/goods/',
  stock_minimums: 'electron/goods/',
  kep_days: 'electron/goods/',
  stock_sales: 'electron/goods/',
  suppliers: 'electron/goods/',
  write_offs: 'electron/goods/',
  // Price lists, promotions and scheduled price changes (docs/prices.md): one service.
  price_list_items: 'electron/prices/service.ts',
  price_lists: 'electron/prices/service.ts',
  promotions: 'electron/prices/service.ts',
  scheduled_prices: 'electron/prices/service.ts',
  // Shelf labels (docs/prices.md, "Shelf labels"): net quantities, what each label last showed, the label printer.
  label_products: 'electron/labels/service.ts',
  label_prints: 'electron/labels/service.ts',
  label_printer: 'electron/labels/service.ts',
  // Also filled by the triggers of migration 009; the client sends and acknowledges it.
  hub_outbox: 'electron/hub-client/sync.ts',
  // The hub client's link (url, till, shop, cursor) and the parked carts it pushed to the hub.
  hub_parked: 'electron/hub-client/parked.ts',
  hub_state: 'electron/hub-client/',
  order_payments: TRIGGER_ONLY,
  order_sequence: 'electron/orders/order-number.ts',
  orders: 'electron/orders/',
  outbox: 'electron/orders/',
  // The parked carts and their gateway drafts (catalog/drafts.ts keeps the link).
  parked_sales: 'electron/catalog/',
  open_cart: 'electron/sales/open-cart.ts',
  shift_moves: 'electron/shifts/store.ts',
  shifts: 'electron/shifts/store.ts',
  print_jobs: 'electron/printer/queue.ts',
  // A sale left unsigned at its checkout, until its fiscal receipt reaches the buyer (docs/printing.md).
  late_receipts: 'electron/printer/late.ts',
  product_barcodes: 'electron/catalog/service.ts',
  products: 'electron/catalog/service.ts',
  products_fts: 'electron/catalog/service.ts',
  report_days: 'electron/manager/report-days.ts',
  retry_budgets: 'electron/retry/budget.ts',
  settings: 'electron/settings/settings.ts',
  // E-invoices through SEF (docs/sef.md): the SEF outbox and the incoming invoices taken, one folder.
  sef_documents: 'electron/sef/',
  sef_purchase_invoices: 'electron/sef/',
  staff: 'electron/auth/staff.ts',
  tax_rates: 'electron/sales/tax-rates.ts',
  tax_rates_announced: 'electron/sales/tax-rates.ts',
  // The bookkeeper's monthly exports written (issue 41, docs/exports.md).
  export_runs: 'electron/exports/schedule.ts',
  // The customer display's tablets (docs/payments.md, "The customer display").
  display_tokens: 'electron/display/tokens.ts',
  // The stock figures last read from the store hub (docs/goods.md "At the hub").
  hub_stock_seen: 'electron/goods/hub-stock.ts',
  // The exports' sums of closed Belgrade days, and the months sent to the bookkeeper by e-mail (docs/exports.md).
  export_days: 'electron/exports/days.ts',
  export_mails: 'electron/exports/mail.ts',
  // Receipts and counts entered on an enrolled till for the hub's book, queued until the hub has them.
  hub_goods_drafts: 'electron/goods/hub-goods.ts',
  hub_count_entries: 'electron/goods/hub-goods.ts',
  hub_counts_seen: 'electron/goods/hub-goods.ts',
};

/** The hub's own database (hub/db/). */
const HUB_OWNERS: Record<string, string> = {
  auth_attempts: 'hub/attempts.ts',
  hub_sessions: 'hub/sessions.ts',
  hub_signers: 'hub/till-trust.ts',
  hub_maintenance: 'hub/till-trust.ts',
  hub_audit: 'hub/audit.ts',
  chains: 'hub/services/admin.ts',
  enrol_codes: 'hub/services/tills.ts',
  // Held by a push (hub/services/orders.ts), cleared from the tills' status (hub/services/till-status.ts).
  invoice_claims: 'hub/services/',
  staff_refusals: 'hub/services/staff.ts',
  // Each till's verifiers of the people's PINs (issue 39, hub migration 025).
  pin_verifiers: 'hub/pin-verifiers.ts',
  hub_schema: 'hub/db/db.ts',
  // A till's closed days, summed by the day closer (hub/report-days.ts; hub migration 010).
  hub_days: 'hub/report-days.ts',
  hub_days_closed: 'hub/report-days.ts',
  hub_days_dirty: 'hub/report-days.ts',
  hub_months: 'hub/report-days.ts',
  hub_months_closed: 'hub/report-days.ts',
  orders: 'hub/services/orders.ts',
  order_keys: 'hub/services/orders.ts',
  parked_carts: 'hub/parked.ts',
  refund_holds: 'hub/refund-holds.ts',
  products: 'hub/services/catalog.ts',
  shop_settings: 'hub/services/admin.ts',
  shifts: 'hub/services/shifts.ts',
  shops: 'hub/services/admin.ts',
  staff: 'hub/services/staff.ts',
  till_events: 'hub/services/push.ts',
  // Enrolled and revoked (hub/services/tills.ts), seen and moved on by a push or a pull (push.ts, catalog.ts),
  // its refused batch noted (till-status.ts): the tills area's modules.
  tills: 'hub/services/',
  // The goods at the hub (docs/goods.md "At the hub"): the stock book, and the transfers of its area.
  hub_stock: 'hub/goods/ledger.ts',
  hub_stock_movements: 'hub/goods/ledger.ts',
  hub_stock_sales: 'hub/goods/ledger.ts',
  hub_kep_days: 'hub/goods/ledger.ts',
  hub_kep_turnover: 'hub/goods/ledger.ts',
  hub_goods_numbers: 'hub/goods/ledger.ts',
  hub_goods_docs: 'hub/goods/ledger.ts',
  hub_transfers: 'hub/services/goods.ts',
  // Price lists, promotions and scheduled price changes at the hub (issue 42, hub migration 027).
  hub_prices: 'hub/services/prices.ts',
  // The hub's goods register: suppliers and the shop's PIB and address (hub migration 029).
  hub_suppliers: 'hub/services/goods-register.ts',
  hub_shop_identity: 'hub/services/goods-register.ts',
  // Stock-taking at the hub (hub migration 030).
  hub_stock_counts: 'hub/services/goods-counts.ts',
  hub_stock_count_lines: 'hub/services/goods-counts.ts',
  // Receipt drafts and reversals, and minimums per product at the hub (hub migration 031).
  hub_receipts: 'hub/services/goods-receipt-drafts.ts',
  hub_stock_minimums: 'hub/services/goods-minimums.ts',
  // A till's own goods book taken as its shop's opening stock (hub migration 032).
  hub_goods_openings: 'hub/services/goods-opening.ts',
  // What a till enters for the shop's book: its count entries and count sheets (hub migration 033).
  hub_count_till_entries: 'hub/services/till-goods.ts',
  hub_count_sheets: 'hub/services/till-goods.ts',
  // The shop's journal accounts of the bookkeeper's export at the hub (hub migration 034).
  hub_export_accounts: 'hub/services/exports.ts',
  // The hub's SEF outbox (hub migration 035).
  hub_sef_documents: 'hub/services/sef.ts',
  // The export's kept day sums and goods costs, kept by the day closer (hub migration 036).
  hub_export_days: 'hub/export-sums.ts',
  hub_export_days_closed: 'hub/export-sums.ts',
  hub_export_costs: 'hub/export-sums.ts',
  hub_export_cost_state: 'hub/export-sums.ts',
  hub_export_goods_out: 'hub/export-sums.ts',
  hub_export_cost_fallback: 'hub/export-sums.ts',
};

/**
 * Known hub writes outside the table's owner: the day closer's pruning of acknowledged events (hub/events.ts:
 * till_events and the till's events floor) and the report's backfill of facts for orders stored before hub
 * migration 010 (hub/report-facts.ts). Both are the service's tables; to be routed through hub/services/.
 */
const HUB_PENDING_FOREIGN_WRITES: readonly { table: string; module: string }[] = [
  { table: 'till_events', module: 'hub/events.ts' },
  { table: 'tills', module: 'hub/events.ts' },
  { table: 'orders', module: 'hub/report-facts.ts' },
  // Issue 39: revoking a code (hub/enrol-codes.ts) and holding an unproven invoice claim (hub/till-trust.ts) live
  // beside their rules, apart from the tables' owners in hub/services/ (tills.ts, orders.ts).
  { table: 'enrol_codes', module: 'hub/enrol-codes.ts' },
  { table: 'invoice_claims', module: 'hub/till-trust.ts' },
  // A till's key for its PIN verifiers, made beside the verifiers' rules (hub/pin-verifiers.ts).
  { table: 'tills', module: 'hub/pin-verifiers.ts' },
  // A price set by a hub goods receipt or price change (issue 40): to be routed through hub/services/catalog.ts.
  { table: 'products', module: 'hub/services/goods.ts' },
];

/** The gateway sandbox's own database (electron/sandbox/store.ts). */
const SANDBOX_OWNERS: Record<string, string> = {
  cashiers: 'electron/sandbox/store.ts',
  drafts: 'electron/sandbox/store.ts',
  emails: 'electron/sandbox/store.ts',
  receipts: 'electron/sandbox/store.ts',
};

/** The L-PFR sandbox's own database (test/support/lpfr-sandbox/store.ts): its journal and its card. */
const LPFR_SANDBOX_OWNERS: Record<string, string> = {
  card: 'test/support/lpfr-sandbox/store.ts',
  invoices: 'test/support/lpfr-sandbox/store.ts',
};

/** Modules that write a table named at run time (`INSERT … INTO ${table}`): only into their own tables. */
const DYNAMIC_WRITERS = ['electron/sandbox/store.ts'];

/**
 * Known writes by a module that is not the table's owner, still to be routed through the owner (none: the
 * hub client's sync writes the catalog, staff and settings through catalog/service.ts, auth/staff.ts and
 * settings/settings.ts). An entry that no longer matches a write fails too, so the list cannot outlive the
 * writes it excuses.
 */
const PENDING_FOREIGN_WRITES: readonly { table: string; module: string }[] = [];

interface Write {
  module: string;
  table: string;
  line: number;
}

/** The source with comments blanked (strings kept: SQL is in them), line breaks kept for line numbers. */
function stripComments(src: string): string {
  let out = '';
  let i = 0;
  // Open template literals, each with the depth of `${` braces inside it.
  const templates: number[] = [];
  const blank = (s: string): string => s.replace(/[^\n]/g, ' ');
  while (i < src.length) {
    const c = src[i] as string;
    const next = src[i + 1];
    const inTemplateText = templates.length > 0 && templates[templates.length - 1] === 0;
    if (inTemplateText) {
      if (c === '\\') {
        out += src.slice(i, i + 2);
        i += 2;
      } else if (c === '`') {
        templates.pop();
        out += c;
        i++;
      } else if (c === '$' && next === '{') {
        templates[templates.length - 1] = 1;
        out += '${';
        i += 2;
      } else {
        out += c;
        i++;
      }
      continue;
    }
    if (c === '/' && next === '/') {
      const end = src.indexOf('\n', i);
      const stop = end === -1 ? src.length : end;
      out += blank(src.slice(i, stop));
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? src.length : end + 2;
      out += blank(src.slice(i, stop));
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
    } else if (c === '`') {
      templates.push(0);
      out += c;
      i++;
    } else {
      if (templates.length > 0 && c === '{') templates[templates.length - 1] = (templates.at(-1) as number) + 1;
      if (templates.length > 0 && c === '}') templates[templates.length - 1] = (templates.at(-1) as number) - 1;
      out += c;
      i++;
    }
  }
  return out;
}

const WRITE =
  /\b(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+(\$\{|[a-z_]\w*)/gi;

/** Every write in one module's source: the table (`${` when named at run time) and the line. */
function writesIn(module: string, src: string): Write[] {
  const code = stripComments(src);
  const out: Write[] = [];
  for (const m of code.matchAll(WRITE)) {
    const table = (m[1] as string).toLowerCase();
    // `ON CONFLICT … DO UPDATE SET` names no table.
    if (table === 'set') continue;
    out.push({ module, table, line: code.slice(0, m.index).split('\n').length });
  }
  return out;
}

function sources(dir: string, skip: (rel: string) => boolean): { module: string; src: string }[] {
  const out: { module: string; src: string }[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(child);
      } else if (/\.(ts|tsx|mts)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !skip(child)) {
        out.push({ module: child, src: readFileSync(path.join(ROOT, child), 'utf8') });
      }
    }
  };
  walk(dir);
  return out;
}

/** Tables the files create, but a scratch table (created and dropped by the same file: a table rebuild). */
function tablesIn(files: readonly { src: string }[]): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    const dropped = new Set(
      [...f.src.matchAll(/drop\s+table\s+(?:if\s+exists\s+)?([a-z_]\w*)/gi)].map((m) => (m[1] as string).toLowerCase()),
    );
    for (const m of f.src.matchAll(
      /create\s+(?:virtual\s+)?table\s+(?:if\s+not\s+exists\s+)?([a-z_]\w*)(\s+partition\s+of\b)?/gi,
    )) {
      const name = (m[1] as string).toLowerCase();
      // A partition (hub migration 16's `orders_default` …) is its parent's storage: the parent's owner writes it.
      if (!dropped.has(name) && !m[2]) out.add(name);
    }
  }
  return out;
}

const owns = (owner: string, module: string): boolean =>
  owner.endsWith('/') ? module.startsWith(owner) : module === owner;

/** The writes of `files` that are not their table's owner's (nor a pending exception). */
function foreignWrites(
  files: readonly { module: string; src: string }[],
  owners: Record<string, string>,
  pending: readonly { table: string; module: string }[] = [],
): string[] {
  const bad: string[] = [];
  for (const f of files) {
    for (const w of writesIn(f.module, f.src)) {
      if (w.table === '${') {
        if (!DYNAMIC_WRITERS.includes(w.module)) bad.push(`${w.module}:${w.line} writes a table named at run time`);
        continue;
      }
      const owner = owners[w.table];
      if (owner === undefined) bad.push(`${w.module}:${w.line} writes ${w.table}, a table with no declared owner`);
      else if (!owns(owner, w.module) && !pending.some((p) => p.table === w.table && p.module === w.module))
        bad.push(`${w.module}:${w.line} writes ${w.table}, owned by ${owner}`);
    }
  }
  return bad;
}

const isMigration = (rel: string): boolean => rel.includes('/migrations/');
const till = sources('electron', (rel) => isMigration(rel) || rel.startsWith('electron/sandbox/'));
const shared = sources('shared', isMigration);
const sandbox = sources('electron/sandbox', () => false);
const lpfrSandbox = sources('test/support/lpfr-sandbox', () => false);
const hub = sources('hub', isMigration);

describe('one writer per table', () => {
  it('the till: each table is written only by its owner', () => {
    expect(foreignWrites([...till, ...shared], TILL_OWNERS, PENDING_FOREIGN_WRITES)).toEqual([]);
  });

  it('the hub: each of its tables is written only by its owner', () => {
    expect(foreignWrites([...hub, ...shared], HUB_OWNERS, HUB_PENDING_FOREIGN_WRITES)).toEqual([]);
  });

  it('the gateway sandbox: its tables only by its store', () => {
    expect(foreignWrites(sandbox, SANDBOX_OWNERS)).toEqual([]);
  });

  it('the L-PFR sandbox: its tables only by its store', () => {
    expect(foreignWrites(lpfrSandbox, LPFR_SANDBOX_OWNERS)).toEqual([]);
  });

  it('every table of each database has exactly the owners declared here', () => {
    const tillTables = tablesIn(sources('electron/db/migrations', () => false));
    expect([...tillTables].sort()).toEqual(Object.keys(TILL_OWNERS).sort());
    const hubTables = tablesIn(sources('hub/db', () => false));
    expect([...hubTables].sort()).toEqual(Object.keys(HUB_OWNERS).sort());
    expect([...tablesIn(sandbox)].sort()).toEqual(Object.keys(SANDBOX_OWNERS).sort());
    expect([...tablesIn(lpfrSandbox)].sort()).toEqual(Object.keys(LPFR_SANDBOX_OWNERS).sort());
  });

  it('every pending exception still matches a write (remove it once the write goes through the owner)', () => {
    const all = [...till, ...shared].flatMap((f) => writesIn(f.module, f.src));
    const stale = PENDING_FOREIGN_WRITES.filter((p) => !all.some((w) => w.table === p.table && w.module === p.module));
    expect(stale).toEqual([]);
  });

  it('a write by another module fails, one in a comment or a DO UPDATE SET does not', () => {
    const src = [
      '// INSERT INTO orders (a) VALUES (1)',
      '/* DELETE FROM outbox */',
      "db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = 1');",
      'db.exec(`UPDATE orders SET state = ${"x"} WHERE id = 1`);',
      "db.prepare('insert or replace into print_jobs (id) values (1)');",
      'db.exec(`INSERT INTO ${table} (id) VALUES (1)`);',
    ].join('\n');
    expect(foreignWrites([{ module: 'electron/manager/foo.ts', src }], TILL_OWNERS)).toEqual([
      'electron/manager/foo.ts:3 writes settings, owned by electron/settings/settings.ts',
      'electron/manager/foo.ts:4 writes orders, owned by electron/orders/',
      'electron/manager/foo.ts:5 writes print_jobs, owned by electron/printer/queue.ts',
      'electron/manager/foo.ts:6 writes a table named at run time',
    ]);
    expect(
      foreignWrites([{ module: 'electron/orders/x.ts', src: "'UPDATE outbox SET due_at = 0'" }], TILL_OWNERS),
    ).toEqual([]);
  });
});
