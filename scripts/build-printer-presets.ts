/**
 * Development-time generator: builds resources/printers/presets.json (the printer presets Kasa ships)
 * from the public escpos-printer-db capabilities file (MIT, as shipped in escpos-php).
 *
 *   npx node scripts/build-printer-presets.ts [path/to/escpos-capabilities.json]
 *
 * Default input: ../shared/data/escpos-capabilities.json beside the checkout. The app never reads the
 * capabilities file at run time.
 */
import fs from 'node:fs';
import path from 'node:path';

interface CapProfile {
  name: string;
  vendor: string;
  codePages: Record<string, string>;
  fonts: Record<string, { columns: number; name: string }>;
  features: Record<string, boolean>;
  media: { width: { mm: number | string; pixels: number | string } };
}

interface PresetSpec {
  id: string;
  source: string;
  name: string;
  paperMm: 58 | 80;
  /** Printable dots when the database does not know them. */
  dots?: number;
  /** Whether the preset kicks a cash drawer (pin 2) when the printer can pulse. */
  drawer: boolean;
}

const SPECS: PresetSpec[] = [
  { id: 'epson-tm-t88v', source: 'TM-T88V', name: 'Epson TM-T88V (80 mm, 512 dots)', paperMm: 80, drawer: true },
  { id: 'epson-tm-t88iv', source: 'TM-T88IV', name: 'Epson TM-T88IV (80 mm, raster)', paperMm: 80, drawer: true },
  {
    id: 'star-tsp600',
    source: 'TSP600',
    name: 'Star TSP600/TSP650 in ESC/POS mode (80 mm)',
    paperMm: 80,
    dots: 576,
    drawer: true,
  },
  {
    id: 'star-tup500',
    source: 'TUP500',
    name: 'Star TUP500 in ESC/POS mode (80 mm)',
    paperMm: 80,
    dots: 576,
    drawer: false,
  },
  { id: 'pos-5890', source: 'POS-5890', name: 'POS-5890 and clones (58 mm)', paperMm: 58, drawer: true },
  { id: 'nt-5890k', source: 'NT-5890K', name: 'Netum NT-5890K (58 mm)', paperMm: 58, drawer: true },
  { id: 'zj-5870', source: 'ZJ-5870', name: 'ZiJiang ZJ-5870 / POS-58 (58 mm, raster)', paperMm: 58, drawer: true },
  { id: 'sunmi-v2', source: 'Sunmi-V2', name: 'Sunmi V2 built-in printer (58 mm, CP855)', paperMm: 58, drawer: false },
  { id: 'rongta-rp326', source: 'RP326', name: 'Rongta RP326 (80 mm)', paperMm: 80, dots: 576, drawer: true },
  {
    id: 'generic-80',
    source: 'default',
    name: 'Generic ESC/POS, Epson tables (80 mm, 576 dots)',
    paperMm: 80,
    dots: 576,
    drawer: true,
  },
  {
    id: 'generic-58',
    source: 'default',
    name: 'Generic ESC/POS, Epson tables (58 mm, 384 dots)',
    paperMm: 58,
    dots: 384,
    drawer: true,
  },
];

/** Width of a font's cell in dots: the standard ESC/POS 12-dot font A and 9-dot font B. */
const CELL = { A: 12, B: 9 } as const;
const JOURNAL_COLUMNS = 40;
const ENCODABLE = ['CP437', 'CP1251', 'CP855', 'CP1250', 'CP852'];

function build(capsFile: string): unknown[] {
  const caps = JSON.parse(fs.readFileSync(capsFile, 'utf8')) as { profiles: Record<string, CapProfile> };
  return SPECS.map((spec) => {
    const p = caps.profiles[spec.source];
    if (!p) throw new Error(`no profile ${spec.source}`);
    const pixels = typeof p.media.width.pixels === 'number' ? p.media.width.pixels : undefined;
    const dots = pixels ?? spec.dots ?? (spec.paperMm === 58 ? 384 : 576);
    const codePages: Record<string, number> = {};
    for (const [n, name] of Object.entries(p.codePages)) if (ENCODABLE.includes(name)) codePages[name] = Number(n);
    const cyrillic = ['CP1251', 'CP855'].find((c) => c in codePages);
    const latin = (cyrillic === 'CP855' ? ['CP852', 'CP1250'] : ['CP1250', 'CP852']).find((c) => c in codePages);
    // The smallest standard font that still gives 40 columns on this paper, from the fonts the printer has.
    const fonts = Object.entries(p.fonts)
      .map(([k, f]) => ({ font: k === '0' ? ('A' as const) : k === '1' ? ('B' as const) : null, name: f.name }))
      .filter((f): f is { font: 'A' | 'B'; name: string } => f.font !== null);
    const fit = fonts.find((f) => Math.floor(dots / CELL[f.font]) >= JOURNAL_COLUMNS);
    const mode = cyrillic && fit ? 'text' : 'raster';
    return {
      id: spec.id,
      name: spec.name,
      vendor: p.vendor,
      source: spec.source,
      paperMm: spec.paperMm,
      dots,
      font: fit?.font ?? 'A',
      columns: Math.floor(dots / CELL[fit?.font ?? 'A']),
      codePages,
      textPages: [cyrillic, latin].filter((c): c is string => c !== undefined),
      mode,
      qr: p.features.qrCode ? 'native' : 'raster',
      cutter: p.features.paperPartCut ? 'partial' : p.features.paperFullCut ? 'full' : 'none',
      drawerPin: spec.drawer && p.features.pulseStandard ? 0 : null,
    };
  });
}

const input = process.argv[2] ?? path.resolve(import.meta.dirname, '../../shared/data/escpos-capabilities.json');
const out = path.resolve(import.meta.dirname, '../resources/printers/presets.json');
fs.writeFileSync(out, JSON.stringify(build(input), null, 2) + '\n');
console.log(`wrote ${out}`);
