/**
 * Text printed the same on every Serbian fiscal document Kasa makes: the sandbox's fiscal journal and the
 * non-fiscal refund slip (electron/printer/refund-slip.ts). One table, one date format, so the slip never
 * names a payment or a time differently from the receipt it belongs to.
 */

/** Payment types as the Tax Administration names them on receipts. */
export const PAYMENT_TYPE_NAMES: Readonly<Record<string, string>> = {
  cash: 'Готовина',
  card: 'Платна картица',
  wireTransfer: 'Пренос на рачун',
  check: 'Чек',
  voucher: 'Ваучер',
  mobileMoney: 'Инстант плаћање',
  virman: 'Вирман',
  mobile: 'Мобилно плаћање',
  factoring: 'Факторинг',
  account: 'На рачун',
  other: 'Друго безготовинско плаћање',
};

const belgrade = new Intl.DateTimeFormat('sr-Latn-RS', {
  timeZone: 'Europe/Belgrade',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** Belgrade local time as on Serbian receipts: `22.11.2024. 10:11:12`. */
export function formatReceiptDateTime(date: Date): string {
  const parts: Record<string, string> = {};
  for (const p of belgrade.formatToParts(date)) parts[p.type] = p.value;
  return `${parts['day']}.${parts['month']}.${parts['year']}. ${parts['hour']}:${parts['minute']}:${parts['second']}`;
}
