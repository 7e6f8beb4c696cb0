/** Printer profiles: the presets Kasa ships (resources/printers/presets.json) and custom ones. */
import { z } from 'zod';
import presetsJson from '../../resources/printers/presets.json' with { type: 'json' };
import { PrinterProfileSchema, type PrinterProfile, type PrinterProfileView } from '../../shared/contract/printer.ts';

export type { PrinterProfile };

/** The presets, validated once at load. */
export const PRESETS: readonly PrinterProfile[] = z.array(PrinterProfileSchema).parse(presetsJson);

/** The profile used when none is configured: a generic 80 mm Epson-compatible printer. */
export const DEFAULT_PROFILE_ID = 'generic-80';

/** The preset with this id, or undefined. */
export function findPreset(id: string): PrinterProfile | undefined {
  return PRESETS.find((p) => p.id === id);
}

/** A profile as listed to the UI. */
export function profileView(p: PrinterProfile): PrinterProfileView {
  return {
    id: p.id,
    name: p.name,
    vendor: p.vendor,
    paperMm: p.paperMm,
    dots: p.dots,
    columns: p.columns,
    mode: p.mode,
    qr: p.qr,
    cutter: p.cutter,
    drawer: p.drawerPin !== null,
  };
}

/**
 * The `ESC t` numbers, reversed: number → code page, for the decoder. Vendors reuse numbers for
 * different pages (Epson 34 is CP855, Star 34 is CP1251), so decoding needs the profile.
 */
export function codePageNumbers(p: PrinterProfile): Record<number, PrinterProfile['textPages'][number]> {
  const out: Record<number, PrinterProfile['textPages'][number]> = {};
  for (const [name, n] of Object.entries(p.codePages) as [PrinterProfile['textPages'][number], number][]) out[n] = name;
  return out;
}
