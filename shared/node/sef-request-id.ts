/**
 * The first request id of an e-invoice (docs/sef.md, "Sending from the hub"): derived from the document itself (the
 * seller's PIB, its kind and its number), so the till and the store hub name the same document with the same SEF
 * idempotency key. Two senders of one document can then never make two at SEF: SEF answers the second send with the
 * first result, and the hub looks the id up before its first send. A retry after SEF's refusal takes a random id.
 */
import crypto from 'node:crypto';

/** A UUID (version 8: name-based, SHA-256) of the seller, the document's kind and its number. */
export function sefFirstRequestId(sellerPib: string, kind: string, number: string): string {
  const h = crypto.createHash('sha256').update(`kasa-sef\n${sellerPib}\n${kind}\n${number}`).digest('hex');
  const variant = ((parseInt(h.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
