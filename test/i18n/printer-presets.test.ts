/**
 * Every printer preset Kasa ships has its name in the three UI languages, and a Serbian name has no English
 * word in it (the language-leak checker reads it as a screen would): the maker and model stay as written.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../electron/printer/profiles.ts';
import { LANGUAGES } from '../../shared/domain.ts';
import { PRESET_NAMES, presetName } from '../../shared/i18n/printers.ts';
import { findLeaks } from '../support/language-leak.ts';

/** The makers' and models' words (a model has a digit, so the checker passes it anyway). */
const MAKERS = ['Epson', 'Star', 'Netum', 'ZiJiang', 'Sunmi', 'Rongta'];

describe('printer preset names', () => {
  it('each shipped preset is named in every language, and in Serbian without English', () => {
    expect(PRESETS.length).toBeGreaterThan(5);
    for (const lang of LANGUAGES)
      for (const p of PRESETS) expect(PRESET_NAMES[lang][p.id], `${lang} ${p.id}`).toBeTruthy();
    for (const lang of ['sr-Cyrl', 'sr-Latn'] as const) {
      const names = PRESETS.map((p) => presetName(lang, p)).join('\n');
      expect(findLeaks(names, lang, MAKERS)).toEqual([]);
    }
    // What the screen showed before: English beside Serbian.
    expect(findLeaks('Generic ESC/POS, Epson tables (80 mm, 576 dots)', 'sr-Cyrl', MAKERS)).not.toEqual([]);
    expect(presetName('sr-Cyrl', { id: 'generic-80', name: '' })).toContain('Општи ESC/POS штампач');
  });
});
