/**
 * The core: every service of the app, wired once, behind one `dispatch(command, input)` and one event
 * stream. Both transports (Electron IPC in main.ts, the HTTP host in host/) call exactly this; neither
 * holds any business logic.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  commands,
  type AppError,
  type CommandName,
  type CommandParsedInput,
  type CommandResult,
  type EventMessage,
  type EventName,
  type EventPayload,
  type Result,
} from '../shared/contract/index.ts';
import type { AppInfo, Language } from '../shared/domain.ts';
import { openDatabase, type Db } from './db/open.ts';
import { GatewayClient } from './gateway/client.ts';
import { CommandError, toAppError, zodToAppError } from './errors.ts';
import { createLogger, type Logger } from './log/logger.ts';
import { SyncEngine, type EngineOptions } from './outbox/engine.ts';
import { OrderStore } from './orders/store.ts';
import { SalesService } from './sales/service.ts';
import { TaxRatesCache, startTaxRates } from './sales/tax-rates.ts';
import { taxGroupChangedList } from './sales/tax-group.ts';
import { Settings } from './settings/settings.ts';
import { createFileSecretStore, type SecretStore } from './settings/secrets.ts';
import { applyPendingRestore } from './db/backup.ts';
import { startMaintenance, type MaintenanceOptions } from './db/maintenance.ts';
import { startReportDays } from './manager/report-days.ts';
import { startCheckpointer } from './db/checkpoint.ts';
import { startSandbox, type Sandbox } from './sandbox/server.ts';
import { sandboxVariant } from './sandbox/variant.ts';
import { createJournalFetcher } from './outbox/journal.ts';
import { RetryBudgets } from './retry/budget.ts';
import { retriesHandlers } from './retry/handlers.ts';
import { createPrintService } from './printer/service.ts';
import { refundSlipOf } from './printer/refund-slip.ts';
import { printerHandlers } from './printer/handlers.ts';
import { createCatalogService } from './catalog/service.ts';
import { catalogHandlers } from './catalog/handlers.ts';
import { createParkedDrafts } from './catalog/drafts.ts';
import { createManager } from './manager/handlers.ts';
import { hubHandlers, hubSale, startHubSync } from './hub-client/start.ts';
import { createHubParked, parkedCarts } from './hub-client/parked.ts';
import { Sessions } from './auth/context.ts';
import { createGuard } from './auth/guard.ts';
import { makeDataDirPrivate } from '../shared/node/private-files.ts';

export type Handlers = { [N in CommandName]: (input: CommandParsedInput<N>) => Promise<CommandResult<N>> };

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
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const VERSION = (require('../package.json') as { version: string }).version;

export async function createCore(options: CoreOptions): Promise<Core> {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  makeDataDirPrivate(options.dataDir); // 0700/0600 and umask 077 (issue #12)
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

  const listeners = new Set<(m: EventMessage) => void>();
  const emit = <E extends EventName>(name: E, payload: EventPayload<E>): void => {
    const message = { name, payload } as EventMessage;
    for (const l of listeners) {
      try {
        l(message);
      } catch (err) {
        logger.error(`event listener failed: ${String(err)}`);
      }
    }
  };

  const printer = createPrintService({
    db,
    getReceipt: (orderId) => {
      const row = store.get(orderId);
      if (!row || row.state !== 'fiscalized') return null;
      const view = store.view(row);
      if (!view.receipt) return null;
      // A refund that paid money back is followed by the buyer-signed slip (#21 case 9).
      return {
        receipt: view.receipt,
        cash: view.payments.some((p) => p.type === 'cash'),
        slip: refundSlipOf(row, view.payments),
      };
    },
    settings,
    emit: (name, payload) => emit(name, payload),
    now,
    env,
  });
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
      if (printer.status().autoPrint) printer.enqueueReceipt(o.orderId);
    },
    log: (l) => logger.warn(l),
  });

  const engine = new SyncEngine({
    store,
    client: () => client,
    now,
    options: {
      concurrency: settings.number('syncConcurrency', 4),
      ...options.engine,
    },
    onOrderUpdated: (o) => {
      emit('order.updated', o);
      // The fiscal receipt prints itself once issued (also for orders taken offline).
      if (o.state === 'fiscalized' && printer.status().autoPrint) {
        try {
          printer.enqueueReceipt(o.orderId);
        } catch (err) {
          logger.warn(`auto-print of order ${o.orderNumber} not queued: ${String(err)}`);
        }
      }
      if (o.state === 'fiscalized') void journals.run();
    },
    onStatus: (s) => emit('sync.status', s),
    log: (l) => logger.info(`sync: ${l}`),
  });

  const sales = new SalesService({
    store,
    engine,
    taxRates,
    terminalId: () => settings.terminalId(),
    trainingMode: () => settings.bool('trainingMode'),
    onlineBudgetMs: () => settings.number('onlineBudgetMs', 3000),
    now,
  });

  const hub = startHubSync({
    db,
    dataDir: options.dataDir,
    env,
    logger,
    counts: () => store.counts(),
    terminalId: () => settings.terminalId(),
  });
  const sessions = new Sessions();
  const manager = createManager({
    sessions,
    hubSource: (key: string) => hubSale(hub, key),
    db,
    dataDir: options.dataDir,
    secrets,
    startup: () => maintenance.report(),
    store,
    engine,
    taxRates,
    settings,
    printer,
    gateway: { client: () => client, mode: () => gatewayMode, key: () => gatewayKey, set: setGateway },
    now,
    emit: (name, payload) => emit(name, payload),
    budgets,
  });
  // A queued e-mail waits for its order's fiscalization.
  listeners.add((m) => {
    if (m.name === 'order.updated' && m.payload.state === 'fiscalized') void manager.emails.pump();
  });
  await manager.start();

  // Tax rates: refresh at start when reachable; the cache serves offline.
  try {
    await taxRates.refresh(client);
  } catch (err) {
    logger.warn(`tax rates not refreshed at start: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Hourly, through the one loop mechanism; an announced group switches at its validFrom (tax-rates.ts).
  const taxRatesLoop = startTaxRates({ taxRates, client: () => client, log: (l) => logger.warn(l) });
  engine.start();
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
  });

  const orderView = (orderId: number) => {
    const row = store.get(orderId);
    if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId });
    return store.view(row);
  };

  const catalogCommands = catalogHandlers(catalog, {
    currentLabels: () => taxRates.labels(),
    language: () => settings.language(),
    emit: (name, payload) => emit(name, payload),
  });
  // Parked carts are mirrored as gateway drafts (best effort, never blocking the counter).
  // With a store hub they go through the hub instead (LAN only; electron/hub/parked.ts).
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
  // Who may run what (shared/contract/authz.ts), checked in dispatch before every handler.
  const guard = createGuard({
    sessions,
    staff: () => manager.staff,
    escalation: () => ({
      trainingMode: settings.bool('trainingMode'),
      discountLimitPercent: settings.number('discountLimitPercent', 10),
      catalogPricePara: (gtin) => {
        const hit = catalog.byBarcode(gtin, taxRates.labels());
        return hit?.kind === 'exact' ? hit.product.pricePara : null;
      },
    }),
  });
  const handlers: Handlers = {
    ...printerHandlers(printer),
    ...retriesHandlers(budgets, {
      journal: () => void journals.run(),
      email: (id) => manager.emails.resume(Number(id)),
      drafts: () => void drafts.sync(),
    }),
    ...catalogCommands,
    'parked.save': async (input) => {
      const saved = await catalogCommands['parked.save'](input);
      void drafts.parked(saved.id);
      return saved;
    },
    'parked.list': async () => {
      // Catch up with the gateway (carts another till took disappear) without ever making the cashier wait.
      await Promise.race([drafts.sync(), new Promise((r) => setTimeout(r, 1500).unref())]);
      return catalogCommands['parked.list']({});
    },
    'parked.take': async (input) => {
      await drafts.claimLocal(input.id);
      return catalogCommands['parked.take'](input);
    },
    'parked.delete': async (input) => {
      const draftId = drafts.draftOf(input.id);
      const deleted = await catalogCommands['parked.delete'](input);
      void drafts.removed(draftId);
      return deleted;
    },
    'parked.remote': () => drafts.remote(),
    'parked.takeRemote': ({ draftId }) => drafts.takeRemote(draftId),
    ...manager.handlers,
    ...hubHandlers(hub, {
      requireManager: (pin) => manager.staff.requireManager(pin),
      audit: (a, action, d) => manager.staff.audit(a, action, d),
    }),
    'app.info': async () => info(),
    'taxRates.get': async ({ refresh }) => {
      if (refresh || !taxRates.get()) {
        try {
          return await taxRates.refresh(client);
        } catch (err) {
          const cached = taxRates.get();
          if (cached) return cached;
          logger.warn(`tax rates unavailable: ${String(err)}`);
          throw new CommandError('unavailable', 'tax_rates_missing');
        }
      }
      return taxRates.get() as NonNullable<ReturnType<TaxRatesCache['get']>>;
    },
    'sales.checkout': (input) => sales.checkout(input),
    'orders.get': async ({ orderId }) => orderView(orderId),
    'orders.list': async ({ state, limit, offset, taxGroupChanged, receiptCheck }) => {
      if (taxGroupChanged) return taxGroupChangedList(store, limit ?? 50, offset ?? 0);
      if (receiptCheck) {
        const checks = store.receiptChecks(limit ?? 50);
        return { orders: checks.map((r) => store.view(r)), total: checks.length };
      }
      const { rows, total } = store.list(state, limit ?? 50, offset ?? 0);
      return { orders: rows.map((r) => store.view(r)), total };
    },
    'orders.fixLabels': async ({ orderId, replace }) => {
      const row = store.get(orderId);
      if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId });
      if (row.state !== 'needs_attention') throw new CommandError('conflict', 'not_needs_attention', { id: orderId });
      const known = new Set(taxRates.labels());
      for (const [from, to] of Object.entries(replace)) {
        if (!known.has(to))
          throw new CommandError(
            'invalid_input',
            'label_unknown',
            { label: to, field: `replace.${from}` },
            `replace.${from}`,
          );
      }
      const body = JSON.parse(row.request ?? '{}') as { items?: { labels: string[] }[] };
      for (const item of body.items ?? []) item.labels = item.labels.map((l) => replace[l] ?? l);
      const data = JSON.parse(row.data) as import('./orders/store.ts').OrderData;
      for (const line of data.lines) line.labels = line.labels.map((l) => replace[l] ?? l);
      store.requeue(orderId, JSON.stringify(body), data, now());
      manager.staff.audit(null, 'order.fixLabels', { orderId, replace }, null);
      engine.kick();
      return orderView(orderId);
    },
    'orders.resend': async ({ orderId }) => {
      const row = store.get(orderId);
      if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId });
      if (row.state !== 'needs_attention') throw new CommandError('conflict', 'not_needs_attention', { id: orderId });
      store.requeue(orderId, null, null, now());
      engine.resume();
      return orderView(orderId);
    },
    'sync.status': async () => engine.status(),
    'sync.now': async () => {
      engine.retryNow();
      await engine.runOnce();
      return engine.status();
    },
  };

  const dispatch = async (name: string, input: unknown): Promise<Result<unknown>> => {
    const lang = settings.language();
    if (!Object.hasOwn(commands, name)) {
      const error: AppError = {
        code: 'not_found',
        message: toAppError(new CommandError('not_found', 'unknown_command', { field: name }), lang).message,
      };
      return { ok: false, error };
    }
    const command = name as CommandName;
    let split: ReturnType<typeof guard.split>;
    try {
      split = guard.split(input);
    } catch (err) {
      return { ok: false, error: toAppError(err, lang) };
    }
    const parsed = commands[command].input.safeParse(split.input ?? {});
    if (!parsed.success) return { ok: false, error: zodToAppError(parsed.error, lang) };
    try {
      const handler = handlers[command] as (i: unknown) => Promise<unknown>;
      return { ok: true, value: await guard.run(command, parsed.data, split.approval, handler) };
    } catch (err) {
      return { ok: false, error: toAppError(err, lang, (m) => logger.error(m)) };
    }
  };

  return {
    dispatch,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    language: () => settings.language(),
    info,
    sandboxUrl: sandbox?.url ?? null,
    db,
    logger,
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
