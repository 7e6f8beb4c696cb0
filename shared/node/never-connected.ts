/**
 * Whether a failed fetch provably sent nothing: the connection was never made, so no byte of the request reached
 * the server and a resend (or another processor) cannot make a second document. Undici puts the socket's code on
 * `cause` (or on each of `cause.errors` when it tried several addresses).
 *
 * - ECONNREFUSED, ENOTFOUND, EAI_AGAIN, EHOSTUNREACH, ENETUNREACH, EADDRNOTAVAIL: no connection.
 * - UND_ERR_CONNECT_TIMEOUT: undici's own connect timeout (10 s), before anything was written.
 *
 * A timeout of the whole request (an AbortSignal), a reset or a cut connection may come after the request was
 * read, so they are never "not sent".
 */
const NEVER_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Every error code on the error, its `errors` and its causes, outermost first. */
export function causeCodes(err: unknown): string[] {
  const e = err as { code?: unknown; errors?: unknown; cause?: unknown } | null;
  if (!e || typeof e !== 'object') return [];
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = Array.isArray(e.errors) ? e.errors.flatMap(causeCodes) : [];
  return [...own, ...nested, ...(e.cause ? causeCodes(e.cause) : [])];
}

/** The code that proves no connection was made, or null when the request may have been sent. */
export function neverConnectedCode(err: unknown): string | null {
  const e = err as { name?: string } | null;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return null;
  const codes = causeCodes(err);
  if (codes.length === 0 || !codes.every((c) => NEVER_CONNECTED.has(c))) return null;
  return codes[0] ?? null;
}
