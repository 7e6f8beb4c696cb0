/**
 * A till whose batch the hub refuses (#25), on both hub databases: a whole till (createCore, a real SQLite
 * file) sells a line whose name holds a NUL, which PostgreSQL cannot store. The hub answers 400 naming the
 * field and raises the till's `batch_refused` alarm; the till keeps the order and its waiting changes, shows
 * the refusal in `hub.status` (an alarm in its Hub tab), and stops offering the batch every second: only its
 * status goes up until the retry time, while master data still comes down.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core } from '../../electron/core.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import { startHubServer, type HubServer } from '../../hub/server.ts';
import { createHubService, type HubService } from '../../hub/service.ts';
import type { HubStatusView } from '../../shared/contract/hub.ts';
import { BACKENDS } from './backends.ts';
import { BREAD_AND_MILK, MANAGER_PIN, ok } from '../support/session.ts';
import { until } from '../support/core-calls.ts';
import { openSandboxTill } from './till-rig.ts';

describe.each(BACKENDS)('a till with a refused batch, hub on $name', (backend) => {
  let handle: Awaited<ReturnType<typeof backend.open>>;
  let service: HubService;
  let server: HubServer;
  let sandbox: Sandbox;
  let core: Core;
  let dir: string;

  beforeAll(async () => {
    handle = await backend.open();
    service = createHubService(handle.db);
    const shopId = await service.ensureDefaultShop();
    server = await startHubServer({ service, adminToken: 'till-refused-admin-token-0123456789' });
    sandbox = await startSandbox({ port: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-till-refused-'));
    core = await openSandboxTill(dir, 'REFUSED', sandbox.url, {
      env: { KASA_HUB_URL: server.url, KASA_HUB_ENROL_CODE: await service.newEnrolCode(shopId) },
      engine: false,
    });
    await core.dispatch('staff.changePin', { currentPin: '0000', newPin: MANAGER_PIN });
    await ok(core, 'staff.login', { pin: MANAGER_PIN });
  }, 120_000);
  afterAll(async () => {
    await core?.close();
    await server?.close();
    await sandbox?.close();
    await handle?.dispose();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const status = (): Promise<HubStatusView> => ok<HubStatusView>(core, 'hub.status');
  const hubRefusal = async (tillId: number): Promise<unknown> =>
    (await service.tillStatus()).find((t) => t.tillId === tillId)?.refusal ?? null;

  it('keeps the order, shows the refusal as an alarm on the till and at the hub, and does not hammer the hub', async () => {
    await until(async () => (await status()).enrolled && (await status()).pending === 0);
    const tillId = (await status()).tillId ?? 0;
    const nul = {
      ...BREAD_AND_MILK,
      lines: [{ ...BREAD_AND_MILK.lines[0], name: 'Хл\u0000еб' }, BREAD_AND_MILK.lines[1]],
    };
    const sold = await ok<{ orderNumber: string }>(core, 'sales.checkout', nul);
    await until(async () => (await status()).refused?.stuck === true);
    const s = await status();
    expect(s.refused).toMatchObject({ code: 'invalid_text', stuck: true });
    expect(Date.parse(s.refused?.retryAt ?? '')).toBeGreaterThan(Date.now() + 5 * 60_000);
    expect(s.pending).toBeGreaterThan(0);
    // The order is the till's, untouched; its change waits in the hub outbox.
    const row = core.db
      .prepare<[string], { data: string }>('SELECT data FROM orders WHERE order_number = ?')
      .get(sold.orderNumber);
    expect(row?.data).toContain('\\u0000');
    const waiting = core.db
      .prepare<[string], { n: number }>("SELECT count(*) AS n FROM hub_outbox WHERE kind = 'order' AND ref = ?")
      .get(sold.orderNumber);
    expect(waiting?.n).toBeGreaterThan(0);
    // The hub names the field and raises the alarm; nothing of the order is stored there.
    const live = (await service.tillStatus()).find((t) => t.tillId === tillId);
    expect(live?.alarms).toContain('batch_refused');
    expect(live?.refusal).toMatchObject({ status: 400, code: 'invalid_text' });
    expect(live?.refusal?.field).toMatch(/^events\.\d+\.payload\.data\.lines\.0\.name$/);
    expect(
      await handle.db.query('SELECT 1 FROM orders WHERE till_id = $1 AND order_number = $2', [
        tillId,
        sold.orderNumber,
      ]),
    ).toEqual([]);
    // The next rounds do not offer the batch again (the hub's record of the refusal stays as it was) while
    // master data still comes down and the till's status still goes up.
    const first = await hubRefusal(tillId);
    const pulled = s.lastPullAt;
    await until(async () => (await status()).lastPullAt !== pulled);
    const pulledAgain = (await status()).lastPullAt;
    await until(async () => (await status()).lastPullAt !== pulledAgain);
    expect(await hubRefusal(tillId)).toEqual(first);
    // A later sale waits behind the refused one (history reaches the hub in order), kept on the till too.
    const later = await ok<{ orderNumber: string }>(core, 'sales.checkout', BREAD_AND_MILK);
    await until(
      async () => ((await service.tillStatus()).find((t) => t.tillId === tillId)?.hubQueued ?? 0) > s.pending,
    );
    expect((await status()).refused).toMatchObject({ seq: s.refused?.seq, stuck: true });
    expect(core.db.prepare('SELECT 1 FROM orders WHERE order_number = ?').get(later.orderNumber)).toBeTruthy();
  }, 120_000);
});
