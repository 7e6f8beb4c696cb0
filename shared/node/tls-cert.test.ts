import crypto from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { formatFingerprint, normalizeFingerprint } from '../hub/fingerprint.ts';
import { PinMismatchError, pinnedFetch } from './pinned-fetch.ts';
import { certificateFingerprint, ipBytes, selfSignedCertificate } from './tls-cert.ts';

const servers: https.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A real HTTPS server on an ephemeral port with this material; it records the requests it received. */
async function serve(material: { key: string; cert: string }): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = https.createServer(material, (req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true }));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('the hub certificate (DER built with node:crypto)', () => {
  it('is a valid self-signed P-256 certificate with the SANs, ~10 years, signed by its own key', () => {
    const now = new Date('2026-11-26T06:00:00Z');
    const m = selfSignedCertificate({ hosts: ['127.0.0.1', '::1', 'localhost', 'hub.shop.lan', '192.168.1.10'], now });
    const x = new crypto.X509Certificate(m.cert);
    const key = crypto.createPrivateKey(m.key);
    expect(x.checkPrivateKey(key)).toBe(true);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.verify(crypto.createPublicKey(selfSignedCertificate({ hosts: [] }).key))).toBe(false);
    expect(x.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(x.subjectAltName).toBe(
      'IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost, DNS:hub.shop.lan, IP Address:192.168.1.10',
    );
    expect(x.ca).toBe(false);
    expect(x.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(x.checkIP('192.168.1.10')).toBe('192.168.1.10');
    expect(x.checkHost('hub.shop.lan')).toBe('hub.shop.lan');
    expect(new Date(x.validFrom).getTime()).toBe(now.getTime() - 60_000);
    const years = (new Date(x.validTo).getTime() - now.getTime()) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(9.99);
    expect(years).toBeLessThan(10.01);
    expect(certificateFingerprint(m.cert)).toBe(x.fingerprint256.replace(/:/g, ''));
  });

  it('uses GeneralizedTime past 2049 and encodes IPv6 forms', () => {
    const m = selfSignedCertificate({
      hosts: ['::ffff:10.0.0.1', 'fe80::1%eth0'],
      now: new Date('2045-01-01T00:00:00Z'),
    });
    const x = new crypto.X509Certificate(m.cert);
    expect(new Date(x.validTo).getUTCFullYear()).toBe(2055);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(ipBytes('::ffff:10.0.0.1').toString('hex')).toBe('00000000000000000000ffff0a000001');
    expect(ipBytes('2001:db8::8:800:200c:417a').toString('hex')).toBe('20010db80000000000080800200c417a');
  });

  it('fingerprints read as 16 groups of 4 and are typed in any form', () => {
    const hex = 'AB'.repeat(32);
    expect(formatFingerprint(hex)).toBe(Array(16).fill('ABAB').join(' '));
    expect(normalizeFingerprint(Array(32).fill('ab').join(':'))).toBe(hex);
    expect(normalizeFingerprint(formatFingerprint(hex).toLowerCase())).toBe(hex);
    expect(normalizeFingerprint('AB'.repeat(31))).toBeNull();
    expect(normalizeFingerprint('G'.repeat(64))).toBeNull();
  });
});

describe('pinned HTTPS', () => {
  it('talks to the server showing the pinned certificate, over a real TLS handshake', async () => {
    const m = selfSignedCertificate({ hosts: ['127.0.0.1'] });
    const { url, seen } = await serve(m);
    const f = pinnedFetch(formatFingerprint(certificateFingerprint(m.cert)));
    const res = await f(`${url}/api/health`, { method: 'GET', headers: { authorization: 'Bearer secret' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const again = await f(`${url}/api/x`, { method: 'POST', headers: {}, body: '{}' });
    expect(again.status).toBe(200);
    expect(seen).toEqual(['GET /api/health Bearer secret', 'POST /api/x ']);
  });

  it('refuses a server with another certificate before sending anything', async () => {
    const real = selfSignedCertificate({ hosts: ['127.0.0.1'] });
    const other = selfSignedCertificate({ hosts: ['127.0.0.1'] });
    const { url, seen } = await serve(other);
    const f = pinnedFetch(certificateFingerprint(real.cert));
    const err = await f(`${url}/api/till/push`, {
      method: 'POST',
      headers: { authorization: 'Bearer kh1.1.secret' },
      body: '{}',
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PinMismatchError);
    expect((err as PinMismatchError).seen).toBe(certificateFingerprint(other.cert));
    expect((err as PinMismatchError).expected).toBe(certificateFingerprint(real.cert));
    expect(seen).toEqual([]);
  });

  it('is https only', async () => {
    const f = pinnedFetch('00'.repeat(32));
    await expect(f('http://127.0.0.1:1/', { method: 'GET', headers: {} })).rejects.toThrow(/https only/);
  });
});
