/**
 * Where the API key comes from. In the browser host: `KASA_API_KEY`, else the file named by
 * `KASA_API_KEY_FILE` or `<dataDir>/api-key`, which must be readable by its owner only. The key is
 * handed to the gateway client and the logger's redaction list, and nowhere else.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ApiKeySource {
  key: string | null;
  from: 'env' | 'file' | 'none';
  warning?: string;
}

export function loadApiKey(env: NodeJS.ProcessEnv, dataDir: string): ApiKeySource {
  const fromEnv = env.KASA_API_KEY?.trim();
  if (fromEnv) return { key: fromEnv, from: 'env' };
  const file = env.KASA_API_KEY_FILE ? path.resolve(env.KASA_API_KEY_FILE) : path.join(dataDir, 'api-key');
  if (!fs.existsSync(file)) return { key: null, from: 'none' };
  const st = fs.statSync(file);
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    return {
      key: null,
      from: 'none',
      warning: `${file} is readable by other users (mode ${(st.mode & 0o777).toString(8)}); run chmod 600 on it`,
    };
  }
  const key = fs.readFileSync(file, 'utf8').trim();
  return key ? { key, from: 'file' } : { key: null, from: 'none' };
}

/** Stores the key in `<dataDir>/api-key` with mode 0600. */
export function saveApiKeyFile(dataDir: string, key: string): void {
  const file = path.join(dataDir, 'api-key');
  fs.writeFileSync(file, key + '\n', { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}
