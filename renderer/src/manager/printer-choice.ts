/**
 * Choosing the receipt printer, shared by the manager's printer section and the first-run setup flow: the
 * printers the system's spooler knows, and the address rule the core applies (checked before a manager's
 * approval is asked for and audited).
 */
import { useEffect, useState } from 'react';
import type { PosApi } from '../../../shared/contract/index.ts';
import {
  isPrinterDevicePath,
  normalizePrinterAddress,
  parsePrinterUri,
  type InstalledPrinter,
} from '../../../shared/contract/printer.ts';

/** The printers installed in the spooler (Windows printers, CUPS queues); null until listed, [] on failure. */
export function useInstalledPrinters(api: PosApi): InstalledPrinter[] | null {
  const [installed, setInstalled] = useState<InstalledPrinter[] | null>(null);
  useEffect(() => {
    let live = true;
    // A call of its own: a slow or missing spooler must not hold up the rest of the screen.
    void api['printer.installed']({})
      .then((r) => live && setInstalled(r.ok ? r.value.printers : []))
      .catch(() => live && setInstalled([]));
    return () => {
      live = false;
    };
  }, [api]);
  return installed;
}

/** The message key for an address the core would refuse (empty, unknown form, a file that is no printer). */
export function printerUriProblem(uri: string): 'required' | 'printer_uri' | null {
  if (!uri) return 'required';
  const target = parsePrinterUri(normalizePrinterAddress(uri));
  return !target || (target.kind === 'file' && !isPrinterDevicePath(target.path)) ? 'printer_uri' : null;
}
