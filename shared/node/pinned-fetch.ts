/**
 * HTTPS to a server known by its certificate's SHA-256 fingerprint (the store hub, #25): no CA is asked,
 * the certificate must be exactly the pinned one. Each new connection is checked after the TLS handshake
 * and BEFORE it is handed to the request, so not a byte of a request (its Authorization header above all)
 * reaches a server whose certificate differs. The answer is a WHATWG `Response`, like the global fetch's.
 */
import crypto from 'node:crypto';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { formatFingerprint, normalizeFingerprint } from '../hub/fingerprint.ts';

/** The few parts of fetch the hub clients use; the global fetch is one. */
export type PinnedFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<Response>;

/** The server showed a certificate other than the pinned one: nothing was sent to it. */
export class PinMismatchError extends Error {
  readonly code = 'hub_certificate_changed';
  /** The pinned fingerprint (64 hex digits). */
  readonly expected: string;
  /** The fingerprint of the certificate the server showed (64 hex digits; '' when it showed none). */
  readonly seen: string;
  constructor(expected: string, seen: string) {
    super(
      `the hub's certificate (SHA-256 ${formatFingerprint(seen) || 'none'}) is not the pinned one ` +
        `(${formatFingerprint(expected)}); nothing was sent to it`,
    );
    this.name = 'PinMismatchError';
    this.expected = expected;
    this.seen = seen;
  }
}

/** 127.0.0.0/8, ::1 and `localhost`: the only hosts plain HTTP is used with (tests, one machine). */
export function isLoopbackHost(host: string): boolean {
  const a = host.replace(/^\[|\]$/g, '').toLowerCase();
  return a === 'localhost' || a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a) || /^::ffff:127\./.test(a);
}

/** The URL's host is a loopback one (false for a URL that does not parse). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** The SHA-256 of the certificate a TLS socket's peer showed, as 64 hex digits ('' when none). */
export function peerFingerprint(socket: tls.TLSSocket): string {
  const raw = socket.getPeerCertificate(false).raw as Buffer | undefined;
  return raw ? crypto.createHash('sha256').update(raw).digest('hex').toUpperCase() : '';
}

/** An agent whose every socket shows the pinned certificate before it is used. */
class PinnedAgent extends https.Agent {
  readonly #pin: string;
  constructor(pin: string) {
    super({ keepAlive: true, maxSockets: 16 });
    this.#pin = pin;
  }
  override createConnection(
    options: https.RequestOptions,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const { host, port, servername } = options;
    const socket = tls.connect({
      host: host ?? 'localhost',
      port: Number(port ?? 443),
      // An IP address is not a valid SNI name (RFC 6066); the pin, not the name, says who the server is.
      ...(servername && !/^[\d.]+$|:/.test(servername) ? { servername } : {}),
      // The CA chain is not asked: the certificate itself is compared with the pin below.
      rejectUnauthorized: false,
      minVersion: 'TLSv1.2',
    });
    const fail = (err: Error): void => {
      socket.destroy();
      callback?.(err, socket);
    };
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      socket.off('error', fail);
      const seen = peerFingerprint(socket);
      if (seen !== this.#pin) return fail(new PinMismatchError(this.#pin, seen));
      callback?.(null, socket);
    });
    return undefined;
  }
}

/** A fetch that talks HTTPS only to a server showing the certificate with this fingerprint. */
export function pinnedFetch(fingerprint: string): PinnedFetch {
  const pin = normalizeFingerprint(fingerprint);
  if (!pin) throw new Error('the pinned fingerprint must be 64 hex digits (a SHA-256)');
  const agent = new PinnedAgent(pin);
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      if (target.protocol !== 'https:') return reject(new Error(`a pinned connection is https only, not ${url}`));
      if (init.signal?.aborted) return reject(init.signal.reason as Error);
      const req = https.request(target, { method: init.method, headers: init.headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 502;
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
          const empty = status === 204 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
        });
      });
      const onAbort = (): void => void req.destroy(init.signal?.reason as Error);
      init.signal?.addEventListener('abort', onAbort, { once: true });
      req.on('close', () => init.signal?.removeEventListener('abort', onAbort));
      req.on('error', reject);
      req.end(init.body);
    });
}
