/**
 * A certificate's SHA-256 fingerprint as people compare it and as the till stores it (#25, TLS on the LAN).
 * Stored: 64 upper-case hex digits. Shown: 16 groups of 4 (`3F2A 9C01 …`), which a person reads aloud or
 * compares with the hub's screen group by group. Typed: any case, with spaces, colons or dashes between.
 * Runs in the browser too (the manager screens), so nothing here needs Node.
 */

/** The stored form of a typed or printed fingerprint, or null when it is not 32 bytes of hex. */
export function normalizeFingerprint(text: string): string | null {
  const hex = text.replace(/[\s:-]/g, '').toUpperCase();
  return /^[0-9A-F]{64}$/.test(hex) ? hex : null;
}

/** The grouped form of a fingerprint (any accepted form in, `3F2A 9C01 …` out; unchanged when not one). */
export function formatFingerprint(text: string): string {
  const hex = normalizeFingerprint(text);
  return hex ? (hex.match(/.{4}/g) ?? []).join(' ') : text;
}
