/**
 * The counter's state (zustand): the cart, search, the current receipt, sync status and app info.
 * All money is integer para, all quantities integer thousandths; decimals exist only in `toCheckoutInput`.
 * Every call to the core goes through the injected `PosApi`; events arrive through `subscribe`.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AppError, CheckoutResult, CommandInput, PosApi, Result } from '../../shared/contract/index.ts';
import type {
  ImportResult,
  ParkedCart,
  ParkedSaleSummary,
  RemoteParkedSale,
  ProductUnit,
  ProductView,
  ScanResult,
} from '../../shared/contract/catalog.ts';
import type { StaffView } from '../../shared/contract/staff.ts';
import type { PrintStatus } from '../../shared/contract/printer.ts';
import type { ShiftView } from '../../shared/contract/shifts.ts';
import type { AppInfo, Language, OrderView, PaymentType, SyncStatus, TaxRatesView } from '../../shared/domain.ts';
import { lineTotal, milliToDecimal, paraToDecimal, type Milli, type Para } from '../../shared/money.ts';
import { looksLikeBarcode } from './scanner.ts';
import { needsApproval } from '../../shared/contract/authz.ts';

/** One cart line. `key` is stable for React and tests. */
export interface CartLine {
  key: number;
  productId?: number;
  name: string;
  unitPricePara: Para;
  quantityMilli: Milli;
  discountPara: Para;
  label: string;
  unit: ProductUnit;
  gtin?: string;
}

/** A message for the cashier: an i18n key and its parameters. */
export interface Notice {
  kind: 'error' | 'info';
  key: string;
  params?: Record<string, string | number>;
}

export type Screen = 'sale' | 'payment' | 'receipt' | 'catalog';
export type Dialog = null | 'quantity' | 'discount' | 'manual' | 'park' | 'parked' | 'price' | 'approval' | 'shift';

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

/** Where the counter keeps its per-till UI choices (localStorage in the app). */
export interface UiStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The localStorage key of the till's UI language. */
export const LANGUAGE_KEY = 'kasa.language';

/** What the cashier entered on the payment screen. */
export interface PaymentEntry {
  payments: { type: PaymentType; amountPara: Para }[];
  invoiceType: 'normal' | 'training' | 'proforma';
  buyerId?: string;
  email?: string;
}

/** The last completed sale as shown on the receipt screen. */
export interface LastSale {
  result: CheckoutResult;
  order: OrderView | null;
  paidPara: Para;
}

export interface PosState {
  info: AppInfo | null;
  /** Set when the first contact with the core failed. */
  bootError: string | null;
  taxRates: TaxRatesView | null;
  sync: SyncStatus | null;
  /** The receipt printer (`print.status`, kept current by its event); null until read. */
  printer: PrintStatus | null;
  language: Language;
  /** The person logged in at the till (`staff.login`); nothing can be sold without one. */
  cashier: StaffView | null;
  /** The PIN just entered is the first-run 0000: it must be changed before anything else. */
  mustChangePin: boolean;
  /** PIN entry is locked until then (ISO; the `staff.lockout` event): the status bar's alarm. */
  pinLockedUntil: string | null;
  /**
   * A tender was entered on the payment screen (an amount typed, F5/F6, or the sale sent): money may have
   * changed hands, so removing from the cart now needs a manager. Only opening the payment screen and
   * going back is not a tender: no money was taken.
   */
  paymentStarted: boolean;
  /** The action waiting for a manager's PIN (dialog `approval`). */
  approval: Approval | null;
  outage: OutageThresholds;
  /** Which manager tab is open over the counter, or null. */
  managerTab: string | null;
  screen: Screen;
  dialog: Dialog;
  lines: CartLine[];
  selected: number;
  query: string;
  results: ProductView[];
  /** The query `results` answer (they may lag behind `query` while a search is in flight). */
  resultsFor: string;
  resultIndex: number;
  favourites: ProductView[];
  parked: ParkedSaleSummary[];
  notice: Notice | null;
  busy: boolean;
  lastSale: LastSale | null;
  lastImport: ImportResult | null;
  /**
   * The manager's PIN while the first-run setup flow is open (a new till, `info.setupPending`): each step's
   * command carries it, so the PIN just typed twice is not asked a third time. Null otherwise; forgotten
   * when the flow ends or the manager logs out.
   */
  setupPin: string | null;
}

export interface PosActions {
  /** Loads app info, tax rates, sync status and favourites, and subscribes to events. Returns the unsubscribe. */
  init(): Promise<() => void>;
  setLanguage(language: Language): void;
  /** `staff.login`: null when it worked, else the error message to show. */
  login(pin: string): Promise<string | null>;
  /** The first-run PIN changed (`staff.changePin`), then logged in with the new one: null or the message. */
  changeFirstPin(currentPin: string, newPin: string): Promise<string | null>;
  /**
   * Runs `send` without an approval; when the core asks for a manager's, opens the approval dialog that
   * sends it again with the PIN. `done` gets the value either way. Returns false if it did not go through now.
   */
  withApproval<T>(
    send: (approval?: { managerPin: string }) => Promise<Result<T>>,
    done: (value: T) => void | Promise<void>,
  ): Promise<boolean>;
  /** Ends the cashier's session (the cart stays for the next person only if empty; it is parked otherwise). */
  logout(): Promise<void>;
  /** The setup flow ended (done or skipped): the counter shows `screen`; app info is read again. */
  endSetup(screen: Screen): Promise<void>;
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
  setScreen(screen: Screen): void;
  /** The payment screen took a tender (see `paymentStarted`). */
  tendered(): void;
  openDialog(dialog: Dialog): void;
  setNotice(notice: Notice | null): void;
  setQuery(query: string): Promise<void>;
  moveResult(delta: number): void;
  /** Enter in the search box: a barcode-like query is scanned, else the highlighted result is added. */
  submitSearch(): Promise<boolean>;
  /** Resolves a scanned code and adds it to the cart. True when added. */
  scan(code: string): Promise<boolean>;
  addProduct(product: ProductView, quantityMilli?: Milli, unitPricePara?: Para, gtin?: string): boolean;
  /**
   * Goods sold by weight or volume picked by hand wait here for their weight (the quantity dialog): they
   * become a line only once it is typed, and Esc adds nothing. Null when nothing waits.
   */
  weighing: { product: ProductView; unitPricePara: Para; gtin?: string | undefined } | null;
  /** Adds the weighed product with the weight typed; false when nothing was waiting. */
  addWeighed(quantityMilli: Milli): boolean;
  /** The drawer's open shift (`shifts.current`), null when none; undefined until read at login. */
  shift: ShiftView | null | undefined;
  setShift(shift: ShiftView | null): void;
  addManual(line: { name: string; unitPricePara: Para; quantityMilli: Milli; label: string; unit: ProductUnit }): void;
  select(index: number): void;
  /** Lowering a quantity once payment has started asks for a manager first (unless `approved`). */
  setQuantity(index: number, quantityMilli: Milli, approved?: boolean): void;
  /**
   * A discount on the selected line. Beyond the limit, the core asks for a manager's approval now, when it
   * is entered (`sales.approveDiscount`), and the discount is applied only once approved.
   */
  setDiscount(index: number, discountPara: Para): Promise<void>;
  /**
   * A discount on the whole sale: `totalPara` shared over the lines in proportion to their totals, to the
   * para (the largest remainders get the odd para), replacing the lines' own discounts. The gateway knows
   * only line discounts, so that is what the receipt shows.
   */
  setSaleDiscount(totalPara: Para): Promise<void>;
  /** Once payment has started, removing asks for a manager first (unless `approved`). */
  removeLine(index: number, approved?: boolean): void;
  clearCart(approved?: boolean): void;
  park(name?: string): Promise<boolean>;
  loadParked(): Promise<void>;
  resume(id: number): Promise<boolean>;
  /** Carts parked on the shop's other tills (gateway drafts); null until asked. */
  remoteParked: { online: boolean; sales: RemoteParkedSale[] } | null;
  loadRemoteParked(): Promise<void>;
  /** Takes another till's parked cart (at most one till gets it). */
  resumeRemote(draftId: number): Promise<boolean>;
  deleteParked(id: number): Promise<void>;
  checkout(entry: PaymentEntry): Promise<boolean>;
  refreshOrder(): Promise<void>;
  newSale(): void;
  importCsv(csv: string, dryRun: boolean, replace?: boolean): Promise<ImportResult | null>;
  loadSample(): Promise<ImportResult | null>;
  refreshFavourites(): Promise<void>;
  /** Reads the printer's state again; `ask`: the printer is asked now (`print.check`, before a sale ends). */
  refreshPrinter(ask?: boolean): Promise<void>;
}

export type PosStore = StoreApi<PosState & PosActions>;

/** How long typed digits wait before they are searched (scanners finish a code well within this). */
export const DIGIT_SEARCH_DELAY_MS = 120;

/** The cart total in para. */
export function cartTotal(lines: readonly CartLine[]): Para {
  return lines.reduce((sum, l) => sum + lineTotal(l.unitPricePara, l.quantityMilli, l.discountPara), 0);
}

/** The labels the cashier may choose: exactly those `taxRates.get` returned. */
export function currentLabels(taxRates: TaxRatesView | null): string[] {
  return taxRates?.labels.map((l) => l.label) ?? [];
}

/** One cart line as the contract's decimal checkout line. */
export function toCheckoutLine(l: CartLine): CommandInput<'sales.checkout'>['lines'][number] {
  return {
    name: l.name,
    quantity: milliToDecimal(l.quantityMilli),
    unitPrice: paraToDecimal(l.unitPricePara),
    labels: [l.label],
    ...(l.gtin ? { gtin: l.gtin } : {}),
    ...(l.discountPara > 0 ? { discount: paraToDecimal(l.discountPara) } : {}),
  };
}

/** Converts the cart and payments to the contract's decimal checkout input (the only place decimals appear). */
export function toCheckoutInput(
  lines: readonly CartLine[],
  entry: PaymentEntry,
  cashier?: string,
): CommandInput<'sales.checkout'> {
  return {
    lines: lines.map(toCheckoutLine),
    payments: entry.payments
      .filter((p) => p.amountPara > 0)
      .map((p) => ({ type: p.type, amount: paraToDecimal(p.amountPara) })),
    invoiceType: entry.invoiceType,
    ...(entry.buyerId ? { buyerId: entry.buyerId } : {}),
    ...(entry.email ? { email: entry.email } : {}),
    ...(cashier ? { cashier: cashier.slice(0, 60) } : {}),
  };
}

/** The notice for an AppError. */
export function errorNotice(error: AppError): Notice {
  switch (error.code) {
    case 'invalid_input':
      return { kind: 'error', key: 'error.invalid', params: { field: error.field, message: error.message } };
    case 'unavailable':
      return { kind: 'error', key: 'error.unavailable', params: { message: error.message } };
    case 'forbidden':
      return { kind: 'error', key: 'error.forbidden', params: { message: error.message } };
    case 'not_found':
    case 'conflict':
    case 'storage':
    case 'internal':
      return { kind: 'error', key: 'error.generic', params: { message: error.message } };
  }
}

/** Creates the store over a transport. */
/**
 * Shares `amount` (para) over `weights` in proportion, each share whole para and at most its weight, the
 * shares adding up to `amount` exactly (capped at the weights' sum): the floor of each, then the odd para
 * to the largest remainders, earlier lines first on a tie.
 */
export function shareOut(amount: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum <= 0) return weights.map(() => 0);
  const total = Math.min(amount, sum);
  const exact = weights.map((w) => (w * total) / sum);
  const shares = exact.map((x) => Math.floor(x));
  let left = total - shares.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    if ((shares[i] ?? 0) < (weights[i] ?? 0)) {
      shares[i] = (shares[i] ?? 0) + 1;
      left--;
    }
  }
  return shares;
}

export function createPosStore(api: PosApi, initialLanguage?: Language, storage?: UiStorage): PosStore {
  let nextKey = 1;
  const stored = (() => {
    try {
      const v = storage?.getItem(LANGUAGE_KEY);
      return v === 'sr-Cyrl' || v === 'sr-Latn' || v === 'en' ? v : null;
    } catch {
      return null;
    }
  })();
  let searchSeq = 0;
  /**
   * The open cart kept in the core (`cart.save`): each change goes with a revision that only grows; the
   * checkout sends the revision it sells. Nothing is saved before the saved cart was read back at login, so
   * an empty cart at start never overwrites one a crash left.
   */
  let cartRev = 0;
  let cartRestored = false;

  const store = createStore<PosState & PosActions>()((set, get) => {
    /** Unwraps a result; on error shows it and returns null. */
    const unwrap = <T>(r: Result<T>): T | null => {
      if (r.ok) return r.value;
      set({ notice: errorNotice(r.error) });
      return null;
    };

    /** After a reload or a crash: the cart the core kept comes back, with a notice saying so. */
    const restoreCart = async (): Promise<void> => {
      const r = await api['cart.get']({});
      if (!r.ok) return; // never worse than before: the cart on screen stays, and is not saved over
      cartRev = Math.max(cartRev, r.value.rev);
      cartRestored = true;
      if (r.value.lines.length === 0 || get().lines.length > 0) return;
      appendResumed({ lines: r.value.lines });
      set({ notice: { kind: 'info', key: 'sale.cartRestored', params: { count: r.value.lines.length } } });
    };

    /**
     * Sets these lines' discounts (by line key) once the core agrees: a discount beyond the limit is approved
     * by a manager here, when it is entered, not at checkout. The core keeps the approval for exactly the
     * line it saw; refused or cancelled, the cart keeps its old discounts.
     */
    const applyDiscounts = async (discounts: ReadonlyMap<number, Para>, scope: 'line' | 'sale'): Promise<void> => {
      const changed = get().lines.filter((l) => {
        const next = discounts.get(l.key);
        return next !== undefined && next > 0 && next !== l.discountPara;
      });
      const apply = (approvedBy: string | null): void => {
        set({
          lines: get().lines.map((l) => {
            const next = discounts.get(l.key);
            return next === undefined
              ? l
              : { ...l, discountPara: Math.min(next, lineTotal(l.unitPricePara, l.quantityMilli)) };
          }),
          dialog: null,
          ...(approvedBy ? { notice: { kind: 'info', key: 'approval.approved', params: { name: approvedBy } } } : {}),
        });
      };
      if (changed.length === 0) {
        apply(null);
        return;
      }
      const lines = changed.map((l) => toCheckoutLine({ ...l, discountPara: discounts.get(l.key) ?? 0 }));
      await get().withApproval(
        (approval) => api['sales.approveDiscount']({ lines, scope, ...(approval ? { approval } : {}) }),
        async (r) => apply(r.approvedBy),
      );
    };

    /** A resumed cart is appended to the current one (nothing is lost), and the sale screen shows it. */
    const appendResumed = (cart: ParkedCart): void => {
      const resumed = cart.lines.map((l) => ({ ...l, key: nextKey++ }));
      const lines = [...get().lines, ...resumed];
      set({ lines, selected: lines.length - 1, dialog: null, screen: 'sale' });
    };

    const labelUsable = (label: string): boolean => {
      const labels = currentLabels(get().taxRates);
      // Without tax rates (not loaded yet) the core decides.
      return labels.length === 0 || labels.includes(label);
    };

    /** Adds a product to the cart (or one more of it); false when its label cannot be sold. */
    const addLine = (
      product: ProductView,
      quantityMilli = 1000,
      unitPricePara = product.pricePara,
      gtin?: string,
    ): boolean => {
      if (product.labelMissing || !labelUsable(product.label)) {
        set({ notice: { kind: 'error', key: 'sale.labelMissing', params: { label: product.label } } });
        return false;
      }
      const lines = get().lines;
      const code = gtin ?? (product.barcodes.length === 1 ? product.barcodes[0] : undefined);
      // The same piece product at the same price again: one more on its line.
      const same = lines.findIndex(
        (l) =>
          l.productId === product.id &&
          l.unit === 'piece' &&
          product.unit === 'piece' &&
          l.unitPricePara === unitPricePara &&
          l.discountPara === 0,
      );
      if (same >= 0 && quantityMilli === 1000) {
        const updated = lines.map((l, i) => (i === same ? { ...l, quantityMilli: l.quantityMilli + 1000 } : l));
        set({ lines: updated, selected: same, notice: null });
        return true;
      }
      const line: CartLine = {
        key: nextKey++,
        productId: product.id,
        name: product.name,
        unitPricePara,
        quantityMilli,
        discountPara: 0,
        label: product.label,
        unit: product.unit,
        ...(code ? { gtin: code } : {}),
      };
      set({ lines: [...lines, line], selected: lines.length, notice: null });
      return true;
    };

    return {
      info: null,
      bootError: null,
      taxRates: null,
      sync: null,
      printer: null,
      language: stored ?? initialLanguage ?? 'sr-Cyrl',
      cashier: null,
      mustChangePin: false,
      pinLockedUntil: null,
      paymentStarted: false,
      weighing: null,
      shift: undefined,
      approval: null,
      outage: { warnMinutes: 30, alarmMinutes: 24 * 60 },
      managerTab: null,
      screen: 'sale',
      dialog: null,
      lines: [],
      selected: -1,
      query: '',
      results: [],
      resultsFor: '',
      resultIndex: 0,
      favourites: [],
      parked: [],
      remoteParked: null,
      notice: null,
      busy: false,
      lastSale: null,
      lastImport: null,
      setupPin: null,

      async init() {
        const info = await api['app.info']({});
        if (!info.ok) {
          set({ bootError: info.error.message });
          return () => {};
        }
        // The language is the till's own choice; the core's setting only seeds it.
        set({ info: info.value, bootError: null, ...(stored ? {} : { language: info.value.language }) });
        const [rates, sync, favs, settings, printer] = await Promise.all([
          api['taxRates.get']({}),
          api['sync.status']({}),
          api['catalog.favourites']({}),
          api['settings.get']({}),
          api['print.status']({}),
        ]);
        set({
          taxRates: rates.ok ? rates.value : null,
          sync: sync.ok ? sync.value : null,
          printer: printer.ok ? printer.value : null,
          favourites: favs.ok ? favs.value : [],
          ...(settings.ok
            ? {
                outage: {
                  warnMinutes: settings.value.outageWarnMinutes,
                  alarmMinutes: settings.value.outageAlarmMinutes,
                },
              }
            : {}),
        });
        const offOrder = api.on('order.updated', (p) => {
          const sale = get().lastSale;
          if (sale && sale.result.orderId === p.orderId) void get().refreshOrder();
        });
        const offSync = api.on('sync.status', (status) => {
          set({ sync: status });
          // A missed order event (reconnect) is caught up by the next status change.
          const sale = get().lastSale;
          if (sale && (sale.order?.state ?? sale.result.state) !== 'fiscalized') void get().refreshOrder();
        });
        const offCatalog = api.on('catalog.changed', () => void get().refreshFavourites());
        // A printer set (or removed) in the manager's settings shows on the counter at once.
        const offPrinter = api.on('print.status', (status) => set({ printer: status }));
        // Too many wrong PINs: the status bar's alarm.
        const offLockout = api.on('staff.lockout', (l) => set({ pinLockedUntil: l.until }));
        return () => {
          offLockout();
          offOrder();
          offSync();
          offCatalog();
          offPrinter();
        };
      },

      setLanguage(language) {
        set({ language });
        try {
          storage?.setItem(LANGUAGE_KEY, language);
        } catch {
          // A full or blocked storage only loses the choice for the next start.
        }
      },

      async login(pin) {
        const r = await api['staff.login']({ pin });
        if (!r.ok) return r.error.message;
        // The first-run PIN opens nothing but its own change (the core refuses everything else).
        if (r.value.mustChangePin) {
          set({ mustChangePin: true });
          return null;
        }
        set({ cashier: r.value, mustChangePin: false, notice: null, screen: 'sale', dialog: null });
        if (r.value.role === 'manager' && get().info?.setupPending === true) set({ setupPin: pin });
        await restoreCart();
        const shift = await api['shifts.current']({});
        if (shift.ok) set({ shift: shift.value });
        return null;
      },

      async changeFirstPin(currentPin, newPin) {
        const r = await api['staff.changePin']({ currentPin, newPin });
        if (!r.ok) return r.error.message;
        // The till is no longer new: the login screen stops telling how to begin.
        const info = await api['app.info']({});
        if (info.ok) set({ info: info.value });
        return get().login(newPin);
      },

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

      async logout() {
        // A cart left behind is parked under the cashier's name, so the next person starts clean.
        const { lines, cashier } = get();
        if (lines.length > 0 && !(await get().park(cashier?.name.slice(0, 60)))) return;
        set({
          cashier: null,
          setupPin: null,
          screen: 'sale',
          dialog: null,
          lastSale: null,
          paymentStarted: false,
          approval: null,
          managerTab: null,
          query: '',
          results: [],
        });
      },

      async endSetup(screen) {
        const info = await api['app.info']({});
        set({ setupPin: null, screen, ...(info.ok ? { info: info.value } : {}) });
        await get().refreshFavourites();
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
                }
              : l,
          ),
          dialog: null,
        });
      },

      setScreen(screen) {
        set({ screen, dialog: null });
        // Paper out or the cover open shows before the sale ends, not after the receipt failed to print.
        if (screen === 'payment' && get().printer?.configured) void get().refreshPrinter(true);
      },
      tendered() {
        if (!get().paymentStarted) set({ paymentStarted: true });
      },
      openDialog(dialog) {
        // Closing or leaving the weight dialog adds nothing: the weighed product was never a line.
        const weighing = dialog === 'quantity' ? get().weighing : null;
        set(dialog === 'approval' ? { dialog, weighing } : { dialog, approval: null, weighing });
      },
      setNotice(notice) {
        set({ notice });
      },

      async setQuery(query) {
        const seq = ++searchSeq;
        set({ query, resultIndex: 0 });
        if (query.trim() === '') {
          set({ results: [], resultsFor: query });
          return;
        }
        // Digits may be a scan in progress: search only once the keys pause (a scan ends in Enter first).
        if (/^\d+$/.test(query.trim())) {
          await new Promise((resolve) => setTimeout(resolve, DIGIT_SEARCH_DELAY_MS));
          if (seq !== searchSeq) return;
        }
        const r = await api['catalog.search']({ query, limit: 20 });
        if (seq !== searchSeq) return;
        set({ results: r.ok ? r.value : [], resultsFor: query });
      },

      async submitSearch() {
        const { query } = get();
        const q = query.trim();
        if (q === '') return false;
        if (looksLikeBarcode(q)) return get().scan(q);
        if (get().resultsFor !== query) await get().setQuery(query);
        const { results, resultIndex } = get();
        const product = results[resultIndex] ?? results[0];
        if (!product) {
          set({ notice: { kind: 'error', key: 'sale.noResults', params: { query: q } } });
          return false;
        }
        return get().addProduct(product);
      },

      moveResult(delta) {
        const { results, resultIndex } = get();
        if (results.length === 0) return;
        set({ resultIndex: (resultIndex + delta + results.length) % results.length });
      },

      async scan(code) {
        searchSeq++;
        set({ query: '', results: [], resultsFor: '' });
        const r = await api['catalog.byBarcode']({ code });
        if (!r.ok) {
          set({
            notice:
              r.error.code === 'not_found' || r.error.code === 'invalid_input'
                ? { kind: 'error', key: 'sale.unknownBarcode', params: { code } }
                : errorNotice(r.error),
          });
          return false;
        }
        const s: ScanResult = r.value;
        // The next scan may already be typing into the search box: leave the query alone.
        return addLine(s.product, s.quantityMilli, s.unitPricePara, s.kind === 'exact' ? s.code : undefined);
      },

      addProduct(product, quantityMilli, unitPricePara, gtin) {
        searchSeq++;
        set({ query: '', results: [], resultsFor: '' });
        // Goods sold by weight or volume, picked by hand: no line until the weight is typed.
        if (product.unit !== 'piece' && quantityMilli === undefined) {
          if (product.labelMissing || !labelUsable(product.label)) {
            set({ notice: { kind: 'error', key: 'sale.labelMissing', params: { label: product.label } } });
            return false;
          }
          set({
            weighing: { product, unitPricePara: unitPricePara ?? product.pricePara, gtin },
            dialog: 'quantity',
            approval: null,
            notice: null,
          });
          return true;
        }
        return addLine(product, quantityMilli, unitPricePara, gtin);
      },

      setShift(shift) {
        set({ shift });
      },

      addWeighed(quantityMilli) {
        const w = get().weighing;
        if (!w || quantityMilli <= 0) return false;
        set({ weighing: null, dialog: null });
        return addLine(w.product, quantityMilli, w.unitPricePara, w.gtin);
      },

      addManual(input) {
        const lines = get().lines;
        set({
          lines: [...lines, { key: nextKey++, discountPara: 0, ...input }],
          selected: lines.length,
          dialog: null,
          notice: null,
        });
      },

      select(index) {
        const n = get().lines.length;
        if (n === 0) return;
        set({ selected: Math.max(0, Math.min(n - 1, index)) });
      },

      setQuantity(index, quantityMilli, approved) {
        if (quantityMilli <= 0) return;
        const current = get().lines[index];
        if (!approved && get().paymentStarted && current && quantityMilli < current.quantityMilli) {
          get().requestApproval({ kind: 'reduceQuantity', index, quantityMilli });
          return;
        }
        set({
          lines: get().lines.map((l, i) =>
            i === index
              ? {
                  ...l,
                  quantityMilli,
                  discountPara: Math.min(l.discountPara, lineTotal(l.unitPricePara, quantityMilli)),
                }
              : l,
          ),
          dialog: null,
        });
      },

      async setDiscount(index, discountPara) {
        const discounts = new Map<number, Para>();
        get().lines.forEach((l, i) => {
          if (i === index)
            discounts.set(l.key, Math.max(0, Math.min(discountPara, lineTotal(l.unitPricePara, l.quantityMilli))));
        });
        await applyDiscounts(discounts, 'line');
      },

      async setSaleDiscount(totalPara) {
        const lines = get().lines;
        const shares = shareOut(
          Math.max(0, totalPara),
          lines.map((l) => lineTotal(l.unitPricePara, l.quantityMilli)),
        );
        await applyDiscounts(new Map(lines.map((l, i) => [l.key, shares[i] ?? 0])), 'sale');
      },

      removeLine(index, approved) {
        if (index < 0 || index >= get().lines.length) return;
        if (!approved && get().paymentStarted) {
          get().requestApproval({ kind: 'removeLine', index });
          return;
        }
        const lines = get().lines.filter((_, i) => i !== index);
        set({ lines, selected: Math.min(get().selected, lines.length - 1) });
      },

      clearCart(approved) {
        if (!approved && get().paymentStarted && get().lines.length > 0) {
          get().requestApproval({ kind: 'clearCart' });
          return;
        }
        set({ lines: [], selected: -1, query: '', results: [], dialog: null, paymentStarted: false });
      },

      async park(name) {
        const lines = get().lines;
        if (lines.length === 0) return false;
        const cart: ParkedCart = {
          lines: lines.map(({ key: _key, ...l }) => l),
        };
        const r = unwrap(await api['parked.save']({ cart, ...(name?.trim() ? { name: name.trim() } : {}) }));
        if (!r) return false;
        // The cart leaves the screen: say where it went.
        const named = name?.trim();
        set({
          lines: [],
          selected: -1,
          dialog: null,
          notice: named
            ? { kind: 'info', key: 'sale.parked', params: { name: named } }
            : { kind: 'info', key: 'sale.parkedUnnamed' },
          paymentStarted: false,
        });
        return true;
      },

      async loadParked() {
        const r = unwrap(await api['parked.list']({}));
        if (r) set({ parked: r });
      },

      async resume(id) {
        const r = unwrap(await api['parked.take']({ id }));
        if (!r) return false;
        appendResumed(r.cart);
        set({ parked: get().parked.filter((p) => p.id !== id) });
        return true;
      },

      async loadRemoteParked() {
        const r = unwrap(await api['parked.remote']({}));
        if (r) set({ remoteParked: r });
      },

      async resumeRemote(draftId) {
        const r = unwrap(await api['parked.takeRemote']({ draftId }));
        const remote = get().remoteParked;
        if (remote) set({ remoteParked: { ...remote, sales: remote.sales.filter((x) => x.draftId !== draftId) } });
        if (!r) return false;
        appendResumed(r.cart);
        return true;
      },

      async deleteParked(id) {
        if (unwrap(await api['parked.delete']({ id }))) set({ parked: get().parked.filter((p) => p.id !== id) });
      },

      async checkout(entry) {
        const lines = get().lines;
        if (lines.length === 0 || get().busy) return false;
        set({ busy: true });
        try {
          const input = {
            ...toCheckoutInput(lines, entry, get().cashier?.name),
            ...(cartRestored && cartRev > 0 ? { cartRev } : {}),
          };
          const paidPara = entry.payments.reduce((s, p) => s + p.amountPara, 0);
          const finish = async (r: CheckoutResult): Promise<void> => {
            set({
              lastSale: { result: r, order: null, paidPara },
              lines: [],
              selected: -1,
              screen: 'receipt',
              notice: null,
              paymentStarted: false,
            });
            await get().refreshOrder();
          };
          // A price override or a discount beyond the limit: the core asks for a manager's PIN.
          return await get().withApproval(
            (approval) => api['sales.checkout']({ ...input, ...(approval ? { approval } : {}) }),
            finish,
          );
        } finally {
          set({ busy: false });
        }
      },

      async refreshPrinter(ask = false) {
        const r = await (ask ? api['print.check']({}) : api['print.status']({}));
        if (r.ok) set({ printer: r.value });
      },

      async refreshOrder() {
        const sale = get().lastSale;
        if (!sale) return;
        const r = await api['orders.get']({ orderId: sale.result.orderId });
        const current = get().lastSale;
        if (r.ok && current && current.result.orderId === r.value.orderId)
          set({ lastSale: { ...current, order: r.value } });
      },

      newSale() {
        set({
          screen: 'sale',
          lastSale: null,
          lines: [],
          selected: -1,
          query: '',
          results: [],
          dialog: null,
          notice: null,
          paymentStarted: false,
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

      async refreshFavourites() {
        const r = await api['catalog.favourites']({});
        if (r.ok) set({ favourites: r.value });
      },
    };
  });
  store.subscribe((state, prev) => {
    if (!cartRestored || state.lines === prev.lines) return;
    cartRev += 1;
    void api['cart.save']({ rev: cartRev, lines: state.lines.map(({ key: _key, ...l }) => l) });
  });
  return store;
}
