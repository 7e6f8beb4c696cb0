/**
 * A client of another server (the gateway, an L-PFR): where the server is, how a request is fetched, how long it
 * may take, how large an answer may be read, and whom it tells of every request. Each client names its defaults.
 */

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface UpstreamOptions<OnRequest> {
  baseUrl: string;
  fetch?: FetchLike | undefined;
  timeoutMs?: number | undefined;
  maxBodyBytes?: number | undefined;
  onRequest?: OnRequest | undefined;
}

export abstract class UpstreamClient<OnRequest> {
  /** Without a trailing slash: every path starts with one. */
  readonly baseUrl: string;
  protected readonly fetch: FetchLike;
  protected readonly timeoutMs: number;
  protected readonly maxBodyBytes: number;
  protected readonly onRequest: OnRequest | undefined;

  /** The options, else the client's defaults (the global fetch when none is given). */
  constructor(o: UpstreamOptions<OnRequest>, defaults: { timeoutMs: number; maxBodyBytes: number }) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    this.fetch = o.fetch ?? ((url, init) => fetch(url, init));
    this.timeoutMs = o.timeoutMs ?? defaults.timeoutMs;
    this.maxBodyBytes = o.maxBodyBytes ?? defaults.maxBodyBytes;
    this.onRequest = o.onRequest;
  }

  /** Never prints a key or a body: only where the server is. */
  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  /** A request's signal: aborted at its timeout (the call's own, else the client's) or by the caller's signal. */
  protected signal(opts: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined }): AbortSignal {
    const signals = [AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs)];
    if (opts.signal) signals.push(opts.signal);
    return AbortSignal.any(signals);
  }
}
