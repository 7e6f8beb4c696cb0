/**
 * The words of a group's price change by a percentage that the till's dialog (BulkPriceDialog.tsx) and the hub's
 * Артикли section (HubCatalog.tsx) both show: one table, so the two screens never name the same step apart.
 */
import type { Language } from '../domain.ts';

export const BULK_PRICE_WORDS: Record<
  Language,
  Record<'bulkTitle' | 'chooseGroup' | 'bulkPercent' | 'bulkPreview' | 'bulkConfirm' | 'percentInvalid', string>
> = {
  'sr-Cyrl': {
    bulkTitle: 'Промена цена групе у процентима',
    chooseGroup: '— изаберите групу —',
    bulkPercent: 'Проценат промене (%)',
    bulkPreview: 'Прегледај',
    bulkConfirm: 'Промени цене',
    percentInvalid: 'Унесите проценат бројем, нпр. 5 или −2,5 (од −100 до +1000, не нула).',
  },
  'sr-Latn': {
    bulkTitle: 'Promena cena grupe u procentima',
    chooseGroup: '— izaberite grupu —',
    bulkPercent: 'Procenat promene (%)',
    bulkPreview: 'Pregledaj',
    bulkConfirm: 'Promeni cene',
    percentInvalid: 'Unesite procenat brojem, npr. 5 ili −2,5 (od −100 do +1000, ne nula).',
  },
  en: {
    bulkTitle: 'Change a group’s prices by a percentage',
    chooseGroup: '— choose a group —',
    bulkPercent: 'Change (%)',
    bulkPreview: 'Preview',
    bulkConfirm: 'Change prices',
    percentInvalid: 'Enter the percentage as a number, e.g. 5 or −2.5 (−100 to +1000, not zero).',
  },
};
