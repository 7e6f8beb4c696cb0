/**
 * The L-PFR sandbox through the L-PFR client, over real HTTP on ephemeral ports, with real state files:
 * signing, counters and invoice numbers, journal, vl payload, PIN and card, restart, faults and the
 * outcome classification the exactly-once integration depends on.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { LpfrClient } from '../../electron/lpfr/client.ts';
import { LpfrError } from '../../electron/lpfr/errors.ts';
import { VERIFY_BASE } from '../support/lpfr-sandbox/sign.ts';
import { rejectionOf } from '../support/rejection.ts';
import { codesOf, control, invoice, Kit, PIN, rawSign } from './helpers.ts';

const kit = new Kit();
afterEach(() => kit.cleanup());

/** The LpfrError a promise rejects with. */
function failure(p: Promise<unknown>): Promise<LpfrError> {
  return rejectionOf(p, LpfrError, 'expected an LpfrError');
}

const body = (extra: Record<string, unknown> = {}, items?: [string, number, number, string][]) =>
  JSON.stringify(invoice(items, extra));

describe('L-PFR sandbox: signing', () => {
  it('status is 200 with 1500 until the PIN is entered; attention and environment answer', async () => {
    const sandbox = await kit.sandbox();
    const client = new LpfrClient({ baseUrl: sandbox.url });
    await client.attention();
    const before = await client.status();
    expect(before.gsc).toContain('1500');
    expect(before.isPinRequired).toBe(true);
    expect(before.uid).toBe(sandbox.uid);
    expect(before.supportedLanguages).toEqual(['sr-Cyrl-RS', 'en-US']);
    expect(before.currentTaxRates?.taxCategories.flatMap((c) => c.taxRates.map((r) => r.label))).toContain('A');
    expect((await client.environment()).environmentName).toBe('Sandbox');
    await client.enterPin(PIN);
    const after = await client.status();
    expect(after.gsc).toContain('0000');
    expect(after.gsc).not.toContain('1500');
    expect(after.isPinRequired).toBe(false);
  });

  it('signs a normal sale: UID-UID-N number, N/NПП counter, Belgrade time, tax items, Успешно', async () => {
    const { sandbox, client } = await kit.ready();
    const r = await client.signInvoice(body(), 'req-1');
    expect(r.invoiceNumber).toBe(`${sandbox.uid}-${sandbox.uid}-1`);
    expect(r.requestedBy).toBe(sandbox.uid);
    expect(r.signedBy).toBe(sandbox.uid);
    expect(r.invoiceCounter).toBe('1/1ПП');
    expect(r.invoiceCounterExtension).toBe('ПП');
    expect(r.totalCounter).toBe(1);
    expect(r.transactionTypeCounter).toBe(1);
    expect(r.totalAmount).toBe(100);
    expect(r.messages).toBe('Успешно');
    expect(r.sdcDateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0[12]:00$/);
    // The offset is Belgrade's at that instant, and the local time with it is the same instant.
    const month = new Date(r.sdcDateTime).getUTCMonth();
    expect(r.sdcDateTime.endsWith(month >= 3 && month <= 8 ? '+02:00' : '+01:00')).toBe(true);
    expect(r.taxItems).toEqual([{ categoryType: 0, label: 'A', amount: 9.09, rate: 10, categoryName: 'VAT' }]);
    expect(r.verificationQRCode?.startsWith('R0lGOD')).toBe(true);
    expect((await client.status()).lastInvoiceNumber).toBe(r.invoiceNumber);
  });

  it('counts in total and per invoice and transaction type: counters and extensions of every kind', async () => {
    const { sandbox, client } = await kit.ready();
    const ref = {
      referentDocumentNumber: `${sandbox.uid}-${sandbox.uid}-1`,
      referentDocumentDT: new Date().toISOString(),
    };
    const sent: [Record<string, unknown>, string][] = [
      [{}, '1/1ПП'],
      [{}, '2/2ПП'],
      [{ transactionType: 'Refund', ...ref }, '1/3ПР'],
      [{ invoiceType: 'Advance' }, '1/4АП'],
      [{ invoiceType: 'Copy', ...ref }, '1/5КП'],
      [{ invoiceType: 'Training' }, '1/6ОП'],
      [{ invoiceType: 'ProForma' }, '1/7РП'],
      // Enums as lowercase strings and as numbers, as real clients send them.
      [{ invoiceType: 'normal', transactionType: 'sale' }, '3/8ПП'],
      [{ invoiceType: 4, transactionType: 1, ...ref }, '1/9АР'],
    ];
    for (const [i, [extra, counter]] of sent.entries()) {
      const r = await client.signInvoice(body(extra), `c-${i}`);
      expect(r.invoiceCounter).toBe(counter);
      expect(r.invoiceNumber).toBe(`${sandbox.uid}-${sandbox.uid}-${i + 1}`);
    }
    const ledger = sandbox.controls.ledger().invoices;
    expect(ledger.map((l) => l.requestId)).toEqual(sent.map((_, i) => `c-${i}`));
    expect(ledger.map((l) => l.invoiceCounter)).toEqual(sent.map(([, c]) => c));
  });

  it('journal: 40 columns, CRLF, Cyrillic, with PIB, items, tax summary, PFR time, number and counter', async () => {
    const { sandbox, client } = await kit.ready();
    const r = await client.signInvoice(
      body({ buyerId: '10:123456789' }, [
        ['Хлеб бели 500г', 2, 50, 'A'],
        ['Млеко', 1, 129.99, 'Ж'],
      ]),
      'j-1',
    );
    const journal = r.journal ?? '';
    expect(journal).not.toMatch(/[^\r]\n/);
    const lines = journal.split('\r\n');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
    expect(lines[0]).toBe('============ ФИСКАЛНИ РАЧУН ============');
    expect(lines.at(-1)).toBe('======== КРАЈ ФИСКАЛНОГ РАЧУНА =========');
    expect(lines[1]?.trim()).toBe('100000017');
    expect(journal).toContain('ПРОМЕТ ПРОДАЈА');
    expect(journal).toMatch(/Касир: +Ана/);
    expect(journal).toMatch(/ИД купца: +10:123456789/);
    expect(journal).toMatch(/ЕСИР број: +K1-000001/);
    expect(journal).toContain('Хлеб бели 500г (A)');
    expect(journal).toMatch(/Укупан износ: +229,99/);
    expect(journal).toMatch(/Готовина: +229,99/);
    expect(journal).toMatch(/Ж +VAT +19,00% +20,75/);
    expect(journal).toMatch(/Укупан износ пореза: +29,84/);
    expect(journal).toMatch(new RegExp(`ПФР број рачуна: +${sandbox.uid}-${sandbox.uid}-1`));
    expect(journal).toMatch(/Бројач рачуна: +1\/1ПП/);
    expect(journal).toMatch(/ПФР време: +\d\d\.\d\d\.\d{4}\. \d\d:\d\d:\d\d/);
    expect(journal).not.toContain('ОВО НИЈЕ ФИСКАЛНИ РАЧУН');

    const copy = await client.signInvoice(
      body({ invoiceType: 'Copy', referentDocumentNumber: r.invoiceNumber, referentDocumentDT: r.sdcDateTime }),
      'j-2',
    );
    const copyLines = (copy.journal ?? '').split('\r\n');
    expect(copyLines.filter((l) => l.includes('ОВО НИЈЕ ФИСКАЛНИ РАЧУН'))).toHaveLength(2);
    expect(copy.journal).toMatch(new RegExp(`Реф. број: +${r.invoiceNumber}`));

    const en = await new LpfrClient({ baseUrl: sandbox.url, language: 'de-DE;en-US' }).signInvoice(body(), 'j-3');
    expect(en.messages).toBe('Success');
    expect(en.journal?.split('\r\n')[0]).toBe('============ FISCAL INVOICE ============');
  });

  it('the vl payload of verificationUrl decodes to the UID, counters, amount and time', async () => {
    const { sandbox, client } = await kit.ready();
    await client.signInvoice(body(), 'v-1');
    const r = await client.signInvoice(body({}, [['Кафа', 3, 123.45, 'F']]), 'v-2');
    expect(r.verificationUrl?.startsWith(VERIFY_BASE)).toBe(true);
    const vl = Buffer.from(decodeURIComponent((r.verificationUrl ?? '').slice(VERIFY_BASE.length)), 'base64');
    expect(vl.readUInt8(0)).toBe(3);
    expect(vl.toString('ascii', 1, 9)).toBe(sandbox.uid);
    expect(vl.toString('ascii', 9, 17)).toBe(sandbox.uid);
    expect(vl.readUInt32LE(17)).toBe(2);
    expect(vl.readUInt32LE(21)).toBe(2);
    expect(vl.readBigUInt64LE(25)).toBe(3_703_500n);
    expect(Number(vl.readBigUInt64BE(33))).toBe(Date.parse(r.sdcDateTime));
  });

  it('omitQRCodeGen and omitTextualRepresentation "1" return null QR and journal', async () => {
    const { client } = await kit.ready();
    const r = await client.signInvoice(
      body({ options: { omitQRCodeGen: '1', omitTextualRepresentation: '1' } }),
      'o-1',
    );
    expect(r.verificationQRCode).toBeNull();
    expect(r.journal).toBeNull();
    expect(r.verificationUrl).toBeTruthy();
  });

  it('the same RequestId sent again is signed again, as on a real L-PFR; findInvoice returns the last', async () => {
    const { sandbox, client } = await kit.ready();
    const first = await client.signInvoice(body(), 'same');
    const second = await client.signInvoice(body(), 'same');
    expect(second.totalCounter).toBe(2);
    expect((await client.findInvoice('same'))?.invoiceNumber).toBe(second.invoiceNumber);
    expect(first.invoiceNumber).not.toBe(second.invoiceNumber);
    expect(sandbox.controls.ledger().invoices).toHaveLength(2);
    expect(await client.findInvoice('never-sent')).toBeNull();
  });
});

describe('L-PFR sandbox: validation', () => {
  it('2310 on a label not in its current rates, not_signed / invalid_labels through the client', async () => {
    const { sandbox, client } = await kit.ready();
    const raw = await rawSign(sandbox.url, invoice([['Хлеб', 1, 80, 'Ђ']]));
    expect(raw.status).toBe(400);
    expect(codesOf(raw.json)).toEqual({ 'items[0].labels': ['2310'] });
    const e = await failure(client.signInvoice(body({}, [['Хлеб', 1, 80, 'Ђ']]), 'l-1'));
    expect(e.outcome).toBe('not_signed');
    expect(e.code).toBe('invalid_labels');
    expect(e.gsc).toBe('2310');
    expect(e.status).toBe(400);
    expect(sandbox.controls.ledger().invoices).toHaveLength(0);
  });

  it('28xx field errors name the property: totals, quantities, required fields, references', async () => {
    const { sandbox } = await kit.ready();
    const bad = invoice([['Хлеб', 2, 50, 'A']]);
    const items = bad['items'] as Record<string, unknown>[];
    (items[0] as Record<string, unknown>)['totalAmount'] = 100.01;
    let r = await rawSign(sandbox.url, bad);
    expect(codesOf(r.json)).toEqual({ 'items[0].totalAmount': ['2805'] });

    r = await rawSign(sandbox.url, invoice([['Хлеб', 1.2345, 10, 'A']]));
    expect(codesOf(r.json)['items[0].quantity']).toEqual(['2806']);

    r = await rawSign(sandbox.url, { ...invoice(), payment: [{ amount: 99.99, paymentType: 'Cash' }] });
    expect(codesOf(r.json)).toEqual({ payment: ['2805'] });

    r = await rawSign(sandbox.url, { ...invoice(), items: [], invoiceType: 'Bogus', payment: undefined });
    expect(codesOf(r.json)).toEqual({ invoiceType: ['2805'], items: ['2807'], payment: ['2800'] });

    r = await rawSign(sandbox.url, { ...invoice(), buyerId: '123456789012345678901' });
    expect(codesOf(r.json)['buyerId']).toContain('2801');

    for (const extra of [{ transactionType: 'Refund' }, { invoiceType: 'Copy' }]) {
      r = await rawSign(sandbox.url, invoice(undefined, extra));
      expect(r.status).toBe(400);
      expect(codesOf(r.json)).toEqual({ referentDocumentNumber: ['2800'], referentDocumentDT: ['2800'] });
    }
    r = await rawSign(sandbox.url, 'not json');
    expect(r.status).toBe(400);
    expect(sandbox.controls.ledger().invoices).toHaveLength(0);
  });

  it('406 when no language asked for is supported; the first supported one of a list is used', async () => {
    const { sandbox } = await kit.ready();
    const r = await rawSign(sandbox.url, invoice(), { 'Accept-Language': 'de-DE;fr-FR' });
    expect(r.status).toBe(406);
    const client = new LpfrClient({ baseUrl: sandbox.url, language: 'de-DE' });
    const e = await failure(client.signInvoice(body(), 'lang-1'));
    expect(e.code).toBe('language');
    expect(e.outcome).toBe('not_signed');
    const ok = await rawSign(sandbox.url, invoice(), { 'Accept-Language': 'fr-FR;sr-Cyrl-RS;en-US' });
    expect(ok.json['messages']).toBe('Успешно');
    expect(sandbox.controls.ledger().invoices).toHaveLength(1);
  });

  it('refusals answered as text/plain codes are read the same', async () => {
    const { sandbox, client } = await kit.ready();
    await control(sandbox.url, 'error-style', { plain: true });
    const e = await failure(client.signInvoice(body({}, [['Хлеб', 1, 80, 'Ђ']]), 'p-1'));
    expect(e.code).toBe('invalid_labels');
    expect(e.outcome).toBe('not_signed');
    await control(sandbox.url, 'card', { present: false });
    expect((await failure(client.signInvoice(body(), 'p-2'))).code).toBe('card_absent');
  });
});

describe('L-PFR sandbox: PIN and card', () => {
  it('PIN required (1500) → wrong PIN 423/2100 → the fifth wrong PIN locks the card for good (2110)', async () => {
    const dataDir = kit.dir();
    const sandbox = await kit.sandbox({ dataDir });
    const client = new LpfrClient({ baseUrl: sandbox.url });
    let e = await failure(client.signInvoice(body(), 'pin-1'));
    expect([e.code, e.gsc, e.outcome, e.status]).toEqual(['pin_required', '1500', 'not_signed', 400]);

    const raw = await fetch(`${sandbox.url}/api/v3/pin`, { method: 'POST', body: '0000' });
    expect(raw.status).toBe(423);
    expect(await raw.json()).toBe('2100');
    for (let i = 2; i <= 4; i++) {
      e = await failure(client.enterPin('0000'));
      expect([e.code, e.gsc, e.status]).toEqual(['pin_wrong', '2100', 423]);
    }
    expect(sandbox.controls.state().wrongPins).toBe(4);
    e = await failure(client.enterPin('0000'));
    expect([e.code, e.gsc]).toEqual(['card_locked', '2110']);
    // Locked for good: the right PIN no longer helps, nor does a restart or reinserting the card.
    expect((await failure(client.enterPin(PIN))).code).toBe('card_locked');
    await control(sandbox.url, 'card', { present: false });
    await control(sandbox.url, 'card', { present: true });
    await sandbox.close();
    const again = await kit.sandbox({ dataDir });
    const c2 = new LpfrClient({ baseUrl: again.url });
    expect((await failure(c2.enterPin(PIN))).code).toBe('card_locked');
    expect((await c2.status()).gsc).toContain('2110');
    e = await failure(c2.signInvoice(body(), 'pin-2'));
    expect([e.code, e.outcome]).toEqual(['card_locked', 'not_signed']);
    expect(again.controls.ledger().invoices).toHaveLength(0);
  });

  it('a right PIN resets the count of wrong ones; the PIN is accepted as bare digits or a JSON string', async () => {
    const sandbox = await kit.sandbox();
    const client = new LpfrClient({ baseUrl: sandbox.url });
    for (let i = 0; i < 4; i++) await failure(client.enterPin('1111'));
    const json = await fetch(`${sandbox.url}/api/v3/pin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(PIN),
    });
    expect(await json.json()).toBe('0100');
    expect(sandbox.controls.state().wrongPins).toBe(0);
    expect((await failure(client.enterPin('12a4'))).code).toBe('invalid');
  });

  it('card removed: 1300 on invoices and environment, status still 200; reinserted it needs the PIN again', async () => {
    const { sandbox, client } = await kit.ready();
    await client.signInvoice(body(), 'card-1');
    await control(sandbox.url, 'card', { present: false });
    let e = await failure(client.signInvoice(body(), 'card-2'));
    expect([e.code, e.gsc, e.outcome, e.status]).toEqual(['card_absent', '1300', 'not_signed', 400]);
    expect((await failure(client.environment())).code).toBe('card_absent');
    const status = await client.status();
    expect(status.gsc).toEqual(expect.arrayContaining(['1300', '1500', '0210']));
    // The PFR answers a PIN without a card with 1300 (HTTP 200).
    expect((await failure(client.enterPin(PIN))).code).toBe('card_absent');
    await control(sandbox.url, 'card', { present: true });
    e = await failure(client.signInvoice(body(), 'card-3'));
    expect(e.code).toBe('pin_required');
    await client.enterPin(PIN);
    expect((await client.signInvoice(body(), 'card-4')).totalCounter).toBe(2);
  });

  it('an SE over its audit limit refuses with 2210 (audit_locked, not_signed)', async () => {
    const { sandbox, client } = await kit.ready();
    await control(sandbox.url, 'audit', { locked: true });
    const e = await failure(client.signInvoice(body(), 'a-1'));
    expect([e.code, e.gsc, e.outcome]).toEqual(['audit_locked', '2210', 'not_signed']);
  });
});

describe('L-PFR sandbox: durability and faults', () => {
  it('a restart keeps counters and findInvoice; the card needs the PIN again', async () => {
    const dataDir = kit.dir();
    const { sandbox, client } = await kit.ready({ dataDir });
    const a = await client.signInvoice(body(), 'keep-1');
    await client.signInvoice(body({ invoiceType: 'Training' }), 'keep-2');
    await sandbox.close();

    const again = await kit.sandbox({ dataDir });
    const c2 = new LpfrClient({ baseUrl: again.url });
    expect((await c2.findInvoice('keep-1'))?.invoiceNumber).toBe(a.invoiceNumber);
    expect((await c2.findInvoice('keep-1'))?.journal).toBe(a.journal);
    expect((await failure(c2.signInvoice(body(), 'keep-3'))).code).toBe('pin_required');
    await c2.enterPin(PIN);
    const c = await c2.signInvoice(body(), 'keep-3');
    expect(c.invoiceCounter).toBe('2/3ПП');
    expect(again.controls.ledger().invoices.map((l) => l.requestId)).toEqual(['keep-1', 'keep-2', 'keep-3']);
  });

  it('dropped after signing: outcome unknown, then findInvoice returns the one signed invoice', async () => {
    const { sandbox, client } = await kit.ready();
    await control(sandbox.url, 'faults', {
      rules: [{ match: 'POST /api/v3/invoices', action: 'drop_after', times: 1 }],
    });
    const e = await failure(client.signInvoice(body(), 'drop-1'));
    expect(e.outcome).toBe('unknown');
    expect(e.code).toBe('connection_lost');
    const found = await client.findInvoice('drop-1');
    expect(found?.invoiceNumber).toBe(`${sandbox.uid}-${sandbox.uid}-1`);
    expect(sandbox.controls.ledger().invoices.map((l) => l.requestId)).toEqual(['drop-1']);
  });

  it('dropped before processing: outcome unknown, findInvoice null, nothing in the ledger', async () => {
    const { sandbox, client } = await kit.ready();
    sandbox.controls.setFaults([{ match: 'POST /api/v3/invoices', action: 'drop_before', times: 1 }]);
    const e = await failure(client.signInvoice(body(), 'drop-2'));
    expect(e.outcome).toBe('unknown');
    expect(await client.findInvoice('drop-2')).toBeNull();
    expect(sandbox.controls.ledger().invoices).toHaveLength(0);
  });

  it('no answer in time (hang) and 5xx are unknown; a failed lookup is unknown too', async () => {
    const { sandbox, client } = await kit.ready();
    sandbox.controls.setFaults([{ match: 'POST /api/v3/invoices', action: 'hang', times: 1 }]);
    const t = await failure(client.signInvoice(body(), 'slow-1', { timeoutMs: 300 }));
    expect([t.code, t.outcome, t.status]).toEqual(['timeout', 'unknown', null]);
    sandbox.controls.setFaults([{ action: 'error500', times: 2 }]);
    const s = await failure(client.signInvoice(body(), 'err-1'));
    expect([s.code, s.outcome, s.status]).toEqual(['server_error', 'unknown', 500]);
    const l = await failure(client.findInvoice('err-1'));
    expect(l.outcome).toBe('unknown');
  });

  it('connection refused is not_signed (unreachable): a stopped L-PFR and one refusing for a while', async () => {
    const { sandbox, client } = await kit.ready();
    await control(sandbox.url, 'refuse', { ms: 60_000 });
    const e = await failure(client.signInvoice(body(), 'refused-1'));
    expect([e.code, e.outcome]).toEqual(['unreachable', 'not_signed']);
    expect(sandbox.controls.ledger().invoices).toHaveLength(0);
    await sandbox.close();
    const stopped = await failure(client.attention());
    expect(stopped.code).toBe('unreachable');
  });

  it('after refusing connections for a while it listens again on the same port; a delay still answers', async () => {
    const { sandbox, client } = await kit.ready();
    const refusing = sandbox.controls.refuseConnections(100);
    expect((await failure(client.attention())).code).toBe('unreachable');
    await refusing;
    sandbox.controls.setFaults([{ match: 'POST /api/v3/invoices', action: 'delay', delayMs: 50, times: 1 }]);
    expect((await client.signInvoice(body(), 'back-1')).invoiceCounter).toBe('1/1ПП');
    // The card stayed unlocked: the L-PFR itself never stopped.
    expect(sandbox.controls.state().unlocked).toBe(true);
  });

  it('an unreadable 200 to an invoice is unknown (it may be a signed invoice)', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"invoiceNumber": ');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const client = new LpfrClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
      const e = await failure(client.signInvoice(body(), 'garbled-1'));
      expect([e.code, e.outcome]).toEqual(['malformed', 'unknown']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('`npm run lpfr-sandbox` prints one JSON line with its URL and serves until killed', async () => {
    const dataDir = kit.dir();
    // Its own tax rates from a file: the production labels, where the demo ones are foreign.
    const rates = path.join(dataDir, 'rates.json');
    fs.writeFileSync(
      rates,
      JSON.stringify({
        validFrom: '2023-04-01T00:00:00.000Z',
        groupId: 8,
        taxCategories: [{ name: 'О-ПДВ', categoryType: 0, orderId: 1, taxRates: [{ rate: 20, label: 'Ђ' }] }],
      }),
    );
    const child = spawn(
      process.execPath,
      ['test/support/lpfr-sandbox/cli.ts', '--port', '0', '--data', dataDir, '--pin', PIN, '--tax-rates', rates],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      expect(line.trim().split('\n')).toHaveLength(1);
      const { url } = JSON.parse(line) as { url: string };
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const client = new LpfrClient({ baseUrl: url });
      await client.enterPin(PIN);
      expect((await client.signInvoice(body({}, [['Хлеб', 1, 120, 'Ђ']]), 'cli-1')).taxItems).toEqual([
        { categoryType: 0, label: 'Ђ', amount: 20, rate: 20, categoryName: 'О-ПДВ' },
      ]);
      expect((await failure(client.signInvoice(body(), 'cli-2'))).code).toBe('invalid_labels');
      expect(line).not.toContain(PIN);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
