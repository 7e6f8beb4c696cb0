/** Request bodies: read with a size limit, parsed as strict JSON. */
import type http from 'node:http';
import { KasaError } from '../../errors.ts';

/** The refusal of a body over the limit (413). */
export function bodyTooLarge(limit: number): KasaError {
  return new KasaError('body_too_large', `the request body is over ${limit} bytes`, { status: 413 });
}

/**
 * Reads the whole body, at most `limit` bytes. Over the limit it rejects with {@link bodyTooLarge} at once
 * and drains the rest unread, so the refusal can still be answered on the same socket. A stream error or
 * an aborted request rejects with that error.
 */
export function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      fn();
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume();
        settle(() => reject(bodyTooLarge(limit)));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => settle(() => resolve(Buffer.concat(chunks))));
    req.on('error', (err) => settle(() => reject(err)));
    req.on('aborted', () => settle(() => reject(new Error('request aborted'))));
  });
}

/** Exactly `application/json`, parameters such as charset allowed: not `application/jsonfoo`, not `text/json`. */
export function isJsonContentType(header: string | undefined): boolean {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The refusal of a body that is not JSON (400). */
export function notJson(): KasaError {
  return new KasaError('invalid_json', 'the request body is not JSON', { status: 400 });
}

/**
 * Strict JSON: the bytes must be valid UTF-8 (no silent U+FFFD) and one JSON text. An empty body (with
 * `blank: 'trimmed'`, one of whitespace only) is `empty`. A leading byte-order mark is not JSON (RFC 8259)
 * unless `bom: 'skipped'`. Throws {@link notJson}.
 */
export function parseJson(
  data: Buffer,
  options: { empty: unknown; blank?: 'exact' | 'trimmed'; bom?: 'refused' | 'skipped' },
): unknown {
  if (data.length === 0) return options.empty;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: options.bom !== 'skipped' }).decode(data);
  } catch {
    throw notJson();
  }
  if (options.blank === 'trimmed' && text.trim() === '') return options.empty;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw notJson();
  }
}
