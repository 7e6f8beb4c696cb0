/**
 * The payment slice: from the tender to the receipt. Whether money may have changed hands, the sale being
 * sent (`checkout`, with the manager's approval when the core asks), the last sale as the receipt screen
 * shows it (kept current by the core's events), and the receipt printer's state.
 */
import type { AppError, CheckoutResult, IpsRequestView, Result } from '../../../shared/contract/index.ts';
import type { PrintStatus } from '../../../shared/contract/printer.ts';
import type { OrderView, PaymentType } from '../../../shared/domain.ts';
import { paraToDecimal, type Para } from '../../../shared/money.ts';
import { refusedLine, toCheckoutInput } from './cart.ts';
import type { SliceCreator, StoreKit } from './kit.ts';

/** What the cashier entered on the payment screen. */
export interface PaymentEntry {
  payments: { type: PaymentType; amountPara: Para }[];
  invoiceType: 'normal' | 'training' | 'proforma';
  buyerId?: string;
  email?: string;
  /** Paid by an IPS transfer: the reference of the code the customer scanned (`ips.request`). */
  ipsReference?: string;
}

/** The last completed sale as shown on the receipt screen. */
export interface LastSale {
  result: CheckoutResult;
  order: OrderView | null;
  paidPara: Para;
}

export interface PaymentState {
  /**
   * A tender was entered on the payment screen (an amount typed, F5/F6, or the sale sent): money may have
   * changed hands, so removing from the cart now needs a manager. Only opening the payment screen and
   * going back is not a tender: no money was taken.
   */
  paymentStarted: boolean;
  /** A sale or an import is being sent: the buttons that would send another wait. */
  busy: boolean;
  lastSale: LastSale | null;
  /** The receipt printer (`print.status`, kept current by its event); null until read. */
  printer: PrintStatus | null;
  /** The IPS code the cashier's dialog shows now (the customer display shows it too); null when closed. */
  ipsShown: IpsRequestView | null;
}

export interface PaymentActions {
  /** The payment screen took a tender (see `paymentStarted`). */
  tendered(): void;
  checkout(entry: PaymentEntry): Promise<boolean>;
  refreshOrder(): Promise<void>;
  newSale(): void;
  /** Reads the printer's state again; `ask`: the printer is asked now (`print.check`, before a sale ends). */
  refreshPrinter(ask?: boolean): Promise<void>;
  /** The IPS QR code for `amountPara` (the core builds it from the shop's IPS settings). */
  ipsRequest(amountPara: Para): Promise<Result<IpsRequestView>>;
  /** Prints that code (same amount and reference) on the receipt printer. */
  ipsPrint(amountPara: Para, reference: string): Promise<Result<{ jobId: number }>>;
  /** The IPS dialog closed: the customer display stops showing its code. */
  ipsHidden(): void;
}

export function createPaymentSlice(kit: StoreKit): SliceCreator<PaymentState & PaymentActions> {
  const { api } = kit;
  return (set, get) => ({
    paymentStarted: false,
    busy: false,
    lastSale: null,
    printer: null,
    ipsShown: null,

    tendered() {
      if (!get().paymentStarted) set({ paymentStarted: true });
    },

    async checkout(entry) {
      const lines = get().lines;
      if (lines.length === 0 || get().busy) return false;
      set({ busy: true });
      try {
        const input = {
          ...toCheckoutInput(lines, entry),
          ...(kit.cart.restored && kit.cart.rev > 0 ? { cartRev: kit.cart.rev } : {}),
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
        // A refusal at a line's quantity (the shop forbids selling counted goods below zero) is shown on that line,
        // and only there (not a second time in the notice above the cart).
        let onLine = false;
        const atLine = (error: AppError): void => {
          const index = refusedLine(error);
          if (index === null || !lines[index]) return;
          const refused = { message: error.message, quantityMilli: lines[index].quantityMilli };
          const marked = get().lines.map((l, i) => (i === index ? { ...l, refused } : l));
          set({ lines: marked, selected: index, screen: 'sale' });
          onLine = true;
        };
        const went = await get().withApproval(async (approval) => {
          const r = await api['sales.checkout']({ ...input, ...(approval ? { approval } : {}) });
          if (!r.ok) atLine(r.error);
          return r;
        }, finish);
        if (onLine) set({ notice: null });
        return went;
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
        paymentStarted: false,
      });
    },

    async ipsRequest(amountPara) {
      const r = await api['ips.request']({ amount: paraToDecimal(amountPara) });
      if (r.ok) set({ ipsShown: r.value });
      return r;
    },

    ipsHidden() {
      if (get().ipsShown) set({ ipsShown: null });
    },

    ipsPrint(amountPara, reference) {
      return api['ips.print']({ amount: paraToDecimal(amountPara), reference });
    },

    async refreshPrinter(ask = false) {
      const r = await (ask ? api['print.check']({}) : api['print.status']({}));
      if (r.ok) set({ printer: r.value });
    },
  });
}
