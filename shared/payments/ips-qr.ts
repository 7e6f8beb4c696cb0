/**
 * The NBS IPS QR code (docs/payments.md): the text a Serbian banking app reads with „IPS skeniraj“ and turns into an
 * instant credit transfer. Built from validated fields and parsed back, both after the National Bank of Serbia's
 * specification (Одлука о општим правилима за извршавање инстант трансфера одобрења, Прилог 1, and the NBS's
 * recommendations at nbs.rs/QRcode): fields `TAG:value` joined by `|`, no `|` before the first or after the last,
 * optional tags left out when empty, UTF-8.
 */
import { z } from 'zod';

/** `K`: what the code is for. PR a printed invoice; PT presented by the merchant at the point of sale. */
export const IPS_KINDS = ['PR', 'PT', 'PK', 'EK'] as const;
export type IpsKind = (typeof IPS_KINDS)[number];

/** `SF` 221: „Промет робе и услуга – финална потрошња“ (the payment code of a shop's sale to a consumer). */
export const IPS_PAYMENT_CODE_RETAIL = '221';

/** Largest amount the standard allows: RSD999999999999,99. */
export const IPS_MAX_PARA = 99_999_999_999_999;

/** The 18 digits of a Serbian account whose control pair checks (ISO 7064 MOD 97-10: the number mod 97 is 1). */
export function accountCheckDigitsOk(digits: string): boolean {
  return /^\d{18}$/.test(digits) && BigInt(digits) % 97n === 1n;
}

/**
 * An account as people write it („840-955845-10“, „840 0000000955845 10“ or the 18 digits) as the 18 digits the
 * code carries: bank 3, account 13 (zeros put before a shorter one), control 2. Null when it is not one of those
 * shapes; the control pair is not checked here (`accountCheckDigitsOk`).
 */
export function normalizeAccount(text: string): string | null {
  const t = text.trim();
  if (/^\d{18}$/.test(t)) return t;
  const m = /^(\d{3})[-\s](\d{1,13})[-\s](\d{2})$/.exec(t);
  if (!m) return null;
  return `${m[1]}${(m[2] as string).padStart(13, '0')}${m[3]}`;
}

/** The 18 digits written the usual way: `840-0000000955845-10`. */
export function formatAccount(digits: string): string {
  return `${digits.slice(0, 3)}-${digits.slice(3, 16)}-${digits.slice(16)}`;
}

/** The control pair of a model 97 reference: 98 − (reference × 100 mod 97), two digits. */
export function model97Control(reference: string): string {
  return String(98n - ((BigInt(reference) * 100n) % 97n)).padStart(2, '0');
}

/** `I`: RSD, the dinars, a decimal comma, the para (`RSD1234,56`); no thousands separators. */
export function formatIpsAmount(para: number): string {
  const whole = Math.floor(para / 100);
  return `RSD${whole},${String(para % 100).padStart(2, '0')}`;
}

/** Reads `I` back to para; null when it is not `RSD` + 1–12 digits + `,` + up to 2 digits. */
export function parseIpsAmount(text: string): number | null {
  const m = /^RSD(\d{1,12}),(\d{0,2})$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] as string).padEnd(2, '0'));
}

const noPipe = (v: string): boolean => !v.includes('|');
/** Name and seat: one to 70 characters, lines (name, then address) separated by a new line. */
const nameText = z
  .string({ error: 'text' })
  .min(1, { error: 'required' })
  .max(70, { error: 'too_long' })
  .refine(noPipe, { error: 'ips_text' });

/** A `RO` reference: the model's two digits, then up to 33 digits or dashes; model 97's control pair must check. */
export const ipsReference = z
  .string({ error: 'text' })
  .regex(/^\d{2}[\d-]{1,33}$/, { error: 'ips_reference' })
  .refine((v) => !v.startsWith('97') || (/^97\d{3,}$/.test(v) && model97Control(v.slice(4)) === v.slice(2, 4)), {
    error: 'ips_reference',
  });

/** The fields of one code, validated. Amounts in para. */
export const IpsQrFields = z.strictObject({
  kind: z.enum(IPS_KINDS, { error: 'invalid' }),
  /** `R`: the payee's account, 18 digits with a control pair that checks. */
  account: z
    .string({ error: 'text' })
    .regex(/^\d{18}$/, { error: 'ips_account' })
    .refine(accountCheckDigitsOk, { error: 'ips_account_check' }),
  /** `N`: the payee's name (at a point of sale the short business name). */
  name: nameText,
  /** `I`: the amount; at least 0,01. */
  amountPara: z
    .number({ error: 'number' })
    .int({ error: 'integer' })
    .min(1, { error: 'positive' })
    .max(IPS_MAX_PARA, { error: 'invalid' }),
  /** `P`: the payer's name and address. */
  payer: nameText.optional(),
  /** `SF`: the payment code, three digits. */
  paymentCode: z.string({ error: 'text' }).regex(/^\d{3}$/, { error: 'invalid' }),
  /** `S`: the purpose, up to 35 characters. */
  purpose: z
    .string({ error: 'text' })
    .min(1, { error: 'required' })
    .max(35, { error: 'too_long' })
    .refine(noPipe, { error: 'ips_text' })
    .optional(),
  /** `M`: the merchant category code (ISO 18245), four digits. */
  mcc: z
    .string({ error: 'text' })
    .regex(/^\d{4}$/, { error: 'invalid' })
    .optional(),
  /** `RO`: model and reference (poziv na broj odobrenja). */
  reference: ipsReference.optional(),
});
export type IpsQrFields = z.infer<typeof IpsQrFields>;

/** The tags in the order the standard lists them (K, V, C first). */
const ORDER = ['K', 'V', 'C', 'R', 'N', 'I', 'P', 'SF', 'S', 'M', 'RO'] as const;

/** The code's text for `fields` (validated again here: a code is never built from unchecked fields). */
export function buildIpsQr(fields: IpsQrFields): string {
  const f = IpsQrFields.parse(fields);
  const values: Record<(typeof ORDER)[number], string | undefined> = {
    K: f.kind,
    V: '01',
    C: '1',
    R: f.account,
    N: f.name,
    I: formatIpsAmount(f.amountPara),
    P: f.payer,
    SF: f.paymentCode,
    S: f.purpose,
    M: f.mcc,
    RO: f.reference,
  };
  return ORDER.flatMap((tag) => (values[tag] === undefined ? [] : [`${tag}:${values[tag]}`])).join('|');
}

/** Why a text is not a code this module reads: the tag at fault (or `text` for the whole) and the reason. */
export interface IpsParseError {
  tag: string;
  reason: string;
}

const TAG_FIELD: Record<string, keyof IpsQrFields> = {
  R: 'account',
  N: 'name',
  I: 'amountPara',
  P: 'payer',
  SF: 'paymentCode',
  S: 'purpose',
  M: 'mcc',
  RO: 'reference',
};

/**
 * Reads a code's text back into its fields: K first, then V:01 and C:1, every tag known and once, the mandatory
 * ones (K V C R N I SF) present, each value as `IpsQrFields` requires. A tag this module does not build (O, JS, RL,
 * RP) is refused by name rather than dropped.
 */
export function parseIpsQr(text: string): { ok: true; fields: IpsQrFields } | { ok: false; error: IpsParseError } {
  const fail = (tag: string, reason: string) => ({ ok: false as const, error: { tag, reason } });
  if (text === '' || text.startsWith('|') || text.endsWith('|')) return fail('text', 'delimiter');
  const seen = new Map<string, string>();
  for (const part of text.split('|')) {
    const colon = part.indexOf(':');
    if (colon <= 0) return fail('text', 'field');
    const tag = part.slice(0, colon);
    if (!(ORDER as readonly string[]).includes(tag)) return fail(tag, 'unknown_tag');
    if (seen.has(tag)) return fail(tag, 'repeated');
    if (seen.size === 0 && tag !== 'K') return fail('K', 'first');
    seen.set(tag, part.slice(colon + 1));
  }
  for (const tag of ['K', 'V', 'C', 'R', 'N', 'I', 'SF']) if (!seen.has(tag)) return fail(tag, 'missing');
  if (seen.get('V') !== '01') return fail('V', 'invalid');
  if (seen.get('C') !== '1') return fail('C', 'invalid');
  const amountPara = parseIpsAmount(seen.get('I') as string);
  if (amountPara === null) return fail('I', 'invalid');
  const candidate: Record<string, unknown> = { kind: seen.get('K'), amountPara };
  for (const [tag, field] of Object.entries(TAG_FIELD))
    if (tag !== 'I' && seen.has(tag)) candidate[field] = seen.get(tag);
  const parsed = IpsQrFields.safeParse(candidate);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'kind');
    const tag = field === 'kind' ? 'K' : (Object.entries(TAG_FIELD).find(([, f]) => f === field)?.[0] ?? 'text');
    return fail(tag, parsed.error.issues[0]?.message ?? 'invalid');
  }
  return { ok: true, fields: parsed.data };
}

/**
 * How the code is drawn (the counter's screen, the customer display and the test that decodes it): error
 * correction M, the four-module quiet zone QR requires.
 */
export const IPS_QR_RENDER = { errorCorrectionLevel: 'M', margin: 4 } as const;
