/**
 * The printer presets' names in the UI languages, by preset id (resources/printers/presets.json): the maker and
 * model stay as they are written, the rest is in the UI's words. A preset with no entry here falls back to the
 * word-by-word translation of its English name (a test requires every shipped preset to have an entry).
 */
import type { Language } from '../domain.ts';
import { printerProfileName } from './enums.ts';

export const PRESET_NAMES: Record<Language, Readonly<Record<string, string>>> = {
  'sr-Cyrl': {
    'epson-tm-t88v': 'Epson TM-T88V (80 mm, 512 тачака)',
    'epson-tm-t88iv': 'Epson TM-T88IV (80 mm, растер)',
    'star-tsp600': 'Star TSP600/TSP650 у ESC/POS режиму (80 mm)',
    'star-tup500': 'Star TUP500 у ESC/POS режиму (80 mm)',
    'pos-5890': 'POS-5890 и слични (58 mm)',
    'nt-5890k': 'Netum NT-5890K (58 mm)',
    'zj-5870': 'ZiJiang ZJ-5870 / POS-58 (58 mm, растер)',
    'sunmi-v2': 'Sunmi V2, уграђени штампач (58 mm, CP855)',
    'rongta-rp326': 'Rongta RP326 (80 mm)',
    'generic-80': 'Општи ESC/POS штампач, Epson табеле знакова (80 mm, 576 тачака)',
    'generic-58': 'Општи ESC/POS штампач, Epson табеле знакова (58 mm, 384 тачке)',
  },
  'sr-Latn': {
    'epson-tm-t88v': 'Epson TM-T88V (80 mm, 512 tačaka)',
    'epson-tm-t88iv': 'Epson TM-T88IV (80 mm, raster)',
    'star-tsp600': 'Star TSP600/TSP650 u ESC/POS režimu (80 mm)',
    'star-tup500': 'Star TUP500 u ESC/POS režimu (80 mm)',
    'pos-5890': 'POS-5890 i slični (58 mm)',
    'nt-5890k': 'Netum NT-5890K (58 mm)',
    'zj-5870': 'ZiJiang ZJ-5870 / POS-58 (58 mm, raster)',
    'sunmi-v2': 'Sunmi V2, ugrađeni štampač (58 mm, CP855)',
    'rongta-rp326': 'Rongta RP326 (80 mm)',
    'generic-80': 'Opšti ESC/POS štampač, Epson tabele znakova (80 mm, 576 tačaka)',
    'generic-58': 'Opšti ESC/POS štampač, Epson tabele znakova (58 mm, 384 tačke)',
  },
  en: {
    'epson-tm-t88v': 'Epson TM-T88V (80 mm, 512 dots)',
    'epson-tm-t88iv': 'Epson TM-T88IV (80 mm, raster)',
    'star-tsp600': 'Star TSP600/TSP650 in ESC/POS mode (80 mm)',
    'star-tup500': 'Star TUP500 in ESC/POS mode (80 mm)',
    'pos-5890': 'POS-5890 and clones (58 mm)',
    'nt-5890k': 'Netum NT-5890K (58 mm)',
    'zj-5870': 'ZiJiang ZJ-5870 / POS-58 (58 mm, raster)',
    'sunmi-v2': 'Sunmi V2 built-in printer (58 mm, CP855)',
    'rongta-rp326': 'Rongta RP326 (80 mm)',
    'generic-80': 'Generic ESC/POS printer, Epson character tables (80 mm, 576 dots)',
    'generic-58': 'Generic ESC/POS printer, Epson character tables (58 mm, 384 dots)',
  },
};

/** A preset's name in `lang`: its entry by id, else its English name translated word by word. */
export function presetName(lang: Language, profile: { id: string; name: string }): string {
  return PRESET_NAMES[lang][profile.id] ?? printerProfileName(lang, profile.name);
}
