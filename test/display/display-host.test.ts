/**
 * The customer display over the browser host (docs/payments.md, "The customer display"), with a real core, a real
 * SQLite file and real HTTP:
 * - a display-only token, made by a manager, is refused by every command of the contract, by the till's event
 *   stream and its ticket, and by a path of the API that does not exist; the till's own token is refused by the
 *   display's routes;
 * - with it a display gets a ticket (and its own language), then a stream of frames: idle with the shop's name, the
 *   cart the counter shows (promotion name, integer para and thousandths), the IPS code the core builds from the
 *   shop's settings for the amount and reference shown (a caller cannot choose the account), the thanks with the
 *   change; the (demo) API key is in no frame;
 * - a revoked token is refused, and the stream it opened is closed.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type Host } from '../../electron/host/server.ts';
import type { Core } from '../../electron/core.ts';
import { COMMAND_NAMES, type DisplayFrame, type DisplayTokenView } from '../../shared/contract/index.ts';
import { model97Control, parseIpsQr } from '../../shared/payments/ips-qr.ts';
import { closeCores, fails, MANAGER_PIN, ok, startCore, tempDir } from '../support/session.ts';

const TOKEN = 'till-host-token-for-the-display-test-0123456789';
const hosts: Host[] = [];

afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  await closeCores();
});

async function till(): Promise<{ core: Core; host: Host }> {
  const core = await startCore({ env: { KASA_LANG: 'en' } });
  const host = await startHost({ core, token: TOKEN, staticDir: tempDir('kasa-display-static-') });
  hosts.push(host);
  return { core, host };
}

async function post(
  host: Host,
  path: string,
  bearer: string,
  body: unknown = {},
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(new URL(path, host.url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** A display's stream: the frames as they come, and whether the host closed it. */
function openStream(
  host: Host,
  ticket: string,
): Promise<{ frames: DisplayFrame[]; closed: Promise<void>; stop(): void }> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(`/display-api/events?ticket=${encodeURIComponent(ticket)}`, host.url), (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
      const frames: DisplayFrame[] = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^event: frame\ndata: (.*)$/m.exec(block);
          if (data?.[1]) frames.push(JSON.parse(data[1]) as DisplayFrame);
        }
      });
      const closed = new Promise<void>((done) => res.on('close', () => done()));
      resolve({ frames, closed, stop: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

async function until<T>(read: () => T | undefined): Promise<T> {
  for (;;) {
    const v = read();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the customer display over the browser host', () => {
  it('a display-only token opens the display stream and nothing else', async () => {
    const { core, host } = await till();
    const made = await ok<DisplayTokenView & { token: string }>(core, 'display.tokenCreate', {
      managerPin: MANAGER_PIN,
      label: 'Tablet at the counter',
      language: 'sr-Latn',
    });
    expect(made.token).toMatch(/^[\w-]{43}$/);
    // Only its hash is kept.
    const stored = core.db.prepare<[], { token_sha256: string }>('SELECT token_sha256 FROM display_tokens').get();
    expect(stored?.token_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(core.db.prepare('SELECT * FROM display_tokens').all())).not.toContain(made.token);

    for (const name of COMMAND_NAMES) {
      const r = await post(host, `/api/${name}`, made.token);
      expect(r.status, name).toBe(401);
      expect(r.body, name).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect((await post(host, '/api/events/ticket', made.token)).status).toBe(401);
    expect((await post(host, '/api/no.such.command', made.token)).status).toBe(401);
    const tillStream = await fetch(new URL('/api/events', host.url), {
      headers: { Authorization: `Bearer ${made.token}` },
    });
    expect(tillStream.status).toBe(401);
    await tillStream.body?.cancel();
    // The till's token is not a display's, and nothing opens the display stream without a ticket.
    expect((await post(host, '/display-api/ticket', TOKEN)).status).toBe(401);
    expect((await fetch(new URL('/display-api/events?ticket=made-up', host.url))).status).toBe(401);

    const ticket = await post(host, '/display-api/ticket', made.token);
    expect(ticket.status).toBe(200);
    const value = (ticket.body as { value: { ticket: string; language: string } }).value;
    expect(value.language).toBe('sr-Latn');
    const stream = await openStream(host, value.ticket);
    // A ticket opens one stream only.
    expect((await fetch(new URL(`/display-api/events?ticket=${value.ticket}`, host.url))).status).toBe(401);
    const idle = await until(() => stream.frames[0]);
    expect(idle).toMatchObject({ phase: 'idle', lines: [], totalPara: 0 });

    // The cart as the counter shows it.
    await ok(core, 'display.show', {
      phase: 'cart',
      lines: [
        { name: 'Хлеб раженi', quantity: 2, unitPrice: 95.5, total: 171.9, promotion: 'Викенд акција' },
        { name: 'Сир', quantity: 0.35, unitPrice: 1200, total: 420 },
      ],
      total: 591.9,
    });
    const cart = await until(() => stream.frames[1]);
    expect(cart).toMatchObject({
      phase: 'cart',
      totalPara: 59190,
      lines: [
        { name: 'Хлеб раженi', quantityMilli: 2000, unitPara: 9550, totalPara: 17190, promotion: 'Викенд акција' },
        { name: 'Сир', quantityMilli: 350, unitPara: 120000, totalPara: 42000 },
      ],
    });

    // The IPS code: refused until the shop has an account; then the core's own, for the amount and reference.
    const reference = `97${model97Control('26112817571345')}26112817571345`;
    const ips = { phase: 'ips', lines: [], total: 591.9, ips: { amount: 591.9, reference } };
    expect((await fails(core, 'display.show', ips)).code).toBe('unavailable');
    await ok(core, 'settings.update', { managerPin: MANAGER_PIN, ipsAccount: '840-955845-10', ipsName: 'Kod Mike' });
    const request = await ok<{ reference: string }>(core, 'ips.request', { amount: 591.9 });
    await ok(core, 'display.show', { ...ips, ips: { amount: 591.9, reference: request.reference } });
    const shown = await until(() => stream.frames.find((f) => f.phase === 'ips'));
    expect(parseIpsQr(shown.ips?.payload ?? '')).toEqual({
      ok: true,
      fields: {
        kind: 'PT',
        account: '840000000095584510',
        name: 'Kod Mike',
        amountPara: 59190,
        paymentCode: '221',
        reference: request.reference,
      },
    });
    // A caller cannot bring a code of its own.
    const own = await fails(core, 'display.show', { ...ips, ips: { ...ips.ips, payload: 'K:PT|V:01' } });
    expect(own.code).toBe('invalid_input');

    await ok(core, 'display.show', { phase: 'thanks', lines: [], total: 591.9, paid: 1000 });
    const thanks = await until(() => stream.frames.find((f) => f.phase === 'thanks'));
    expect(thanks).toMatchObject({ totalPara: 59190, paidPara: 100000, changePara: 40810 });
    expect(JSON.stringify(stream.frames)).not.toContain('demo-key');

    // Revoked: the open stream is closed and the token opens nothing any more.
    await ok(core, 'display.tokenRevoke', { managerPin: MANAGER_PIN, id: made.id });
    await stream.closed;
    expect((await post(host, '/display-api/ticket', made.token)).status).toBe(401);
    const listed = await ok<{ tokens: DisplayTokenView[] }>(core, 'display.tokens', { managerPin: MANAGER_PIN });
    expect(listed.tokens).toEqual([expect.objectContaining({ id: made.id, label: 'Tablet at the counter' })]);
    expect(listed.tokens[0]?.revokedAt).toBeTruthy();
    expect(JSON.stringify(listed)).not.toContain(made.token);
  });

  it('a cashier cannot make a display token, and nobody logged out can feed the display', async () => {
    const { core } = await till();
    await ok(core, 'staff.logout', {});
    const refused = await fails(core, 'display.show', { phase: 'idle', lines: [], total: 0 });
    expect(refused.code).toBe('forbidden');
    const noPin = await fails(core, 'display.tokenCreate', { label: 'x', language: 'en' });
    expect(noPin.code).toBe('forbidden');
    const wrong = await fails(core, 'display.tokenCreate', { managerPin: '000111', label: 'x', language: 'en' });
    expect(wrong.code).toBe('forbidden');
    expect(core.db.prepare('SELECT count(*) AS n FROM display_tokens').get()).toEqual({ n: 0 });
  });
});
