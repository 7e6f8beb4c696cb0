/**
 * The till's link to SEF: its settings (in the settings table, key `sef`), its API key (a secret like the gateway's:
 * electron/settings/secrets.ts, under its own names), and the client: the real SEF (demo or production environment)
 * with the key, or with no key the embedded fake SEF (demo mode, docs/sef.md). `KASA_SEF_URL` points a keyed till
 * at another SEF (tests: a fake SEF of their own).
 *
 * The key reaches only the client's `ApiKey` header and the logger's redaction list: never the settings view, the
 * database, a log line or the renderer.
 */
import type { Settings } from '../settings/settings.ts';
import type { SecretSpec, SecretStore } from '../settings/secrets.ts';
import type { SefSettingsInput, SefSettingsView } from '../../shared/contract/sef.ts';
import type { SefLabelCategory } from '../../shared/sef/tax.ts';
import { SefClient } from '../../shared/node/sef-client.ts';
import { SEF_URLS } from '../../shared/sef/api.ts';
import { startFakeSef, type FakeSef } from './fake-sef.ts';

export const SEF_KEY_SECRET: SecretSpec = {
  what: 'the SEF API key',
  env: 'KASA_SEF_API_KEY',
  fileEnv: 'KASA_SEF_API_KEY_FILE',
  file: 'sef-api-key',
  safeFile: 'sef-api-key.safe',
};

export { SEF_URLS } from '../../shared/sef/api.ts';

interface Stored {
  environment?: 'demo' | 'prod';
  autoIssue?: boolean;
  sendToCir?: boolean;
  seller?: Partial<SefSettingsView['seller']>;
  labelCategories?: Record<string, SefLabelCategory>;
}

/** The demo shop's seller data (the sandbox gateway's demo company), used while nothing is set in demo mode. */
const DEMO_SELLER: SefSettingsView['seller'] = {
  pib: '100002508',
  registrationNumber: '08000017',
  name: 'Демо д.о.о.',
  street: 'Булевар ослобођења 1',
  city: 'Нови Сад',
  postalZone: '21000',
  bankAccount: '',
};

const EMPTY_SELLER: SefSettingsView['seller'] = {
  pib: '',
  registrationNumber: '',
  name: '',
  street: '',
  city: '',
  postalZone: '',
  bankAccount: '',
};

export interface SefLinkOptions {
  settings: Settings;
  secrets: SecretStore;
  env: NodeJS.ProcessEnv;
  redact: (secret: string) => void;
  log: (line: string) => void;
}

export class SefLink {
  readonly #o: SefLinkOptions;
  #fake: FakeSef | null = null;
  #client: SefClient | null = null;

  constructor(options: SefLinkOptions) {
    this.#o = options;
  }

  /** Starts the embedded fake SEF when no key is set, and makes the client. */
  async start(): Promise<void> {
    await this.#connect();
  }

  async #connect(): Promise<void> {
    const key = this.#o.secrets.get();
    const onRequest = (i: { method: string; path: string; status: number | null; ms: number }) =>
      this.#o.log(`sef ${i.method} ${i.path} -> ${i.status ?? 'no reply'} ${i.ms}ms`);
    if (key) {
      this.#o.redact(key);
      if (this.#fake) {
        await this.#fake.close();
        this.#fake = null;
      }
      const baseUrl = this.#o.env['KASA_SEF_URL'] || SEF_URLS[this.#stored().environment ?? 'demo'];
      this.#client = new SefClient({ baseUrl, apiKey: key, onRequest });
    } else {
      // Demo mode: the buyer approves on the next status read, so a demo shows the whole way.
      this.#fake ??= await startFakeSef({ autoDecision: 'Approved' });
      this.#client = new SefClient({ baseUrl: this.#fake.url, apiKey: this.#fake.apiKey, onRequest });
      this.#o.log(`sef: demo mode, embedded fake SEF at ${this.#fake.url}`);
    }
  }

  client(): SefClient | null {
    return this.#client;
  }

  /** The embedded fake SEF (demo mode), for the demo and tests; null with a key. */
  fake(): FakeSef | null {
    return this.#fake;
  }

  #stored(): Stored {
    try {
      return JSON.parse(this.#o.settings.get('sef') ?? '{}') as Stored;
    } catch {
      return {};
    }
  }

  view(): SefSettingsView {
    const s = this.#stored();
    const hasKey = this.#o.secrets.get() !== null;
    const seller = { ...(hasKey ? EMPTY_SELLER : DEMO_SELLER), ...(s.seller ?? {}) };
    return {
      environment: s.environment ?? 'demo',
      autoIssue: s.autoIssue ?? false,
      sendToCir: s.sendToCir ?? false,
      seller,
      labelCategories: s.labelCategories ?? {},
      hasKey,
      demo: !hasKey,
    };
  }

  /** Saves the settings; a new key goes to the secret store and the client is made again. */
  async save(input: SefSettingsInput): Promise<{ view: SefSettingsView; keyChanged: boolean }> {
    const stored: Stored = {
      environment: input.environment,
      autoIssue: input.autoIssue,
      sendToCir: input.sendToCir,
      seller: input.seller,
      labelCategories: input.labelCategories ?? this.#stored().labelCategories ?? {},
    };
    let keyChanged = false;
    if (input.apiKey !== undefined) {
      this.#o.redact(input.apiKey);
      this.#o.secrets.set(input.apiKey);
      keyChanged = true;
    } else if (input.clearKey) {
      this.#o.secrets.clear();
      keyChanged = true;
    }
    this.#o.settings.set('sef', JSON.stringify(stored));
    await this.#connect();
    return { view: this.view(), keyChanged };
  }

  async close(): Promise<void> {
    if (this.#fake) await this.#fake.close();
    this.#fake = null;
  }
}
