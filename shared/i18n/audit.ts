/**
 * The audit log in words: each entry of the till's `audit_log` and of the hub's `hub_audit` as one sentence in
 * the UI language („Пријава: Менаџер“, „Промењена цена: Хлеб 89,00 → 95,00 дин“), never its action code or
 * its JSON detail. An action without a sentence of its own (a newer till's, say) still reads as words.
 */
import type { Language } from '../domain.ts';
import { formatPercent } from '../catalog/percent.ts';
import { formatQuantity, formatRsd } from '../money.ts';
import { fieldLabel } from './fields.ts';
import { formatMoment } from './time.ts';
import { interpolate, placeholders } from './catalog.ts';

const SR_CYRL = {
  login: 'Пријава: {who}',
  logout: 'Одјава: {who}',
  pinLockout: 'Превише погрешних PIN-ова: унос PIN-а закључан до {until}',
  defaultManager: 'Направљен почетни менаџер „{name}“ са PIN-ом 0000',
  pinRejected: 'Погрешан PIN: {what}',
  pinRejectedLogin: 'Погрешан PIN при пријави',
  approvalRefused: 'Одобрење одбијено, PIN није менаџерски: {what}',
  approvalRefusedFirstRun: 'Одобрење одбијено, почетни PIN менаџера још није промењен: {what}',
  staffCreate: 'Нова особа у особљу: {name}, {role}',
  staffUpdate: 'Измењени подаци особе {name}: {fields}',
  staffUpdatePin: 'Нови PIN особе {name}',
  staffDeactivate: 'Искључена особа {name}: пријава се одбија',
  staffReactivate: 'Поново укључена особа {name}',
  sessionEnded: 'Сесија особе {who} завршена: искључена је',
  inactiveRefused: 'Одбијена пријава искључене особе {who}',
  changePin: 'Промена сопственог PIN-а: {who}',
  refused: 'Одбијено: {what} ({reason})',
  approved: 'Одобрено: {what}',
  approvedSale: 'Одобрена продаја: {reason}',
  printerChanged: 'Промењен штампач: {uri}',
  voidLine: 'Одобрено брисање ставке: {detail}',
  voidSale: 'Одобрено поништавање целе продаје: {detail}',
  voidQuantity: 'Одобрено смањење количине: {detail}',
  priceOverride: 'Одобрена промена цене на каси: {detail}',
  approveOther: 'Одобрена радња на каси: {detail}',
  sefIssue: 'Е-фактура за продају {order} купцу {buyer}',
  sefIssueAuto: 'Е-фактура аутоматски за продају {order} купцу {buyer}',
  sefRetry: 'Е-фактура {number} послата поново на СЕФ',
  sefCancel: 'Е-фактура {number} отказана на СЕФ-у: {comment}',
  sefStorno: 'Е-фактура {number} сторнирана на СЕФ-у: {comment}',
  sefRefused: 'СЕФ је одбио е-фактуру {number}',
  sefFinal: 'Е-фактура {number} на СЕФ-у: {state}',
  sefSettings: 'Измењена подешавања СЕФ-а',
  sefSettingsKey: 'Измењена подешавања СЕФ-а и API кључ',
  sefAccepted: 'прихваћена',
  sefRejected: 'одбијена',
  sefCancelled: 'отказана',
  sefStornoed: 'сторнирана',
  emailSent: 'Рачун послат е-поштом на {email}',
  fixLabels: 'Исправљене пореске ознаке продаје бр. {orderId}',
  reissue: 'Продаја поново послата на фискализацију: {from} → {to}',
  reissueRefused: 'Рачун {invoice} већ припада продаји {order}: ново издавање одбијено',
  lpfrNotSigned: 'Проверен журнал Л-ПФР-а, рачуна продаје {order} нема: продаја се потписује',
  printConfirmed: 'На каси потврђено да је рачун одштампан',
  printNotCameOut: 'Рачун није изашао из штампача: штампа се поново',
  heldPrinted: 'Одштампани задржани послови штампе: {count}',
  latePrinted: 'Штампа накнадно издатог фискалног рачуна, поруџбина {order}',
  offlineAllowed: 'дозвољена уз слип',
  offlineRefused: 'забрањена',
  heldDropped: 'Одбачени задржани послови штампе: {count}',
  shiftOpen: 'Отворена смена, почетни износ у фиоци {amount}',
  cashIn: 'Улаз готовине у фиоку {amount}: {reason}',
  cashOut: 'Излаз готовине из фиоке {amount}: {reason}',
  shiftClose: 'Затворена смена: очекивано {expected}, избројано {counted}, разлика {difference}',
  settings: 'Промењена подешавања: {fields}',
  apiKey: 'Промењен API кључ фискалног сервиса ({environment})',
  lpfrSet: 'Подешен локални фискални процесор: {url}',
  esirSet: 'Унет ЕСИР број са решења о одобрењу: {number}',
  esirOff: 'Обрисан ЕСИР број',
  lpfrOff: 'Искључен локални фискални процесор',
  refundFull: 'Рефундација целог рачуна {original}: {amount}',
  refundPartial: 'Делимична рефундација рачуна {original}: {amount}',
  reportPrint: 'Одштампан извештај од {from} до {to}',
  copy: 'Издата копија рачуна {of}',
  restore: 'Враћена резервна копија базе {name}',
  backupMade: 'Направљена резервна копија базе {name}',
  backupCopied: 'Резервна копија базе {name} копирана у {file}',
  hubEnrol: 'Каса уписана у хаб {url}',
  bulkPrice: 'Промењене цене групе „{group}“ за {percent} %: {count|артикал|артикла|артикала}',
  catalogKeepHub: 'Изабран каталог хаба: каталог касе замењен њиме',
  catalogSendTill: 'Каталог ове касе послат на хаб као каталог продавнице',
  staffChoice: 'Особље касе усклађено са хабом — повезано са особама хаба: {mapped}, додато као нове: {added}',
  hubRepin: 'Прихваћен нови отисак сертификата хаба',
  productAdded: 'Додат артикал: {name}, {price}',
  productPrice: 'Промењена цена: {name} {before} → {after}',
  productRenamed: 'Преименован артикал: {before} → {name}',
  productChanged: 'Измењен артикал: {name}',
  productRemoved: 'Обрисан артикал: {name}',
  supplierPut: 'Унет добављач {name}, ПИБ {pib}',
  receiptPost: 'Прокњижена пријемница бр. {number} (рачун {invoice}, ставки: {lines}, {value})',
  receiptReverse: 'Сторнирана пријемница бр. {of} документом бр. {number}',
  writeOff: 'Отпис бр. {number}: {name}, количина {quantity} ({reason})',
  countStart: 'Почео попис бр. {number} ({scope}, артикала: {lines})',
  countPost: 'Прокњижен попис бр. {number}: разлика код {differences} артикала',
  countCancel: 'Отказан попис бр. {number}',
  minimumSet: 'Минимална количина за {code}: {minimum}',
  priceListPut: 'Унет ценовник „{name}“ ({items|цена артикла|цене артикала|цена артикала})',
  priceListDelete: 'Обрисан ценовник „{name}“',
  promotionPut: 'Унета акција „{name}“ од {from} до {to}',
  promotionDelete: 'Обрисана акција „{name}“',
  priceSchedule: 'Заказана нова цена: {name} {after} од {at}',
  priceScheduleCancel: 'Отказана заказана цена артикла {name} од {at}',
  priceApplied: 'Ступила на снагу заказана цена: {name} {before} → {after} ({at})',
  labelsPrinted: 'Одштампане етикете ({count|етикета|етикете|етикета}, {where})',
  labelPrinterSet: 'Подешен штампач етикета: {preset}, {width} × {height} mm',
  labelProductSet: 'Етикета артикла „{name}“: {net}',
  other: 'Забележена радња која у овој верзији нема опис',
  hubLogin: 'Пријава на хаб: {who}',
  hubLoginLockedShop: 'Пријава на хаб закључана за продавницу до {until}',
  hubLoginLockedSource: 'Пријава на хаб закључана за овај рачунар до {until}',
  hubLogout: 'Одјава са хаба: {who}',
  hubShopCreate: 'Отворена продавница „{name}“',
  hubEnrolCode: 'Направљен код за упис касе',
  hubEnrolCodeRevoke: 'Опозван код за упис касе бр. {id}',
  hubProducts: 'Измењени артикли ({count}): {names}',
  hubSettings: 'Промењена подешавања продавнице ({count})',
  hubStaff: 'Измењено особље ({count}): {names}',
  hubTillRevoke: 'Опозвана каса „{name}“',
  hubClaimsClear: 'Очишћени спорни бројеви рачуна ({count})',
  hubBulkPrice: 'На хабу промењене цене групе „{group}“ за {percent} %: {count|артикал|артикла|артикала}',
  hubCatalogAdopt: 'Хаб преузео каталог касе ({count|артикал|артикла|артикала})',
  hubStaffDeactivate: 'На хабу искључена особа {name}',
  hubStaffReactivate: 'На хабу поново укључена особа {name}',
  hubStaffPin: 'На хабу постављен нови PIN особе {name}',
  hubStaffOwnPin: 'Особа {name} променила свој PIN на каси {till}',
  hubStaffCreateManager: 'На хабу додат менаџер {name}',
  hubStaffCreateCashier: 'На хабу додат касир {name}',
  hubStaffAdopt: 'Хаб преузео особље касе ({count}: {names})',
  hubStaffTill: 'Каса {till} променила особље уз одобрење менаџера: {names}',
  hubStaffRefused: 'Хаб одбио промену особе {name} са касе без одобрења менаџера',
  // words inside sentences
  currency: 'дин',
  someone: 'Непозната особа',
  chainAdmin: 'Администратор ланца',
  roleCashier: 'касир',
  roleManager: 'менаџер',
  yes: 'укључено',
  no: 'искључено',
  test: 'пробни налог',
  live: 'прави налог',
  reasonApproval: 'без одобрења менаџера',
  reasonSession: 'без пријаве',
  reasonFirstPin: 'почетни PIN није промењен',
  reasonPin: 'погрешан PIN',
  reasonOther: 'није дозвољено',
  reasonDiscount: 'попуст преко дозвољеног',
  reasonPrice: 'цена другачија од ценовника',
  reasonUnfiscalized: 'готовина док рачуни чекају фискализацију',
  allLines: 'све ставке',
  wholeShop: 'цела продавница',
  exportsAccounts: 'Измењени конта налога за књижење: {accounts}',
  exportsFile: 'Извоз за књиговођу ({kind}) за период {from} – {to}',
  exportsScheduled: 'Месечни извоз за књиговођу за {month} уписан у фасциклу',
  exportsSchedule: 'Измењен распоред месечног извоза за књиговођу',
  hubGoodsReceipt: 'На хабу прокњижена пријемница бр. {number}: {supplier}, {value}',
  hubGoodsWriteOff: 'На хабу отпис бр. {number}: {code} ({reason})',
  hubGoodsPriceChange: 'На хабу постављена малопродајна цена артикла {code}: {price}',
  hubGoodsTransferOut: 'Послат пренос робе бр. {number} у {shop}',
  hubGoodsTransferIn: 'Примљен пренос робе као бр. {number} из {shop}',
  hubPricesList: 'На хабу сачуван ценовник „{name}“ ({where})',
  hubPricesPromotion: 'На хабу сачувана акција „{name}“ ({where})',
  hubPricesSchedule: 'На хабу заказана нова цена артикла {name} од {at}',
  hubPricesDelete: 'На хабу обрисано: „{name}“',
  hubPricesCancel: 'На хабу отказана заказана цена артикла {name}',
  hubWhereShop: 'продавница',
  hubWhereChain: 'цео ланац',
  exportsMail: 'Измењено слање месечног извоза књиговођи е-поштом: {host}, {to}',
  exportsMailed: 'Месечни извоз за {month} послат књиговођи е-поштом: {to}',
  exportsScheduledMail: 'Месечни извоз за књиговођу за {month} стављен у ред за слање е-поштом',
  hubGoodsSupplier: 'На хабу сачуван добављач {name} (ПИБ {pib})',
  hubGoodsShopIdentity: 'На хабу сачувани ПИБ {pib} и адреса продавнице: {address}',
  hubGoodsReceiptDraft: 'На хабу сачуван нацрт пријемнице: {supplier}, рачун {invoice}',
  hubGoodsReceiptDraftDelete: 'На хабу обрисан нацрт пријемнице',
  hubGoodsReceiptReverse: 'На хабу сторно бр. {number} пријемнице бр. {of}: {value}',
};

type AuditKey = keyof typeof SR_CYRL;

const SR_LATN: Record<AuditKey, string> = {
  login: 'Prijava: {who}',
  logout: 'Odjava: {who}',
  pinLockout: 'Previše pogrešnih PIN-ova: unos PIN-a zaključan do {until}',
  defaultManager: 'Napravljen početni menadžer „{name}“ sa PIN-om 0000',
  pinRejected: 'Pogrešan PIN: {what}',
  pinRejectedLogin: 'Pogrešan PIN pri prijavi',
  approvalRefused: 'Odobrenje odbijeno, PIN nije menadžerski: {what}',
  approvalRefusedFirstRun: 'Odobrenje odbijeno, početni PIN menadžera još nije promenjen: {what}',
  staffCreate: 'Nova osoba u osoblju: {name}, {role}',
  staffUpdate: 'Izmenjeni podaci osobe {name}: {fields}',
  staffUpdatePin: 'Novi PIN osobe {name}',
  staffDeactivate: 'Isključena osoba {name}: prijava se odbija',
  staffReactivate: 'Ponovo uključena osoba {name}',
  sessionEnded: 'Sesija osobe {who} završena: isključena je',
  inactiveRefused: 'Odbijena prijava isključene osobe {who}',
  changePin: 'Promena sopstvenog PIN-a: {who}',
  refused: 'Odbijeno: {what} ({reason})',
  approved: 'Odobreno: {what}',
  approvedSale: 'Odobrena prodaja: {reason}',
  printerChanged: 'Promenjen štampač: {uri}',
  voidLine: 'Odobreno brisanje stavke: {detail}',
  voidSale: 'Odobreno poništavanje cele prodaje: {detail}',
  voidQuantity: 'Odobreno smanjenje količine: {detail}',
  priceOverride: 'Odobrena promena cene na kasi: {detail}',
  approveOther: 'Odobrena radnja na kasi: {detail}',
  sefIssue: 'E-faktura za prodaju {order} kupcu {buyer}',
  sefIssueAuto: 'E-faktura automatski za prodaju {order} kupcu {buyer}',
  sefRetry: 'E-faktura {number} poslata ponovo na SEF',
  sefCancel: 'E-faktura {number} otkazana na SEF-u: {comment}',
  sefStorno: 'E-faktura {number} stornirana na SEF-u: {comment}',
  sefRefused: 'SEF je odbio e-fakturu {number}',
  sefFinal: 'E-faktura {number} na SEF-u: {state}',
  sefSettings: 'Izmenjena podešavanja SEF-a',
  sefSettingsKey: 'Izmenjena podešavanja SEF-a i API ključ',
  sefAccepted: 'prihvaćena',
  sefRejected: 'odbijena',
  sefCancelled: 'otkazana',
  sefStornoed: 'stornirana',
  emailSent: 'Račun poslat e-poštom na {email}',
  fixLabels: 'Ispravljene poreske oznake prodaje br. {orderId}',
  reissue: 'Prodaja ponovo poslata na fiskalizaciju: {from} → {to}',
  reissueRefused: 'Račun {invoice} već pripada prodaji {order}: novo izdavanje odbijeno',
  lpfrNotSigned: 'Proveren žurnal L-PFR-a, računa prodaje {order} nema: prodaja se potpisuje',
  printConfirmed: 'Na kasi potvrđeno da je račun odštampan',
  printNotCameOut: 'Račun nije izašao iz štampača: štampa se ponovo',
  heldPrinted: 'Odštampani zadržani poslovi štampe: {count}',
  latePrinted: 'Štampa naknadno izdatog fiskalnog računa, porudžbina {order}',
  offlineAllowed: 'dozvoljena uz slip',
  offlineRefused: 'zabranjena',
  heldDropped: 'Odbačeni zadržani poslovi štampe: {count}',
  shiftOpen: 'Otvorena smena, početni iznos u fioci {amount}',
  cashIn: 'Ulaz gotovine u fioku {amount}: {reason}',
  cashOut: 'Izlaz gotovine iz fioke {amount}: {reason}',
  shiftClose: 'Zatvorena smena: očekivano {expected}, izbrojano {counted}, razlika {difference}',
  settings: 'Promenjena podešavanja: {fields}',
  apiKey: 'Promenjen API ključ fiskalnog servisa ({environment})',
  lpfrSet: 'Podešen lokalni fiskalni procesor: {url}',
  esirSet: 'Unet ESIR broj sa rešenja o odobrenju: {number}',
  esirOff: 'Obrisan ESIR broj',
  lpfrOff: 'Isključen lokalni fiskalni procesor',
  refundFull: 'Refundacija celog računa {original}: {amount}',
  refundPartial: 'Delimična refundacija računa {original}: {amount}',
  reportPrint: 'Odštampan izveštaj od {from} do {to}',
  copy: 'Izdata kopija računa {of}',
  restore: 'Vraćena rezervna kopija baze {name}',
  backupMade: 'Napravljena rezervna kopija baze {name}',
  backupCopied: 'Rezervna kopija baze {name} kopirana u {file}',
  hubEnrol: 'Kasa upisana u hab {url}',
  bulkPrice: 'Promenjene cene grupe „{group}“ za {percent} %: {count|artikal|artikla|artikala}',
  catalogKeepHub: 'Izabran katalog haba: katalog kase zamenjen njime',
  catalogSendTill: 'Katalog ove kase poslat na hab kao katalog prodavnice',
  staffChoice: 'Osoblje kase usklađeno sa habom — povezano sa osobama haba: {mapped}, dodato kao nove: {added}',
  hubRepin: 'Prihvaćen novi otisak sertifikata haba',
  productAdded: 'Dodat artikal: {name}, {price}',
  productPrice: 'Promenjena cena: {name} {before} → {after}',
  productRenamed: 'Preimenovan artikal: {before} → {name}',
  productChanged: 'Izmenjen artikal: {name}',
  productRemoved: 'Obrisan artikal: {name}',
  supplierPut: 'Unet dobavljač {name}, PIB {pib}',
  receiptPost: 'Proknjižena prijemnica br. {number} (račun {invoice}, stavki: {lines}, {value})',
  receiptReverse: 'Stornirana prijemnica br. {of} dokumentom br. {number}',
  writeOff: 'Otpis br. {number}: {name}, količina {quantity} ({reason})',
  countStart: 'Počeo popis br. {number} ({scope}, artikala: {lines})',
  countPost: 'Proknjižen popis br. {number}: razlika kod {differences} artikala',
  countCancel: 'Otkazan popis br. {number}',
  minimumSet: 'Minimalna količina za {code}: {minimum}',
  priceListPut: 'Unet cenovnik „{name}“ ({items|cena artikla|cene artikala|cena artikala})',
  priceListDelete: 'Obrisan cenovnik „{name}“',
  promotionPut: 'Uneta akcija „{name}“ od {from} do {to}',
  promotionDelete: 'Obrisana akcija „{name}“',
  priceSchedule: 'Zakazana nova cena: {name} {after} od {at}',
  priceScheduleCancel: 'Otkazana zakazana cena artikla {name} od {at}',
  priceApplied: 'Stupila na snagu zakazana cena: {name} {before} → {after} ({at})',
  labelsPrinted: 'Odštampane etikete ({count|etiketa|etikete|etiketa}, {where})',
  labelPrinterSet: 'Podešen štampač etiketa: {preset}, {width} × {height} mm',
  labelProductSet: 'Etiketa artikla „{name}“: {net}',
  other: 'Zabeležena radnja koja u ovoj verziji nema opis',
  hubLogin: 'Prijava na hab: {who}',
  hubLoginLockedShop: 'Prijava na hab zaključana za prodavnicu do {until}',
  hubLoginLockedSource: 'Prijava na hab zaključana za ovaj računar do {until}',
  hubLogout: 'Odjava sa haba: {who}',
  hubShopCreate: 'Otvorena prodavnica „{name}“',
  hubEnrolCode: 'Napravljen kod za upis kase',
  hubEnrolCodeRevoke: 'Opozvan kod za upis kase br. {id}',
  hubProducts: 'Izmenjeni artikli ({count}): {names}',
  hubSettings: 'Promenjena podešavanja prodavnice ({count})',
  hubStaff: 'Izmenjeno osoblje ({count}): {names}',
  hubTillRevoke: 'Opozvana kasa „{name}“',
  hubClaimsClear: 'Očišćeni sporni brojevi računa ({count})',
  hubBulkPrice: 'Na habu promenjene cene grupe „{group}“ za {percent} %: {count|artikal|artikla|artikala}',
  hubCatalogAdopt: 'Hab preuzeo katalog kase ({count|artikal|artikla|artikala})',
  hubStaffDeactivate: 'Na habu isključena osoba {name}',
  hubStaffReactivate: 'Na habu ponovo uključena osoba {name}',
  hubStaffPin: 'Na habu postavljen novi PIN osobe {name}',
  hubStaffOwnPin: 'Osoba {name} promenila svoj PIN na kasi {till}',
  hubStaffCreateManager: 'Na habu dodat menadžer {name}',
  hubStaffCreateCashier: 'Na habu dodat kasir {name}',
  hubStaffAdopt: 'Hab preuzeo osoblje kase ({count}: {names})',
  hubStaffTill: 'Kasa {till} promenila osoblje uz odobrenje menadžera: {names}',
  hubStaffRefused: 'Hab odbio promenu osobe {name} sa kase bez odobrenja menadžera',
  currency: 'din',
  someone: 'Nepoznata osoba',
  chainAdmin: 'Administrator lanca',
  roleCashier: 'kasir',
  roleManager: 'menadžer',
  yes: 'uključeno',
  no: 'isključeno',
  test: 'probni nalog',
  live: 'pravi nalog',
  reasonApproval: 'bez odobrenja menadžera',
  reasonSession: 'bez prijave',
  reasonFirstPin: 'početni PIN nije promenjen',
  reasonPin: 'pogrešan PIN',
  reasonOther: 'nije dozvoljeno',
  reasonDiscount: 'popust preko dozvoljenog',
  reasonPrice: 'cena drugačija od cenovnika',
  reasonUnfiscalized: 'gotovina dok računi čekaju fiskalizaciju',
  allLines: 'sve stavke',
  wholeShop: 'cela prodavnica',
  exportsAccounts: 'Izmenjeni konta naloga za knjiženje: {accounts}',
  exportsFile: 'Izvoz za knjigovođu ({kind}) za period {from} – {to}',
  exportsScheduled: 'Mesečni izvoz za knjigovođu za {month} upisan u fasciklu',
  exportsSchedule: 'Izmenjen raspored mesečnog izvoza za knjigovođu',
  hubGoodsReceipt: 'Na habu proknjižena prijemnica br. {number}: {supplier}, {value}',
  hubGoodsWriteOff: 'Na habu otpis br. {number}: {code} ({reason})',
  hubGoodsPriceChange: 'Na habu postavljena maloprodajna cena artikla {code}: {price}',
  hubGoodsTransferOut: 'Poslat prenos robe br. {number} u {shop}',
  hubGoodsTransferIn: 'Primljen prenos robe kao br. {number} iz {shop}',
  hubPricesList: 'Na habu sačuvan cenovnik „{name}“ ({where})',
  hubPricesPromotion: 'Na habu sačuvana akcija „{name}“ ({where})',
  hubPricesSchedule: 'Na habu zakazana nova cena artikla {name} od {at}',
  hubPricesDelete: 'Na habu obrisano: „{name}“',
  hubPricesCancel: 'Na habu otkazana zakazana cena artikla {name}',
  hubWhereShop: 'prodavnica',
  hubWhereChain: 'ceo lanac',
  exportsMail: 'Izmenjeno slanje mesečnog izvoza knjigovođi e-poštom: {host}, {to}',
  exportsMailed: 'Mesečni izvoz za {month} poslat knjigovođi e-poštom: {to}',
  exportsScheduledMail: 'Mesečni izvoz za knjigovođu za {month} stavljen u red za slanje e-poštom',
  hubGoodsSupplier: 'Na habu sačuvan dobavljač {name} (PIB {pib})',
  hubGoodsShopIdentity: 'Na habu sačuvani PIB {pib} i adresa prodavnice: {address}',
  hubGoodsReceiptDraft: 'Na habu sačuvan nacrt prijemnice: {supplier}, račun {invoice}',
  hubGoodsReceiptDraftDelete: 'Na habu obrisan nacrt prijemnice',
  hubGoodsReceiptReverse: 'Na habu storno br. {number} prijemnice br. {of}: {value}',
};

const EN: Record<AuditKey, string> = {
  login: '{who} logged in',
  logout: '{who} logged out',
  pinLockout: 'Too many wrong PINs: PIN entry locked until {until}',
  defaultManager: 'First-run manager “{name}” created with PIN 0000',
  pinRejected: 'Wrong PIN: {what}',
  pinRejectedLogin: 'Wrong PIN at login',
  approvalRefused: 'Approval refused, not a manager’s PIN: {what}',
  approvalRefusedFirstRun: 'Approval refused, the manager’s first-run PIN is not changed yet: {what}',
  staffCreate: 'Staff member added: {name}, {role}',
  staffUpdate: 'Staff member {name} changed: {fields}',
  staffUpdatePin: 'New PIN for staff member {name}',
  staffDeactivate: 'Staff member {name} deactivated: their login is refused',
  staffReactivate: 'Staff member {name} reactivated',
  sessionEnded: 'Session of {who} ended: deactivated',
  inactiveRefused: 'Login of deactivated {who} refused',
  changePin: '{who} changed their PIN',
  refused: 'Refused: {what} ({reason})',
  approved: 'Approved: {what}',
  approvedSale: 'Sale approved: {reason}',
  printerChanged: 'Printer changed: {uri}',
  voidLine: 'Line removal approved: {detail}',
  voidSale: 'Voiding the whole sale approved: {detail}',
  voidQuantity: 'Quantity reduction approved: {detail}',
  priceOverride: 'Price change at the counter approved: {detail}',
  approveOther: 'A manager approved a counter action: {detail}',
  sefIssue: 'E-invoice for sale {order} to buyer {buyer}',
  sefIssueAuto: 'E-invoice issued automatically for sale {order} to buyer {buyer}',
  sefRetry: 'E-invoice {number} sent to SEF again',
  sefCancel: 'E-invoice {number} cancelled at SEF: {comment}',
  sefStorno: 'E-invoice {number} reversed (storno) at SEF: {comment}',
  sefRefused: 'SEF refused e-invoice {number}',
  sefFinal: 'E-invoice {number} at SEF: {state}',
  sefSettings: 'SEF settings changed',
  sefSettingsKey: 'SEF settings and API key changed',
  sefAccepted: 'accepted',
  sefRejected: 'rejected',
  sefCancelled: 'cancelled',
  sefStornoed: 'reversed',
  emailSent: 'Receipt e-mailed to {email}',
  fixLabels: 'Tax labels of sale no. {orderId} corrected',
  reissue: 'Sale sent for fiscalization again: {from} → {to}',
  reissueRefused: 'Receipt {invoice} already belongs to sale {order}: issuing again refused',
  lpfrNotSigned: 'A manager checked the L-PFR’s journal and found no receipt of sale {order}: it is signed now',
  printConfirmed: 'The cashier confirmed the receipt was printed',
  printNotCameOut: 'The receipt did not come out of the printer: printing again',
  heldPrinted: 'Held print jobs printed: {count}',
  latePrinted: 'Late fiscal receipt printed, order {order}',
  offlineAllowed: 'allowed with the slip',
  offlineRefused: 'refused',
  heldDropped: 'Held print jobs dropped: {count}',
  shiftOpen: 'Shift opened, opening float {amount}',
  cashIn: 'Cash into the drawer {amount}: {reason}',
  cashOut: 'Cash out of the drawer {amount}: {reason}',
  shiftClose: 'Shift closed: expected {expected}, counted {counted}, difference {difference}',
  settings: 'Settings changed: {fields}',
  apiKey: 'Fiscal service API key changed ({environment})',
  lpfrSet: 'Local fiscal processor set: {url}',
  esirSet: 'ESIR number from the approval entered: {number}',
  esirOff: 'ESIR number cleared',
  lpfrOff: 'Local fiscal processor turned off',
  refundFull: 'Full refund of receipt {original}: {amount}',
  refundPartial: 'Partial refund of receipt {original}: {amount}',
  reportPrint: 'Report printed from {from} to {to}',
  copy: 'Copy of receipt {of} issued',
  restore: 'Database backup {name} restored',
  backupMade: 'Database backup {name} taken',
  backupCopied: 'Database backup {name} copied to {file}',
  hubEnrol: 'Till enrolled into the hub {url}',
  bulkPrice: 'Prices of group “{group}” changed by {percent} %: {count|product|products}',
  catalogKeepHub: "The hub's catalog chosen: it replaced the till's",
  catalogSendTill: "This till's catalog sent to the hub as the shop's",
  staffChoice: "The till's people matched with the hub: {mapped} mapped to the hub's people, {added} added as new",
  hubRepin: 'The hub’s new certificate fingerprint accepted',
  productAdded: 'Product added: {name}, {price}',
  productPrice: 'Price changed: {name} {before} → {after}',
  productRenamed: 'Product renamed: {before} → {name}',
  productChanged: 'Product changed: {name}',
  productRemoved: 'Product deleted: {name}',
  supplierPut: 'Supplier saved: {name}, PIB {pib}',
  receiptPost: 'Goods receipt no. {number} posted (invoice {invoice}, {lines} lines, {value})',
  receiptReverse: 'Goods receipt no. {of} reversed by document no. {number}',
  writeOff: 'Write-off no. {number}: {name}, quantity {quantity} ({reason})',
  countStart: 'Stock-taking no. {number} started ({scope}, {lines} products)',
  countPost: 'Stock-taking no. {number} posted: {differences} products differ',
  countCancel: 'Stock-taking no. {number} cancelled',
  minimumSet: 'Minimum quantity of {code}: {minimum}',
  priceListPut: 'Price list “{name}” saved ({items|product price|product prices})',
  priceListDelete: 'Price list “{name}” deleted',
  promotionPut: 'Promotion “{name}” saved, from {from} to {to}',
  promotionDelete: 'Promotion “{name}” deleted',
  priceSchedule: 'New price scheduled: {name} {after} from {at}',
  priceScheduleCancel: 'Scheduled price of {name} from {at} cancelled',
  priceApplied: 'Scheduled price in force: {name} {before} → {after} ({at})',
  labelsPrinted: 'Labels printed ({count|label|labels}, {where})',
  labelPrinterSet: 'Label printer set: {preset}, {width} × {height} mm',
  labelProductSet: 'Label of “{name}”: {net}',
  other: 'An action this version has no description for',
  hubLogin: '{who} logged in to the hub',
  hubLoginLockedShop: 'Hub login locked for the shop until {until}',
  hubLoginLockedSource: 'Hub login locked for this computer until {until}',
  hubLogout: '{who} logged out of the hub',
  hubShopCreate: 'Shop “{name}” opened',
  hubEnrolCode: 'Till enrolment code created',
  hubEnrolCodeRevoke: 'Till enrolment code no. {id} revoked',
  hubProducts: 'Products changed ({count}): {names}',
  hubSettings: 'Shop settings changed ({count})',
  hubStaff: 'Staff changed ({count}): {names}',
  hubTillRevoke: 'Till “{name}” revoked',
  hubClaimsClear: 'Disputed invoice numbers cleared ({count})',
  hubBulkPrice: 'Prices of group “{group}” changed at the hub by {percent} %: {count|product|products}',
  hubCatalogAdopt: "The hub adopted a till's catalog ({count|product|products})",
  hubStaffDeactivate: 'Person {name} deactivated at the hub',
  hubStaffReactivate: 'Person {name} reactivated at the hub',
  hubStaffPin: 'New PIN set at the hub for {name}',
  hubStaffOwnPin: '{name} changed their own PIN at till {till}',
  hubStaffCreateManager: 'Manager {name} added at the hub',
  hubStaffCreateCashier: 'Cashier {name} added at the hub',
  hubStaffAdopt: "The hub adopted a till's people ({count}: {names})",
  hubStaffTill: "Till {till} changed staff with a manager's approval: {names}",
  hubStaffRefused: "The hub refused a till's change of {name} made without a manager's approval",
  currency: 'RSD',
  someone: 'Unknown person',
  chainAdmin: 'Chain administrator',
  roleCashier: 'cashier',
  roleManager: 'manager',
  yes: 'on',
  no: 'off',
  test: 'test account',
  live: 'live account',
  reasonApproval: 'without a manager’s approval',
  reasonSession: 'without logging in',
  reasonFirstPin: 'first-run PIN not changed',
  reasonPin: 'wrong PIN',
  reasonOther: 'not allowed',
  reasonDiscount: 'discount above the limit',
  reasonPrice: 'price differs from the price list',
  reasonUnfiscalized: 'cash while receipts wait for fiscalization',
  allLines: 'all lines',
  wholeShop: 'the whole shop',
  exportsAccounts: "Changed the posting journal's accounts: {accounts}",
  exportsFile: 'Export for the bookkeeper ({kind}) for {from} – {to}',
  exportsScheduled: 'The monthly export for the bookkeeper for {month} written to the folder',
  exportsSchedule: 'Changed the schedule of the monthly export for the bookkeeper',
  hubGoodsReceipt: 'Goods receipt no. {number} posted at the hub: {supplier}, {value}',
  hubGoodsWriteOff: 'Write-off no. {number} at the hub: {code} ({reason})',
  hubGoodsPriceChange: 'Retail price of {code} set at the hub to {price}',
  hubGoodsTransferOut: 'Goods transfer no. {number} sent to {shop}',
  hubGoodsTransferIn: 'Goods transfer received as no. {number} from {shop}',
  hubPricesList: 'Price list “{name}” saved at the hub ({where})',
  hubPricesPromotion: 'Promotion “{name}” saved at the hub ({where})',
  hubPricesSchedule: 'New price of product {name} scheduled at the hub from {at}',
  hubPricesDelete: 'Deleted at the hub: “{name}”',
  hubPricesCancel: 'Scheduled price of product {name} cancelled at the hub',
  hubWhereShop: 'shop',
  hubWhereChain: 'the whole chain',
  exportsMail: 'Changed the monthly export by e-mail to the bookkeeper: {host}, {to}',
  exportsMailed: 'The monthly export for {month} sent to the bookkeeper by e-mail: {to}',
  exportsScheduledMail: 'The monthly export for the bookkeeper for {month} queued to be sent by e-mail',
  hubGoodsSupplier: 'Supplier {name} (PIB {pib}) saved at the hub',
  hubGoodsShopIdentity: "The shop's PIB {pib} and address saved at the hub: {address}",
  hubGoodsReceiptDraft: 'Draft goods receipt saved at the hub: {supplier}, invoice {invoice}',
  hubGoodsReceiptDraftDelete: 'Draft goods receipt deleted at the hub',
  hubGoodsReceiptReverse: 'Reversal no. {number} of goods receipt no. {of} at the hub: {value}',
};

export const AUDIT_TEXT: Record<Language, Record<AuditKey, string>> = {
  'sr-Cyrl': SR_CYRL,
  'sr-Latn': SR_LATN,
  en: EN,
};

/**
 * The commands an audit entry can name (`approved.<command>`, `authz.refused`, a wrong PIN's command), as what
 * was done. Every command a manager's PIN guards or approves has its words (a test checks the contract).
 */
const COMMAND_WORDS: Record<Language, Record<string, string>> = {
  'sr-Cyrl': {
    'audit.list': 'преглед дневника',
    'backups.list': 'преглед резервних копија',
    'backups.restore': 'враћање резервне копије',
    'backups.create': 'прављење резервне копије',
    'backups.copy': 'копирање резервне копије у фасциклу',
    'catalog.put': 'унос или измена артикла',
    'catalog.remove': 'брисање артикла',
    'catalog.stats': 'преглед каталога',
    'catalog.loadSample': 'учитавање пробног каталога',
    'catalog.import': 'увоз каталога',
    'catalog.barcodeRules': 'правила бар-кодова',
    'copies.create': 'копија рачуна',
    'hub.repin': 'нови отисак сертификата хаба',
    'hub.enrol': 'упис касе у хаб',
    'catalog.bulkPrice': 'промена цена групе',
    'suppliers.put': 'унос добављача',
    'goods.receiptSave': 'унос пријемнице',
    'goods.receiptPost': 'књижење пријемнице',
    'goods.receiptReverse': 'сторнирање пријемнице',
    'goods.writeOff': 'отпис робе',
    'sef.issue': 'издавање е-фактуре',
    'sef.list': 'преглед е-фактура',
    'sef.forOrder': 'е-фактура продаје',
    'sef.retry': 'поновно слање е-фактуре',
    'sef.cancel': 'отказивање е-фактуре',
    'sef.settings': 'подешавања СЕФ-а',
    'sef.saveSettings': 'измена подешавања СЕФ-а',
    'sef.incoming': 'преузимање улазних фактура',
    'goods.countStart': 'почетак пописа',
    'goods.countPost': 'књижење пописа',
    'goods.countCancel': 'отказивање пописа',
    'goods.minimumSet': 'минимална количина',
    'prices.listPut': 'унос ценовника',
    'prices.listDelete': 'брисање ценовника',
    'prices.promotionPut': 'унос акције',
    'prices.promotionDelete': 'брисање акције',
    'prices.schedule': 'заказивање нове цене',
    'prices.scheduleCancel': 'отказивање заказане цене',
    'display.tokens': 'преглед кључева екрана за купца',
    'display.tokenCreate': 'нови кључ екрана за купца',
    'display.tokenRevoke': 'опозив кључа екрана за купца',
    'labels.overview': 'преглед етикета',
    'labels.preview': 'преглед етикета',
    'labels.print': 'штампа етикета',
    'labels.pdf': 'етикете на А4 табаку',
    'labels.printerSet': 'подешавање штампача етикета',
    'labels.productSet': 'нето количина артикла',
    'hub.catalogChoice': 'избор каталога хаба или касе',
    'hub.staffChoice': 'усклађивање особља касе са хабом',
    'settings.setLpfr': 'подешавање локалног фискалног процесора',
    'settings.setEsir': 'унос ЕСИР броја',
    'orders.fixLabels': 'исправка пореских ознака',
    'orders.reissue': 'поновно слање на фискализацију',
    'orders.lpfrNotSigned': 'потписивање продаје коју Л-ПФР није потписао',
    'print.held': 'преглед задржаних послова штампе',
    'print.resolveHeld': 'задржани послови штампе',
    'printer.profiles': 'преглед профила штампача',
    'printer.configure': 'подешавање штампача',
    'refunds.source': 'тражење рачуна за рефундацију',
    'refunds.create': 'рефундација',
    'settings.setApiKey': 'нови API кључ',
    'settings.update': 'измена подешавања',
    'shifts.cash': 'улаз или излаз готовине',
    'shifts.list': 'преглед смена',
    'shifts.close': 'затварање смене',
    'sales.checkout': 'продаја',
    'sales.approveDiscount': 'попуст',
    'emails.send': 'слање рачуна е-поштом',
    'advances.add': 'аванс',
    'advances.finalize': 'коначни рачун аванса',
    'staff.create': 'нови запослени',
    'staff.update': 'измена запосленог',
    'staff.list': 'преглед особља',
    'staff.approve': 'одобрење радње на каси',
    'staff.login': 'пријава',
    'staff.changePin': 'промена PIN-а',
    'exports.build': 'преглед извоза за књиговођу',
    'exports.file': 'извоз за књиговођу',
    'exports.accounts': 'конта налога за књижење',
    'exports.saveAccounts': 'измена конта налога за књижење',
    'exports.schedule': 'распоред месечног извоза',
    'exports.saveSchedule': 'измена распореда месечног извоза',
    'exports.mail': 'слање извоза књиговођи е-поштом',
    'exports.saveMail': 'измена слања извоза књиговођи е-поштом',
    'exports.sendNow': 'поновно слање извоза књиговођи',
  },
  'sr-Latn': {
    'audit.list': 'pregled dnevnika',
    'backups.list': 'pregled rezervnih kopija',
    'backups.restore': 'vraćanje rezervne kopije',
    'backups.create': 'pravljenje rezervne kopije',
    'backups.copy': 'kopiranje rezervne kopije u fasciklu',
    'catalog.put': 'unos ili izmena artikla',
    'catalog.remove': 'brisanje artikla',
    'catalog.stats': 'pregled kataloga',
    'catalog.loadSample': 'učitavanje probnog kataloga',
    'catalog.import': 'uvoz kataloga',
    'catalog.barcodeRules': 'pravila bar-kodova',
    'copies.create': 'kopija računa',
    'hub.repin': 'novi otisak sertifikata haba',
    'hub.enrol': 'upis kase u hab',
    'catalog.bulkPrice': 'promena cena grupe',
    'suppliers.put': 'unos dobavljača',
    'goods.receiptSave': 'unos prijemnice',
    'goods.receiptPost': 'knjiženje prijemnice',
    'goods.receiptReverse': 'storniranje prijemnice',
    'goods.writeOff': 'otpis robe',
    'sef.issue': 'izdavanje e-fakture',
    'sef.list': 'pregled e-faktura',
    'sef.forOrder': 'e-faktura prodaje',
    'sef.retry': 'ponovno slanje e-fakture',
    'sef.cancel': 'otkazivanje e-fakture',
    'sef.settings': 'podešavanja SEF-a',
    'sef.saveSettings': 'izmena podešavanja SEF-a',
    'sef.incoming': 'preuzimanje ulaznih faktura',
    'goods.countStart': 'početak popisa',
    'goods.countPost': 'knjiženje popisa',
    'goods.countCancel': 'otkazivanje popisa',
    'goods.minimumSet': 'minimalna količina',
    'prices.listPut': 'unos cenovnika',
    'prices.listDelete': 'brisanje cenovnika',
    'prices.promotionPut': 'unos akcije',
    'prices.promotionDelete': 'brisanje akcije',
    'prices.schedule': 'zakazivanje nove cene',
    'prices.scheduleCancel': 'otkazivanje zakazane cene',
    'display.tokens': 'pregled ključeva ekrana za kupca',
    'display.tokenCreate': 'novi ključ ekrana za kupca',
    'display.tokenRevoke': 'opoziv ključa ekrana za kupca',
    'labels.overview': 'pregled etiketa',
    'labels.preview': 'pregled etiketa',
    'labels.print': 'štampa etiketa',
    'labels.pdf': 'etikete na A4 tabaku',
    'labels.printerSet': 'podešavanje štampača etiketa',
    'labels.productSet': 'neto količina artikla',
    'hub.catalogChoice': 'izbor kataloga haba ili kase',
    'hub.staffChoice': 'usklađivanje osoblja kase sa habom',
    'settings.setLpfr': 'podešavanje lokalnog fiskalnog procesora',
    'settings.setEsir': 'unos ESIR broja',
    'orders.fixLabels': 'ispravka poreskih oznaka',
    'orders.reissue': 'ponovno slanje na fiskalizaciju',
    'orders.lpfrNotSigned': 'potpisivanje prodaje koju L-PFR nije potpisao',
    'print.held': 'pregled zadržanih poslova štampe',
    'print.resolveHeld': 'zadržani poslovi štampe',
    'printer.profiles': 'pregled profila štampača',
    'printer.configure': 'podešavanje štampača',
    'refunds.source': 'traženje računa za refundaciju',
    'refunds.create': 'refundacija',
    'settings.setApiKey': 'novi API ključ',
    'settings.update': 'izmena podešavanja',
    'shifts.cash': 'ulaz ili izlaz gotovine',
    'shifts.list': 'pregled smena',
    'shifts.close': 'zatvaranje smene',
    'sales.checkout': 'prodaja',
    'sales.approveDiscount': 'popust',
    'emails.send': 'slanje računa e-poštom',
    'advances.add': 'avans',
    'advances.finalize': 'konačni račun avansa',
    'staff.create': 'novi zaposleni',
    'staff.update': 'izmena zaposlenog',
    'staff.list': 'pregled osoblja',
    'staff.approve': 'odobrenje radnje na kasi',
    'staff.login': 'prijava',
    'staff.changePin': 'promena PIN-a',
    'exports.build': 'pregled izvoza za knjigovođu',
    'exports.file': 'izvoz za knjigovođu',
    'exports.accounts': 'konta naloga za knjiženje',
    'exports.saveAccounts': 'izmena konta naloga za knjiženje',
    'exports.schedule': 'raspored mesečnog izvoza',
    'exports.saveSchedule': 'izmena rasporeda mesečnog izvoza',
    'exports.mail': 'slanje izvoza knjigovođi e-poštom',
    'exports.saveMail': 'izmena slanja izvoza knjigovođi e-poštom',
    'exports.sendNow': 'ponovno slanje izvoza knjigovođi',
  },
  en: {
    'audit.list': 'viewing the log',
    'backups.list': 'viewing the backups',
    'backups.restore': 'restoring a backup',
    'backups.create': 'taking a backup',
    'backups.copy': 'copying a backup to a folder',
    'catalog.put': 'adding or changing a product',
    'catalog.remove': 'deleting a product',
    'catalog.stats': 'viewing the catalog',
    'catalog.loadSample': 'loading the sample catalog',
    'catalog.import': 'catalog import',
    'catalog.barcodeRules': 'barcode rules',
    'copies.create': 'receipt copy',
    'hub.repin': 'new hub certificate fingerprint',
    'hub.enrol': 'enrolling the till into a hub',
    'catalog.bulkPrice': "a group's price change",
    'suppliers.put': 'saving a supplier',
    'goods.receiptSave': 'saving a goods receipt',
    'goods.receiptPost': 'posting a goods receipt',
    'goods.receiptReverse': 'reversing a goods receipt',
    'goods.writeOff': 'writing goods off',
    'sef.issue': 'issuing an e-invoice',
    'sef.list': 'the e-invoice list',
    'sef.forOrder': "a sale's e-invoice",
    'sef.retry': 'sending an e-invoice again',
    'sef.cancel': 'cancelling an e-invoice',
    'sef.settings': 'the SEF settings',
    'sef.saveSettings': 'changing the SEF settings',
    'sef.incoming': 'fetching incoming invoices',
    'goods.countStart': 'starting a stock-taking',
    'goods.countPost': 'posting a stock-taking',
    'goods.countCancel': 'cancelling a stock-taking',
    'goods.minimumSet': 'setting a minimum quantity',
    'prices.listPut': 'saving a price list',
    'prices.listDelete': 'deleting a price list',
    'prices.promotionPut': 'saving a promotion',
    'prices.promotionDelete': 'deleting a promotion',
    'prices.schedule': 'scheduling a new price',
    'prices.scheduleCancel': 'cancelling a scheduled price',
    'display.tokens': 'viewing the customer display keys',
    'display.tokenCreate': 'a new customer display key',
    'display.tokenRevoke': 'revoking a customer display key',
    'labels.overview': 'looking at labels',
    'labels.preview': 'previewing labels',
    'labels.print': 'printing labels',
    'labels.pdf': 'labels on A4 sheets',
    'labels.printerSet': 'setting the label printer',
    'labels.productSet': 'net quantity of a product',
    'hub.catalogChoice': "choosing the hub's or the till's catalog",
    'hub.staffChoice': "matching the till's people with the hub's",
    'settings.setLpfr': 'local fiscal processor setup',
    'settings.setEsir': 'entering the ESIR number',
    'orders.fixLabels': 'tax label correction',
    'orders.reissue': 'sending for fiscalization again',
    'orders.lpfrNotSigned': 'signing a sale the L-PFR did not sign',
    'print.held': 'viewing held print jobs',
    'print.resolveHeld': 'held print jobs',
    'printer.profiles': 'viewing printer profiles',
    'printer.configure': 'printer setup',
    'refunds.source': 'finding a receipt to refund',
    'refunds.create': 'refund',
    'settings.setApiKey': 'new API key',
    'settings.update': 'changing settings',
    'shifts.cash': 'cash in or out',
    'shifts.list': 'viewing shifts',
    'shifts.close': 'closing a shift',
    'sales.checkout': 'sale',
    'sales.approveDiscount': 'discount',
    'emails.send': 'e-mailing a receipt',
    'advances.add': 'advance',
    'advances.finalize': 'advance final receipt',
    'staff.create': 'new staff member',
    'staff.update': 'changing a staff member',
    'staff.list': 'viewing staff',
    'staff.approve': 'approving a counter action',
    'staff.login': 'login',
    'staff.changePin': 'PIN change',
    'exports.build': 'viewing the exports for the bookkeeper',
    'exports.file': 'an export for the bookkeeper',
    'exports.accounts': "the posting journal's accounts",
    'exports.saveAccounts': "changing the posting journal's accounts",
    'exports.schedule': "the monthly export's schedule",
    'exports.saveSchedule': "changing the monthly export's schedule",
    'exports.mail': 'the export by e-mail to the bookkeeper',
    'exports.saveMail': 'changing the export by e-mail to the bookkeeper',
    'exports.sendNow': 'sending the export to the bookkeeper again',
  },
};

/** The settings a manager changes, by name (`settings.update`'s detail keys). */
const SETTING_WORDS: Record<Language, Record<string, string>> = {
  'sr-Cyrl': {
    language: 'језик',
    terminalId: 'ознака касе',
    trainingMode: 'режим обуке',
    outageWarnMinutes: 'упозорење о прекиду везе',
    outageAlarmMinutes: 'аларм о прекиду везе',
    unfiscalizedCashLimitHours: 'рок за готовину без фискализације',
    offlineSales: 'продаја без фискалног процесора',
    discountLimitPercent: 'највећи попуст без одобрења',
    clockDriftMaxMs: 'дозвољено одступање сата',
    allowRefundWithoutBuyerId: 'рефундација без ИД купца',
    shopName: 'назив продавнице',
    tillName: 'назив касе',
    setupDone: 'почетно подешавање завршено',
    gatewayUrl: 'адреса фискалног сервиса',
  },
  'sr-Latn': {
    language: 'jezik',
    terminalId: 'oznaka kase',
    trainingMode: 'režim obuke',
    outageWarnMinutes: 'upozorenje o prekidu veze',
    outageAlarmMinutes: 'alarm o prekidu veze',
    unfiscalizedCashLimitHours: 'rok za gotovinu bez fiskalizacije',
    offlineSales: 'prodaja bez fiskalnog procesora',
    discountLimitPercent: 'najveći popust bez odobrenja',
    clockDriftMaxMs: 'dozvoljeno odstupanje sata',
    allowRefundWithoutBuyerId: 'refundacija bez ID kupca',
    shopName: 'naziv prodavnice',
    tillName: 'naziv kase',
    setupDone: 'početno podešavanje završeno',
    gatewayUrl: 'adresa fiskalnog servisa',
  },
  en: {
    language: 'language',
    terminalId: 'till code',
    trainingMode: 'training mode',
    outageWarnMinutes: 'outage warning',
    outageAlarmMinutes: 'outage alarm',
    unfiscalizedCashLimitHours: 'limit for cash without fiscalization',
    offlineSales: 'sales with no fiscal processor',
    discountLimitPercent: 'largest discount without approval',
    clockDriftMaxMs: 'allowed clock drift',
    allowRefundWithoutBuyerId: 'refund without buyer ID',
    shopName: 'shop name',
    tillName: 'till name',
    setupDone: 'first-run setup done',
    gatewayUrl: 'fiscal service address',
  },
};

type Detail = Readonly<Record<string, unknown>>;

/** What a sentence is made from: its key and its placeholders' words. */
interface Said {
  key: AuditKey;
  params?: Readonly<Record<string, string | number | undefined>>;
}

/** The tools a rule words its detail with, in the entry's language. */
interface Words {
  lang: Language;
  text(key: AuditKey): string;
  money(value: unknown): string;
  moment(value: unknown): string;
  command(value: unknown): string;
  who: string;
}

const str = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
/** An ISO day as the language writes it (`26.11.2026.`, `26/11/2026`), never the ISO text. */
const dayWords = (v: unknown, lang: Language): string => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(str(v));
  if (!m) return '';
  return lang === 'en' ? `${m[3]}/${m[2]}/${m[1]}` : `${m[3]}.${m[2]}.${m[1]}.`;
};

function reasonWords(w: Words, key: unknown): string {
  const k = str(key);
  if (k.startsWith('approval_required')) return w.text('reasonApproval');
  if (k === 'session_required') return w.text('reasonSession');
  if (k === 'pin_must_change') return w.text('reasonFirstPin');
  if (k.startsWith('pin_')) return w.text('reasonPin');
  return w.text('reasonOther');
}

/** Why a sale needed a manager (`needs`: `lines.0.discount`, `lines.1.unitPrice`, `unfiscalized`, `discount`). */
function needsWords(w: Words, needs: unknown): string {
  const n = str(needs);
  if (n.endsWith('discount')) return w.text('reasonDiscount');
  if (n.endsWith('unitPrice')) return w.text('reasonPrice');
  if (n === 'unfiscalized') return w.text('reasonUnfiscalized');
  return w.text('reasonApproval');
}

const approveKeys: Readonly<Record<string, AuditKey>> = {
  void_line: 'voidLine',
  void_sale: 'voidSale',
  void_quantity: 'voidQuantity',
  price_override: 'priceOverride',
};

/** The till's actions (electron/, every `audit(` call) and how each is said. */
const TILL_RULES: Readonly<Record<string, (d: Detail, w: Words) => Said>> = {
  'staff.login': (_d, w) => ({ key: 'login', params: { who: w.who } }),
  'staff.logout': (_d, w) => ({ key: 'logout', params: { who: w.who } }),
  'staff.pinLockout': (d, w) => ({ key: 'pinLockout', params: { until: w.moment(d.until) } }),
  'staff.defaultManager': (d) => ({ key: 'defaultManager', params: { name: str(d.name) } }),
  'staff.pinRejected': (d, w) =>
    d.command ? { key: 'pinRejected', params: { what: w.command(d.command) } } : { key: 'pinRejectedLogin' },
  'approval.refused': (d, w) => ({
    key: d.reason ? 'approvalRefusedFirstRun' : 'approvalRefused',
    params: { what: w.command(d.command) },
  }),
  'staff.create': (d, w) => ({
    key: 'staffCreate',
    params: { name: str(d.name), role: w.text(d.role === 'manager' ? 'roleManager' : 'roleCashier') },
  }),
  'staff.update': (d, w) => {
    const name = str(d.name) || `#${str(d.id)}`;
    const fields = Array.isArray(d.fields) ? d.fields.map((f) => fieldLabel(w.lang, str(f))) : [];
    if (fields.length === 0 && d.pinChanged === true) return { key: 'staffUpdatePin', params: { name } };
    return { key: 'staffUpdate', params: { name, fields: fields.join(', ') } };
  },
  'staff.changePin': (_d, w) => ({ key: 'changePin', params: { who: w.who } }),
  'staff.deactivate': (d) => ({ key: 'staffDeactivate', params: { name: str(d.name) || `#${str(d.id)}` } }),
  'staff.reactivate': (d) => ({ key: 'staffReactivate', params: { name: str(d.name) || `#${str(d.id)}` } }),
  'staff.sessionEnded': (_d, w) => ({ key: 'sessionEnded', params: { who: w.who } }),
  'staff.inactiveRefused': (_d, w) => ({ key: 'inactiveRefused', params: { who: w.who } }),
  'staff.resetPin': (d) => ({ key: 'staffUpdatePin', params: { name: str(d.name) || `#${str(d.id)}` } }),
  'authz.refused': (d, w) => ({
    key: 'refused',
    params: { what: w.command(d.command), reason: reasonWords(w, d.reason) },
  }),
  'emails.send': (d) => ({ key: 'emailSent', params: { email: str(d.email) } }),
  'sef.issue': (d) => ({
    key: d.auto === true ? 'sefIssueAuto' : 'sefIssue',
    params: { order: str(d.orderNumber), buyer: str(d.buyerId) },
  }),
  'sef.retry': (d) => ({ key: 'sefRetry', params: { number: str(d.number) } }),
  'sef.cancel': (d) => ({ key: 'sefCancel', params: { number: str(d.number), comment: str(d.comment) } }),
  'sef.storno': (d) => ({ key: 'sefStorno', params: { number: str(d.number), comment: str(d.comment) } }),
  'sef.refused': (d) => ({ key: 'sefRefused', params: { number: str(d.number) } }),
  'sef.final': (d, w) => ({
    key: 'sefFinal',
    params: {
      number: str(d.number),
      state: w.text(
        d.state === 'accepted'
          ? 'sefAccepted'
          : d.state === 'rejected'
            ? 'sefRejected'
            : d.state === 'cancelled'
              ? 'sefCancelled'
              : 'sefStornoed',
      ),
    },
  }),
  'sef.settings': (d) => ({ key: d.keyChanged === true ? 'sefSettingsKey' : 'sefSettings' }),
  'order.fixLabels': (d) => ({ key: 'fixLabels', params: { orderId: str(d.orderId) } }),
  'order.reissue': (d) => ({ key: 'reissue', params: { from: str(d.from), to: str(d.to) } }),
  'order.lpfrNotSigned': (d) => ({ key: 'lpfrNotSigned', params: { order: str(d.order) } }),
  'order.reissue_refused': (d) => ({
    key: 'reissueRefused',
    params: { invoice: str(d.invoiceNumber), order: str(d.orderNumber) },
  }),
  'print.confirmed': () => ({ key: 'printConfirmed' }),
  'print.notCameOut': () => ({ key: 'printNotCameOut' }),
  'print.heldPrinted': (d) => ({
    key: 'heldPrinted',
    params: { count: Array.isArray(d.jobIds) ? d.jobIds.length : 0 },
  }),
  'print.latePrinted': (d) => ({ key: 'latePrinted', params: { order: str(d.orderNumber ?? d.orderId) } }),
  'print.heldDropped': (d) => ({
    key: 'heldDropped',
    params: { count: Array.isArray(d.jobIds) ? d.jobIds.length : 0 },
  }),
  'shift.open': (d, w) => ({ key: 'shiftOpen', params: { amount: w.money(d.openingFloatPara) } }),
  'shift.cashIn': (d, w) => ({ key: 'cashIn', params: { amount: w.money(d.amountPara), reason: str(d.reason) } }),
  'shift.cashOut': (d, w) => ({ key: 'cashOut', params: { amount: w.money(d.amountPara), reason: str(d.reason) } }),
  'shift.close': (d, w) => ({
    key: 'shiftClose',
    params: {
      expected: w.money(d.expectedPara),
      counted: w.money(d.countedPara),
      difference: w.money(d.differencePara),
    },
  }),
  'settings.update': (d, w) => ({
    key: 'settings',
    params: {
      fields: Object.entries(d)
        .map(([k, v]) => {
          const name = SETTING_WORDS[w.lang][k] ?? fieldLabel(w.lang, k);
          if (k === 'offlineSales') return `${name}: ${w.text(v === 'refused' ? 'offlineRefused' : 'offlineAllowed')}`;
          return typeof v === 'boolean' ? `${name} ${w.text(v ? 'yes' : 'no')}` : name;
        })
        .join(', '),
    },
  }),
  'settings.apiKey': (d, w) => ({
    key: 'apiKey',
    params: { environment: w.text(d.environment === 'live' ? 'live' : 'test') },
  }),
  'settings.lpfr': (d) => (d.url ? { key: 'lpfrSet', params: { url: str(d.url) } } : { key: 'lpfrOff' }),
  'settings.esir': (d) =>
    d.esirNumber ? { key: 'esirSet', params: { number: str(d.esirNumber) } } : { key: 'esirOff' },
  'refund.full': (d, w) => ({ key: 'refundFull', params: { original: str(d.original), amount: w.money(d.totalPara) } }),
  'refund.partial': (d, w) => ({
    key: 'refundPartial',
    params: { original: str(d.original), amount: w.money(d.totalPara) },
  }),
  'report.print': (d, w) => ({ key: 'reportPrint', params: { from: w.moment(d.from), to: w.moment(d.to) } }),
  'receipt.copy': (d) => ({ key: 'copy', params: { of: str(d.of) } }),
  'backups.restore': (d) => ({ key: 'restore', params: { name: str(d.name) } }),
  'backups.create': (d) => ({ key: 'backupMade', params: { name: str(d.name) } }),
  'backups.copy': (d) => ({ key: 'backupCopied', params: { name: str(d.name), file: str(d.file) } }),
  'hub.enrol': (d) => ({ key: 'hubEnrol', params: { url: str(d.url) } }),
  'hub.catalogChoice': (d) => ({ key: d.keep === 'till' ? 'catalogSendTill' : 'catalogKeepHub' }),
  'hub.staffChoice': (d) => ({ key: 'staffChoice', params: { mapped: num(d.mapped), added: num(d.added) } }),
  'catalog.bulkPrice': (d, w) => ({
    key: 'bulkPrice',
    params: {
      group: str(d.group),
      percent: formatPercent(num(d.percentBp), w.lang === 'en' ? '.' : ','),
      count: num(d.count),
    },
  }),
  'hub.repin': () => ({ key: 'hubRepin' }),
  'catalog.productAdded': (d, w) => ({
    key: 'productAdded',
    params: { name: str(d.name), price: w.money(d.pricePara) },
  }),
  'catalog.productChanged': (d, w) => {
    const name = str(d.name);
    if (typeof d.priceBeforePara === 'number' && d.priceBeforePara !== d.pricePara)
      return {
        key: 'productPrice',
        params: { name, before: formatRsd(d.priceBeforePara), after: w.money(d.pricePara) },
      };
    if (typeof d.nameBefore === 'string' && d.nameBefore !== name)
      return { key: 'productRenamed', params: { name, before: d.nameBefore } };
    return { key: 'productChanged', params: { name } };
  },
  'catalog.productRemoved': (d) => ({ key: 'productRemoved', params: { name: str(d.name) } }),
  'suppliers.put': (d) => ({ key: 'supplierPut', params: { name: str(d.name), pib: str(d.pib) } }),
  'goods.receiptPost': (d, w) => ({
    key: 'receiptPost',
    params: { number: str(d.number), invoice: str(d.invoice), lines: num(d.lines), value: w.money(d.retailPara) },
  }),
  'goods.receiptReverse': (d) => ({ key: 'receiptReverse', params: { number: str(d.number), of: str(d.of) } }),
  'prices.listPut': (d) => ({ key: 'priceListPut', params: { name: str(d.name), items: num(d.items) } }),
  'prices.listDelete': (d) => ({ key: 'priceListDelete', params: { name: str(d.name) } }),
  'prices.promotionPut': (d, w) => ({
    key: 'promotionPut',
    params: { name: str(d.name), from: dayWords(d.from, w.lang), to: dayWords(d.to, w.lang) },
  }),
  'prices.promotionDelete': (d) => ({ key: 'promotionDelete', params: { name: str(d.name) } }),
  'prices.schedule': (d, w) => ({
    key: 'priceSchedule',
    params: { name: str(d.name), after: w.money(d.pricePara), at: w.moment(d.at) },
  }),
  'prices.scheduleCancel': (d, w) => ({
    key: 'priceScheduleCancel',
    params: { name: str(d.name), at: w.moment(d.at) },
  }),
  'prices.applied': (d, w) => ({
    key: 'priceApplied',
    params: {
      name: str(d.name),
      before: formatRsd(num(d.beforePara)),
      after: w.money(d.pricePara),
      at: w.moment(d.at),
    },
  }),
  'labels.printed': (d) => ({ key: 'labelsPrinted', params: { count: num(d.count), where: str(d.where) } }),
  'labels.printerSet': (d) => ({
    key: 'labelPrinterSet',
    params: { preset: str(d.preset), width: num(d.widthMm), height: num(d.heightMm) },
  }),
  'labels.productSet': (d) => ({
    key: 'labelProductSet',
    params: {
      name: str(d.name),
      net: d.netMilli === null ? '—' : `${formatQuantity(num(d.netMilli))} ${str(d.netUnit)}`,
    },
  }),
  'goods.writeOff': (d) => ({
    key: 'writeOff',
    params: {
      number: str(d.number),
      name: str(d.name),
      quantity: formatQuantity(num(d.quantityMilli)),
      reason: str(d.reason),
    },
  }),
  'goods.countStart': (d, w) => ({
    key: 'countStart',
    params: { number: str(d.number), scope: str(d.groups) || w.text('wholeShop'), lines: num(d.lines) },
  }),
  'goods.countPost': (d) => ({ key: 'countPost', params: { number: str(d.number), differences: num(d.differences) } }),
  'goods.countCancel': (d) => ({ key: 'countCancel', params: { number: str(d.number) } }),
  'goods.minimumSet': (d) => ({
    key: 'minimumSet',
    params: { code: str(d.code), minimum: formatQuantity(num(d.minimumMilli)) },
  }),
  'exports.saveAccounts': (d) => ({ key: 'exportsAccounts', params: { accounts: str(d.accounts) } }),
  'exports.file': (d) => ({ key: 'exportsFile', params: { kind: str(d.kind), from: str(d.from), to: str(d.to) } }),
  'exports.scheduled': (d) => ({
    key: str(d.folder) ? 'exportsScheduled' : 'exportsScheduledMail',
    params: { month: str(d.month) },
  }),
  'exports.saveSchedule': () => ({ key: 'exportsSchedule' }),
  'exports.saveMail': (d) => ({ key: 'exportsMail', params: { host: str(d.host) || '—', to: str(d.to) || '—' } }),
  'exports.mailed': (d) => ({ key: 'exportsMailed', params: { month: str(d.month), to: str(d.to) } }),
};

/** The prefixes of actions named after something else: a counter action, or a command a manager approved. */
const TILL_PREFIX_RULES: Readonly<Record<string, (rest: string, d: Detail, w: Words) => Said>> = {
  'approve.': (rest, d) => ({ key: approveKeys[rest] ?? 'approveOther', params: { detail: str(d.detail) } }),
  'approved.': (rest, d, w) => {
    if (rest === 'printer.configure') return { key: 'printerChanged', params: { uri: str(d.uri) } };
    if (rest === 'sales.checkout') return { key: 'approvedSale', params: { reason: needsWords(w, d.needs) } };
    return { key: 'approved', params: { what: w.command(rest) } };
  },
};

/** The hub's actions (shared/contract/hub.ts `HubAuditAction`) and how each is said. */
const HUB_RULES: Readonly<Record<string, (d: Detail, w: Words) => Said>> = {
  login: (_d, w) => ({ key: 'hubLogin', params: { who: w.who } }),
  login_locked: (d, w) => ({
    key: d.scope === 'shop' ? 'hubLoginLockedShop' : 'hubLoginLockedSource',
    params: { until: w.moment(d.until) },
  }),
  logout: (_d, w) => ({ key: 'hubLogout', params: { who: w.who } }),
  shop_create: (d) => ({ key: 'hubShopCreate', params: { name: str(d.name) } }),
  enrol_code: () => ({ key: 'hubEnrolCode' }),
  enrol_code_revoke: (d) => ({ key: 'hubEnrolCodeRevoke', params: { id: num(d.id) } }),
  products: (d) => ({ key: 'hubProducts', params: { count: num(d.count), names: str(d.codes) } }),
  settings: (d) => ({ key: 'hubSettings', params: { count: num(d.count) } }),
  staff: (d) => ({ key: 'hubStaff', params: { count: num(d.count), names: str(d.names) } }),
  till_revoke: (d) => ({ key: 'hubTillRevoke', params: { name: str(d.name) } }),
  claims_clear: (d) => ({ key: 'hubClaimsClear', params: { count: num(d.count) } }),
  staff_deactivate: (d) => ({ key: 'hubStaffDeactivate', params: { name: str(d.name) } }),
  staff_reactivate: (d) => ({ key: 'hubStaffReactivate', params: { name: str(d.name) } }),
  staff_pin: (d) => ({ key: 'hubStaffPin', params: { name: str(d.name) } }),
  staff_own_pin: (d) => ({ key: 'hubStaffOwnPin', params: { name: str(d.name), till: str(d.till) } }),
  staff_create: (d) => ({
    key: d.role === 'manager' ? 'hubStaffCreateManager' : 'hubStaffCreateCashier',
    params: { name: str(d.name) },
  }),
  staff_adopt: (d) => ({ key: 'hubStaffAdopt', params: { count: num(d.count), names: str(d.names) } }),
  staff_till: (d) => ({ key: 'hubStaffTill', params: { till: str(d.till), names: str(d.names) } }),
  staff_refused: (d) => ({ key: 'hubStaffRefused', params: { name: str(d.name) } }),
  products_bulk_price: (d, w) => ({
    key: 'hubBulkPrice',
    params: {
      group: str(d.group),
      percent: formatPercent(num(d.percentBp), w.lang === 'en' ? '.' : ','),
      count: num(d.count),
    },
  }),
  catalog_adopt: (d) => ({ key: 'hubCatalogAdopt', params: { count: num(d.count) } }),
  goods_receipt: (d, w) => ({
    key: 'hubGoodsReceipt',
    params: { number: str(d.number), supplier: str(d.supplier), value: w.money(d.value) },
  }),
  goods_writeoff: (d) => ({
    key: 'hubGoodsWriteOff',
    params: { number: str(d.number), code: str(d.code), reason: str(d.reason) },
  }),
  goods_price_change: (d, w) => ({
    key: 'hubGoodsPriceChange',
    params: { code: str(d.code), price: w.money(d.price) },
  }),
  goods_transfer_out: (d) => ({ key: 'hubGoodsTransferOut', params: { number: str(d.number), shop: str(d.shop) } }),
  goods_transfer_in: (d) => ({ key: 'hubGoodsTransferIn', params: { number: str(d.number), shop: str(d.shop) } }),
  // Where a rule set at the hub holds, in words: `whereWord`.
  prices_list: (d, w) => ({
    key: 'hubPricesList',
    params: { name: str(d.name), where: w.text(d.where === 'chain' ? 'hubWhereChain' : 'hubWhereShop') },
  }),
  prices_promotion: (d, w) => ({
    key: 'hubPricesPromotion',
    params: { name: str(d.name), where: w.text(d.where === 'chain' ? 'hubWhereChain' : 'hubWhereShop') },
  }),
  prices_schedule: (d, w) => ({ key: 'hubPricesSchedule', params: { name: str(d.name), at: w.moment(d.at) } }),
  prices_delete: (d) => ({
    key: d.kind === 'scheduled' ? 'hubPricesCancel' : 'hubPricesDelete',
    params: { name: str(d.name) },
  }),
  goods_supplier: (d) => ({ key: 'hubGoodsSupplier', params: { name: str(d.name), pib: str(d.pib) } }),
  goods_shop_identity: (d) => ({ key: 'hubGoodsShopIdentity', params: { pib: str(d.pib), address: str(d.address) } }),
  goods_receipt_draft: (d) => ({
    key: 'hubGoodsReceiptDraft',
    params: { supplier: str(d.supplier), invoice: str(d.invoice) },
  }),
  goods_receipt_draft_delete: () => ({ key: 'hubGoodsReceiptDraftDelete', params: {} }),
  goods_receipt_reverse: (d, w) => ({
    key: 'hubGoodsReceiptReverse',
    params: { number: str(d.number), of: str(d.of), value: w.money(d.value) },
  }),
  goods_minimum: (d) => ({
    key: 'minimumSet',
    params: { code: str(d.code), minimum: formatQuantity(num(d.minimumMilli)) },
  }),
};

/** Does the till's audit have a sentence of its own for this action (not the generic one)? */
export function hasTillSentence(action: string): boolean {
  if (Object.hasOwn(TILL_RULES, action)) return true;
  return Object.keys(TILL_PREFIX_RULES).some((p) => action.startsWith(p) && action.length > p.length);
}

/** Does the hub's audit have a sentence of its own for this action? */
export function hasHubSentence(action: string): boolean {
  return Object.hasOwn(HUB_RULES, action);
}

/** Has this command words of its own (for `approved.<command>`, a refusal or a wrong PIN)? */
export function hasCommandWords(command: string): boolean {
  return Object.hasOwn(COMMAND_WORDS['sr-Cyrl'], command);
}

/** An entry's detail as stored (JSON text at the till, an object at the hub); {} for anything else. */
function detailOf(detail: unknown): Detail {
  if (typeof detail === 'string') {
    try {
      return detailOf(JSON.parse(detail) as unknown);
    } catch {
      return {};
    }
  }
  return detail && typeof detail === 'object' && !Array.isArray(detail) ? (detail as Detail) : {};
}

function words(lang: Language, actor: string | null): Words {
  const text = (key: AuditKey): string => AUDIT_TEXT[lang][key];
  return {
    lang,
    text,
    money: (v) => `${formatRsd(num(v))} ${text('currency')}`,
    // A day (`2026-11-25`) is written as the language writes days; a moment in the shop's time zone.
    moment: (v) => {
      const s = str(v);
      if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return formatMoment(`${s}T12:00:00Z`, lang).replace(/,?\s*\d{2}:\d{2}$/, '');
      return formatMoment(typeof v === 'number' ? v : s, lang) || s;
    },
    command: (v) => COMMAND_WORDS[lang][str(v)] ?? text('reasonOther'),
    who: actor ?? text('someone'),
  };
}

function say(lang: Language, said: Said): string {
  // The one fill function (catalog.ts `interpolate`); a detail the entry lacks reads „—“, not nothing.
  const params = Object.fromEntries(
    placeholders(AUDIT_TEXT[lang][said.key]).map((name) => {
      const v = said.params?.[name];
      return [name, v === undefined || v === '' ? '—' : v];
    }),
  );
  return interpolate(AUDIT_TEXT[lang][said.key], params);
}

/** A till audit entry (`audit_log`) as one sentence in `lang`. */
export function tillAuditSentence(
  lang: Language,
  entry: { action: string; actor: string | null; detail: unknown },
): string {
  const d = detailOf(entry.detail);
  const w = words(lang, entry.actor);
  const rule = Object.hasOwn(TILL_RULES, entry.action) ? TILL_RULES[entry.action] : undefined;
  if (rule) return say(lang, rule(d, w));
  for (const [prefix, prefixed] of Object.entries(TILL_PREFIX_RULES))
    if (entry.action.startsWith(prefix)) return say(lang, prefixed(entry.action.slice(prefix.length), d, w));
  return say(lang, { key: 'other' });
}

/** A hub audit entry (`hub_audit`) as one sentence in `lang`; the admin token's actor is the chain's administrator. */
export function hubAuditSentence(
  lang: Language,
  entry: { action: string; actor: string | null; detail: unknown },
): string {
  const actor = entry.actor === 'admin' ? AUDIT_TEXT[lang].chainAdmin : entry.actor;
  const rule = Object.hasOwn(HUB_RULES, entry.action) ? HUB_RULES[entry.action] : undefined;
  return say(lang, rule ? rule(detailOf(entry.detail), words(lang, actor)) : { key: 'other' });
}

/** The person an entry names as actor or approver, in words (the hub's admin token, nobody). */
export function auditPerson(lang: Language, name: string | null): string {
  if (name === null || name === '') return '—';
  return name === 'admin' ? AUDIT_TEXT[lang].chainAdmin : name;
}
