/**
 * The support log: one line per event, to stderr and to `<dataDir>/logs/kasa.log`, rotated by size.
 * Secrets registered with `redact()` are replaced before a line is written anywhere. `kasa.log` is the
 * current file; `kasa.log.1` … `kasa.log.<keep>` the older ones (mode 0600).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Logger {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
  /** Never write this value: every occurrence becomes `[redacted]`. */
  redact(secret: string): void;
}

/** What only writes lines (the database's backup and maintenance take the logger as this, or write nowhere). */
export type LogLike = Omit<Logger, 'redact'>;

export interface LoggerOptions {
  dir?: string;
  /** Also echo to stderr. Default true. */
  echo?: boolean;
  maxBytes?: number;
  keep?: number;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = new Set<string>();
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const keep = options.keep ?? 5;
  const file = options.dir ? path.join(options.dir, 'kasa.log') : null;
  if (options.dir) fs.mkdirSync(options.dir, { recursive: true });
  let size = file && fs.existsSync(file) ? fs.statSync(file).size : 0;
  // Support logs stay readable by the user only (they name customers' orders and the shop's setup).
  const append = (text: string): void => fs.appendFileSync(file as string, text, { mode: 0o600 });

  const scrub = (line: string): string => {
    let out = line;
    for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
    return out.replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/g, '$1[redacted]');
  };

  const rotate = (): void => {
    if (!file) return;
    for (let i = keep - 1; i >= 1; i--) {
      const from = `${file}.${i}`;
      if (fs.existsSync(from)) fs.renameSync(from, `${file}.${i + 1}`);
    }
    if (fs.existsSync(file)) fs.renameSync(file, `${file}.1`);
    size = 0;
  };

  const write = (level: string, line: string): void => {
    const text = `${new Date().toISOString()} ${level} ${scrub(line)}\n`;
    if (options.echo !== false) process.stderr.write(text);
    if (!file) return;
    try {
      const bytes = Buffer.byteLength(text);
      if (size > 0 && size + bytes > maxBytes) rotate();
      append(text);
      size += bytes;
    } catch {
      // A full disk must not take the till down with it; stderr still has the line.
    }
  };

  return {
    info: (l) => write('INFO', l),
    warn: (l) => write('WARN', l),
    error: (l) => write('ERROR', l),
    redact: (s) => {
      if (!s) return;
      // The secret as written, URL-encoded, JSON-escaped and base64 (as in a Basic auth header).
      for (const v of [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1), Buffer.from(s).toString('base64')])
        secrets.add(v);
    },
  };
}
