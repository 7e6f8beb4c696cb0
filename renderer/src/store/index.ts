/**
 * The counter's state (zustand): one store composed of per-area slices, each owning its fields and actions.
 * - `session.ts`: app info, language, the cashier logged in, the shift, `init` and the core's events;
 * - `counter.ts`: the cart, search and scans, dialogs and notices (`parked.ts`: parked carts);
 * - `payment.ts`: the tender, the checkout, the last sale and the printer;
 * - `manager.ts`: manager tabs, approvals by a manager's PIN, settings the counter reads, catalog import.
 * All money is integer para, all quantities integer thousandths; decimals exist only in `cart.ts`.
 * Every call to the core goes through the injected `PosApi`; events arrive through `subscribe`.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { PosApi } from '../../../shared/contract/index.ts';
import type { Language } from '../../../shared/domain.ts';
import { applyRules, storedLine, type CartLine } from './cart.ts';
import { milliToDecimal } from '../../../shared/money.ts';
import { createCounterSlice, type CounterActions, type CounterState } from './counter.ts';
import { createKit, type UiStorage } from './kit.ts';
import { createManagerSlice, type ManagerActions, type ManagerState } from './manager.ts';
import { createParkedSlice, type ParkedActions, type ParkedState } from './parked.ts';
import { createPaymentSlice, type PaymentActions, type PaymentState } from './payment.ts';
import { createSessionSlice, type SessionActions, type SessionState } from './session.ts';
import { displayInput } from './display.ts';

export { needsShift } from './session.ts';

export { cartTotal, currentLabels, shareOut, toCheckoutInput, toCheckoutLine, type CartLine } from './cart.ts';
export { DIGIT_SEARCH_DELAY_MS, type Dialog, type Screen } from './counter.ts';
export { errorNotice, LANGUAGE_KEY, type Notice, type UiStorage } from './kit.ts';
export type { Approval, OutageThresholds } from './manager.ts';
export type { LastSale, PaymentEntry } from './payment.ts';

export type PosState = SessionState & CounterState & ParkedState & PaymentState & ManagerState;
export type PosActions = SessionActions & CounterActions & ParkedActions & PaymentActions & ManagerActions;
export type PosStore = StoreApi<PosState & PosActions>;

/** Creates the store over a transport. */
export function createPosStore(api: PosApi, initialLanguage?: Language, storage?: UiStorage): PosStore {
  const kit = createKit(api, storage);
  const store = createStore<PosState & PosActions>()((...a) => ({
    ...createSessionSlice(kit, initialLanguage)(...a),
    ...createCounterSlice(kit)(...a),
    ...createParkedSlice(kit)(...a),
    ...createPaymentSlice(kit)(...a),
    ...createManagerSlice(kit)(...a),
  }));
  // Every change of the cart's lines is saved in the core (once the saved cart was read back at login).
  // Every change of the cart's lines, and of the sale's buyer, is priced by the price lists and promotions in force
  // for that buyer (docs/prices.md): the answer applies only to the lines it was asked for, unchanged since, while
  // the buyer is the same. An emptied cart forgets its buyer.
  store.subscribe((state, prev) => {
    if (state.lines.length === 0 && state.saleBuyerId !== null) {
      store.setState({ saleBuyerId: null });
      return;
    }
    if ((state.lines === prev.lines && state.saleBuyerId === prev.saleBuyerId) || !state.cashier) return;
    const { lines, saleBuyerId } = state;
    const asked = lines.flatMap((l, i) => (l.productId !== undefined && !l.priceCode && !l.priceSet ? [i] : []));
    if (asked.length === 0) return;
    void api['prices.quote']({
      lines: asked.map((i) => {
        const l = lines[i] as CartLine;
        return { productId: l.productId as number, quantity: milliToDecimal(l.quantityMilli) };
      }),
      ...(saleBuyerId ? { buyerId: saleBuyerId } : {}),
    }).then((r) => {
      const now = store.getState();
      if (!r.ok || now.lines !== lines || now.saleBuyerId !== saleBuyerId) return;
      const next = applyRules(lines, asked, r.value);
      if (next) store.setState({ lines: next });
    });
  });
  // The customer display follows what the customer would see (docs/payments.md, "The customer display"): sent when
  // it changes, while someone is logged in (the core refuses it otherwise).
  let shown = '';
  store.subscribe((state, prev) => {
    const moved =
      state.lines !== prev.lines ||
      state.screen !== prev.screen ||
      state.lastSale !== prev.lastSale ||
      state.ipsShown !== prev.ipsShown ||
      state.cashier !== prev.cashier;
    if (!moved || !state.cashier) return;
    const input = displayInput(state);
    const text = JSON.stringify(input);
    if (text === shown) return;
    shown = text;
    void api['display.show'](input);
  });
  store.subscribe((state, prev) => {
    if (!kit.cart.restored || state.lines === prev.lines) return;
    kit.cart.rev += 1;
    void api['cart.save']({ rev: kit.cart.rev, lines: state.lines.map(storedLine) });
  });
  return store;
}
