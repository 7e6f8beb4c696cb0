/**
 * Catalog import messages (`csv.*`) both sides need, in Serbian Cyrillic, Serbian Latin and English (the
 * format: ./catalog.ts). The renderer loads them into i18next; the core formats them with `formatMessage`.
 * (Validation and command errors are shared/messages.ts, formatted by the core.)
 */
import type { Language } from '../domain.ts';
import { translate, type Catalog, type KeyOf, type Params, type Shape, type Tree } from './catalog.ts';

const srCyrl = {
  csv: {
    empty: 'Датотека је празна.',
    missing_column: 'Недостаје колона „{column}“.',
    required: 'Обавезно поље је празно.',
    too_long: 'Предугачко (највише {max} знакова).',
    price: 'Цена „{value}“ није исправан износ (нпр. 149,99).',
    unit: 'Јединица „{value}“ није позната (ком, kg, l).',
    label: 'Ознака „{value}“ није исправна пореска ознака.',
    label_missing: 'Ознака „{value}“ није међу тренутним пореским ознакама; производ је означен.',
    barcode: 'Бар-код „{value}“ није исправан (8–14 цифара, исправна контролна цифра).',
    duplicate_code: 'Шифра „{value}“ се понавља (ред {other}).',
    duplicate_barcode: 'Бар-код „{value}“ се понавља (ред {other}).',
    barcode_taken: 'Бар-код „{value}“ већ припада производу „{other}“.',
    favourite: 'Вредност „{value}“ није да/не.',
    columns: 'Ред има {count|колону|колоне|колона}, заглавље {expected}.',
    quote: 'Наводници нису затворени.',
  },
} satisfies Tree;

type Messages = Shape<typeof srCyrl>;

const srLatn: Messages = {
  csv: {
    empty: 'Datoteka je prazna.',
    missing_column: 'Nedostaje kolona „{column}“.',
    required: 'Obavezno polje je prazno.',
    too_long: 'Predugačko (najviše {max} znakova).',
    price: 'Cena „{value}“ nije ispravan iznos (npr. 149,99).',
    unit: 'Jedinica „{value}“ nije poznata (kom, kg, l).',
    label: 'Oznaka „{value}“ nije ispravna poreska oznaka.',
    label_missing: 'Oznaka „{value}“ nije među trenutnim poreskim oznakama; proizvod je označen.',
    barcode: 'Bar-kod „{value}“ nije ispravan (8–14 cifara, ispravna kontrolna cifra).',
    duplicate_code: 'Šifra „{value}“ se ponavlja (red {other}).',
    duplicate_barcode: 'Bar-kod „{value}“ se ponavlja (red {other}).',
    barcode_taken: 'Bar-kod „{value}“ već pripada proizvodu „{other}“.',
    favourite: 'Vrednost „{value}“ nije da/ne.',
    columns: 'Red ima {count|kolonu|kolone|kolona}, zaglavlje {expected}.',
    quote: 'Navodnici nisu zatvoreni.',
  },
};

const en: Messages = {
  csv: {
    empty: 'The file is empty.',
    missing_column: 'Column “{column}” is missing.',
    required: 'Required field is empty.',
    too_long: 'Too long (at most {max} characters).',
    price: 'Price “{value}” is not a valid amount (e.g. 149,99).',
    unit: 'Unit “{value}” is unknown (pcs, kg, l).',
    label: 'Label “{value}” is not a valid tax label.',
    label_missing: 'Label “{value}” is not among the current tax labels; the product is flagged.',
    barcode: 'Barcode “{value}” is invalid (8–14 digits with a correct check digit).',
    duplicate_code: 'Code “{value}” is repeated (row {other}).',
    duplicate_barcode: 'Barcode “{value}” is repeated (row {other}).',
    barcode_taken: 'Barcode “{value}” already belongs to “{other}”.',
    favourite: 'Value “{value}” is not yes/no.',
    columns: 'The row has {count|column|columns}, the header {expected}.',
    quote: 'Unclosed quotes.',
  },
};

/** The shared messages per language (also the i18next resource shape). */
export const sharedMessages: Catalog<typeof srCyrl> = { 'sr-Cyrl': srCyrl, 'sr-Latn': srLatn, en };

/** A dotted key of the shared messages (`csv.price`). */
export type SharedMessageKey = KeyOf<typeof srCyrl>;

/** Looks up a dotted key (e.g. `csv.price`) and fills `{name}` placeholders; unknown keys come back as is. */
export function formatMessage(lang: Language, key: string, params: Params = {}): string {
  return translate(sharedMessages, lang, key as SharedMessageKey, params);
}
