/**
 * The manager's contract handlers (shared/contract/manager.ts) over the back-office services. Every
 * sensitive command checks `managerPin` first and is audited with the approving manager's name.
 */
import type { CommandParsedInput, CommandResult, EventPayload } from '../../shared/contract/index.ts';
import type { AccountView, SettingsView, managerCommands } from '../../shared/contract/manager.ts';
import type { Db } from '../db/open.ts';
import { GatewayClient } from '../gateway/client.ts';
import { GatewayError } from '../gateway/errors.ts';
import { CommandError } from '../errors.ts';
import type { SyncEngine } from '../outbox/engine.ts';
import type { OrderStore } from '../orders/store.ts';
import type { PrintService } from '../printer/service.ts';
import type { TaxRatesCache } from '../sales/tax-rates.ts';
import type { Settings } from '../settings/settings.ts';
import { Archive } from './archive.ts';
import { EmailQueue } from './email.ts';
import type { RetryBudgets } from '../retry/budget.ts';
import { BackOfficeOrders, type OrdersDeps } from './orders.ts';
import { buildReport, reportCsv, reportLines } from './reports.ts';
import type { SecretStore } from '../settings/secrets.ts';
import type { StartupReport } from '../db/integrity.ts';
import { listBackups, requestRestore } from '../db/backup.ts';
import { StaffService, gatewayCommandError } from '../auth/staff.ts';
import type { Sessions } from '../auth/context.ts';
import { confirmBeforeReissue } from './reissue.ts';

type ManagerCommandName = keyof typeof managerCommands;
export type ManagerHandlers = {
  [N in ManagerCommandName]: (input: CommandParsedInput<N>) => Promise<CommandResult<N>>;
};

/** The gateway as the core holds it: switchable at run time (demo sandbox ⇄ live key). */
export interface GatewayControl {
  client(): GatewayClient;
  mode(): 'demo' | 'live';
  /** The key in use (never returned to the renderer; only masked). */
  key(): string;
  /** Switches to `url` + `key`: a new client, tax rates re-fetched, the engine kicked. */
  set(url: string, key: string): Promise<void>;
}

export interface ManagerDeps {
  db: Db;
  dataDir: string;
  /** The API key's store (safeStorage in Electron, a 0600 file in the host). */
  secrets: SecretStore;
  /** What the start-up checks found (quick_check, the day's backup). */
  startup: () => StartupReport;
  store: OrderStore;
  engine: SyncEngine;
  taxRates: TaxRatesCache;
  settings: Settings;
  printer: PrintService;
  gateway: GatewayControl;
  now: () => number;
  emit: <E extends 'email.updated' | 'staff.lockout'>(name: E, payload: EventPayload<E>) => void;
  /** The till's session: set by `staff.login`, cleared by `staff.logout`. */
  sessions: Sessions;
  /** Retry budgets of the background loops (e-mail here). */
  budgets: RetryBudgets;
  /** Refund sources of other tills through the store hub, when one is configured. */
  hubSource?: OrdersDeps['hubSource'];
}

export interface Manager {
  handlers: ManagerHandlers;
  staff: StaffService;
  emails: EmailQueue;
  /** Seeds the default manager on first run and starts the e-mail retry timer. */
  start(): Promise<void>;
  stop(): void;
}

/** `••••1234`: enough to recognise a key, never enough to use it. */
export function maskKey(key: string | null): string | null {
  if (!key) return null;
  return `••••${key.slice(-4)}`;
}

export function createManager(deps: ManagerDeps): Manager {
  const { db, store, engine, taxRates, settings, printer, gateway, now } = deps;
  const client = (): GatewayClient => gateway.client();
  const staff = new StaffService({
    db,
    client,
    now,
    onLockout: (l) => deps.emit('staff.lockout', { scope: l.scope, until: new Date(l.until).toISOString() }),
  });
  const orders = new BackOfficeOrders({
    store,
    engine,
    taxRates,
    client,
    terminalId: () => settings.terminalId(),
    onlineBudgetMs: () => settings.number('onlineBudgetMs', 3000),
    now,
    ...(deps.hubSource ? { hubSource: deps.hubSource } : {}),
    allowRefundWithoutBuyerId: () => settings.allowRefundWithoutBuyerId(),
    trainingMode: () => settings.bool('trainingMode'),
  });
  const emails = new EmailQueue({
    db,
    store,
    client,
    now,
    budgets: deps.budgets,
    online: () => engine.status().online,
    onUpdated: (v) => deps.emit('email.updated', v),
  });
  const archive = new Archive(store, client);

  const account = async (
    c: GatewayClient,
    key: string,
    mode: 'demo' | 'live',
    labels: string[],
  ): Promise<AccountView> => {
    const [verify, me] = await Promise.all([c.verifyApiToken({ timeoutMs: 5000 }), c.apiKeyMe({ timeoutMs: 5000 })]);
    const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));
    const entries: [string, string | undefined][] = [
      ['shopId', str(me.shopId ?? verify.authable?.shopId)],
      ['shopName', str(me.shopName)],
      ['companyId', str(me.companyId ?? verify.authable?.companyId)],
      ['companyName', str(me.companyName)],
      ['keyName', str(me.apiKeyName ?? verify.apiKey?.name)],
      ['keyVersion', str(verify.apiKey?.version)],
    ];
    return {
      mode,
      maskedKey: maskKey(key),
      gatewayUrl: c.baseUrl,
      ...Object.fromEntries(entries.filter((e): e is [string, string] => e[1] !== undefined)),
      environment: environmentOf(labels),
      labels,
    };
  };
  const offlineAccount = (): AccountView => ({
    mode: gateway.mode(),
    maskedKey: maskKey(gateway.key()),
    gatewayUrl: client().baseUrl,
    environment: environmentOf(taxRates.labels()),
    labels: taxRates.labels(),
  });
  const settingsView = (acc: AccountView): SettingsView => ({
    language: settings.language(),
    terminalId: settings.terminalId(),
    gatewayUrl: gateway.mode() === 'live' ? client().baseUrl : null,
    trainingMode: settings.bool('trainingMode'),
    outageWarnMinutes: settings.number('outageWarnMinutes', 30),
    outageAlarmMinutes: settings.number('outageAlarmMinutes', 24 * 60),
    account: acc,
    allowRefundWithoutBuyerId: settings.allowRefundWithoutBuyerId(),
  });

  const handlers: ManagerHandlers = {
    'staff.login': async ({ pin }) => {
      const who = await staff.identify(pin, 'pin');
      deps.sessions.set({ id: who.id, name: who.name, role: who.role, mustChangePin: who.mustChangePin });
      staff.audit(who.name, 'staff.login', { id: who.id });
      return who;
    },
    'staff.logout': async () => {
      const who = deps.sessions.current;
      deps.sessions.clear();
      if (who) staff.audit(who.name, 'staff.logout', { id: who.id });
      return { loggedOut: true };
    },
    'staff.approve': async ({ managerPin, action, detail }) => {
      const approvedBy = await staff.requireManager(managerPin);
      staff.audit(approvedBy, `approve.${action}`, detail ? { detail } : {});
      return { approvedBy };
    },
    'staff.list': async ({ search }) => staff.list(search),
    'staff.create': async ({ managerPin, ...input }) => staff.create(await staff.requireManager(managerPin), input),
    'staff.update': async ({ managerPin, ...input }) => staff.update(await staff.requireManager(managerPin), input),
    'staff.changePin': async ({ currentPin, newPin }) => {
      const who = await staff.changePin(currentPin, newPin);
      if (deps.sessions.current?.id === who.id)
        deps.sessions.set({ id: who.id, name: who.name, role: who.role, mustChangePin: false });
      return who;
    },
    'refunds.source': async (q) => orders.refundSource(q),
    'refunds.create': async (input) => {
      const approvedBy = await staff.requireManager(input.managerPin);
      const view = await orders.refund(input, approvedBy);
      staff.audit(approvedBy, input.full ? 'refund.full' : 'refund.partial', {
        orderId: view.orderId,
        orderNumber: view.orderNumber,
        original: input.orderId ?? input.invoiceNumber,
        totalPara: view.totalPara,
        lines: input.lines ?? 'all',
      });
      return view;
    },
    'advances.list': async () => {
      const advances = orders.openAdvances();
      return { advances, chains: advances.map((a) => orders.advanceChain(a.orderId)) };
    },
    'advances.finalize': async (input) => orders.finalize(input),
    'advances.add': async (input) => orders.addAdvance(input),
    'orders.reissue': async ({ managerPin, orderId }) => {
      const approvedBy = await staff.requireManager(managerPin);
      // #21: only when lookup + archive confirm the number's receipt is another sale's (reissue-check.ts).
      await confirmBeforeReissue(
        { store, client: () => gateway.client(), now, audit: (a, d) => staff.audit(approvedBy, a, d) },
        orderId,
      );
      const renumbered = store.reissue(orderId, () => store.nextOrderNumber(settings.terminalId(), now()), now());
      if (!renumbered) throw new CommandError('conflict', 'not_receipt_mismatch', { id: orderId });
      staff.audit(approvedBy, 'order.reissue', { orderId, from: renumbered.from, to: renumbered.to });
      engine.kick();
      const row = store.get(orderId);
      if (!row) throw new CommandError('not_found', 'order_not_found', { id: orderId });
      return store.view(row);
    },
    'copies.create': async ({ orderId, invoiceNumber }) => {
      const view = await orders.copy({ orderId, invoiceNumber });
      staff.audit(null, 'receipt.copy', { orderId: view.orderId, of: orderId ?? invoiceNumber });
      return view;
    },
    'emails.send': async (input) => emails.send(input),
    'emails.list': async () => ({ emails: emails.list() }),
    'archive.search': async ({ source, ...filters }) =>
      source === 'local' ? archive.local(filters) : archive.gateway(filters),
    'archive.get': async ({ invoiceNumber }) => archive.get(invoiceNumber),
    'archive.lookup': async ({ orderNumbers }) => ({ records: await archive.lookup(orderNumbers) }),
    'settings.get': async () => settingsView(offlineAccount()),
    'settings.update': async ({ managerPin, ...input }) => {
      const actor = await staff.requireManager(managerPin);
      const changed: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(input)) {
        if (v === undefined) continue;
        settings.set(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
        changed[k] = v;
      }
      staff.audit(actor, 'settings.update', changed);
      return settingsView(offlineAccount());
    },
    'settings.setApiKey': async ({ managerPin, apiKey, gatewayUrl }) => {
      const actor = await staff.requireManager(managerPin);
      const candidate = new GatewayClient({ baseUrl: gatewayUrl, apiKey });
      let acc: AccountView;
      try {
        const rates = await candidate.taxRates({ timeoutMs: 8000 });
        const labels = rates.currentTaxRates.taxCategories.flatMap((c) => c.taxRates.map((r) => r.label));
        acc = await account(candidate, apiKey, 'live', labels);
      } catch (err) {
        if (err instanceof GatewayError && err.status === 401)
          throw new CommandError('invalid_input', 'api_key_invalid', { field: 'apiKey' }, 'apiKey');
        if (err instanceof GatewayError && err.status === 403)
          throw new CommandError('invalid_input', 'api_key_forbidden', { field: 'apiKey' }, 'apiKey');
        throw gatewayCommandError(err);
      }
      deps.secrets.set(apiKey);
      settings.set('gatewayUrl', gatewayUrl);
      await gateway.set(gatewayUrl, apiKey);
      staff.audit(actor, 'settings.apiKey', { gatewayUrl, maskedKey: acc.maskedKey, environment: acc.environment });
      return acc;
    },
    'settings.verifyApiKey': async () => {
      try {
        return await account(client(), gateway.key(), gateway.mode(), taxRates.labels());
      } catch (err) {
        throw gatewayCommandError(err);
      }
    },
    'reports.summary': async (range) => buildReport(db, taxRates, range, now()),
    'reports.print': async (range) => {
      const report = buildReport(db, taxRates, range, now());
      const jobId = printer.enqueueSlip(reportLines(report));
      staff.audit(null, 'report.print', { from: report.from, to: report.to });
      return { jobId };
    },
    'reports.csv': async (range) => {
      const report = buildReport(db, taxRates, range, now());
      return { fileName: `presek-${report.from.slice(0, 10)}.csv`, csv: reportCsv(report) };
    },
    'backups.list': async ({ managerPin }) => {
      await staff.requireManager(managerPin);
      const report = deps.startup();
      return {
        backups: listBackups(deps.dataDir).map((b) => ({
          name: b.name,
          kind: b.kind,
          createdAt: b.createdAt,
          bytes: b.bytes,
          ...(b.chain ? { chain: b.chain } : {}),
        })),
        integrity: {
          ok: report.integrity.ok,
          problems: report.integrity.problems,
          ...(report.integrity.pending ? { pending: true } : {}),
        },
        lastBackupError: report.backupError,
      };
    },
    'backups.restore': async ({ managerPin, name }) => {
      const actor = await staff.requireManager(managerPin);
      let result: { restartRequired: true; name: string };
      try {
        result = requestRestore(deps.dataDir, name);
      } catch (err) {
        throw new CommandError(
          'invalid_input',
          'backup_unusable',
          { field: 'name', reason: err instanceof Error ? err.message : String(err) },
          'name',
        );
      }
      staff.audit(actor, 'backups.restore', { name });
      return result;
    },
    'audit.list': async ({ managerPin, limit, offset }) => {
      await staff.requireManager(managerPin);
      return staff.auditList(limit ?? 50, offset ?? 0);
    },
  };

  return {
    handlers,
    staff,
    emails,
    async start() {
      await staff.ensureDefaultManager();
      emails.start();
      void emails.pump();
    },
    stop() {
      emails.stop();
    },
  };
}

/** Demo accounts use Latin test labels, production ones Cyrillic labels. */
export function environmentOf(labels: readonly string[]): 'demo' | 'production' | 'unknown' {
  if (labels.length === 0) return 'unknown';
  if (labels.some((l) => /[\u0400-\u04FF]/.test(l) && l !== 'Ж')) return 'production';
  return 'demo';
}
