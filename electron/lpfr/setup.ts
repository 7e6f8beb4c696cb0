/**
 * The L-PFR this till uses: its address (setting `lpfrUrl`, or KASA_LPFR_URL), its PIN (secret store, never
 * logged or returned), and the route the sync engine signs through. A manager sets it up from Менаџер →
 * Подешавања (`settings.setLpfr`): the L-PFR must answer, and when its card asks for the PIN, the PIN given is
 * entered once; a wrong one is reported at the PIN field and never stored or retried.
 */
import type { LpfrView } from '../../shared/contract/settings.ts';
import type { LpfrState } from '../../shared/domain.ts';
import { CommandError } from '../errors.ts';
import type { OrderStore } from '../orders/store.ts';
import type { SecretStore } from '../settings/secrets.ts';
import { ENV_OVERRIDES, type Settings } from '../settings/settings.ts';
import { LpfrClient } from './client.ts';
import { LpfrError } from './errors.ts';
import { GSC } from './protocol.ts';
import { createLpfrRoute, type LpfrRoute } from './route.ts';

export interface LpfrControl {
  /** The route the engine signs through; null when no L-PFR is set up. */
  route(): LpfrRoute | null;
  /** What the Менаџер screen shows; `state` is the engine's last finding. */
  view(state: LpfrState | null): Promise<LpfrView>;
  /** Sets up (url) or removes ('') the L-PFR after checking it; returns the view. */
  set(url: string, pin: string | undefined): Promise<void>;
}

/**
 * „ЕСИР број“ as the Tax Administration's rules print it on every receipt: the IB from the approval of this ESIR
 * and its approved version, `IB/version` (docs/lpfr.md, "The ESIR's own identity"); null until both are set.
 */
export function esirNumberOf(settings: Settings): string | null {
  const id = settings.get('esirId') ?? '';
  const version = settings.get('esirVersion') ?? '';
  return id !== '' && version !== '' ? `${id}/${version}` : null;
}

export interface LpfrControlDeps {
  settings: Settings;
  env: NodeJS.ProcessEnv;
  /** Where the PIN lives (LPFR_PIN_SECRET). */
  secrets: SecretStore;
  store: OrderStore;
  log: (line: string) => void;
}

export function createLpfrControl(deps: LpfrControlDeps): LpfrControl {
  const { settings, secrets, store } = deps;
  const build = (url: string | null): LpfrRoute | null =>
    url
      ? createLpfrRoute({
          baseUrl: url,
          pin: () => secrets.get(),
          cashier: () => settings.terminalId(),
          esirNumber: () => esirNumberOf(settings),
          log: deps.log,
          referentOf: (o) => {
            const original = o.depends_on !== null ? store.get(o.depends_on) : undefined;
            return original?.invoice_number && original.sdc_date_time
              ? { invoiceNumber: original.invoice_number, sdcDateTime: original.sdc_date_time }
              : undefined;
          },
        })
      : null;
  const currentUrl = (): string | null => settings.get('lpfrUrl') || null;
  let route = build(currentUrl());

  return {
    route: () => route,
    async view(state) {
      const url = currentUrl();
      const view: LpfrView = {
        url,
        urlFromEnv: Boolean(deps.env[ENV_OVERRIDES.lpfrUrl as string]),
        hasPin: secrets.get() !== null,
        state: url ? (state ?? 'unknown') : null,
        esirNumber: esirNumberOf(settings),
      };
      if (!route) return view;
      try {
        const status = await route.status();
        if (status.uid) view.uid = status.uid;
        const labels = status.currentTaxRates?.taxCategories.flatMap((c) => c.taxRates.map((r) => r.label));
        if (labels) view.labels = labels;
      } catch {
        // Not answering: the state says so.
      }
      return view;
    },
    async set(url, pin) {
      if (url === '') {
        settings.set('lpfrUrl', '');
        secrets.clear();
        route = null;
        return;
      }
      const client = new LpfrClient({ baseUrl: url, timeoutMs: 5000 });
      let gscs: string[];
      try {
        gscs = (await client.status()).gsc;
      } catch {
        throw new CommandError('invalid_input', 'lpfr_unreachable', {}, 'url');
      }
      if (gscs.includes(GSC.cardLocked)) throw new CommandError('invalid_input', 'lpfr_card_locked', {}, 'pin');
      if (gscs.includes(GSC.cardAbsent)) throw new CommandError('invalid_input', 'lpfr_card_absent', {}, 'url');
      const usePin = pin ?? secrets.get() ?? undefined;
      if (gscs.includes(GSC.pinRequired)) {
        if (!usePin) throw new CommandError('invalid_input', 'lpfr_pin_needed', {}, 'pin');
        try {
          await client.enterPin(usePin);
        } catch (err) {
          const code = err instanceof LpfrError ? err.code : 'unreachable';
          if (code === 'pin_wrong') throw new CommandError('invalid_input', 'lpfr_pin_wrong', {}, 'pin');
          if (code === 'card_locked') throw new CommandError('invalid_input', 'lpfr_card_locked', {}, 'pin');
          if (code === 'card_absent') throw new CommandError('invalid_input', 'lpfr_card_absent', {}, 'url');
          if (code === 'invalid') throw new CommandError('invalid_input', 'lpfr_pin_format', {}, 'pin');
          throw new CommandError('invalid_input', 'lpfr_unreachable', {}, 'url');
        }
      }
      settings.set('lpfrUrl', url);
      if (pin) secrets.set(pin);
      // A new route: a PIN refused before is forgotten with the old one.
      route = build(currentUrl());
    },
  };
}
