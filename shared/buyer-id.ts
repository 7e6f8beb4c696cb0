/**
 * Serbian buyer IDs on fiscal receipts (ИД купца): `code:identifier`, the code from the Tax Administration's
 * list of buyer identifications (Пореска управа, шифарник „ИД купца“ of the technical guide for ESIR/PFR;
 * sources and the rule of each code in docs/buyer-id.md). Every code has its own rule; an unknown code is
 * refused, never passed through, so a receipt is never rejected after the customer has left.
 */
import type { Language } from './domain.ts';

/** True when a 9-digit PIB's last digit is its ISO 7064 MOD 11,10 check digit. */
export function isValidPib(pib: string): boolean {
  if (!/^\d{9}$/.test(pib)) return false;
  let p = 10;
  for (let i = 0; i < 8; i++) {
    let s = (Number(pib[i]) + p) % 10;
    if (s === 0) s = 10;
    p = (2 * s) % 11;
  }
  return (11 - p) % 10 === Number(pib[8]);
}

/** True when a 13-digit JMBG's last digit is its modulo-11 control digit. */
export function isValidJmbg(jmbg: string): boolean {
  if (!/^\d{13}$/.test(jmbg)) return false;
  const d = [...jmbg].map(Number) as number[];
  const w = [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = w.reduce((acc, weight, i) => acc + weight * (d[i] as number), 0);
  let k = 11 - (sum % 11);
  if (k > 9) k = 0;
  return k === d[12];
}

/** `PIB:JBKJS`: a valid PIB and the 5-digit number of the public-funds user (ЈБКЈС, Управа за трезор). */
export function isValidPibJbkjs(value: string): boolean {
  const m = /^(\d{9}):(\d{5})$/.exec(value);
  return m !== null && isValidPib(m[1] as string);
}

/** The rule an identifier of a code must follow. */
export type BuyerIdRule =
  'pib' | 'jmbg' | 'pib_jbkjs' | 'digits9' | 'digits12' | 'digits13' | 'document' | 'foreign_tin';

const RULE_TEST: Record<BuyerIdRule, (id: string) => boolean> = {
  pib: isValidPib,
  jmbg: isValidJmbg,
  pib_jbkjs: isValidPibJbkjs,
  digits9: (id) => /^\d{9}$/.test(id),
  digits12: (id) => /^\d{12}$/.test(id),
  digits13: (id) => /^\d{13}$/.test(id),
  // A document number: capital letters and digits, at least one digit.
  document: (id) => /^[A-Z0-9]{1,17}$/.test(id) && /\d/.test(id),
  // A tax number issued abroad: capital letters, digits and hyphens, at least one digit.
  foreign_tin: (id) => /^[A-Z0-9][A-Z0-9-]{0,16}$/.test(id) && /\d/.test(id),
};

/** The whole `code:identifier` may be at most this long (the receipt request's buyer ID field). */
export const BUYER_ID_MAX = 20;

export interface BuyerIdType {
  code: string;
  rule: BuyerIdRule;
  /** What the code is, as the select shows it (without the code). */
  name: Record<Language, string>;
}

/** The Tax Administration's list of buyer identification codes, in its order. */
export const BUYER_ID_TYPES: readonly BuyerIdType[] = [
  {
    code: '10',
    rule: 'pib',
    name: {
      'sr-Cyrl': 'ПИБ (правно лице, предузетник)',
      'sr-Latn': 'PIB (pravno lice, preduzetnik)',
      en: 'PIB, tax ID (company, sole trader)',
    },
  },
  {
    code: '11',
    rule: 'jmbg',
    name: {
      'sr-Cyrl': 'ЈМБГ предузетника (самостална делатност)',
      'sr-Latn': 'JMBG preduzetnika (samostalna delatnost)',
      en: 'JMBG of a sole trader (self-employed)',
    },
  },
  {
    code: '12',
    rule: 'pib_jbkjs',
    name: {
      'sr-Cyrl': 'ПИБ:ЈБКЈС (корисник јавних средстава)',
      'sr-Latn': 'PIB:JBKJS (korisnik javnih sredstava)',
      en: 'PIB:JBKJS (public-funds user)',
    },
  },
  {
    code: '13',
    rule: 'document',
    name: {
      'sr-Cyrl': 'број пензионерске картице',
      'sr-Latn': 'broj penzionerske kartice',
      en: "pensioner's card number",
    },
  },
  {
    code: '14',
    rule: 'pib',
    name: {
      'sr-Cyrl': 'ПИБ (пољопривредно газдинство)',
      'sr-Latn': 'PIB (poljoprivredno gazdinstvo)',
      en: 'PIB (with a farm holding)',
    },
  },
  {
    code: '15',
    rule: 'jmbg',
    name: {
      'sr-Cyrl': 'ЈМБГ (предузетник пољопривредник)',
      'sr-Latn': 'JMBG (preduzetnik poljoprivrednik)',
      en: 'JMBG (farmer, sole trader)',
    },
  },
  {
    code: '16',
    rule: 'digits12',
    name: {
      'sr-Cyrl': 'БПГ (носилац пољопривредног газдинства)',
      'sr-Latn': 'BPG (nosilac poljoprivrednog gazdinstva)',
      en: 'BPG (family farm holder)',
    },
  },
  {
    code: '20',
    rule: 'digits9',
    name: {
      'sr-Cyrl': 'број личне карте (физичко лице)',
      'sr-Latn': 'broj lične karte (fizičko lice)',
      en: 'ID card number (private person)',
    },
  },
  {
    code: '21',
    rule: 'document',
    name: {
      'sr-Cyrl': 'број избегличке легитимације',
      'sr-Latn': 'broj izbegličke legitimacije',
      en: 'refugee card number',
    },
  },
  {
    code: '22',
    rule: 'digits13',
    name: {
      'sr-Cyrl': 'ЕБС (странац с боравком у Србији)',
      'sr-Latn': 'EBS (stranac s boravkom u Srbiji)',
      en: 'EBS (foreigner resident in Serbia)',
    },
  },
  {
    code: '23',
    rule: 'digits9',
    name: {
      'sr-Cyrl': 'број пасоша (домаћи држављанин)',
      'sr-Latn': 'broj pasoša (domaći državljanin)',
      en: 'passport number (Serbian citizen)',
    },
  },
  {
    code: '30',
    rule: 'document',
    name: {
      'sr-Cyrl': 'број пасоша (страни држављанин)',
      'sr-Latn': 'broj pasoša (strani državljanin)',
      en: 'passport number (foreign citizen)',
    },
  },
  {
    code: '31',
    rule: 'document',
    name: {
      'sr-Cyrl': 'број дипломатске легитимације',
      'sr-Latn': 'broj diplomatske legitimacije',
      en: 'diplomatic ID number',
    },
  },
  {
    code: '32',
    rule: 'document',
    name: {
      'sr-Cyrl': 'лична карта Северне Македоније',
      'sr-Latn': 'lična karta Severne Makedonije',
      en: 'North Macedonian ID card',
    },
  },
  {
    code: '33',
    rule: 'document',
    name: { 'sr-Cyrl': 'лична карта Црне Горе', 'sr-Latn': 'lična karta Crne Gore', en: 'Montenegrin ID card' },
  },
  {
    code: '34',
    rule: 'document',
    name: { 'sr-Cyrl': 'лична карта Албаније', 'sr-Latn': 'lična karta Albanije', en: 'Albanian ID card' },
  },
  {
    code: '35',
    rule: 'document',
    name: {
      'sr-Cyrl': 'лична карта Босне и Херцеговине',
      'sr-Latn': 'lična karta Bosne i Hercegovine',
      en: 'Bosnia and Herzegovina ID card',
    },
  },
  {
    code: '40',
    rule: 'foreign_tin',
    name: {
      'sr-Cyrl': 'порески број издат у иностранству',
      'sr-Latn': 'poreski broj izdat u inostranstvu',
      en: 'tax number issued abroad',
    },
  },
];

export const BUYER_ID_CODES: readonly string[] = BUYER_ID_TYPES.map((t) => t.code);

export function buyerIdType(code: string): BuyerIdType | undefined {
  return BUYER_ID_TYPES.find((t) => t.code === code);
}

/**
 * Why a buyer ID is refused, as a message key of shared/messages.ts (null: valid). `buyer_id` the shape
 * (not `code:identifier`), `buyer_id_type` an unknown code, `buyer_id_<rule>` an identifier against its code's rule.
 */
export function buyerIdProblem(value: string): string | null {
  const m = /^(\d{2}):(.*)$/.exec(value);
  if (!m) return 'buyer_id';
  const type = buyerIdType(m[1] as string);
  if (!type) return 'buyer_id_type';
  if (value.length > BUYER_ID_MAX || !RULE_TEST[type.rule](m[2] as string)) return `buyer_id_${type.rule}`;
  return null;
}

/** A buyer ID in the gateway's `code:identifier` form, valid for its code (see buyerIdProblem). */
export function isValidBuyerId(value: string): boolean {
  return buyerIdProblem(value) === null;
}

/** `code:identifier` split; null when it is not in that form. */
export function splitBuyerId(value: string): { code: string; id: string } | null {
  const m = /^(\d{2}):(.*)$/.exec(value);
  return m ? { code: m[1] as string, id: m[2] as string } : null;
}

/**
 * A buyer ID as a person reads it, without the gateway's type code: „ПИБ 101134702“, „ПИБ 100000011, ЈБКЈС 12345“,
 * else the type's name and the identifier („број пасоша (страни држављанин) P1234567“); a value not in the
 * `code:identifier` form as it is.
 */
export function buyerIdText(value: string, lang: Language): string {
  const parts = splitBuyerId(value);
  const type = parts ? buyerIdType(parts.code) : undefined;
  if (!parts || !type) return value;
  const pib = lang === 'sr-Cyrl' ? 'ПИБ' : 'PIB';
  if (type.rule === 'pib') return `${pib} ${parts.id}`;
  if (type.rule === 'pib_jbkjs') {
    const [taxId, jbkjs] = parts.id.split(':');
    return `${pib} ${taxId ?? ''}, ${lang === 'sr-Cyrl' ? 'ЈБКЈС' : 'JBKJS'} ${jbkjs ?? ''}`;
  }
  return `${type.name[lang]} ${parts.id}`;
}

/** What a cashier types, as the identifier: spaces dropped, letters in capitals. */
export function normalizeBuyerIdentifier(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}

/** What the identifier of a rule must be, for a person at the till. */
const RULE_TEXT: Record<BuyerIdRule, Record<Language, string>> = {
  pib: {
    'sr-Cyrl': 'ПИБ није исправан: 9 цифара, последња је контролна.',
    'sr-Latn': 'PIB nije ispravan: 9 cifara, poslednja je kontrolna.',
    en: 'Not a valid tax ID (PIB): 9 digits, the last one a check digit.',
  },
  jmbg: {
    'sr-Cyrl': 'ЈМБГ није исправан: 13 цифара, последња је контролна.',
    'sr-Latn': 'JMBG nije ispravan: 13 cifara, poslednja je kontrolna.',
    en: 'Not a valid personal ID (JMBG): 13 digits, the last one a check digit.',
  },
  pib_jbkjs: {
    'sr-Cyrl': 'Унесите ПИБ:ЈБКЈС, нпр. 101134702:12345 (исправан ПИБ од 9 цифара, двотачка, ЈБКЈС од 5 цифара).',
    'sr-Latn': 'Unesite PIB:JBKJS, npr. 101134702:12345 (ispravan PIB od 9 cifara, dvotačka, JBKJS od 5 cifara).',
    en: 'Enter PIB:JBKJS, e.g. 101134702:12345 (a valid 9-digit PIB, a colon, the 5-digit JBKJS).',
  },
  digits9: {
    'sr-Cyrl': 'Број документа има тачно 9 цифара.',
    'sr-Latn': 'Broj dokumenta ima tačno 9 cifara.',
    en: 'The document number has exactly 9 digits.',
  },
  digits12: {
    'sr-Cyrl': 'БПГ има тачно 12 цифара.',
    'sr-Latn': 'BPG ima tačno 12 cifara.',
    en: 'The BPG has exactly 12 digits.',
  },
  digits13: {
    'sr-Cyrl': 'ЕБС има тачно 13 цифара.',
    'sr-Latn': 'EBS ima tačno 13 cifara.',
    en: 'The EBS has exactly 13 digits.',
  },
  document: {
    'sr-Cyrl': 'Број документа: велика слова и цифре (бар једна цифра), до 17 знакова.',
    'sr-Latn': 'Broj dokumenta: velika slova i cifre (bar jedna cifra), do 17 znakova.',
    en: 'Document number: capital letters and digits (at least one digit), up to 17 characters.',
  },
  foreign_tin: {
    'sr-Cyrl': 'Страни порески број: велика слова, цифре и цртице (бар једна цифра), до 17 знакова.',
    'sr-Latn': 'Strani poreski broj: velika slova, cifre i crtice (bar jedna cifra), do 17 znakova.',
    en: 'Foreign tax number: capital letters, digits and hyphens (at least one digit), up to 17 characters.',
  },
};

/** Null when `identifier` is valid under `code`, else what is wrong, in `lang` (the renderer's field error). */
export function buyerIdentifierError(code: string, identifier: string, lang: Language): string | null {
  const type = buyerIdType(code);
  if (!type) return null;
  return buyerIdProblem(`${code}:${identifier}`) === null ? null : RULE_TEXT[type.rule][lang];
}

/**
 * The seller's own PIB as the buyer ID of a correction refund (no money returned): `10:` + PIB. The PIB is the
 * PFR's own word (the issued receipt's `tin`), so only its 9-digit form is checked, not its check digit.
 */
export function sellerBuyerId(pib: string | undefined | null): string | undefined {
  return pib && /^\d{9}$/.test(pib) ? `10:${pib}` : undefined;
}
