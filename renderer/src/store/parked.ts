/**
 * The parked-sales slice, part of the counter: carts set aside on this till (`parked.*`) and on the shop's
 * other tills (gateway drafts), and taking one back into the cart.
 */
import type { ParkedCart, ParkedSaleSummary, RemoteParkedSale } from '../../../shared/contract/catalog.ts';
import { storedLine } from './cart.ts';
import { appendResumed } from './counter.ts';
import { unwrapInto, type SliceCreator, type StoreKit } from './kit.ts';

export interface ParkedState {
  parked: ParkedSaleSummary[];
  /** Carts parked on the shop's other tills (gateway drafts); null until asked. */
  remoteParked: { online: boolean; sales: RemoteParkedSale[] } | null;
}

export interface ParkedActions {
  park(name?: string): Promise<boolean>;
  loadParked(): Promise<void>;
  /**
   * Takes a parked cart back into the cart. Two customers' carts are never merged: with a cart open, nothing
   * happens unless `parkCurrent` says to park the open cart first (the dialog asks the cashier).
   */
  resume(id: number, parkCurrent?: boolean): Promise<boolean>;
  loadRemoteParked(): Promise<void>;
  /** Takes another till's parked cart (at most one till gets it); an open cart as for `resume`. */
  resumeRemote(draftId: number, parkCurrent?: boolean): Promise<boolean>;
  deleteParked(id: number): Promise<void>;
}

export function createParkedSlice(kit: StoreKit): SliceCreator<ParkedState & ParkedActions> {
  const { api } = kit;
  return (set, get) => {
    const unwrap = unwrapInto(set);
    /**
     * Makes room for a resumed cart: true when the cart is empty, or once the open cart is parked (unnamed) if
     * the cashier chose that. It used to append the resumed lines to the open ones, one customer's sale
     * silently merged into another's.
     */
    const clearForResume = async (parkCurrent: boolean | undefined): Promise<boolean> => {
      if (get().lines.length === 0) return true;
      if (!parkCurrent) return false;
      return get().park();
    };
    /**
     * Takes a parked cart into the sale: room made first (`clearForResume`), then `take` asks for the cart (null:
     * refused, said already) and its lines are appended.
     */
    const takeInto = async (
      parkCurrent: boolean | undefined,
      take: () => Promise<{ cart: ParkedCart } | null>,
    ): Promise<boolean> => {
      if (!(await clearForResume(parkCurrent))) return false;
      const r = await take();
      if (!r) return false;
      appendResumed(kit, set, get, r.cart);
      return true;
    };
    return {
      parked: [],
      remoteParked: null,

      async park(name) {
        const lines = get().lines;
        if (lines.length === 0) return false;
        const cart: ParkedCart = {
          lines: lines.map(storedLine),
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

      async resume(id, parkCurrent) {
        const taken = await takeInto(parkCurrent, async () => unwrap(await api['parked.take']({ id })));
        if (taken) set({ parked: get().parked.filter((p) => p.id !== id) });
        return taken;
      },

      async loadRemoteParked() {
        const r = unwrap(await api['parked.remote']({}));
        if (r) set({ remoteParked: r });
      },

      resumeRemote(draftId, parkCurrent) {
        return takeInto(parkCurrent, async () => {
          const r = unwrap(await api['parked.takeRemote']({ draftId }));
          // The draft leaves the list whether this till took it or was refused (at most one till gets it).
          const remote = get().remoteParked;
          if (remote) set({ remoteParked: { ...remote, sales: remote.sales.filter((x) => x.draftId !== draftId) } });
          return r;
        });
      },

      async deleteParked(id) {
        if (unwrap(await api['parked.delete']({ id }))) set({ parked: get().parked.filter((p) => p.id !== id) });
      },
    };
  };
}
