/**
 * The hub UI's way to the hub: the typed client of the hub's contract (shared/hub/client.ts) over the browser's
 * fetch, with the manager's session. No path or wire shape is written in the hub UI.
 */
import { fetchSend, hubClient, isHubFile, type TypedHubClient } from '../../../shared/hub/client.ts';
import type { HubApi, HubFile } from '../../../shared/hub/contract.ts';

export class HubCallError extends Error {
  readonly field: string | undefined;
  readonly code: string | undefined;
  /** The refusal's word parameters (the other promotion an overlap names). */
  readonly params: Readonly<Record<string, string | number>>;
  constructor(message: string, field?: string, code?: string, params?: Readonly<Record<string, string | number>>) {
    super(message);
    this.field = field;
    this.code = code;
    this.params = params ?? {};
  }
}

/** The hub's API as this UI calls it. */
export type HubUiApi = TypedHubClient<HubApi>;

/**
 * The hub's API with the session's token (null: the public endpoints only), through the browser's fetch; a refusal
 * becomes a HubCallError (code, field).
 */
export function hubApi(token: string | null): HubUiApi {
  return hubClient(fetchSend({ token, fetch: (url, init) => fetch(url, init) }), {
    refusal: (status, code, message, field, params) =>
      new HubCallError(message || `HTTP ${status}`, field, code, params),
  });
}

/** The JSON of an answer that may be a file (the report): a file here is the hub's mistake. */
export function notFile<T>(r: T | HubFile): T {
  if (isHubFile(r)) throw new HubCallError('the hub answered a file');
  return r;
}

/** Saves a file the hub answered (a CSV) under the hub's name for it, or `fallback`. */
export function download(file: HubFile, fallback: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([file.bytes], { type: file.type }));
  a.download = file.filename ?? fallback;
  a.click();
}
