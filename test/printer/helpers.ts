/** Test helpers: a real TCP "printer" on an ephemeral port, a real SQLite file, in-memory settings. */
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../electron/db/open.ts';
import type { PrintStatus } from '../../shared/contract/printer.ts';
import type { Core } from '../../electron/core.ts';
import { decodeEscPos } from '../../electron/printer/escpos-decode.ts';
import { codePageNumbers, findPreset, type PrinterProfile } from '../../electron/printer/profiles.ts';
import { MANAGER_PIN, ok } from '../support/session.ts';
import { listenOnLoopback } from '../support/ports.ts';
import { createPrintService, type PrintService, type PrintServiceDeps } from '../../electron/printer/service.ts';

/** A printer stand-in: collects each connection's bytes; `reset` lets a connection die mid-job. */
export interface CaptureServer {
  port: number;
  /** Bytes of each connection that ended normally. */
  jobs: Buffer[];
  /** Bytes of connections that were reset. */
  resets: Buffer[];
  connections: number;
  close(): Promise<void>;
}

export async function startCaptureServer(
  options: { port?: number; resetAfterBytes?: (connection: number) => number | null } = {},
): Promise<CaptureServer> {
  const sockets = new Set<net.Socket>();
  const state: CaptureServer = {
    port: 0,
    jobs: [],
    resets: [],
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const n = ++state.connections;
    const limit = options.resetAfterBytes?.(n) ?? null;
    const chunks: Buffer[] = [];
    let size = 0;
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      size += d.length;
      if (limit !== null && size >= limit) {
        state.resets.push(Buffer.concat(chunks));
        socket.resetAndDestroy();
      }
    });
    socket.on('end', () => {
      state.jobs.push(Buffer.concat(chunks));
      socket.end(); // like a raw 9100 printer: close after the client's FIN
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  state.port = await listenOnLoopback(server, options.port);
  return state;
}

/** A migrated SQLite database in a fresh temp directory. */
export function tempDb(): { db: Db; dir: string; cleanup(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-print-'));
  const db = openDatabase(path.join(dir, 'kasa.db'));
  return {
    db,
    dir,
    cleanup() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Settings backed by a Map. */
export function memorySettings(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial));
  return { get: (k: string) => m.get(k), set: (k: string, v: string) => void m.set(k, v), map: m };
}

/** Records print.status events. */
export function statusLog() {
  const events: PrintStatus[] = [];
  return { events, emit: (_name: 'print.status', s: PrintStatus) => void events.push(s) };
}

/** Resolves once `cond()` holds, checking after each turn of the event loop (bounded by the test timeout). */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

/** A 1-bit image as RGBA (black on white) with a white margin, for jsQR and PNG. */
export function toRgba(img: { width: number; height: number; bits: Uint8Array }, margin = 0) {
  const width = img.width + 2 * margin;
  const height = img.height + 2 * margin;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  const bpr = Math.ceil(img.width / 8);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++)
      if (((img.bits[y * bpr + (x >> 3)] ?? 0) & (0x80 >> (x & 7))) !== 0) {
        const o = ((y + margin) * width + x + margin) * 4;
        data[o] = data[o + 1] = data[o + 2] = 0;
      }
  return { width, height, data };
}

/** The thermal printer most suites print on. */
export const EPSON = findPreset('epson-tm-t88v')!;

/** A job's bytes as the printer's profile prints them (text lines, cuts, images). */
export const decoderFor =
  (profile: PrinterProfile) =>
  (b: Buffer): ReturnType<typeof decodeEscPos> =>
    decodeEscPos(b, { codePages: codePageNumbers(profile) });

/**
 * A printer stand-in set as the core's printer (raw TCP on loopback, a manager's approval; `autoPrint` as given, else
 * the till's default), closed by
 * `later` (test/support/cleanups.ts).
 */
export async function attachPrinter(
  core: Core,
  later: (c: () => unknown) => void,
  options: { profile?: PrinterProfile; autoPrint?: boolean } = {},
): Promise<CaptureServer> {
  const profile = options.profile ?? EPSON;
  const printer = await startCaptureServer();
  later(() => printer.close());
  await ok(core, 'printer.configure', {
    uri: `tcp://127.0.0.1:${printer.port}`,
    profileId: profile.id,
    ...(options.autoPrint === undefined ? {} : { autoPrint: options.autoPrint }),
    approval: { managerPin: MANAGER_PIN },
  });
  return printer;
}

/**
 * A print service on a fresh migrated database, with `settings` in memory, no environment and no receipt to print
 * unless `over` gives what it prints and through what; `close` stops it, and once it has stopped removes the
 * database.
 */
export function testPrintService(
  settings: Record<string, string> = {},
  over: Partial<Omit<Parameters<typeof createPrintService>[0], 'db' | 'settings'>> = {},
): { service: ReturnType<typeof createPrintService>; db: Db; close(): Promise<void> } {
  const t = tempDb();
  const service = createPrintService({
    db: t.db,
    settings: memorySettings(settings),
    emit: statusLog().emit,
    env: {},
    getReceipt: () => null,
    ...over,
  });
  return {
    service,
    db: t.db,
    async close() {
      await service.stop();
      t.cleanup();
    },
  };
}

/**
 * A print service on a fresh migrated database printing over raw TCP to the stand-in on `port` with `profile`,
 * retrying within 50 ms, its status events kept in `log`; `later` (test/support/cleanups.ts) stops it and removes the
 * database. `now` is the service's clock (default the real one).
 */
export function tcpPrintService(
  port: number,
  later: (c: () => unknown) => void,
  options: { profile: PrinterProfile; getReceipt: PrintServiceDeps['getReceipt']; now?: () => number },
): { service: PrintService; db: Db; log: ReturnType<typeof statusLog> } {
  const log = statusLog();
  const { service, db, close } = testPrintService(
    { 'printer.uri': `tcp://127.0.0.1:${port}`, 'printer.profile': options.profile.id },
    { emit: log.emit, now: options.now, getReceipt: options.getReceipt, retry: { baseMs: 20, capMs: 50 } },
  );
  later(close);
  return { service, db, log };
}
