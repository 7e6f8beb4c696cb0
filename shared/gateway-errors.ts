/**
 * The gateway's complaints (an order's `lastError`, or a failed back-office call) explained to a manager in
 * the UI language: what happened and what to do. Pure: no I/O, no framework.
 */
import type { GatewayErrorView, Language } from './domain.ts';
import { interpolate, lookup, type Catalog, type Shape } from './i18n/catalog.ts';

export interface Explanation {
  /** A stable key for tests and styling, e.g. `validation`, `label`, `advance_label`. */
  kind: string;
  /** One sentence: what happened. */
  title: string;
  /** What the manager can do about it. */
  action: string;
}

// A catalog in the app's one message format (shared/i18n/catalog.ts): `<kind>.title` and `<kind>.action`.
const SR_CYRL = {
  receipt_mismatch: {
    title:
      'Фискални сервис је за овај број поруџбине вратио рачун друге продаје (не слаже се: {fields}). Ова продаја НИЈЕ фискализована.',
    action:
      'Број поруџбине је заузет рачуном друге продаје (потврдили су упит и архива фискалног сервиса). Проверите продају и изаберите „Издај под новим бројем“ (потребан PIN менаџера); пре новог рачуна каса још једном проверава архиву, па ако је рачун ипак ове продаје, продаја се њиме фискализује и нови се не издаје.',
  },
  lpfr_unproven: {
    title:
      'Л-ПФР не зна да ли је потписао поруџбину {order}: тај захтев више не памти, а број његових рачуна је од слања порастао са {before} на {after}.',
    action:
      'Каса је неће сама потписати поново. У журналу Л-ПФР-а погледајте рачуне после броја {before}: ако је међу њима рачун са ЕСИР бројем {order}, продаја је фискализована и не сме се издати поново; ако га нема, изаберите „Није потписано — потпиши“ (потребан PIN менаџера).',
  },
  reconcile_limit: {
    title: 'Провера да ли је рачун већ издат није успела ни после више покушаја: {message}',
    action:
      'Каса је престала да пита. Када фискални сервис поново ради, изаберите „Пошаљи поново без измена“: рачун се прво тражи, никад се не издаје двапут.',
  },
  validation: {
    title: 'Фискални сервис је одбио податке рачуна: {fields}.',
    action: 'Исправите наведена поља и пошаљите рачун поново.',
  },
  totals: {
    title: 'Збир ставки се не слаже са збиром плаћања.',
    action: 'Проверите износе ставки и плаћања, па пошаљите поново.',
  },
  missing_reference: {
    title: 'Рачун на који се ово позива ({ref}) не постоји на фискалном сервису.',
    action: 'Проверите број оригиналног рачуна (или аванса) и покушајте поново.',
  },
  label: {
    title: 'Пореска управа је одбила пореску ознаку: није омогућена за овај налог (шифра 2310).',
    action: 'Изаберите другу пореску ознаку из важећих стопа и пошаљите поново.',
  },
  tax_administration: {
    title: 'Пореска управа је одбила рачун (шифра {reason}).',
    action: 'Проверите ставке (нпр. GTIN) и пошаљите поново; ако се понови, јавите подршци број захтева.',
  },
  advance_label: {
    title: 'На демо налогу авансне ставке морају имати ознаку A, E или F.',
    action: 'Промените пореске ознаке ставки аванса у A, E или F и пошаљите поново.',
  },
  unauthorized: {
    title: 'API кључ недостаје или није исправан.',
    action: 'Унесите исправан API кључ у Подешавањима; слање је заустављено до тада.',
  },
  forbidden: {
    title: 'API кључ нема приступ овој продавници или рачуну.',
    action: 'Проверите да ли је кључ издат за ову продавницу; слање је заустављено до исправке.',
  },
  not_found: {
    title: 'Фискални сервис не познаје тај рачун.',
    action: 'Проверите број рачуна (три дела спојена цртицом) и покушајте поново.',
  },
  duplicate: {
    title: 'Рачун са овим бројем поруџбине већ постоји.',
    action: 'Каса ће сама преузети постојећи рачун; ништа не треба радити.',
  },
  busy: {
    title: 'Фискални сервис је тренутно заузет.',
    action: 'Каса ће покушати поново сама.',
  },
  server: {
    title: 'Грешка на фискалном сервису.',
    action: 'Каса ће покушати поново сама; рачун је сачуван.',
  },
  offline: {
    title: 'Нема везе са фискалним сервисом.',
    action: 'Рачун је сачуван и биће фискализован кад се веза врати.',
  },
  other: {
    title: 'Фискални сервис је одбио захтев: {message}',
    action: 'Ако се понови, јавите подршци број захтева.',
  },
};

const SR_LATN: Shape<typeof SR_CYRL> = {
  receipt_mismatch: {
    title:
      'Fiskalni servis je za ovaj broj porudžbine vratio račun druge prodaje (ne slaže se: {fields}). Ova prodaja NIJE fiskalizovana.',
    action:
      'Broj porudžbine je zauzet računom druge prodaje (potvrdili su upit i arhiva fiskalnog servisa). Proverite prodaju i izaberite „Izdaj pod novim brojem“ (potreban PIN menadžera); pre novog računa kasa još jednom proverava arhivu, pa ako je račun ipak ove prodaje, prodaja se njime fiskalizuje i novi se ne izdaje.',
  },
  lpfr_unproven: {
    title:
      'L-PFR ne zna da li je potpisao porudžbinu {order}: taj zahtev više ne pamti, a broj njegovih računa je od slanja porastao sa {before} na {after}.',
    action:
      'Kasa je neće sama potpisati ponovo. U žurnalu L-PFR-a pogledajte račune posle broja {before}: ako je među njima račun sa ESIR brojem {order}, prodaja je fiskalizovana i ne sme se izdati ponovo; ako ga nema, izaberite „Nije potpisano — potpiši“ (potreban PIN menadžera).',
  },
  reconcile_limit: {
    title: 'Provera da li je račun već izdat nije uspela ni posle više pokušaja: {message}',
    action:
      'Kasa je prestala da pita. Kada fiskalni servis ponovo radi, izaberite „Pošalji ponovo bez izmena“: račun se prvo traži, nikad se ne izdaje dvaput.',
  },
  validation: {
    title: 'Fiskalni servis je odbio podatke računa: {fields}.',
    action: 'Ispravite navedena polja i pošaljite račun ponovo.',
  },
  totals: {
    title: 'Zbir stavki se ne slaže sa zbirom plaćanja.',
    action: 'Proverite iznose stavki i plaćanja, pa pošaljite ponovo.',
  },
  missing_reference: {
    title: 'Račun na koji se ovo poziva ({ref}) ne postoji na fiskalnom servisu.',
    action: 'Proverite broj originalnog računa (ili avansa) i pokušajte ponovo.',
  },
  label: {
    title: 'Poreska uprava je odbila poresku oznaku: nije omogućena za ovaj nalog (šifra 2310).',
    action: 'Izaberite drugu poresku oznaku iz važećih stopa i pošaljite ponovo.',
  },
  tax_administration: {
    title: 'Poreska uprava je odbila račun (šifra {reason}).',
    action: 'Proverite stavke (npr. GTIN) i pošaljite ponovo; ako se ponovi, javite podršci broj zahteva.',
  },
  advance_label: {
    title: 'Na demo nalogu avansne stavke moraju imati oznaku A, E ili F.',
    action: 'Promenite poreske oznake stavki avansa u A, E ili F i pošaljite ponovo.',
  },
  unauthorized: {
    title: 'API ključ nedostaje ili nije ispravan.',
    action: 'Unesite ispravan API ključ u Podešavanjima; slanje je zaustavljeno do tada.',
  },
  forbidden: {
    title: 'API ključ nema pristup ovoj prodavnici ili računu.',
    action: 'Proverite da li je ključ izdat za ovu prodavnicu; slanje je zaustavljeno do ispravke.',
  },
  not_found: {
    title: 'Fiskalni servis ne poznaje taj račun.',
    action: 'Proverite broj računa (tri dela spojena crticom) i pokušajte ponovo.',
  },
  duplicate: {
    title: 'Račun sa ovim brojem porudžbine već postoji.',
    action: 'Kasa će sama preuzeti postojeći račun; ništa ne treba raditi.',
  },
  busy: { title: 'Fiskalni servis je trenutno zauzet.', action: 'Kasa će pokušati ponovo sama.' },
  server: { title: 'Greška na fiskalnom servisu.', action: 'Kasa će pokušati ponovo sama; račun je sačuvan.' },
  offline: {
    title: 'Nema veze sa fiskalnim servisom.',
    action: 'Račun je sačuvan i biće fiskalizovan kad se veza vrati.',
  },
  other: { title: 'Fiskalni servis je odbio zahtev: {message}', action: 'Ako se ponovi, javite podršci broj zahteva.' },
};

const EN: Shape<typeof SR_CYRL> = {
  receipt_mismatch: {
    title:
      'For this order number the fiscal service returned another sale’s receipt (differs in: {fields}). This sale is NOT fiscalized.',
    action:
      'The order number is taken by another sale’s receipt (confirmed by the fiscal service’s lookup and archive). Check the sale and choose “Re-issue under a new number” (manager PIN required); before a new receipt the till checks the archive once more, and if the receipt is this sale’s after all, the sale is fiscalized with it and no new one is issued.',
  },
  lpfr_unproven: {
    title:
      'The L-PFR cannot tell whether it signed order {order}: it no longer remembers that request, and its invoice count has grown from {before} to {after} since it was sent.',
    action:
      'The till will not sign it again by itself. Look in the L-PFR’s journal at the invoices after number {before}: if one has ESIR number {order}, the sale is fiscalized and must not be issued again; if none has, choose “Not signed — sign it” (manager PIN required).',
  },
  reconcile_limit: {
    title: 'Checking whether the receipt was already issued failed again and again: {message}',
    action:
      'The till stopped asking. When the fiscal service works again, choose “Resend unchanged”: the receipt is looked up first, never issued twice.',
  },
  validation: {
    title: 'The fiscal service rejected the receipt data: {fields}.',
    action: 'Correct the fields named and send the receipt again.',
  },
  totals: {
    title: 'The items total does not match the payments total.',
    action: 'Check the item and payment amounts, then send again.',
  },
  missing_reference: {
    title: 'The receipt this one refers to ({ref}) does not exist at the fiscal service.',
    action: 'Check the number of the original receipt (or advance) and try again.',
  },
  label: {
    title: 'The Tax Administration rejected the tax label: it is not enabled for this account (code 2310).',
    action: 'Choose another label from the current tax rates and send again.',
  },
  tax_administration: {
    title: 'The Tax Administration rejected the receipt (code {reason}).',
    action: 'Check the items (e.g. the GTIN) and send again; if it repeats, give support the request id.',
  },
  advance_label: {
    title: 'On a demo account advance items must use label A, E or F.',
    action: 'Change the advance items’ labels to A, E or F and send again.',
  },
  unauthorized: {
    title: 'The API key is missing or invalid.',
    action: 'Enter a valid API key in Settings; sending is paused until then.',
  },
  forbidden: {
    title: 'The API key has no access to this shop or receipt.',
    action: 'Check that the key was issued for this shop; sending is paused until it is fixed.',
  },
  not_found: {
    title: 'The fiscal service does not know that receipt.',
    action: 'Check the invoice number (three parts joined by hyphens) and try again.',
  },
  duplicate: {
    title: 'A receipt with this order number already exists.',
    action: 'The till fetches the existing receipt itself; nothing to do.',
  },
  busy: { title: 'The fiscal service is busy right now.', action: 'The till will retry by itself.' },
  server: {
    title: 'The fiscal service had an internal error.',
    action: 'The till will retry by itself; the receipt is saved.',
  },
  offline: {
    title: 'No connection to the fiscal service.',
    action: 'The receipt is saved and will be fiscalized when the connection is back.',
  },
  other: {
    title: 'The fiscal service refused the request: {message}',
    action: 'If it repeats, give support the request id.',
  },
};

/** The explanations per language: `{fields}`, `{ref}`, `{reason}` and `{message}` come from the error. */
export const gatewayMessages: Catalog<typeof SR_CYRL> = { 'sr-Cyrl': SR_CYRL, 'sr-Latn': SR_LATN, en: EN };

/** The gateway request's fields by name, as people read them (a complaint names them, never `totalAmount`). */
const FIELD_WORDS: Record<Language, Record<string, string>> = {
  'sr-Cyrl': {
    orderNumber: 'број поруџбине',
    invoiceType: 'врста рачуна',
    transactionType: 'врста трансакције',
    totalAmount: 'укупан износ',
    referentDocumentNumber: 'број оригиналног рачуна',
    referentDocumentDt: 'датум оригиналног рачуна',
    items: 'ставке',
    payments: 'плаћања',
    labels: 'пореска ознака',
    label: 'пореска ознака',
    gtin: 'GTIN',
    name: 'назив',
    quantity: 'количина',
    unitPrice: 'јединична цена',
    discount: 'попуст',
    type: 'начин плаћања',
    amount: 'износ',
    buyerId: 'ИД купца',
    buyerCostCenterId: 'место трошка купца',
    dateTimeOfIssue: 'време издавања',
    cashier: 'касир',
    advanceAmount: 'износ аванса',
    sendToEmail: 'е-адреса',
    metaFields: 'додатни подаци',
  },
  'sr-Latn': {
    orderNumber: 'broj porudžbine',
    invoiceType: 'vrsta računa',
    transactionType: 'vrsta transakcije',
    totalAmount: 'ukupan iznos',
    referentDocumentNumber: 'broj originalnog računa',
    referentDocumentDt: 'datum originalnog računa',
    items: 'stavke',
    payments: 'plaćanja',
    labels: 'poreska oznaka',
    label: 'poreska oznaka',
    gtin: 'GTIN',
    name: 'naziv',
    quantity: 'količina',
    unitPrice: 'jedinična cena',
    discount: 'popust',
    type: 'način plaćanja',
    amount: 'iznos',
    buyerId: 'ID kupca',
    buyerCostCenterId: 'mesto troška kupca',
    dateTimeOfIssue: 'vreme izdavanja',
    cashier: 'kasir',
    advanceAmount: 'iznos avansa',
    sendToEmail: 'e-adresa',
    metaFields: 'dodatni podaci',
  },
  en: {
    orderNumber: 'order number',
    invoiceType: 'invoice type',
    transactionType: 'transaction type',
    totalAmount: 'total amount',
    referentDocumentNumber: 'original receipt number',
    referentDocumentDt: 'original receipt date',
    items: 'items',
    payments: 'payments',
    labels: 'tax label',
    label: 'tax label',
    gtin: 'GTIN',
    name: 'name',
    quantity: 'quantity',
    unitPrice: 'unit price',
    discount: 'discount',
    type: 'payment type',
    amount: 'amount',
    buyerId: 'buyer ID',
    buyerCostCenterId: 'buyer cost centre',
    dateTimeOfIssue: 'time of issue',
    cashier: 'cashier',
    advanceAmount: 'advance amount',
    sendToEmail: 'e-mail address',
    metaFields: 'additional data',
  },
};

const ITEM_WORDS: Record<Language, Record<string, string>> = {
  'sr-Cyrl': { items: 'ставка', payments: 'плаћање', unknown: 'податак рачуна', data: 'подаци рачуна' },
  'sr-Latn': { items: 'stavka', payments: 'plaćanje', unknown: 'podatak računa', data: 'podaci računa' },
  en: { items: 'item', payments: 'payment', unknown: 'receipt data', data: 'the receipt data' },
};

/**
 * A gateway field path (`items[1].unitPrice`, `payments.0.type`, `totalAmount`) in words: its last name's words
 * with the item it points at („јединична цена, ставка 2“); a name the table lacks is „податак рачуна“.
 */
export function gatewayFieldWords(lang: Language, path: string): string {
  const keys = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  const named = keys.filter((k) => !/^\d+$/.test(k));
  const last = named[named.length - 1] ?? '';
  const words = FIELD_WORDS[lang][last] ?? ITEM_WORDS[lang]['unknown'] ?? '';
  const items = keys.flatMap((k, i) => {
    const list = keys[i - 1];
    const item = list !== undefined && /^\d+$/.test(k) ? ITEM_WORDS[lang][list] : undefined;
    return item && list !== last ? [`${item} ${Number(k) + 1}`] : [];
  });
  return [words, ...items].join(', ');
}

/** Which explanation applies to a gateway error. */
export function gatewayErrorKind(e: GatewayErrorView): string {
  if (e.code === 'KASA_RECEIPT_MISMATCH') return 'receipt_mismatch';
  if (e.code === 'KASA_RECONCILE_LIMIT') return 'reconcile_limit';
  if (e.code === 'LPFR_UNPROVEN') return 'lpfr_unproven';
  if (e.status === null) return 'offline';
  if (e.code === 'ERR_00202') return 'validation';
  if (e.code === 'ERR_00701') return 'totals';
  if (e.code === 'ERR_00201') return 'missing_reference';
  if (e.code === 'ERR_00302' || e.status === 409) return 'advance_label';
  if (e.code === 'ERR_01010') return e.reason === '2310' ? 'label' : 'tax_administration';
  if (e.code === 'ERR_00603') return 'duplicate';
  if (e.status === 401 || e.code === 'ERR_00101') return 'unauthorized';
  if (e.status === 403) return 'forbidden';
  if (e.status === 404) return 'not_found';
  if (e.status === 429) return 'busy';
  if (e.status >= 500) return 'server';
  return 'other';
}

/**
 * Explains `e` in `lang`: a title naming what was wrong (the fields, labels or reason the gateway gave)
 * and the action to take. The gateway's own message is kept only for the `other` case.
 */
export function explainGatewayError(e: GatewayErrorView, lang: Language): Explanation {
  const kind = gatewayErrorKind(e);
  const known = lookup(gatewayMessages, lang, `${kind}.title`) !== undefined;
  const text = (part: 'title' | 'action') => lookup(gatewayMessages, lang, `${known ? kind : 'other'}.${part}`) ?? '';
  const fields = [...new Set((e.fields ?? []).map((f) => f.field).filter(Boolean))];
  const params: Record<string, string> = {
    // Named in words; the gateway's own (English) sentence is never shown for them.
    fields: fields.length
      ? [...new Set(fields.map((f) => gatewayFieldWords(lang, f)))].join('; ')
      : (ITEM_WORDS[lang]['data'] ?? ''),
    ref: pick(e.message, /([A-Z0-9]+-[A-Z0-9]+-\d+)/) ?? '—',
    reason: e.reason ?? '—',
    message: e.userMessage ?? e.message,
    // An L-PFR that could not prove it never signed (engine.ts #lpfrLookUp): the order and the device's counter.
    order: pick(e.message, /RequestId (\S+?);/) ?? '—',
    before: pick(e.message, /counter before: (\d+)/) ?? '—',
    after: pick(e.message, /counter now: (\d+)/) ?? '—',
  };
  const suffix = e.correlationId ? ` (${e.correlationId})` : '';
  return {
    kind,
    title: interpolate(text('title'), params),
    action: interpolate(text('action'), params) + (kind === 'other' || kind === 'tax_administration' ? suffix : ''),
  };
}

function pick(text: string, re: RegExp): string | undefined {
  return re.exec(text)?.[1];
}
