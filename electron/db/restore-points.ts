/**
 * Restore points: page-level, incremental, compressed daily backups (docs/history.md).
 *
 * A restore point `backups/kasa-<UTC time>.kbak` holds the database FILE's pages that changed since the
 * previous point (a full point: all of them), zlib-compressed in chunks, plus the WAL as it was at the end
 * of the copy (the sales made while it ran). The worker that writes one (`POINT_WRITER_SOURCE`, run by
 * maintenance.ts) hashes every page of the file and compares with `backups/manifest.bin`: the per-page
 * hashes of the previous point's file image, naming that point. Points form chains: a full point, then up
 * to `MAX_INCREMENTS` increments, each naming its parent; restoring one rebuilds the file from its chain.
 *
 * Layout of a point (all integers little-endian):
 *   "KASARP01" | u32 n | n bytes of JSON header (PointHeader)
 *   records: 'P' u32 count, count × u32 page number (1-based), u32 c, c bytes deflateRaw(count pages)
 *            'W' u32 raw length, u32 c, c bytes deflateRaw(a piece of the WAL, in order)
 *   trailer: 'E' u32 n, n bytes of JSON (PointTotals), then sha256 of every byte before it (32 bytes)
 * A point is written as `.partial`, flushed chunk by chunk, renamed when complete, and only then is the
 * manifest replaced (also written aside and renamed): a crash leaves the previous point and its manifest.
 *
 * Manifest: "KASAMF01" | u32 n | JSON {point, pageSize, pageCount} | pageCount × 16-byte hashes | sha256.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export const POINT_EXT = '.kbak';
export const POINT_MAGIC = 'KASARP01';
export const MANIFEST_FILE = 'manifest.bin';
export const MANIFEST_MAGIC = 'KASAMF01';
export const POINT_FORMAT = 1;
/** Bytes of a page's hash kept in the manifest (sha256, truncated: collisions are out of reach). */
export const HASH_BYTES = 16;
/** A chain holds a full point and at most this many increments (a new full point weekly). */
export const MAX_INCREMENTS = 6;
/** zlib level of the page chunks: 1 is ~3× faster than the default and compresses a till's pages ~8:1. */
export const POINT_ZLIB_LEVEL = 1;

export interface PointHeader {
  format: number;
  kind: 'full' | 'incremental';
  /** The point this one's pages are relative to (null for a full point). */
  parent: string | null;
  pageSize: number;
  /** Pages of the database file when it was copied (the rebuilt file is cut to this many). */
  pageCount: number;
  /** The schema's `PRAGMA user_version` in the file's header. */
  userVersion: number;
  createdAt: string;
}

export interface PointTotals {
  changedPages: number;
  walBytes: number;
}

function fail(name: string, why: string): Error {
  return new Error(`restore point ${name} is damaged: ${why}`);
}

/** Reads `len` bytes at `pos` or throws (a truncated file). */
function readExact(fd: number, len: number, pos: number, name: string): Buffer {
  const buf = Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const n = fs.readSync(fd, buf, got, len - got, pos + got);
    if (n <= 0) throw fail(name, 'the file is cut short');
    got += n;
  }
  return buf;
}

/** The header of a point, or throws naming the file. */
export function readPointHeader(file: string): PointHeader & { headerEnd: number } {
  const name = path.basename(file);
  const fd = fs.openSync(file, 'r');
  try {
    const head = readExact(fd, 12, 0, name);
    if (head.toString('latin1', 0, 8) !== POINT_MAGIC) throw fail(name, 'not a Kasa restore point');
    const n = head.readUInt32LE(8);
    if (n > 64 * 1024) throw fail(name, 'header too long');
    const h = JSON.parse(readExact(fd, n, 12, name).toString('utf8')) as PointHeader;
    if (h.format !== POINT_FORMAT)
      throw new Error(`restore point ${name} has format ${h.format}; this version reads ${POINT_FORMAT}`);
    return { ...h, headerEnd: 12 + n };
  } catch (err) {
    if (err instanceof SyntaxError) throw fail(name, 'unreadable header');
    throw err;
  } finally {
    fs.closeSync(fd);
  }
}

/** Checks a point's checksum (every byte, header included): throws naming the file when it does not match. */
export function verifyPoint(file: string): void {
  const name = path.basename(file);
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size < 12 + 32) throw fail(name, 'the file is cut short');
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let pos = 0; pos < size - 32;) {
      const n = fs.readSync(fd, buf, 0, Math.min(buf.length, size - 32 - pos), pos);
      if (n <= 0) throw fail(name, 'the file is cut short');
      hash.update(buf.subarray(0, n));
      pos += n;
    }
    if (!hash.digest().equals(readExact(fd, 32, size - 32, name)))
      throw fail(name, 'checksum mismatch (damaged or cut short)');
  } finally {
    fs.closeSync(fd);
  }
}

type ChainPoint = PointHeader & { headerEnd: number; name: string; file: string };

/**
 * The chain `name` is rebuilt from: its full point first, `name` last. Throws naming the missing or
 * unreadable point.
 */
export function resolveChain(dir: string, name: string): ChainPoint[] {
  const chain: ChainPoint[] = [];
  let cur: string | null = name;
  while (cur) {
    if (chain.some((p) => p.name === cur) || chain.length > 1000)
      throw new Error(`restore point ${name}: its chain loops at ${cur}`);
    const file = path.join(dir, cur);
    if (!fs.existsSync(file)) throw new Error(`restore point ${name} needs ${cur}, which is missing`);
    const h = readPointHeader(file);
    chain.unshift({ ...h, name: cur, file });
    cur = h.kind === 'incremental' ? h.parent : null;
  }
  const pageSize = chain[0]?.pageSize;
  const odd = chain.find((p) => p.pageSize !== pageSize);
  if (odd) throw fail(odd.name, `page size ${odd.pageSize} differs from its chain's ${String(pageSize)}`);
  return chain;
}

/** Walks a point's records (after its checksum was verified). */
function eachRecord(
  p: { file: string; name: string; headerEnd: number; pageSize: number },
  onPages: (pages: Uint32Array, data: Buffer) => void,
  onWal: (data: Buffer) => void,
): void {
  const fd = fs.openSync(p.file, 'r');
  try {
    let pos = p.headerEnd;
    for (;;) {
      const type = readExact(fd, 1, pos, p.name).toString('latin1');
      pos += 1;
      if (type === 'E') return;
      if (type === 'P') {
        const count = readExact(fd, 4, pos, p.name).readUInt32LE(0);
        const numbers = readExact(fd, 4 * count + 4, pos + 4, p.name);
        const c = numbers.readUInt32LE(4 * count);
        const pages = new Uint32Array(count);
        for (let i = 0; i < count; i++) pages[i] = numbers.readUInt32LE(4 * i);
        const data = zlib.inflateRawSync(readExact(fd, c, pos + 8 + 4 * count, p.name));
        if (data.length !== count * p.pageSize) throw fail(p.name, 'a page chunk has the wrong length');
        onPages(pages, data);
        pos += 8 + 4 * count + c;
      } else if (type === 'W') {
        const meta = readExact(fd, 8, pos, p.name);
        const data = zlib.inflateRawSync(readExact(fd, meta.readUInt32LE(4), pos + 8, p.name));
        if (data.length !== meta.readUInt32LE(0)) throw fail(p.name, 'a WAL chunk has the wrong length');
        onWal(data);
        pos += 8 + meta.readUInt32LE(4);
      } else {
        throw fail(p.name, `unknown record ${JSON.stringify(type)}`);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Rebuilds the database of restore point `name` as `to` (plus `to-wal`, the sales made while that point
 * was copied; opening it with SQLite folds them in): every point of its chain is verified first, then the
 * full point's pages are written, each increment's on top in order, and the file is cut to the point's
 * page count (a VACUUM may have shrunk it). Throws naming the damaged or missing file.
 */
export function rebuildPoint(dir: string, name: string, to: string): PointHeader {
  const chain = resolveChain(dir, name);
  for (const p of chain) verifyPoint(p.file);
  const target = chain[chain.length - 1] as (typeof chain)[number];
  const out = fs.openSync(to, 'w');
  const wal = fs.openSync(`${to}-wal`, 'w');
  try {
    let walPos = 0;
    for (const p of chain) {
      eachRecord(
        p,
        (pages, data) => {
          pages.forEach((n, i) => {
            fs.writeSync(out, data, i * p.pageSize, p.pageSize, (n - 1) * p.pageSize);
          });
        },
        (data) => {
          if (p !== target) return; // an earlier point's WAL is not part of this one's state
          fs.writeSync(wal, data, 0, data.length, walPos);
          walPos += data.length;
        },
      );
    }
    fs.ftruncateSync(out, target.pageCount * target.pageSize);
    fs.fsyncSync(out);
    fs.fsyncSync(wal);
  } finally {
    fs.closeSync(out);
    fs.closeSync(wal);
  }
  if (fs.statSync(`${to}-wal`).size === 0) fs.rmSync(`${to}-wal`);
  return target;
}

export interface PointInfo {
  name: string;
  bytes: number;
  kind: 'full' | 'incremental' | 'unreadable';
  parent: string | null;
}

/**
 * What the next point should be: an increment on the newest point when its chain is whole, has fewer than
 * `MAX_INCREMENTS` increments and they together take at most half its full point; otherwise a full point
 * (a new chain). The worker still falls back to a full point when the manifest does not match `parent`
 * (missing, damaged, another point's, another page size) or a point of the chain fails its checksum.
 */
export function planNextPoint(points: PointInfo[]): { parent: string | null; chain: string[]; reason: string } {
  const newest = points[0];
  if (!newest) return { parent: null, chain: [], reason: 'no restore point yet' };
  const byName = new Map(points.map((p) => [p.name, p]));
  const chain: PointInfo[] = [];
  for (let p: PointInfo | undefined = newest; p; p = p.parent ? byName.get(p.parent) : undefined) {
    if (p.kind === 'unreadable') return { parent: null, chain: [], reason: `${p.name} is unreadable` };
    chain.unshift(p);
    if (p.kind === 'full') break;
    if (chain.length > MAX_INCREMENTS + 1) break;
  }
  const full = chain[0];
  if (!full || full.kind !== 'full')
    return { parent: null, chain: [], reason: `the chain of ${newest.name} is incomplete` };
  const increments = chain.slice(1);
  if (increments.length >= MAX_INCREMENTS)
    return { parent: null, chain: [], reason: `${increments.length} increments since ${full.name}` };
  const incBytes = increments.reduce((s, p) => s + p.bytes, 0);
  if (incBytes > full.bytes / 2)
    return { parent: null, chain: [], reason: `the increments since ${full.name} take more than half of it` };
  return { parent: newest.name, chain: chain.map((p) => p.name), reason: `an increment on ${newest.name}` };
}

/**
 * The worker's part, as plain JavaScript (maintenance.ts runs it in its worker thread): `writeRestorePoint`
 * reads the database file page by page (it does not change: checkpoints are paused), hashes each page,
 * writes the pages whose hash differs from the manifest's (all of them for a full point) compressed in
 * chunks, each flushed (fdatasync) and paced to `rate` bytes written per second (reads at `readRate`),
 * then the WAL as it is at that moment, the trailer with the checksum, and the next manifest beside the
 * old one. Both are left as `.partial` files: the main thread renames them (point first).
 */
export const POINT_WRITER_SOURCE = `
const zlib = require('node:zlib');
const { createHash } = require('node:crypto');
function fileChecksumOk(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size < 44) return false;
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let pos = 0; pos < size - 32; ) {
      const n = fs.readSync(fd, buf, 0, Math.min(buf.length, size - 32 - pos), pos);
      if (n <= 0) return false;
      hash.update(buf.subarray(0, n));
      pos += n;
    }
    const tail = Buffer.alloc(32);
    fs.readSync(fd, tail, 0, 32, size - 32);
    return hash.digest().equals(tail);
  } finally {
    fs.closeSync(fd);
  }
}
// The previous point's page hashes, or the reason they cannot be used.
function readManifest(file, c, parent, pageSize) {
  let buf;
  try { buf = fs.readFileSync(file); } catch { return { why: 'no manifest' }; }
  if (buf.length < 44 || buf.toString('latin1', 0, 8) !== c.manifestMagic) return { why: 'manifest unreadable' };
  const body = buf.subarray(0, buf.length - 32);
  if (!createHash('sha256').update(body).digest().equals(buf.subarray(buf.length - 32))) return { why: 'manifest damaged' };
  const n = buf.readUInt32LE(8);
  let meta;
  try { meta = JSON.parse(buf.toString('utf8', 12, 12 + n)); } catch { return { why: 'manifest unreadable' }; }
  if (meta.point !== parent) return { why: 'the manifest is of ' + meta.point + ', not of ' + parent };
  if (meta.pageSize !== pageSize) return { why: 'the page size changed' };
  const hashes = body.subarray(12 + n);
  if (hashes.length !== meta.pageCount * c.hashBytes) return { why: 'manifest unreadable' };
  return { hashes, pageCount: meta.pageCount };
}
// Bytes of the WAL up to its last whole commit of the current cycle: frames carry the header's salts
// (older cycles' frames and written-ahead zeros do not), a commit frame a non-zero database size. SQLite's
// recovery checks the checksums again on restore.
function walEnd(fd, size) {
  if (size < 32) return 0;
  const head = Buffer.alloc(32);
  fs.readSync(fd, head, 0, 32, 0);
  if ((head.readUInt32BE(0) & 0xfffffffe) !== 0x377f0682) return 0; // no WAL header: nothing committed
  const frame = 24 + head.readUInt32BE(8);
  const fh = Buffer.alloc(24);
  let end = 0;
  for (let pos = 32; pos + frame <= size; pos += frame) {
    fs.readSync(fd, fh, 0, 24, pos);
    if (fh.compare(head, 16, 24, 8, 16) !== 0) break;
    if (fh.readUInt32BE(4) !== 0) end = pos + frame;
  }
  return end;
}
function writeRestorePoint(file, t) {
  const c = t.consts;
  const started = performance.now();
  const src = fs.openSync(file, 'r');
  const out = fs.openSync(t.to, 'w');
  const sum = createHash('sha256');
  let written = 0;
  let read = 0;
  const pace = () => {
    const ahead = Math.max((written / t.rate) * 1000, (read / t.readRate) * 1000) - (performance.now() - started);
    if (ahead > 0) Atomics.wait(sleeper, 0, 0, ahead);
  };
  const put = (buf) => {
    fs.writeSync(out, buf, 0, buf.length, written);
    sum.update(buf);
    written += buf.length;
  };
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; };
  try {
    const head = Buffer.alloc(100);
    fs.readSync(src, head, 0, 100, 0);
    let pageSize = head.readUInt16BE(16);
    if (pageSize === 1) pageSize = 65536;
    if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw new Error('not a SQLite database file (page size ' + pageSize + ')');
    const pageCount = Math.floor(fs.fstatSync(src).size / pageSize);
    let prev = null;
    let reason = t.reason;
    if (t.parent) {
      const broken = t.chain.find((name) => !fileChecksumOk(t.dir + '/' + name));
      const m = broken ? { why: broken + ' fails its checksum' } : readManifest(t.manifest, c, t.parent, pageSize);
      if (m.hashes) prev = m;
      else reason = m.why + ': a full point';
    }
    const header = Buffer.from(JSON.stringify({
      format: c.format, kind: prev ? 'incremental' : 'full', parent: prev ? t.parent : null, pageSize, pageCount,
      userVersion: head.readUInt32BE(60), createdAt: t.createdAt,
    }));
    put(Buffer.concat([Buffer.from(c.magic, 'latin1'), u32(header.length), header]));
    const hashes = Buffer.alloc(pageCount * c.hashBytes);
    const BATCH = Math.max(1, Math.floor((1 << 20) / pageSize));
    const inBuf = Buffer.allocUnsafe(BATCH * pageSize);
    const outBuf = Buffer.allocUnsafe(BATCH * pageSize);
    let pending = [];
    let changed = 0;
    const flushPages = () => {
      if (pending.length === 0) return;
      const numbers = Buffer.alloc(4 * pending.length);
      pending.forEach((n, i) => numbers.writeUInt32LE(n, 4 * i));
      const z = zlib.deflateRawSync(outBuf.subarray(0, pending.length * pageSize), { level: c.level });
      put(Buffer.concat([Buffer.from('P', 'latin1'), u32(pending.length), numbers, u32(z.length), z]));
      fs.fdatasyncSync(out);
      changed += pending.length;
      pending = [];
      pace();
    };
    for (let first = 0; first < pageCount; first += BATCH) {
      const count = Math.min(BATCH, pageCount - first);
      const n = fs.readSync(src, inBuf, 0, count * pageSize, first * pageSize);
      if (n !== count * pageSize) throw new Error('the database file changed while it was copied');
      read += n;
      for (let i = 0; i < count; i++) {
        const page = inBuf.subarray(i * pageSize, (i + 1) * pageSize);
        const h = createHash('sha256').update(page).digest().subarray(0, c.hashBytes);
        const at = (first + i) * c.hashBytes;
        h.copy(hashes, at);
        if (prev && first + i < prev.pageCount && prev.hashes.compare(h, 0, c.hashBytes, at, at + c.hashBytes) === 0) continue;
        page.copy(outBuf, pending.length * pageSize);
        pending.push(first + i + 1);
        if (pending.length === BATCH) flushPages();
      }
      pace();
    }
    flushPages();
    // The WAL as it is now: the sales made during the copy (a commit half-written is dropped on recovery).
    let walBytes = 0;
    const walFile = file + '-wal';
    if (fs.existsSync(walFile)) {
      const wal = fs.openSync(walFile, 'r');
      try {
        const size = walEnd(wal, fs.fstatSync(wal).size);
        while (walBytes < size) {
          const n = fs.readSync(wal, inBuf, 0, Math.min(inBuf.length, size - walBytes), walBytes);
          if (n <= 0) break;
          const z = zlib.deflateRawSync(inBuf.subarray(0, n), { level: c.level });
          put(Buffer.concat([Buffer.from('W', 'latin1'), u32(n), u32(z.length), z]));
          fs.fdatasyncSync(out);
          walBytes += n;
          pace();
        }
      } finally {
        fs.closeSync(wal);
      }
    }
    const totals = Buffer.from(JSON.stringify({ changedPages: changed, walBytes }));
    put(Buffer.concat([Buffer.from('E', 'latin1'), u32(totals.length), totals]));
    const digest = sum.digest();
    fs.writeSync(out, digest, 0, 32, written);
    written += 32;
    fs.fdatasyncSync(out);
    // The next manifest: this point's page hashes (renamed into place after the point).
    const meta = Buffer.from(JSON.stringify({ point: t.name, pageSize, pageCount }));
    const body = Buffer.concat([Buffer.from(c.manifestMagic, 'latin1'), u32(meta.length), meta, hashes]);
    const mf = fs.openSync(t.manifestTo, 'w');
    try {
      fs.writeSync(mf, body);
      fs.writeSync(mf, createHash('sha256').update(body).digest());
      fs.fdatasyncSync(mf);
    } finally {
      fs.closeSync(mf);
    }
    return { kind: prev ? 'incremental' : 'full', reason, pageCount, changedPages: changed, walBytes, bytes: written };
  } finally {
    fs.closeSync(src);
    fs.closeSync(out);
  }
}
`;

/** What `POINT_WRITER_SOURCE` needs from this module (one definition of the format). */
export const POINT_CONSTS = {
  magic: POINT_MAGIC,
  manifestMagic: MANIFEST_MAGIC,
  format: POINT_FORMAT,
  hashBytes: HASH_BYTES,
  level: POINT_ZLIB_LEVEL,
} as const;
