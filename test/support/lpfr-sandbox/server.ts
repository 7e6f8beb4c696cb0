/**
 * The L-PFR sandbox: a local fiscal processor on the ESIR–PFR local API (/api/v3/…), faithful to
 * ../shared/spec/lpfr-api-notes.md as electron/sandbox is to the gateway's spec. Plain HTTP, no
 * authentication (as on a shop LAN). A smart card with its own UID that starts locked (PIN), can be removed
 * and reinserted, and locks for good after 5 wrong PINs; counters and signed invoices that survive a restart;
 * test controls under `/__lpfr/` (loopback only). Never logs; the PIN is never written anywhere.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isJsonContentType, parseJson, readBody, sendBody } from '../../../shared/node/http/index.ts';
import { DEMO_TAX_GROUP, type TaxGroup } from '../../../electron/sandbox/accounts.ts';
import { controlCallerOk } from '../../../electron/sandbox/server.ts';
import { GSC, GSC_TEXT, LPFR_LANGUAGES, type LpfrLanguage } from '../../../electron/lpfr/protocol.ts';
import { LpfrStore, type SignedInvoice } from './store.ts';
import { belgradeIso, LpfrRefusal, signInvoice, validateInvoice, type LpfrIdentity } from './sign.ts';

/** Options of {@link startLpfrSandbox}. */
export interface LpfrSandboxOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Interface; default 127.0.0.1. */
  host?: string;
  /** Directory of the durable state; in memory without it. */
  dataDir?: string;
  /** The card's PIN (4 digits). Default 1234. */
  pin?: string;
  /** The card's UID (8 characters, A–Z and 0–9). Default KS7LPF01. */
  uid?: string;
  /** The current tax rates. Default: the gateway sandbox's demo group (electron/sandbox/accounts.ts). */
  taxRates?: TaxGroup;
  /** The clock (ms since epoch). Default Date.now. */
  now?: () => number;
  /**
   * How many RequestIds the device remembers for `GET /api/v3/invoices/{requestId}`: the latest signing requests
   * it received (signed or refused), as real devices do (ML: the last one; OFS: the last 100) [M]. An older one
   * is 404 even when it was signed. Default: every one.
   */
  keepRequests?: number;
}

/** What a test can do to the next matching requests (`match` is a substring of "METHOD /path"). */
export type LpfrFaultAction =
  /** Destroys the socket without processing: the client cannot know, the invoice is NOT signed. */
  | 'drop_before'
  /** Signs (and stores) the invoice, then destroys the socket: signed, the client cannot know. */
  | 'drop_after'
  /** Never answers (the socket stays open until the sandbox closes). */
  | 'hang'
  /** Answers after `delayMs`. */
  | 'delay'
  /** Answers 500 without processing. */
  | 'error500';

export interface LpfrFaultRule {
  match?: string;
  action: LpfrFaultAction;
  /** How many requests it applies to; unlimited without. */
  times?: number;
  delayMs?: number;
}

/** One signed invoice in the ledger. */
export interface LpfrLedgerEntry {
  requestId: string | null;
  invoiceNumber: string;
  esirNumber: string | null;
  invoiceType: string;
  transactionType: string;
  invoiceCounter: string;
  sdcDateTime: string;
  totalAmount: number;
  referentDocumentNumber: string | null;
}

/** In-process controls; each is also a `/__lpfr/…` endpoint. */
export interface LpfrControls {
  /** Removes or inserts the card (POST /__lpfr/card {present}). An inserted card needs the PIN again. */
  setCard(present: boolean): void;
  /** Replaces the fault rules (POST /__lpfr/faults {rules}). */
  setFaults(rules: LpfrFaultRule[]): void;
  /** Blocks signing as an SE over its audit limit does (2210) (POST /__lpfr/audit {locked}). */
  setAuditLocked(locked: boolean): void;
  /** Answers refusals as text/plain codes instead of JSON, as some L-PFRs do (POST /__lpfr/error-style). */
  setPlainErrors(plain: boolean): void;
  /**
   * Stops accepting connections at once for `ms` (connection refused; open connections but `except` are cut),
   * then listens again on the same port (POST /__lpfr/refuse {ms}).
   */
  refuseConnections(ms: number, except?: Socket): Promise<void>;
  /** Every signed invoice, in order (GET /__lpfr/ledger). */
  ledger(): { invoices: LpfrLedgerEntry[] };
  /** Card and counters (GET /__lpfr/state). */
  state(): { cardPresent: boolean; unlocked: boolean; wrongPins: number; locked: boolean; totalCounter: number };
}

export interface LpfrSandbox {
  url: string;
  uid: string;
  controls: LpfrControls;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const MAX_BODY = 1024 * 1024;
const MAX_PIN_TRIES = 5;

interface Reply {
  status: number;
  /** JSON body (a string is sent as a JSON string, as /pin answers). */
  body?: unknown;
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

/**
 * The first supported language of an Accept-Language list (`;` separated per the guide, `,` accepted too,
 * q-values ignored, `*` any); the first supported language when the header is absent; null when none is supported.
 */
export function pickLanguage(header: string | undefined): LpfrLanguage | null {
  if (header === undefined || header.trim() === '') return LPFR_LANGUAGES[0];
  for (const part of header.split(/[;,]/)) {
    const tag = part.trim().toLowerCase();
    // `*` (what fetch sends by default) is any language: the first supported.
    if (tag === '*') return LPFR_LANGUAGES[0];
    const hit = LPFR_LANGUAGES.find((l) => l.toLowerCase() === tag);
    if (hit) return hit;
  }
  return null;
}

/** Starts the L-PFR sandbox. */
export async function startLpfrSandbox(options: LpfrSandboxOptions = {}): Promise<LpfrSandbox> {
  const uid = options.uid ?? 'KS7LPF01';
  if (!/^[A-Z0-9]{8}$/.test(uid)) throw new RangeError('uid: 8 characters A-Z 0-9');
  const pin = options.pin ?? '1234';
  if (!/^\d{4}$/.test(pin)) throw new RangeError('pin: 4 digits');
  const rates = options.taxRates ?? DEMO_TAX_GROUP;
  const now = options.now ?? Date.now;
  const identity: LpfrIdentity = {
    uid,
    tin: '100000017',
    businessName: 'Демо продавница',
    locationName: 'Демо локал 1',
    address: 'Булевар ослобођења 1',
    district: 'Нови Сад',
    mrc: `00-1002-${uid}`,
  };
  const store = new LpfrStore(options.dataDir);
  const keep = options.keepRequests;
  if (keep !== undefined && (!Number.isInteger(keep) || keep < 1)) throw new RangeError('keepRequests: 1 or more');
  /** The latest signing requests' RequestIds, newest last (with `keep`); after a restart, the latest signed. */
  const recent: string[] =
    keep === undefined ? [] : store.invoices.slice(-keep).flatMap((i) => (i.requestId ? [i.requestId] : []));
  const remember = (req: http.IncomingMessage): void => {
    const id = req.headers['requestid'];
    if (keep === undefined || typeof id !== 'string' || id === '') return;
    recent.push(id);
    if (recent.length > keep) recent.splice(0, recent.length - keep);
  };
  let cardPresent = true;
  let unlocked = false;
  let auditLocked = false;
  let plainErrors = false;
  let faults: { rule: LpfrFaultRule; remaining: number }[] = [];
  const sockets = new Set<Socket>();
  let url = '';

  const cardLocked = () => store.wrongPins >= MAX_PIN_TRIES;

  const gscList = (): string[] => {
    const list: string[] = [];
    if (!cardPresent) list.push(GSC.cardAbsent, GSC.pinRequired);
    else if (cardLocked()) list.push(GSC.cardLocked);
    else if (!unlocked) list.push(GSC.pinRequired);
    else list.push(GSC.allOk);
    if (auditLocked) list.push(GSC.auditLocked);
    list.push(GSC.internetAvailable);
    return list;
  };

  /** The card must be in, unlocked and not over its audit limit to sign or to read the environment. */
  const requireCard = (forSigning: boolean): void => {
    if (!cardPresent) throw LpfrRefusal.state(GSC.cardAbsent);
    if (cardLocked()) throw LpfrRefusal.state(GSC.cardLocked);
    if (!forSigning) return;
    if (!unlocked) throw LpfrRefusal.state(GSC.pinRequired);
    if (auditLocked) throw LpfrRefusal.state(GSC.auditLocked);
  };

  const status = (): Reply => ({
    status: 200,
    body: {
      isPinRequired: !unlocked || !cardPresent,
      auditRequired: auditLocked,
      sdcDateTime: belgradeIso(now()),
      lastInvoiceNumber: store.lastInvoiceNumber,
      protocolVersion: '3.0',
      secureElementVersion: '3.0',
      hardwareVersion: '1.0',
      softwareVersion: '1.0.0',
      deviceSerialNumber: `KS-${uid}`,
      make: 'Kasa',
      model: 'L-PFR sandbox',
      mssc: [],
      gsc: gscList(),
      supportedLanguages: [...LPFR_LANGUAGES],
      uid: cardPresent ? uid : null,
      taxCoreApi: 'https://api.sandbox.suf.purs.gov.rs/',
      currentTaxRates: rates,
      allTaxRates: [rates],
    },
  });

  const environment = (): Reply => {
    requireCard(false);
    return {
      status: 200,
      body: {
        organizationName: 'Пореска управа',
        serverTimeZone: 'Central Europe Standard Time',
        street: 'Саве Машковића 3-5',
        city: 'Београд',
        country: 'RS',
        endpoints: {
          taxpayerAdminPortal: 'https://tap.sandbox.suf.purs.gov.rs/',
          taxCoreApi: 'https://api.sandbox.suf.purs.gov.rs/',
          vsdc: 'https://vsdc.sandbox.suf.purs.gov.rs/',
          root: 'https://sandbox.suf.purs.gov.rs/',
        },
        environmentName: 'Sandbox',
        logo: null,
        ntpServer: 'pool.ntp.org',
        supportedLanguages: [...LPFR_LANGUAGES],
      },
    };
  };

  /** POST /pin: the bare digits or a JSON string; answers a GSC as a JSON string. */
  const enterPin = (body: Buffer): Reply => {
    let text = body.toString('utf8').trim();
    if (text.startsWith('"')) {
      try {
        const parsed: unknown = JSON.parse(text);
        text = typeof parsed === 'string' ? parsed : '';
      } catch {
        text = '';
      }
    }
    if (!cardPresent) return { status: 200, body: GSC.cardAbsent };
    if (cardLocked()) return { status: 423, body: GSC.cardLocked };
    if (!/^\d{4}$/.test(text)) return { status: 400, body: GSC.invalidFormat };
    if (text !== pin) {
      const tries = store.wrongPins + 1;
      store.setWrongPins(tries);
      unlocked = false;
      return { status: 423, body: tries >= MAX_PIN_TRIES ? GSC.cardLocked : GSC.pinWrong };
    }
    if (store.wrongPins !== 0) store.setWrongPins(0);
    unlocked = true;
    return { status: 200, body: GSC.pinOk };
  };

  const sign = (req: http.IncomingMessage, body: Buffer): { reply: Reply; signed: SignedInvoice | null } => {
    const language = pickLanguage(req.headers['accept-language']);
    if (!language) return { reply: { status: 406, body: { message: 'Not Acceptable' } }, signed: null };
    requireCard(true);
    if (body.length > 0 && !isJsonContentType(req.headers['content-type']))
      throw new LpfrRefusal(415, [{ property: '', errors: [GSC.invalidFormat] }], 'Unsupported Media Type');
    let raw: unknown;
    try {
      raw = parseJson(body, { empty: undefined, bom: 'skipped' });
    } catch {
      throw new LpfrRefusal(400, [{ property: '', errors: [GSC.invalidFormat] }]);
    }
    const requestIdHeader = req.headers['requestid'];
    const requestId = typeof requestIdHeader === 'string' && requestIdHeader !== '' ? requestIdHeader : null;
    if (requestId !== null && requestId.length > 32)
      throw new LpfrRefusal(400, [{ property: 'RequestId', errors: [GSC.tooLong] }]);
    const v = validateInvoice(raw, rates);
    const signed = signInvoice({
      v,
      id: identity,
      rates,
      counters: store.nextCounters(v.invoiceType, v.transactionType),
      nowMs: now(),
      language,
      requestId,
    });
    // On disk before the answer: an invoice once signed is never lost, its counter never reused.
    store.add(signed);
    return { reply: { status: 200, body: signed.result }, signed };
  };

  const findByRequest = (requestId: string): Reply => {
    const id = decodeURIComponent(requestId);
    const hit = keep === undefined || recent.includes(id) ? store.byRequestId(id) : undefined;
    if (!hit) return { status: 404, body: { message: 'Not Found' } };
    return { status: 200, body: hit.result };
  };

  const refusal = (e: LpfrRefusal): Reply => {
    if (plainErrors) {
      return { status: e.status, body: e.fields.flatMap((f) => f.errors).join(',') };
    }
    const first = e.fields[0]?.errors[0];
    return {
      status: e.status,
      body: {
        message:
          e.fields.length === 1 && e.fields[0]?.property === '' && first ? (GSC_TEXT[first] ?? e.message) : e.message,
        modelState: e.fields,
      },
    };
  };

  const send = (res: http.ServerResponse, reply: Reply, plain = false): void => {
    if (plain && typeof reply.body === 'string') {
      sendBody(res, reply.status, reply.body, { 'Content-Type': 'text/plain; charset=utf-8' });
      return;
    }
    const data = reply.body === undefined ? '' : JSON.stringify(reply.body);
    sendBody(res, reply.status, data, { 'Content-Type': 'application/json; charset=utf-8' });
  };

  const pickFault = (methodAndPath: string): LpfrFaultRule | null => {
    for (const f of faults) {
      if (f.remaining <= 0) continue;
      if (f.rule.match !== undefined && !methodAndPath.includes(f.rule.match)) continue;
      f.remaining -= 1;
      return f.rule;
    }
    return null;
  };

  const handleApi = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => {
    const method = req.method ?? 'GET';
    const fault = pickFault(`${method} ${pathname}`);
    let body: Buffer;
    try {
      body = await readBody(req, MAX_BODY);
    } catch {
      return send(res, { status: 413, body: { message: 'Request Entity Too Large' } });
    }
    if (fault?.action === 'drop_before') return void req.socket.destroy();
    if (fault?.action === 'hang') return;
    if (fault?.action === 'error500') return send(res, { status: 500, body: { message: 'Internal Server Error' } });
    if (fault?.action === 'delay') await sleep(fault.delayMs ?? 1000);
    let reply: Reply;
    let plain = false;
    try {
      const route = `${method} ${pathname.replace(/\/+$/, '')}`;
      const byRequest = /^GET \/api\/v3\/invoices\/([^/]+)$/.exec(route);
      if (route === 'GET /api/v3/attention') reply = { status: 200 };
      else if (route === 'GET /api/v3/status') reply = status();
      else if (route === 'GET /api/v3/environment-parameters') reply = environment();
      else if (route === 'POST /api/v3/pin') reply = enterPin(body);
      else if (route === 'POST /api/v3/invoices') {
        remember(req);
        reply = sign(req, body).reply;
      } else if (byRequest?.[1]) reply = findByRequest(byRequest[1]);
      else reply = { status: 404, body: { message: 'Not Found' } };
    } catch (e) {
      if (!(e instanceof LpfrRefusal)) throw e;
      reply = refusal(e);
      plain = plainErrors;
    }
    if (fault?.action === 'drop_after') return void req.socket.destroy();
    send(res, reply, plain);
  };

  const controlReply = (res: http.ServerResponse, status: number, body: unknown) => send(res, { status, body });

  const control = async (req: http.IncomingMessage, res: http.ServerResponse, pathname: string) => {
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) return controlReply(res, 403, { message: 'Loopback only' });
    if (!controlCallerOk(req, url)) return controlReply(res, 403, { message: 'Foreign Host or Origin' });
    let input: Record<string, unknown>;
    try {
      const parsed = parseJson(await readBody(req, MAX_BODY), { empty: {} });
      input = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return controlReply(res, 400, { message: 'Body is not JSON' });
    }
    const route = `${req.method ?? 'GET'} ${pathname.slice('/__lpfr'.length)}`;
    const bool = (name: string): boolean | null => (typeof input[name] === 'boolean' ? (input[name] as boolean) : null);
    switch (route) {
      case 'GET /ledger':
        return controlReply(res, 200, controls.ledger());
      case 'GET /state':
        return controlReply(res, 200, controls.state());
      case 'GET /faults':
        return controlReply(res, 200, { rules: faults });
      case 'POST /card': {
        const present = bool('present');
        if (present === null) return controlReply(res, 400, { message: '{present: boolean} required' });
        controls.setCard(present);
        return controlReply(res, 200, controls.state());
      }
      case 'POST /audit': {
        const locked = bool('locked');
        if (locked === null) return controlReply(res, 400, { message: '{locked: boolean} required' });
        controls.setAuditLocked(locked);
        return controlReply(res, 200, { locked });
      }
      case 'POST /error-style': {
        const plain = bool('plain');
        if (plain === null) return controlReply(res, 400, { message: '{plain: boolean} required' });
        controls.setPlainErrors(plain);
        return controlReply(res, 200, { plain });
      }
      case 'POST /faults': {
        const rules = parseRules(input['rules']);
        if (!rules)
          return controlReply(res, 400, { message: '{rules: [{match?, action, times?, delayMs?}]} required' });
        controls.setFaults(rules);
        return controlReply(res, 200, { rules: faults });
      }
      case 'POST /refuse': {
        const ms = input['ms'];
        if (typeof ms !== 'number' || !(ms > 0) || ms > 600_000)
          return controlReply(res, 400, { message: '{ms: 1..600000} required' });
        // The listener closes now (the next connection is refused); this answer still goes out, then its
        // connection closes.
        void controls.refuseConnections(ms, req.socket);
        res.setHeader('Connection', 'close');
        return controlReply(res, 200, { refusingMs: ms });
      }
      default:
        return controlReply(res, 404, { message: `Unknown control ${route}` });
    }
  };

  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://lpfr');
    const handler = pathname.startsWith('/__lpfr/') ? control(req, res, pathname) : handleApi(req, res, pathname);
    handler.catch(() => {
      if (!res.headersSent) send(res, { status: 500, body: { message: 'Internal Server Error' } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const host = options.host ?? '127.0.0.1';
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  let closing = false;
  /** The pause of refuseConnections, ended early by close(). */
  let refusing: { timer: NodeJS.Timeout; resolve: () => void } | null = null;

  const controls: LpfrControls = {
    setCard(present) {
      cardPresent = present;
      // Removing the card stops the PFR; an inserted card is locked until the PIN is entered again.
      unlocked = false;
    },
    setFaults(rules) {
      faults = rules.map((rule) => ({ rule, remaining: rule.times ?? Number.POSITIVE_INFINITY }));
    },
    setAuditLocked(locked) {
      auditLocked = locked;
    },
    setPlainErrors(plain) {
      plainErrors = plain;
    },
    async refuseConnections(ms, except) {
      if (!server.listening) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) if (s !== except) s.destroy();
      });
      if (closing) return;
      await new Promise<void>((resolve) => {
        refusing = { timer: setTimeout(resolve, ms), resolve };
      });
      refusing = null;
      if (!closing) await listen(port);
    },
    ledger() {
      return {
        invoices: store.invoices.map((i) => ({
          requestId: i.requestId,
          invoiceNumber: i.invoiceNumber,
          esirNumber: i.esirNumber,
          invoiceType: i.invoiceType,
          transactionType: i.transactionType,
          invoiceCounter: String(i.result['invoiceCounter']),
          sdcDateTime: i.sdcDateTime,
          totalAmount: i.totalPara / 100,
          referentDocumentNumber: i.referentDocumentNumber,
        })),
      };
    },
    state() {
      return {
        cardPresent,
        unlocked,
        wrongPins: store.wrongPins,
        locked: cardLocked(),
        totalCounter: store.invoices.length === 0 ? 0 : (store.invoices[store.invoices.length - 1]?.totalCounter ?? 0),
      };
    },
  };

  let closed: Promise<void> | null = null;
  return {
    url,
    uid,
    controls,
    close() {
      closing = true;
      if (refusing) {
        clearTimeout(refusing.timer);
        refusing.resolve();
      }
      closed ??= new Promise<void>((resolve) => {
        const done = () => {
          store.close();
          resolve();
        };
        if (server.listening) server.close(done);
        else done();
        for (const s of sockets) s.destroy();
      });
      return closed;
    },
  };
}

const ACTIONS: readonly LpfrFaultAction[] = ['drop_before', 'drop_after', 'hang', 'delay', 'error500'];

function parseRules(raw: unknown): LpfrFaultRule[] | null {
  if (!Array.isArray(raw)) return null;
  const out: LpfrFaultRule[] = [];
  for (const r of raw) {
    if (!r || typeof r !== 'object') return null;
    const o = r as Record<string, unknown>;
    const action = ACTIONS.find((a) => a === o['action']);
    if (!action) return null;
    const rule: LpfrFaultRule = { action };
    if (typeof o['match'] === 'string') rule.match = o['match'];
    if (typeof o['times'] === 'number' && Number.isInteger(o['times']) && o['times'] >= 0) rule.times = o['times'];
    if (typeof o['delayMs'] === 'number' && o['delayMs'] >= 0 && o['delayMs'] <= 600_000) rule.delayMs = o['delayMs'];
    out.push(rule);
  }
  return out;
}
