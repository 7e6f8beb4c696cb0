/**
 * The words of the hub's Артикли section (HubCatalog.tsx), in the three languages: a catalog in the app's one
 * message format (shared/i18n/catalog.ts says how to add a message), kept beside the section it serves.
 * The hub answers a refusal with a code and the field; `catalogErrorText` turns both into one of these.
 */
import { BULK_PRICE_WORDS } from '../../../shared/i18n/bulk-price.ts';
import type { Catalog, KeyOf, Shape } from '../../../shared/i18n/catalog.ts';
import { sectionText } from '../i18n/section.ts';

const SR_CYRL = {
  search: 'Претрага артикала (шифра или назив)',
  shown: 'Приказано {shown} од {total}',
  more: 'Још артикала',
  empty: 'Продавница још нема артикала.',
  noMatch: 'Ниједан артикал не одговара упиту „{query}“.',
  add: 'Нови артикал',
  edit: 'Измени',
  editOne: 'Измени артикал {name}',
  editTitle: 'Измена артикла',
  addTitle: 'Нови артикал',
  codeFixed: 'Шифра (не мења се)',
  group: 'Група',
  favourite: 'Брзи тастер на каси',
  barcodes: 'Бар-кодови (одвојени зарезом)',
  cancel: 'Одустани',
  remove: 'Обриши артикал',
  removeAsk: 'Обрисати „{name}“ са свих каса продавнице?',
  removeYes: 'Да, обриши',
  saved: 'Сачувано: {name}. Касе преузимају измену за неколико секунди.',
  removed: 'Обрисано: {name}.',
  required: 'Поље „{field}“ је обавезно.',
  priceInvalid: 'Цена мора бити износ у динарима, нула или већи (нпр. 159,90).',
  barcodeInvalid: 'Бар-код има од 8 до 14 цифара; више бар-кодова одвојите зарезом.',
  barcodeTaken: 'Један од ових бар-кодова већ припада другом артиклу.',
  labelNotCurrent: 'Ознака „{value}“ није међу пореским ознакама каса ове продавнице ({labels}).',
  codeTaken: 'Артикал са шифром „{value}“ већ постоји: изаберите га са списка да бисте га изменили.',
  ...BULK_PRICE_WORDS['sr-Cyrl'],
  bulkGroup: 'Група артикала',
  bulkAsk: 'Цене {count|артикла|артикла|артикала} групе „{group}“ ће се променити за {percent} %. Потврдите.',
  bulkDone: 'Промењене су цене {count|артикла|артикла|артикала} групе „{group}“ за {percent} %.',
  groupRequired: 'Изаберите групу артикала.',
  groupUnknown: 'Група „{value}“ нема ниједан артикал.',
  csvExport: 'Извези артикле (CSV)',
  auditBulk: 'група „{group}“, {percent} %, {count|артикал|артикла|артикала}',
};

type Messages = Shape<typeof SR_CYRL>;

const SR_LATN: Messages = {
  search: 'Pretraga artikala (šifra ili naziv)',
  shown: 'Prikazano {shown} od {total}',
  more: 'Još artikala',
  empty: 'Prodavnica još nema artikala.',
  noMatch: 'Nijedan artikal ne odgovara upitu „{query}“.',
  add: 'Novi artikal',
  edit: 'Izmeni',
  editOne: 'Izmeni artikal {name}',
  editTitle: 'Izmena artikla',
  addTitle: 'Novi artikal',
  codeFixed: 'Šifra (ne menja se)',
  group: 'Grupa',
  favourite: 'Brzi taster na kasi',
  barcodes: 'Bar-kodovi (odvojeni zarezom)',
  cancel: 'Odustani',
  remove: 'Obriši artikal',
  removeAsk: 'Obrisati „{name}“ sa svih kasa prodavnice?',
  removeYes: 'Da, obriši',
  saved: 'Sačuvano: {name}. Kase preuzimaju izmenu za nekoliko sekundi.',
  removed: 'Obrisano: {name}.',
  required: 'Polje „{field}“ je obavezno.',
  priceInvalid: 'Cena mora biti iznos u dinarima, nula ili veći (npr. 159,90).',
  barcodeInvalid: 'Bar-kod ima od 8 do 14 cifara; više bar-kodova odvojite zarezom.',
  barcodeTaken: 'Jedan od ovih bar-kodova već pripada drugom artiklu.',
  labelNotCurrent: 'Oznaka „{value}“ nije među poreskim oznakama kasa ove prodavnice ({labels}).',
  codeTaken: 'Artikal sa šifrom „{value}“ već postoji: izaberite ga sa spiska da biste ga izmenili.',
  ...BULK_PRICE_WORDS['sr-Latn'],
  bulkGroup: 'Grupa artikala',
  bulkAsk: 'Cene {count|artikla|artikla|artikala} grupe „{group}“ će se promeniti za {percent} %. Potvrdite.',
  bulkDone: 'Promenjene su cene {count|artikla|artikla|artikala} grupe „{group}“ za {percent} %.',
  groupRequired: 'Izaberite grupu artikala.',
  groupUnknown: 'Grupa „{value}“ nema nijedan artikal.',
  csvExport: 'Izvezi artikle (CSV)',
  auditBulk: 'grupa „{group}“, {percent} %, {count|artikal|artikla|artikala}',
};

const EN: Messages = {
  search: 'Search products (code or name)',
  shown: 'Showing {shown} of {total}',
  more: 'More products',
  empty: 'The shop has no products yet.',
  noMatch: 'No product matches “{query}”.',
  add: 'New product',
  edit: 'Edit',
  editOne: 'Edit product {name}',
  editTitle: 'Edit product',
  addTitle: 'New product',
  codeFixed: 'Code (fixed)',
  group: 'Group',
  favourite: 'Quick key on the till',
  barcodes: 'Barcodes (comma separated)',
  cancel: 'Cancel',
  remove: 'Delete product',
  removeAsk: 'Delete “{name}” from every till of the shop?',
  removeYes: 'Yes, delete',
  saved: 'Saved: {name}. The tills take the change within seconds.',
  removed: 'Deleted: {name}.',
  required: 'The field “{field}” is required.',
  priceInvalid: 'The price must be an amount in dinars, zero or more (e.g. 159.90).',
  barcodeInvalid: 'A barcode has 8 to 14 digits; separate several barcodes with a comma.',
  barcodeTaken: 'One of these barcodes already belongs to another product.',
  labelNotCurrent: 'The label “{value}” is not among the tax labels of this shop’s tills ({labels}).',
  codeTaken: 'A product with the code “{value}” exists: pick it from the list to change it.',
  ...BULK_PRICE_WORDS['en'],
  bulkGroup: 'Product group',
  bulkAsk: 'The prices of {count|product|products} of “{group}” will change by {percent} %. Confirm.',
  bulkDone: 'The prices of {count|product|products} of “{group}” changed by {percent} %.',
  groupRequired: 'Choose a product group.',
  groupUnknown: 'The group “{value}” has no products.',
  csvExport: 'Export products (CSV)',
  auditBulk: 'group “{group}”, {percent} %, {count|product|products}',
};

/** The Артикли section's texts per language. */
export const hubCatalogMessages: Catalog<typeof SR_CYRL> = { 'sr-Cyrl': SR_CYRL, 'sr-Latn': SR_LATN, en: EN };

export type HubCatalogKey = KeyOf<typeof SR_CYRL>;

/** One text of the Артикли section in `lang`. */
export const ct = sectionText<typeof SR_CYRL>(hubCatalogMessages);
