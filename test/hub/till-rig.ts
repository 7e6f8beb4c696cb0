/**
 * Tills in this process beside a served hub (test/hub/served-hub.ts), for the suites that sync real tills with it:
 * one sandbox gateway for the file, each till a core of its own (own SQLite file in a temp dir, English, the
 * sandbox's demo key, the engine's probes and backoffs short). Everything is closed in `afterAll`, the tills first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createCore, type Core } from '../../electron/core.ts';
import { startSandbox, type Sandbox } from '../../electron/sandbox/server.ts';
import type { EngineOptions } from '../../electron/outbox/engine.ts';
import { quiet } from '../support/core-calls.ts';
import { FAST_ENGINE } from '../support/session.ts';
import type { Backend } from './backends.ts';
import { serveHub, type ServedHub } from './served-hub.ts';

export interface TillRig {
  hub: ServedHub;
  /** The sandbox gateway every till fiscalizes on. */
  sandbox: Sandbox;
  /** The hub's default shop. */
  shopId: number;
  /** The data dirs of the tills opened so far, in order. */
  dirs: string[];
  /** The tills open now, in order (a test that closes one takes it out). */
  cores: Core[];
  /**
   * A till's core (in `dir`: a till opened again): `env` over the rig's (language, terminal id, gateway), `engine`
   * over its fast timings.
   */
  openTill(
    terminalId: string,
    options?: { env?: NodeJS.ProcessEnv; engine?: Partial<EngineOptions>; dir?: string },
  ): Promise<{ core: Core; dir: string }>;
}

/**
 * A till's core on a sandbox gateway, as the hub suites open one: `env` over English, `terminalId`, the gateway at
 * `gatewayUrl` and its demo key; quiet logs; `engine` over FAST_ENGINE's timings, or `false` for the core's own.
 */
export function openSandboxTill(
  dir: string,
  terminalId: string,
  gatewayUrl: string,
  options: { env?: NodeJS.ProcessEnv; engine?: Partial<EngineOptions> | false; logger?: Core['logger'] } = {},
): Promise<Core> {
  return createCore({
    dataDir: dir,
    transport: 'host',
    env: {
      KASA_LANG: 'en',
      KASA_TERMINAL_ID: terminalId,
      KASA_GATEWAY_URL: gatewayUrl,
      KASA_API_KEY: 'demo-key',
      ...options.env,
    },
    logger: options.logger ?? quiet,
    ...(options.engine === false ? {} : { engine: { ...FAST_ENGINE, ...options.engine } }),
  });
}

export function tillRig(backend: Backend, adminToken: string): TillRig {
  const rig = {
    hub: serveHub(backend, { adminToken, defaultShop: true }),
    sandbox: undefined as unknown as Sandbox,
    get shopId(): number {
      return rig.hub.shop;
    },
    dirs: [] as string[],
    cores: [] as Core[],
    async openTill(
      terminalId: string,
      options: { env?: NodeJS.ProcessEnv; engine?: Partial<EngineOptions>; dir?: string } = {},
    ) {
      const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-till-'));
      if (!options.dir) rig.dirs.push(dir);
      const core = await openSandboxTill(dir, terminalId, rig.sandbox.url, options);
      rig.cores.push(core);
      return { core, dir };
    },
  };
  beforeAll(async () => {
    rig.sandbox = await startSandbox({ port: 0 });
  });
  // A test's tills close when it ends: each syncs with the hub every second, so tills left open by earlier tests
  // would keep the hub (and the machine) busy for the rest of the file.
  afterEach(async () => {
    for (const c of rig.cores.splice(0)) await c.close();
  });
  // Registered after the hub's: vitest runs `afterAll` hooks last-registered first, so the tills close before it.
  afterAll(async () => {
    for (const c of rig.cores) await c.close();
    await rig.sandbox?.close();
    rig.dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });
  return rig;
}
