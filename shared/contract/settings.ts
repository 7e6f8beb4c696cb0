/** The till's settings and its gateway account (the API key is never returned, only masked). */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import type { Language, LpfrState, OfflineSales } from '../domain.ts';
import { accountCheckDigitsOk, normalizeAccount } from '../payments/ips-qr.ts';

/** The gateway account as the key reports it. The key itself is never returned: only `maskedKey`. */
export interface AccountView {
  mode: 'demo' | 'live';
  maskedKey: string | null;
  gatewayUrl: string | null;
  shopId?: string;
  shopName?: string;
  companyId?: string;
  companyName?: string;
  keyName?: string;
  keyVersion?: string;
  /** Judged from the tax labels: Latin test labels = demo, Cyrillic = production. */
  environment: 'demo' | 'production' | 'unknown';
  labels: string[];
}

export interface SettingsView {
  language: Language;
  terminalId: string;
  gatewayUrl: string | null;
  trainingMode: boolean;
  outageWarnMinutes: number;
  outageAlarmMinutes: number;
  /**
   * Without the internet (and with no processor that signs offline), how long receipts may go unfiscalized:
   * once the oldest waiting sale is older than this, a new cash sale needs a manager's approval (hours).
   */
  unfiscalizedCashLimitHours: number;
  /** A discount above this share of the amount it is on needs a manager's approval (percent, default 10). */
  discountLimitPercent: number;
  /**
   * Whether a sale that takes money may be made while neither the gateway nor an L-PFR can sign it:
   * `allowed` (default: the customer gets the non-fiscal slip, the limits above apply) or `refused`.
   */
  offlineSales: OfflineSales;
  account: AccountView;
  /** refunds may go without a buyer ID (`settings.skipBuyerIdValidation`); default off. */
  allowRefundWithoutBuyerId?: boolean;
  /** The shop's and the till's names as the owner calls them ('' when not set); shown in the header. */
  shopName: string;
  tillName: string;
  /** The first-run setup flow was finished (or skipped): it is never shown again. */
  setupDone: boolean;
  /** The shop's account instant payments (IPS QR) are paid into: 18 digits, '' when not set (docs/payments.md). */
  ipsAccount: string;
  /** The payee's name the IPS QR code carries (`N`): the shop's short business name; '' when not set. */
  ipsName: string;
  /** The shop's PIB and address as its A4 documents' title block shows them ('' when not set; docs/goods.md). */
  shopPib: string;
  shopAddress: string;
  /** Goods a posted count (попис) established may not be sold below zero (default off: allowed and flagged). */
  noNegativeCounted: boolean;
}

// Optional: a manager logged in at this till is not asked for her PIN again (electron/auth/guard.ts `selfApprover`).
const { managerPin } = s;

/**
 * The shop's local fiscal processor (L-PFR, docs/lpfr.md) as this till uses it. Its PIN is never returned:
 * only whether one is stored.
 */
export interface LpfrView {
  /** Its address, e.g. http://192.168.1.20:8888; null when none is set up. */
  url: string | null;
  /** Set by KASA_LPFR_URL: the screen shows it and cannot change it. */
  urlFromEnv: boolean;
  /** A PIN is stored (secret store, or KASA_LPFR_PIN). */
  hasPin: boolean;
  /** How it is now (null when none is set up). */
  state: LpfrState | null;
  /** Its secure element's UID, the first part of every invoice number it signs. */
  uid?: string;
  /** The tax labels its current rates have. */
  labels?: string[];
  /**
   * The ESIR number printed on every L-PFR receipt („ЕСИР број: IB/верзија“): the identification number from the
   * Tax Administration's approval of this ESIR and its approved version; null until a manager enters them.
   */
  esirNumber: string | null;
}

/** What the owner gives the shop or the till (a name, the shop's address): one line of printable text; '' clears it. */
const ownLine = (max: number) =>
  z
    .string({ error: 'text' })
    .trim()
    .max(max, { error: 'too_long' })
    .refine((v) => !s.hasControl(v), { error: 'printable_only' })
    .optional();

/**
 * The shop's account for IPS payments as the manager types it („840-955845-10“ or the 18 digits), stored as the
 * 18 digits; its control pair must check (ISO 7064 MOD 97-10). '' clears it.
 */
const ipsAccount = z
  .string({ error: 'text' })
  .trim()
  .refine((v) => v === '' || normalizeAccount(v) !== null, { error: 'ips_account', abort: true })
  .refine((v) => v === '' || accountCheckDigitsOk(normalizeAccount(v) ?? ''), { error: 'ips_account_check' })
  .transform((v) => (v === '' ? '' : (normalizeAccount(v) ?? '')))
  .optional();

/** The payee's name in the IPS QR code (`N`, at most 70 characters, no `|`); '' clears it. */
const ipsName = z
  .string({ error: 'text' })
  .trim()
  .max(70, { error: 'too_long' })
  .refine((v) => !s.hasControl(v) && !v.includes('|'), { error: 'ips_text' })
  .optional();

export const settingsCommands = {
  'settings.get': command<SettingsView>('public')(s.empty, 'Settings and the account (the API key only masked).'),
  'settings.update': command<SettingsView>('manager')(
    z.strictObject({
      managerPin,
      language: z.enum(['sr-Cyrl', 'sr-Latn', 'en'], { error: 'invalid' }).optional(),
      terminalId: z
        .string({ error: 'text' })
        .regex(/^[A-Za-z0-9]{1,12}$/, { error: 'terminal_id' })
        .optional(),
      trainingMode: z.boolean({ error: 'boolean' }).optional(),
      outageWarnMinutes: s.wholeNumber(1, 10_080, { below: 'positive' }).optional(),
      outageAlarmMinutes: s.wholeNumber(1, 40_320, { below: 'positive' }).optional(),
      unfiscalizedCashLimitHours: s.wholeNumber(1, 720, { below: 'positive', above: 'invalid' }).optional(),
      /** How far the till's clock may be from the gateway's before the status bar warns (ms). */
      /** A line discount above this share of the line total needs a manager's approval (percent, default 10). */
      discountLimitPercent: s.wholeNumber(0, 100, { below: 'non_negative', above: 'invalid' }).optional(),
      clockDriftMaxMs: s.wholeNumber(10_000, 86_400_000, { below: 'invalid', above: 'invalid' }).optional(),
      allowRefundWithoutBuyerId: z.boolean({ error: 'boolean' }).optional(),
      /** Sales while nothing can sign them: `allowed` with the slip (default) or `refused`. */
      offlineSales: z.enum(['allowed', 'refused'], { error: 'invalid' }).optional(),
      shopName: ownLine(60),
      tillName: ownLine(60),
      ipsAccount,
      ipsName,
      /** The shop's PIB (check digit verified); '' clears it. */
      shopPib: s.clearablePib.optional(),
      shopAddress: ownLine(200),
      noNegativeCounted: z.boolean({ error: 'boolean' }).optional(),
      /** Ends the first-run setup flow for good: it cannot be undone (nothing would show the flow again). */
      setupDone: z.literal(true, { error: 'invalid' }).optional(),
    }),
    'Changes settings (manager approval; audited).',
  ),
  'settings.setApiKey': command<AccountView>('manager')(
    z.strictObject({
      managerPin,
      /** Accepted, verified, stored in the secret store; never returned (only a masked form). */
      apiKey: z.string({ error: 'text' }).trim().min(4, { error: 'required' }).max(500, { error: 'too_long' }),
      gatewayUrl: z.string({ error: 'text' }).trim().url({ error: 'url' }).max(300, { error: 'too_long' }),
    }),
    'Verifies a new key (verify-api-token, api-key/me, tax rates) before storing it, then switches the gateway.',
  ),
  'settings.lpfr': command<LpfrView>('session')(
    s.empty,
    'The L-PFR this till uses, asked now (the PIN never returned).',
  ),
  'settings.setLpfr': command<LpfrView>('manager')(
    z.strictObject({
      managerPin,
      /** The L-PFR's address; '' removes it (sales then queue while the internet is down, as without one). */
      url: z.union([
        z.literal(''),
        z.string({ error: 'text' }).trim().url({ error: 'url' }).max(300, { error: 'too_long' }),
      ]),
      /** The secure element's PIN: entered on the card when it asks, then kept in the secret store. */
      pin: z
        .string({ error: 'text' })
        .regex(/^\d{4}$/, { error: 'lpfr_pin_format' })
        .optional(),
    }),
    'Sets up the L-PFR: it must answer; the PIN is entered once when its card asks (a wrong one is never retried).',
  ),
  'settings.setEsir': command<LpfrView>('manager')(
    z.strictObject({
      managerPin,
      /** The ESIR's identification number (IB) from the Tax Administration's approval; '' clears it. */
      esirId: z.union([
        z.literal(''),
        z
          .string({ error: 'text' })
          .trim()
          .regex(/^\d{1,9}$/, { error: 'esir_id' }),
      ]),
      /** The approved version, e.g. 1.2 or 1.0.0.0. */
      esirVersion: z
        .string({ error: 'text' })
        .trim()
        .regex(/^\d{1,4}(\.\d{1,4}){1,3}$/, { error: 'esir_version' })
        .optional(),
    }),
    "Sets the ESIR number the L-PFR prints on every receipt (IB/version, from the Tax Administration's approval).",
  ),
  'settings.verifyApiKey': command<AccountView>('session')(
    s.empty,
    'Checks the current key with the gateway and reports the account.',
  ),
} as const;
