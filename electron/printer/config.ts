/** Printer configuration: settings keys and the environment overrides. */
import {
  PrinterProfileSchema,
  normalizePrinterAddress,
  parsePrinterUri,
  type PrinterProfile,
} from '../../shared/contract/printer.ts';
import { DEFAULT_PROFILE_ID, findPreset } from './profiles.ts';

/** Settings keys the printer module owns. */
export const PRINTER_SETTINGS = {
  uri: 'printer.uri',
  profile: 'printer.profile',
  header: 'printer.header',
  footer: 'printer.footer',
  autoPrint: 'printer.autoPrint',
  /** JSON of the custom profile (used when `printer.profile` is `custom`). */
  custom: 'printer.customProfile',
} as const;

export interface SettingsStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** The configuration in force. */
export interface PrinterConfig {
  uri: string | null;
  uriSource: 'env' | 'settings' | 'none';
  profile: PrinterProfile;
  header: string;
  footer: string;
  autoPrint: boolean;
}

/**
 * Reads the configuration. `KASA_PRINTER` (e.g. `tcp://127.0.0.1:9100`) and `KASA_PRINTER_PROFILE` (a
 * preset id) override the settings; an unknown profile falls back to the default preset.
 */
export function readConfig(settings: SettingsStore, env: NodeJS.ProcessEnv): PrinterConfig {
  // `192.168.1.50:9100` as set by hand reads as `tcp://192.168.1.50:9100`, as in the settings.
  const envUri = env.KASA_PRINTER === undefined ? undefined : normalizePrinterAddress(env.KASA_PRINTER);
  const setUri = settings.get(PRINTER_SETTINGS.uri)?.trim();
  const uri = envUri && parsePrinterUri(envUri) ? envUri : setUri && parsePrinterUri(setUri) ? setUri : null;
  const uriSource = uri === null ? 'none' : uri === envUri ? 'env' : 'settings';
  const profileId = env.KASA_PRINTER_PROFILE?.trim() || settings.get(PRINTER_SETTINGS.profile) || DEFAULT_PROFILE_ID;
  return {
    uri,
    uriSource,
    profile: resolveProfile(profileId, settings) ?? findPreset(DEFAULT_PROFILE_ID)!,
    header: settings.get(PRINTER_SETTINGS.header) ?? '',
    footer: settings.get(PRINTER_SETTINGS.footer) ?? '',
    autoPrint: settings.get(PRINTER_SETTINGS.autoPrint) !== 'false',
  };
}

/** A preset, or the stored custom profile for `custom`; undefined when neither. */
export function resolveProfile(id: string, settings: SettingsStore): PrinterProfile | undefined {
  if (id !== 'custom') return findPreset(id);
  const raw = settings.get(PRINTER_SETTINGS.custom);
  if (!raw) return undefined;
  try {
    const parsed = PrinterProfileSchema.safeParse(JSON.parse(raw));
    return parsed.success ? { ...parsed.data, id: 'custom' } : undefined;
  } catch {
    return undefined;
  }
}
