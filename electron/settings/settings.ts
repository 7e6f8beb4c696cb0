/**
 * Settings: stored in SQLite, overridden by environment variables where one is set. The API key is
 * not a setting: it lives in the secret store (electron/settings/secrets.ts) and never reaches the UI.
 */
import type { Db } from '../db/open.ts';
import { randomTag } from '../orders/order-number.ts';
import { DEFAULT_OFFLINE_SALES, LANGUAGES, type Language, type OfflineSales } from '../../shared/domain.ts';

/** Setting keys and the environment variable that overrides each. */
export const ENV_OVERRIDES: Record<string, string> = {
  language: 'KASA_LANG',
  terminalId: 'KASA_TERMINAL_ID',
  gatewayUrl: 'KASA_GATEWAY_URL',
  lpfrUrl: 'KASA_LPFR_URL',
  onlineBudgetMs: 'KASA_ONLINE_BUDGET_MS',
  syncConcurrency: 'KASA_SYNC_CONCURRENCY',
  printerPollMs: 'KASA_PRINTER_POLL_MS',
  trainingMode: 'KASA_TRAINING_MODE',
};

export class Settings {
  readonly #db: Db;
  readonly #env: NodeJS.ProcessEnv;
  readonly #get;
  readonly #set;

  constructor(db: Db, env: NodeJS.ProcessEnv = process.env) {
    this.#db = db;
    this.#env = env;
    this.#get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.#set = db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
  }

  /** The effective value: environment override, else stored value, else undefined. */
  get(key: string): string | undefined {
    const envName = ENV_OVERRIDES[key];
    const fromEnv = envName ? this.#env[envName] : undefined;
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    return this.#get.get(key)?.value;
  }

  set(key: string, value: string): void {
    this.#set.run(key, value);
  }

  delete(key: string): void {
    this.#db.prepare('DELETE FROM settings WHERE key = ?').run(key);
  }

  language(): Language {
    const v = this.get('language');
    return (LANGUAGES as readonly string[]).includes(v ?? '') ? (v as Language) : 'sr-Cyrl';
  }

  /**
   * The till's id, the prefix of its order numbers: letters and digits, 1 to 12 characters. Unset, it is
   * `KASA` + four random letters chosen once and stored, so no two installations share a default.
   */
  terminalId(): string {
    const v = (this.get('terminalId') ?? '')
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 12);
    if (v) return v;
    const generated = `KASA${randomTag(4)}`;
    this.set('terminalId', generated);
    return generated;
  }

  number(key: string, fallback: number): number {
    const v = Number(this.get(key));
    return Number.isFinite(v) && this.get(key) !== undefined ? v : fallback;
  }

  /**
   * Refunds may go without a buyer ID (`settings.skipBuyerIdValidation`) only where a manager allowed it; default off.
   */
  allowRefundWithoutBuyerId(): boolean {
    return this.bool('allowRefundWithoutBuyerId');
  }

  bool(key: string): boolean {
    const v = this.get(key);
    return v === '1' || v === 'true';
  }
}

/** The shop's choice for sales nobody can sign (`offlineSales`): anything but `refused` is the default, allowed. */
export function offlineSalesOf(settings: Pick<Settings, 'get'>): OfflineSales {
  return settings.get('offlineSales') === 'refused' ? 'refused' : DEFAULT_OFFLINE_SALES;
}
