/**
 * The settings area's handlers (shared/contract/settings.ts): the till's settings and its gateway account.
 * The API key is verified with the gateway before it is stored, and never returned (only masked).
 */
import { UNFISCALIZED_CASH_LIMIT_HOURS } from '../../shared/contract/authz.ts';
import { DEFAULT_DISCOUNT_LIMIT_PERCENT } from '../../shared/domain.ts';
import type { AccountView, SettingsView } from '../../shared/contract/settings.ts';
import { approverOf } from '../auth/context.ts';
import { gatewayCommandError, type StaffService } from '../auth/staff.ts';
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import { CommandError } from '../errors.ts';
import { GatewayClient } from '../gateway/client.ts';
import { GatewayError } from '../gateway/errors.ts';
import type { TaxRatesCache } from '../sales/tax-rates.ts';
import type { SecretStore } from './secrets.ts';
import type { LpfrControl } from '../lpfr/setup.ts';
import type { LpfrState } from '../../shared/domain.ts';
import { offlineSalesOf, type Settings } from './settings.ts';

/** The gateway as the core holds it: switchable at run time (demo sandbox ⇄ live key). */
export interface GatewayControl {
  client(): GatewayClient;
  mode(): 'demo' | 'live';
  /** The key in use (never returned to the renderer; only masked). */
  key(): string;
  /** Switches to `url` + `key`: a new client, tax rates re-fetched, the engine kicked. */
  set(url: string, key: string): Promise<void>;
}

export interface SettingsHandlerDeps {
  settings: Settings;
  taxRates: TaxRatesCache;
  gateway: GatewayControl;
  /** The API key's store (safeStorage in Electron, a 0600 file in the host). */
  secrets: SecretStore;
  staff: StaffService;
  /** The shop's L-PFR (docs/lpfr.md) and the engine's last finding of it; `changed` wakes the engine. */
  lpfr: { control: LpfrControl; state: () => LpfrState | null; changed: () => void };
}

/** `••••1234`: enough to recognise a key, never enough to use it. */
export function maskKey(key: string | null): string | null {
  if (!key) return null;
  return `••••${key.slice(-4)}`;
}

/** Demo accounts use Latin test labels, production ones Cyrillic labels. */
export function environmentOf(labels: readonly string[]): 'demo' | 'production' | 'unknown' {
  if (labels.length === 0) return 'unknown';
  if (labels.some((l) => /[\u0400-\u04FF]/.test(l) && l !== 'Ж')) return 'production';
  return 'demo';
}

export function settingsHandlers(deps: SettingsHandlerDeps): AreaHandlers<'settings'> {
  const { settings, taxRates, gateway, staff } = deps;
  const client = (): GatewayClient => gateway.client();

  const account = async (
    c: GatewayClient,
    key: string,
    mode: 'demo' | 'live',
    labels: string[],
  ): Promise<AccountView> => {
    const [verify, me] = await Promise.all([c.verifyApiToken({ timeoutMs: 5000 }), c.apiKeyMe({ timeoutMs: 5000 })]);
    const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));
    const entries: [string, string | undefined][] = [
      ['shopId', str(me.shopId ?? verify.authable?.shopId)],
      ['shopName', str(me.shopName)],
      ['companyId', str(me.companyId ?? verify.authable?.companyId)],
      ['companyName', str(me.companyName)],
      ['keyName', str(me.apiKeyName ?? verify.apiKey?.name)],
      ['keyVersion', str(verify.apiKey?.version)],
    ];
    return {
      mode,
      maskedKey: maskKey(key),
      gatewayUrl: c.baseUrl,
      ...Object.fromEntries(entries.filter((e): e is [string, string] => e[1] !== undefined)),
      environment: environmentOf(labels),
      labels,
    };
  };
  const offlineAccount = (): AccountView => ({
    mode: gateway.mode(),
    maskedKey: maskKey(gateway.key()),
    gatewayUrl: client().baseUrl,
    environment: environmentOf(taxRates.labels()),
    labels: taxRates.labels(),
  });
  const settingsView = (acc: AccountView): SettingsView => ({
    language: settings.language(),
    terminalId: settings.terminalId(),
    gatewayUrl: gateway.mode() === 'live' ? client().baseUrl : null,
    trainingMode: settings.bool('trainingMode'),
    outageWarnMinutes: settings.number('outageWarnMinutes', 30),
    outageAlarmMinutes: settings.number('outageAlarmMinutes', 24 * 60),
    unfiscalizedCashLimitHours: settings.number('unfiscalizedCashLimitHours', UNFISCALIZED_CASH_LIMIT_HOURS),
    discountLimitPercent: settings.number('discountLimitPercent', DEFAULT_DISCOUNT_LIMIT_PERCENT),
    offlineSales: offlineSalesOf(settings),
    account: acc,
    allowRefundWithoutBuyerId: settings.allowRefundWithoutBuyerId(),
    shopName: settings.get('shopName') ?? '',
    tillName: settings.get('tillName') ?? '',
    setupDone: settings.bool('setupDone'),
    ipsAccount: settings.get('ipsAccount') ?? '',
    ipsName: settings.get('ipsName') ?? '',
    shopPib: settings.get('shopPib') ?? '',
    shopAddress: settings.get('shopAddress') ?? '',
    noNegativeCounted: settings.bool('noNegativeCounted'),
  });

  return areaHandlers('settings', {
    'settings.get': async () => settingsView(offlineAccount()),
    'settings.update': async ({ managerPin: _pin, ...input }, caller) => {
      const actor = approverOf(caller).name;
      const changed: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(input)) {
        if (v === undefined) continue;
        settings.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
        changed[k] = v;
      }
      staff.audit(actor, 'settings.update', changed);
      return settingsView(offlineAccount());
    },
    'settings.setApiKey': async ({ apiKey, gatewayUrl }, caller) => {
      const actor = approverOf(caller).name;
      const candidate = new GatewayClient({ baseUrl: gatewayUrl, apiKey });
      let acc: AccountView;
      try {
        const rates = await candidate.taxRates({ timeoutMs: 8000 });
        const labels = rates.currentTaxRates.taxCategories.flatMap((c) => c.taxRates.map((r) => r.label));
        acc = await account(candidate, apiKey, 'live', labels);
      } catch (err) {
        if (err instanceof GatewayError && err.status === 401)
          throw new CommandError('invalid_input', 'api_key_invalid', { field: 'apiKey' }, 'apiKey');
        if (err instanceof GatewayError && err.status === 403)
          throw new CommandError('invalid_input', 'api_key_forbidden', { field: 'apiKey' }, 'apiKey');
        throw gatewayCommandError(err);
      }
      deps.secrets.set(apiKey);
      settings.set('gatewayUrl', gatewayUrl);
      await gateway.set(gatewayUrl, apiKey);
      staff.audit(actor, 'settings.apiKey', { gatewayUrl, maskedKey: acc.maskedKey, environment: acc.environment });
      return acc;
    },
    'settings.lpfr': async () => deps.lpfr.control.view(deps.lpfr.state()),
    'settings.setLpfr': async ({ url, pin }, caller) => {
      const actor = approverOf(caller).name;
      await deps.lpfr.control.set(url, pin);
      staff.audit(actor, 'settings.lpfr', { url: url || null, pinChanged: pin !== undefined });
      deps.lpfr.changed();
      return deps.lpfr.control.view(url ? 'unknown' : null);
    },
    'settings.setEsir': async ({ esirId, esirVersion }, caller) => {
      const actor = approverOf(caller).name;
      if (esirId !== '' && !esirVersion)
        throw new CommandError('invalid_input', 'esir_version', { field: 'esirVersion' }, 'esirVersion');
      settings.set('esirId', esirId);
      if (esirVersion !== undefined) settings.set('esirVersion', esirId === '' ? '' : esirVersion);
      if (esirId === '') settings.set('esirVersion', '');
      staff.audit(actor, 'settings.esir', { esirNumber: esirId === '' ? null : `${esirId}/${esirVersion ?? ''}` });
      return deps.lpfr.control.view(deps.lpfr.state());
    },
    'settings.verifyApiKey': async () => {
      try {
        return await account(client(), gateway.key(), gateway.mode(), taxRates.labels());
      } catch (err) {
        throw gatewayCommandError(err);
      }
    },
  });
}
