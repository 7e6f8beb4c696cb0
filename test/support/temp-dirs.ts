/**
 * Temporary directories a test file makes and removes again, so that no test file keeps its own list:
 * `const { dir, cleanup } = tempDirs('kasa-x-'); afterEach(cleanup);`. `file()` is a fresh directory's
 * `kasa.sqlite` (the name the till's database has).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempDirs {
  /** A new empty directory under the system's temp dir, its name starting with the prefix. */
  dir: () => string;
  /** A path `name` inside a new directory (the file itself is not made). */
  file: (name?: string) => string;
  /** Removes every directory made since the last cleanup. */
  cleanup: () => void;
}

export function tempDirs(prefix: string): TempDirs {
  const dirs: string[] = [];
  const dir = (): string => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
  return {
    dir,
    file: (name = 'kasa.sqlite') => path.join(dir(), name),
    cleanup: () => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })),
  };
}
