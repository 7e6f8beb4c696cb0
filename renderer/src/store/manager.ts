/**
 * The manager slice: what needs a manager at the till. The open manager tab, the action waiting for a
 * manager's PIN (and `withApproval`, which asks for one when the core says so), the settings the counter
 * reads (training mode, outage thresholds), and the catalog import.
 */
import type { Result } from '../../../shared/contract/index.ts';
import type { ImportResult } from '../../../shared/contract/catalog.ts';
import { needsApproval } from '../../../shared/contract/authz.ts';
import { lineTotal, type Milli, type Para } from '../../../shared/money.ts';
import { cartTotal } from './cart.ts';
import { errorNotice, type SliceCreator, type StoreKit } from './kit.ts';

/**
 * A counter action that needs a manager's PIN: removing lines once payment has started, a price
 * override, switching training mode (the core's setting).
 */
export type Approval =
  | { kind: 'removeLine'; index: number }
  | { kind: 'clearCart' }
  | { kind: 'reduceQuantity'; index: number; quantityMilli: Milli }
  | { kind: 'price'; index: number; unitPricePara: Para }
  | { kind: 'training'; on: boolean }
  /**
   * The core refused a command for want of a manager's approval: `what` is its message, and
   * `run` sends the same command again with the manager's PIN beside it (null when done, else the message).
   */
  | { kind: 'command'; what: string; run: (managerPin: string) => Promise<string | null> };

/** The outage thresholds (minutes) from `settings.get`. */
export interface OutageThresholds {
  warnMinutes: number;
  alarmMinutes: number;
}

export interface ManagerState {
  /** The action waiting for a manager's PIN (dialog `approval`). */
  approval: Approval | null;
  outage: OutageThresholds;
  /** Which manager tab is open over the counter, or null. */
  managerTab: string | null;
  lastImport: ImportResult | null;
}

export interface ManagerActions {
  /**
   * Runs `send` without an approval; when the core asks for a manager's, opens the approval dialog that
   * sends it again with the PIN. `done` gets the value either way. Returns false if it did not go through now.
   */
  withApproval<T>(
    send: (approval?: { managerPin: string }) => Promise<Result<T>>,
    done: (value: T) => void | Promise<void>,
  ): Promise<boolean>;
  /** Asks for a manager's PIN before running `approval`. */
  requestApproval(approval: Approval): void;
  /** Checks the manager PIN with the core and runs the pending action: null when done, else the message. */
  approve(managerPin: string): Promise<string | null>;
  /** Re-reads app info (training mode) and the outage thresholds. */
  refreshSettings(): Promise<void>;
  openManager(tab?: string): void;
  closeManager(): void;
  /** Sets a line's unit price (after a manager approved it). */
  setPrice(index: number, unitPricePara: Para): void;
  importCsv(csv: string, dryRun: boolean, replace?: boolean): Promise<ImportResult | null>;
  loadSample(): Promise<ImportResult | null>;
}

export function createManagerSlice(kit: StoreKit): SliceCreator<ManagerState & ManagerActions> {
  const { api } = kit;
  return (set, get) => ({
    approval: null,
    outage: { warnMinutes: 30, alarmMinutes: 24 * 60 },
    managerTab: null,
    lastImport: null,

    async withApproval(send, done) {
      const r = await send();
      if (r.ok) {
        await done(r.value);
        return true;
      }
      if (!needsApproval(r.error)) {
        set({ notice: errorNotice(r.error) });
        return false;
      }
      get().requestApproval({
        kind: 'command',
        what: r.error.message,
        run: async (managerPin) => {
          const again = await send({ managerPin });
          if (!again.ok) return again.error.message;
          await done(again.value);
          return null;
        },
      });
      return false;
    },

    requestApproval(approval) {
      set({ approval, dialog: 'approval' });
    },

    async approve(managerPin) {
      const pending = get().approval;
      if (!pending) return null;
      if (pending.kind === 'command') {
        const refused = await pending.run(managerPin);
        if (refused !== null) return refused;
        set({ approval: null, dialog: null });
        return null;
      }
      if (pending.kind === 'training') {
        const r = await api['settings.update']({ managerPin, trainingMode: pending.on });
        if (!r.ok) return r.error.message;
        set({ approval: null, dialog: null });
        await get().refreshSettings();
        if ((get().info?.trainingMode ?? false) !== pending.on)
          set({ notice: { kind: 'error', key: 'training.fixed' } });
        return null;
      }
      const line = 'index' in pending ? get().lines[pending.index] : undefined;
      const detail =
        pending.kind === 'clearCart'
          ? `${get().lines.length} lines, ${cartTotal(get().lines)} para`
          : pending.kind === 'price'
            ? `${line?.name ?? ''}: ${line?.unitPricePara ?? 0} -> ${pending.unitPricePara} para`
            : pending.kind === 'reduceQuantity'
              ? `${line?.name ?? ''}: ${line?.quantityMilli ?? 0} -> ${pending.quantityMilli}`
              : `${line?.name ?? ''}`;
      const action = {
        removeLine: 'void_line',
        clearCart: 'void_sale',
        reduceQuantity: 'void_quantity',
        price: 'price_override',
      }[pending.kind];
      const r = await api['staff.approve']({
        managerPin,
        action,
        detail: `${get().cashier?.name ?? '?'}: ${detail}`.slice(0, 500),
      });
      if (!r.ok) return r.error.message;
      set({ approval: null, dialog: null });
      if (pending.kind === 'removeLine') get().removeLine(pending.index, true);
      else if (pending.kind === 'clearCart') get().clearCart(true);
      else if (pending.kind === 'reduceQuantity') get().setQuantity(pending.index, pending.quantityMilli, true);
      else get().setPrice(pending.index, pending.unitPricePara);
      set({ notice: { kind: 'info', key: 'approval.approved', params: { name: r.value.approvedBy } } });
      return null;
    },

    async refreshSettings() {
      const [info, settings] = await Promise.all([api['app.info']({}), api['settings.get']({})]);
      if (info.ok) set({ info: info.value });
      if (settings.ok)
        set({
          outage: {
            warnMinutes: settings.value.outageWarnMinutes,
            alarmMinutes: settings.value.outageAlarmMinutes,
          },
        });
    },

    openManager(tab) {
      set({ managerTab: tab ?? 'refund' });
    },
    closeManager() {
      set({ managerTab: null });
      void get().refreshSettings();
    },

    setPrice(index, unitPricePara) {
      set({
        lines: get().lines.map((l, i) =>
          i === index
            ? {
                ...l,
                unitPricePara,
                discountPara: Math.min(l.discountPara, lineTotal(unitPricePara, l.quantityMilli)),
                // A manager's price: a later catalog change leaves it alone.
                priceSet: true as const,
                priceWas: undefined,
              }
            : l,
        ),
        dialog: null,
      });
    },

    async importCsv(csv, dryRun, replace) {
      set({ busy: true });
      try {
        // Importing (not a dry run) needs a manager's approval in the core: the dialog asks, then sends again.
        let result: ImportResult | null = null;
        await get().withApproval(
          (approval) =>
            api['catalog.import']({
              csv,
              dryRun,
              ...(replace ? { replace } : {}),
              ...(approval ? { approval } : {}),
            }),
          async (r) => {
            result = r;
            set({ lastImport: r });
            if (!dryRun) await get().refreshFavourites();
          },
        );
        return result;
      } finally {
        set({ busy: false });
      }
    },

    async loadSample() {
      set({ busy: true });
      try {
        let result: ImportResult | null = null;
        await get().withApproval(
          (approval) => api['catalog.loadSample'](approval ? { approval } : {}),
          async (r) => {
            result = r;
            set({ lastImport: r });
            await get().refreshFavourites();
          },
        );
        return result;
      } finally {
        set({ busy: false });
      }
    },
  });
}
