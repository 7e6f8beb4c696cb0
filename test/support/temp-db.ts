/**
 * Temporary data directories with real SQLite databases for tests, and a logger that records its lines;
 * `cleanup()` (call it in afterEach) closes every database and removes every directory.
 */
import path from 'node:path';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import { tempDirs } from './temp-dirs.ts';

export function tempDatabases(prefix: string): {
  tmp: () => string;
  db: (dir: string) => Db;
  lines: string[];
  logger: { info(l: string): void; warn(l: string): void; error(l: string): void };
  cleanup: () => void;
} {
  const dirs = tempDirs(prefix);
  const open: Db[] = [];
  const lines: string[] = [];
  return {
    tmp: dirs.dir,
    db: (dir) => {
      const d = openDatabase(path.join(dir, 'kasa.sqlite'));
      open.push(d);
      return d;
    },
    lines,
    logger: {
      info: (l) => lines.push(`I ${l}`),
      warn: (l) => lines.push(`W ${l}`),
      error: (l) => lines.push(`E ${l}`),
    },
    cleanup: () => {
      open.splice(0).forEach((d) => d.open && d.close());
      dirs.cleanup();
      lines.length = 0;
    },
  };
}
