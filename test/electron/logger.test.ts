/**
 * The support log: size rotation (kasa.log, kasa.log.1 … kasa.log.<keep>), redaction of registered
 * secrets in every spelling and of any Bearer token, owner-only file mode.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../electron/log/logger.ts';
import { tempDirs } from '../support/temp-dirs.ts';

const { dir: tmp, cleanup } = tempDirs('kasa-log-');
afterEach(cleanup);
const readAll = (dir: string): string =>
  fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8'))
    .join('');

describe('logger', () => {
  it('rotates by size and keeps `keep` old files, oldest dropped', () => {
    const dir = tmp();
    const log = createLogger({ dir, echo: false, maxBytes: 1000, keep: 3 });
    for (let i = 0; i < 100; i++) log.info(`line ${String(i).padStart(3, '0')} ${'x'.repeat(60)}`);
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(['kasa.log', 'kasa.log.1', 'kasa.log.2', 'kasa.log.3']);
    for (const f of files) expect(fs.statSync(path.join(dir, f)).size).toBeLessThanOrEqual(1000);
    expect(fs.readFileSync(path.join(dir, 'kasa.log'), 'utf8')).toContain('line 099');
    // Order: .3 is older than .2, older than .1, older than the current file.
    const first = (f: string): number => Number(/line (\d+)/.exec(fs.readFileSync(path.join(dir, f), 'utf8'))?.[1]);
    expect(first('kasa.log.3')).toBeLessThan(first('kasa.log.2'));
    expect(first('kasa.log.2')).toBeLessThan(first('kasa.log.1'));
    expect(first('kasa.log.1')).toBeLessThan(first('kasa.log'));
    expect(readAll(dir)).not.toContain('line 000');
  });

  it('counts bytes, not characters (Cyrillic lines)', () => {
    const dir = tmp();
    const log = createLogger({ dir, echo: false, maxBytes: 2000, keep: 2 });
    for (let i = 0; i < 40; i++) log.info('Артикал '.repeat(10));
    for (const f of fs.readdirSync(dir)) expect(fs.statSync(path.join(dir, f)).size).toBeLessThanOrEqual(2000);
  });

  it('redacts a registered secret in every spelling, and any Bearer token, in the file and on stderr', () => {
    const dir = tmp();
    const log = createLogger({ dir, echo: false });
    const key = 'sk/live+Kasa=9f2"c';
    log.redact(key);
    log.info(`raw ${key}`);
    log.warn(`url ${encodeURIComponent(key)}`);
    log.error(`json ${JSON.stringify({ key })}`);
    log.info(`basic ${Buffer.from(key).toString('base64')}`);
    log.info('header Authorization: Bearer abc.DEF-123_xyz');
    const text = readAll(dir);
    expect(text).not.toContain(key);
    expect(text).not.toContain(encodeURIComponent(key));
    expect(text).not.toContain(Buffer.from(key).toString('base64'));
    expect(text).not.toContain('abc.DEF-123_xyz');
    expect(text.match(/\[redacted\]/g)).toHaveLength(5);
  });

  it.skipIf(process.platform === 'win32')('log files are readable by their owner only', () => {
    const dir = tmp();
    createLogger({ dir, echo: false }).info('hello');
    expect(fs.statSync(path.join(dir, 'kasa.log')).mode & 0o777).toBe(0o600);
  });
});
