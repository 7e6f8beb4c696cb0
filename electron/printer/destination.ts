/**
 * Where a manager may point the printer: never a link-local or cloud-metadata address, and a
 * loopback address only where whoever installed the till allowed it (`KASA_PRINTER_ALLOW_LOOPBACK=1`, e.g.
 * a local print proxy). Every fiscal receipt goes to this address, so a surprise here sends receipts (and
 * whatever header bytes) out of the shop.
 */
import net from 'node:net';
import { parsePrinterUri } from '../../shared/contract/printer.ts';
import { CommandError } from '../errors.ts';

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.com']);

/** The host without brackets, zone or IPv4-mapped IPv6 prefix, lower case. */
function normalise(host: string): string {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped?.[1] ?? h;
}

export function hostClass(host: string): 'loopback' | 'link-local' | 'metadata' | 'unspecified' | 'ok' {
  const h = normalise(host);
  if (METADATA_NAMES.has(h) || h === '100.100.100.200' || h === 'fd00:ec2::254') return 'metadata';
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  const kind = net.isIP(h);
  if (kind === 4) {
    const [a, b] = h.split('.').map(Number);
    if (a === 127) return 'loopback';
    if (a === 169 && b === 254) return h === '169.254.169.254' ? 'metadata' : 'link-local';
    if (a === 0) return 'unspecified';
  }
  if (kind === 6) {
    if (h === '::1') return 'loopback';
    if (h === '::') return 'unspecified';
    if (/^fe[89ab][0-9a-f]:/.test(h)) return 'link-local';
  }
  return 'ok';
}

/** Throws `printer_address_forbidden` (field `uri`) for a destination a manager may not choose. */
export function checkPrinterDestination(uri: string, env: NodeJS.ProcessEnv): void {
  const target = parsePrinterUri(uri.trim());
  if (!target || target.kind !== 'tcp') return;
  const kind = hostClass(target.host);
  if (kind === 'ok' || (kind === 'loopback' && env['KASA_PRINTER_ALLOW_LOOPBACK'] === '1')) return;
  throw new CommandError('invalid_input', 'printer_address_forbidden', { field: 'uri', kind }, 'uri');
}
