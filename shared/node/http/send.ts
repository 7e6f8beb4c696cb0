/** The one JSON sender, and the one mapping of an error to `{code, message, field}` with its status. */
import type http from 'node:http';
import { isKasaError } from '../../errors.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends bytes (or text, as UTF-8) with their length; `headers` say the rest (Content-Type first of all). */
export function sendBody(
  res: http.ServerResponse,
  status: number,
  data: Buffer | string,
  headers: Record<string, string | number>,
): void {
  res.writeHead(status, { 'Content-Length': Buffer.byteLength(data), ...headers });
  res.end(data);
}

/** Sends `body` as JSON with `status`, never cached; `headers` are added (and may override the defaults). */
export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
): void {
  sendBody(res, status, JSON.stringify(body), {
    'Content-Type': JSON_TYPE,
    'Cache-Control': 'no-store',
    ...headers,
  });
}

/**
 * The wire form of a refusal: its code, its message and, when it names one, the field; and the parameters of its
 * words where the refusal has them (a caller says it in its own language: „… overlaps «Weekend»“).
 */
export interface ErrorBody {
  code: string;
  message: string;
  field?: string;
  params?: Readonly<Record<string, string | number>>;
}

/**
 * A thrown error as a status and an {@link ErrorBody}, or null when it is not a refusal (a bug, a failed
 * disk): such errors are the server's to log, and their text never goes to a caller.
 */
/** A refusal's word parameters, where it carries them (the hub's HubError). */
const paramsOf = (err: object): Readonly<Record<string, string | number>> | undefined => {
  const p = (err as { params?: unknown }).params;
  return p && typeof p === 'object' && Object.keys(p).length > 0 ? (p as Record<string, string | number>) : undefined;
};

export function errorReply(err: unknown): { status: number; body: ErrorBody } | null {
  if (!isKasaError(err) || err.code === null || err.status === null) return null;
  return {
    status: err.status,
    body: {
      code: err.code,
      message: err.message,
      ...(err.field !== undefined ? { field: err.field } : {}),
      ...(paramsOf(err) ? { params: paramsOf(err) } : {}),
    },
  };
}
