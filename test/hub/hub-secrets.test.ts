/**
 * The hub's secrets at rest and in the open (#25), through real `node hub/cli.ts` processes: the PGlite
 * data dir is private (directories 0700, files 0600) while the hub runs and after it stops; the admin token
 * is printed only when the hub made it (on PGlite and on a real PostgreSQL 15); a token shorter than 32
 * characters stops the hub before it opens anything, with a message that says so.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runHubToExit, startHubProcess } from '../support/hub-process.ts';
import { postgresDatabase, type PgDatabase } from '../support/postgres-shared.ts';

const dirs: string[] = [];
const tmp = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-hub-secrets-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** Every directory and file under `dir` (itself included) with its permission bits. */
function modes(dir: string): { dirs: Set<string>; files: Set<string>; count: number } {
  const out = { dirs: new Set<string>(), files: new Set<string>(), count: 0 };
  const walk = (d: string): void => {
    out.dirs.add((fs.statSync(d).mode & 0o777).toString(8));
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        out.files.add((fs.statSync(full).mode & 0o777).toString(8));
        out.count++;
      }
    }
  };
  walk(dir);
  return out;
}

describe('the hub process: secrets at rest and in the open', () => {
  it('keeps the PGlite data dir private: directories 0700, files 0600, while it runs and after it stops', async () => {
    const data = path.join(tmp(), 'hub');
    // The hub's real first start (not the tests' migrated template): PGlite makes its files 0666 whatever the umask.
    const hub = await startHubProcess({ KASA_HUB_DATA: data, KASA_TEST_HUB_FIRST_START: '1' });
    try {
      // Some writes first, so the hub has created files after its start too.
      const res = await fetch(`${hub.url}/api/admin/enrol-codes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hub.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ shopId: hub.shopId }),
      });
      expect(res.status).toBe(201);
      const running = modes(data);
      expect(running.count).toBeGreaterThan(10);
      expect(running.dirs).toEqual(new Set(['700']));
      expect(running.files).toEqual(new Set(['600']));
    } finally {
      await hub.stop();
    }
    const stopped = modes(data);
    expect(stopped.dirs).toEqual(new Set(['700']));
    expect(stopped.files).toEqual(new Set(['600']));
  }, 60_000);

  it('refuses an admin token shorter than 32 characters before it opens anything', async () => {
    const data = path.join(tmp(), 'hub');
    for (const token of ['x', 'a-31-character-token-0123456789']) {
      expect(token.length).toBeLessThan(32);
      const r = await runHubToExit({ KASA_HUB_DATA: data, KASA_HUB_ADMIN_TOKEN: token });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`the admin token (KASA_HUB_ADMIN_TOKEN) has ${token.length} characters`);
      expect(r.stderr).toContain('at least 32');
      // The refused token itself is not echoed (a one-character one would match anything).
      if (token.length > 1) expect(r.stderr).not.toContain(token);
      expect(fs.existsSync(data)).toBe(false);
    }
  }, 60_000);

  describe.each(['pglite', 'postgres'] as const)('on %s', (backend) => {
    let database: PgDatabase | null = null;
    afterAll(() => database?.dispose());
    const env = async (): Promise<Record<string, string>> => {
      if (backend === 'pglite') return { KASA_HUB_DATA: path.join(tmp(), 'hub') };
      database ??= await postgresDatabase();
      return { KASA_HUB_DATABASE_URL: database.url };
    };

    it('prints the admin token only when it made it; a token from the environment is never printed', async () => {
      const made = await startHubProcess(await env());
      try {
        expect(made.adminToken.length).toBeGreaterThanOrEqual(32);
        const res = await fetch(`${made.url}/api/admin/tills`, {
          headers: { authorization: `Bearer ${made.adminToken}` },
        });
        expect(res.status).toBe(200);
      } finally {
        await made.stop();
      }
      const given = 'a-token-of-exactly-32-characters';
      expect(given.length).toBe(32);
      const lines: string[] = [];
      const hub = await startHubProcess({ ...(await env()), KASA_HUB_ADMIN_TOKEN: given });
      hub.child.stdout?.on('data', (d: Buffer) => lines.push(d.toString()));
      hub.child.stderr?.on('data', (d: Buffer) => lines.push(d.toString()));
      try {
        const first = JSON.parse(hub.firstLine) as Record<string, unknown>;
        expect(Object.keys(first).sort()).toEqual(['fingerprint', 'shopId', 'url']);
        const res = await fetch(`${hub.url}/api/admin/tills`, { headers: { authorization: `Bearer ${given}` } });
        expect(res.status).toBe(200);
      } finally {
        await hub.stop();
      }
      expect(lines.join('')).not.toContain(given);
    }, 120_000);
  });
});
