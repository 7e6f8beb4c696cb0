/** Test receipts shaped like the gateway's: 40-column Cyrillic journal with the real markers. */
import { createHash } from 'node:crypto';
import type { ReceiptView } from '../../shared/domain.ts';

const pad = (left: string, right: string, width = 40) =>
  left + ' '.repeat(Math.max(1, width - left.length - right.length)) + right;
const center = (s: string, fill = ' ', width = 40) => {
  const total = width - s.length;
  const l = Math.floor(total / 2);
  return fill.repeat(l) + s + fill.repeat(total - l);
};

/** A realistic verificationUrl: the sandbox host plus ~200 characters of base64. */
export function verificationUrl(seed: string): string {
  let b = Buffer.alloc(0);
  for (let i = 0; b.length < 150; i++) b = Buffer.concat([b, createHash('sha256').update(`${seed}:${i}`).digest()]);
  return 'https://tap.sandbox.suf.purs.gov.rs/v/?vl=' + b.subarray(0, 150).toString('base64');
}

/** A gateway-style receipt. `latin` adds a Serbian Latin line (Š Đ Č Ć Ž) to the journal. */
export function makeReceipt(
  options: { seed?: string; latin?: boolean; items?: number; endMarker?: boolean } = {},
): ReceiptView {
  const seed = options.seed ?? 'r1';
  const invoiceNumber = 'X4TJ8WQH-X4TJ8WQH-1234';
  const items: [string, string, string][] = [
    ['Хлеб бели 500г (Ђ)', '2,000', '90,00'],
    ['Млеко 2,8% 1л (Е)', '1,000', '149,99'],
    ['Јогурт Љубичица 180г (Ђ)', '3,000', '210,00'],
    ['Џем од шљива Њива (Ђ)', '1,000', '329,00'],
    ['Ћевапи Ђурђевдан кг (Ђ)', '0,750', '899,25'],
  ];
  const lines: string[] = [];
  lines.push(center(' ФИСКАЛНИ РАЧУН ', '='));
  lines.push(center('1234567'));
  lines.push(center(options.latin ? 'Prodavnica Čačak - Šabac' : 'Продавница Чачак'));
  lines.push(center('Кнеза Милоша 12'));
  lines.push(center('Београд (Врачар)'));
  lines.push(pad('Касир:', 'Ђорђе Јовић'));
  lines.push(pad('ЕСИР број:', '123/1.0'));
  lines.push(center(' ПРОМЕТ ПРОДАЈА ', '-'));
  lines.push('Артикли');
  lines.push(center('', '='));
  lines.push(pad('Назив   Цена', 'Кол.   Укупно'));
  const n = options.items ?? items.length;
  for (let i = 0; i < n; i++) {
    const [name, qty, total] = items[i % items.length]!;
    lines.push(name);
    lines.push(pad(`   ${total}`, `${qty}   ${total}`));
  }
  if (options.latin) lines.push(pad('Šljivovica Đurđevac Ž', '1   1.200,00'));
  lines.push(center('', '-'));
  lines.push(pad('Укупан износ:', '1.678,24'));
  lines.push(pad('Готовина:', '2.000,00'));
  lines.push(pad('Повраћај:', '321,76'));
  lines.push(center('', '='));
  lines.push(pad('Ознака', 'Име      Стопа    Порез'));
  lines.push(pad('Ђ', 'О-ПДВ    20,00%   212,00'));
  lines.push(pad('Е', 'П-ПДВ    10,00%    13,64'));
  lines.push(center('', '-'));
  lines.push(pad('Укупан износ пореза:', '225,64'));
  lines.push(center('', '='));
  lines.push(pad('ПФР време:', '21.11.2025. 10:15:42'));
  lines.push(pad('ПФР број рачуна:', invoiceNumber));
  lines.push(pad('Бројач рачуна:', '1234/1238ПП'));
  lines.push(center('', '='));
  if (options.endMarker !== false) lines.push(center(' КРАЈ ФИСКАЛНОГ РАЧУНА ', '='));
  for (const l of lines) if ([...l].length > 40) throw new Error(`fixture line over 40 columns: ${JSON.stringify(l)}`);
  return {
    invoiceNumber,
    invoiceCounter: '1234/1238ПП',
    invoiceCounterExtension: 'ПП',
    invoiceType: 'normal',
    transactionType: 'sale',
    sdcDateTime: '2025-11-21T10:15:42.123+01:00',
    verificationUrl: verificationUrl(seed),
    invoicePdfUrl: '',
    totalPara: 167824,
    journal: lines.join('\r\n') + '\r\n',
    taxItems: [],
    businessName: 'Продавница Чачак',
    locationName: 'Врачар',
  };
}
