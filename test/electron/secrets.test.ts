/**
 * The two SecretStores. The safeStorage one runs without Electron: a fake `safeStorage` does real
 * AES-256-GCM with a key of its own (as DPAPI/Keychain/libsecret would), so "the blob on disk does not
 * contain the key" is a real check, and `basic_text` is reported as the weak backend it is.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BASIC_TEXT_WARNING,
  SAFE_BLOB_FILE,
  createFileSecretStore,
  createSafeStorageSecretStore,
  type SafeStorageLike,
} from '../../electron/settings/secrets.ts';
import { tempDirs } from '../support/temp-dirs.ts';

const KEY = 'kasa-test-key-5b1f0c3e9a7d4f21';
const { dir: tmp, cleanup } = tempDirs('kasa-secret-');
afterEach(cleanup);

function fakeSafeStorage(backend = 'gnome_libsecret', available = true): SafeStorageLike & { calls: string[] } {
  const master = crypto.randomBytes(32);
  const calls: string[] = [];
  return {
    calls,
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString(plain) {
      calls.push('encrypt');
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv('aes-256-gcm', master, iv);
      const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return Buffer.concat([Buffer.from('v10'), iv, c.getAuthTag(), body]);
    },
    decryptString(buf) {
      calls.push('decrypt');
      const iv = buf.subarray(3, 15);
      const d = crypto.createDecipheriv('aes-256-gcm', master, iv);
      d.setAuthTag(buf.subarray(15, 31));
      return Buffer.concat([d.update(buf.subarray(31)), d.final()]).toString('utf8');
    },
  };
}

/** Every spelling of the key a careless store could leave on disk. */
const spellings = (k: string): Buffer[] => [
  Buffer.from(k, 'utf8'),
  Buffer.from(k, 'utf16le'),
  Buffer.from(Buffer.from(k).toString('base64')),
  Buffer.from(Buffer.from(k).toString('hex')),
];

describe('safeStorage SecretStore', () => {
  it('round-trips the key; the blob (0600) contains none of its spellings', () => {
    const dir = tmp();
    const store = createSafeStorageSecretStore(fakeSafeStorage(), dir);
    expect(store.get()).toBeNull();
    store.set(`  ${KEY}\n`);
    expect(store.get()).toBe(KEY);
    const file = path.join(dir, SAFE_BLOB_FILE);
    const blob = fs.readFileSync(file);
    for (const s of spellings(KEY)) expect(blob.includes(s)).toBe(false);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(blob.toString('utf8'))).toMatchObject({ format: 'kasa-secret/1', backend: 'gnome_libsecret' });
    expect(store.status()).toMatchObject({
      kind: 'safeStorage',
      source: 'store',
      hasKey: true,
      encryptedAtRest: true,
      warning: null,
    });
    expect(JSON.stringify(store.status())).not.toContain(KEY);
    store.clear();
    expect(store.get()).toBeNull();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('on basic_text (Linux without a keyring) still stores, but warns and records the backend', () => {
    const dir = tmp();
    const store = createSafeStorageSecretStore(fakeSafeStorage('basic_text'), dir);
    expect(store.status().warning).toBe(BASIC_TEXT_WARNING);
    store.set(KEY);
    expect(store.get()).toBe(KEY);
    const st = store.status();
    expect(st).toMatchObject({ backend: 'basic_text', encryptedAtRest: false, hasKey: true });
    expect(st.warning).toContain('basic_text');
    expect(JSON.parse(fs.readFileSync(path.join(dir, SAFE_BLOB_FILE), 'utf8')).backend).toBe('basic_text');
  });

  it('refuses to store when encryption is unavailable (never falls back to plain text)', () => {
    const dir = tmp();
    const store = createSafeStorageSecretStore(fakeSafeStorage('unknown', false), dir);
    expect(() => store.set(KEY)).toThrow(/not available/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a blob from another keyring does not decrypt: no key, a warning', () => {
    const dir = tmp();
    createSafeStorageSecretStore(fakeSafeStorage(), dir).set(KEY);
    const other = createSafeStorageSecretStore(fakeSafeStorage(), dir);
    expect(other.get()).toBeNull();
    expect(other.status().warning).toMatch(/could not be decrypted/);
  });

  it('KASA_API_KEY wins (development) and is reported as such', () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), tmp(), { env: { KASA_API_KEY: 'from-env' } });
    expect(store.get()).toBe('from-env');
    expect(store.status().source).toBe('env');
  });

  it('rejects empty keys and keys with line breaks', () => {
    const store = createSafeStorageSecretStore(fakeSafeStorage(), tmp());
    expect(() => store.set('   ')).toThrow();
    expect(() => store.set('a\nb')).toThrow();
  });
});

describe('file SecretStore (host)', () => {
  it('writes a 0600 file and reads it back', () => {
    const dir = tmp();
    const store = createFileSecretStore({}, dir);
    store.set(KEY);
    expect(store.get()).toBe(KEY);
    if (process.platform !== 'win32') expect(fs.statSync(path.join(dir, 'api-key')).mode & 0o777).toBe(0o600);
    expect(store.status()).toMatchObject({ kind: 'file', source: 'store', hasKey: true, encryptedAtRest: false });
    store.clear();
    expect(store.get()).toBeNull();
  });

  it.skipIf(process.platform === 'win32')('ignores a key file others can read, and says why', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'api-key'), KEY, { mode: 0o644 });
    fs.chmodSync(path.join(dir, 'api-key'), 0o644);
    const store = createFileSecretStore({}, dir);
    expect(store.get()).toBeNull();
    expect(store.status().warning).toMatch(/chmod 600/);
    expect(store.status().warning).not.toContain(KEY);
  });

  it('KASA_API_KEY and KASA_API_KEY_FILE', () => {
    const dir = tmp();
    expect(createFileSecretStore({ KASA_API_KEY: ' env-key ' }, dir).get()).toBe('env-key');
    const file = path.join(dir, 'elsewhere.key');
    const store = createFileSecretStore({ KASA_API_KEY_FILE: file }, dir);
    store.set(KEY);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(KEY);
    expect(store.get()).toBe(KEY);
  });
});
