/**
 * The back-office services, wired once: staff and PINs, refunds and advances, e-mail and the archive. Their
 * commands' handlers are per area (electron/manager/handlers/, electron/auth/handlers.ts).
 */
import type { EventPayload } from '../../shared/contract/index.ts';
import type { Db } from '../db/open.ts';
import type { GatewayClient } from '../gateway/client.ts';
import type { SyncEngine } from '../outbox/engine.ts';
import type { OrderStore } from '../orders/store.ts';
import type { TaxRatesCache } from '../sales/tax-rates.ts';
import type { Settings } from '../settings/settings.ts';
import { Archive } from './archive.ts';
import { EmailQueue } from './email.ts';
import type { RetryBudgets } from '../retry/budget.ts';
import { BackOfficeOrders, type OrdersDeps } from './orders.ts';
import { StaffService, type StaffDeps } from '../auth/staff.ts';
import { truthyFields } from '../../shared/fields.ts';

export interface ManagerDeps {
  db: Db;
  store: OrderStore;
  engine: SyncEngine;
  taxRates: TaxRatesCache;
  settings: Settings;
  /** The gateway in use (it changes when a manager sets a new key). */
  client: () => GatewayClient;
  now: () => number;
  emit: <E extends 'email.updated' | 'staff.lockout'>(name: E, payload: EventPayload<E>) => void;
  /** Retry budgets of the background loops (e-mail here). */
  budgets: RetryBudgets;
  /** Refund sources of other tills through the store hub, when one is configured. */
  hubSource?: OrdersDeps['hubSource'];
  hubHold?: OrdersDeps['hubHold'];
  /** Staff changes of an enrolled till go to the store hub first (StaffDeps.hubStaff). */
  hubStaff?: StaffDeps['hubStaff'];
  /** The first-run manager's first PIN at an enrolled till is offered to the shop (StaffDeps.hubFirstPin). */
  hubFirstPin?: StaffDeps['hubFirstPin'];
  /** PINs at an enrolled till: its verifiers and the hub's check (StaffDeps.hubPins, electron/auth/hub-pins.ts). */
  hubPins?: StaffDeps['hubPins'];
  /** A refund or an advance's next document needs an open shift once the till works in shifts. */
  requireShift?: OrdersDeps['requireShift'];
}

export interface Manager {
  staff: StaffService;
  orders: BackOfficeOrders;
  emails: EmailQueue;
  archive: Archive;
  /** Seeds the default manager on first run and starts the e-mail retry timer. */
  start(): Promise<void>;
  stop(): void;
}

export function createManager(deps: ManagerDeps): Manager {
  const { db, store, engine, taxRates, settings, client, now } = deps;
  const staff = new StaffService({
    db,
    client,
    now,
    onLockout: (l) => deps.emit('staff.lockout', { scope: l.scope, until: new Date(l.until).toISOString() }),
    language: () => settings.language(),
    ...truthyFields(deps, ['hubStaff', 'hubFirstPin', 'hubPins']),
  });
  const orders = new BackOfficeOrders({
    store,
    engine,
    taxRates,
    client,
    terminalId: () => settings.terminalId(),
    onlineBudgetMs: () => settings.number('onlineBudgetMs', 3000),
    now,
    ...truthyFields(deps, ['hubSource', 'hubHold']),
    allowRefundWithoutBuyerId: () => settings.allowRefundWithoutBuyerId(),
    trainingMode: () => settings.bool('trainingMode'),
    ...(deps.requireShift ? { requireShift: deps.requireShift } : {}),
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

  return {
    staff,
    orders,
    emails,
    archive,
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
