/**
 * A migration's version is its position in its list (the till's `MIGRATIONS`, the hub's `HUB_MIGRATIONS`), and
 * nothing else states it: its file, `NNN_name.ts`, must be numbered as that position and named as the migration,
 * so that the folder read in order is the list, and a migration inserted or moved in the list shows here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../electron/db/migrations/index.ts';
import { HUB_MIGRATIONS } from '../../hub/db/migrations/index.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe.each([
  { dir: 'electron/db/migrations', list: MIGRATIONS as readonly object[] },
  { dir: 'hub/db/migrations', list: HUB_MIGRATIONS as readonly object[] },
])('$dir', ({ dir, list }) => {
  it('each file is numbered as its migration’s position in the list and named as it', async () => {
    const files = fs
      .readdirSync(path.join(ROOT, dir))
      .filter((f) => /^\d{3}_\w+\.ts$/.test(f))
      .sort();
    expect(files).toHaveLength(list.length);
    const seen = await Promise.all(
      files.map(async (f) => {
        const mod = (await import(path.join(ROOT, dir, f))) as Record<string, unknown>;
        const m = Object.values(mod).find((v) => list.includes(v as object)) as { name: string } | undefined;
        return { file: f, at: m ? list.indexOf(m) + 1 : 0, name: m?.name };
      }),
    );
    expect(seen).toEqual(files.map((f) => ({ file: f, at: Number(f.slice(0, 3)), name: f.slice(4, -3) })));
  });
});
