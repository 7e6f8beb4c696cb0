/** Printing commands and events (owned by electron/printer). */
import { z } from 'zod';
import { command, event } from './define.ts';
import * as s from './schemas.ts';

/** Code pages the printer module can encode (its own tables, see electron/printer/codepages.ts). */
export const CODE_PAGE_NAMES = ['CP437', 'CP1251', 'CP855', 'CP1250', 'CP852'] as const;
export type CodePageName = (typeof CODE_PAGE_NAMES)[number];

/** Where print bytes go. */
export type PrinterTarget =
  | { kind: 'tcp'; host: string; port: number }
  | { kind: 'file'; path: string }
  | { kind: 'cups'; queue: string }
  | { kind: 'winspool'; name: string };

/**
 * A Windows printer's name as the spooler knows it: what a person may type in the printer's properties
 * (spaces, Cyrillic, parentheses), or a shared printer's connection `\\SERVER\NAME`. No control characters,
 * no `,` and no other `\` (the spooler refuses them in a printer's name), at most 220 characters.
 */
function isWindowsPrinterName(name: string): boolean {
  if (name.length === 0 || name.length > 220 || name.trim() !== name || name.includes(',')) return false;
  if (s.hasControl(name)) return false;
  return !name.includes('\\') || /^\\\\[^\\]+\\[^\\]+$/.test(name);
}

/** The address of an installed Windows printer: `winspool://` and its name percent-encoded. */
export function winspoolUri(name: string): string {
  return `winspool://${encodeURIComponent(name)}`;
}

/**
 * A network printer's address typed without its scheme, as it is written on the printer's self-test page
 * (`192.168.1.50:9100`, `192.168.1.50`, `pos-printer.local:9100`, `[fd00::5]:9100`), as `tcp://…`; anything else
 * as typed (trimmed). A bare word without a dot or a port (`COM3`, `printer`) is not taken for a host.
 */
export function normalizePrinterAddress(text: string): string {
  const t = text.trim();
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(t)) return t;
  const m = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?\/?$/.exec(t);
  if (!m) return t;
  const host = m[1] ?? '';
  const port = m[2];
  if (port === undefined && !host.includes('.') && !host.startsWith('[')) return t;
  return `tcp://${host}${port === undefined ? '' : `:${port}`}`;
}

/**
 * Parses a printer address: `tcp://host[:port]` (port 9100 by default), `cups://QUEUE` (a raw CUPS
 * queue, printed with `lp -d QUEUE -o raw`), `winspool://NAME` (an installed Windows printer, the name
 * percent-encoded: `winspool://POS-80%20(USB)`; printed RAW through the spooler), `file:///path` or a
 * plain absolute path (`/dev/usb/lp0`, `C:\...`). Null when it is none of those.
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
  if (uri.startsWith('winspool://')) {
    let name: string;
    try {
      name = decodeURIComponent(uri.slice('winspool://'.length).replace(/\/$/, ''));
    } catch {
      return null; // a malformed percent escape
    }
    return isWindowsPrinterName(name) ? { kind: 'winspool', name } : null;
  }
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

/** A printer address as the contract takes it: a bare `host:port` is read as `tcp://host:port`. */
export const PrinterUri = z.preprocess(
  (v) => (typeof v === 'string' ? normalizePrinterAddress(v) : v),
  s.text(300).refine(
    (v) => {
      const target = parsePrinterUri(v);
      return target !== null && (target.kind !== 'file' || isPrinterDevicePath(target.path));
    },
    { error: 'printer_uri' },
  ),
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
  /**
   * How the printer reports its state over a bidirectional link (TCP, a USB/serial device):
   * `dle-eot`: answers the real-time requests `DLE EOT 1–4`; `gs-r`: answers only `GS r 1` (paper);
   * `none`: answers nothing (many clones): Kasa still prints, with the state unknown. Profiles stored
   * before this field existed read as `none`.
   */
  status: z.enum(['dle-eot', 'gs-r', 'none']).default('none'),
  /** The printer supports Automatic Status Back (`GS a`): it reports changes unasked. */
  asb: z.boolean().default(false),
});
export type PrinterProfile = z.infer<typeof PrinterProfileSchema>;

/** A printer installed in the operating system's spooler. */
export interface InstalledPrinter {
  /** The spooler's name of the printer (a Windows printer or a CUPS queue). */
  name: string;
  /** The address to configure: `cups://QUEUE` or `winspool://NAME`. */
  uri: string;
  isDefault: boolean;
}

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

/**
 * What the printer itself last said about its state (ESC/POS real-time status), as fields a program reads.
 * A field is null when nothing answered it: a profile with `status: 'none'`, a spooler queue, or a
 * printer that did not reply in time. Kasa then still prints, with the state unknown, and never blocks.
 */
export interface PrinterCondition {
  /**
   * `printer`: the printer answered the last status request; `unknown`: it cannot be asked (profile,
   * spooler) or did not answer; `unreachable`: no connection to it.
   */
  source: 'printer' | 'unknown' | 'unreachable';
  /** The printer reports itself online (DLE EOT 1 bit 3 clear). */
  online: boolean | null;
  /** The paper roll: `near_end` (the near-end sensor), `out` (the end sensor, printing stopped). */
  paper: 'ok' | 'near_end' | 'out' | null;
  coverOpen: boolean | null;
  /** The cash drawer, from the drawer kick connector's pin 3 (DLE EOT 1 bit 2); null where not reported. */
  drawerOpen: boolean | null;
  /** The error cause (DLE EOT 3): a cutter jam, a mechanical error, an unrecoverable or auto-recoverable one. */
  error: 'none' | 'cutter' | 'mechanical' | 'unrecoverable' | 'recoverable' | null;
  /** When the printer last answered (ISO 8601), or null. */
  checkedAt: string | null;
}

/** The condition before anything was asked, and wherever nothing can be. */
export const UNKNOWN_CONDITION: PrinterCondition = {
  source: 'unknown',
  online: null,
  paper: null,
  coverOpen: null,
  drawerOpen: null,
  error: null,
  checkedAt: null,
};

/**
 * A receipt whose printing Kasa cannot confirm (the printer does not answer status, or lost power during
 * the job): the counter asks the cashier „Да ли је рачун одштампан?“ and answers with `print.confirm`.
 */
export interface PrintConfirmRequest {
  jobId: number;
  orderId: number | null;
  kind: 'receipt' | 'test' | 'slip' | 'late';
  /** The fiscal receipt's number, for the question. */
  invoiceNumber: string | null;
}

/** A job held for a manager: it waited too long (no printer, or unreachable) to come out unasked. */
export interface HeldJob {
  id: number;
  orderId: number | null;
  kind: 'receipt' | 'test' | 'slip' | 'late';
  invoiceNumber: string | null;
  /** Total of the receipt in para, when it is one. */
  totalPara: number | null;
  /** ISO 8601. */
  createdAt: string;
}

/**
 * A sale made while neither the gateway nor an L-PFR could sign it (the customer got the non-fiscal slip, or
 * nothing with no printer set) whose fiscal receipt has not reached the buyer yet: not issued, or issued and
 * not printed here (no printer, the printer down, the job failed). Gone from the list once printed at this
 * till or e-mailed to the address the buyer gave (docs/printing.md, "Sales nobody could sign").
 */
export interface LateReceipt {
  orderId: number;
  orderNumber: string;
  totalPara: number;
  /** When the sale was made (ISO 8601). */
  soldAt: string;
  cashier: string | null;
  /** Whether the customer got the slip („ОВО НИЈЕ ФИСКАЛНИ РАЧУН“) or nothing (no printer set). */
  slip: 'printing' | 'none';
  /** The order: `queued` (not issued yet), `fiscalized` (issued, waits to be printed), `needs_attention`. */
  orderState: 'queued' | 'fiscalized' | 'needs_attention';
  invoiceNumber: string | null;
  /** When the fiscal receipt was issued (ISO 8601), or null. */
  issuedAt: string | null;
  /** Its print job: none yet (`null`), waiting (`queued`, `printing`, `sent`), `unconfirmed`, `failed`. */
  job: 'queued' | 'printing' | 'sent' | 'unconfirmed' | 'failed' | null;
  lastError: string | null;
}

/** The printer's state as the UI shows it. */
export interface PrintStatus {
  /**
   * `unconfigured`: no printer address; `idle`: nothing to do; `printing`: a job is being sent;
   * `offline`: the last attempt could not reach the printer, jobs wait and are retried;
   * `stopped`: the printer reports a condition that stops printing (paper out, cover open, an error), jobs
   * wait and a job already sent stays in the printer until it is fixed (never sent twice);
   * `failed`: a job gave up after its last attempt (reprint it, or fix the printer and print again).
   */
  state: 'unconfigured' | 'idle' | 'printing' | 'offline' | 'stopped' | 'failed';
  /** What the printer itself reports. */
  printer: PrinterCondition;
  /** The oldest job the cashier must answer for („Да ли је рачун одштампан?“), or null. */
  confirm: PrintConfirmRequest | null;
  /** Jobs held for a manager's decision (print or drop). */
  held: number;
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
  /** The shop's saved text above and below every receipt ('' when none): the settings screen shows it. */
  header: string;
  footer: string;
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
  'print.receipt': command<{ jobId: number }>('session')(
    z.strictObject({ orderId: s.id }),
    "Queues the order's fiscal receipt for printing (persistent; retried while the printer is offline). " +
      'Never contacts the gateway. not_found when the order has no receipt; unavailable with no printer set.',
  ),
  'print.test': command<{ jobId: number }>('session')(
    s.empty,
    'Queues a test page: every Serbian Cyrillic and Latin letter, the code pages in use, and a QR code. ' +
      'unavailable with no printer set.',
  ),
  'print.reprintLast': command<{ jobId: number | null }>('session')(
    s.empty,
    'Prints the last job again. A fiscal receipt that never finished printing is re-queued; one already ' +
      'printed is not printed again locally (a second copy must be a fiscal copy from the gateway): conflict. ' +
      'unavailable with no printer set.',
  ),
  'print.status': command<PrintStatus>('public')(s.empty, 'The printer state, queue size and last error.'),
  'print.check': command<PrintStatus>('session')(
    s.empty,
    'Asks the printer for its state now (the counter, before a sale ends) and returns the status. Never ' +
      'blocks on a printer that does not answer: its condition is then unknown.',
  ),
  'print.confirm': command<{ jobId: number | null }>('session')(
    z.strictObject({ jobId: s.id, cameOut: z.boolean({ error: 'boolean' }) }),
    "The cashier's answer to „Да ли је рачун одштампан?“ for a job Kasa could not confirm (audited either " +
      'way). Yes: the job counts as printed. No: it is printed once more (returns its job id). ' +
      'conflict when the job is not waiting for an answer.',
  ),
  'print.held': command<{ jobs: HeldJob[] }>('manager')(
    z.strictObject({ managerPin: s.managerPin }),
    'Jobs held for a manager: queued while no printer was set or it was unreachable for too long.',
  ),
  'print.resolveHeld': command<{ printed: number[]; dropped: number[] }>('manager')(
    z.strictObject({
      managerPin: s.managerPin,
      jobIds: z.array(s.id).min(1, { error: 'required' }).max(500, { error: 'too_long' }),
      action: z.enum(['print', 'drop'], { error: 'action' }),
    }),
    'A manager prints held jobs (queued again, never held again) or drops them (kept, never printed); ' +
      'audited. A fiscal receipt dropped here is still fiscalized: a copy can be issued later.',
  ),
  'print.lateReceipts': command<{ receipts: LateReceipt[] }>('session')(
    s.empty,
    'Sales made while nothing could sign them whose fiscal receipt has not reached the buyer yet (not issued, ' +
      'or issued and not printed here nor e-mailed), oldest first.',
  ),
  'print.lateReceipt': command<{ jobId: number }>('session')(
    z.strictObject({ orderId: s.id }),
    "Prints such a sale's fiscal receipt now (queued as a late receipt, never held; a failed one is tried " +
      'again; audited). conflict while it is not issued yet or once printed; unavailable with no printer set.',
  ),
  'printer.installed': command<{ printers: InstalledPrinter[] }>('session')(
    s.empty,
    'Printers installed in the operating system (Windows printers, CUPS queues), with the address to set.',
  ),
  'printer.profiles': command<{ profiles: PrinterProfileView[]; current: string }>('session')(
    s.empty,
    'The printer presets Kasa ships (built from escpos-printer-db) and the one in use.',
  ),
  'printer.configure': command<PrintStatus>('approval')(
    PrinterConfigureInput,
    'Stores the printer address, profile, header/footer and auto-print in settings; takes effect for the next job.',
  ),
} as const;

export const printerEvents = {
  'print.status': event<PrintStatus>('The printer started printing, went offline, came back, or a job failed.'),
} as const;
