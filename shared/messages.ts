/**
 * Messages the core returns to people (validation and command errors), in the three UI languages: a catalog
 * in the app's one message format (shared/i18n/catalog.ts says how to add one). Keys double as zod custom
 * error messages in shared/contract/schemas.ts.
 */
import type { Language } from './domain.ts';
import { interpolate, lookup, type Catalog, type Params, type Shape } from './i18n/catalog.ts';
import { formatMoment, ISO_MOMENT } from './i18n/time.ts';

const SR_CYRL = {
  parked_taken_elsewhere: 'Ову паркирану продају је већ преузела друга каса.',
  printer_uri:
    'Адреса штампача у пољу „{field}“ мора бити мрежна адреса (192.168.1.50:9100 или tcp://адреса:порт), winspool://име, cups://ред или уређај штампача (/dev/usb/lp0).',
  backup_unusable: 'Резервна копија „{field}“ не може да се врати: {reason}.',
  backup_folder_relative: 'У пољу „{field}“ упишите целу путању фасцикле (на пример /media/usb или E:\\Копије).',
  backup_folder_missing: 'Фасцикла из поља „{field}“ не постоји на овој каси.',
  backup_folder_readonly: 'У фасциклу из поља „{field}“ не може да се пише (погледајте да ли је USB откључан).',
  backup_file_exists: 'У фасцикли из поља „{field}“ већ постоји датотека {file}: копија се не пише преко ње.',
  backup_copy_failed:
    'Резервна копија није копирана до краја (да ли је диск пун или извађен?); ништа није остало упола.',
  backup_missing: 'Резервна копија {name} више не постоји на овој каси.',
  backup_not_now: 'Резервна копија се сада не прави: провера исправности базе нашла је проблеме.',
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
  buyer_id: 'ИД купца у пољу „{field}“ мора бити шифра врсте и број, нпр. 10:ПИБ или 20:број личне карте.',
  email: 'Поље „{field}“ мора бити исправна е-адреса.',
  payment_type: 'Непознат начин плаћања у пољу „{field}“.',
  invoice_type: 'Непозната врста рачуна у пољу „{field}“.',
  labels: 'Ставка мора имати бар једну пореску ознаку ({field}).',
  lines: 'Рачун мора имати бар једну ставку.',
  payments: 'Рачун мора имати бар једно плаћање.',
  gtin: 'GTIN у пољу „{field}“ мора имати 8 до 14 цифара.',
  unknown_field: 'Поље „{field}“ није дозвољено.',
  cashier_from_session:
    'Поље „{field}“ се не шаље: на сваком рачуну је касир особа пријављена на каси, коју одређује каса.',
  invalid: 'Поље „{field}“ није исправно.',
  payments_short: 'Плаћено је мање од укупног износа ({due} RSD).',
  change_non_cash: 'Кусур се може вратити само на готовину; безготовинска плаћања прелазе укупан износ.',
  label_unknown: 'Пореска ознака „{label}“ није у важећим пореским стопама.',
  /** The name a new till gives its first manager, until the manager writes their own (the setup flow). */
  default_manager_name: 'Менаџер',
  catalog_hub_owned:
    'Каталогом ове продавнице управља хаб продавнице: производи се додају, мењају и бришу на хабу, не на каси.',
  gtin_check: 'Бар-код „{value}“ у пољу „{field}“ нема исправну контролну цифру.',
  barcode_taken: 'Бар-код „{value}“ у пољу „{field}“ већ припада производу „{other}“.',
  product_code_taken: 'Шифра „{value}“ у пољу „{field}“ већ припада производу „{other}“.',
  label_not_current: 'Пореска ознака „{value}“ у пољу „{field}“ није међу важећим пореским ознакама ({labels}).',
  group_unknown: 'Група „{value}“ у пољу „{field}“ нема ниједан производ.',
  hub_no_catalog_choice: 'Нема избора каталога који чека: каса је већ усклађена са хабом.',
  hub_needed:
    'Промена особља на каси повезаној са хабом иде преко хаба, а хаб сада није доступан: покушајте кад хаб буде доступан.',
  hub_pin_not_manager: 'PIN у пољу „{field}“ није PIN активног менаџера ове продавнице на хабу.',
  hub_no_staff_choice: 'Нема избора особља који чека: особље касе је већ усклађено са хабом.',
  hub_staff_choice_missing: 'За особу „{value}“ (поље „{field}“) изаберите особу хаба или „додај као нову“.',
  hub_staff_choice_twice: 'Особа хаба у пољу „{field}“ је већ изабрана за другу особу касе.',
  percent_range: 'Проценат у пољу „{field}“ мора бити између −100 и +1000 и не нула (нпр. 5 или −2,5).',
  discount_too_big: 'Попуст у пољу „{field}“ је већи од износа ставке.',
  printer_not_configured: 'Штампач није подешен — Менаџер → Подешавања → Штампач',
  shift_required:
    'Продаја, рефундација и аванс нису могући без отворене смене: отворите смену (почетни депозит у каси).',
  shift_already_open: 'Смена је већ отворена: затворите је пре него што отворите нову.',
  shift_not_open: 'Нема отворене смене.',
  beyond_drawer: 'Подизање је веће од стања у каси ({drawer} RSD).',
  count_mismatch: 'Апоени у пољу „{field}“ дају {sum} RSD, а не избројани износ.',
  denomination: 'Непознат апоен у пољу „{field}“.',
  kind: 'Непозната врста у пољу „{field}“.',
  action: 'Непозната радња у пољу „{field}“.',
  tax_rates_missing: 'Пореске стопе још нису преузете са фискалног сервиса. Повежите се на интернет.',
  not_found: 'Није пронађено.',
  order_not_found: 'Поруџбина {id} не постоји.',
  sef_not_business_buyer: 'Е-фактура се издаје само купцу са ПИБ-ом (10:) или кориснику јавних средстава (12:).',
  sef_not_issuable: 'За овај рачун (обука, копија или предрачун) се не издаје е-фактура.',
  sef_not_fiscalized: 'Е-фактура се издаје тек кад је фискални рачун издат.',
  sef_not_set_up: 'СЕФ није подешен на овој каси.',
  sef_document_not_found: 'Е-фактура {id} не постоји.',
  sef_not_retryable: 'Ова е-фактура је већ на СЕФ-у: не шаље се поново.',
  sef_not_cancellable: 'Ова е-фактура се сада не може отказати ни сторнирати.',
  sef_refused: 'СЕФ је одбио: {reason}',
  sef_unreachable: 'СЕФ се не јавља. Покушајте поново мало касније.',
  sef_no_seller: 'Упишите ПИБ и назив продавца у подешавањима СЕФ-а.',
  sef_label_unmapped: 'Пореска ознака {label} нема категорију ПДВ-а за СЕФ: изаберите је у подешавањима СЕФ-а.',
  sef_no_original: 'Књижно одобрење тражи е-фактуру продаје коју исправља, а она не постоји на СЕФ-у.',
  sef_environment: 'Поље „{field}“ мора бити демо или продукција.',
  sef_registration_number: 'Матични број у пољу „{field}“ има 8 цифара.',
  sef_category: 'Поље „{field}“ мора бити категорија ПДВ-а са СЕФ-а (AE, E, Z, O, SS).',
  sef_key: 'API кључ СЕФ-а у пољу „{field}“ је прекратак.',
  sef_incoming_not_xml: 'Улазна фактура није исправан XML.',
  sef_incoming_not_invoice: 'Улазни документ није фактура.',
  sef_incoming_pib: 'ПИБ добављача {pib} у улазној фактури није исправан.',
  sef_incoming_no_number: 'Улазна фактура нема број или датум.',
  sef_incoming_line: 'Ставка {line} улазне фактуре нема количину или износ.',
  not_needs_attention: 'Поруџбина {id} не чека исправку.',
  offline_sales_refused:
    'Продаја није могућа: нема везе са фискалним сервисом ни са локалним ПФР-ом, а радња је подесила да се без фискалног рачуна не продаје (Менаџер → Подешавања). Ништа није сачувано.',
  late_not_issued: 'Фискални рачун поруџбине {id} још није издат: штампа се сам чим буде издат.',
  journal_unavailable:
    'Рачун поруџбине {id} је фискализован, али фискални сервис још није послао његов журнал: одштампајте га касније из архиве.',
  not_receipt_mismatch: 'Поруџбина {id} није заустављена због туђег рачуна, па се не издаје под новим бројем.',
  not_lpfr_unproven: 'Поруџбина {id} није заустављена због Л-ПФР-а који не зна да ли ју је потписао.',
  journal_checked: 'Потврдите да сте у журналу Л-ПФР-а проверили да рачуна ове продаје нема.',
  esir_id: 'ИБ са решења о одобрењу ЕСИР-а: само цифре, нпр. 1060.',
  paid_on_not_transfer: 'Датум уплате се уноси само за аванс плаћен преносом на рачун.',
  paid_on_future: 'Датум уплате не може бити у будућности.',
  paid_on_too_old:
    'Датум уплате може бити највише {days|дан|дана|дана} уназад: аванс уплаћен преносом издаје се најкасније наредног радног дана.',
  esir_version: 'Верзија ЕСИР-а са решења: бројеви раздвојени тачком, нпр. 1.2.',
  storage: 'Продаја НИЈЕ сачувана: база података не може да се упише ({reason}). Ништа раније сачувано није изгубљено.',
  clock_drift:
    'Сат касе се разликује од времена фискалног сервиса за {minutes} мин. Подесите датум и време на рачунару.',
  clock_drift_lpfr:
    'Сат касе се разликује од времена локалног ПФР-а за {minutes} мин. Подесите датум и време на рачунару (или на локалном ПФР-у).',
  internal: 'Унутрашња грешка. Покушајте поново.',
  unknown_command: 'Непозната команда „{field}“.',
  unauthorized: 'Недостаје или је погрешан приступни токен.',
  body_json: 'Тело захтева мора бити исправан JSON.',
  pin_format: 'PIN у пољу „{field}“ мора имати 4 до 8 цифара.',
  date: 'Поље „{field}“ мора бити исправан датум.',
  buyer_required: 'Унесите ИД купца или означите да купац нема ИД.',
  phone: 'Поље „{field}“ мора бити број телефона.',
  terminal_id: 'Ознака касе може имати само слова и цифре, до 12 знакова.',
  ips_account: 'Рачун у пољу „{field}“ пише се као 840-955845-10 или 18 цифара (банка 3, рачун 13, контролни број 2).',
  ips_account_check:
    'Рачун у пољу „{field}“ нема исправан контролни број (последње две цифре): проверите да ли је тачно преписан.',
  ips_text: 'Поље „{field}“ може имати само један ред, без знака „|“.',
  ips_reference: 'Позив на број у пољу „{field}“ није исправан (модел 97: контролни број не одговара).',
  ips_not_configured: 'ИПС плаћање није подешено — Менаџер → Подешавања → ИПС плаћање (рачун и назив продавнице).',
  ips_payment_missing: 'Уз позив на број ИПС уплате („{field}“) продаја мора имати ИПС (инстант) плаћање.',
  url: 'Поље „{field}“ мора бити исправна адреса (https://…).',
  pin_wrong: 'Погрешан PIN ({field}).',
  pin_hub_away: 'Хаб продавнице се није јавио на време да провери PIN ({field}): покушајте поново за тренутак.',
  pin_not_manager: 'Потребно је одобрење менаџера: PIN у пољу „{field}“ припада касиру.',
  pin_locked: 'Превише погрешних PIN-ова. Унос PIN-а је закључан до {until}.',
  session_required: 'Пријавите се PIN-ом пре ове радње.',
  approval_required: 'Потребно је одобрење менаџера за ову радњу: унесите PIN менаџера.',
  approval_required_discount:
    'Потребно је одобрење менаџера: попуст на ставци „{name}“ је већи од {limit} % њеног износа. Унесите PIN менаџера.',
  approval_required_sale_discount:
    'Потребно је одобрење менаџера: попуст на целу продају је већи од дозвољених {limit} %. Унесите PIN менаџера.',
  approval_required_unfiscalized:
    'Потребно је одобрење менаџера: без интернета рачуни се не фискализују већ дуже од {hours} h, а купац за готовину одлази без фискалног рачуна. Унесите PIN менаџера.',
  approval_required_price:
    'Потребно је одобрење менаџера: цена ставке „{name}“ није цена из каталога. Унесите PIN менаџера.',
  pin_must_change: 'Почетни PIN 0000 мора прво да се промени (Менаџер → Особље → Промена PIN-а).',
  training_off: 'Рачун за обуку је могућ само док је укључен режим обуке ({field}).',
  printer_address_forbidden:
    'Адреса штампача у пољу „{field}“ није дозвољена: то је адреса самог рачунара или адреса коју мрежа додељује сама себи, не адреса штампача.',
  printable_only: 'Поље „{field}“ сме садржати само знакове за штампу.',
  pin_weak: 'Нови PIN не сме бити 0000 ни већ заузет.',
  pin_trivial:
    'PIN менаџера у пољу „{field}“ је лако погодити: не сме бити иста цифра више пута, низ као 1234 или 4321, ни 0000.',
  staff_not_found: 'Особа {id} не постоји.',
  last_manager:
    'Последњи активни менаџер не може бити искључен нити остати без улоге менаџера ({field}): прво додајте или укључите другог менаџера.',
  staff_self:
    'Менаџер не може сам себе да искључи нити да себи одузме улогу менаџера ({field}): то ради други менаџер.',
  staff_inactive: 'Ова особа је искључена и не може да се пријави. Обратите се менаџеру.',
  staff_name_taken: 'Име „{value}“ у пољу „{field}“ већ има друга особа.',
  name_invisible:
    'Име у пољу „{field}“ садржи невидљив знак (размак нулте ширине, ознаку смера …). Откуцајте га поново.',
  name_mixed_script: 'Реч имена у пољу „{field}“ меша ћирилична и латинична слова. Откуцајте је једним писмом.',
  name_lookalike: 'Име у пољу „{field}“ изгледа исто као име особе „{other}“. Изаберите име које се разликује.',
  needs_online: 'За ову радњу потребна је веза са фискалним сервисом.',
  refund_too_much: 'Поврат у пољу „{field}“ је већи од преосталог ({remaining}) за ставку „{name}“.',
  refund_line_unknown: 'Ставка у пољу „{field}“ не постоји на оригиналном рачуну.',
  refund_not_refundable: 'Рачун {id} не може да се рефундира ({reason}).',
  refund_full_after_partial: 'Део рачуна је већ враћен; пун поврат није могућ ({field}). Изаберите ставке.',
  refund_archive_partial: 'Рачун није у овој каси: делимичан поврат није могућ, само пун ({field}).',
  refund_taken_elsewhere:
    'Друга каса управо враћа или је вратила ову ставку: за „{name}“ преостало је {remaining} ({field}).',
  refund_full_taken_elsewhere:
    'Друга каса управо враћа део овог рачуна; пун поврат није могућ ({field}). Изаберите ставке.',
  invoice_not_found: 'Рачун „{invoice}“ не постоји ({field}).',
  advance_not_open: 'Аванс {id} није отворен за коначни рачун.',
  copy_not_allowed: 'Копија је могућа само за фискални рачун продаје (поруџбина {id}).',
  email_not_possible: 'Рачун {id} не може да се пошаље е-поштом ({reason}).',
  api_key_invalid: 'API кључ није исправан.',
  api_key_forbidden: 'API кључ нема приступ продавници.',
  gateway_unreachable: 'Фискални сервис није доступан: {reason}',
  hub_enrol_refused: 'Хаб продавнице је одбио упис ({field}): {reason}',
  hub_unreachable: 'Хаб продавнице није доступан: {reason}',
  hub_code_unknown: 'хаб не познаје овај код за упис',
  hub_code_used: 'овај код за упис је већ искоришћен',
  hub_code_expired: 'код за упис је истекао; затражите нови на хабу',
  hub_till_name_taken: 'друга каса ове продавнице на хабу већ има овај назив: дајте каси други назив',
  hub_till_name_reserved: 'овај назив касе је резервисан на хабу: дајте каси други назив',
  hub_catalog_refused:
    'Хаб није прихватио каталог ове касе: сваки производ мора имати важећу пореску ознаку продавнице, цену већу од нуле и исправне бар-кодове које нема други производ.',
  hub_refused: 'хаб није прихватио захтев',
  hub_no_answer: 'хаб не одговара на тој адреси',
  hub_already_enrolled: 'Ова каса је већ уписана у хаб (каса {id}).',
  hub_not_enrolled: 'Ова каса није уписана у хаб: прво је упишите.',
  hub_fingerprint:
    'Поље „{field}“ мора бити SHA-256 отисак сертификата хаба: 64 хексадекадна знака (0–9, A–F), као што их хаб приказује.',
  hub_fingerprint_required: 'Унесите отисак сертификата хаба ({field}): хаб га приказује уз код за упис.',
  hub_plain_http: 'Адреса хаба почиње са https:// ({field}); без шифровања само хаб на овом рачунару (127.0.0.1).',
  hub_pin_mismatch:
    'Хаб на овој адреси има други сертификат (отисак {seen}), не онај који је унет: ништа му није послато. Упоредите отисак са екраном хаба.',
  // money (archive-only full refunds)
  refund_archive_no_items: 'Рачун {id} у архиви нема ни ставке ни порески преглед: пун поврат се не може саставити.',
  // buyer IDs
  buyer_id_type:
    'Непозната врста ИД купца у пољу „{field}“: дозвољене шифре Пореске управе су 10–16, 20–23, 30–35 и 40.',
  buyer_id_pib: 'ИД купца у пољу „{field}“: после шифре следи исправан ПИБ (9 цифара, последња је контролна).',
  buyer_id_jmbg: 'ИД купца у пољу „{field}“: после шифре следи исправан ЈМБГ (13 цифара, последња је контролна).',
  buyer_id_pib_jbkjs:
    'ИД купца у пољу „{field}“: шифра 12 тражи ПИБ:ЈБКЈС (исправан ПИБ од 9 цифара, двотачка, ЈБКЈС од 5 цифара).',
  buyer_id_digits9: 'ИД купца у пољу „{field}“: број личне карте или пасоша има тачно 9 цифара.',
  buyer_id_digits12: 'ИД купца у пољу „{field}“: БПГ има тачно 12 цифара.',
  buyer_id_digits13: 'ИД купца у пољу „{field}“: ЕБС има тачно 13 цифара.',
  buyer_id_document:
    'ИД купца у пољу „{field}“: број документа су велика слова и цифре (бар једна цифра), до 17 знакова.',
  buyer_id_foreign_tin:
    'ИД купца у пољу „{field}“: страни порески број су велика слова, цифре и цртице (бар једна цифра), до 17 знакова.',
  buyer_skip_not_allowed: 'Повраћај без ИД купца није дозвољен у подешавањима ({field}): унесите ИД купца.',
  buyer_correction_pib: 'Исправка без повраћаја новца носи ПИБ продавца {pib} као ИД купца ({field}).',
  seller_pib_unknown:
    'ПИБ продавца још није познат (нема издатог рачуна): исправка без повраћаја новца није могућа ({field}).',
  // advances
  training_advance:
    'Режим обуке је укључен: аванс и коначни рачун не постоје као рачун за обуку, па нису дозвољени ({field}).',
  training_refund_real:
    'Режим обуке је укључен: поврат фискалног рачуна {id} није дозвољен, само рачуна за обуку ({field}).',
  training_copy_real: 'Режим обуке је укључен: копија фискалног рачуна {id} није дозвољена ({field}).',
  advance_refunded:
    'Аванс {id} је делимично или потпуно враћен: није отворен ни за нови аванс ни за коначни рачун ({field}).',
  advance_finalized: 'Аванс {id} је већ затворен коначним рачуном ({field}).',
  advance_chained: 'На аванс {id} надовезан је нови аванс: користите последњи аванс у низу ({field}).',
  advance_parked: 'Аванс {id} чека проверу и није отворен ({field}).',
  refund_advance_finalized:
    'Аванс {id} је затворен коначним рачуном {final}: аванс се више не враћа; вратите коначни рачун ({field}).',
  finalize_below_advance: 'Коначни рачун ({total}) мањи је од плаћених аванса ({advance}) ({field}).',
  finalize_payment_rest: 'Плаћање остатка мора износити тачно {rest} ({field}).',
  advance_payment_exact: 'Плаћање аванса мора износити тачно {due} ({field}).',
  refund_advance_other_till:
    'Аванс {id} је издат на другој каси: враћа се на тој каси, где се види да ли је затворен ({field}).',
  // receipt verification
  reissue_own_receipt:
    'Рачун {invoice} под бројем {order} је рачун ове продаје (потврђено упитом и архивом фискалног сервиса): продаја је фискализована њиме и не издаје се поново.',
  reissue_unconfirmed:
    'Није потврђено да рачун под бројем {order} припада другој продаји ({reason}). Нови рачун се не издаје док упит и архива фискалног сервиса то не потврде; покушајте поново кад сервис буде доступан.',
  held_gone: 'Ови задржани послови су већ одштампани или одбачени. Освежите списак.',
  lpfr_unreachable: 'Локални ПФР се не јавља на тој адреси: проверите адресу и да ли је уређај укључен.',
  lpfr_card_absent: 'У локалном ПФР-у нема паметне картице: уметните картицу безбедносног елемента.',
  lpfr_pin_format: 'ПИН безбедносног елемента има тачно 4 цифре.',
  lpfr_pin_wrong: 'Погрешан ПИН безбедносног елемента. После 5 погрешних покушаја картица се трајно закључава.',
  lpfr_pin_needed: 'Картица у локалном ПФР-у тражи ПИН: унесите ПИН безбедносног елемента.',
  lpfr_card_locked: 'Картица безбедносног елемента је закључана после погрешних ПИН-ова и враћа се Пореској управи.',
  lpfr_refused: 'Локални ПФР не може сада да потписује рачуне: {reason}.',
  pib_format: 'ПИБ у пољу „{field}“ има тачно 9 цифара.',
  pib_check: 'ПИБ у пољу „{field}“ није исправан: контролна цифра (последња) се не слаже. Проверите број.',
  bank_account: 'Текући рачун у пољу „{field}“ пишите као 160-0000000012345-67 (банка, број, контролни број).',
  margin_or_retail: 'Унесите или маржу или малопродајну цену ({field}), не обе.',
  date_order: 'Датум у пољу „{field}“ не сме бити пре почетног датума.',
  goods_percent_range: 'Проценат у пољу „{field}“ није у дозвољеном опсегу.',
  goods_pib_taken: 'Добављач са ПИБ-ом {value} већ постоји: „{other}“ ({field}).',
  goods_supplier_not_found: 'Тај добављач не постоји ({field}). Изаберите га са списка.',
  goods_receipt_not_found: 'Пријемница бр. {id} не постоји.',
  goods_receipt_posted: 'Пријемница је већ прокњижена: мења се само сторнирањем.',
  goods_not_reversible: 'Сторнира се само прокњижена пријемница, једном.',
  goods_invoice_taken: 'Рачун „{value}“ овог добављача је већ примљен ({field}).',
  goods_new_product: 'Шифра није у каталогу: за нов артикал унесите назив, пореску ознаку и јединицу мере ({field}).',
  goods_product_label:
    'Артикал има пореску ознаку „{value}“ које нема међу важећим стопама ({labels}): исправите артикал у каталогу ({field}).',
  goods_below_purchase:
    'Малопродајна цена за „{name}“ је испод набавне ({field}). Проверите цену или потврдите да је тако.',
  goods_hub_catalog: 'Каталогом управља сервер продавнице: нов артикал или цену унесите тамо ({field}).',
  goods_unknown_product: 'Артикал са шифром „{value}“ не постоји ({field}).',
  goods_document_not_found: 'Тај документ не постоји (бр. {id}).',
  goods_count_not_found: 'Попис бр. {id} не постоји.',
  goods_count_open: 'Један попис је већ у току: прокњижите га или откажите пре новог.',
  goods_count_closed: 'Попис је већ закључен (прокњижен или отказан): уноси и књижење више нису могући.',
  goods_count_group: 'Група „{value}“ не постоји у каталогу ({field}).',
  goods_count_outside: 'Артикал „{value}“ није обухваћен овим пописом ({field}).',
  goods_csv_quantity: 'CSV, ред {row}, колона {column}: „{value}“ није количина (нула или више, највише три децимале).',
  goods_csv_cell: 'CSV, ред {row}, колона {column}: недостаје шифра артикла.',
  goods_csv_amount: 'CSV, ред {row}, колона {column}: „{value}“ није исправан износ.',
  goods_csv_outside: 'CSV, ред {row}, колона {column}: артикал „{value}“ није обухваћен овим пописом.',
  goods_csv_unknown: 'CSV, ред {row}, колона {column}: артикал са шифром „{value}“ не постоји.',
  goods_csv_empty: 'CSV датотека нема ниједан ред са шифром и количином ({field}).',
  goods_counted_below_zero:
    'Артикал „{name}“ је пописан, а на стању има {onHand}: продаја у минус за пописану робу није дозвољена ({field}).',
  prices_time: 'Време у пољу „{field}“ уписује се као СС:ММ (на пример 16:00).',
  prices_priority_range: 'Приоритет у пољу „{field}“ је цео број од 0 до 1000.',
  weekday: 'Дан у недељи у пољу „{field}“ је од 1 (понедељак) до 7 (недеља).',
  weekdays: 'Поље „{field}“ мора бити списак дана у недељи.',
  items: 'Поље „{field}“ мора бити списак артикала са ценама.',
  prices_scope: 'Непознато важење ценовника у пољу „{field}“ (продавница, ланац или купац).',
  prices_count_range: 'Број у пољу „{field}“ није у дозвољеном опсегу.',
  prices_kind: 'Непозната врста акције у пољу „{field}“.',
  prices_time_pair: 'Упишите и почетно и крајње време ({field}).',
  prices_time_empty: 'Крајње време у пољу „{field}“ мора бити различито од почетног.',
  prices_pib_scope: 'ПИБ купца ({field}) се уписује само за ценовник купца.',
  prices_list_empty: 'Ценовник нема ни цене артикала ни правило попуста ({field}).',
  prices_item_twice: 'Артикал „{value}“ је у ценовнику двапут ({field}).',
  prices_unknown_group: 'Група „{value}“ не постоји у каталогу ({field}).',
  prices_target: 'Акција важи за један артикал или за једну групу: изаберите тачно једно ({field}).',
  prices_pay_buy: 'У акцији „узми N, плати M“ плаћа се мање комада него што се узима ({field}).',
  prices_not_lower: 'Акцијска цена у пољу „{field}“ мора бити нижа од редовне цене.',
  prices_promotion_overlap:
    'У истом периоду на исти артикал већ важи акција „{other}“ истог приоритета: промените приоритет или период ({field}).',
  prices_at_past: 'Тренутак у пољу „{field}“ је већ прошао: нова цена се заказује унапред.',
  prices_same_price: 'Нова цена у пољу „{field}“ је иста као садашња.',
  prices_not_pending: 'Ова промена цене је већ примењена или отказана ({field}).',
  prices_promotion_31_days:
    'Акцијска продаја траје највише 31 дан (Закон о трговини, чл. 37): овај период има {days|дан|дана|дана} ({field}).',
  // #41 the bookkeeper's exports
  account_number: 'Конто у пољу „{field}“ пишите цифрама, од 3 до 10 (на пример 2430).',
  export_kind: 'Непозната врста извоза у пољу „{field}“.',
  export_day: 'Дан у пољу „{field}“ мора бити од 1 до 28.',
  export_folder: 'Фасцикла из поља „{field}“ не постоји на овој каси или се у њу не може писати.',
  labels_net_quantity:
    'Артикал „{name}“ нема нето количину, а етикета мора да покаже јединичну цену по кг или л ({field}): упишите нето количину или означите да јединична цена није потребна. Ништа није одштампано.',
  labels_size_unsupported:
    'Штампач „{preset}“ не подржава ову величину етикете ({field}): ширина од {minWidth} до {maxWidth} mm, висина од {minHeight} до {maxHeight} mm.',
  labels_does_not_fit: 'Етикета артикла „{name}“ не стаје у задату величину ({field}): повећајте етикету.',
  labels_no_printer: 'Штампач етикета није подешен — Менаџер → Етикете → Штампач етикета.',
  labels_nothing: 'Нема артикала за етикете ({field}).',
  labels_selection: 'Изаберите артикле, групу или „промењене од последње штампе“ ({field}).',
  labels_script: 'Етикета се штампа ћирилицом или латиницом ({field}).',
  labels_media: 'Етикете се раздвајају размаком или црном ознаком ({field}).',
  labels_net_unit: 'Нето количина се уписује у кг или л ({field}).',
  labels_net_pair: 'Упишите и нето количину и њену јединицу ({field}).',
  labels_unknown_preset: 'Непознат модел штампача етикета ({field}).',
  labels_unknown_stock: 'Непознат табак етикета ({field}).',
  labels_unknown_group: 'Нема групе „{value}“ ({field}).',
  labels_print_failed: 'Штампач етикета није примио етикете: {reason}. Ништа није забележено као одштампано.',
  prices_hub_owned:
    'Ценовнике, акције и заказане цене ове продавнице уређује хаб продавнице: мењају се на хабу (картица Цене), не на каси.',
  prices_where: 'Непознато место важења у пољу „{field}“ (продавница или ланац).',
  smtp_host: 'У поље „{field}“ се уписује име или адреса сервера за пошту (слова, бројеви, тачке, цртице).',
  port: 'Порт у пољу „{field}“ мора бити од 1 до 65535.',
  smtp_security: 'Непозната заштита везе у пољу „{field}“ (STARTTLS, TLS или без заштите).',
  mail_incomplete: 'За слање поште књиговођи упишите и сервер, и адресу пошиљаоца, и адресе књиговође ({field}).',
  mail_plain_password:
    'Лозинка се не шаље без заштите везе осим серверу на овој каси ({field}): изаберите STARTTLS или TLS.',
  label_refused:
    'Пореска управа не прима ознаку „{value}“ за овај налог (шифра 2310), иако је у пореским стопама: изаберите другу ({labels}).',
  goods_count_overlap: 'Попис бр. {number} исте робе је још у току: прокњижите га или откажите пре новог ({field}).',
  hub_goods_brought: 'Роба ове касе је већ пренета на хаб као почетно стање бр. {number}.',
  hub_goods_none: 'Књига ове касе нема робе на стању: нема шта да се пренесе на хаб.',
  hub_goods_shop_has_stock:
    'Продавница на хабу већ води робу (има промета у књизи): књига ове касе се не преноси, роба се уноси на хабу.',
  hub_goods_product_unknown:
    'Каталог продавнице на хабу нема неки артикал са стања ове касе: пошаљите каталог ове касе на хаб или додајте артикал на хабу.',
  hub_goods_supplier_unknown: 'Добављач није у регистру ({field}).',
  hub_goods_count_unknown: 'Тај попис не постоји на хабу продавнице ({field}).',
  hub_goods_below_purchase: 'Малопродајна цена је испод набавне ({field}): проверите цену или потврдите да је тако.',
  hub_goods_rate_unknown:
    'Хаб не зна стопу ПДВ пореске ознаке овог артикла: унесите малопродајну цену уместо марже ({field}).',
  hub_goods_other_till: 'Тај нацрт није унет на овој каси: каса мења само своје нацрте ({field}).',
  hub_goods_pin_paused: 'Превише погрешних PIN-ова на хабу: покушајте поново мало касније ({field}).',
  hub_goods_refused: 'Хаб продавнице није прихватио унос у пољу „{field}“.',
  hub_goods_no_hub: 'Ова каса није у мрежи продавнице.',
  hub_goods_not_sent: 'Хаб продавнице сада није доступан: нацрт чека на каси, а књижи се кад хаб буде доступан.',
  sef_advance_not_sent:
    'Коначна е-фактура умањује се за авансне е-фактуре: прво пошаљите на СЕФ е-фактуру аванса {number} ({field}).',
  prices_csv_empty: 'Датотека ({field}) нема ниједан ред са шифром и ценом. Ништа није увезено.',
  prices_csv_columns:
    'Ред {row}, колона {column} ({field}): ред има шифру или бар-код, цену и по жељи датуме од и до (2 до 4 колоне). Ништа није увезено.',
  prices_csv_code:
    'Ред {row}, колона {column} (шифра или бар-код; {field}): шифра је празна или дужа од 32 знака. Ништа није увезено.',
  prices_csv_price:
    'Ред {row}, колона {column} (цена; {field}): „{value}“ није цена (1.234,50 са „;“ или 1234.50 са „,“). Ништа није увезено.',
  prices_csv_day:
    'Ред {row}, колона {column} (датум; {field}): „{value}“ није датум (01.12.2026. или 2026-12-01). Ништа није увезено.',
  prices_csv_days_differ:
    'Ред {row}, колона {column} (датум; {field}): датуми од и до су датуми ценовника и морају бити исти у сваком реду. Ништа није увезено.',
  sef_from_hub: 'Е-фактуре ове продавнице шаље хаб продавнице: погледајте их на хабу, у Е-фактурама.',
};

const SR_LATN: Shape<typeof SR_CYRL> = {
  parked_taken_elsewhere: 'Ovu parkiranu prodaju je već preuzela druga kasa.',
  printer_uri:
    'Adresa štampača u polju „{field}“ mora biti mrežna adresa (192.168.1.50:9100 ili tcp://adresa:port), winspool://ime, cups://red ili uređaj štampača (/dev/usb/lp0).',
  backup_unusable: 'Rezervna kopija „{field}“ ne može da se vrati: {reason}.',
  backup_folder_relative: 'U polju „{field}“ upišite celu putanju fascikle (na primer /media/usb ili E:\\Kopije).',
  backup_folder_missing: 'Fascikla iz polja „{field}“ ne postoji na ovoj kasi.',
  backup_folder_readonly: 'U fasciklu iz polja „{field}“ ne može da se piše (pogledajte da li je USB otključan).',
  backup_file_exists: 'U fascikli iz polja „{field}“ već postoji datoteka {file}: kopija se ne piše preko nje.',
  backup_copy_failed:
    'Rezervna kopija nije kopirana do kraja (da li je disk pun ili izvađen?); ništa nije ostalo upola.',
  backup_missing: 'Rezervna kopija {name} više ne postoji na ovoj kasi.',
  backup_not_now: 'Rezervna kopija se sada ne pravi: provera ispravnosti baze našla je probleme.',
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
  buyer_id: 'ID kupca u polju „{field}“ mora biti šifra vrste i broj, npr. 10:PIB ili 20:broj lične karte.',
  email: 'Polje „{field}“ mora biti ispravna e-adresa.',
  payment_type: 'Nepoznat način plaćanja u polju „{field}“.',
  invoice_type: 'Nepoznata vrsta računa u polju „{field}“.',
  labels: 'Stavka mora imati bar jednu poresku oznaku ({field}).',
  lines: 'Račun mora imati bar jednu stavku.',
  payments: 'Račun mora imati bar jedno plaćanje.',
  gtin: 'GTIN u polju „{field}“ mora imati 8 do 14 cifara.',
  unknown_field: 'Polje „{field}“ nije dozvoljeno.',
  cashier_from_session:
    'Polje „{field}“ se ne šalje: na svakom računu je kasir osoba prijavljena na kasi, koju određuje kasa.',
  invalid: 'Polje „{field}“ nije ispravno.',
  payments_short: 'Plaćeno je manje od ukupnog iznosa ({due} RSD).',
  change_non_cash: 'Kusur se može vratiti samo na gotovinu; bezgotovinska plaćanja prelaze ukupan iznos.',
  label_unknown: 'Poreska oznaka „{label}“ nije u važećim poreskim stopama.',
  default_manager_name: 'Menadžer',
  catalog_hub_owned:
    'Katalogom ove prodavnice upravlja hab prodavnice: proizvodi se dodaju, menjaju i brišu na habu, ne na kasi.',
  gtin_check: 'Bar-kod „{value}“ u polju „{field}“ nema ispravnu kontrolnu cifru.',
  barcode_taken: 'Bar-kod „{value}“ u polju „{field}“ već pripada proizvodu „{other}“.',
  product_code_taken: 'Šifra „{value}“ u polju „{field}“ već pripada proizvodu „{other}“.',
  label_not_current: 'Poreska oznaka „{value}“ u polju „{field}“ nije među važećim poreskim oznakama ({labels}).',
  group_unknown: 'Grupa „{value}“ u polju „{field}“ nema nijedan proizvod.',
  hub_no_catalog_choice: 'Nema izbora kataloga koji čeka: kasa je već usklađena sa habom.',
  hub_needed:
    'Promena osoblja na kasi povezanoj sa habom ide preko haba, a hab sada nije dostupan: pokušajte kad hab bude dostupan.',
  hub_pin_not_manager: 'PIN u polju „{field}“ nije PIN aktivnog menadžera ove prodavnice na habu.',
  hub_no_staff_choice: 'Nema izbora osoblja koji čeka: osoblje kase je već usklađeno sa habom.',
  hub_staff_choice_missing: 'Za osobu „{value}“ (polje „{field}“) izaberite osobu haba ili „dodaj kao novu“.',
  hub_staff_choice_twice: 'Osoba haba u polju „{field}“ je već izabrana za drugu osobu kase.',
  percent_range: 'Procenat u polju „{field}“ mora biti između −100 i +1000 i ne nula (npr. 5 ili −2,5).',
  discount_too_big: 'Popust u polju „{field}“ je veći od iznosa stavke.',
  printer_not_configured: 'Štampač nije podešen — Menadžer → Podešavanja → Štampač',
  shift_required:
    'Prodaja, refundacija i avans nisu mogući bez otvorene smene: otvorite smenu (početni depozit u kasi).',
  shift_already_open: 'Smena je već otvorena: zatvorite je pre nego što otvorite novu.',
  shift_not_open: 'Nema otvorene smene.',
  beyond_drawer: 'Podizanje je veće od stanja u kasi ({drawer} RSD).',
  count_mismatch: 'Apoeni u polju „{field}“ daju {sum} RSD, a ne izbrojani iznos.',
  denomination: 'Nepoznat apoen u polju „{field}“.',
  kind: 'Nepoznata vrsta u polju „{field}“.',
  action: 'Nepoznata radnja u polju „{field}“.',
  tax_rates_missing: 'Poreske stope još nisu preuzete sa fiskalnog servisa. Povežite se na internet.',
  not_found: 'Nije pronađeno.',
  order_not_found: 'Porudžbina {id} ne postoji.',
  sef_not_business_buyer: 'E-faktura se izdaje samo kupcu sa PIB-om (10:) ili korisniku javnih sredstava (12:).',
  sef_not_issuable: 'Za ovaj račun (obuka, kopija ili predračun) se ne izdaje e-faktura.',
  sef_not_fiscalized: 'E-faktura se izdaje tek kad je fiskalni račun izdat.',
  sef_not_set_up: 'SEF nije podešen na ovoj kasi.',
  sef_document_not_found: 'E-faktura {id} ne postoji.',
  sef_not_retryable: 'Ova e-faktura je već na SEF-u: ne šalje se ponovo.',
  sef_not_cancellable: 'Ova e-faktura se sada ne može otkazati ni stornirati.',
  sef_refused: 'SEF je odbio: {reason}',
  sef_unreachable: 'SEF se ne javlja. Pokušajte ponovo malo kasnije.',
  sef_no_seller: 'Upišite PIB i naziv prodavca u podešavanjima SEF-a.',
  sef_label_unmapped: 'Poreska oznaka {label} nema kategoriju PDV-a za SEF: izaberite je u podešavanjima SEF-a.',
  sef_no_original: 'Knjižno odobrenje traži e-fakturu prodaje koju ispravlja, a ona ne postoji na SEF-u.',
  sef_environment: 'Polje „{field}“ mora biti demo ili produkcija.',
  sef_registration_number: 'Matični broj u polju „{field}“ ima 8 cifara.',
  sef_category: 'Polje „{field}“ mora biti kategorija PDV-a sa SEF-a (AE, E, Z, O, SS).',
  sef_key: 'API ključ SEF-a u polju „{field}“ je prekratak.',
  sef_incoming_not_xml: 'Ulazna faktura nije ispravan XML.',
  sef_incoming_not_invoice: 'Ulazni dokument nije faktura.',
  sef_incoming_pib: 'PIB dobavljača {pib} u ulaznoj fakturi nije ispravan.',
  sef_incoming_no_number: 'Ulazna faktura nema broj ili datum.',
  sef_incoming_line: 'Stavka {line} ulazne fakture nema količinu ili iznos.',
  not_needs_attention: 'Porudžbina {id} ne čeka ispravku.',
  offline_sales_refused:
    'Prodaja nije moguća: nema veze sa fiskalnim servisom ni sa lokalnim PFR-om, a radnja je podesila da se bez fiskalnog računa ne prodaje (Menadžer → Podešavanja). Ništa nije sačuvano.',
  late_not_issued: 'Fiskalni račun porudžbine {id} još nije izdat: štampa se sam čim bude izdat.',
  journal_unavailable:
    'Račun porudžbine {id} je fiskalizovan, ali fiskalni servis još nije poslao njegov žurnal: odštampajte ga kasnije iz arhive.',
  not_receipt_mismatch: 'Porudžbina {id} nije zaustavljena zbog tuđeg računa, pa se ne izdaje pod novim brojem.',
  not_lpfr_unproven: 'Porudžbina {id} nije zaustavljena zbog L-PFR-a koji ne zna da li ju je potpisao.',
  journal_checked: 'Potvrdite da ste u žurnalu L-PFR-a proverili da računa ove prodaje nema.',
  esir_id: 'IB sa rešenja o odobrenju ESIR-a: samo cifre, npr. 1060.',
  paid_on_not_transfer: 'Datum uplate se unosi samo za avans plaćen prenosom na račun.',
  paid_on_future: 'Datum uplate ne može biti u budućnosti.',
  paid_on_too_old:
    'Datum uplate može biti najviše {days|dan|dana|dana} unazad: avans uplaćen prenosom izdaje se najkasnije narednog radnog dana.',
  esir_version: 'Verzija ESIR-a sa rešenja: brojevi razdvojeni tačkom, npr. 1.2.',
  storage:
    'Prodaja NIJE sačuvana: baza podataka ne može da se upiše ({reason}). Ništa ranije sačuvano nije izgubljeno.',
  clock_drift:
    'Sat kase se razlikuje od vremena fiskalnog servisa za {minutes} min. Podesite datum i vreme na računaru.',
  clock_drift_lpfr:
    'Sat kase se razlikuje od vremena lokalnog PFR-a za {minutes} min. Podesite datum i vreme na računaru (ili na lokalnom PFR-u).',
  internal: 'Unutrašnja greška. Pokušajte ponovo.',
  unknown_command: 'Nepoznata komanda „{field}“.',
  unauthorized: 'Nedostaje ili je pogrešan pristupni token.',
  body_json: 'Telo zahteva mora biti ispravan JSON.',
  pin_format: 'PIN u polju „{field}“ mora imati 4 do 8 cifara.',
  date: 'Polje „{field}“ mora biti ispravan datum.',
  buyer_required: 'Unesite ID kupca ili označite da kupac nema ID.',
  phone: 'Polje „{field}“ mora biti broj telefona.',
  terminal_id: 'Oznaka kase može imati samo slova i cifre, do 12 znakova.',
  ips_account: 'Račun u polju „{field}“ piše se kao 840-955845-10 ili 18 cifara (banka 3, račun 13, kontrolni broj 2).',
  ips_account_check:
    'Račun u polju „{field}“ nema ispravan kontrolni broj (poslednje dve cifre): proverite da li je tačno prepisan.',
  ips_text: 'Polje „{field}“ može imati samo jedan red, bez znaka „|“.',
  ips_reference: 'Poziv na broj u polju „{field}“ nije ispravan (model 97: kontrolni broj ne odgovara).',
  ips_not_configured: 'IPS plaćanje nije podešeno — Menadžer → Podešavanja → IPS plaćanje (račun i naziv prodavnice).',
  ips_payment_missing: 'Uz poziv na broj IPS uplate („{field}“) prodaja mora imati IPS (instant) plaćanje.',
  url: 'Polje „{field}“ mora biti ispravna adresa (https://…).',
  pin_wrong: 'Pogrešan PIN ({field}).',
  pin_hub_away: 'Hab prodavnice se nije javio na vreme da proveri PIN ({field}): pokušajte ponovo za trenutak.',
  pin_not_manager: 'Potrebno je odobrenje menadžera: PIN u polju „{field}“ pripada kasiru.',
  pin_locked: 'Previše pogrešnih PIN-ova. Unos PIN-a je zaključan do {until}.',
  session_required: 'Prijavite se PIN-om pre ove radnje.',
  approval_required: 'Potrebno je odobrenje menadžera za ovu radnju: unesite PIN menadžera.',
  approval_required_discount:
    'Potrebno je odobrenje menadžera: popust na stavci „{name}“ je veći od {limit} % njenog iznosa. Unesite PIN menadžera.',
  approval_required_sale_discount:
    'Potrebno je odobrenje menadžera: popust na celu prodaju je veći od dozvoljenih {limit} %. Unesite PIN menadžera.',
  approval_required_unfiscalized:
    'Potrebno je odobrenje menadžera: bez interneta računi se ne fiskalizuju već duže od {hours} h, a kupac za gotovinu odlazi bez fiskalnog računa. Unesite PIN menadžera.',
  approval_required_price:
    'Potrebno je odobrenje menadžera: cena stavke „{name}“ nije cena iz kataloga. Unesite PIN menadžera.',
  pin_must_change: 'Početni PIN 0000 mora prvo da se promeni (Menadžer → Osoblje → Promena PIN-a).',
  training_off: 'Račun za obuku je moguć samo dok je uključen režim obuke ({field}).',
  printer_address_forbidden:
    'Adresa štampača u polju „{field}“ nije dozvoljena: to je adresa samog računara ili adresa koju mreža dodeljuje sama sebi, ne adresa štampača.',
  printable_only: 'Polje „{field}“ sme sadržati samo znakove za štampu.',
  pin_weak: 'Novi PIN ne sme biti 0000 ni već zauzet.',
  pin_trivial:
    'PIN menadžera u polju „{field}“ je lako pogoditi: ne sme biti ista cifra više puta, niz kao 1234 ili 4321, ni 0000.',
  staff_not_found: 'Osoba {id} ne postoji.',
  last_manager:
    'Poslednji aktivni menadžer ne može biti isključen niti ostati bez uloge menadžera ({field}): prvo dodajte ili uključite drugog menadžera.',
  staff_self:
    'Menadžer ne može sam sebe da isključi niti da sebi oduzme ulogu menadžera ({field}): to radi drugi menadžer.',
  staff_inactive: 'Ova osoba je isključena i ne može da se prijavi. Obratite se menadžeru.',
  staff_name_taken: 'Ime „{value}“ u polju „{field}“ već ima druga osoba.',
  name_invisible:
    'Ime u polju „{field}“ sadrži nevidljiv znak (razmak nulte širine, oznaku smera …). Otkucajte ga ponovo.',
  name_mixed_script: 'Reč imena u polju „{field}“ meša ćirilična i latinična slova. Otkucajte je jednim pismom.',
  name_lookalike: 'Ime u polju „{field}“ izgleda isto kao ime osobe „{other}“. Izaberite ime koje se razlikuje.',
  needs_online: 'Za ovu radnju potrebna je veza sa fiskalnim servisom.',
  refund_too_much: 'Povrat u polju „{field}“ je veći od preostalog ({remaining}) za stavku „{name}“.',
  refund_line_unknown: 'Stavka u polju „{field}“ ne postoji na originalnom računu.',
  refund_not_refundable: 'Račun {id} ne može da se refundira ({reason}).',
  refund_full_after_partial: 'Deo računa je već vraćen; pun povrat nije moguć ({field}). Izaberite stavke.',
  refund_archive_partial: 'Račun nije u ovoj kasi: delimičan povrat nije moguć, samo pun ({field}).',
  refund_taken_elsewhere:
    'Druga kasa upravo vraća ili je vratila ovu stavku: za „{name}“ preostalo je {remaining} ({field}).',
  refund_full_taken_elsewhere:
    'Druga kasa upravo vraća deo ovog računa; pun povrat nije moguć ({field}). Izaberite stavke.',
  invoice_not_found: 'Račun „{invoice}“ ne postoji ({field}).',
  advance_not_open: 'Avans {id} nije otvoren za konačni račun.',
  copy_not_allowed: 'Kopija je moguća samo za fiskalni račun prodaje (porudžbina {id}).',
  email_not_possible: 'Račun {id} ne može da se pošalje e-poštom ({reason}).',
  api_key_invalid: 'API ključ nije ispravan.',
  api_key_forbidden: 'API ključ nema pristup prodavnici.',
  gateway_unreachable: 'Fiskalni servis nije dostupan: {reason}',
  hub_enrol_refused: 'Hab prodavnice je odbio upis ({field}): {reason}',
  hub_unreachable: 'Hab prodavnice nije dostupan: {reason}',
  hub_code_unknown: 'hab ne poznaje ovaj kod za upis',
  hub_code_used: 'ovaj kod za upis je već iskorišćen',
  hub_code_expired: 'kod za upis je istekao; zatražite novi na habu',
  hub_till_name_taken: 'druga kasa ove prodavnice na habu već ima ovaj naziv: dajte kasi drugi naziv',
  hub_till_name_reserved: 'ovaj naziv kase je rezervisan na habu: dajte kasi drugi naziv',
  hub_catalog_refused:
    'Hab nije prihvatio katalog ove kase: svaki proizvod mora imati važeću poresku oznaku prodavnice, cenu veću od nule i ispravne bar-kodove koje nema drugi proizvod.',
  hub_refused: 'hab nije prihvatio zahtev',
  hub_no_answer: 'hab ne odgovara na toj adresi',
  hub_already_enrolled: 'Ova kasa je već upisana u hab (kasa {id}).',
  hub_not_enrolled: 'Ova kasa nije upisana u hab: prvo je upišite.',
  hub_fingerprint:
    'Polje „{field}“ mora biti SHA-256 otisak sertifikata haba: 64 heksadekadna znaka (0–9, A–F), kao što ih hab prikazuje.',
  hub_fingerprint_required: 'Unesite otisak sertifikata haba ({field}): hab ga prikazuje uz kod za upis.',
  hub_plain_http: 'Adresa haba počinje sa https:// ({field}); bez šifrovanja samo hab na ovom računaru (127.0.0.1).',
  hub_pin_mismatch:
    'Hab na ovoj adresi ima drugi sertifikat (otisak {seen}), ne onaj koji je unet: ništa mu nije poslato. Uporedite otisak sa ekranom haba.',
  // money (archive-only full refunds)
  refund_archive_no_items: 'Račun {id} u arhivi nema ni stavke ni poreski pregled: pun povrat se ne može sastaviti.',
  // buyer IDs
  buyer_id_type:
    'Nepoznata vrsta ID kupca u polju „{field}“: dozvoljene šifre Poreske uprave su 10–16, 20–23, 30–35 i 40.',
  buyer_id_pib: 'ID kupca u polju „{field}“: posle šifre sledi ispravan PIB (9 cifara, poslednja je kontrolna).',
  buyer_id_jmbg: 'ID kupca u polju „{field}“: posle šifre sledi ispravan JMBG (13 cifara, poslednja je kontrolna).',
  buyer_id_pib_jbkjs:
    'ID kupca u polju „{field}“: šifra 12 traži PIB:JBKJS (ispravan PIB od 9 cifara, dvotačka, JBKJS od 5 cifara).',
  buyer_id_digits9: 'ID kupca u polju „{field}“: broj lične karte ili pasoša ima tačno 9 cifara.',
  buyer_id_digits12: 'ID kupca u polju „{field}“: BPG ima tačno 12 cifara.',
  buyer_id_digits13: 'ID kupca u polju „{field}“: EBS ima tačno 13 cifara.',
  buyer_id_document:
    'ID kupca u polju „{field}“: broj dokumenta su velika slova i cifre (bar jedna cifra), do 17 znakova.',
  buyer_id_foreign_tin:
    'ID kupca u polju „{field}“: strani poreski broj su velika slova, cifre i crtice (bar jedna cifra), do 17 znakova.',
  buyer_skip_not_allowed: 'Povraćaj bez ID kupca nije dozvoljen u podešavanjima ({field}): unesite ID kupca.',
  buyer_correction_pib: 'Ispravka bez povraćaja novca nosi PIB prodavca {pib} kao ID kupca ({field}).',
  seller_pib_unknown:
    'PIB prodavca još nije poznat (nema izdatog računa): ispravka bez povraćaja novca nije moguća ({field}).',
  // advances
  training_advance:
    'Režim obuke je uključen: avans i konačni račun ne postoje kao račun za obuku, pa nisu dozvoljeni ({field}).',
  training_refund_real:
    'Režim obuke je uključen: povrat fiskalnog računa {id} nije dozvoljen, samo računa za obuku ({field}).',
  training_copy_real: 'Režim obuke je uključen: kopija fiskalnog računa {id} nije dozvoljena ({field}).',
  advance_refunded:
    'Avans {id} je delimično ili potpuno vraćen: nije otvoren ni za novi avans ni za konačni račun ({field}).',
  advance_finalized: 'Avans {id} je već zatvoren konačnim računom ({field}).',
  advance_chained: 'Na avans {id} nadovezan je novi avans: koristite poslednji avans u nizu ({field}).',
  advance_parked: 'Avans {id} čeka proveru i nije otvoren ({field}).',
  refund_advance_finalized:
    'Avans {id} je zatvoren konačnim računom {final}: avans se više ne vraća; vratite konačni račun ({field}).',
  finalize_below_advance: 'Konačni račun ({total}) manji je od plaćenih avansa ({advance}) ({field}).',
  finalize_payment_rest: 'Plaćanje ostatka mora iznositi tačno {rest} ({field}).',
  advance_payment_exact: 'Plaćanje avansa mora iznositi tačno {due} ({field}).',
  refund_advance_other_till:
    'Avans {id} je izdat na drugoj kasi: vraća se na toj kasi, gde se vidi da li je zatvoren ({field}).',
  // receipt verification
  reissue_own_receipt:
    'Račun {invoice} pod brojem {order} je račun ove prodaje (potvrđeno upitom i arhivom fiskalnog servisa): prodaja je fiskalizovana njime i ne izdaje se ponovo.',
  reissue_unconfirmed:
    'Nije potvrđeno da račun pod brojem {order} pripada drugoj prodaji ({reason}). Novi račun se ne izdaje dok upit i arhiva fiskalnog servisa to ne potvrde; pokušajte ponovo kad servis bude dostupan.',
  held_gone: 'Ovi zadržani poslovi su već odštampani ili odbačeni. Osvežite spisak.',
  lpfr_unreachable: 'Lokalni PFR se ne javlja na toj adresi: proverite adresu i da li je uređaj uključen.',
  lpfr_card_absent: 'U lokalnom PFR-u nema pametne kartice: umetnite karticu bezbednosnog elementa.',
  lpfr_pin_format: 'PIN bezbednosnog elementa ima tačno 4 cifre.',
  lpfr_pin_wrong: 'Pogrešan PIN bezbednosnog elementa. Posle 5 pogrešnih pokušaja kartica se trajno zaključava.',
  lpfr_pin_needed: 'Kartica u lokalnom PFR-u traži PIN: unesite PIN bezbednosnog elementa.',
  lpfr_card_locked: 'Kartica bezbednosnog elementa je zaključana posle pogrešnih PIN-ova i vraća se Poreskoj upravi.',
  lpfr_refused: 'Lokalni PFR ne može sada da potpisuje račune: {reason}.',
  pib_format: 'PIB u polju „{field}“ ima tačno 9 cifara.',
  pib_check: 'PIB u polju „{field}“ nije ispravan: kontrolna cifra (poslednja) se ne slaže. Proverite broj.',
  bank_account: 'Tekući račun u polju „{field}“ pišite kao 160-0000000012345-67 (banka, broj, kontrolni broj).',
  margin_or_retail: 'Unesite ili maržu ili maloprodajnu cenu ({field}), ne obe.',
  date_order: 'Datum u polju „{field}“ ne sme biti pre početnog datuma.',
  goods_percent_range: 'Procenat u polju „{field}“ nije u dozvoljenom opsegu.',
  goods_pib_taken: 'Dobavljač sa PIB-om {value} već postoji: „{other}“ ({field}).',
  goods_supplier_not_found: 'Taj dobavljač ne postoji ({field}). Izaberite ga sa spiska.',
  goods_receipt_not_found: 'Prijemnica br. {id} ne postoji.',
  goods_receipt_posted: 'Prijemnica je već proknjižena: menja se samo storniranjem.',
  goods_not_reversible: 'Stornira se samo proknjižena prijemnica, jednom.',
  goods_invoice_taken: 'Račun „{value}“ ovog dobavljača je već primljen ({field}).',
  goods_new_product: 'Šifra nije u katalogu: za nov artikal unesite naziv, poresku oznaku i jedinicu mere ({field}).',
  goods_product_label:
    'Artikal ima poresku oznaku „{value}“ koje nema među važećim stopama ({labels}): ispravite artikal u katalogu ({field}).',
  goods_below_purchase:
    'Maloprodajna cena za „{name}“ je ispod nabavne ({field}). Proverite cenu ili potvrdite da je tako.',
  goods_hub_catalog: 'Katalogom upravlja server prodavnice: nov artikal ili cenu unesite tamo ({field}).',
  goods_unknown_product: 'Artikal sa šifrom „{value}“ ne postoji ({field}).',
  goods_document_not_found: 'Taj dokument ne postoji (br. {id}).',
  goods_count_not_found: 'Popis br. {id} ne postoji.',
  goods_count_open: 'Jedan popis je već u toku: proknjižite ga ili otkažite pre novog.',
  goods_count_closed: 'Popis je već zaključen (proknjižen ili otkazan): unosi i knjiženje više nisu mogući.',
  goods_count_group: 'Grupa „{value}“ ne postoji u katalogu ({field}).',
  goods_count_outside: 'Artikal „{value}“ nije obuhvaćen ovim popisom ({field}).',
  goods_csv_quantity: 'CSV, red {row}, kolona {column}: „{value}“ nije količina (nula ili više, najviše tri decimale).',
  goods_csv_cell: 'CSV, red {row}, kolona {column}: nedostaje šifra artikla.',
  goods_csv_amount: 'CSV, red {row}, kolona {column}: „{value}“ nije ispravan iznos.',
  goods_csv_outside: 'CSV, red {row}, kolona {column}: artikal „{value}“ nije obuhvaćen ovim popisom.',
  goods_csv_unknown: 'CSV, red {row}, kolona {column}: artikal sa šifrom „{value}“ ne postoji.',
  goods_csv_empty: 'CSV datoteka nema nijedan red sa šifrom i količinom ({field}).',
  goods_counted_below_zero:
    'Artikal „{name}“ je popisan, a na stanju ima {onHand}: prodaja u minus za popisanu robu nije dozvoljena ({field}).',
  prices_time: 'Vreme u polju „{field}“ upisuje se kao SS:MM (na primer 16:00).',
  prices_priority_range: 'Prioritet u polju „{field}“ je ceo broj od 0 do 1000.',
  weekday: 'Dan u nedelji u polju „{field}“ je od 1 (ponedeljak) do 7 (nedelja).',
  weekdays: 'Polje „{field}“ mora biti spisak dana u nedelji.',
  items: 'Polje „{field}“ mora biti spisak artikala sa cenama.',
  prices_scope: 'Nepoznato važenje cenovnika u polju „{field}“ (prodavnica, lanac ili kupac).',
  prices_count_range: 'Broj u polju „{field}“ nije u dozvoljenom opsegu.',
  prices_kind: 'Nepoznata vrsta akcije u polju „{field}“.',
  prices_time_pair: 'Upišite i početno i krajnje vreme ({field}).',
  prices_time_empty: 'Krajnje vreme u polju „{field}“ mora biti različito od početnog.',
  prices_pib_scope: 'PIB kupca ({field}) se upisuje samo za cenovnik kupca.',
  prices_list_empty: 'Cenovnik nema ni cene artikala ni pravilo popusta ({field}).',
  prices_item_twice: 'Artikal „{value}“ je u cenovniku dvaput ({field}).',
  prices_unknown_group: 'Grupa „{value}“ ne postoji u katalogu ({field}).',
  prices_target: 'Akcija važi za jedan artikal ili za jednu grupu: izaberite tačno jedno ({field}).',
  prices_pay_buy: 'U akciji „uzmi N, plati M“ plaća se manje komada nego što se uzima ({field}).',
  prices_not_lower: 'Akcijska cena u polju „{field}“ mora biti niža od redovne cene.',
  prices_promotion_overlap:
    'U istom periodu na isti artikal već važi akcija „{other}“ istog prioriteta: promenite prioritet ili period ({field}).',
  prices_at_past: 'Trenutak u polju „{field}“ je već prošao: nova cena se zakazuje unapred.',
  prices_same_price: 'Nova cena u polju „{field}“ je ista kao sadašnja.',
  prices_not_pending: 'Ova promena cene je već primenjena ili otkazana ({field}).',
  prices_promotion_31_days:
    'Akcijska prodaja traje najviše 31 dan (Zakon o trgovini, čl. 37): ovaj period ima {days|dan|dana|dana} ({field}).',
  // #41 the bookkeeper's exports
  account_number: 'Konto u polju „{field}“ pišite ciframa, od 3 do 10 (na primer 2430).',
  export_kind: 'Nepoznata vrsta izvoza u polju „{field}“.',
  export_day: 'Dan u polju „{field}“ mora biti od 1 do 28.',
  export_folder: 'Fascikla iz polja „{field}“ ne postoji na ovoj kasi ili se u nju ne može pisati.',
  labels_net_quantity:
    'Artikal „{name}“ nema neto količinu, a etiketa mora da pokaže jediničnu cenu po kg ili l ({field}): upišite neto količinu ili označite da jedinična cena nije potrebna. Ništa nije odštampano.',
  labels_size_unsupported:
    'Štampač „{preset}“ ne podržava ovu veličinu etikete ({field}): širina od {minWidth} do {maxWidth} mm, visina od {minHeight} do {maxHeight} mm.',
  labels_does_not_fit: 'Etiketa artikla „{name}“ ne staje u zadatu veličinu ({field}): povećajte etiketu.',
  labels_no_printer: 'Štampač etiketa nije podešen — Menadžer → Etikete → Štampač etiketa.',
  labels_nothing: 'Nema artikala za etikete ({field}).',
  labels_selection: 'Izaberite artikle, grupu ili „promenjene od poslednje štampe“ ({field}).',
  labels_script: 'Etiketa se štampa ćirilicom ili latinicom ({field}).',
  labels_media: 'Etikete se razdvajaju razmakom ili crnom oznakom ({field}).',
  labels_net_unit: 'Neto količina se upisuje u kg ili l ({field}).',
  labels_net_pair: 'Upišite i neto količinu i njenu jedinicu ({field}).',
  labels_unknown_preset: 'Nepoznat model štampača etiketa ({field}).',
  labels_unknown_stock: 'Nepoznat tabak etiketa ({field}).',
  labels_unknown_group: 'Nema grupe „{value}“ ({field}).',
  labels_print_failed: 'Štampač etiketa nije primio etikete: {reason}. Ništa nije zabeleženo kao odštampano.',
  prices_hub_owned:
    'Cenovnike, akcije i zakazane cene ove prodavnice uređuje hab prodavnice: menjaju se na habu (kartica Cene), ne na kasi.',
  prices_where: 'Nepoznato mesto važenja u polju „{field}“ (prodavnica ili lanac).',
  smtp_host: 'U polje „{field}“ se upisuje ime ili adresa servera za poštu (slova, brojevi, tačke, crtice).',
  port: 'Port u polju „{field}“ mora biti od 1 do 65535.',
  smtp_security: 'Nepoznata zaštita veze u polju „{field}“ (STARTTLS, TLS ili bez zaštite).',
  mail_incomplete: 'Za slanje pošte knjigovođi upišite i server, i adresu pošiljaoca, i adrese knjigovođe ({field}).',
  mail_plain_password:
    'Lozinka se ne šalje bez zaštite veze osim serveru na ovoj kasi ({field}): izaberite STARTTLS ili TLS.',
  label_refused:
    'Poreska uprava ne prima oznaku „{value}“ za ovaj nalog (šifra 2310), iako je u poreskim stopama: izaberite drugu ({labels}).',
  goods_count_overlap: 'Popis br. {number} iste robe je još u toku: proknjižite ga ili otkažite pre novog ({field}).',
  hub_goods_brought: 'Roba ove kase je već preneta na hab kao početno stanje br. {number}.',
  hub_goods_none: 'Knjiga ove kase nema robe na stanju: nema šta da se prenese na hab.',
  hub_goods_shop_has_stock:
    'Prodavnica na habu već vodi robu (ima prometa u knjizi): knjiga ove kase se ne prenosi, roba se unosi na habu.',
  hub_goods_product_unknown:
    'Katalog prodavnice na habu nema neki artikal sa stanja ove kase: pošaljite katalog ove kase na hab ili dodajte artikal na habu.',
  hub_goods_supplier_unknown: 'Dobavljač nije u registru ({field}).',
  hub_goods_count_unknown: 'Taj popis ne postoji na habu prodavnice ({field}).',
  hub_goods_below_purchase: 'Maloprodajna cena je ispod nabavne ({field}): proverite cenu ili potvrdite da je tako.',
  hub_goods_rate_unknown:
    'Hab ne zna stopu PDV poreske oznake ovog artikla: unesite maloprodajnu cenu umesto marže ({field}).',
  hub_goods_other_till: 'Taj nacrt nije unet na ovoj kasi: kasa menja samo svoje nacrte ({field}).',
  hub_goods_pin_paused: 'Previše pogrešnih PIN-ova na habu: pokušajte ponovo malo kasnije ({field}).',
  hub_goods_refused: 'Hab prodavnice nije prihvatio unos u polju „{field}“.',
  hub_goods_no_hub: 'Ova kasa nije u mreži prodavnice.',
  hub_goods_not_sent: 'Hab prodavnice sada nije dostupan: nacrt čeka na kasi, a knjiži se kad hab bude dostupan.',
  sef_advance_not_sent:
    'Konačna e-faktura umanjuje se za avansne e-fakture: prvo pošaljite na SEF e-fakturu avansa {number} ({field}).',
  prices_csv_empty: 'Datoteka ({field}) nema nijedan red sa šifrom i cenom. Ništa nije uvezeno.',
  prices_csv_columns:
    'Red {row}, kolona {column} ({field}): red ima šifru ili bar-kod, cenu i po želji datume od i do (2 do 4 kolone). Ništa nije uvezeno.',
  prices_csv_code:
    'Red {row}, kolona {column} (šifra ili bar-kod; {field}): šifra je prazna ili duža od 32 znaka. Ništa nije uvezeno.',
  prices_csv_price:
    'Red {row}, kolona {column} (cena; {field}): „{value}“ nije cena (1.234,50 sa „;“ ili 1234.50 sa „,“). Ništa nije uvezeno.',
  prices_csv_day:
    'Red {row}, kolona {column} (datum; {field}): „{value}“ nije datum (01.12.2026. ili 2026-12-01). Ništa nije uvezeno.',
  prices_csv_days_differ:
    'Red {row}, kolona {column} (datum; {field}): datumi od i do su datumi cenovnika i moraju biti isti u svakom redu. Ništa nije uvezeno.',
  sef_from_hub: 'E-fakture ove prodavnice šalje hab prodavnice: pogledajte ih na habu, u E-fakturama.',
};

const EN: Shape<typeof SR_CYRL> = {
  parked_taken_elsewhere: 'Another till has already taken this parked sale.',
  printer_uri:
    'The printer address in "{field}" must be a network address (192.168.1.50:9100 or tcp://host:port), winspool://name, cups://queue or a printer device (/dev/usb/lp0).',
  backup_unusable: 'The backup "{field}" cannot be restored: {reason}.',
  backup_folder_relative: 'Type the folder\'s whole path in "{field}" (for example /media/usb or E:\\Backups).',
  backup_folder_missing: 'The folder in "{field}" does not exist on this till.',
  backup_folder_readonly: 'The folder in "{field}" cannot be written to (is the USB drive unlocked?).',
  backup_file_exists: 'The folder in "{field}" already has a file {file}: the copy does not overwrite it.',
  backup_copy_failed:
    'The backup was not copied completely (is the drive full or removed?); nothing half-written was left.',
  backup_missing: 'The backup {name} no longer exists on this till.',
  backup_not_now: 'No backup is taken now: the database integrity check found problems.',
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
  buyer_id: 'The buyer ID in "{field}" must be a type code and a number, e.g. 10:PIB or 20:ID card number.',
  email: 'The field "{field}" must be a valid e-mail address.',
  payment_type: 'Unknown payment type in "{field}".',
  invoice_type: 'Unknown invoice type in "{field}".',
  labels: 'An item needs at least one tax label ({field}).',
  lines: 'A receipt needs at least one item.',
  payments: 'A receipt needs at least one payment.',
  gtin: 'The GTIN in "{field}" must have 8 to 14 digits.',
  unknown_field: 'The field "{field}" is not allowed.',
  cashier_from_session:
    'The field "{field}" is not sent: the cashier on every receipt is the person logged in at the till, set by the till.',
  invalid: 'The field "{field}" is not valid.',
  payments_short: 'The payments are less than the total ({due} RSD).',
  change_non_cash: 'Change can only be given on cash; the non-cash payments exceed the total.',
  label_unknown: 'The tax label "{label}" is not in the current tax rates.',
  default_manager_name: 'Manager',
  catalog_hub_owned:
    "This shop's catalog is managed at the store hub: products are added, changed and deleted there, not on the till.",
  gtin_check: 'The barcode "{value}" in "{field}" has a wrong check digit.',
  barcode_taken: 'The barcode "{value}" in "{field}" already belongs to the product "{other}".',
  product_code_taken: 'The code "{value}" in "{field}" already belongs to the product "{other}".',
  label_not_current: 'The tax label "{value}" in "{field}" is not among the current tax labels ({labels}).',
  group_unknown: 'The group "{value}" in "{field}" has no products.',
  hub_no_catalog_choice: 'No catalog choice is waiting: the till already follows the hub.',
  hub_needed:
    'A staff change at a till linked to a hub goes through the hub, and the hub is not reachable now: try again when it is.',
  hub_pin_not_manager: 'The PIN in the field "{field}" is not the PIN of an active manager of this shop at the hub.',
  hub_no_staff_choice: "No staff choice is waiting: the till's people already follow the hub.",
  hub_staff_choice_missing: 'For "{value}" (field "{field}") choose a person of the hub or "add as new".',
  hub_staff_choice_twice: 'The hub person in the field "{field}" is already chosen for another person of the till.',
  percent_range: 'The percentage in "{field}" must be between −100 and +1000 and not zero (e.g. 5 or −2.5).',
  discount_too_big: 'The discount in "{field}" is larger than the line amount.',
  printer_not_configured: 'No printer configured — Manager → Settings → Printer',
  shift_required: 'No sale, refund or advance without an open shift: open a shift (the opening float in the drawer).',
  shift_already_open: 'A shift is already open: close it before opening a new one.',
  shift_not_open: 'No shift is open.',
  beyond_drawer: 'The cash out is more than the drawer holds ({drawer} RSD).',
  count_mismatch: 'The denominations in "{field}" add up to {sum} RSD, not the counted amount.',
  denomination: 'Unknown denomination in "{field}".',
  kind: 'Unknown kind in "{field}".',
  action: 'Unknown action in "{field}".',
  tax_rates_missing: 'Tax rates have not been fetched from the fiscal service yet. Connect to the internet.',
  not_found: 'Not found.',
  order_not_found: 'Order {id} does not exist.',
  sef_not_business_buyer: 'An e-invoice is issued only to a buyer with a PIB (10:) or a public-funds user (12:).',
  sef_not_issuable: 'No e-invoice is issued for this receipt (training, copy or pro forma).',
  sef_not_fiscalized: 'An e-invoice is issued only once the fiscal receipt has been issued.',
  sef_not_set_up: 'SEF is not set up on this till.',
  sef_document_not_found: 'E-invoice {id} does not exist.',
  sef_not_retryable: 'This e-invoice is already at SEF: it is not sent again.',
  sef_not_cancellable: 'This e-invoice cannot be cancelled or reversed now.',
  sef_refused: 'SEF refused: {reason}',
  sef_unreachable: 'SEF does not answer. Try again a little later.',
  sef_no_seller: "Enter the seller's PIB and name in the SEF settings.",
  sef_label_unmapped: 'Tax label {label} has no VAT category for SEF: choose one in the SEF settings.',
  sef_no_original: 'A credit note needs the e-invoice of the sale it corrects, and SEF has none.',
  sef_environment: 'The field “{field}” must be demo or production.',
  sef_registration_number: 'The registration number in “{field}” has 8 digits.',
  sef_category: 'The field “{field}” must be a SEF VAT category (AE, E, Z, O, SS).',
  sef_key: 'The SEF API key in “{field}” is too short.',
  sef_incoming_not_xml: 'The incoming invoice is not valid XML.',
  sef_incoming_not_invoice: 'The incoming document is not an invoice.',
  sef_incoming_pib: "The supplier's PIB {pib} in the incoming invoice is not valid.",
  sef_incoming_no_number: 'The incoming invoice has no number or date.',
  sef_incoming_line: 'Line {line} of the incoming invoice has no quantity or amount.',
  not_needs_attention: 'Order {id} is not waiting for a fix.',
  offline_sales_refused:
    'No sale: neither the fiscal service nor the local fiscal processor can be reached, and the shop has chosen not to sell without a fiscal receipt (Manager → Settings). Nothing was saved.',
  late_not_issued: 'The fiscal receipt of order {id} is not issued yet: it prints by itself once it is.',
  journal_unavailable:
    'Order {id} is fiscalized, but the fiscal service has not sent its journal yet: print it from the archive later.',
  not_receipt_mismatch:
    'Order {id} was not stopped for another sale’s receipt, so it is not re-issued under a new number.',
  not_lpfr_unproven: 'Order {id} was not stopped for an L-PFR that cannot tell whether it signed it.',
  journal_checked: 'Confirm that you checked the L-PFR’s journal and found no receipt of this sale.',
  esir_id: 'The IB from the ESIR’s approval: digits only, e.g. 1060.',
  paid_on_not_transfer: 'The payment date is entered only for an advance paid by bank transfer.',
  paid_on_future: 'The payment date cannot be in the future.',
  paid_on_too_old:
    'The payment date may be at most {days|day|days} back: an advance paid by transfer is issued the next working day at the latest.',
  esir_version: 'The ESIR version from the approval: numbers separated by dots, e.g. 1.2.',
  storage: 'The sale was NOT saved: the database cannot be written ({reason}). Nothing saved earlier was lost.',
  clock_drift: "The till's clock is {minutes} min off the fiscal service's time. Set the computer's date and time.",
  clock_drift_lpfr:
    "The till's clock is {minutes} min off the local PFR's time. Set the date and time on the computer (or on the local PFR).",
  internal: 'Internal error. Please try again.',
  unknown_command: 'Unknown command "{field}".',
  unauthorized: 'The access token is missing or wrong.',
  body_json: 'The request body must be valid JSON.',
  pin_format: 'The PIN in "{field}" must have 4 to 8 digits.',
  date: 'The field "{field}" must be a valid date.',
  buyer_required: 'Enter the buyer ID or mark that the buyer has none.',
  phone: 'The field "{field}" must be a phone number.',
  terminal_id: 'The terminal id may have only letters and digits, up to 12.',
  ips_account: 'Write the account in “{field}” as 840-955845-10 or 18 digits (bank 3, account 13, check digits 2).',
  ips_account_check: 'The account in “{field}” has wrong check digits (the last two): check it was copied exactly.',
  ips_text: '“{field}” may have one line only, without “|”.',
  ips_reference: 'The reference in “{field}” is not valid (model 97: the check digits do not match).',
  ips_not_configured: 'IPS payments are not set up — Manager → Settings → IPS payments (account and shop name).',
  ips_payment_missing: 'With an IPS payment reference (“{field}”) the sale must have an IPS (instant) payment.',
  url: 'The field "{field}" must be a valid address (https://…).',
  pin_wrong: 'Wrong PIN ({field}).',
  pin_hub_away: 'The store hub did not answer in time to check the PIN ({field}): try again in a moment.',
  pin_not_manager: 'Manager approval needed: the PIN in "{field}" belongs to a cashier.',
  pin_locked: 'Too many wrong PINs. PIN entry is locked until {until}.',
  session_required: 'Log in with your PIN first.',
  approval_required: 'A manager’s approval is needed for this: enter a manager’s PIN.',
  approval_required_discount:
    'A manager’s approval is needed for this: the discount on „{name}“ is more than {limit} % of the line. Enter a manager’s PIN.',
  approval_required_sale_discount:
    'A manager’s approval is needed: the discount on the whole sale is more than the {limit} % allowed. Enter a manager’s PIN.',
  approval_required_unfiscalized:
    'A manager’s approval is needed: without the internet no receipt has been fiscalized for more than {hours} h, and a cash customer leaves without a fiscal receipt. Enter a manager’s PIN.',
  approval_required_price:
    'A manager’s approval is needed for this: the price of „{name}“ is not the catalog’s. Enter a manager’s PIN.',
  pin_must_change: 'The first-run PIN 0000 must be changed first (Manager → Staff → Change PIN).',
  training_off: 'A training receipt is only possible while training mode is on ({field}).',
  printer_address_forbidden:
    'The printer address in "{field}" is not allowed: it is an address of this computer itself or one the network assigns to itself, not a printer address.',
  printable_only: 'Field "{field}" may contain printable characters only.',
  pin_weak: 'The new PIN must not be 0000 or already in use.',
  pin_trivial:
    'The manager’s PIN in "{field}" is easy to guess: not one digit repeated, a run such as 1234 or 4321, or 0000.',
  staff_not_found: 'Person {id} does not exist.',
  last_manager:
    'The last active manager cannot be deactivated or lose the manager role ({field}): first add or reactivate another manager.',
  staff_self:
    'A manager cannot deactivate themself or take away their own manager role ({field}): another manager does that.',
  staff_inactive: 'This person is deactivated and cannot log in. Ask a manager.',
  staff_name_taken: 'The name "{value}" in the field "{field}" already belongs to another person.',
  name_invisible:
    'The name in the field "{field}" holds an invisible character (a zero-width space, a direction mark …). Type it again.',
  name_mixed_script:
    'A word of the name in the field "{field}" mixes Cyrillic and Latin letters. Type it in one script.',
  name_lookalike:
    'The name in the field "{field}" looks the same as the name of "{other}". Choose a name that differs.',
  needs_online: 'This needs a connection to the fiscal service.',
  refund_too_much: 'The refund in "{field}" is more than what is left ({remaining}) of "{name}".',
  refund_line_unknown: 'The line in "{field}" is not on the original receipt.',
  refund_not_refundable: 'Receipt {id} cannot be refunded ({reason}).',
  refund_full_after_partial:
    'Part of this receipt was already refunded; a full refund is not possible ("{field}"). Choose lines.',
  refund_archive_partial: 'The receipt is not from this till: only a full refund is possible ("{field}").',
  refund_taken_elsewhere:
    'Another till is refunding or refunded this line: {remaining} of "{name}" is left ("{field}").',
  refund_full_taken_elsewhere:
    'Another till is refunding part of this receipt; a full refund is not possible ("{field}"). Choose lines.',
  invoice_not_found: 'Receipt "{invoice}" does not exist ({field}).',
  advance_not_open: 'Advance {id} is not open for a final receipt.',
  copy_not_allowed: 'A copy is only possible of a fiscal sale receipt (order {id}).',
  email_not_possible: 'Receipt {id} cannot be e-mailed ({reason}).',
  api_key_invalid: 'The API key is not valid.',
  api_key_forbidden: 'The API key has no access to the shop.',
  gateway_unreachable: 'The fiscal service is not reachable: {reason}',
  hub_enrol_refused: 'The store hub refused the enrolment ({field}): {reason}',
  hub_unreachable: 'The store hub is not reachable: {reason}',
  hub_code_unknown: 'the hub does not know this enrolment code',
  hub_code_used: 'this enrolment code was already used',
  hub_code_expired: 'the enrolment code has expired; ask the hub for a new one',
  hub_till_name_taken: 'another till of this shop at the hub already has this name: give the till another name',
  hub_till_name_reserved: 'this till name is reserved at the hub: give the till another name',
  hub_catalog_refused:
    "The hub did not accept this till's catalog: every product needs one of the shop's current tax labels, a price above zero and valid barcodes no other product has.",
  hub_refused: 'the hub did not accept the request',
  hub_no_answer: 'the hub does not answer at that address',
  hub_already_enrolled: 'This till is already enrolled with the hub (till {id}).',
  hub_not_enrolled: 'This till is not enrolled with a hub: enrol it first.',
  hub_fingerprint:
    'The field "{field}" must be the SHA-256 fingerprint of the hub\'s certificate: 64 hex digits (0–9, A–F), as the hub shows it.',
  hub_fingerprint_required:
    "Enter the fingerprint of the hub's certificate ({field}): the hub shows it with the enrolment code.",
  hub_plain_http:
    'The hub address starts with https:// ({field}); unencrypted only for a hub on this computer (127.0.0.1).',
  hub_pin_mismatch:
    "The hub at this address has another certificate (fingerprint {seen}), not the one entered: nothing was sent to it. Compare the fingerprint with the hub's screen.",
  // money (archive-only full refunds)
  refund_archive_no_items:
    'Receipt {id} in the archive has neither items nor tax items: a full refund cannot be composed.',
  // buyer IDs
  buyer_id_type: 'Unknown buyer ID type in "{field}": the Tax Administration codes are 10–16, 20–23, 30–35 and 40.',
  buyer_id_pib:
    'Buyer ID in "{field}": the code must be followed by a valid PIB (9 digits, the last one a check digit).',
  buyer_id_jmbg:
    'Buyer ID in "{field}": the code must be followed by a valid JMBG (13 digits, the last one a check digit).',
  buyer_id_pib_jbkjs:
    'Buyer ID in "{field}": code 12 needs PIB:JBKJS (a valid 9-digit PIB, a colon, the 5-digit JBKJS).',
  buyer_id_digits9: 'Buyer ID in "{field}": an ID card or passport number has exactly 9 digits.',
  buyer_id_digits12: 'Buyer ID in "{field}": a BPG has exactly 12 digits.',
  buyer_id_digits13: 'Buyer ID in "{field}": an EBS has exactly 13 digits.',
  buyer_id_document:
    'Buyer ID in "{field}": a document number is capital letters and digits (at least one digit), up to 17 characters.',
  buyer_id_foreign_tin:
    'Buyer ID in "{field}": a foreign tax number is capital letters, digits and hyphens (at least one digit), up to 17 characters.',
  buyer_skip_not_allowed: 'A refund without a buyer ID is not allowed by the settings ({field}): enter the buyer ID.',
  buyer_correction_pib:
    "A correction without refund of money carries the seller's PIB {pib} as the buyer ID ({field}).",
  seller_pib_unknown:
    "The seller's PIB is not known yet (no receipt issued): a correction without refund of money is not possible ({field}).",
  // advances
  training_advance:
    'Training mode is on: an advance or a final receipt has no training form, so it is not allowed ({field}).',
  training_refund_real:
    'Training mode is on: refunding the fiscal receipt {id} is not allowed, only training receipts ({field}).',
  training_copy_real: 'Training mode is on: a copy of the fiscal receipt {id} is not allowed ({field}).',
  advance_refunded:
    'Advance {id} was refunded in part or in full: it is open neither for a further advance nor for the final receipt ({field}).',
  advance_finalized: 'Advance {id} is already closed by a final receipt ({field}).',
  advance_chained: 'A further advance follows advance {id}: use the last advance of the chain ({field}).',
  advance_parked: 'Advance {id} needs attention and is not open ({field}).',
  refund_advance_finalized:
    'Advance {id} is closed by the final receipt {final}: the advance is no longer refunded; refund the final receipt ({field}).',
  finalize_below_advance: 'The final receipt ({total}) is less than the advances paid ({advance}) ({field}).',
  finalize_payment_rest: 'The payment of the rest must be exactly {rest} ({field}).',
  advance_payment_exact: 'The advance payment must be exactly {due} ({field}).',
  refund_advance_other_till:
    'Advance {id} was issued on another till: it is refunded there, where it shows whether it was closed ({field}).',
  // receipt verification
  reissue_own_receipt:
    'Receipt {invoice} under number {order} is this sale’s receipt (confirmed by the fiscal service’s lookup and archive): the sale is fiscalized with it and is not issued again.',
  reissue_unconfirmed:
    'It is not confirmed that the receipt under number {order} belongs to another sale ({reason}). No new receipt is issued until the fiscal service’s lookup and archive confirm it; try again when the service is reachable.',
  held_gone: 'These held jobs were already printed or dropped. Refresh the list.',
  lpfr_unreachable: 'The local fiscal processor does not answer at that address: check the address and that it is on.',
  lpfr_card_absent: 'The local fiscal processor has no smart card: insert the secure element card.',
  lpfr_pin_format: 'The secure element PIN has exactly 4 digits.',
  lpfr_pin_wrong: 'Wrong secure element PIN. After 5 wrong tries the card is locked for good.',
  lpfr_pin_needed: 'The card in the local fiscal processor asks for its PIN: enter the secure element PIN.',
  lpfr_card_locked: 'The secure element card is locked after wrong PINs and goes back to the Tax Administration.',
  lpfr_refused: 'The local fiscal processor cannot sign receipts now: {reason}.',
  pib_format: 'The PIB in “{field}” has exactly 9 digits.',
  pib_check: 'The PIB in “{field}” is not valid: its check digit (the last) does not match. Check the number.',
  bank_account: 'Write the bank account in “{field}” as 160-0000000012345-67 (bank, number, check number).',
  margin_or_retail: 'Enter either the margin or the retail price ({field}), not both.',
  date_order: 'The date in “{field}” cannot be before the start date.',
  goods_percent_range: 'The percentage in “{field}” is out of range.',
  goods_pib_taken: 'A supplier with PIB {value} already exists: “{other}” ({field}).',
  goods_supplier_not_found: 'That supplier does not exist ({field}). Pick one from the list.',
  goods_receipt_not_found: 'Goods receipt no. {id} does not exist.',
  goods_receipt_posted: 'The goods receipt is already posted: it is changed only by a reversal.',
  goods_not_reversible: 'Only a posted goods receipt can be reversed, once.',
  goods_invoice_taken: 'Invoice “{value}” of this supplier has already been received ({field}).',
  goods_new_product: 'The code is not in the catalog: for a new product enter its name, tax label and unit ({field}).',
  goods_product_label:
    'The product has tax label “{value}”, which is not among the current rates ({labels}): fix the product in the catalog ({field}).',
  goods_below_purchase:
    'The retail price of “{name}” is below its purchase price ({field}). Check the price or confirm it.',
  goods_hub_catalog: 'The store hub owns the catalog: enter a new product or price there ({field}).',
  goods_unknown_product: 'There is no product with code “{value}” ({field}).',
  goods_document_not_found: 'That document does not exist (no. {id}).',
  goods_count_not_found: 'Stock-taking no. {id} does not exist.',
  goods_count_open: 'A stock-taking is already open: post or cancel it before starting another.',
  goods_count_closed: 'The stock-taking is closed (posted or cancelled): nothing more can be entered or posted.',
  goods_count_group: 'There is no group “{value}” in the catalog ({field}).',
  goods_count_outside: 'Product “{value}” is not part of this stock-taking ({field}).',
  goods_csv_quantity:
    'CSV, row {row}, column {column}: “{value}” is not a quantity (zero or more, at most three decimals).',
  goods_csv_cell: 'CSV, row {row}, column {column}: the product code is missing.',
  goods_csv_amount: 'CSV, row {row}, column {column}: “{value}” is not a valid amount.',
  goods_csv_outside: 'CSV, row {row}, column {column}: product “{value}” is not part of this stock-taking.',
  goods_csv_unknown: 'CSV, row {row}, column {column}: there is no product with code “{value}”.',
  goods_csv_empty: 'The CSV file has no row with a code and a quantity ({field}).',
  goods_counted_below_zero:
    'Product “{name}” was counted and {onHand} is on hand: counted goods may not be sold below zero ({field}).',
  prices_time: 'Write the time in "{field}" as HH:MM (for example 16:00).',
  prices_priority_range: 'The priority in "{field}" is a whole number from 0 to 1000.',
  weekday: 'A weekday in "{field}" is from 1 (Monday) to 7 (Sunday).',
  weekdays: 'The field "{field}" must be a list of weekdays.',
  items: 'The field "{field}" must be a list of products with prices.',
  prices_scope: 'Unknown scope of the price list in "{field}" (shop, chain or buyer).',
  prices_count_range: 'The number in "{field}" is out of range.',
  prices_kind: 'Unknown kind of promotion in "{field}".',
  prices_time_pair: 'Enter both the start and the end time ({field}).',
  prices_time_empty: 'The end time in "{field}" must differ from the start time.',
  prices_pib_scope: "The buyer's PIB ({field}) belongs only to a buyer's price list.",
  prices_list_empty: 'The price list has neither product prices nor a discount rule ({field}).',
  prices_item_twice: 'Product "{value}" is in the price list twice ({field}).',
  prices_unknown_group: 'There is no group "{value}" in the catalog ({field}).',
  prices_target: 'A promotion is on one product or one group: choose exactly one ({field}).',
  prices_pay_buy: 'In "take N, pay M" fewer units are paid than taken ({field}).',
  prices_not_lower: 'The promotional price in "{field}" must be below the regular price.',
  prices_promotion_overlap:
    'Promotion "{other}" with the same priority is already on this product in an overlapping period: change the priority or the period ({field}).',
  prices_at_past: 'The moment in "{field}" has passed: a new price is scheduled ahead.',
  prices_same_price: 'The new price in "{field}" is the same as the current one.',
  prices_not_pending: 'This price change was already applied or cancelled ({field}).',
  prices_promotion_31_days:
    'A sale at a reduced price lasts at most 31 days (Law on Trade, art. 37): this period has {days|day|days} ({field}).',
  // #41 the bookkeeper's exports
  account_number: 'Write the account in "{field}" in digits, 3 to 10 of them (for example 2430).',
  export_kind: 'Unknown kind of export in "{field}".',
  export_day: 'The day in "{field}" must be from 1 to 28.',
  export_folder: 'The folder in "{field}" does not exist on this till or cannot be written to.',
  labels_net_quantity:
    'The product "{name}" has no net quantity, and its label must show the unit price per kg or l ({field}): enter the net quantity or mark that no unit price is needed. Nothing was printed.',
  labels_size_unsupported:
    'The printer "{preset}" does not take this label size ({field}): width {minWidth} to {maxWidth} mm, height {minHeight} to {maxHeight} mm.',
  labels_does_not_fit: 'The label of "{name}" does not fit this size ({field}): use a larger label.',
  labels_no_printer: 'No label printer is set — Manager → Labels → Label printer.',
  labels_nothing: 'No products to label ({field}).',
  labels_selection: 'Choose products, a group or "changed since the last print" ({field}).',
  labels_script: 'A label is printed in Cyrillic or Latin ({field}).',
  labels_media: 'Labels are separated by a gap or a black mark ({field}).',
  labels_net_unit: 'The net quantity is in kg or l ({field}).',
  labels_net_pair: 'Enter both the net quantity and its unit ({field}).',
  labels_unknown_preset: 'Unknown label printer model ({field}).',
  labels_unknown_stock: 'Unknown label sheet ({field}).',
  labels_unknown_group: 'There is no group "{value}" ({field}).',
  labels_print_failed: 'The label printer did not take the labels: {reason}. Nothing was recorded as printed.',
  prices_hub_owned:
    "This shop's price lists, promotions and scheduled prices are managed at the store hub: change them there (tab Prices), not on the till.",
  prices_where: 'Unknown place of validity in "{field}" (shop or chain).',
  smtp_host: 'Enter the mail server\'s name or address in "{field}" (letters, digits, dots, hyphens).',
  port: 'The port in "{field}" must be from 1 to 65535.',
  smtp_security: 'Unknown connection security in "{field}" (STARTTLS, TLS or none).',
  mail_incomplete:
    "To send mail to the bookkeeper, enter the server, the sender address and the bookkeeper's addresses ({field}).",
  mail_plain_password:
    'A password is not sent over an unprotected connection except to a server on this till ({field}): choose STARTTLS or TLS.',
  label_refused:
    'The Tax Administration does not accept the label "{value}" for this account (code 2310), though it is in the tax rates: choose another ({labels}).',
  goods_count_overlap: 'Stock-taking no. {number} of the same goods is still open: post or cancel it first ({field}).',
  hub_goods_brought: "This till's goods were brought to the hub already, as opening stock no. {number}.",
  hub_goods_none: "This till's book holds no goods on hand: there is nothing to bring to the hub.",
  hub_goods_shop_has_stock:
    "The shop already keeps its goods at the hub (its book has movements): this till's book is not brought over; enter goods at the hub.",
  hub_goods_product_unknown:
    "The shop's catalog at the hub lacks a product this till holds: send this till's catalog to the hub or add the product there.",
  hub_goods_supplier_unknown: 'The supplier is not in the register ({field}).',
  hub_goods_count_unknown: 'That stock-taking does not exist at the store hub ({field}).',
  hub_goods_below_purchase: 'The retail price is below the purchase price ({field}): check it or confirm it.',
  hub_goods_rate_unknown:
    "The hub does not know the VAT rate of this product's tax label: enter the retail price instead of the margin ({field}).",
  hub_goods_other_till: 'That draft was not entered on this till: a till changes only its own drafts ({field}).',
  hub_goods_pin_paused: 'Too many wrong PINs at the hub: try again a little later ({field}).',
  hub_goods_refused: 'The store hub did not accept the entry in "{field}".',
  hub_goods_no_hub: 'This till is not enrolled at a store hub.',
  hub_goods_not_sent:
    'The store hub is not reachable now: the draft waits on this till and is posted once the hub is back.',
  sef_advance_not_sent:
    'The final e-invoice deducts the advance invoices: first send the e-invoice of advance {number} to SEF ({field}).',
  prices_csv_empty: 'The file ({field}) has no row with a code and a price. Nothing was imported.',
  prices_csv_columns:
    'Row {row}, column {column} ({field}): a row has a code or barcode, a price and optionally the from and to days (2 to 4 columns). Nothing was imported.',
  prices_csv_code:
    'Row {row}, column {column} (code or barcode; {field}): the code is empty or longer than 32 characters. Nothing was imported.',
  prices_csv_price:
    'Row {row}, column {column} (price; {field}): “{value}” is not a price (1.234,50 with “;” or 1234.50 with “,”). Nothing was imported.',
  prices_csv_day:
    'Row {row}, column {column} (day; {field}): “{value}” is not a day (2026-12-01 or 01/12/2026). Nothing was imported.',
  prices_csv_days_differ:
    'Row {row}, column {column} (day; {field}): the from and to days are the list’s and must be the same on every row. Nothing was imported.',
  sef_from_hub: 'This shop’s e-invoices are sent by the store hub: see them at the hub, under E-invoices.',
};

/** The core's messages: `{field}` names the input field, other placeholders as each text says. */
export const coreMessages: Catalog<typeof SR_CYRL> = { 'sr-Cyrl': SR_CYRL, 'sr-Latn': SR_LATN, en: EN };

/** A key of the core's messages. */
export type CoreMessageKey = keyof typeof SR_CYRL;

/**
 * The message for `key` in `lang`, with `{name}` placeholders filled; unknown keys fall back to `invalid`. A
 * placeholder given an ISO timestamp (a lockout's `until`) is written as a local moment, never as ISO.
 */
export function message(lang: Language, key: string, params: Params = {}): string {
  const template = lookup(coreMessages, lang, key) ?? lookup(coreMessages, lang, 'invalid') ?? key;
  const shown = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [
      k,
      typeof v === 'string' && ISO_MOMENT.test(v) ? formatMoment(v, lang, { seconds: true }) : v,
    ]),
  );
  return interpolate(template, shown);
}

export function hasMessage(key: string): boolean {
  return key in SR_CYRL;
}
