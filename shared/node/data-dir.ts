/** Where the till (and, under it, the hub) keeps its data when no folder is given. */
import path from 'node:path';

/** The default data directory: KASA_DATA_DIR, else the OS per-user application data folder. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.KASA_DATA_DIR) return path.resolve(env.KASA_DATA_DIR);
  const home = env.HOME ?? env.USERPROFILE ?? '.';
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Kasa');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Kasa');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Kasa');
}
