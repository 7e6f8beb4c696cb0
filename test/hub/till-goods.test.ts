/**
 * A till enrolled at a hub enters goods receipts and counts for the hub's book (docs/goods.md "What a till enrolled
 * at a hub still does itself, and how it merges"), with real tills (whole cores, real SQLite, the sandbox gateway)
 * and a real hub over HTTP on both databases: a receipt draft saved at the hub from the till's queue, once however
 * often it is sent (a resend, an answer lost, the hub away for a while), refused at its field, posted with a hub
 * manager's PIN the hub checks; another till touching it is refused by the guard with nothing changed. Counts: two
 * tills count one product into the hub's count, one of them offline, each till's sheet summed, a till's later entry
 * replacing its own, a resend moving nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../electron/core.ts';
import { HubClient } from '../../electron/hub-client/client.ts';
import type { HubCountEntryView, HubCountsView, HubDraftView } from '../../shared/contract/hub-goods.ts';
import type { SupplierView } from '../../shared/contract/goods.ts';
import type { HubCountView } from '../../shared/hub/count-protocol.ts';
import { HubError } from '../../shared/hub/protocol.ts';
import type { Result } from '../../shared/contract/index.ts';
import { BACKENDS } from './backends.ts';
import { tillRig } from './till-rig.ts';
import { MANAGER_PIN } from '../support/session.ts';
import { ok, until } from '../support/core-calls.ts';
import { awaitPulledManager } from '../support/host-process.ts';

const ADMIN_TOKEN = 'kasa-test-admin-token-till-goods-0123456789';
const PRODUCTS = [
  { code: 'H1', name: 'Хлеб', pricePara: 8_000, label: 'A', unit: 'piece' as const, barcodes: ['8600000000017'] },
  { code: 'M1', name: 'Млеко', pricePara: 15_000, label: 'A', unit: 'piece' as const },
];

describe.each(BACKENDS)('a till enters receipts and counts for the hub on $name', (backend) => {
  const rig = tillRig(backend, ADMIN_TOKEN);
  const hub = rig.hub;
  let seeded = false;

  async function till(terminalId: string): Promise<{ core: Core; dir: string }> {
    if (!seeded) {
      await hub.service.upsertProducts(rig.shopId, PRODUCTS);
      seeded = true;
    }
    const env: NodeJS.ProcessEnv = {
      KASA_ONLINE_BUDGET_MS: '3000',
      KASA_HUB_URL: hub.url,
      KASA_HUB_ENROL_CODE: await hub.service.newEnrolCode(rig.shopId),
    };
    const { core, dir } = await rig.openTill(terminalId, { env });
    await until(() => core.db.prepare("SELECT 1 FROM hub_state WHERE key = 'till_id'").get() !== undefined);
    const managed =
      (await hub.db.query("SELECT 1 FROM staff WHERE shop_id = $1 AND role = 'manager' AND active", [rig.shopId]))
        .length > 0;
    if (managed) await awaitPulledManager(dir);
    else await ok(core, 'staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    await ok(core, 'staff.login', { pin: MANAGER_PIN });
    await until(() => core.db.prepare("SELECT 1 FROM products WHERE code = 'M1'").get() !== undefined);
    return { core, dir };
  }
  /** The till's own hub client, by its credential (what a till sends with it: nothing more). */
  const clientOf = (dir: string): HubClient =>
    new HubClient({ baseUrl: hub.url, credential: fs.readFileSync(path.join(dir, 'hub-credential'), 'utf8').trim() });
  const refused = async (c: Core, name: string, input: unknown) => {
    const r = (await c.dispatch(name, input)) as Result<unknown>;
    if (r.ok) throw new Error(`${name} was not refused`);
    return r.error as { code: string; field?: string; message: string };
  };
  const hubReceipts = () =>
    hub.db.query<{ id: number; state: string; till_id: number | null; till_version: number; input: unknown }>(
      'SELECT id, state, till_id, till_version, input FROM hub_receipts WHERE shop_id = $1 ORDER BY id',
      [rig.shopId],
    );
  const stockOf = async (code: string): Promise<number> =>
    Number(
      (
        await hub.db.query<{ q: number }>('SELECT qty_milli AS q FROM hub_stock WHERE shop_id = $1 AND code = $2', [
          rig.shopId,
          code,
        ])
      )[0]?.q ?? 0,
    );

  it('saves a receipt draft at the hub once, however often sent; another till is refused; posted with a hub PIN', async () => {
    const { core: t1 } = await till('R1');
    const { dir: dir2 } = await till('R2');
    const supplier = await ok<SupplierView>(t1, 'suppliers.put', { name: 'Млекара', pib: '101134702' });
    const form = {
      supplierId: supplier.id,
      invoiceNumber: 'TG-1',
      invoiceDate: '2026-11-20',
      lines: [{ code: 'H1', quantity: 10, purchasePrice: 50, retailPrice: 80 }],
    };
    const before = (await hubReceipts()).length;
    const saved = await ok<HubDraftView>(t1, 'hubGoods.receiptSave', form);
    expect(saved).toMatchObject({ state: 'at_hub', supplier: 'Млекара', refusal: null });
    expect(saved.hubId).toBeGreaterThan(0);
    let rows = await hubReceipts();
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({ id: saved.hubId, state: 'draft' });
    // A draft moves nothing.
    expect(await stockOf('H1')).toBe(0);

    // The answer lost (a kill mid-send): the till sends it again after a sync round, and the hub still has one.
    t1.db.prepare('UPDATE hub_goods_drafts SET sent_version = 0, hub_id = NULL WHERE id = ?').run(saved.id);
    await until(
      () =>
        t1.db.prepare('SELECT 1 FROM hub_goods_drafts WHERE id = ? AND sent_version = version').get(saved.id) !==
        undefined,
    );
    expect((await hubReceipts()).length).toBe(before + 1);

    // The hub away: a changed draft and a new one wait on the till, then reach the hub once each.
    await hub.closeServer();
    const changed = await ok<HubDraftView>(t1, 'hubGoods.receiptSave', {
      ...form,
      id: saved.id,
      lines: [...form.lines, { code: 'M1', quantity: 2, purchasePrice: 100, marginPercent: 25 }],
    });
    const second = await ok<HubDraftView>(t1, 'hubGoods.receiptSave', { ...form, invoiceNumber: 'TG-2' });
    expect([changed.state, second.state]).toEqual(['queued', 'queued']);
    await hub.reopenServer();
    await until(() => t1.db.prepare('SELECT 1 FROM hub_goods_drafts WHERE sent_version < version').get() === undefined);
    rows = await hubReceipts();
    expect(rows.length).toBe(before + 2);
    const first = rows.find((r) => r.id === saved.hubId);
    expect(first).toMatchObject({ till_version: 2 });
    expect((first?.input as { lines: unknown[] }).lines).toHaveLength(2);

    // The hub's rules at the till's field, nothing saved on the till or at the hub.
    const drafts = t1.db.prepare('SELECT count(*) AS n FROM hub_goods_drafts').get();
    const unknown = await refused(t1, 'hubGoods.receiptSave', {
      ...form,
      invoiceNumber: 'TG-3',
      lines: [{ code: 'X9', quantity: 1, purchasePrice: 10, retailPrice: 20 }],
    });
    expect(unknown).toMatchObject({ code: 'invalid_input', field: 'lines.0.code' });
    expect(unknown.message).toContain('X9');
    expect(t1.db.prepare('SELECT count(*) AS n FROM hub_goods_drafts').get()).toEqual(drafts);
    expect((await hubReceipts()).length).toBe(before + 2);

    // Another till of the shop touching till 1's draft: refused by the guard at `id`, nothing changed.
    const other = clientOf(dir2);
    const foreign = await other
      .tillReceiptDraft({
        tillDraftId: 999,
        version: 1,
        id: saved.hubId ?? 0,
        form: { supplier: 'Млекара', pib: '101134702', invoiceNumber: 'TG-9', invoiceDate: '2026-11-20', lines: [] },
      })
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(HubError);
    expect(foreign).toMatchObject({ status: 403, code: 'receipt_other_till', field: 'id' });
    const posting = await other.tillReceiptPost(saved.hubId ?? 0, MANAGER_PIN, false).catch((e: unknown) => e);
    expect(posting).toMatchObject({ status: 403, code: 'receipt_other_till' });
    expect((await hubReceipts()).find((r) => r.id === saved.hubId)).toMatchObject({ state: 'draft', till_version: 2 });
    expect(await stockOf('H1')).toBe(0);

    // Posting takes a hub manager's PIN, checked at the hub: a wrong one refused at its field, nothing posted.
    const wrong = await refused(t1, 'hubGoods.receiptPost', { id: saved.id, approverPin: '9999' });
    expect(wrong).toMatchObject({ code: 'forbidden', field: 'approverPin' });
    expect(await stockOf('H1')).toBe(0);
    const posted = await ok<HubDraftView>(t1, 'hubGoods.receiptPost', { id: saved.id, approverPin: MANAGER_PIN });
    expect(posted.state).toBe('posted');
    expect(posted.hubNumber).toMatch(/^\d+\/\d{4}$/);
    expect(await stockOf('H1')).toBe(10_000);
    expect(await stockOf('M1')).toBe(2_000);
    // Posted once: again refused, and the draft is no longer changed from the till.
    expect(await refused(t1, 'hubGoods.receiptPost', { id: saved.id, approverPin: MANAGER_PIN })).toMatchObject({
      code: 'invalid_input',
    });
    expect(await refused(t1, 'hubGoods.receiptSave', { ...form, id: saved.id })).toMatchObject({ field: 'id' });
    expect(await stockOf('H1')).toBe(10_000);
    const audit = await hub.db.query<{ actor: string }>(
      "SELECT actor FROM hub_audit WHERE shop_id = $1 AND action = 'goods_receipt'",
      [rig.shopId],
    );
    expect(audit.length).toBe(1);
  }, 180_000);

  it('counts one product on two tills, one offline: sheets summed, a later entry replaces its own, a resend moves nothing', async () => {
    const { core: t1 } = await till('C1');
    const { core: t2, dir: dir2 } = await till('C2');
    const started = await hub.admin('POST', '/api/admin/goods/counts', { shopId: rig.shopId });
    expect(started.status).toBe(201);
    const count = (await started.json()) as HubCountView;
    const listed = await ok<HubCountsView>(t2, 'hubGoods.counts');
    expect(listed.online).toBe(true);
    expect(listed.counts.map((c) => c.id)).toContain(count.id);
    const line = async (code: string) =>
      (
        await hub.db.query<{ c: number | null }>(
          'SELECT counted_milli AS c FROM hub_stock_count_lines WHERE count_id = $1 AND code = $2',
          [count.id, code],
        )
      )[0]?.c;

    const a = await ok<HubCountEntryView>(t1, 'hubGoods.countEnter', { countId: count.id, code: 'H1', quantity: 4 });
    expect(a).toMatchObject({ state: 'sent', sheetMilli: 4_000, countedMilli: 4_000 });

    // Till 2 offline: it still knows the count, and its entries wait in its queue.
    await hub.closeServer();
    const offline = await ok<HubCountsView>(t2, 'hubGoods.counts');
    expect(offline.online).toBe(false);
    expect(offline.counts.map((c) => c.id)).toContain(count.id);
    const q1 = await ok<HubCountEntryView>(t2, 'hubGoods.countEnter', { countId: count.id, code: 'H1', quantity: 3 });
    // A scan of the barcode adds one piece.
    const q2 = await ok<HubCountEntryView>(t2, 'hubGoods.countEnter', { countId: count.id, code: '8600000000017' });
    expect([q1.state, q2.state]).toEqual(['queued', 'queued']);
    await hub.reopenServer();
    await until(() => t2.db.prepare("SELECT 1 FROM hub_count_entries WHERE state = 'queued'").get() === undefined);
    // Each till's sheet: till 1 counted 4, till 2 3 + 1; the count holds their sum.
    expect(Number(await line('H1'))).toBe(8_000);

    // Till 1's later entry replaces its own earlier one, not till 2's.
    const later = await ok<HubCountEntryView>(t1, 'hubGoods.countEnter', {
      countId: count.id,
      code: 'H1',
      quantity: 5,
    });
    expect(later).toMatchObject({ sheetMilli: 5_000, countedMilli: 9_000 });

    // Every entry of till 2 sent again (its answers lost): nothing moves, each entry is at the hub once.
    const entries = await hub.db.query('SELECT 1 FROM hub_count_till_entries');
    // (the scan that added one piece: applied again it would make till 2's sheet 5).
    t2.db.prepare("UPDATE hub_count_entries SET state = 'queued' WHERE add_to = 1").run();
    await until(() => t2.db.prepare("SELECT 1 FROM hub_count_entries WHERE state = 'queued'").get() === undefined);
    expect(Number(await line('H1'))).toBe(9_000);
    expect((await hub.db.query('SELECT 1 FROM hub_count_till_entries')).length).toBe(entries.length);
    const direct = await clientOf(dir2).tillCountEntry({
      entryId: q1.id,
      countId: count.id,
      code: 'H1',
      qtyMilli: 3_000,
      add: false,
    });
    expect(direct).toMatchObject({ applied: false, sheetMilli: 4_000, countedMilli: 9_000 });

    // A product the shop does not carry: refused at `code` in the user's language, nothing kept.
    const kept = t1.db.prepare('SELECT count(*) AS n FROM hub_count_entries').get();
    const bad = await refused(t1, 'hubGoods.countEnter', { countId: count.id, code: 'NOPE', quantity: 1 });
    expect(bad).toMatchObject({ code: 'invalid_input', field: 'code' });
    expect(bad.message).toContain('NOPE');
    expect(t1.db.prepare('SELECT count(*) AS n FROM hub_count_entries').get()).toEqual(kept);

    // Posted at the hub: the difference is the sum of the sheets against the book at the entry.
    const posted = await hub.admin('POST', '/api/admin/goods/counts/post', { shopId: rig.shopId, countId: count.id });
    const view = (await posted.json()) as HubCountView;
    const h1 = view.lines.find((l) => l.code === 'H1');
    expect(h1?.countedMilli).toBe(9_000);
    expect(await stockOf('H1')).toBe(9_000);
    // A closed count takes no more entries from a till.
    expect(await refused(t1, 'hubGoods.countEnter', { countId: count.id, code: 'H1', quantity: 1 })).toMatchObject({
      field: 'countId',
    });
  }, 180_000);
});
