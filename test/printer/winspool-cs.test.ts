/**
 * The Windows binding's own code (the C# that Windows PowerShell compiles and runs against winspool.drv)
 * run here under Mono, against a stand-in winspool.drv built from C by this test: there is no Windows
 * spooler here, so the stand-in records what the binding asks for. It checks what cannot be seen through
 * `WinspoolApi`: the `RAW` datatype, the printer's and the document's names, every byte written when
 * WritePrinter takes only a few at a time, the job id, and the Win32 error of a printer that is not there.
 * Needs Debian's `mono-mcs` and a C compiler; skipped with the reason printed where they are missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WINSPOOL_CS } from '../../electron/printer/spooler.ts';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const skipReason =
  !has('mcs') || !has('mono') ? "Mono is not installed (Debian's `mono-mcs`)" : !has('cc') ? 'no C compiler' : null;
if (skipReason) console.warn(`test/printer/winspool-cs.test.ts skipped: ${skipReason}`);

// The stand-in: names arrive as UTF-16 (CharSet.Unicode); at most 7 bytes are taken per WritePrinter.
const FAKE_C = String.raw`
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { uint16_t *doc; uint16_t *out; uint16_t *type; } DocInfo1;
static FILE *f;
static char name[256];
static int writes;
static void narrow(const uint16_t *w, char *o, int n) {
  int i = 0;
  for (; w && w[i] && i < n - 1; i++) o[i] = w[i] < 128 ? (char)w[i] : '?';
  o[i] = 0;
}
int OpenPrinterW(uint16_t *n, void **h, void *d) {
  narrow(n, name, sizeof name);
  if (strcmp(name, getenv("FAKE_PRINTER")) != 0) { errno = 1801; return 0; }
  *h = (void *)0x1234;
  return 1;
}
int ClosePrinter(void *h) { return 1; }
int StartDocPrinterW(void *h, int level, DocInfo1 *di) {
  char t[32], d[64];
  narrow(di->type, t, sizeof t);
  narrow(di->doc, d, sizeof d);
  // A v4 (XPS) driver: RAW is refused with ERROR_INVALID_DATATYPE.
  if (getenv("FAKE_V4") && strcmp(t, "RAW") == 0) { errno = 1804; return 0; }
  f = fopen(getenv("FAKE_OUT"), "wb");
  fprintf(f, "%s|%s|%s|%d|", name, d, t, level);
  return 77;
}
int StartPagePrinter(void *h) { return 1; }
int EndPagePrinter(void *h) { return 1; }
int WritePrinter(void *h, void *buf, int n, int *w) {
  int k = n > 7 ? 7 : n;
  fwrite(buf, 1, k, f);
  *w = k;
  writes++;
  return 1;
}
int EndDocPrinter(void *h) { fprintf(f, "|%d", writes); fclose(f); return 1; }
`;

const RUN_CS = String.raw`
using System;
using System.IO;
public static class Run {
  public static void Main(string[] a) {
    Console.WriteLine(KasaWinspool.Print(a[0], a[1], File.ReadAllBytes(a[2])));
  }
}`;

describe.skipIf(skipReason !== null)('the Windows binding (C#) against a stand-in winspool.drv', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-winspool-'));
    fs.writeFileSync(path.join(dir, 'fake.c'), FAKE_C);
    fs.writeFileSync(path.join(dir, 'binding.cs'), WINSPOOL_CS);
    fs.writeFileSync(path.join(dir, 'run.cs'), RUN_CS);
    // Mono resolves `winspool.drv` as libwinspool.drv.so on the library path.
    execFileSync('cc', ['-shared', '-fPIC', '-o', 'libwinspool.drv.so', 'fake.c'], { cwd: dir });
    // C# 5: what Windows PowerShell 5.1's Add-Type compiles.
    execFileSync('mcs', ['-langversion:5', '-out:run.exe', 'run.cs', 'binding.cs'], { cwd: dir });
  }, 60_000);
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function print(printer: string, bytes: Buffer, v4 = false): { out: string; spooled: Buffer | null } {
    const data = path.join(dir, 'job.bin');
    const spool = path.join(dir, 'spooled.bin');
    fs.rmSync(spool, { force: true });
    fs.writeFileSync(data, bytes);
    const r = spawnSync('mono', ['run.exe', printer, 'Kasa', data], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        LD_LIBRARY_PATH: dir,
        FAKE_PRINTER: 'POS-80 (USB)',
        FAKE_OUT: spool,
        ...(v4 ? { FAKE_V4: '1' } : {}),
      },
    });
    if (r.status !== 0) throw new Error(`mono exited ${r.status}: ${r.stderr}`);
    return { out: r.stdout.trim(), spooled: fs.existsSync(spool) ? fs.readFileSync(spool) : null };
  }

  it('writes every byte RAW, a few at a time, and returns the job id', () => {
    const bytes = Buffer.from(Array.from({ length: 100 }, (_, i) => (i * 37) & 0xff));
    const { out, spooled } = print('POS-80 (USB)', bytes);
    expect(out).toBe('JOB 77');
    const head = Buffer.from('POS-80 (USB)|Kasa|RAW|1|');
    expect(spooled!.subarray(0, head.length).toString()).toBe(head.toString());
    expect(spooled!.subarray(head.length, head.length + 100).equals(bytes)).toBe(true);
    expect(spooled!.subarray(head.length + 100).toString()).toBe('|15'); // ceil(100 / 7) writes
  });

  it('a v4 (XPS) driver that refuses RAW gets the bytes as XPS_PASS, untouched', () => {
    const bytes = Buffer.from([0x1b, 0x40, 0x00, 0xd0, 0x9f, 0x1d, 0x56, 0x00]);
    const { out, spooled } = print('POS-80 (USB)', bytes, true);
    expect(out).toBe('JOB 77');
    const head = Buffer.from('POS-80 (USB)|Kasa|XPS_PASS|1|');
    expect(spooled!.subarray(0, head.length).toString()).toBe(head.toString());
    expect(spooled!.subarray(head.length, head.length + bytes.length).equals(bytes)).toBe(true);
  });

  it('reports a printer that is not there with its Win32 error', () => {
    expect(print('Nema', Buffer.from([0x1b, 0x40]))).toEqual({ out: 'ERR open 1801', spooled: null });
  });
});
