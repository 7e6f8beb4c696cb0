/**
 * A raw HTTP request to a loopback server, for tests that must forge what fetch() will not: the Host and
 * Origin headers, a body sent in many chunks.
 */
import http from 'node:http';

export interface RawOptions {
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sends this many 64 KiB chunks of spaces as the body. */
  chunks?: number;
}

export function rawRequest(port: number, options: RawOptions): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: options.path ?? '/',
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        setHost: false,
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    if (options.chunks) {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let i = 0; i < options.chunks; i++) req.write(chunk);
    }
    req.end(options.body);
  });
}

/**
 * A JSON POST from a chosen loopback source address (127.0.0.2, 127.0.0.3, …: each another machine to a server
 * that counts by address), on a connection of its own; the answer read as JSON.
 */
export function postFrom(
  url: string,
  body: unknown,
  localAddress = '127.0.0.1',
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The first `bytes` bytes of a fetch answer's body as text: a file's signature (`%PDF-` for a PDF). */
export async function bodyStart(res: Response, bytes: number): Promise<string> {
  return Buffer.from(await res.arrayBuffer())
    .subarray(0, bytes)
    .toString();
}
