/**
 * The online chip follows the gateway while nothing is being sent: an idle engine asks the gateway
 * (GET /auth/api-key/me) every `idleProbeMs`, so an outage shows within that time, not at the next failed
 * sale; and it does not ask more often than that. Real sandbox over HTTP, real SQLite file.
 */
import { describe, expect, it } from 'vitest';
import type { Rig } from '../support/rig.ts';
import { rigsAfterEach } from '../support/rigs.ts';

const ME = 'GET /auth/api-key/me';
const newRig = rigsAfterEach();

const probes = (r: Rig) => r.sandbox.controls.stats().requests[ME] ?? 0;

describe('idle probe', () => {
  it('an idle engine notices the gateway going away within idleProbeMs, and coming back', async () => {
    const rig = await newRig({ engine: { idleProbeMs: 10_000 } });
    await rig.engine.runOnce(); // the first pass asks at once: nothing is known yet
    expect(probes(rig)).toBe(1);
    expect(rig.engine.status().online).toBe(true);

    rig.sandbox.controls.setOffline(true);
    rig.advance(9_000);
    await rig.engine.runOnce();
    expect(probes(rig)).toBe(1); // not yet due: no request
    expect(rig.engine.status().online).toBe(true);

    rig.advance(1_000);
    await rig.engine.runOnce();
    expect(rig.engine.status().online).toBe(false);

    rig.sandbox.controls.setOffline(false);
    rig.advance(rig.engine.options.probeMinMs);
    await rig.engine.runOnce(); // the offline probe, due probeMinMs after going offline
    expect(rig.engine.status().online).toBe(true);
  });

  it('asks at most once per idleProbeMs, and never while off (0)', async () => {
    const rig = await newRig({ engine: { idleProbeMs: 10_000 } });
    for (let i = 0; i < 60; i++) {
      await rig.engine.runOnce();
      rig.advance(1_000);
    }
    expect(probes(rig)).toBe(6); // 60 s of passes every second
    await rig.close();

    const off = await newRig({ engine: { idleProbeMs: 0 } });
    for (let i = 0; i < 20; i++) {
      await off.engine.runOnce();
      off.advance(1_000);
    }
    expect(probes(off)).toBe(0);
  });
});
