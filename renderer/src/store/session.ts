/**
 * The session slice: who is at the till and what the till is. App info, tax rates, sync status, the UI
 * language, the cashier logged in (and the first-run PIN change), the PIN lockout, the drawer's shift and the
 * first-run setup's manager PIN. `init` reads them all and subscribes to the core's events.
 */
import type { StaffView } from '../../../shared/contract/staff.ts';
import type { ShiftView } from '../../../shared/contract/shifts.ts';
import type { AppInfo, Language, SyncStatus, TaxRatesView } from '../../../shared/domain.ts';
import { restoreCart } from './counter.ts';
import { LANGUAGE_KEY, type SliceCreator, type StoreKit } from './kit.ts';
import type { Screen } from './counter.ts';

export interface SessionState {
  info: AppInfo | null;
  /** Set when the first contact with the core failed. */
  bootError: string | null;
  taxRates: TaxRatesView | null;
  sync: SyncStatus | null;
  language: Language;
  /** The person logged in at the till (`staff.login`); nothing can be sold without one. */
  cashier: StaffView | null;
  /** The PIN just entered is the first-run 0000: it must be changed before anything else. */
  mustChangePin: boolean;
  /** PIN entry is locked until then (ISO; the `staff.lockout` event): the status bar's alarm. */
  pinLockedUntil: string | null;
  /** The drawer's open shift (`shifts.current`), null when none; undefined until read at login. */
  shift: ShiftView | null | undefined;
  /**
   * The manager's PIN while the first-run setup flow is open (a new till, `info.setupPending`): each step's
   * command carries it, so the PIN just typed twice is not asked a third time. Null otherwise; forgotten
   * when the flow ends or the manager logs out.
   */
  setupPin: string | null;
  /**
   * The core ended the session of the person logged in (`session.ended`: deactivated here, at the hub or on
   * another till): the login says who and how many lines the open cart keeps for the next person. Null otherwise.
   */
  sessionEnded: { name: string; lines: number } | null;
}

export interface SessionActions {
  /** Loads app info, tax rates, sync status and favourites, and subscribes to events. Returns the unsubscribe. */
  init(): Promise<() => void>;
  setLanguage(language: Language): void;
  /** `staff.login`: null when it worked, else the error message to show. */
  login(pin: string): Promise<string | null>;
  /** The first-run PIN changed (`staff.changePin`), then logged in with the new one: null or the message. */
  changeFirstPin(currentPin: string, newPin: string): Promise<string | null>;
  /** Ends the cashier's session (the cart stays for the next person only if empty; it is parked otherwise). */
  logout(): Promise<void>;
  /** The setup flow ended (done or skipped): the counter shows `screen`; app info is read again. */
  endSetup(screen: Screen): Promise<void>;
  setShift(shift: ShiftView | null): void;
}

/**
 * The till works in shifts (it opened one once) and none is open: the core refuses a sale (`shift_required`), so
 * the counter says so and F12 opens the shift dialog instead of the payment. False while the shift is not read yet.
 */
export function needsShift(s: Pick<SessionState, 'info' | 'shift'>): boolean {
  return s.info?.worksInShifts === true && s.shift === null;
}

export function createSessionSlice(
  kit: StoreKit,
  initialLanguage: Language | undefined,
): SliceCreator<SessionState & SessionActions> {
  const { api, storage, storedLanguage: stored } = kit;
  return (set, get) => ({
    info: null,
    bootError: null,
    taxRates: null,
    sync: null,
    language: stored ?? initialLanguage ?? 'sr-Cyrl',
    cashier: null,
    mustChangePin: false,
    pinLockedUntil: null,
    shift: undefined,
    setupPin: null,
    sessionEnded: null,

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
      // Quick keys, search and the cart's catalog prices follow a change at once, wherever it was made.
      const offCatalog = api.on('catalog.changed', () => {
        if (get().cashier) void get().followCatalog();
        else void get().refreshFavourites();
      });
      // The person logged in was deactivated: back to the login at once, the cart kept (not parked: parking
      // needs a session) for the next person, who finds it on the sale screen.
      const offEnded = api.on('session.ended', (p) => {
        if (!get().cashier) return;
        set({
          cashier: null,
          setupPin: null,
          sessionEnded: { name: p.name, lines: get().lines.length },
          screen: 'sale',
          dialog: null,
          approval: null,
          managerTab: null,
          paymentStarted: false,
          weighing: null,
          notice: null,
          query: '',
          results: [],
        });
      });
      // A printer set (or removed) in the manager's settings shows on the counter at once.
      const offPrinter = api.on('print.status', (status) => set({ printer: status }));
      // Too many wrong PINs: the status bar's alarm.
      const offLockout = api.on('staff.lockout', (l) => set({ pinLockedUntil: l.until }));
      return () => {
        offEnded();
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
      set({ cashier: r.value, mustChangePin: false, notice: null, screen: 'sale', dialog: null, sessionEnded: null });
      if (r.value.role === 'manager' && get().info?.setupPending === true) set({ setupPin: pin });
      await restoreCart(kit, set, get);
      // The quick keys need a session: read at start with nobody logged in (a till's start, a reload after F1),
      // they came back empty and stayed so („Нема брзих тастера“ with the catalog full). Read for this person.
      const [shift] = await Promise.all([api['shifts.current']({}), get().refreshFavourites()]);
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

    async logout() {
      // A cart left behind is parked under the cashier's name, so the next person starts clean.
      const { lines, cashier } = get();
      if (lines.length > 0 && !(await get().park(cashier?.name.slice(0, 60)))) {
        // Parking needs a session: one the core already ended (its `session.ended` missed, e.g. while the
        // event stream reconnected) must not freeze F1. Then the login, the cart kept on screen.
        const probe = await api['cart.get']({});
        if (probe.ok || probe.error.code !== 'forbidden') return;
        set({ notice: null });
      }
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

    setShift(shift) {
      // The first shift makes the till one that works in shifts (the core's rule): no reload needed to know it.
      const info = get().info;
      set({
        shift,
        ...(shift && info && info.worksInShifts !== true ? { info: { ...info, worksInShifts: true } } : {}),
      });
    },
  });
}
