import { describe, expect, it } from 'vitest';
import { findLeaks } from './language-leak.ts';

const kinds = (text: string, lang: 'sr-Cyrl' | 'sr-Latn' | 'en' = 'sr-Cyrl'): string[] =>
  findLeaks(text, lang).map((l) => `${l.kind}:${l.match}`);

describe('the language-leak checker', () => {
  it('passes clean Cyrillic text with the brand, units, codes and amounts', () => {
    const text =
      'Kasa — Менаџер\nИзвештај за 26.11.2026. у 14:05\nГотовина 1.344,08 RSD\nХлеб 0,500 kg\n' +
      'Рачун ABCD1234-ABCD1234-17 · ПИБ 100000024\nПреузми CSV · QR код · ESC/POS штампач · PIN менаџера\n' +
      'Поље „Количина“ је обавезно. Промена PIN-а · Enter · Ctrl+Delete · Српски (ћирилица) Srpski (latinica) ' +
      'English · Пореска ознака A · C';
    expect(findLeaks(text, 'sr-Cyrl')).toEqual([]);
  });

  it('passes clean Latin-script Serbian', () => {
    expect(findLeaks('Gotovina 1.344,08 RSD · Prenos na račun · To je PIN menadžera · Nema veze.', 'sr-Latn')).toEqual(
      [],
    );
  });

  it('catches raw enums and other Latin words on a Cyrillic screen', () => {
    expect(kinds('Начин плаћања: mobileMoney, virman · normal/sale · VAT-EXCL · piece')).toEqual([
      'latin:mobileMoney',
      'latin:virman',
      'latin:normal/sale',
      'latin:VAT-EXCL',
      'latin:piece',
    ]);
  });

  it('allows data the test itself entered, and nothing else', () => {
    expect(findLeaks('Napolitanke лешник 500 г', 'sr-Cyrl', ['Napolitanke'])).toEqual([]);
    expect(kinds('Napolitanke лешник 500 г')).toEqual(['latin:Napolitanke']);
    expect(kinds('Врста: normal-а')).toEqual(['latin:normal-а']);
  });

  it('catches ISO timestamps in every language', () => {
    expect(kinds('закључан до 2026-11-24T23:04:09.809Z')).toEqual(['iso:2026-11-24T23:04:09.809Z']);
    expect(kinds('Poslednji put viđena 2026-11-24T23:01:55Z', 'sr-Latn')).toEqual(['iso:2026-11-24T23:01:55Z']);
    expect(kinds('locked until 2026-11-24T23:04', 'en')).toEqual(['iso:2026-11-24T23:04']);
  });

  it('catches field paths in messages', () => {
    expect(kinds('Погрешан PIN (поље „pin“).')).toEqual(['field:поље „', 'latin:pin']);
    expect(kinds('Pogrešan PIN (polje „newPin“).', 'sr-Latn')).toEqual(['field:polje „']);
    expect(kinds('Wrong PIN (field "pin").', 'en')).toEqual(['field:(field "']);
    expect(kinds('The field "Quantity" is required.', 'en')).toEqual([]);
  });

  it('catches English sentences on Serbian screens, in both scripts', () => {
    expect(kinds('no active manager has this PIN', 'sr-Latn')).toEqual(['english:has', 'english:this']);
    expect(
      kinds('The gateway returned receipt X but it is another sale’s').filter((k) => k.startsWith('english')),
    ).toEqual(['english:The', 'english:returned', 'english:is', 'english:another']);
  });

  it('passes clean English with the data it is told of and the language picker', () => {
    const text =
      'Kasa — Manager\nReport for 26/11/2026, 14:05\nCash 1,344.08 RSD\nХлеб бели 0.500 kg\n' +
      'Cashier Ана · Label Ж · 19 % · Српски (ћирилица) · Srpski (latinica) · English · The field "Quantity" is required.';
    expect(findLeaks(text, 'en', ['Хлеб', 'бели', 'Ана'])).toEqual([]);
  });

  it('catches Serbian on an English screen: Cyrillic words, Serbian letters, Serbian function words', () => {
    expect(kinds('Payment: Готовина · Hleb 0.5 kg', 'en')).toEqual(['serbian:Готовина']);
    expect(kinds('Izveštaj · Iznos je obavezan', 'en')).toEqual([
      'serbian:Izveštaj',
      'serbian:Iznos',
      'serbian:je',
      'serbian:obavezan',
    ]);
    expect(kinds('Хлеб бели', 'en')).toEqual(['serbian:Хлеб', 'serbian:бели']);
    expect(kinds('Card, Cheque, Virman, Mobile payment', 'en')).toEqual(['serbian:Virman']);
    expect(kinds('Wrong PIN (поље „pin“)', 'en')).toEqual(['serbian:поље']);
  });
});
