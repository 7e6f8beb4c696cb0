/** Reading a reply of another server (the gateway, an L-PFR) without trusting its size. */

/**
 * The reply's body as UTF-8 text, or null once it grows past `maxBytes` (the rest is not read): a reply that
 * large is malformed, and each client says what that means for its request.
 */
export async function readReplyCapped(response: Response, maxBytes: number): Promise<string | null> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}
