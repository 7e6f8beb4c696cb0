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
import { codeOfLine, recordFiscalized } from './goods/ledger.ts';
import { createHubStock, enrolledAtHub } from './goods/hub-stock.ts';
import { ownStockLines } from './goods/opening.ts';
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
import { createTransportFactory } from './printer/transport.ts';
import { createFiscalPaper, printedReceiptOf } from './printer/fiscal-paper.ts';
import { OpenCart } from './sales/open-cart.ts';
import { DiscountApprovals } from './sales/discount-approvals.ts';
import { UNFISCALIZED_CASH_LIMIT_HOURS } from '../shared/contract/authz.ts';
import { DEFAULT_DISCOUNT_LIMIT_PERCENT } from '../shared/domain.ts';
import { ShiftService } from './shifts/service.ts';
import { shiftsHandlers } from './shifts/handlers.ts';
import { offlineSalesOf } from './settings/settings.ts';
import { createCatalogService } from './catalog/service.ts';
import { listedPrices } from './catalog/listed-prices.ts';
import { unsignedTooLong } from './outbox/unsigned-age.ts';
import { createParkedDrafts } from './catalog/drafts.ts';
import { createManager } from './manager/services.ts';
import { hubSale, startHubSync } from './hub-client/start.ts';
import { createHubParked, parkedCarts } from './hub-client/parked.ts';
import { currentCall, Sessions } from './auth/context.ts';
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
import { createStocktake } from './goods/stocktake.ts';
import { createGoodsDocuments } from './goods/documents.ts';
import { createPricesService } from './prices/service.ts';
import { pricesHandlers } from './prices/handlers.ts';
import { scheduledPricesJob } from './prices/scheduled-job.ts';
import { createExportService, storedAccounts } from './exports/service.ts';
import { exportsHandlers } from './exports/handlers.ts';
import { exportFile, type ExportFileDeps } from '../shared/node/export-files.ts';
import type { ShopIdentity } from '../shared/node/a4.ts';
import { createExportSchedule } from './exports/schedule.ts';
import { createExportMail, SMTP_PASSWORD_SECRET } from './exports/mail.ts';
import { EXPORT_FILE_KINDS, type ExportFileKind } from '../shared/contract/exports.ts';
import { createLabelsService } from './labels/service.ts';
import { labelsHandlers } from './labels/handlers.ts';
import { createHubGoods } from './goods/hub-goods.ts';
import { hubGoodsHandlers } from './goods/hub-goods-handlers.ts';
import { retriesHandlers } from './retry/handlers.ts';
import { hubHandlers } from './hub-client/handlers.ts';
import { auditHandlers, staffHandlers } from './auth/handlers.ts';
import { settingsHandlers } from './settings/handlers.ts';
import { displayHandlers } from './display/handlers.ts';
import { createDisplayFeed, type DisplayFeed } from './display/feed.ts';
import { createDisplayTokens, type DisplayTokens } from './display/tokens.ts';
import { backupsHandlers } from './db/handlers.ts';
import { refundsHandlers } from './manager/handlers/refunds.ts';
import { advancesHandlers } from './manager/handlers/advances.ts';
import { copiesHandlers } from './manager/handlers/copies.ts';
import { emailsHandlers } from './manager/handlers/emails.ts';
import { archiveHandlers } from './manager/handlers/archive.ts';
import { reportsHandlers } from './manager/handlers/reports.ts';
import { formatMoment } from '../shared/i18n/time.ts';
import { SefService } from './sef/service.ts';
import { SefLink, SEF_KEY_SECRET } from './sef/link.ts';
import { sefHandlers } from './sef/handlers.ts';
import { toAppError } from './errors.ts';

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
  /** Where the SEF API key lives: safeStorage in Electron; by default KASA_SEF_API_KEY or a 0600 file. */
  sefSecrets?: SecretStore;
  /** The password of the mail server the monthly export is sent through (docs/exports.md). */
  smtpSecrets?: SecretStore;
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
  /** The SEF link: the embedded fake SEF in demo mode (its test controls), the client (docs/sef.md). */
  readonly sef: { readonly link: SefLink; readonly outbox: SefService };
  /** The customer display: what it shows now, and the tablets' display-only tokens (the browser host's stream). */
  readonly display: { readonly feed: DisplayFeed; readonly tokens: DisplayTokens };
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
  // A till enrolled at a hub keeps no book of its sales beside the hub's: the push moves them there, once.
  const store = new OrderStore(db, { onFiscalized: (d, o) => !enrolledAtHub(d) && recordFiscalized(d, o) });
  const taxRates = new TaxRatesCache(db, now, settings);

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

  // SEF (docs/sef.md): the real SEF with its key, else the embedded fake SEF (demo mode).
  const sefLink = new SefLink({
    settings,
    secrets: options.sefSecrets ?? createFileSecretStore(env, options.dataDir, SEF_KEY_SECRET),
    env,
    redact: (k) => logger.redact(k),
    log: (l) => logger.info(l),
  });
  await sefLink.start();

  const events = createEvents((m) => logger.error(m));
  const emit = events.emit;

  const printer = createPrintService({
    db,
    getReceipt: printedReceiptOf(store),
    settings,
    emit: (name, payload) => emit(name, payload),
    now,
    env,
    // At least half a second: the printer answers one request at a time, and a sale's receipt waits behind a poll.
    pollMs: Math.max(500, settings.number('printerPollMs', STATUS_POLL_MS)),
  });
  // The paper that follows a fiscal result: auto-print, late receipts, outage slips, a refund's fiscal copy.
  const paper = createFiscalPaper({
    db,
    store,
    printer,
    settings,
    kick: () => engine.kick(),
    now,
    warn: (l) => logger.warn(l),
  });
  // The counter's stock: an enrolled till's snapshot of the hub's book, else its own (docs/goods.md).
  const hubStock = createHubStock(
    db,
    () => hub.client(),
    () => new Date(now()),
  );
  const catalog = createCatalogService(db, undefined, () => hubStock.source());
  // Receipts and counts this till enters for the hub's book: queued, sent after each round (docs/goods.md).
  const hubGoods = createHubGoods({
    db,
    hub: () => hub.client(),
    now: () => new Date(now()),
    language: () => settings.language(),
  });
  // A receipt issued without its journal is completed from the archive, within a retry budget, then printed.
  const budgets = new RetryBudgets(db, now);
  const journals = createJournalFetcher({
    db,
    client: () => client,
    budgets,
    online: () => engine.status().online,
    // Announced again with its journal: the receipt prints now (printer/fiscal-paper.ts).
    onJournal: (o) => emit('order.updated', { ...o, state: 'fiscalized' }),
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
      if (o.state === 'fiscalized') void journals.run();
    },
    // A label the account's secure element refuses (2310) is refused up front from now on (docs/goods.md).
    onLabelsRefused: (labels) => taxRates.refuse(labels),
    onStatus: (s) => emit('sync.status', s),
    log: (l) => logger.info(`sync: ${l}`),
  });

  const openCart = new OpenCart(db);
  const discountApprovals = new DiscountApprovals(db, now);
  // Goods and stock-taking (docs/goods.md); their audit goes to the staff's log, made below.
  const goods = createGoodsService(db, catalog, {
    rateOf: (label) => taxRates.rateOf(label),
    labels: () => taxRates.labels(),
    language: () => settings.language(),
    hubOwnsCatalog: () => hub.url() !== null,
    audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
    now: () => new Date(now()),
  });
  /** The shop as the title block of an export or a goods document shows it, read when the document is made. */
  const shopIdentity = (): ShopIdentity => ({
    name: settings.get('shopName') ?? '',
    pib: settings.get('shopPib') ?? '',
    address: settings.get('shopAddress') ?? '',
  });
  // The bookkeeper's exports (docs/exports.md): the period's view and files, the journal's accounts, the monthly run.
  const exportFiles: ExportFileDeps = {
    language: () => settings.language(),
    accounts: () => storedAccounts(settings.get('exportAccounts')),
    shop: shopIdentity,
    now: () => new Date(now()),
  };
  const exportsService = createExportService(db, goods, {
    rateOf: (label) => taxRates.rateOf(label),
    language: () => settings.language(),
    accounts: exportFiles.accounts,
    till: () => settings.terminalId(),
    now,
  });
  const exportFileOf = (from: string, to: string, kind: ExportFileKind) =>
    exportFile(exportsService.build(from, to), kind, exportFiles);
  const exportMail = createExportMail(db, {
    get: (key) => settings.get(key),
    set: (key, value) => settings.set(key, value),
    secrets: options.smtpSecrets ?? createFileSecretStore(env, options.dataDir, SMTP_PASSWORD_SECRET),
    now,
    language: () => settings.language(),
    shopName: () => settings.get('shopName') ?? '',
    files: async (from, to) => {
      const out = [];
      for (const kind of EXPORT_FILE_KINDS) out.push(await exportFileOf(from, to, kind));
      return out;
    },
    audit: (actor, action, detail) => staff.audit(actor, action, detail),
    redact: (secret) => logger.redact(secret),
  });
  const exportSchedule = createExportSchedule(db, {
    get: (key) => settings.get(key),
    set: (key, value) => settings.set(key, value),
    now,
    file: exportFileOf,
    audit: (actor, action, detail) => staff.audit(actor, action, detail),
    mail: exportMail,
  });
  const stocktake = createStocktake(db, {
    audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
    language: () => settings.language(),
    now: () => new Date(now()),
  });
  const sales = new SalesService({
    // The shop setting against selling counted goods below zero (default off: allowed and flagged).
    stockGuard: (lines) => {
      if (settings.bool('noNegativeCounted'))
        stocktake.refuseBelowZero(lines, hubStock.source() ? (code) => hubStock.seenQty(code) : undefined);
    },
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
    onUnsigned: (orderId) => paper.unsigned(orderId),
    // Defined below with the audit log; only ever called by a checkout, after start-up. Computed once per checkout:
    // the guard's `ruleDiscounts` below asked first, for the same input.
    priceRules: (input) => prices.checkoutRulesOnce(input),
    lineCode: (line) => codeOfLine(db, line),
    now,
  });

  // A person deactivated while logged in: the counter hears of it at once (the login, the cart kept).
  const sessions = new Sessions((p) => emit('session.ended', { name: p.name, reason: 'deactivated' }));
  // The scheduled prices' job, woken when the hub sent rules (it is made below, after the staff's audit).
  let kickPrices = (): void => {};
  const hub = startHubSync({
    db,
    dataDir: options.dataDir,
    env,
    logger,
    onApplied: ({ products, staff: people, prices: rules }) => {
      if (rules > 0) kickPrices();
      if (products > 0 || rules > 0) emit('catalog.changed', { products: catalog.count() });
      const who = sessions.current;
      if (people > 0 && who && !staff.isActive(who.id)) {
        staff.audit(who.name, 'staff.sessionEnded', { id: who.id, from: 'hub' }, null);
        sessions.end();
      }
    },
    counts: () => store.counts(),
    printer: () => printer.status(),
    taxLabels: () => taxRates.labels(),
    taxRates: () => {
      const usable = new Set(taxRates.labels());
      return (taxRates.get()?.labels ?? [])
        .filter((l) => usable.has(l.label))
        .map((l) => ({ label: l.label, rate: l.rate }));
    },
    terminalId: () => settings.terminalId(),
    // The counter's stock snapshot: a hub that answered the round but not this leaves the last figures.
    afterRound: async (client) => {
      await hubGoods.flush(client).catch((err: unknown) => logger.warn(`hub goods: ${String(err)}`));
      await hubStock.refresh(client).catch((err: unknown) => {
        hubStock.away();
        logger.warn(`hub stock: ${String(err)}`);
      });
    },
    afterFailedRound: () => hubStock.away(),
    ownStock: () => ownStockLines(db),
  });
  const manager = createManager({
    hubSource: (key: string) => hubSale(hub, key),
    hubHold: { hold: (input) => hub.holdRefund(input), release: (holdId) => hub.releaseRefund(holdId) },
    hubStaff: (pin, person, field) => hub.approveStaff(pin, person, field),
    hubFirstPin: () => hub.offerLatePeople(),
    hubPins: {
      context: () => hub.pinContext(),
      check: (pin, personId, field, everyTill) => hub.checkPin(pin, personId, field, everyTill),
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
  const stopEmailFollow = manager.emails.follow(events.subscribe);
  await manager.start();
  // Price lists, promotions and scheduled price changes (docs/prices.md). A change due while the till was off is
  // applied now, before any sale; then the job sleeps until the next one (at most an hour: a clock set forward).
  const prices = createPricesService(db, catalog, {
    audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
    now,
    // Enrolled at a hub: the hub owns the shop's prices, as it owns the catalog.
    hubOwnsPrices: () => hub.url() !== null,
  });
  const pricesJob = scheduledPricesJob(prices, {
    // The counter reads its quick keys, search and cart prices again, as after any catalog change.
    onApplied: () => emit('catalog.changed', { products: catalog.count() }),
    warn: (m) => logger.warn(m),
  });
  pricesJob.start();
  kickPrices = () => pricesJob.kick();
  // Shelf labels (docs/prices.md, "Shelf labels"): the price in force from the prices engine, sent over the receipt
  // printers' transports.
  const labels = createLabelsService(db, {
    shelfPrices: (products, at) => prices.shelfPrices(products, at),
    audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
    transports: createTransportFactory(),
    shopName: () => settings.get('shopName') ?? '',
    env,
    now,
  });
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
  const stopPaper = paper.start(events.subscribe);
  printer.start();
  journals.start();
  // Crash safety off the critical path (docs/history.md): quick_check and the day's backup in a worker
  // once the till is up; WAL checkpoints on an idle timer instead of inside a commit.
  const maintenance = startMaintenance(db, options.dataDir, logger, options.maintenance);
  const stopCheckpointer = startCheckpointer(db, { onError: (err) => logger.warn(`wal checkpoint: ${String(err)}`) });
  // Report totals of closed days, computed in the background so long reports read a row per day.
  const stopReportDays = startReportDays(db, now, (err) => logger.warn(`report days: ${String(err)}`));
  const stopExportSchedule = exportSchedule.start((err) => logger.warn(`monthly export: ${String(err)}`));

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
      unfiscalizedTooLong: unsignedTooLong({
        engine,
        store,
        limitHours: () => settings.number('unfiscalizedCashLimitHours', UNFISCALIZED_CASH_LIMIT_HOURS),
        now,
      }),
      ruleDiscounts: (checkout) => prices.checkoutRulesOnce(checkout).map((r) => r?.discountPara ?? 0),
      catalogPrices: listedPrices(catalog, () => taxRates.labels()),
    }),
  });
  const gateway = { client: () => client, mode: () => gatewayMode, key: () => gatewayKey, set: setGateway };
  const sef = new SefService({
    db,
    store,
    taxLabels: () => taxRates.get()?.labels ?? [],
    settings: () => sefLink.view(),
    client: () => sefLink.client(),
    now,
    audit: (action, detail) => staff.audit(currentCall()?.actor?.name ?? null, action, detail),
    log: (l) => logger.warn(l),
    fromHub: () => settings.bool('sefFromHub'),
  });
  sef.start();
  // The shop's automatic e-invoice (docs/sef.md): made once a receipt is issued, sent by the SEF outbox.
  const stopSefFollow = events.subscribe((m) => {
    if (m.name === 'order.updated' && m.payload.state === 'fiscalized') sef.onFiscalized(m.payload.orderId);
  });
  const displayTokens = createDisplayTokens(db, now);
  const displayFeed = createDisplayFeed({
    shopName: () => settings.get('shopName') ?? '',
    ips: { setting: (key) => settings.get(key), now },
    emit: (frame) => emit('display.frame', frame),
  });
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
      refusedLabels: () => taxRates.refused(),
      language: () => settings.language(),
      emit: (name, payload) => emit(name, payload),
      mirror: drafts,
      // Configured or enrolled: once enrolled the hub's products overwrite the till's by code.
      hubOwnsCatalog: () => hub.url() !== null,
      audit: (actor, action, detail, approver) => staff.audit(actor, action, detail, approver),
    }),
    goodsHandlers(
      goods,
      stocktake,
      createGoodsDocuments(goods, stocktake, {
        language: () => settings.language(),
        shop: shopIdentity,
        now: () => new Date(now()),
      }),
      hubStock,
    ),
    sefHandlers({
      service: sef,
      link: sefLink,
      incoming: {
        db,
        goods,
        taxLabels: () => taxRates.get()?.labels ?? [],
        now,
        describe: (err) => toAppError(err, settings.language(), (m) => logger.warn(m)).message,
      },
      audit: (actor, action, detail) => staff.audit(actor, action, detail),
    }),
    pricesHandlers(prices, { kick: () => pricesJob.kick() }),
    exportsHandlers({
      service: exportsService,
      files: exportFiles,
      schedule: exportSchedule,
      mail: exportMail,
      saveAccounts: (map) => settings.set('exportAccounts', JSON.stringify(map)),
      audit: (actor, action, detail) => staff.audit(actor, action, detail),
    }),
    displayHandlers(displayFeed, displayTokens),
    labelsHandlers(labels),
    hubGoodsHandlers(hubGoods),
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
    sef: { link: sefLink, outbox: sef },
    display: { feed: displayFeed, tokens: displayTokens },
    db,
    logger,
    handlers: table,
    async close() {
      stopPaper();
      stopSefFollow();
      stopEmailFollow();
      manager.stop();
      await hub.stop();
      await engine.stop();
      await printer.stop();
      await journals.stop();
      await drafts.stop();
      await maintenance.stop();
      await stopReportDays();
      await stopExportSchedule();
      await taxRatesLoop.stop();
      await pricesJob.stop();
      stopCheckpointer();
      await sef.stop();
      await sefLink.close();
      if (sandbox) await sandbox.close();
      db.close();
    },
  };
}
