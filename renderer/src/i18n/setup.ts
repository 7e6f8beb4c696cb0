/**
 * The first-run setup flow's texts (renderer/src/components/SetupFlow.tsx), in the counter's catalog format,
 * merged into the counter's namespace under `setup`.
 */
import type { Catalog } from '../../../shared/i18n/catalog.ts';

const srCyrl = {
  setup: {
    title: 'Подешавање нове касе',
    progress: 'Корак {step} од {count}',
    steps: 'Кораци подешавања',
    back: 'Назад',
    next: 'Даље',
    skipAll: 'Подеси касније',
    skipAllHint: 'Све се подешава и касније, у Менаџеру.',
    stepShop: 'Радња',
    stepLanguage: 'Језик',
    stepPrinter: 'Штампач',
    stepCatalog: 'Артикли',
    stepDone: 'Готово',
    shopIntro:
      'Како се зову радња и каса, и ко је менаџер. Касније: Менаџер → Подешавања (радња и каса), Менаџер → Особље (име).',
    shopName: 'Назив радње',
    tillName: 'Назив касе',
    managerName: 'Име менаџера',
    managerHint: 'Ваше име у дневнику и на пријави (сада „Менаџер“).',
    saved: 'Сачувано.',
    languageIntro: 'Језик екрана касе. Касније: Језик у траци статуса или Менаџер → Подешавања.',
    language: 'Језик касе',
    printerIntro:
      'Штампач за рачуне: изаберите инсталирани или упишите адресу, па одштампајте пробну страну. Касније: Менаџер → Подешавања → Штампач.',
    installed: 'Инсталирани штампач',
    installedChoose: 'Изаберите…',
    installedNone: 'Систем нема инсталираних штампача: упишите адресу.',
    address: 'Адреса штампача',
    addressHint: 'Мрежни: 192.168.1.50:9100; USB: /dev/usb/lp0, cups://RED или winspool://Име',
    header: 'Назив радње у заглављу рачуна',
    saveTest: 'Сачувај и одштампај пробну страну',
    testQueued: 'Пробна страна је послата штампачу (посао {job}). Ако није изашла, проверите адресу.',
    none: 'Без штампача за сада',
    noneChosen: 'Каса ради без штампача: рачун се не штампа, а статус показује „Нема штампача“.',
    catalogIntro:
      'Артикли за продају: пример каталога за пробу, ваши артикли из CSV датотеке, или један по један на екрану Каталог (F8).',
    sample: 'Учитај пример каталога',
    sampleDone: 'Пример каталога је учитан: {count|артикал|артикла|артикала}.',
    catalogScreen: 'Увоз CSV и додавање артикала (екран Каталог)',
    later: 'Артикли касније',
    doneIntro: 'Каса је спремна за продају.',
    demo: 'Каса ради у демо режиму: рачуни нису правни документи. API кључ фискалног сервиса уносите када га добијете: Менаџер → Подешавања → Налог фискалног сервиса.',
    changeLater:
      'Све из овог подешавања мења се касније у Менаџеру: називи, језик и штампач у Подешавања, име и PIN у Особље; артикли на екрану Каталог (F8).',
    start: 'Почни продају',
  },
};

const srLatn: typeof srCyrl = {
  setup: {
    title: 'Podešavanje nove kase',
    progress: 'Korak {step} od {count}',
    steps: 'Koraci podešavanja',
    back: 'Nazad',
    next: 'Dalje',
    skipAll: 'Podesi kasnije',
    skipAllHint: 'Sve se podešava i kasnije, u Menadžeru.',
    stepShop: 'Radnja',
    stepLanguage: 'Jezik',
    stepPrinter: 'Štampač',
    stepCatalog: 'Artikli',
    stepDone: 'Gotovo',
    shopIntro:
      'Kako se zovu radnja i kasa, i ko je menadžer. Kasnije: Menadžer → Podešavanja (radnja i kasa), Menadžer → Osoblje (ime).',
    shopName: 'Naziv radnje',
    tillName: 'Naziv kase',
    managerName: 'Ime menadžera',
    managerHint: 'Vaše ime u dnevniku i na prijavi (sada „Menadžer“).',
    saved: 'Sačuvano.',
    languageIntro: 'Jezik ekrana kase. Kasnije: Jezik u traci statusa ili Menadžer → Podešavanja.',
    language: 'Jezik kase',
    printerIntro:
      'Štampač za račune: izaberite instalirani ili upišite adresu, pa odštampajte probnu stranu. Kasnije: Menadžer → Podešavanja → Štampač.',
    installed: 'Instalirani štampač',
    installedChoose: 'Izaberite…',
    installedNone: 'Sistem nema instaliranih štampača: upišite adresu.',
    address: 'Adresa štampača',
    addressHint: 'Mrežni: 192.168.1.50:9100; USB: /dev/usb/lp0, cups://RED ili winspool://Ime',
    header: 'Naziv radnje u zaglavlju računa',
    saveTest: 'Sačuvaj i odštampaj probnu stranu',
    testQueued: 'Probna strana je poslata štampaču (posao {job}). Ako nije izašla, proverite adresu.',
    none: 'Bez štampača za sada',
    noneChosen: 'Kasa radi bez štampača: račun se ne štampa, a status pokazuje „Nema štampača“.',
    catalogIntro:
      'Artikli za prodaju: primer kataloga za probu, vaši artikli iz CSV datoteke, ili jedan po jedan na ekranu Katalog (F8).',
    sample: 'Učitaj primer kataloga',
    sampleDone: 'Primer kataloga je učitan: {count|artikal|artikla|artikala}.',
    catalogScreen: 'Uvoz CSV i dodavanje artikala (ekran Katalog)',
    later: 'Artikli kasnije',
    doneIntro: 'Kasa je spremna za prodaju.',
    demo: 'Kasa radi u demo režimu: računi nisu pravni dokumenti. API ključ fiskalnog servisa unosite kada ga dobijete: Menadžer → Podešavanja → Nalog fiskalnog servisa.',
    changeLater:
      'Sve iz ovog podešavanja menja se kasnije u Menadžeru: nazivi, jezik i štampač u Podešavanja, ime i PIN u Osoblje; artikli na ekranu Katalog (F8).',
    start: 'Počni prodaju',
  },
};

const en: typeof srCyrl = {
  setup: {
    title: 'Setting up a new till',
    progress: 'Step {step} of {count}',
    steps: 'Setup steps',
    back: 'Back',
    next: 'Next',
    skipAll: 'Set up later',
    skipAllHint: 'Everything can be set up later, in Manager.',
    stepShop: 'Shop',
    stepLanguage: 'Language',
    stepPrinter: 'Printer',
    stepCatalog: 'Products',
    stepDone: 'Done',
    shopIntro:
      'What the shop and the till are called, and who the manager is. Later: Manager → Settings (shop and till), Manager → Staff (name).',
    shopName: 'Shop name',
    tillName: 'Till name',
    managerName: 'Manager’s name',
    managerHint: 'Your name in the audit log and at login (now „Manager“).',
    saved: 'Saved.',
    languageIntro: 'The language of the till’s screens. Later: Language in the status bar or Manager → Settings.',
    language: 'Till language',
    printerIntro:
      'The receipt printer: choose an installed one or type its address, then print a test page. Later: Manager → Settings → Printer.',
    installed: 'Installed printer',
    installedChoose: 'Choose…',
    installedNone: 'The system has no installed printers: type the address.',
    address: 'Printer address',
    addressHint: 'Network: 192.168.1.50:9100; USB: /dev/usb/lp0, cups://QUEUE or winspool://Name',
    header: 'Shop name in the receipt header',
    saveTest: 'Save and print a test page',
    testQueued: 'The test page was sent to the printer (job {job}). If nothing came out, check the address.',
    none: 'No printer for now',
    noneChosen: 'The till works without a printer: receipts are not printed and the status bar shows “No printer”.',
    catalogIntro:
      'Products to sell: the sample catalog to try things out, your products from a CSV file, or one by one in the Catalog screen (F8).',
    sample: 'Load the sample catalog',
    sampleDone: 'The sample catalog is loaded: {count|product|products}.',
    catalogScreen: 'Import a CSV or add products (Catalog screen)',
    later: 'Products later',
    doneIntro: 'The till is ready to sell.',
    demo: 'The till works in demo mode: receipts are not legal documents. Enter the fiscal service’s API key when you have it: Manager → Settings → Fiscal service account.',
    changeLater:
      'Everything in this setup can be changed later in Manager: names, language and printer in Settings, name and PIN in Staff; products in the Catalog screen (F8).',
    start: 'Start selling',
  },
};

/** The setup flow's texts per language. */
export const setupMessages: Catalog<typeof srCyrl> = { 'sr-Cyrl': srCyrl, 'sr-Latn': srLatn, en };
