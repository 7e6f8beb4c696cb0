/**
 * The data dir holds PIN hashes, sales and backups: a 4-digit PIN hash read by another user
 * of the machine is cracked offline in minutes. So the directory and everything in it is private to the
 * user the till runs as: directories 0700, files 0600, and the process umask 077 so that what SQLite,
 * backups and logs create later is born private (host mode and Electron alike). No-op on Windows, where
 * the user profile's ACLs do this job.
 */
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dataDir` if needed, tightens it and everything under it, and sets the umask to 077. */
export function makeDataDirPrivate(dataDir: string): void {
  if (process.platform === 'win32') return;
  try {
    process.umask(0o077);
  } catch {
    // Worker threads may not change the umask; the chmods below still cover what exists.
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dataDir);
}

function tighten(dir: string): void {
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) tighten(full);
    else if (entry.isFile()) fs.chmodSync(full, PRIVATE_FILE_MODE);
    // Symlinks and sockets are left alone: chmod would follow a link out of the data dir.
  }
}
