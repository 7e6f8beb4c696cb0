/**
 * A self-signed X.509 certificate for the store hub's HTTPS (#25), made with node:crypto alone: Node signs
 * and parses certificates but does not build them, so the few DER structures of RFC 5280 a server
 * certificate needs are encoded here. ECDSA P-256 with SHA-256, valid ~10 years, SubjectAltName with the
 * hub's DNS names and IP addresses, basicConstraints CA:FALSE, keyUsage digitalSignature, extKeyUsage
 * serverAuth. Tills do not trust it through a CA: they pin its SHA-256 fingerprint at enrolment.
 */
import crypto from 'node:crypto';
import net from 'node:net';

// ---- DER (X.690) --------------------------------------------------------------------------------------

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), len(body.length), body]);
const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bits = (b: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
/** [n] EXPLICIT: a constructed context tag around one DER value. */
const explicit = (n: number, body: Buffer): Buffer => tlv(0xa0 | n, body);

/** A non-negative INTEGER from big-endian bytes (a leading 0 keeps it positive). */
function uint(b: Buffer): Buffer {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  const v = b.subarray(i);
  return tlv(0x02, (v[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), v]) : v);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const [a = 0, b = 0, ...rest] = parts;
  const out = [40 * a + b];
  for (const p of rest) {
    const chunk = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime through 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5), to the second, in UTC. */
function time(d: Date): Buffer {
  const iso = d.toISOString(); // 2026-11-26T06:11:25.123Z
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '') + 'Z'; // 20261126061125Z
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2))) : tlv(0x18, Buffer.from(digits));
}

/** An IP address as the 4 or 16 bytes of a SubjectAltName iPAddress. */
export function ipBytes(ip: string): Buffer {
  if (net.isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!net.isIPv6(ip)) throw new Error(`not an IP address: ${ip}`);
  let text = ip.split('%')[0] ?? '';
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4) {
    const b = v4.split('.').map(Number);
    text =
      text.slice(0, -v4.length) +
      `${((b[0] ?? 0) * 256 + (b[1] ?? 0)).toString(16)}:${((b[2] ?? 0) * 256 + (b[3] ?? 0)).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

// ---- the certificate -----------------------------------------------------------------------------------

const OID = {
  ecdsaSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  subjectKeyId: '2.5.29.14',
};

const extension = (id: string, critical: boolean, value: Buffer): Buffer =>
  seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));

export interface SelfSignedOptions {
  /** The names and addresses the hub is reached by: each IP goes into the SAN as iPAddress, the rest as dNSName. */
  hosts: readonly string[];
  /** The subject's common name. */
  commonName?: string;
  /** Validity from now, in days (default 3653, ~10 years). */
  days?: number;
  now?: Date;
}

export interface TlsMaterial {
  /** The private key, PKCS#8 PEM. */
  key: string;
  /** The certificate, PEM. */
  cert: string;
}

/** A new P-256 key and a self-signed certificate for it. */
export function selfSignedCertificate(o: SelfSignedOptions): TlsMaterial {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const now = o.now ?? new Date();
  // A minute back, for a till whose clock runs a little behind the hub's.
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(now.getTime() + (o.days ?? 3653) * 86_400_000);
  const name = seq(
    set(seq(oid(OID.organization), utf8('Kasa'))),
    set(seq(oid(OID.commonName), utf8(o.commonName ?? 'Kasa store hub'))),
  );
  const hosts = [...new Set(o.hosts.map((h) => h.trim().replace(/^\[|\]$/g, '')).filter(Boolean))];
  const san = seq(
    ...hosts.map((h) => (net.isIP(h) ? tlv(0x87, ipBytes(h)) : tlv(0x82, Buffer.from(h.toLowerCase(), 'ascii')))),
  );
  const sigAlg = seq(oid(OID.ecdsaSha256));
  const serial = crypto.randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x01;
  const keyId = crypto.createHash('sha1').update(spki).digest();
  const extensions = [
    extension(OID.basicConstraints, true, seq()),
    // digitalSignature only (bit 0): named bits, so the trailing unused bits are 7.
    extension(OID.keyUsage, true, tlv(0x03, Buffer.from([7, 0x80]))),
    extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth))),
    extension(OID.subjectKeyId, false, octets(keyId)),
    ...(hosts.length ? [extension(OID.subjectAltName, false, san)] : []),
  ];
  const tbs = seq(
    explicit(0, uint(Buffer.from([2]))),
    uint(serial),
    sigAlg,
    name,
    seq(time(notBefore), time(notAfter)),
    name,
    spki,
    explicit(3, seq(...extensions)),
  );
  const signature = crypto.sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const der = seq(tbs, sigAlg, bits(signature));
  const b64 = der.toString('base64').match(/.{1,64}/g) ?? [];
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${b64.join('\n')}\n-----END CERTIFICATE-----\n`,
  };
}

/** The SHA-256 fingerprint of a PEM certificate (the first in the file), as 64 upper-case hex digits. */
export function certificateFingerprint(certPem: string): string {
  return new crypto.X509Certificate(certPem).fingerprint256.replace(/:/g, '');
}
