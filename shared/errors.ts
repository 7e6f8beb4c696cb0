/**
 * The one error type of Kasa. Every refusal a service raises, on the till, the hub or the sandbox gateway,
 * is a `KasaError`: a machine-readable `code`, the HTTP `status` a server answers it with, and the input
 * `field` it names, if any. The HTTP kit (shared/node/http) turns it into a response.
 *
 * Subclasses exist only where a caller branches on them: `CommandError` (localized by a message key),
 * `HubError` (the till tells the hub's refusals from its own), `GatewayError` (retry decisions) and
 * `SandboxError` (the spec's error body). Nothing is duck-typed by `.code`.
 *
 * The gateway protocol has refusals without a code (403, 429) and failures without a status (no answer
 * at all), so the two gateway subclasses widen `Code` and `Status` to admit null.
 */
export class KasaError<Code extends string | null = string, Status extends number | null = number> extends Error {
  readonly code: Code;
  readonly status: Status;
  readonly field: string | undefined;

  constructor(code: Code, message: string, options: { status: Status; field?: string | undefined }) {
    super(message);
    this.name = 'KasaError';
    this.code = code;
    this.status = options.status;
    this.field = options.field;
  }
}

/** Any KasaError, whatever its subclass narrows `code` and `status` to. */
export type AnyKasaError = KasaError<string | null, number | null>;

/** Narrows without `instanceof`'s `any` type arguments. */
export function isKasaError(err: unknown): err is AnyKasaError {
  return err instanceof KasaError;
}
