/**
 * A hub's embedded database as a test starts it: a copy of one PGlite data dir that was created and migrated
 * once per set of migrations, instead of PGlite's own first start in every test (its initdb and our migrations
 * took 8 s on a quiet 2-core machine and over 20 s under load; a copy opens in about a second).
 *
 * The template is made by the real `openPglite` on an empty dir, so every run that needs it (CI's fresh clone
 * always does) still starts a hub from nothing once; tests of a first start that must see it happen (file
 * modes, a migration series of their own) open an empty dir themselves. The template's name holds a hash of
 * PGlite's version and every hub migration file, so a changed migration makes a new one; it is built in a dir
 * of its own and renamed into place, so a run that stops half-way leaves nothing another run would take.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite } from '../../hub/db/db.ts';
import { ROOT } from './host-process.ts';

function templateDir(): string {
  const hash = crypto.createHash('sha256');
  const pglite = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  ) as { version: string };
  hash.update(pglite.version);
  const migrations = path.join(ROOT, 'hub', 'db', 'migrations');
  for (const file of fs.readdirSync(migrations).sort()) {
    hash.update(file).update(fs.readFileSync(path.join(migrations, file)));
  }
  hash.update(fs.readFileSync(path.join(ROOT, 'hub', 'db', 'db.ts')));
  return path.join(os.tmpdir(), `kasa-pglite-template-${hash.digest('hex').slice(0, 16)}`);
}

/** Fills `target` (absent or empty) with a migrated hub database, making the template first if needed. */
export async function seedPgliteDir(target: string): Promise<void> {
  const template = templateDir();
  if (!fs.existsSync(path.join(template, 'PG_VERSION'))) {
    const building = fs.mkdtempSync(`${template}.building-`);
    const db = await openPglite(building);
    await db.close();
    try {
      fs.renameSync(building, template);
    } catch {
      // Another test process renamed its own copy into place first: the same migrations, so take that one.
      fs.rmSync(building, { recursive: true, force: true });
    }
  }
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  fs.cpSync(template, target, { recursive: true });
}

/** True when `dir` is absent or empty: a hub started on it would make its database from nothing. */
export function isEmptyDir(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}
