/**
 * The core's composition: every service of the app, wired once, and every area's handlers composed into
 * one table (electron/dispatch.ts) behind one `dispatch(command, input)` and one event stream. Both
 * transports (Electron IPC in main.ts, the HTTP host in host/) call exactly this; neither holds any
 * business logic, and neither does this file: no handler bodies, no SQL, no parsing.
 */
import path from 'node:path';
import packageJson from '../package.json' with { type: 'json' };
import type { EventMessage, Result } from '../shared/contract/index.ts';
import type { AppInfo, Language } from '../shared/domain.ts';
import { openDatabase, type Db } from './db/open.ts';
import { GatewayClient } from './gateway/client.ts';
import { createLogger, type Logger } from './log/logger.ts';
import { SyncEngine, type EngineOptions } from './outbox/engine.ts';
import { OrderStore } from './orders/store.ts';
import { SalesService } from './sales/service.ts';
import { TaxRatesCache, startTaxRates } from './sales/tax-rates.ts';
import { Settings } from './settings/settings.ts';
import { createFileSecretStore, LPFR_PIN_SECRET, type SecretStore } from './settings/secrets.ts';
import { createLpfrControl } from './lpfr/setup.ts';
import { applyPendingRestore } from './db/backup.ts';
import { startMaintenance, type MaintenanceOptions } from './db/maintenance.ts';
import { startReportDays } from './manager/report-days.ts';
import { startCheckpointer } from './db/checkpoint.ts';
import { demoSigner, startSandbox, type Sandbox } from './sandbox/server.ts';
import { sandboxVariant } from './sandbox/variant.ts';
import { createJournalFetcher } from './outbox/journal.ts';
import { RetryBudgets } from './retry/budget.ts';
import { createPrintService, STATUS_POLL_MS } from './printer/service.ts';
import { OpenCart } from './sales/open-cart.ts';
import { DiscountApprovals } from './sales/discount-approvals.ts';
import { UNFISCALIZED_CASH_LIMIT_HOURS } from '../shared/contract/authz.ts';
import { DEFAULT_DISCOUNT_LIMIT_PERCENT } from '../shared/domain.ts';
import { ShiftService } from './shifts/service.ts';
import { shiftsHandlers } from './shifts/handlers.ts';
import { refundSlipOf } from './printer/refund-slip.ts';
import { captureRefundCopy, wantsFiscalRefundCopy } from './orders/refund-copy.ts';
import { outageSlipLines } from './printer/outage-slip.ts';
import { offlineSalesOf } from './settings/settings.ts';
import { createCatalogService } from './catalog/service.ts';
import { createParkedDrafts } from './catalog/drafts.ts';
import { createManager } from './manager/services.ts';
import { hubSale, startHubSync } from './hub-client/start.ts';
import { createHubParked, parkedCarts } from './hub-client/parked.ts';
import { Sessions } from './auth/context.ts';
import { createGuard } from './auth/guard.ts';
import { makeDataDirPrivate } from '../shared/node/private-files.ts';
import { composeHandlers, createDispatch, createEvents, type HandlerTable } from './dispatch.ts';
import { salesHandlers } from './sales/handlers.ts';
import { ordersHandlers } from './orders/handlers.ts';
import { syncHandlers } from './outbox/handlers.ts';
import { printerHandlers } from './printer/handlers.ts';
import { catalogHandlers } from './catalog/handlers.ts';
import { createGoodsService } from './goods/service.ts';
import { goodsHandlers } from './goods/handlers.ts';
import { retriesHandlers } from './retry/handlers.ts';
import { hubHandlers } from './hub-client/handlers.ts';
import { auditHandlers, staffHandlers } from './auth/handlers.ts';
import { settingsHandlers } from './settings/handlers.ts';
import { backupsHandlers } from './db/handlers.ts';
import { refundsHandlers } from './manager/handlers/refunds.ts';
import { advancesHandlers } from './manager/handlers/advances.ts';
import { copiesHandlers } from './manager/handlers/copies.ts';
import { emailsHandlers } from './manager/handlers/emails.ts';
import { archiveHandlers } from './manager/handlers/archive.ts';
import { reportsHandlers } from './manager/handlers/reports.ts';
import { formatMoment } from '../shared/i18n/time.ts';

export interface CoreOptions {
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  transport: 'electron' | 'host';
  now?: () => number;
  logger?: Logger;
  /** Engine tuning (tests and benchmarks). */
  engine?: Partial<EngineOptions>;
  /** Where the API key lives: safeStorage in Electron; by default KASA_API_KEY or a 0600 file. */
  secrets?: SecretStore;
  /** Where the L-PFR's PIN lives: safeStorage in Electron; by default KASA_LPFR_PIN or a 0600 file. */
  lpfrSecrets?: SecretStore;
  /** Background integrity check and backup tuning (tests: a deliberately slow check). */
  maintenance?: Partial<MaintenanceOptions>;
}

export interface Core {
  /** Validates `input` with the command's schema and runs it. Never throws. */
  dispatch(name: string, input: unknown): Promise<Result<unknown>>;
  /** Every event of the contract, to one listener; returns the unsubscribe function. */
  subscribe(listener: (message: EventMessage) => void): () => void;
  language(): Language;
  info(): AppInfo;
  /** The embedded sandbox gateway's URL in demo mode (for its test controls), else null. */
  readonly sandboxUrl: string | null;
  readonly db: Db;
  readonly logger: Logger;
  /** The composed handlers and the area that provides each command (read by the layout test). */
  readonly handlers: HandlerTable;
  close(): Promise<void>;
}

// Imported, not read beside this file: the Electron main and the browser host are also built into out/main.
const VERSION = packageJson.version;

export async function createCore(options: CoreOptions): Promise<Core> {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  makeDataDirPrivate(options.dataDir); // 0700/0600 and umask 077
  const logger = options.logger ?? createLogger({ dir: path.join(options.dataDir, 'logs') });
  // A restore a manager asked for in the last run is applied before the database is opened.
  applyPendingRestore(options.dataDir, logger);
  const db = openDatabase(path.join(options.dataDir, 'kasa.sqlite'));
  const settings = new Settings(db, env);
  const store = new OrderStore(db);
  const taxRates = new TaxRatesCache(db, now);

  // Gateway: the configured one with the user's key, or the embedded sandbox (demo mode).
  const secrets = options.secrets ?? createFileSecretStore(env, options.dataDir);
  const keyStatus = secrets.status();
  if (keyStatus.warning) logger.warn(`secrets: ${keyStatus.warning}`);
  const keySource = { key: secrets.get() };
  let sandbox: Sandbox | null = null;
  let client: GatewayClient;
  const onRequest = (i: {
    method: string;
    path: string;
    status: number | null;
    correlationId?: string;
    ms: number;
  }): void =>
    logger.info(
      `gateway ${i.method} ${i.path} -> ${i.status ?? 'no reply'} ${i.ms}ms correlationId=${i.correlationId ?? '-'}`,
    );
  if (keySource.key) {
    logger.redact(keySource.key);
    const baseUrl = settings.get('gatewayUrl');
    if (!baseUrl) throw new Error('KASA_GATEWAY_URL (or the gatewayUrl setting) is required when an API key is set');
    client = new GatewayClient({ baseUrl, apiKey: keySource.key, onRequest });
  } else {
    sandbox = await startSandbox({
      port: 0,
      dataFile: path.join(options.dataDir, 'sandbox.sqlite'),
      variant: sandboxVariant(env),
      signedBy: demoSigner(settings.terminalId()),
    });
    client = new GatewayClient({ baseUrl: sandbox.url, apiKey: 'demo-key', onRequest });
    logger.info(`demo mode: embedded sandbox gateway at ${sandbox.url}`);
  }
  let gatewayMode: 'demo' | 'live' = keySource.key ? 'live' : 'demo';
  let gatewayKey = keySource.key ?? 'demo-key';
  /** Switches the gateway at run time (a new key or URL): new client, tax rates again, engine woken. */
  const setGateway = async (url: string, key: string): Promise<void> => {
    logger.redact(key);
    client = new GatewayClient({ baseUrl: url, apiKey: key, onRequest });
    gatewayMode = 'live';
    gatewayKey = key;
    try {
      await taxRates.refresh(client);
    } catch (err) {
      logger.warn(
        `tax rates not refreshed after the gateway change: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    engine.kick();
  };

  const events = createEvents((m) => logger.error(m));
  const emit = events.emit;

  const printer = createPrintService({
    db,
    getReceipt: (orderId) => {
      const row = store.get(orderId);
      if (!row || row.state !== 'fiscalized') return null;
      const view = store.view(row);
      if (!view.receipt) return null;
      // A refund that paid money back is followed by the buyer-signed slip.
      return {
        receipt: view.receipt,
        cash: view.payments.some((p) => p.type === 'cash'),
        // Signed on the L-PFR, the refund gets a fiscal copy with the signature line instead (refund-copy.ts).
        slip: row.processor === 'lpfr' ? undefined : refundSlipOf(row, view.payments),
        order: { orderNumber: row.order_number, soldAt: row.created_at },
      };
    },
    settings,
    emit: (name, payload) => emit(name, payload),
    now,
    env,
    // At least half a second: the printer answers one request at a time, and a sale's receipt waits behind a poll.
    pollMs: Math.max(500, settings.number('printerPollMs', STATUS_POLL_MS)),
  });
  /**
   * A fiscal receipt was issued (with its journal). A sale nobody could sign when it was made (late.ts) gets it
   * now at this till: e-mailed by the gateway where the buyer gave an address (the request's `sendToEmail`),
   * else printed as a late receipt whatever auto-print says (the customer holds only the slip); with no printer
   * it waits on the manager's list. Any other receipt prints through auto-print as before.
   */
  const issued = (orderId: number): void => {
    fiscalRefundCopy(orderId);
    if (!printer.late.waiting(orderId)) {
      printer.autoPrintReceipt(orderId);
      return;
    }
    const row = store.get(orderId);
    if (!row || row.state !== 'fiscalized') return;
    const email = store.view(row).email;
    if (email && row.processor === 'gateway') {
      printer.late.handedOver(orderId, 'emailed', new Date(now()).toISOString());
      return;
    }
    if (!printer.status().configured) return;
    try {
      printer.enqueueLate(orderId);
    } catch (err) {
      // Without its journal yet: the journal fetcher calls back once it has it.
      logger.warn(`late receipt of order ${row.order_number} not queued yet: ${String(err)}`);
    }
  };
  /** A refund the L-PFR signed that paid money back gets its fiscal copy for the buyer's signature, once. */
  const fiscalRefundCopy = (orderId: number): void => {
    const row = store.get(orderId);
    if (!row || !wantsFiscalRefundCopy(row, () => refundSlipOf(row, store.view(row).payments) !== undefined)) return;
    try {
      if (captureRefundCopy(store, db, row, { terminalId: settings.terminalId(), now: now() }) !== null) engine.kick();
    } catch (err) {
      logger.warn(`copy of refund ${row.order_number} not captured: ${String(err)}`);
    }
  };
  /**
   * A sale that takes money left the checkout unsigned: the customer gets the non-fiscal slip now where a
   * printer is set, and the sale is kept until its fiscal receipt reaches them.
   */
  const unsigned = (orderId: number): 'printing' | 'no_printer' => {
    const row = store.get(orderId);
    if (!row) return 'no_printer';
    const view = store.view(row);
    let outcome: 'printing' | 'no_printer' = 'no_printer';
    if (printer.status().configured) {
      printer.enqueueSlip(
        outageSlipLines({
          orderNumber: row.order_number,
          soldAt: row.created_at,
          lines: view.lines,
          payments: view.payments,
          totalPara: row.total_para,
          changePara: row.change_para,
          shopName: settings.get('shopName'),
          tillName: settings.get('tillName'),
          terminalId: settings.terminalId(),
          cashier: view.cashier,
        }),
        orderId,
      );
      outcome = 'printing';
    }
    printer.late.record(orderId, row.created_at, outcome === 'printing' ? 'printing' : 'none');
    return outcome;
  };
  const catalog = createCatalogService(db);
  // A receipt issued without its journal is completed from the archive, within a retry budget, then printed.
  const budgets = new RetryBudgets(db, now);
  const journals = createJournalFetcher({
    db,
    client: () => client,
    budgets,
    online: () => engine.status().online,
    onJournal: (o) => {
      emit('order.updated', { ...o, state: 'fiscalized' });
      issued(o.orderId);
    },
    log: (l) => logger.warn(l),
  });

  // The shop's local fiscal processor, when one is set up: the engine's second processor (docs/lpfr.md).
  const lpfr = createLpfrControl({
    settings,
    env,
    secrets: options.lpfrSecrets ?? createFileSecretStore(env, options.dataDir, LPFR_PIN_SECRET),
    store,
    log: (line) => logger.info(line),
  });
  const engine = new SyncEngine({
    store,
    client: () => client,
    lpfr: () => lpfr.route(),
    now,
    options: {
      concurrency: settings.number('syncConcurrency', 4),
      ...options.engine,
    },
    onOrderUpdated: (o) => {
      emit('order.updated', o);
      // The fiscal receipt prints itself once issued (also for orders taken offline).
      if (o.state === 'fiscalized') {
        try {
          issued(o.orderId);
        } catch (err) {
          logger.warn(`auto-print of order ${o.orderNumber} not queued: ${String(err)}`);
        }
      }
      if (o.state === 'fiscalized') void journals.run();
    },
    onStatus: (s) => emit('sync.status', s),
    log: (l) => logger.info(`sync: ${l}`),
  });

  const openCart = new OpenCart(db);
  const discountApprovals = new DiscountApprovals(db, now);
  const sales = new SalesService({
    openCart,
    discountApprovals,
    // Defined below with the audit log; only ever called by a checkout, after start-up.
    requireShift: () => shifts.requireOpen(),
    store,
    engine,
    taxRates,
    terminalId: () => settings.terminalId(),
    trainingMode: () => settings.bool('trainingMode'),
    onlineBudgetMs: () => settings.number('onlineBudgetMs', 3000),
    offlineSales: () => offlineSalesOf(settings),
    onUnsigned: unsigned,
    now,
  });

  // A person deactivated while logged in: the counter hears of it at once (the login, the cart kept).
  const sessions = new Sessions((p) => emit('session.ended', { name: p.name, reason: 'deactivated' }));
  const hub = startHubSync({
    db,
    dataDir: options.dataDir,
    env,
    logger,
    onApplied: ({ products, staff: people }) => {
      if (products > 0) emit('catalog.changed', { products: catalog.count() });
      const who = sessions.current;
      if (people > 0 && who && !staff.isActive(who.id)) {
        staff.audit(who.name, 'staff.sessionEnded', { id: who.id, from: 'hub' }, null);
        sessions.end();
      }
    },
    counts: () => store.counts(),
    printer: () => printer.status(),
    taxLabels: () => taxRates.labels(),
    terminalId: () => settings.terminalId(),
  });
  const manager = createManager({
    hubSource: (key: string) => hubSale(hub, key),
    hubHold: { hold: (input) => hub.holdRefund(input), release: (holdId) => hub.releaseRefund(holdId) },
    hubStaff: (pin, person, field) => hub.approveStaff(pin, person, field),
    hubFirstPin: () => hub.offerLatePeople(),
    hubPins: {
      context: () => hub.pinContext(),
      check: (pin, personId, field) => hub.checkPin(pin, personId, field),
      ownChange: (currentPin, personId, newPin) => hub.ownPin(currentPin, personId, newPin),
    },
    db,
    store,
    engine,
    taxRates,
    settings,
    client: () => client,
    now,
    emit: (name, payload) => emit(name, payload),
    budgets,
    // Defined below with the audit log; called only by a refund or an advance's next document, after start-up.
    requireShift: () => shifts.requireOpen(),
  });
  const { staff } = manager;
  const shifts = new ShiftService({
    db,
    taxRates,
    now,
    audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
  });
  // A queued e-mail waits for its order's fiscalization.
  events.subscribe((m) => {
    if (m.name === 'order.updated' && m.payload.state === 'fiscalized') void manager.emails.pump();
  });
  await manager.start();
  // A new till (only the first-run manager, PIN 0000) owes its setup flow; marked once, so the flow
  // survives the PIN change and a restart, and a till set up before the flow existed never shows it.
  if (staff.firstRun() && settings.get('setupPending') === undefined) settings.set('setupPending', '1');

  // Tax rates: refresh at start when reachable; the cache serves offline.
  try {
    await taxRates.refresh(client);
  } catch (err) {
    logger.warn(`tax rates not refreshed at start: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Hourly, through the one loop mechanism; an announced group switches at its validFrom (tax-rates.ts).
  const taxRatesLoop = startTaxRates({ taxRates, client: () => client, log: (l) => logger.warn(l) });
  engine.start();
  // A refund the L-PFR signed just before the till stopped may still lack its copy (refund-copy.ts): the last
  // three days are looked at once, in the background (created_at is indexed; the cost does not grow with history).
  setTimeout(() => {
    const since = new Date(now() - 3 * 86_400_000).toISOString();
    const ids = db
      .prepare<[string], { id: number }>(
        `SELECT id FROM orders WHERE created_at >= ? AND kind IN ('refund', 'refund_full') AND processor = 'lpfr'
           AND state = 'fiscalized'`,
      )
      .all(since);
    for (const { id } of ids) fiscalRefundCopy(id);
  }, 0).unref?.();
  printer.start();
  journals.start();
  // Crash safety off the critical path (docs/history.md): quick_check and the day's backup in a worker
  // once the till is up; WAL checkpoints on an idle timer instead of inside a commit.
  const maintenance = startMaintenance(db, options.dataDir, logger, options.maintenance);
  const stopCheckpointer = startCheckpointer(db, { onError: (err) => logger.warn(`wal checkpoint: ${String(err)}`) });
  // Report totals of closed days, computed in the background so long reports read a row per day.
  const stopReportDays = startReportDays(db, now, (err) => logger.warn(`report days: ${String(err)}`));

  const info = (): AppInfo => ({
    version: VERSION,
    mode: gatewayMode,
    demoAccount: taxRates.isDemoGroup(),
    language: settings.language(),
    terminalId: settings.terminalId(),
    trainingMode: settings.bool('trainingMode'),
    transport: options.transport,
    firstRun: staff.firstRun(),
    setupPending: settings.bool('setupPending') && !settings.bool('setupDone'),
    shopName: settings.get('shopName') ?? '',
    tillName: settings.get('tillName') ?? '',
    offlineSales: offlineSalesOf(settings),
    worksInShifts: shifts.store.used(),
  });

  // Parked carts are mirrored as gateway drafts (best effort, never blocking the counter).
  // With a store hub they go through the hub instead (LAN only; electron/hub-client/parked.ts).
  const viaHub = (): boolean => hub.client() !== null;
  const drafts = parkedCarts(
    viaHub,
    createParkedDrafts({
      db,
      client: () => client,
      terminalId: () => settings.terminalId(),
      now,
      log: (l) => logger.warn(l),
      budgets,
      online: () => engine.status().online,
      viaHub,
    }),
    createHubParked({ db, hub: () => hub.client(), tillId: () => hub.tillId(), log: (l) => logger.warn(l) }),
  );
  drafts.start();
  // Who may run what (each command's `auth`, escalated in shared/contract/authz.ts), checked in dispatch.
  const guard = createGuard({
    sessions,
    staff: () => staff,
    discountApprovals,
    escalation: () => ({
      trainingMode: settings.bool('trainingMode'),
      discountLimitPercent: settings.number('discountLimitPercent', DEFAULT_DISCOUNT_LIMIT_PERCENT),
      claimDiscountApproval: (line) => discountApprovals.claim(line, sessions.current?.id ?? null),
      unfiscalizedTooLong: () => {
        if (engine.fiscalNow) return null;
        const hours = settings.number('unfiscalizedCashLimitHours', UNFISCALIZED_CASH_LIMIT_HOURS);
        const oldest = store.counts().oldestQueuedAt;
        return oldest !== null && now() - Date.parse(oldest) > hours * 3_600_000 ? hours : null;
      },
      catalogPrices: (line) => {
        const labels = taxRates.labels();
        // An in-store price barcode carries this line's price of its product.
        const scanned = line.priceCode ? catalog.byBarcode(line.priceCode, labels) : null;
        const carried = scanned?.kind === 'price' ? scanned : null;
        const price = (p: { id: number; pricePara: number }): number =>
          carried && carried.product.id === p.id ? carried.unitPricePara : p.pricePara;
        const prices: (number | 'unknown')[] = carried ? [carried.unitPricePara] : [];
        if (line.productId !== undefined) {
          const product = catalog.productById(line.productId, labels);
          prices.push(product ? price(product) : 'unknown');
        }
        const byCode = line.gtin ? catalog.byBarcode(line.gtin, labels) : null;
        if (byCode?.kind === 'exact') prices.push(price(byCode.product));
        return prices;
      },
    }),
  });
  const gateway = { client: () => client, mode: () => gatewayMode, key: () => gatewayKey, set: setGateway };
  const table = composeHandlers([
    salesHandlers({
      sales,
      taxRates,
      client: () => client,
      info,
      warn: (l) => logger.warn(l),
      openCart,
      discountApprovals,
      discountLimitPercent: () => settings.number('discountLimitPercent', DEFAULT_DISCOUNT_LIMIT_PERCENT),
      now,
      ips: { setting: (key) => settings.get(key), now },
      printSlip: (lines, qr) => printer.enqueueSlip(lines, undefined, qr),
    }),
    ordersHandlers({
      store,
      engine,
      taxRates,
      client: () => client,
      now,
      nextOrderNumber: () => store.nextOrderNumber(settings.terminalId(), now()),
      audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
    }),
    syncHandlers(engine),
    printerHandlers(printer, {
      audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
    }),
    catalogHandlers(catalog, {
      currentLabels: () => taxRates.labels(),
      language: () => settings.language(),
      emit: (name, payload) => emit(name, payload),
      mirror: drafts,
      // Configured or enrolled: once enrolled the hub's products overwrite the till's by code.
      hubOwnsCatalog: () => hub.url() !== null,
      audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
    }),
    goodsHandlers(
      createGoodsService(db, catalog, {
        rateOf: (label) => taxRates.rateOf(label),
        labels: () => taxRates.labels(),
        language: () => settings.language(),
        hubOwnsCatalog: () => hub.url() !== null,
        audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
        now: () => new Date(now()),
      }),
    ),
    retriesHandlers(budgets, {
      journal: () => void journals.run(),
      email: (id) => manager.emails.resume(Number(id)),
      drafts: () => void drafts.sync(),
    }),
    hubHandlers(hub, { audit: (a, action, d) => staff.audit(a, action, d), language: () => settings.language() }),
    staffHandlers(staff, sessions),
    auditHandlers(staff),
    refundsHandlers(manager.orders, staff),
    advancesHandlers(manager.orders),
    copiesHandlers(manager.orders, staff),
    emailsHandlers(manager.emails),
    archiveHandlers(manager.archive),
    settingsHandlers({
      settings,
      taxRates,
      gateway,
      secrets,
      staff,
      lpfr: { control: lpfr, state: () => engine.status().lpfr ?? null, changed: () => engine.lpfrChanged() },
    }),
    reportsHandlers({
      db,
      taxRates,
      printer,
      staff,
      now,
      language: () => settings.language(),
      till: () => settings.terminalId(),
    }),
    shiftsHandlers(shifts, {
      printer,
      // The slip's times in the shop's zone, whatever the machine's clock is set to.
      shown: (iso) => formatMoment(iso, 'sr-Cyrl'),
      warn: (l) => logger.warn(l),
    }),
    backupsHandlers({
      dataDir: options.dataDir,
      startup: () => maintenance.report(),
      backupNow: () => maintenance.backupNow(),
      staff,
    }),
  ]);
  const dispatch = createDispatch({
    table,
    guard,
    language: () => settings.language(),
    logError: (m) => logger.error(m),
  });

  return {
    dispatch,
    subscribe: events.subscribe,
    language: () => settings.language(),
    info,
    sandboxUrl: sandbox?.url ?? null,
    db,
    logger,
    handlers: table,
    async close() {
      manager.stop();
      await hub.stop();
      await engine.stop();
      await printer.stop();
      await journals.stop();
      await drafts.stop();
      await maintenance.stop();
      await stopReportDays();
      await taxRatesLoop.stop();
      stopCheckpointer();
      if (sandbox) await sandbox.close();
      db.close();
    },
  };
}
