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
  ProductUnit,
  ProductView,
  ScanResult,
} from '../../shared/contract/catalog.ts';
import type { AppInfo, Language, OrderView, PaymentType, SyncStatus, TaxRatesView } from '../../shared/domain.ts';
import { lineTotal, milliToDecimal, paraToDecimal, type Milli, type Para } from '../../shared/money.ts';
import { looksLikeBarcode } from './scanner.ts';

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
export type Dialog = null | 'quantity' | 'discount' | 'manual' | 'park' | 'parked';

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
  language: Language;
  /** Training receipts, switched on locally (or forced by the core's training mode). */
  trainingLocal: boolean;
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
}

export interface PosActions {
  /** Loads app info, tax rates, sync status and favourites, and subscribes to events. Returns the unsubscribe. */
  init(): Promise<() => void>;
  setLanguage(language: Language): void;
  setTraining(on: boolean): void;
  setScreen(screen: Screen): void;
  openDialog(dialog: Dialog): void;
  setNotice(notice: Notice | null): void;
  setQuery(query: string): Promise<void>;
  moveResult(delta: number): void;
  /** Enter in the search box: a barcode-like query is scanned, else the highlighted result is added. */
  submitSearch(): Promise<boolean>;
  /** Resolves a scanned code and adds it to the cart. True when added. */
  scan(code: string): Promise<boolean>;
  addProduct(product: ProductView, quantityMilli?: Milli, unitPricePara?: Para, gtin?: string): boolean;
  addManual(line: { name: string; unitPricePara: Para; quantityMilli: Milli; label: string; unit: ProductUnit }): void;
  select(index: number): void;
  setQuantity(index: number, quantityMilli: Milli): void;
  setDiscount(index: number, discountPara: Para): void;
  removeLine(index: number): void;
  clearCart(): void;
  park(name?: string): Promise<boolean>;
  loadParked(): Promise<void>;
  resume(id: number): Promise<boolean>;
  deleteParked(id: number): Promise<void>;
  checkout(entry: PaymentEntry): Promise<boolean>;
  refreshOrder(): Promise<void>;
  newSale(): void;
  importCsv(csv: string, dryRun: boolean, replace?: boolean): Promise<ImportResult | null>;
  loadSample(): Promise<ImportResult | null>;
  refreshFavourites(): Promise<void>;
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

/** Converts the cart and payments to the contract's decimal checkout input (the only place decimals appear). */
export function toCheckoutInput(lines: readonly CartLine[], entry: PaymentEntry): CommandInput<'sales.checkout'> {
  return {
    lines: lines.map((l) => ({
      name: l.name,
      quantity: milliToDecimal(l.quantityMilli),
      unitPrice: paraToDecimal(l.unitPricePara),
      labels: [l.label],
      ...(l.gtin ? { gtin: l.gtin } : {}),
      ...(l.discountPara > 0 ? { discount: paraToDecimal(l.discountPara) } : {}),
    })),
    payments: entry.payments
      .filter((p) => p.amountPara > 0)
      .map((p) => ({ type: p.type, amount: paraToDecimal(p.amountPara) })),
    invoiceType: entry.invoiceType,
    ...(entry.buyerId ? { buyerId: entry.buyerId } : {}),
    ...(entry.email ? { email: entry.email } : {}),
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
export function createPosStore(api: PosApi, initialLanguage: Language = 'sr-Cyrl'): PosStore {
  let nextKey = 1;
  let searchSeq = 0;

  return createStore<PosState & PosActions>()((set, get) => {
    /** Unwraps a result; on error shows it and returns null. */
    const unwrap = <T>(r: Result<T>): T | null => {
      if (r.ok) return r.value;
      set({ notice: errorNotice(r.error) });
      return null;
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
      language: initialLanguage,
      trainingLocal: false,
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
      notice: null,
      busy: false,
      lastSale: null,
      lastImport: null,

      async init() {
        const info = await api['app.info']({});
        if (!info.ok) {
          set({ bootError: info.error.message });
          return () => {};
        }
        set({ info: info.value, language: info.value.language, bootError: null });
        const [rates, sync, favs] = await Promise.all([
          api['taxRates.get']({}),
          api['sync.status']({}),
          api['catalog.favourites']({}),
        ]);
        set({
          taxRates: rates.ok ? rates.value : null,
          sync: sync.ok ? sync.value : null,
          favourites: favs.ok ? favs.value : [],
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
        return () => {
          offOrder();
          offSync();
          offCatalog();
        };
      },

      setLanguage(language) {
        set({ language });
      },
      setTraining(on) {
        set({ trainingLocal: on });
      },
      setScreen(screen) {
        set({ screen, dialog: null });
      },
      openDialog(dialog) {
        set({ dialog });
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
        const added = addLine(product, quantityMilli, unitPricePara, gtin);
        // Goods sold by weight or volume, picked by hand: ask for the weight straight away.
        if (added && product.unit !== 'piece' && quantityMilli === undefined) set({ dialog: 'quantity' });
        return added;
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

      setQuantity(index, quantityMilli) {
        if (quantityMilli <= 0) return;
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

      setDiscount(index, discountPara) {
        set({
          lines: get().lines.map((l, i) =>
            i === index
              ? { ...l, discountPara: Math.max(0, Math.min(discountPara, lineTotal(l.unitPricePara, l.quantityMilli))) }
              : l,
          ),
          dialog: null,
        });
      },

      removeLine(index) {
        const lines = get().lines.filter((_, i) => i !== index);
        set({ lines, selected: Math.min(get().selected, lines.length - 1) });
      },

      clearCart() {
        set({ lines: [], selected: -1, query: '', results: [], dialog: null });
      },

      async park(name) {
        const lines = get().lines;
        if (lines.length === 0) return false;
        const cart: ParkedCart = {
          lines: lines.map(({ key: _key, ...l }) => l),
        };
        const r = unwrap(await api['parked.save']({ cart, ...(name?.trim() ? { name: name.trim() } : {}) }));
        if (!r) return false;
        set({ lines: [], selected: -1, dialog: null, notice: null });
        return true;
      },

      async loadParked() {
        const r = unwrap(await api['parked.list']({}));
        if (r) set({ parked: r });
      },

      async resume(id) {
        const r = unwrap(await api['parked.take']({ id }));
        if (!r) return false;
        // Resuming onto a non-empty cart appends, so nothing is lost.
        const resumed = r.cart.lines.map((l) => ({ ...l, key: nextKey++ }));
        const lines = [...get().lines, ...resumed];
        set({
          lines,
          selected: lines.length - 1,
          dialog: null,
          parked: get().parked.filter((p) => p.id !== id),
          screen: 'sale',
        });
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
          const r = unwrap(await api['sales.checkout'](toCheckoutInput(lines, entry)));
          if (!r) return false;
          const paidPara = entry.payments.reduce((s, p) => s + p.amountPara, 0);
          set({
            lastSale: { result: r, order: null, paidPara },
            lines: [],
            selected: -1,
            screen: 'receipt',
            notice: null,
          });
          await get().refreshOrder();
          return true;
        } finally {
          set({ busy: false });
        }
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
        });
      },

      async importCsv(csv, dryRun, replace) {
        set({ busy: true });
        try {
          const r = unwrap(await api['catalog.import']({ csv, dryRun, ...(replace ? { replace } : {}) }));
          set({ lastImport: r });
          if (r && !dryRun) await get().refreshFavourites();
          return r;
        } finally {
          set({ busy: false });
        }
      },

      async loadSample() {
        set({ busy: true });
        try {
          const r = unwrap(await api['catalog.loadSample']({}));
          set({ lastImport: r });
          await get().refreshFavourites();
          return r;
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
}
