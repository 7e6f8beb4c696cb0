/** Printing commands and events (owned by electron/printer). */
import { z } from 'zod';
import { command, event } from './define.ts';
import * as s from './schemas.ts';

/** Code pages the printer module can encode (its own tables, see electron/printer/codepages.ts). */
export const CODE_PAGE_NAMES = ['CP437', 'CP1251', 'CP855', 'CP1250', 'CP852'] as const;
export type CodePageName = (typeof CODE_PAGE_NAMES)[number];

/** Where print bytes go. */
export type PrinterTarget =
  { kind: 'tcp'; host: string; port: number } | { kind: 'file'; path: string } | { kind: 'cups'; queue: string };

/**
 * Parses a printer address: `tcp://host[:port]` (port 9100 by default), `cups://QUEUE` (a raw CUPS
 * queue, printed with `lp -d QUEUE -o raw`), `file:///path` or a plain absolute path (`/dev/usb/lp0`,
 * `C:\...`). Null when it is none of those.
 */
export function parsePrinterUri(uri: string): PrinterTarget | null {
  const tcp = /^tcp:\/\/(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?\/?$/.exec(uri);
  if (tcp) {
    const port = tcp[2] === undefined ? 9100 : Number(tcp[2]);
    if (port < 1 || port > 65535) return null;
    return { kind: 'tcp', host: (tcp[1] ?? '').replace(/^\[|\]$/g, ''), port };
  }
  const cups = /^cups:\/\/([A-Za-z0-9_.@-]{1,127})\/?$/.exec(uri);
  if (cups) return { kind: 'cups', queue: cups[1] ?? '' };
  if (uri.startsWith('file://')) {
    const p = decodeURIComponent(uri.slice('file://'.length));
    return p.startsWith('/') ? { kind: 'file', path: p } : null;
  }
  if (uri.startsWith('/') || /^[A-Za-z]:[\\/]/.test(uri) || uri.startsWith('\\\\')) return { kind: 'file', path: uri };
  return null;
}

/**
 * Printer device paths a person may choose in the UI: USB/parallel/serial/Bluetooth printer devices on
 * Linux, COM/LPT ports on Windows. Any other file path is accepted only from `KASA_PRINTER` (set by
 * whoever installs the till), so the contract can never be used to write bytes into arbitrary files.
 */
export function isPrinterDevicePath(path: string): boolean {
  return (
    /^\/dev\/(usb\/lp\d{1,3}|lp\d{1,3}|tty(USB|ACM|S)\d{1,3}|rfcomm\d{1,3})$/.test(path) ||
    /^\\\\\.\\(COM|LPT)\d{1,3}$/i.test(path)
  );
}

export const PrinterUri = z
  .string({ error: 'text' })
  .trim()
  .min(1, { error: 'required' })
  .max(300, { error: 'too_long' })
  .refine(
    (v) => {
      const target = parsePrinterUri(v);
      return target !== null && (target.kind !== 'file' || isPrinterDevicePath(target.path));
    },
    { error: 'printer_uri' },
  );

/** A printer profile: everything the byte builder needs to know about one printer model. */
export const PrinterProfileSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]{1,60}$/, { error: 'profile_id' }),
  name: z.string().min(1).max(100),
  vendor: z.string().max(60),
  /** Which escpos-printer-db profile it was built from ('custom' for hand-made ones). */
  source: z.string().max(60),
  paperMm: z.union([z.literal(58), z.literal(80)]),
  /** Printable width in dots: 384 on 58 mm, 512 or 576 on 80 mm. */
  dots: z.number().int().min(128).max(832),
  /** The font the journal is printed in, chosen so that `columns` >= 40. */
  font: z.enum(['A', 'B']),
  columns: z.number().int().min(16).max(80),
  /** `ESC t n` numbers of the code pages this printer has (vendor specific). */
  codePages: z.partialRecord(z.enum(CODE_PAGE_NAMES), z.number().int().min(0).max(255)),
  /** Code pages text is printed in, in order of preference: a Cyrillic page first, then a Latin-2 page. */
  textPages: z.array(z.enum(CODE_PAGE_NAMES)).max(5),
  /** `text`: the printer's own font and code pages; `raster`: the whole receipt as a 1-bit image. */
  mode: z.enum(['text', 'raster']),
  qr: z.enum(['native', 'raster']),
  cutter: z.enum(['full', 'partial', 'none']),
  /** Cash drawer: `ESC p` pin (0 = connector pin 2, 1 = pin 5), or null for none. */
  drawerPin: z.union([z.literal(0), z.literal(1), z.null()]),
});
export type PrinterProfile = z.infer<typeof PrinterProfileSchema>;

/** A preset as listed to the UI. */
export interface PrinterProfileView {
  id: string;
  name: string;
  vendor: string;
  paperMm: 58 | 80;
  dots: number;
  columns: number;
  mode: 'text' | 'raster';
  qr: 'native' | 'raster';
  cutter: 'full' | 'partial' | 'none';
  drawer: boolean;
}

/** The printer's state as the UI shows it. */
export interface PrintStatus {
  /**
   * `unconfigured`: no printer address; `idle`: nothing to do; `printing`: a job is being sent;
   * `offline`: the last attempt could not reach the printer, jobs wait and are retried;
   * `failed`: a job gave up after its last attempt (reprint it, or fix the printer and print again).
   */
  state: 'unconfigured' | 'idle' | 'printing' | 'offline' | 'failed';
  /**
   * A printer address is set. Without one every print command is refused (`printer_not_configured`) and
   * auto-print queues nothing, so no receipt waits to come out unasked once a printer is set.
   */
  configured: boolean;
  uri: string | null;
  /** Where the address comes from: the `KASA_PRINTER` environment variable overrides the settings. */
  uriSource: 'env' | 'settings' | 'none';
  profileId: string;
  autoPrint: boolean;
  /** Jobs waiting (queued or printing). */
  queued: number;
  /** Jobs that gave up. */
  failed: number;
  /** The job being printed, if any. */
  jobId: number | null;
  lastError: string | null;
  lastPrintedAt: string | null;
}

/** C0 (but line feed), DEL, C1 and the Unicode line/paragraph separators: bytes a printer may act on. */
function isControl(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return (c < 0x20 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f) || c === 0x2028 || c === 0x2029;
}

/** Shop text for the receipt: printable characters and line breaks only (no ESC/POS control bytes). */
const optionalText = (max: number) =>
  z
    .string({ error: 'text' })
    .max(max, { error: 'too_long' })
    .refine((text) => ![...text].some(isControl), { error: 'printable_only' })
    .optional();

export const PrinterConfigureInput = z.strictObject({
  uri: PrinterUri,
  profileId: z.string({ error: 'text' }).min(1, { error: 'required' }).max(60, { error: 'too_long' }),
  /** Shop text printed above the journal (plain lines, never part of the fiscal journal). */
  header: optionalText(400),
  footer: optionalText(400),
  /** Print every receipt as soon as it is fiscalized (read by the core through `print.status`). */
  autoPrint: z.boolean({ error: 'boolean' }).optional(),
  /** With `profileId: 'custom'`: the hand-made profile. */
  custom: PrinterProfileSchema.optional(),
});
export type PrinterConfigureInput = z.infer<typeof PrinterConfigureInput>;

export const printerCommands = {
  'print.receipt': command<{ jobId: number }>()(
    z.strictObject({ orderId: s.id }),
    "Queues the order's fiscal receipt for printing (persistent; retried while the printer is offline). " +
      'Never contacts the gateway. not_found when the order has no receipt; unavailable with no printer set.',
    { auth: 'session' },
  ),
  'print.test': command<{ jobId: number }>()(
    s.empty,
    'Queues a test page: every Serbian Cyrillic and Latin letter, the code pages in use, and a QR code. ' +
      'unavailable with no printer set.',
    { auth: 'session' },
  ),
  'print.reprintLast': command<{ jobId: number | null }>()(
    s.empty,
    'Prints the last job again. A fiscal receipt that never finished printing is re-queued; one already ' +
      'printed is not printed again locally (a second copy must be a fiscal copy from the gateway): conflict. ' +
      'unavailable with no printer set.',
    { auth: 'session' },
  ),
  'print.status': command<PrintStatus>()(s.empty, 'The printer state, queue size and last error.', { auth: 'public' }),
  'printer.profiles': command<{ profiles: PrinterProfileView[]; current: string }>()(
    s.empty,
    'The printer presets Kasa ships (built from escpos-printer-db) and the one in use.',
    { auth: 'session' },
  ),
  'printer.configure': command<PrintStatus>()(
    PrinterConfigureInput,
    'Stores the printer address, profile, header/footer and auto-print in settings; takes effect for the next job.',
    { auth: 'approval' },
  ),
} as const;

export const printerEvents = {
  'print.status': event<PrintStatus>('The printer started printing, went offline, came back, or a job failed.'),
} as const;
