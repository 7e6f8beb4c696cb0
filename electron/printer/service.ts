/**
 * The print service: a persistent queue in SQLite, one worker that prints one job at a time (so one
 * connection per printer), retries with capped exponential backoff, and `print.status` events.
 *
 * Guarantees:
 * - A job is marked printed only when the printer says so: with a profile whose printer answers status
 *   (`status: 'dle-eot' | 'gs-r'`, on TCP) it is asked before the job and after its bytes (status.ts).
 *   A stop before the job (paper out, cover open, offline, an error): the job is not sent, it waits and is
 *   sent once a poll sees the printer fixed. A stop after the bytes: the job is `sent` (the printer keeps
 *   the rest in its buffer) and never sent again; printed once the printer reports it is fine. The
 *   connection dropped mid-job, or the printer stopped answering: `unconfirmed`, the cashier is asked.
 * - A printer that cannot be asked (profile `none`, a device file, a spooler queue) or does not answer:
 *   printed once its transport acknowledged every byte (see transport.ts), with its state unknown.
 *   Asking the cashier after every sale on such a printer would teach cashiers to click through.
 * - The printer module never talks to the gateway: a failed print never re-fiscalizes anything.
 * - A fiscal receipt is printed by Kasa once; a second paper copy must be a fiscal copy issued through
 *   the gateway (DESIGN §2), so printing an already printed receipt again is refused (`conflict`).
 * - A job interrupted mid-print on a printer that cannot be asked is printed again whole; the partial
 *   print may show on paper. On one that can, the cashier is asked instead (a fiscal receipt prints once).
 * - With no printer set, every print command is refused (`printer_not_configured`) rather than queued as if
 *   sent: a person learns it now, and nothing piles up to come out unasked once a printer is set.
 */
import { checkPrinterDestination } from './destination.ts';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { ReceiptView } from '../../shared/domain.ts';
import {
  PrinterConfigureInput,
  parsePrinterUri,
  UNKNOWN_CONDITION,
  type PrintConfirmRequest,
  type PrintStatus,
  type PrinterCondition,
  type PrinterProfileView,
} from '../../shared/contract/printer.ts';
import { describeStop, isStopped, parseStatus, statusExchange } from './status.ts';
import { PRESETS, profileView } from './profiles.ts';
import { PRINTER_SETTINGS, readConfig, resolveProfile, type SettingsStore } from './config.ts';
import { createJobStore, prunePrintedJobs, type JobState, type PrintJob } from './queue.ts';
import { createHeldJobs, type HeldJobs } from './held.ts';
import { createLateReceipts, type LateReceipts } from './late.ts';
import { slipDateTime } from './refund-slip.ts';
import { createSyncLoop, type PassOutcome } from '../retry/loop.ts';
import { POLICIES, backoffMs, type BackoffPolicy } from '../retry/policy.ts';
import { createTransportFactory, TransportError, type TransportFactory } from './transport.ts';
import { buildDocumentBytes, receiptDocument, slipDocument, testPageDocument } from './layout.ts';
import { JOURNAL_UNAVAILABLE } from '../outbox/journal.ts';
import { CommandError, failure } from '../errors.ts';
import type { KasaError } from '../../shared/errors.ts';
import type { AppError } from '../../shared/contract/index.ts';

/**
 * The cash drawer opens only for documents that move money: normal and advance receipts (sales and
 * refunds). Proforma and training take no money, a copy pays nothing: never a kick,
 * whatever payment type the order carries (orders captured before the fix carry cash).
 */
export function movesMoney(receipt: Pick<ReceiptView, 'invoiceType'>): boolean {
  const type = String(receipt.invoiceType ?? 'normal').toLowerCase();
  return type === 'normal' || type === 'advance';
}

/** Above a late receipt's journal: which sale it is (the customer's slip names the same order and time). */
export function lateHeading(orderNumber: string, soldAt: string): string[] {
  return ['НАКНАДНО ИЗДАТ ФИСКАЛНИ РАЧУН', `Поруџбина ${orderNumber}`, `Продаја ${slipDateTime(soldAt)}`];
}

/** A receipt is printable only with a journal that has text. */
function hasJournal(receipt: ReceiptView): boolean {
  return typeof receipt.journal === 'string' && receipt.journal.trim() !== '';
}

export interface PrintServiceDeps {
  db: Database.Database;
  /**
   * The order's receipt; `slip`: the lines of a non-fiscal slip printed right after it (refund-slip.ts);
   * `order`: its number and when it was sold (the heading of a late receipt).
   */
  getReceipt(orderId: number): {
    receipt: ReceiptView;
    cash: boolean;
    slip?: readonly string[] | undefined;
    order?: { orderNumber: string; soldAt: string } | undefined;
  } | null;
  /** Sales nobody could sign (late.ts): a late receipt printed hands it over. Default: over `db`. */
  late?: LateReceipts;
  settings: SettingsStore;
  emit(name: 'print.status', payload: PrintStatus): void;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
  /** Injectable transports (tests); real sockets, files and `lp` by default. */
  transport?: TransportFactory;
  /** Retry policy: delay = min(capMs, baseMs × 2^(attempt−1)); a job fails after maxAttempts. */
  retry?: { baseMs?: number; capMs?: number; maxAttempts?: number };
  /** How often the printer is asked for its state while idle (default `STATUS_POLL_MS`). */
  pollMs?: number;
  /** How long a job takes to come out before a fine answer counts for it (default `SETTLE_MS`). */
  settleMs?: number;
}

/** The idle status poll: well within the 10 s the counter may take to show a stop (one ask costs < 1 ms CPU). */
export const STATUS_POLL_MS = 5000;
/**
 * A printer answers a real-time request as soon as it receives it, while the receipt before it may still
 * be printing: an answer right after the bytes cannot tell that the roll will end half-way through. So a
 * job whose bytes were answered "fine" is `sent`, and counts as printed once a poll at least this long
 * after its bytes still says fine (an 80 mm receipt of half a metre prints in about 2 s at 250 mm/s).
 */
export const SETTLE_MS = 3000;

const ReceiptPayload = z.object({
  receipt: z.custom<ReceiptView>((v) => typeof v === 'object' && v !== null),
  cash: z.boolean(),
  /** A slip queued once the receipt printed (the signed refund slip). */
  slip: z.array(z.string()).optional(),
  /** A late receipt (kind `late`): the sale it belongs to, named above the journal. */
  late: z.object({ orderNumber: z.string(), soldAt: z.string() }).optional(),
});
const SlipPayload = z.object({
  lines: z.array(z.string()),
  qr: z.object({ data: z.string(), at: z.number().int().nonnegative() }).optional(),
});

/** The service the core holds. */
export interface PrintService {
  /** Queues the order's fiscal receipt (idempotent per order while it is queued); returns the job id. */
  enqueueReceipt(orderId: number): number;
  /**
   * The receipt printing itself once fiscalized: queued only with auto-print on and a printer set, else
   * null. A job queued with no printer would come out unasked, long after the customer left.
   */
  autoPrintReceipt(orderId: number): number | null;
  /** Queues a non-fiscal slip (e.g. `ОВО НИЈЕ ФИСКАЛНИ РАЧУН` for an order not yet fiscalized). */
  enqueueSlip(lines: readonly string[], orderId?: number, qr?: { data: string; at: number }): number;
  /**
   * Queues the fiscal receipt of a sale nobody could sign when it was made (late.ts) as a `late` job: never
   * held for its age, no drawer kick, the sale named above the journal. The same job while it waits (due now);
   * a failed one is tried again. conflict when not issued yet (`late_not_issued`), without its journal, or
   * once printed; unavailable with no printer set.
   */
  enqueueLate(orderId: number): number;
  /** Sales nobody could sign whose receipt has not reached the buyer (late.ts). */
  late: LateReceipts;
  /** Queues a test page with every Serbian letter and a QR code. */
  printTest(): number;
  /**
   * Prints the last job again: a receipt that never finished printing is re-queued (same job id), a
   * test page or slip is queued anew; null when there is no job. A printed fiscal receipt: conflict.
   */
  reprintLast(): number | null;
  status(): PrintStatus;
  /** Asks the printer now (not during a job: that job asks it) and returns the status. */
  check(): Promise<PrintStatus>;
  /**
   * The cashier's answer for an unconfirmed job: came out → printed; did not → queued once more.
   * Returns the job id printed again (null for „yes“) and the job's order. conflict when not unconfirmed.
   */
  confirm(jobId: number, cameOut: boolean): { jobId: number | null; orderId: number | null };
  /** The presets and the profile in use. */
  profiles(): { profiles: PrinterProfileView[]; current: string };
  /** Validates and stores the configuration; returns the new status. */
  configure(input: unknown): PrintStatus;
  /** Jobs that waited too long, held for a manager (held.ts). */
  held: HeldJobs;
  /**
   * Starts the worker and the status poll. Jobs a crash left `printing` are re-queued, or, with a printer
   * that can be asked, become `unconfirmed` (Kasa cannot know what came out). Timers are unref'd.
   */
  start(): void;
  /** Stops the worker; resolves once the job in flight (if any) has finished. */
  stop(): Promise<void>;
}

/**
 * A fiscal receipt's job on its way to paper: in the queue, being printed, in a stopped printer's buffer, or waiting
 * for the cashier's answer. Asked for again (print, late print, reprint), such a receipt is the same job, never a
 * second one.
 */
const onItsWay = (state: JobState): boolean =>
  state === 'queued' || state === 'printing' || state === 'sent' || state === 'unconfirmed';

/** Creates the print service. */
export function createPrintService(deps: PrintServiceDeps): PrintService {
  const now = deps.now ?? Date.now;
  const env = deps.env ?? process.env;
  const jobs = createJobStore(deps.db);
  const late = deps.late ?? createLateReceipts(deps.db);
  const transports = deps.transport ?? createTransportFactory();
  const backoff: BackoffPolicy = {
    ...POLICIES.printer,
    baseMs: deps.retry?.baseMs ?? POLICIES.printer.baseMs,
    capMs: deps.retry?.capMs ?? POLICIES.printer.capMs,
  };
  const maxAttempts = deps.retry?.maxAttempts ?? 60;

  let running = false;
  let inFlight: Promise<void> | null = null;
  let current: number | null = null;
  const pruning = createSyncLoop(() =>
    prunePrintedJobs(jobs, now()).then(
      () => undefined,
      () => undefined,
    ),
  );
  let wakeScheduled = false;
  let health: 'ok' | 'offline' | 'failed' = 'ok';
  let lastError: string | null = null;
  let lastPrintedAt: string | null = null;
  let lastEmitted = '';
  const held = createHeldJobs({
    db: deps.db,
    jobs,
    now,
    changed: () => changed(),
  });
  /** What the printer last said (or that it cannot be asked / did not answer / is unreachable). */
  let condition: PrinterCondition = UNKNOWN_CONDITION;
  /** The printer did not answer the last request: jobs go without asking until a poll gets an answer. */
  let silent = false;
  /** The status poll under way: the worker waits for it (one connection to the printer at a time). */
  let polling: Promise<void> | null = null;
  const pollMs = deps.pollMs ?? STATUS_POLL_MS;
  const settleMs = deps.settleMs ?? SETTLE_MS;

  const confirmRequest = (): PrintConfirmRequest | null => {
    const job = jobs.oldestUnconfirmed();
    if (!job) return null;
    let invoiceNumber: string | null = null;
    if (job.kind === 'receipt' || job.kind === 'late') {
      const p = ReceiptPayload.safeParse(JSON.parse(job.payload));
      invoiceNumber =
        p.success && typeof p.data.receipt.invoiceNumber === 'string' ? p.data.receipt.invoiceNumber : null;
    }
    return { jobId: job.id, orderId: job.orderId, kind: job.kind, invoiceNumber };
  };

  const status = (): PrintStatus => {
    const cfg = readConfig(deps.settings, env);
    const counts = jobs.counts();
    const queued = counts.queued + counts.printing;
    const state: PrintStatus['state'] =
      cfg.uri === null
        ? 'unconfigured'
        : current !== null
          ? 'printing'
          : isStopped(condition)
            ? 'stopped'
            : health === 'offline' && queued > 0
              ? 'offline'
              : health === 'failed'
                ? 'failed'
                : 'idle';
    return {
      state,
      configured: cfg.uri !== null,
      uri: cfg.uri,
      uriSource: cfg.uriSource,
      profileId: cfg.profile.id,
      autoPrint: cfg.autoPrint,
      header: cfg.header,
      footer: cfg.footer,
      printer: cfg.uri === null ? UNKNOWN_CONDITION : condition,
      confirm: confirmRequest(),
      held: counts.held,
      queued,
      failed: counts.failed,
      jobId: current,
      lastError,
      lastPrintedAt,
    };
  };

  const emit = () => {
    const s = status();
    // Every answer has a new time: only a change of what the printer says is news.
    const key = JSON.stringify({ ...s, printer: { ...s.printer, checkedAt: null } });
    if (key === lastEmitted) return;
    lastEmitted = key;
    deps.emit('print.status', s);
  };

  const wake = () => {
    if (!running || wakeScheduled) return;
    wakeScheduled = true;
    setImmediate(() => {
      wakeScheduled = false;
      queue.kick();
    }).unref();
  };

  /** The queue or the printer's settings changed: the worker looks at the queue and the screens hear of it. */
  const changed = (): void => {
    wake();
    emit();
  };
  /** A job added or put back in the queue: {@link changed}, and the job's id for the caller. */
  const queued = (id: number): number => {
    changed();
    return id;
  };

  /** The queue's next pass: when its earliest waiting job is due, else at the next wake. */
  const schedule = (): PassOutcome => {
    const at = jobs.earliestDue();
    return at === null ? 'idle' : { nextInMs: Math.max(0, at - now()) };
  };

  const bytesFor = (job: PrintJob): Buffer => {
    const cfg = readConfig(deps.settings, env);
    const data: unknown = JSON.parse(job.payload);
    switch (job.kind) {
      case 'receipt': {
        const p = ReceiptPayload.parse(data);
        if (!hasJournal(p.receipt)) throw new Error(JOURNAL_UNAVAILABLE);
        const doc = receiptDocument(p.receipt, cfg.profile, {
          header: cfg.header,
          footer: cfg.footer,
          openDrawer: p.cash && movesMoney(p.receipt),
        });
        return buildDocumentBytes(doc, cfg.profile);
      }
      case 'late': {
        // The fiscal journal verbatim; above it, the sale it belongs to (the slip the customer holds names it).
        // The money was taken at the sale: the drawer stays shut.
        const p = ReceiptPayload.parse(data);
        if (!hasJournal(p.receipt)) throw new Error(JOURNAL_UNAVAILABLE);
        const heading = p.late ? lateHeading(p.late.orderNumber, p.late.soldAt) : [];
        const doc = receiptDocument(p.receipt, cfg.profile, {
          header: [cfg.header, ...heading].filter((l) => l !== undefined && l !== '').join('\n'),
          footer: cfg.footer,
          openDrawer: false,
        });
        return buildDocumentBytes(doc, cfg.profile);
      }
      case 'test':
        return buildDocumentBytes(testPageDocument(cfg.profile, new Date(now()).toISOString()), cfg.profile);
      case 'slip': {
        const p = SlipPayload.parse(data);
        return buildDocumentBytes(slipDocument(p.lines, p.qr), cfg.profile);
      }
    }
  };

  /** Marks a job printed; a receipt's follow-up slip is queued in the same transaction. */
  const settle = (job: PrintJob, mark: () => boolean) => {
    // The slip comes after the receipt on paper, is never lost to a crash between the two, and can be
    // printed again on its own.
    deps.db.transaction(() => {
      if (!mark()) return;
      // A late receipt on paper is handed over: it leaves the manager's list with the job, never apart.
      if (job.kind === 'late' && job.orderId !== null)
        late.handedOver(job.orderId, 'printed', new Date(now()).toISOString());
      const slip = job.kind === 'receipt' ? ReceiptPayload.safeParse(JSON.parse(job.payload)).data?.slip : undefined;
      if (slip && slip.length > 0) jobs.dueFirst(jobs.add('slip', job.orderId, JSON.stringify({ lines: slip }), now()));
    })();
    lastPrintedAt = new Date(now()).toISOString();
  };
  const printed = (job: PrintJob) => {
    settle(job, () => {
      jobs.markPrinted(job.id, now());
      return true;
    });
    health = 'ok';
    lastError = null;
  };

  /** The printer said it is fine: what it held (sent jobs, given time to come out) has come out. */
  const settleSent = () => {
    if (condition.source !== 'printer' || isStopped(condition)) return;
    for (const job of jobs.sentJobs())
      if (now() - (job.sentAt ?? 0) >= settleMs) settle(job, () => jobs.settlePrinted(job.id, now()));
  };

  const runJob = async (job: PrintJob, uri: string): Promise<void> => {
    const target = parsePrinterUri(uri);
    const cfg = readConfig(deps.settings, env);
    let bytes: Buffer;
    try {
      bytes = bytesFor(job);
      if (!target) throw new Error(`bad printer address ${uri}`);
    } catch (e) {
      // Nothing a retry could fix.
      lastError = `job ${job.id}: ${(e as Error).message}`;
      health = 'failed';
      jobs.markFailed(job.id, lastError);
      return;
    }
    const kind = cfg.profile.status;
    const exchange = target.kind === 'tcp' ? statusExchange(kind) : null;
    const transport = transports(target);
    try {
      if (!exchange || !transport.printAsking || silent) {
        await transport.send(bytes);
        printed(job);
        return;
      }
      const at = () => new Date(now()).toISOString();
      const r = await transport.printAsking(bytes, exchange, (answer) => {
        const c = answer && parseStatus(kind, answer, at());
        return !c || !isStopped(c);
      });
      const before = r.before && parseStatus(kind, r.before, at());
      if (!r.sent && before) {
        // Stopped before the job: nothing sent; it waits for a poll to see the printer fixed.
        condition = before;
        lastError = describeStop(before);
        health = 'ok';
        jobs.unclaim(job.id, now(), lastError);
        return;
      }
      if (!before) {
        // No (valid) answer: a printer that cannot be asked, printed on the transport's word.
        silent = true;
        condition = UNKNOWN_CONDITION;
        printed(job);
        return;
      }
      const after = r.after && parseStatus(kind, r.after, at());
      if (!after) {
        condition = UNKNOWN_CONDITION;
        lastError = `job ${job.id}: the printer stopped answering after the job; the cashier is asked`;
        health = 'ok';
        jobs.markUnconfirmed(job.id, lastError);
        return;
      }
      condition = after;
      health = 'ok';
      // Every byte is in the printer. Stopped: it prints the rest once fixed. Fine: it may still be
      // printing (SETTLE_MS). Either way never sent again; a later poll saying fine settles it.
      lastError = isStopped(after) ? describeStop(after) : null;
      jobs.markSent(job.id, now(), lastError);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      lastError = message;
      if (e instanceof TransportError && e.reason === 'offline')
        condition = { ...UNKNOWN_CONDITION, source: 'unreachable' };
      if (e instanceof TransportError && e.midJob && exchange) {
        // Part or all of it may be on paper: a fiscal receipt is never printed twice unasked.
        condition = UNKNOWN_CONDITION;
        health = 'ok';
        jobs.markUnconfirmed(job.id, `${message}; the cashier is asked`);
        return;
      }
      const attempts = job.attempts + 1;
      if (attempts >= maxAttempts) {
        jobs.markFailed(job.id, message);
        health = 'failed';
      } else {
        jobs.markRetry(job.id, now() + backoffMs(backoff, attempts), message);
        health = 'offline';
      }
    }
  };

  /** One ask while idle (never during a job: the job asks itself, on its own connection). */
  const pollPass = async (): Promise<void> => {
    if (inFlight || current !== null) return;
    const cfg = readConfig(deps.settings, env);
    const target = cfg.uri === null ? null : parsePrinterUri(cfg.uri);
    const exchange = target?.kind === 'tcp' ? statusExchange(cfg.profile.status) : null;
    const transport = target && exchange ? transports(target) : null;
    if (!exchange || !transport?.ask) {
      condition = UNKNOWN_CONDITION; // nothing to ask: no printer, a spooler, a device file, profile `none`
      emit();
      return;
    }
    const ask = transport.ask;
    const wasStopped = isStopped(condition);
    polling = (async () => {
      try {
        const answer = await ask(exchange);
        const c = answer && parseStatus(cfg.profile.status, answer, new Date(now()).toISOString());
        silent = !c;
        condition = c ?? UNKNOWN_CONDITION;
      } catch (e) {
        condition = {
          ...UNKNOWN_CONDITION,
          source: e instanceof TransportError && e.reason === 'offline' ? 'unreachable' : 'unknown',
        };
      }
      // A printer holding sent jobs that cannot be reached, or no longer answers, may have been switched
      // off to load paper: its buffer is then lost. Kasa cannot know what came out: the cashier is asked.
      if (condition.source !== 'printer')
        jobs.sentToUnconfirmed('the printer was lost while holding the job; the cashier is asked');
    })();
    await polling;
    polling = null;
    settleSent();
    if (wasStopped && !isStopped(condition) && lastError?.startsWith('printer stopped')) lastError = null;
    if (!isStopped(condition)) wake();
    emit();
  };
  // Each next ask timed from the end of the last: a printer slow to answer never piles asks up.
  const polls = createSyncLoop(pollPass, { afterPass: true });

  const tick = async (): Promise<PassOutcome> => {
    if (!running || inFlight) return 'idle';
    if (polling) await polling; // one connection to the printer at a time
    if (!running || inFlight) return 'idle';
    held.holdStale(); // before anything is picked: a job that waited too long is never printed unasked
    const cfg = readConfig(deps.settings, env);
    if (cfg.uri === null) {
      emit();
      return 'idle'; // jobs wait until a printer is configured
    }
    if (isStopped(condition)) {
      emit();
      return 'idle'; // the poll wakes the queue once the printer reports it is fixed
    }
    const job = jobs.nextDue(now());
    if (!job) {
      const next = schedule();
      emit();
      return next;
    }
    if (!jobs.claim(job.id)) {
      wake();
      return 'idle';
    }
    current = job.id;
    emit();
    inFlight = runJob(job, cfg.uri).finally(() => {
      current = null;
      inFlight = null;
      emit();
      wake();
    });
    await inFlight;
    return 'idle';
  };
  // One job at a time, each pass timed by the queue itself (a wake, or the earliest retry due).
  const queue = createSyncLoop(tick, { afterPass: true });

  const invalid = (error: z.ZodError): KasaError<AppError['code']> => {
    const issue = error.issues[0];
    return failure('invalid_input', issue?.message ?? 'invalid', issue ? issue.path.join('.') : '');
  };

  const configured = () => readConfig(deps.settings, env).uri !== null;
  const notConfigured = () => new CommandError('unavailable', 'printer_not_configured');
  const requirePrinter = () => {
    if (!configured()) throw notConfigured();
  };
  const noReceipt = (orderId: number) => failure('not_found', `order ${orderId} has no fiscal receipt`);

  return {
    enqueueReceipt(orderId) {
      if (!Number.isSafeInteger(orderId) || orderId <= 0) throw failure('invalid_input', 'orderId', 'orderId');
      // A sale nobody could sign: its receipt prints as a late one (no drawer kick, never held, leaves the list).
      if (configured() && late.waiting(orderId)) return this.enqueueLate(orderId);
      if (!configured()) {
        // An unknown order is not_found whatever the printer; a known one waits for a printer to be set.
        if (!jobs.latestReceipt(orderId) && !deps.getReceipt(orderId)) throw noReceipt(orderId);
        throw notConfigured();
      }
      const existing = jobs.latestReceipt(orderId);
      // In the queue, in a stopped printer's buffer, or waiting for the cashier's answer: the same job.
      if (existing && onItsWay(existing.state)) return existing.id;
      if (existing?.state === 'held' && held.release(existing.id)) return existing.id; // asked for: it prints now
      if (existing?.state === 'failed') {
        jobs.requeue(existing.id, now());
        return queued(existing.id);
      }
      if (existing?.state === 'printed')
        throw failure('conflict', `the receipt of order ${orderId} was printed; issue a fiscal copy to print it again`);
      const found = deps.getReceipt(orderId);
      if (!found) throw noReceipt(orderId);
      // Never a blank fiscal receipt: without its journal the receipt waits (outbox/journal.ts fetches it).
      if (!hasJournal(found.receipt)) throw new CommandError('conflict', 'journal_unavailable', { id: orderId });
      const id = jobs.add(
        'receipt',
        orderId,
        JSON.stringify({ receipt: found.receipt, cash: found.cash, ...(found.slip ? { slip: found.slip } : {}) }),
        now(),
      );
      return queued(id);
    },
    autoPrintReceipt(orderId) {
      const cfg = readConfig(deps.settings, env);
      return cfg.autoPrint && cfg.uri !== null ? this.enqueueReceipt(orderId) : null;
    },
    enqueueSlip(lines, orderId, qr) {
      requirePrinter();
      const id = jobs.add('slip', orderId ?? null, JSON.stringify(qr ? { lines, qr } : { lines }), now());
      return queued(id);
    },
    enqueueLate(orderId) {
      requirePrinter();
      const existing = jobs.latestReceipt(orderId);
      if (existing?.state === 'printed')
        throw failure('conflict', `the receipt of order ${orderId} was printed; issue a fiscal copy to print it again`);
      if (existing && onItsWay(existing.state)) {
        // On its way (or the cashier is asked whether it came out): the same job, tried now if it waits.
        jobs.dueFirst(existing.id);
        return queued(existing.id);
      }
      if (existing?.state === 'failed') {
        jobs.requeue(existing.id, now());
        return queued(existing.id);
      }
      const found = deps.getReceipt(orderId);
      if (!found) throw new CommandError('conflict', 'late_not_issued', { id: orderId });
      if (!hasJournal(found.receipt)) throw new CommandError('conflict', 'journal_unavailable', { id: orderId });
      const id = jobs.add(
        'late',
        orderId,
        JSON.stringify({ receipt: found.receipt, cash: false, ...(found.order ? { late: found.order } : {}) }),
        now(),
      );
      return queued(id);
    },
    late,
    printTest() {
      requirePrinter();
      const id = jobs.add('test', null, '{}', now());
      return queued(id);
    },
    reprintLast() {
      requirePrinter();
      const last = jobs.latest();
      if (!last) return null;
      if (last.kind === 'receipt' || last.kind === 'late') {
        if (onItsWay(last.state)) return last.id;
        if (last.state === 'held' && held.release(last.id)) return last.id;
        if (last.state === 'failed') {
          jobs.requeue(last.id, now());
          return queued(last.id);
        }
        throw failure('conflict', 'the last fiscal receipt was printed; issue a fiscal copy to print it again');
      }
      const id = jobs.add(last.kind, last.orderId, last.payload, now());
      return queued(id);
    },
    status,
    held,
    async check() {
      await polls.sync();
      return status();
    },
    confirm(jobId, cameOut) {
      const job = jobs.get(jobId);
      if (!job) throw failure('not_found', `print job ${jobId} not found`);
      if (job.state !== 'unconfirmed')
        throw failure('conflict', `print job ${jobId} is ${job.state}, not waiting for the cashier's answer`);
      if (cameOut) settle(job, () => jobs.settlePrinted(jobId, now()));
      else jobs.printAgain(jobId, now());
      changed();
      return { jobId: cameOut ? null : jobId, orderId: job.orderId };
    },
    profiles() {
      return { profiles: PRESETS.map(profileView), current: readConfig(deps.settings, env).profile.id };
    },
    configure(input) {
      const parsed = PrinterConfigureInput.safeParse(input);
      if (!parsed.success) throw invalid(parsed.error);
      const c = parsed.data;
      checkPrinterDestination(c.uri, env);
      if (c.profileId === 'custom') {
        if (c.custom) deps.settings.set(PRINTER_SETTINGS.custom, JSON.stringify({ ...c.custom, id: 'custom' }));
        else if (!resolveProfile('custom', deps.settings))
          throw failure('invalid_input', 'custom profile missing', 'custom');
      } else if (!resolveProfile(c.profileId, deps.settings)) {
        throw failure('invalid_input', `unknown printer profile ${c.profileId}`, 'profileId');
      }
      deps.settings.set(PRINTER_SETTINGS.uri, c.uri);
      deps.settings.set(PRINTER_SETTINGS.profile, c.profileId);
      if (c.header !== undefined) deps.settings.set(PRINTER_SETTINGS.header, c.header);
      if (c.footer !== undefined) deps.settings.set(PRINTER_SETTINGS.footer, c.footer);
      if (c.autoPrint !== undefined) deps.settings.set(PRINTER_SETTINGS.autoPrint, String(c.autoPrint));
      health = 'ok';
      lastError = null;
      condition = UNKNOWN_CONDITION;
      silent = false;
      changed();
      return status();
    },
    start() {
      if (running) return;
      running = true;
      const cfg = readConfig(deps.settings, env);
      const target = cfg.uri === null ? null : parsePrinterUri(cfg.uri);
      if (target?.kind === 'tcp' && statusExchange(cfg.profile.status)) jobs.recoverUnconfirmed();
      else jobs.recover();
      queue.start(60 * 60_000, Infinity);
      // The first ask after one interval: a job due at start asks the printer itself.
      polls.start(pollMs, pollMs);
      wake();
      // Old printed jobs go a minute after start (start-up first), then hourly.
      pruning.start(60 * 60_000, 60_000);
    },
    async stop() {
      running = false;
      await polls.stop();
      await queue.stop();
      await inFlight;
      await pruning.stop();
    },
  };
}
