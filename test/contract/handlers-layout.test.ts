/**
 * Handlers mirror the contract: every command of shared/contract/<area>.ts has exactly one handler, built
 * in the one handlers file of its area (below), and the core runs that handler: the composed table is
 * frozen, and a name two areas provide stops the start-up.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AREA_PREFIXES,
  COMMAND_NAMES,
  areaOf,
  contractAreas,
  type Area,
  type CommandName,
} from '../../shared/contract/index.ts';
import type { Core } from '../../electron/core.ts';
import { AREA, areaHandlers, composeHandlers, type SomeAreaHandlers } from '../../electron/dispatch.ts';
import { closeCores, startCore } from '../support/session.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where each area's handlers live: beside the area's code. */
const HANDLER_FILES: { readonly [A in Area]: string } = {
  sales: 'electron/sales/handlers.ts',
  orders: 'electron/orders/handlers.ts',
  sync: 'electron/outbox/handlers.ts',
  printer: 'electron/printer/handlers.ts',
  catalog: 'electron/catalog/handlers.ts',
  retries: 'electron/retry/handlers.ts',
  hub: 'electron/hub-client/handlers.ts',
  staff: 'electron/auth/handlers.ts',
  audit: 'electron/auth/handlers.ts',
  settings: 'electron/settings/handlers.ts',
  backups: 'electron/db/handlers.ts',
  refunds: 'electron/manager/handlers/refunds.ts',
  advances: 'electron/manager/handlers/advances.ts',
  copies: 'electron/manager/handlers/copies.ts',
  emails: 'electron/manager/handlers/emails.ts',
  archive: 'electron/manager/handlers/archive.ts',
  reports: 'electron/manager/handlers/reports.ts',
  shifts: 'electron/shifts/handlers.ts',
  goods: 'electron/goods/handlers.ts',
  sef: 'electron/sef/handlers.ts',
  prices: 'electron/prices/handlers.ts',
  exports: 'electron/exports/handlers.ts',
  display: 'electron/display/handlers.ts',
  labels: 'electron/labels/handlers.ts',
  hubGoods: 'electron/goods/hub-goods-handlers.ts',
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

/** Every `areaHandlers('<area>'` call in electron/, by area: the files that build that area's handlers. */
function declaredAreas(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sourceFiles('electron')) {
    if (file === 'electron/dispatch.ts') continue;
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/\bareaHandlers\(\s*(?:'([^']*)'|([^\s,)]+))/g)) {
      const area = m[1] ?? `<not a literal: ${m[2]}>`;
      found.set(area, [...(found.get(area) ?? []), file]);
    }
  }
  return found;
}

/** A stub handler map for `names`, as an area's handlers file would build it. */
function stubs(area: Area, names: readonly string[]): SomeAreaHandlers {
  const map = Object.fromEntries(names.map((n) => [n, async () => n]));
  return areaHandlers(area, map as never) as unknown as SomeAreaHandlers;
}

const allAreas = (): SomeAreaHandlers[] =>
  (Object.keys(contractAreas) as Area[]).map((a) => stubs(a, Object.keys(contractAreas[a])));

describe('contract areas', () => {
  it("names every command by its area's prefix, and no prefix belongs to two areas", () => {
    const owner = new Map<string, Area>();
    for (const [area, prefixes] of Object.entries(AREA_PREFIXES) as [Area, readonly string[]][])
      for (const p of prefixes) {
        expect(owner.get(p), `prefix ${p}`).toBeUndefined();
        owner.set(p, area);
      }
    for (const name of COMMAND_NAMES) expect(owner.get(name.split('.')[0] ?? ''), name).toBe(areaOf(name));
    expect(Object.keys(AREA_PREFIXES).sort()).toEqual(Object.keys(contractAreas).sort());
  });
});

describe('handler layout', () => {
  it("builds each area's handlers in exactly one place: the handlers file beside the area's code", () => {
    const declared = declaredAreas();
    const expected = new Map<string, string[]>();
    for (const [area, file] of Object.entries(HANDLER_FILES)) expected.set(area, [file]);
    expect(Object.fromEntries(declared)).toEqual(Object.fromEntries(expected));
    expect(Object.keys(HANDLER_FILES).sort()).toEqual(Object.keys(contractAreas).sort());
  });

  it('leaves PIN verification for a command to the guard: no handler asks StaffService.approver', () => {
    const callers = sourceFiles('electron').filter((f) =>
      /\.approver\(/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(callers).toEqual(['electron/auth/guard.ts']);
  });

  describe('in a running core', () => {
    let core: Core;
    beforeAll(async () => {
      core = await startCore({ signedIn: false });
    });
    afterAll(closeCores);

    it('has exactly one handler per contract command, provided by the area its contract file names', () => {
      const { handlers, providers } = core.handlers;
      expect(Object.keys(handlers).sort()).toEqual([...COMMAND_NAMES].sort());
      for (const name of COMMAND_NAMES) {
        expect(providers.get(name), name).toBe(areaOf(name));
        expect(typeof handlers[name]).toBe('function');
      }
      expect([...providers.keys()].sort()).toEqual([...COMMAND_NAMES].sort());
    });

    it('cannot have a handler replaced after composition', () => {
      const table = core.handlers.handlers as unknown as Record<string, unknown>;
      expect(Object.isFrozen(table)).toBe(true);
      const before = table['parked.save'];
      expect(() => {
        table['parked.save'] = async () => ({});
      }).toThrow(TypeError);
      expect(table['parked.save']).toBe(before);
    });
  });
});

describe('composition', () => {
  it("takes one handler map per area and runs the area's own functions", () => {
    const parts = allAreas();
    const table = composeHandlers(parts);
    for (const part of parts)
      for (const [name, fn] of Object.entries(part)) expect(table.handlers[name as CommandName]).toBe(fn);
    expect(table.providers.size).toBe(COMMAND_NAMES.length);
  });

  it('fails at start-up on a name two areas provide', () => {
    const parts = [...allAreas(), stubs('orders', ['orders.get'])];
    expect(() => composeHandlers(parts)).toThrow('duplicate handler for orders.get (orders and orders)');
  });

  it("fails on a handler in another area's file, a command the contract lacks, and a command with none", () => {
    const moved = allAreas().map((p) => (p[AREA] === 'sales' ? stubs('sales', ['sales.checkout', 'app.info']) : p));
    const withOrders = moved.map((p) =>
      p[AREA] === 'sync' ? stubs('sync', ['sync.status', 'sync.now', 'taxRates.get']) : p,
    );
    expect(() => composeHandlers(withOrders)).toThrow('handler for taxRates.get in area sync: it belongs to sales');
    expect(() => composeHandlers([...allAreas(), stubs('sales', ['sales.refund'])])).toThrow(
      'handler for sales.refund (sales): no such command',
    );
    expect(() => composeHandlers(moved)).toThrow('no handler for taxRates.get');
  });
});
