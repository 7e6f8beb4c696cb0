/**
 * The one place the API key is written. Today: `<dataDir>/api-key` (mode 0600) through
 * settings/secrets.ts; the Electron shell's safeStorage SecretStore replaces this function's body.
 */
import { saveApiKeyFile } from '../settings/secrets.ts';

/** Stores `key` durably for the next start. Never logs it. */
export function storeApiKey(dataDir: string, key: string): void {
  saveApiKeyFile(dataDir, key);
}
