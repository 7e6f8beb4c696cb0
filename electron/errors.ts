/** Command errors: thrown inside services, turned into the contract's AppError at the dispatcher. */
import type { z } from 'zod';
import type { AppError } from '../shared/contract/index.ts';
import { SESSION_KEYS } from '../shared/contract/schemas.ts';
import type { Language } from '../shared/domain.ts';
import { isKasaError, KasaError } from '../shared/errors.ts';
import { fieldLabel } from '../shared/i18n/fields.ts';
import { hasMessage, message } from '../shared/messages.ts';

/** The HTTP status of each contract error code (the browser host answers a failed command with it). */
export const HTTP_STATUS: Record<AppError['code'], number> = {
  invalid_input: 400,
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unavailable: 503,
  storage: 507,
  internal: 500,
};

/** A command's failure whose text is already written (not a message key): shown as it is. */
export function failure(code: AppError['code'], text: string, field?: string): KasaError<AppError['code']> {
  return new KasaError(code, text, { status: HTTP_STATUS[code], field });
}

/** A localizable failure: `key` is a message key of shared/messages.ts. */
export class CommandError extends KasaError<AppError['code']> {
  readonly key: string;
  readonly params: Record<string, string | number>;

  /** `status` only where HTTP answers otherwise than the code's (a missing token is 401, not 403). */
  constructor(
    code: AppError['code'],
    key: string,
    params: Record<string, string | number> = {},
    field?: string,
    status: number = HTTP_STATUS[code],
  ) {
    super(code, key, { status, field });
    this.name = 'CommandError';
    this.key = key;
    this.params = params;
  }
}

/** An invalid-input error naming `field` (dotted path). */
export function invalidInput(field: string, key: string, params: Record<string, string | number> = {}): CommandError {
  return new CommandError('invalid_input', key, { field, ...params }, field);
}

/** Converts zod issues to `invalid_input` with every field named, in the user's language. */
export function zodToAppError(error: z.ZodError, lang: Language): AppError {
  const issues = error.issues.map((issue) => {
    let path = fieldPath(issue.path);
    let key = hasMessage(issue.message) ? issue.message : 'invalid';
    if (issue.code === 'unrecognized_keys') {
      const keys = (issue as { keys?: string[] }).keys ?? [];
      // A key the core sets from the session (the cashier) is named first and says so, not only "not allowed".
      const own = issue.path.length === 0 ? keys.find((k) => Object.hasOwn(SESSION_KEYS, k)) : undefined;
      const named = own ?? keys[0];
      path = named !== undefined ? fieldPath([...issue.path, named]) : path;
      key = own !== undefined ? (SESSION_KEYS[own] ?? 'unknown_field') : 'unknown_field';
    } else if (issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined) {
      key = 'required';
    }
    const field = path || '(input)';
    return { field, message: message(lang, key, { field: fieldLabel(lang, path) }) };
  });
  const first = issues[0] ?? { field: '(input)', message: message(lang, 'invalid', { field: fieldLabel(lang, '') }) };
  return { code: 'invalid_input', field: first.field, message: first.message, issues };
}

/**
 * A dotted field path. A key that is empty, holds a dot or starts with a quote is quoted (`lines.0.""`, `"a.b"`), so
 * that an
 * unknown key `""` is still named and a path can be split back into its keys.
 */
export function fieldPath(segments: readonly PropertyKey[]): string {
  return segments
    .map((s) =>
      typeof s === 'number'
        ? String(s)
        : typeof s === 'symbol'
          ? (s.description ?? '')
          : s === '' || s.includes('.') || s.startsWith('"')
            ? JSON.stringify(s)
            : s,
    )
    .join('.');
}

/** Anything thrown by a handler, as an AppError. Unknown errors become `internal` and are logged. */
export function toAppError(err: unknown, lang: Language, log: (msg: string) => void = console.error): AppError {
  if (err instanceof CommandError) {
    // The message names the field by its label; the path stays in `field`, for the form to show it there.
    const named = err.field !== undefined && err.params.field === err.field;
    const text = message(
      lang,
      err.key,
      named ? { ...err.params, field: fieldLabel(lang, err.field ?? '') } : err.params,
    );
    if (err.code === 'invalid_input') {
      const field = err.field ?? '(input)';
      return { code: 'invalid_input', field, message: text, issues: [{ field, message: text }] };
    }
    if (err.code === 'forbidden' && err.field) return { code: 'forbidden', message: text, field: err.field };
    return { code: err.code, message: text };
  }
  // A failure with its text written (the printer's, the hub's answers): shown as it is.
  if (isKasaError(err) && (err.code === 'not_found' || err.code === 'invalid_input' || err.code === 'conflict')) {
    const text = err.message;
    if (err.code === 'invalid_input') {
      const field = err.field ?? '(input)';
      return { code: 'invalid_input', field, message: text, issues: [{ field, message: text }] };
    }
    return { code: err.code, message: text };
  }
  if (isStorageError(err)) {
    const reason = (err as { code?: string }).code ?? 'I/O';
    return { code: 'storage', message: message(lang, 'storage', { reason }) };
  }
  log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return { code: 'internal', message: message(lang, 'internal') };
}

/** SQLite errors that mean the disk or file cannot take writes (full, read-only, I/O, corrupt). */
export function isStorageError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^SQLITE_(FULL|READONLY|IOERR|CORRUPT|CANTOPEN|NOTADB|BUSY|LOCKED)/.test(code);
}
