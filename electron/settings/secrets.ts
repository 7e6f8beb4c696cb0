/**
 * Where the API key lives. The key is handed to the gateway client and the logger's redaction list, and
 * nowhere else: never to the renderer, never to a log line, never to the database.
 *
 * Two `SecretStore`s:
 * - Electron: `createSafeStorageSecretStore(safeStorage, dataDir)`: the key encrypted with Electron's
 *   `safeStorage` (DPAPI on Windows, Keychain on macOS, libsecret/kwallet on Linux) in
 *   `<dataDir>/api-key.safe`. On Linux without a keyring Electron falls back to `basic_text` (a fixed,
 *   public key): the store still works, but `status().warning` says so, for the UI and the log.
 * - Host (plain Node): `createFileSecretStore(env, dataDir)`: `KASA_API_KEY`, else the file named by
 *   `KASA_API_KEY_FILE` or `<dataDir>/api-key`, which must be readable by its owner only (0600).
 * In both, `KASA_API_KEY` in the environment wins (development, tests, CI).
 *
 * The L-PFR's PIN (docs/lpfr.md) is kept the same way under its own names (`LPFR_PIN_SECRET`): `KASA_LPFR_PIN`,
 * `KASA_LPFR_PIN_FILE` or `<dataDir>/lpfr-pin`, and `lpfr-pin.safe` in Electron.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The names one secret is kept under. */
export interface SecretSpec {
  /** What it is, in log and error lines. */
  what: string;
  /** The environment variable that holds it (it wins). */
  env: string;
  /** The environment variable naming its 0600 file (host). */
  fileEnv: string;
  /** Its file in the data dir (host). */
  file: string;
  /** Its encrypted blob in the data dir (Electron). */
  safeFile: string;
}

export const API_KEY_SECRET: SecretSpec = {
  what: 'the API key',
  env: 'KASA_API_KEY',
  fileEnv: 'KASA_API_KEY_FILE',
  file: 'api-key',
  safeFile: 'api-key.safe',
};

export const LPFR_PIN_SECRET: SecretSpec = {
  what: 'the L-PFR PIN',
  env: 'KASA_LPFR_PIN',
  fileEnv: 'KASA_LPFR_PIN_FILE',
  file: 'lpfr-pin',
  safeFile: 'lpfr-pin.safe',
};

export interface ApiKeySource {
  key: string | null;
  from: 'env' | 'file' | 'none';
  warning?: string;
}

/** What may be shown about the stored key (never the key itself). */
export interface SecretStoreStatus {
  kind: 'safeStorage' | 'file';
  /** Where the current key comes from. */
  source: 'env' | 'store' | 'none';
  hasKey: boolean;
  /** True when the key at rest is encrypted with a key the OS protects. */
  encryptedAtRest: boolean;
  /** safeStorage's backend on Linux ('gnome_libsecret', 'kwallet5', 'basic_text', …); null elsewhere. */
  backend: string | null;
  /** For the user and the log: a weak backend, a file readable by others, a blob that no longer decrypts. */
  warning: string | null;
}

/** The API key's store: get, set and clear; `status()` is what the UI may see. */
export interface SecretStore {
  get(): string | null;
  /** Stores the key (trimmed, non-empty). Throws if the store cannot hold it safely. */
  set(key: string): void;
  clear(): void;
  status(): SecretStoreStatus;
}

// ---------------------------------------------------------------------------------------------------
// Host: environment or a 0600 file

export function loadApiKey(env: NodeJS.ProcessEnv, dataDir: string, spec: SecretSpec = API_KEY_SECRET): ApiKeySource {
  const fromEnv = env[spec.env]?.trim();
  if (fromEnv) return { key: fromEnv, from: 'env' };
  const file = keyFilePath(env, dataDir, spec);
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

const keyFilePath = (env: NodeJS.ProcessEnv, dataDir: string, spec: SecretSpec): string => {
  const named = env[spec.fileEnv];
  return named ? path.resolve(named) : path.join(dataDir, spec.file);
};

/** Stores the key in `<dataDir>/api-key` with mode 0600. */
export function saveApiKeyFile(dataDir: string, key: string): void {
  writePrivate(path.join(dataDir, 'api-key'), key + '\n');
}

/** Writes a file only its owner can read, atomically (temp file + rename). */
export function writePrivate(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

function cleanKey(key: string, spec: SecretSpec): string {
  const k = key.trim();
  if (!k) throw new Error(`${spec.what} is empty`);
  if (/[\r\n\0]/.test(k)) throw new Error(`${spec.what} contains a line break or NUL`);
  return k;
}

/** The host's store: `KASA_API_KEY`, else the 0600 file (`KASA_API_KEY_FILE` or `<dataDir>/api-key`). */
export function createFileSecretStore(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  spec: SecretSpec = API_KEY_SECRET,
): SecretStore {
  const file = keyFilePath(env, dataDir, spec);
  return {
    get: () => loadApiKey(env, dataDir, spec).key,
    set(key) {
      writePrivate(file, cleanKey(key, spec) + '\n');
    },
    clear() {
      fs.rmSync(file, { force: true });
    },
    status() {
      const s = loadApiKey(env, dataDir, spec);
      return {
        kind: 'file',
        source: s.from === 'env' ? 'env' : s.from === 'file' ? 'store' : 'none',
        hasKey: s.key !== null,
        encryptedAtRest: false,
        backend: null,
        warning: s.warning ?? null,
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Electron: safeStorage

/** The part of Electron's `safeStorage` used here (injected: tests pass a fake, main.ts the real one). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron; absent or throwing elsewhere. */
  getSelectedStorageBackend?(): string;
}

export const SAFE_BLOB_FILE = 'api-key.safe';
const BLOB_FORMAT = 'kasa-secret/1';

interface Blob {
  format: typeof BLOB_FORMAT;
  /** The backend that encrypted it, recorded so support can tell a weak store from the file alone. */
  backend: string | null;
  savedAt: string;
  data: string;
}

export const BASIC_TEXT_WARNING =
  'no system keyring (safeStorage backend basic_text): the API key is stored obfuscated, not encrypted; ' +
  'install and unlock a keyring (GNOME Keyring or KWallet) and enter the key again';

/**
 * The Electron store: the key encrypted with `safeStorage` in `<dataDir>/api-key.safe` (mode 0600).
 * `set` refuses when encryption is unavailable (it never falls back to plain text); on the `basic_text`
 * backend it stores the key and reports the weakness in `status().warning`.
 */
export function createSafeStorageSecretStore(
  safeStorage: SafeStorageLike,
  dataDir: string,
  options: { env?: NodeJS.ProcessEnv; spec?: SecretSpec } = {},
): SecretStore {
  const spec = options.spec ?? API_KEY_SECRET;
  const file = path.join(dataDir, spec.safeFile);
  const env = options.env ?? {};
  let decryptError: string | null = null;

  const backend = (): string | null => {
    if (typeof safeStorage.getSelectedStorageBackend !== 'function') return null;
    try {
      return safeStorage.getSelectedStorageBackend();
    } catch {
      return null;
    }
  };

  const readBlob = (): Blob | null => {
    let raw: string;
    try {
      raw = fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
    try {
      const b = JSON.parse(raw) as Blob;
      return b && b.format === BLOB_FORMAT && typeof b.data === 'string' ? b : null;
    } catch {
      return null;
    }
  };

  const fromStore = (): string | null => {
    const blob = readBlob();
    if (!blob) return null;
    if (!safeStorage.isEncryptionAvailable()) {
      decryptError = `safeStorage is not available: ${spec.what} stored cannot be decrypted`;
      return null;
    }
    try {
      const key = safeStorage.decryptString(Buffer.from(blob.data, 'base64')).trim();
      decryptError = null;
      return key || null;
    } catch {
      decryptError = `${spec.what} stored could not be decrypted (keyring changed or reset?); enter it again`;
      return null;
    }
  };

  return {
    get() {
      const fromEnv = env[spec.env]?.trim();
      if (fromEnv) return fromEnv;
      return fromStore();
    },
    set(key) {
      const clean = cleanKey(key, spec);
      if (!safeStorage.isEncryptionAvailable()) {
        throw new Error(`safeStorage encryption is not available; ${spec.what} was not stored`);
      }
      const encrypted = safeStorage.encryptString(clean);
      const blob: Blob = {
        format: BLOB_FORMAT,
        backend: backend(),
        savedAt: new Date().toISOString(),
        data: encrypted.toString('base64'),
      };
      writePrivate(file, JSON.stringify(blob) + '\n');
    },
    clear() {
      fs.rmSync(file, { force: true });
    },
    status() {
      const fromEnv = Boolean(env[spec.env]?.trim());
      const stored = fromEnv ? null : fromStore();
      const be = backend() ?? readBlob()?.backend ?? null;
      const weak = be === 'basic_text';
      const warnings: string[] = [];
      if (weak) warnings.push(BASIC_TEXT_WARNING);
      if (!fromEnv && decryptError) warnings.push(decryptError);
      return {
        kind: 'safeStorage',
        source: fromEnv ? 'env' : stored ? 'store' : 'none',
        hasKey: fromEnv || stored !== null,
        encryptedAtRest: !weak && safeStorage.isEncryptionAvailable(),
        backend: be,
        warning: warnings.length ? warnings.join('; ') : null,
      };
    },
  };
}
