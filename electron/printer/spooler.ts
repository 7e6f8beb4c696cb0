/**
 * Spoolers: printers installed in the operating system, printed to RAW (the receipt's ESC/POS bytes reach
 * the printer untouched, no driver renders them).
 * - CUPS (Linux): `lp -d QUEUE -o raw` prints, `lpstat -e` / `lpstat -d` list the queues and the default.
 *   The CUPS client tools honour `CUPS_SERVER` (a test's private cupsd).
 * - Windows: the spooler's own calls (OpenPrinter, StartDocPrinter with the `RAW` datatype, WritePrinter,
 *   EndDocPrinter) behind `WinspoolApi`. No maintained native library has its Windows binary on the npm
 *   registry (docs/printing.md, "Spoolers"), so the default binding runs those calls from Windows
 *   PowerShell 5.1 (part of Windows 10 and 11) with P/Invoke; a native binding can replace it behind the
 *   same interface.
 * A spooler cannot say whether paper came out: jobs printed through it leave the printer's condition
 * unknown.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { childEnv } from '../auth/child-env.ts';
import { parsePrinterUri, winspoolUri, type InstalledPrinter } from '../../shared/contract/printer.ts';
import { TransportError } from './transport.ts';

/** An operating system's print spooler. */
export interface Spooler {
  /** The installed printers; empty (never an error) where the system has no spooler or it is not running. */
  list(): Promise<InstalledPrinter[]>;
  /**
   * Submits one RAW job and resolves once the spooler accepted every byte, with its job id (null when the
   * spooler did not say). Rejects with a `TransportError`: `offline` when the printer or the spooler
   * cannot be reached, `io` when the job failed once started.
   */
  printRaw(name: string, bytes: Buffer, jobName: string): Promise<string | null>;
}

// ---------------------------------------------------------------------------------------------------------
// CUPS

export interface CupsSpoolerOptions {
  /** The CUPS client commands (default `lp` and `lpstat` from PATH). */
  lp?: string;
  lpstat?: string;
  /** How long `lp` may take to hand one job over (default 60 s). */
  printTimeoutMs?: number;
}

/** How long listing the printers may take, and one job's hand-over to the spooler. */
const LIST_TIMEOUT_MS = 15_000;
const PRINT_TIMEOUT_MS = 60_000;

/** Runs a command with `input` on stdin; resolves with its exit code and output (rejects only if it cannot start). */
function run(
  cmd: string,
  args: string[],
  input: Buffer | null,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], env, windowsHide: true });
    // An unreachable CUPS server or a stuck spooler must not hold a job (or the settings screen) forever.
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, timeoutMs);
    timer.unref();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < 1_000_000) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 100_000) stderr += d.toString('utf8');
    });
    child.stdin.on('error', () => {}); // reported through the exit code
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
    child.stdin.end(input ?? undefined);
  });
}

/** The C locale for the client tools' own words (`lpstat -d`), whatever the till's language. */
function cEnv(): NodeJS.ProcessEnv {
  return { ...childEnv(), LC_ALL: 'C', LANG: 'C' };
}

/** CUPS through its client tools. */
export function createCupsSpooler(options: CupsSpoolerOptions = {}): Spooler {
  const lp = options.lp ?? 'lp';
  const lpstat = options.lpstat ?? 'lpstat';
  const printTimeout = options.printTimeoutMs ?? PRINT_TIMEOUT_MS;
  return {
    async list() {
      try {
        const names = await run(lpstat, ['-e'], null, cEnv(), LIST_TIMEOUT_MS);
        if (names.code !== 0) return []; // no scheduler running, or no queues
        const def = await run(lpstat, ['-d'], null, cEnv(), LIST_TIMEOUT_MS);
        const defaultName = /destination:\s*(\S+)\s*$/m.exec(def.stdout)?.[1] ?? null;
        const out: InstalledPrinter[] = [];
        for (const line of names.stdout.split('\n')) {
          const name = line.trim();
          // Instances (`QUEUE/instance`) and names the address cannot carry are left out.
          if (!name || parsePrinterUri(`cups://${name}`)?.kind !== 'cups') continue;
          out.push({ name, uri: `cups://${name}`, isDefault: name === defaultName });
        }
        return out;
      } catch {
        return []; // lpstat is not installed: no CUPS on this system
      }
    },
    async printRaw(queue, bytes, jobName) {
      let r: Awaited<ReturnType<typeof run>>;
      try {
        r = await run(lp, ['-d', queue, '-o', 'raw', '-t', jobName], bytes, childEnv(), printTimeout);
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        throw new TransportError(
          'offline',
          `cups ${queue}: ${err.code === 'ENOENT' ? `${lp} not found` : err.message}`,
        );
      }
      if (r.timedOut) throw new TransportError('timeout', `cups ${queue}: ${lp} did not finish in ${printTimeout} ms`);
      if (r.code !== 0) {
        throw new TransportError('offline', `cups ${queue}: ${lp} exited ${r.code}: ${r.stderr.trim().slice(0, 200)}`);
      }
      return /request id is (\S+)/.exec(r.stdout)?.[1] ?? null;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Windows

/** A Windows spooler call that failed: the step and the Win32 error code (GetLastError). */
export class WinspoolError extends Error {
  readonly step: 'open' | 'start' | 'write' | 'end' | 'run';
  readonly win32: number;
  constructor(step: WinspoolError['step'], win32: number, message: string) {
    super(message);
    this.name = 'WinspoolError';
    this.step = step;
    this.win32 = win32;
  }
}

/**
 * The Windows spooler calls Kasa needs: the boundary a test stubs (no Windows spooler here). `writeRaw`
 * opens the printer, starts a document with the `RAW` datatype, writes every byte, ends the document,
 * and returns the spooler's job id; it rejects with a `WinspoolError`.
 */
export interface WinspoolApi {
  printers(): Promise<{ name: string; isDefault: boolean }[]>;
  /** Rejects with a `WinspoolError`; step `run` when the binding itself could not run (or timed out). */
  writeRaw(printer: string, bytes: Buffer, docName: string): Promise<number>;
}

// Win32 error codes that mean the printer is not there (renamed, deleted, its spooler stopped), so the
// job waits and is retried like any unreachable printer.
const NOT_THERE = new Set([
  2, // ERROR_FILE_NOT_FOUND
  1722, // RPC_S_SERVER_UNAVAILABLE: the spooler service is stopped
  1801, // ERROR_INVALID_PRINTER_NAME
  1905, // ERROR_PRINTER_DELETED
  1906, // ERROR_INVALID_PRINTER_STATE
  3012, // ERROR_PRINTER_NOT_FOUND
]);

/** The Windows spooler over `api`. */
export function createWindowsSpooler(api: WinspoolApi): Spooler {
  return {
    async list() {
      try {
        const printers = await api.printers();
        return printers
          .filter((p) => parsePrinterUri(winspoolUri(p.name))?.kind === 'winspool')
          .map((p) => ({ name: p.name, uri: winspoolUri(p.name), isDefault: p.isDefault }));
      } catch {
        return []; // no spooler (the service is stopped, or this is not Windows)
      }
    },
    async printRaw(name, bytes, jobName) {
      try {
        return String(await api.writeRaw(name, bytes, jobName));
      } catch (e) {
        if (e instanceof WinspoolError) {
          const offline = e.step === 'open' || e.step === 'run' || NOT_THERE.has(e.win32);
          const what = e.step === 'run' ? e.message : `${e.step} failed (Win32 error ${e.win32})`;
          throw new TransportError(offline ? 'offline' : 'io', `winspool ${name}: ${what}`);
        }
        throw new TransportError('io', `winspool ${name}: ${(e as Error).message}`);
      }
    },
  };
}

// The P/Invoke binding PowerShell compiles once per run: RAW datatype (XPS_PASS where a v4 driver refuses
// RAW), every byte written (WritePrinter may write fewer than asked), the document ended even when a write
// failed. Outputs `JOB <id>` or exits
// 2 with `ERR <step> <win32 code>`.
export const WINSPOOL_CS = String.raw`
using System;
using System.Runtime.InteropServices;
public static class KasaWinspool {
  [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)]
  public class DocInfo1 { public string pDocName; public string pOutputFile; public string pDatatype; }
  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool OpenPrinterW(string name, out IntPtr h, IntPtr defaults);
  [DllImport("winspool.drv", SetLastError = true)] static extern bool ClosePrinter(IntPtr h);
  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern int StartDocPrinterW(IntPtr h, int level, [In] DocInfo1 info);
  [DllImport("winspool.drv", SetLastError = true)] static extern bool EndDocPrinter(IntPtr h);
  [DllImport("winspool.drv", SetLastError = true)] static extern bool StartPagePrinter(IntPtr h);
  [DllImport("winspool.drv", SetLastError = true)] static extern bool EndPagePrinter(IntPtr h);
  [DllImport("winspool.drv", SetLastError = true)]
  static extern bool WritePrinter(IntPtr h, IntPtr buf, int count, out int written);
  public static string Print(string printer, string doc, byte[] data) {
    IntPtr h;
    if (!OpenPrinterW(printer, out h, IntPtr.Zero)) return "ERR open " + Marshal.GetLastWin32Error();
    try {
      DocInfo1 info = new DocInfo1(); info.pDocName = doc; info.pDatatype = "RAW";
      int job = StartDocPrinterW(h, 1, info);
      // A v4 (XPS) driver refuses RAW (ERROR_INVALID_DATATYPE); XPS_PASS hands it the bytes untouched.
      if (job == 0 && Marshal.GetLastWin32Error() == 1804) {
        info.pDatatype = "XPS_PASS";
        job = StartDocPrinterW(h, 1, info);
      }
      if (job == 0) return "ERR start " + Marshal.GetLastWin32Error();
      string err = null;
      GCHandle pin = GCHandle.Alloc(data, GCHandleType.Pinned);
      try {
        StartPagePrinter(h);
        int off = 0;
        while (off < data.Length && err == null) {
          int n;
          if (!WritePrinter(h, IntPtr.Add(pin.AddrOfPinnedObject(), off), data.Length - off, out n) || n <= 0)
            err = "ERR write " + Marshal.GetLastWin32Error();
          else off += n;
        }
        EndPagePrinter(h);
      } finally { pin.Free(); }
      if (!EndDocPrinter(h) && err == null) err = "ERR end " + Marshal.GetLastWin32Error();
      return err ?? ("JOB " + job);
    } finally { ClosePrinter(h); }
  }
}`;

const PS_PRINT = `$ErrorActionPreference = 'Stop'
Add-Type -TypeDefinition @'
${WINSPOOL_CS}
'@
$in = [Console]::OpenStandardInput(); $ms = New-Object System.IO.MemoryStream; $in.CopyTo($ms)
$r = [KasaWinspool]::Print($env:KASA_WINSPOOL_PRINTER, $env:KASA_WINSPOOL_DOC, $ms.ToArray())
[Console]::Out.WriteLine($r)
if ($r.StartsWith('ERR')) { exit 2 }`;

const PS_LIST = `$ErrorActionPreference = 'Stop'
[Console]::OutputEncoding = [System.Text.Encoding]::UTF8
$p = @(Get-CimInstance -ClassName Win32_Printer | ForEach-Object { @{ name = $_.Name; isDefault = [bool]$_.Default } })
[Console]::Out.WriteLine((ConvertTo-Json -InputObject $p -Compress))`;

/** The environment Windows PowerShell needs to start, on top of what any child gets. */
function powershellEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = childEnv();
  // Windows spells these in any case (`SystemRoot`); PowerShell and .NET need them to start.
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && /^(systemroot|windir|psmodulepath|programdata|appdata|localappdata|temp|tmp)$/i.test(k)) {
      env[k] = v;
    }
  }
  return { ...env, ...extra };
}

/** Windows PowerShell's path (from `SystemRoot`, never PATH, so nothing planted in PATH runs instead). */
export function powershellPath(env: NodeJS.ProcessEnv = process.env): string {
  const root = Object.entries(env).find(([k]) => k.toLowerCase() === 'systemroot')?.[1] ?? 'C:\\Windows';
  return path.win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
}

/** `-EncodedCommand` takes the script as base64 UTF-16LE: no quoting of the script on the command line. */
function encoded(script: string): string[] {
  return [
    '-NoProfile',
    '-NonInteractive',
    '-ExecutionPolicy',
    'Bypass',
    '-EncodedCommand',
    Buffer.from(script, 'utf16le').toString('base64'),
  ];
}

/**
 * The default Windows binding: the spooler calls run by Windows PowerShell. The printer's and the
 * document's names travel in the environment, the bytes on stdin: nothing from the address reaches a
 * command line or a script.
 */
export function powershellWinspool(exe: string = powershellPath()): WinspoolApi {
  return {
    async printers() {
      const r = await run(exe, encoded(PS_LIST), null, powershellEnv({}), LIST_TIMEOUT_MS);
      if (r.code !== 0)
        throw new WinspoolError('run', 0, `powershell exited ${r.code}: ${r.stderr.trim().slice(0, 200)}`);
      // A UTF-8 console may start its output with a byte order mark.
      const parsed: unknown = JSON.parse(r.stdout.replace(/^\uFEFF/, '').trim() || '[]');
      if (!Array.isArray(parsed)) return [];
      return parsed.flatMap((p: unknown) => {
        const o = p as { name?: unknown; isDefault?: unknown };
        return typeof o.name === 'string' ? [{ name: o.name, isDefault: o.isDefault === true }] : [];
      });
    },
    async writeRaw(printer, bytes, docName) {
      let r: Awaited<ReturnType<typeof run>>;
      try {
        r = await run(
          exe,
          encoded(PS_PRINT),
          bytes,
          powershellEnv({ KASA_WINSPOOL_PRINTER: printer, KASA_WINSPOOL_DOC: docName }),
          PRINT_TIMEOUT_MS,
        );
      } catch (e) {
        throw new WinspoolError('run', 0, `powershell: ${(e as Error).message}`);
      }
      const out = r.stdout.replace(/^\uFEFF/, '').trim();
      const job = /^JOB (\d+)$/m.exec(out);
      if (r.code === 0 && job) return Number(job[1]);
      const err = /^ERR (open|start|write|end) (\d+)$/m.exec(out);
      if (err) throw new WinspoolError(err[1] as WinspoolError['step'], Number(err[2]), out);
      throw new WinspoolError('run', 0, `powershell exited ${r.code}: ${r.stderr.trim().slice(0, 200)}`);
    },
  };
}

/** The spooler of the system Kasa runs on: Windows' own on Windows, CUPS elsewhere. */
export function systemSpooler(platform: NodeJS.Platform = process.platform): Spooler {
  return platform === 'win32' ? createWindowsSpooler(powershellWinspool()) : createCupsSpooler();
}
