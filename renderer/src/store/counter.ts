/**
 * The counter slice: the sale being rung up. The cart's lines and the selected one, the product search and
 * scans, goods waiting for their weight, quantities and discounts (a manager approves beyond the limits),
 * the favourites, which screen and dialog are open, and the notice for the cashier. The cart's parking is
 * in `parked.ts`; its arithmetic in `cart.ts`.
 */
import type { ParkedCart, ProductUnit, ProductView, ScanResult } from '../../../shared/contract/catalog.ts';
import { formatRsd, lineTotal, type Milli, type Para } from '../../../shared/money.ts';
import { looksLikeBarcode } from '../scanner.ts';
import { currentLabels, followCatalog, shareOut, toCheckoutLine, type CartLine } from './cart.ts';
import { errorNotice, type GetPos, type Notice, type SetPos, type SliceCreator, type StoreKit } from './kit.ts';

export type Screen = 'sale' | 'payment' | 'receipt' | 'catalog';
export type Dialog = null | 'quantity' | 'discount' | 'manual' | 'park' | 'parked' | 'price' | 'approval' | 'shift';

/** How long typed digits wait before they are searched (scanners finish a code well within this). */
export const DIGIT_SEARCH_DELAY_MS = 120;

export interface CounterState {
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
  notice: Notice | null;
  /**
   * Goods sold by weight or volume picked by hand wait here for their weight (the quantity dialog): they
   * become a line only once it is typed, and Esc adds nothing. Null when nothing waits.
   */
  weighing: { product: ProductView; unitPricePara: Para; gtin?: string | undefined } | null;
  /**
   * The buyer ID the cashier set for this sale (the payment screen), valid by its code's rule: a business buyer's
   * (`10:PIB`) price list prices the cart by it at once (docs/prices.md). Null: none; cleared with the cart.
   */
  saleBuyerId: string | null;
}

export interface CounterActions {
  setScreen(screen: Screen): void;
  /** Sets (or clears) the sale's buyer ID; the cart is priced again for it. */
  setSaleBuyer(buyerId: string | null): void;
  openDialog(dialog: Dialog): void;
  setNotice(notice: Notice | null): void;
  setQuery(query: string): Promise<void>;
  moveResult(delta: number): void;
  /** Enter in the search box: a barcode-like query is scanned, else the highlighted result is added. */
  submitSearch(): Promise<boolean>;
  /** Resolves a scanned code and adds it to the cart. True when added. */
  scan(code: string): Promise<boolean>;
  addProduct(product: ProductView, quantityMilli?: Milli, unitPricePara?: Para, gtin?: string): boolean;
  /** Adds the weighed product with the weight typed; false when nothing was waiting. */
  addWeighed(quantityMilli: Milli): boolean;
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
   * para (the largest remainders get the odd para). It replaces the lines' own discounts, or, with
   * `keepLineDiscounts`, is shared over what the lines cost after them and added to them (the discount dialog asks
   * which when lines have their own). The gateway knows only line discounts, so that is what the receipt shows.
   */
  setSaleDiscount(totalPara: Para, keepLineDiscounts?: boolean): Promise<void>;
  /** Once payment has started, removing asks for a manager first (unless `approved`). */
  removeLine(index: number, approved?: boolean): void;
  clearCart(approved?: boolean): void;
  refreshFavourites(): Promise<void>;
  /**
   * The catalog changed (`catalog.changed`: a manager's edit here, an import, a hub pull): the quick keys, the
   * search results, the product waiting for its weight and the cart's lines at a catalog price take the new
   * prices at once; a line whose price changed says so (a notice and the old price beside the new one).
   */
  followCatalog(): Promise<void>;
}

/** A resumed cart is appended to the current one (nothing is lost), and the sale screen shows it. */
export function appendResumed(kit: StoreKit, set: SetPos, get: GetPos, cart: ParkedCart): void {
  const resumed = cart.lines.map((l) => ({ ...l, key: kit.nextKey() }));
  const lines = [...get().lines, ...resumed];
  set({ lines, selected: lines.length - 1, dialog: null, screen: 'sale' });
}

/** After a reload or a crash: the cart the core kept comes back, with a notice saying so. */
export async function restoreCart(kit: StoreKit, set: SetPos, get: GetPos): Promise<void> {
  const r = await kit.api['cart.get']({});
  if (!r.ok) return; // never worse than before: the cart on screen stays, and is not saved over
  kit.cart.rev = Math.max(kit.cart.rev, r.value.rev);
  kit.cart.restored = true;
  if (r.value.lines.length === 0 || get().lines.length > 0) return;
  appendResumed(kit, set, get, { lines: r.value.lines });
  set({ notice: { kind: 'info', key: 'sale.cartRestored', params: { count: r.value.lines.length } } });
}

export function createCounterSlice(kit: StoreKit): SliceCreator<CounterState & CounterActions> {
  const { api } = kit;
  /** Each search's number: an answer to an older one is dropped. */
  let searchSeq = 0;

  return (set, get) => {
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
      priceCode?: string,
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
          // No discount but the rule's in force (prices.quote prices the line again with its new quantity).
          l.discountPara === (l.rule?.discountPara ?? 0),
      );
      if (same >= 0 && quantityMilli === 1000) {
        const updated = lines.map((l, i) => (i === same ? { ...l, quantityMilli: l.quantityMilli + 1000 } : l));
        set({ lines: updated, selected: same, notice: null });
        return true;
      }
      const line: CartLine = {
        key: kit.nextKey(),
        productId: product.id,
        name: product.name,
        unitPricePara,
        quantityMilli,
        discountPara: 0,
        label: product.label,
        unit: product.unit,
        ...(code ? { gtin: code } : {}),
        ...(priceCode ? { priceCode } : {}),
        ...(product.onHandMilli !== undefined ? { onHandMilli: product.onHandMilli } : {}),
      };
      set({ lines: [...lines, line], selected: lines.length, notice: null });
      return true;
    };

    return {
      screen: 'sale',
      dialog: null,
      lines: [],
      selected: -1,
      query: '',
      results: [],
      resultsFor: '',
      resultIndex: 0,
      favourites: [],
      notice: null,
      weighing: null,
      saleBuyerId: null,

      setSaleBuyer(buyerId) {
        if (get().saleBuyerId !== buyerId) set({ saleBuyerId: buyerId });
      },

      setScreen(screen) {
        set({ screen, dialog: null });
        // Paper out or the cover open shows before the sale ends, not after the receipt failed to print.
        if (screen === 'payment' && get().printer?.configured) void get().refreshPrinter(true);
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
        // A price barcode's price is the product's for this line: the core checks it against the code itself.
        return addLine(
          s.product,
          s.quantityMilli,
          s.unitPricePara,
          s.kind === 'exact' ? s.code : undefined,
          s.kind === 'price' ? s.code : undefined,
        );
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

      addWeighed(quantityMilli) {
        const w = get().weighing;
        if (!w || quantityMilli <= 0) return false;
        set({ weighing: null, dialog: null });
        return addLine(w.product, quantityMilli, w.unitPricePara, w.gtin);
      },

      addManual(input) {
        const lines = get().lines;
        set({
          lines: [...lines, { key: kit.nextKey(), discountPara: 0, ...input }],
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

      async setSaleDiscount(totalPara, keepLineDiscounts = false) {
        const lines = get().lines;
        const own = (l: CartLine) => (keepLineDiscounts ? l.discountPara : 0);
        const shares = shareOut(
          Math.max(0, totalPara),
          lines.map((l) => lineTotal(l.unitPricePara, l.quantityMilli) - own(l)),
        );
        await applyDiscounts(new Map(lines.map((l, i) => [l.key, own(l) + (shares[i] ?? 0)])), 'sale');
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

      async refreshFavourites() {
        const r = await api['catalog.favourites']({});
        if (r.ok) set({ favourites: r.value });
      },

      async followCatalog() {
        const query = get().query;
        const ids = [
          ...new Set(get().lines.flatMap((l) => (l.productId !== undefined && !l.priceCode ? [l.productId] : []))),
        ];
        const weighing = get().weighing;
        if (weighing) ids.push(weighing.product.id);
        const [, products] = await Promise.all([
          get().refreshFavourites(),
          ids.length > 0 ? api['catalog.byIds']({ ids: ids.slice(0, 500) }) : null,
          query.trim() !== '' ? get().setQuery(query) : null,
        ]);
        if (!products?.ok) return;
        const waiting = get().weighing;
        const fresh = waiting && products.value.find((p) => p.id === waiting.product.id);
        if (waiting && fresh && waiting.unitPricePara === waiting.product.pricePara)
          set({ weighing: { ...waiting, product: fresh, unitPricePara: fresh.pricePara } });
        const { lines, changed } = followCatalog(get().lines, products.value);
        if (changed.length === 0) return;
        const first = changed[0] as CartLine;
        set({
          lines,
          notice: {
            kind: 'info',
            key: changed.length === 1 ? 'sale.priceFollowed' : 'sale.pricesFollowed',
            params: {
              name: first.name,
              was: formatRsd(first.priceWas ?? first.unitPricePara),
              now: formatRsd(first.unitPricePara),
              count: changed.length,
            },
          },
        });
      },
    };
  };
}
