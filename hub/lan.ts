/**
 * What the hub checks of every request before routing it, because it sits on a shop's LAN (#25):
 * - the Host header must name the hub (an allowlist: the addresses it binds, localhost, KASA_HUB_HOSTS), so a
 *   web page that rebinds its own DNS name to the hub's address is refused (DNS rebinding);
 * - a state-changing request's body is JSON, said by its Content-Type (415 otherwise): a form or a
 *   `text/plain` body, which a browser sends from any page without asking, never reaches a route;
 * - a browser's state-changing request comes from the hub's own origin (403 otherwise);
 * - every answer carries anti-framing and no-sniff headers (the UI cannot be framed for clickjacking).
 */
import type http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { isJsonContentType } from '../shared/node/http/index.ts';
import { isLoopbackHost } from '../shared/node/pinned-fetch.ts';
import { HubError } from './service.ts';

/** Headers on every answer of the hub. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** 127.0.0.0/8, ::1 and `localhost`: the only addresses the hub may serve plain HTTP on. */
export const isLoopback = isLoopbackHost;

/** A host name or address as compared: lower case, no brackets, no trailing dot. */
const canonical = (h: string): string =>
  h
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');

/** The host part of a Host header (`hub.lan:8787`, `[::1]:8787`, `10.0.0.2`), or null when malformed. */
export function hostOf(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(header.trim());
  return m?.[1] ? canonical(m[1]) : null;
}

/**
 * The names the hub answers to: `localhost` and the loopback addresses, the bound address (every interface's
 * addresses and the machine's name when bound to all of them), and `extra` (KASA_HUB_HOSTS).
 */
export function allowedHosts(bind: string, extra: readonly string[] = []): Set<string> {
  const hosts = new Set(['localhost', '127.0.0.1', '::1', canonical(bind)]);
  if (bind === '0.0.0.0' || bind === '::') {
    for (const list of Object.values(os.networkInterfaces()))
      for (const i of list ?? []) hosts.add(canonical(i.address.split('%')[0] ?? ''));
    hosts.add(canonical(os.hostname()));
  }
  for (const h of extra) if (h.trim()) hosts.add(canonical(h));
  return hosts;
}

/** The hosts KASA_HUB_HOSTS names (comma or space separated). */
export function hostsOf(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

/** The certificate's SAN entries for a hub: its allowed hosts, without the wildcard bind addresses. */
export function certificateHosts(hosts: Set<string>): string[] {
  return [...hosts].filter((h) => h !== '0.0.0.0' && h !== '::' && (net.isIP(h) !== 0 || /^[a-z0-9.-]+$/.test(h)));
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Refuses a request the hub must not serve (see the header); nothing is read of its body before. */
export function guardRequest(req: http.IncomingMessage, o: { hosts: Set<string>; secure: boolean }): void {
  const host = hostOf(req.headers.host);
  if (!host || !o.hosts.has(host))
    throw new HubError(
      421,
      'host_refused',
      'this hub does not answer to that host name; add it to KASA_HUB_HOSTS if it is one of the hub',
    );
  const method = req.method ?? 'GET';
  if (!STATE_CHANGING.has(method)) return;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `${o.secure ? 'https' : 'http'}://${req.headers.host ?? ''}`)
    throw new HubError(403, 'origin_refused', 'a request from another web page is refused');
  const type = req.headers['content-type'];
  const hasBody = Number(req.headers['content-length'] ?? '0') > 0 || req.headers['transfer-encoding'] !== undefined;
  if ((type !== undefined || hasBody) && !isJsonContentType(type))
    throw new HubError(415, 'unsupported_media_type', 'the body must be JSON (Content-Type: application/json)');
}
