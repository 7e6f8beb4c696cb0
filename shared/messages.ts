/**
 * Messages the core returns to people (validation and command errors), in the three UI languages.
 * Keys double as zod custom error messages in shared/contract/schemas.ts.
 */
import type { Language } from './domain.ts';

type Table = Record<string, string>;

const SR_CYRL: Table = {
  required: 'Поље „{field}“ је обавезно.',
  text: 'Поље „{field}“ мора бити текст.',
  number: 'Поље „{field}“ мора бити број.',
  integer: 'Поље „{field}“ мора бити цео број.',
  boolean: 'Поље „{field}“ мора бити да/не.',
  positive: 'Поље „{field}“ мора бити веће од нуле.',
  non_negative: 'Поље „{field}“ не сме бити негативно.',
  amount_decimals: 'Износ у пољу „{field}“ може имати највише две децимале.',
  quantity_decimals: 'Количина у пољу „{field}“ може имати највише три децимале.',
  too_long: 'Поље „{field}“ је предугачко.',
  too_many: 'Поље „{field}“ има превише ставки.',
  buyer_id: 'ИД купца у пољу „{field}“ мора бити 10: и ПИБ од 9 цифара или 11: и ЈМБГ од 13 цифара.',
  email: 'Поље „{field}“ мора бити исправна е-адреса.',
  payment_type: 'Непознат начин плаћања у пољу „{field}“.',
  invoice_type: 'Непозната врста рачуна у пољу „{field}“.',
  labels: 'Ставка мора имати бар једну пореску ознаку (поље „{field}“).',
  lines: 'Рачун мора имати бар једну ставку (поље „{field}“).',
  payments: 'Рачун мора имати бар једно плаћање (поље „{field}“).',
  gtin: 'GTIN у пољу „{field}“ мора имати 8 до 14 цифара.',
  unknown_field: 'Поље „{field}“ није дозвољено.',
  invalid: 'Поље „{field}“ није исправно.',
  payments_short: 'Плаћено је мање од укупног износа ({due} RSD).',
  change_non_cash: 'Кусур се може вратити само на готовину; безготовинска плаћања прелазе укупан износ.',
  label_unknown: 'Пореска ознака „{label}“ није у важећим пореским стопама.',
  discount_too_big: 'Попуст у пољу „{field}“ је већи од износа ставке.',
  tax_rates_missing: 'Пореске стопе још нису преузете са фискалног сервиса. Повежите се на интернет.',
  not_found: 'Није пронађено.',
  order_not_found: 'Поруџбина {id} не постоји.',
  not_needs_attention: 'Поруџбина {id} не чека исправку.',
  storage: 'Продаја НИЈЕ сачувана: база података не може да се упише ({reason}). Ништа раније сачувано није изгубљено.',
  internal: 'Унутрашња грешка. Покушајте поново.',
  unknown_command: 'Непозната команда „{field}“.',
  unauthorized: 'Недостаје или је погрешан приступни токен.',
  body_json: 'Тело захтева мора бити исправан JSON.',
};

const SR_LATN: Table = {
  required: 'Polje „{field}“ je obavezno.',
  text: 'Polje „{field}“ mora biti tekst.',
  number: 'Polje „{field}“ mora biti broj.',
  integer: 'Polje „{field}“ mora biti ceo broj.',
  boolean: 'Polje „{field}“ mora biti da/ne.',
  positive: 'Polje „{field}“ mora biti veće od nule.',
  non_negative: 'Polje „{field}“ ne sme biti negativno.',
  amount_decimals: 'Iznos u polju „{field}“ može imati najviše dve decimale.',
  quantity_decimals: 'Količina u polju „{field}“ može imati najviše tri decimale.',
  too_long: 'Polje „{field}“ je predugačko.',
  too_many: 'Polje „{field}“ ima previše stavki.',
  buyer_id: 'ID kupca u polju „{field}“ mora biti 10: i PIB od 9 cifara ili 11: i JMBG od 13 cifara.',
  email: 'Polje „{field}“ mora biti ispravna e-adresa.',
  payment_type: 'Nepoznat način plaćanja u polju „{field}“.',
  invoice_type: 'Nepoznata vrsta računa u polju „{field}“.',
  labels: 'Stavka mora imati bar jednu poresku oznaku (polje „{field}“).',
  lines: 'Račun mora imati bar jednu stavku (polje „{field}“).',
  payments: 'Račun mora imati bar jedno plaćanje (polje „{field}“).',
  gtin: 'GTIN u polju „{field}“ mora imati 8 do 14 cifara.',
  unknown_field: 'Polje „{field}“ nije dozvoljeno.',
  invalid: 'Polje „{field}“ nije ispravno.',
  payments_short: 'Plaćeno je manje od ukupnog iznosa ({due} RSD).',
  change_non_cash: 'Kusur se može vratiti samo na gotovinu; bezgotovinska plaćanja prelaze ukupan iznos.',
  label_unknown: 'Poreska oznaka „{label}“ nije u važećim poreskim stopama.',
  discount_too_big: 'Popust u polju „{field}“ je veći od iznosa stavke.',
  tax_rates_missing: 'Poreske stope još nisu preuzete sa fiskalnog servisa. Povežite se na internet.',
  not_found: 'Nije pronađeno.',
  order_not_found: 'Porudžbina {id} ne postoji.',
  not_needs_attention: 'Porudžbina {id} ne čeka ispravku.',
  storage: 'Prodaja NIJE sačuvana: baza podataka ne može da se upiše ({reason}). Ništa ranije sačuvano nije izgubljeno.',
  internal: 'Unutrašnja greška. Pokušajte ponovo.',
  unknown_command: 'Nepoznata komanda „{field}“.',
  unauthorized: 'Nedostaje ili je pogrešan pristupni token.',
  body_json: 'Telo zahteva mora biti ispravan JSON.',
};

const EN: Table = {
  required: 'The field "{field}" is required.',
  text: 'The field "{field}" must be text.',
  number: 'The field "{field}" must be a number.',
  integer: 'The field "{field}" must be a whole number.',
  boolean: 'The field "{field}" must be true or false.',
  positive: 'The field "{field}" must be greater than zero.',
  non_negative: 'The field "{field}" must not be negative.',
  amount_decimals: 'The amount in "{field}" may have at most two decimals.',
  quantity_decimals: 'The quantity in "{field}" may have at most three decimals.',
  too_long: 'The field "{field}" is too long.',
  too_many: 'The field "{field}" has too many entries.',
  buyer_id: 'The buyer ID in "{field}" must be 10: and a 9-digit PIB or 11: and a 13-digit JMBG.',
  email: 'The field "{field}" must be a valid e-mail address.',
  payment_type: 'Unknown payment type in "{field}".',
  invoice_type: 'Unknown invoice type in "{field}".',
  labels: 'An item needs at least one tax label (field "{field}").',
  lines: 'A receipt needs at least one item (field "{field}").',
  payments: 'A receipt needs at least one payment (field "{field}").',
  gtin: 'The GTIN in "{field}" must have 8 to 14 digits.',
  unknown_field: 'The field "{field}" is not allowed.',
  invalid: 'The field "{field}" is not valid.',
  payments_short: 'The payments are less than the total ({due} RSD).',
  change_non_cash: 'Change can only be given on cash; the non-cash payments exceed the total.',
  label_unknown: 'The tax label "{label}" is not in the current tax rates.',
  discount_too_big: 'The discount in "{field}" is larger than the line amount.',
  tax_rates_missing: 'Tax rates have not been fetched from the fiscal service yet. Connect to the internet.',
  not_found: 'Not found.',
  order_not_found: 'Order {id} does not exist.',
  not_needs_attention: 'Order {id} is not waiting for a fix.',
  storage: 'The sale was NOT saved: the database cannot be written ({reason}). Nothing saved earlier was lost.',
  internal: 'Internal error. Please try again.',
  unknown_command: 'Unknown command "{field}".',
  unauthorized: 'The access token is missing or wrong.',
  body_json: 'The request body must be valid JSON.',
};

const TABLES: Record<Language, Table> = { 'sr-Cyrl': SR_CYRL, 'sr-Latn': SR_LATN, en: EN };

/** The message for `key` in `lang`, with `{name}` placeholders filled; unknown keys fall back to `invalid`. */
export function message(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  const table = TABLES[lang] ?? SR_CYRL;
  const template = table[key] ?? table['invalid'] ?? key;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}

export function hasMessage(key: string): boolean {
  return key in SR_CYRL;
}
