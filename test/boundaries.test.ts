/**
 * The layering rules hold: lint refuses Node/Electron in the renderer and either side in shared/, and the hub's
 * own code in the hub UI and shared/ (they reach the hub through its contract, shared/hub/).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint();
/** A probe's source: it imports `name` from `from` and uses it, so that the import is linted as a real one. */
const importing = (name: string, from: string): string =>
  `import { ${name} } from '${from}';\nexport const x = ${name};\n`;
async function errors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it('the renderer may not import Node, Electron or the main process', async () => {
    const file = 'renderer/src/__boundary_probe.ts';
    expect(await errors("import fs from 'node:fs';\nexport const x = fs;\n", file)).not.toHaveLength(0);
    expect(await errors(importing('ipcRenderer', 'electron'), file)).not.toHaveLength(0);
    expect(await errors(importing('createCore', '../../electron/core.ts'), file)).not.toHaveLength(0);
    expect(await errors(importing('commands', '../../shared/contract/index.ts'), file)).toHaveLength(0);
  });

  it('shared/ imports neither side nor Node', async () => {
    const file = 'shared/__boundary_probe.ts';
    expect(await errors("import path from 'path';\nexport const x = path;\n", file)).not.toHaveLength(0);
    expect(await errors(importing('startHost', '../electron/host/server.ts'), file)).not.toHaveLength(0);
    expect(await errors(importing('App', '../renderer/src/App.tsx'), file)).not.toHaveLength(0);
  });

  it('electron/orders/ imports no domain folder: the areas build on the orders, never the reverse', async () => {
    const file = 'electron/orders/__boundary_probe.ts';
    for (const area of ['sales/service.ts', 'manager/orders.ts', 'goods/ledger.ts', 'printer/service.ts']) {
      const [folder] = area.split('/');
      const code = `import * as m from '../${area}';\nexport const x = m;\n`;
      expect(await errors(code, file), folder).not.toHaveLength(0);
    }
    // What an order rests on stays allowed: the database, the gateway's types, the outbox's checks, the errors.
    for (const base of ['db/open.ts', 'gateway/types.ts', 'outbox/verify.ts', 'errors.ts']) {
      expect(await errors(`import * as m from '../${base}';\nexport const x = m;\n`, file), base).toHaveLength(0);
    }
  });

  it('the app never imports the L-PFR sandbox (test/support/lpfr-sandbox/, a development double)', async () => {
    const sandbox = 'test/support/lpfr-sandbox/server.ts';
    const code = (up: string): string => `import { startLpfrSandbox } from '${up}${sandbox}';\nexport const x = 1;\n`;
    expect(await errors(code('../../'), 'electron/lpfr/__boundary_probe.ts')).not.toHaveLength(0);
    expect(await errors(code('../../'), 'electron/orders/__boundary_probe.ts')).not.toHaveLength(0);
    expect(await errors(code('../'), 'electron/__boundary_probe.ts')).not.toHaveLength(0);
    expect(await errors(code('../../'), 'renderer/src/__boundary_probe.ts')).not.toHaveLength(0);
    expect(await errors(code('../'), 'shared/__boundary_probe.ts')).not.toHaveLength(0);
    // Tests beside the code may use the test kit.
    expect(await errors(code('../../'), 'electron/lpfr/__boundary_probe.test.ts')).toHaveLength(0);
  });

  it('electron/core.ts only composes: no SQL, no timers, no paper or e-mail rules of its own', () => {
    const core = fs.readFileSync(path.join(import.meta.dirname, '../electron/core.ts'), 'utf8');
    expect(core).not.toMatch(/\.prepare\(|\b(SELECT|INSERT|UPDATE|DELETE)\s/);
    expect(core).not.toMatch(/\bset(Timeout|Interval)\(/);
    // The automatic print and the e-mail pump live with their owners, started with one call each.
    expect(core).not.toMatch(/autoPrintReceipt|enqueueLate|outageSlipLines|emails\.pump\(/);
  });
});

describe('the hub is reached through its contract only (issue 39)', () => {
  /** Lints a real file written where the offender would sit, then removes it. */
  async function fileErrors(file: string, code: string): Promise<string[]> {
    fs.writeFileSync(file, code);
    try {
      const [result] = await eslint.lintFiles([file]);
      return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
    } finally {
      fs.rmSync(file, { force: true });
    }
  }
  const probe = (dir: string): string => path.join(dir, `__hub_probe_${process.pid}.ts`);

  it('lint refuses the hub UI importing hub/, and takes shared/hub/', async () => {
    const file = probe('renderer/src/hub-ui');
    expect(await fileErrors(file, importing('createHubService', '../../../hub/service.ts'))).toEqual([
      expect.stringMatching(/through its contract/),
    ]);
    expect(await fileErrors(file, importing('HUB_API', '../../../shared/hub/contract.ts'))).toEqual([]);
    expect(await errors(importing('startHubServer', '../../hub/server.ts'), 'renderer/src/x.ts')).not.toHaveLength(0);
  });

  it('lint refuses shared/ importing hub/ at any depth, and takes shared/hub/ from beside it', async () => {
    for (const [dir, name, from] of [
      ['shared/hub', 'createGuard', '../../hub/guard.ts'],
      ['shared/hub/contract', 'HubError', '../../../hub/service.ts'],
      ['shared', 'tillActor', '../hub/till-trust.ts'],
    ] as const)
      expect(await fileErrors(probe(dir), importing(name, from)), dir).toEqual([
        expect.stringMatching(/may not import the hub/),
      ]);
    // shared/contract/ reaching shared/hub/ beside it is no hub import.
    expect(await fileErrors(probe('shared/contract'), importing('HUB_API', '../hub/contract.ts'))).toEqual([]);
  });
});
