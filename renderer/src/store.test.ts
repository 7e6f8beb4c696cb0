import { describe, expect, it, vi } from 'vitest';
import type { ScanResult } from '../../shared/contract/catalog.ts';
import { cartTotal, createPosStore, toCheckoutInput } from './store/index.ts';
import { createFakeApi, ok, type FakeHandlers } from './testing/fake-api.ts';
import type { CheckoutInput } from '../../shared/contract/index.ts';
import { BREAD, CHEESE, DEMO_RATES, INFO, MILK, SYNC, WINE_BAD_LABEL, queuedSale } from './testing/fixtures.ts';

const scans: Record<string, ScanResult> = {
  '8600000100018': { product: BREAD, kind: 'exact', quantityMilli: 1000, unitPricePara: 6500, code: '8600000100018' },
  '8600000101855': { product: MILK, kind: 'exact', quantityMilli: 1000, unitPricePara: 13999, code: '8600000101855' },
  '2001011006141': { product: CHEESE, kind: 'weight', quantityMilli: 614, unitPricePara: 89900, code: '2001011006141' },
  '2701011001019': { product: CHEESE, kind: 'price', quantityMilli: 1000, unitPricePara: 101, code: '2701011001019' },
};

function setup(extra: FakeHandlers = {}) {
  const fake = createFakeApi({
    'app.info': () => ok(INFO),
    'taxRates.get': () => ok(DEMO_RATES),
    'sync.status': () => ok(SYNC),
    'catalog.favourites': () => ok([BREAD]),
    'sales.approveDiscount': () => ok({ approved: 0, approvedBy: null }),
    'catalog.byBarcode': ({ code }) =>
      scans[code] ? ok(scans[code]) : { ok: false, error: { code: 'not_found', message: 'Није пронађено.' } },
    ...extra,
  });
  const store = createPosStore(fake.api);
  return { ...fake, store };
}

/** A started till with `codes` scanned in turn; `s` reads the store's state as it is now. */
async function scanned(codes: readonly string[], extra: FakeHandlers = {}) {
  const fake = setup(extra);
  await fake.store.getState().init();
  const s = () => fake.store.getState();
  for (const code of codes) await s().scan(code);
  return { ...fake, s };
}

describe('store', () => {
  it('loads info, tax rates, status and favourites', async () => {
    const { store } = setup();
    await store.getState().init();
    expect(store.getState()).toMatchObject({
      info: INFO,
      taxRates: DEMO_RATES,
      sync: SYNC,
      favourites: [BREAD],
      language: 'sr-Cyrl',
    });
  });

  it('adds scanned items: a repeated piece increments its line, a weighed item gets its own line', async () => {
    const { s } = await scanned([]);
    expect(await s().scan('8600000100018')).toBe(true);
    expect(await s().scan('8600000100018')).toBe(true);
    expect(await s().scan('2001011006141')).toBe(true);
    expect(s().lines.map((l) => [l.name, l.quantityMilli, l.unitPricePara])).toEqual([
      ['Хлеб бели 500 г', 2000, 6500],
      ['Сир бели крављи', 614, 89900],
    ]);
    // 2 x 65,00 + 0,614 x 899,00 = 130,00 + 551,99 (551,986 rounded)
    expect(cartTotal(s().lines)).toBe(13000 + 55199);
    expect(s().selected).toBe(1);
  });

  it('sends each scanned line with its product id, and a price sticker with its code, so the core checks the price', async () => {
    const { s } = await scanned(['8600000100018', '2701011001019']);
    const lines = toCheckoutInput(s().lines, { payments: [], invoiceType: 'normal' }).lines;
    expect(lines.map((l) => [l.productId, l.gtin, l.priceCode, l.unitPrice])).toEqual([
      [BREAD.id, '8600000100018', undefined, 65],
      [CHEESE.id, undefined, '2701011001019', 1.01],
    ]);
  });

  it('asks for the weight when a product sold by weight is picked by hand, and adds it only with one', async () => {
    const { store } = setup();
    await store.getState().init();
    expect(store.getState().addProduct(CHEESE)).toBe(true);
    // No line (no 1,000 kg in the total) while the weight is not typed.
    expect(store.getState()).toMatchObject({ dialog: 'quantity', lines: [], weighing: { product: CHEESE } });
    expect(store.getState().addWeighed(1250)).toBe(true);
    expect(store.getState()).toMatchObject({ dialog: null, weighing: null, lines: [{ quantityMilli: 1250 }] });
    expect(store.getState().selected).toBe(0);
  });

  it('Esc on the weight of a product picked by hand adds nothing', async () => {
    const { store } = setup();
    await store.getState().init();
    store.getState().addProduct(CHEESE);
    store.getState().openDialog(null);
    expect(store.getState()).toMatchObject({ dialog: null, weighing: null, lines: [] });
    expect(store.getState().addWeighed(1000)).toBe(false);
    expect(store.getState().lines).toEqual([]);
  });

  it('shows an unknown barcode and refuses a product whose label is not current', async () => {
    const { store } = setup();
    await store.getState().init();
    expect(await store.getState().scan('1234567890128')).toBe(false);
    expect(store.getState().notice).toEqual({
      kind: 'error',
      key: 'sale.unknownBarcode',
      params: { code: '1234567890128' },
    });
    expect(store.getState().addProduct(WINE_BAD_LABEL)).toBe(false);
    expect(store.getState().notice?.key).toBe('sale.labelMissing');
    expect(store.getState().lines).toEqual([]);
  });

  it('a discount the core says is beyond the limit is asked for at entry, and applies only once approved', async () => {
    const why =
      'Потребно је одобрење менаџера: попуст на целу продају је већи од дозвољених 10 %. Унесите PIN менаџера.';
    const { s, calls } = await scanned(['8600000100018', '8600000101855'], {
      'sales.approveDiscount': (input) =>
        (input as { approval?: { managerPin: string } }).approval?.managerPin === '482916'
          ? ok({ approved: 2, approvedBy: 'Мира' })
          : { ok: false, error: { code: 'forbidden', message: why, field: 'approval.managerPin' } },
    });
    await s().setSaleDiscount(2050);
    // Asked now, with the reason; the cart is unchanged until a manager approves.
    expect(s().dialog).toBe('approval');
    expect(s().approval).toMatchObject({ kind: 'command', what: why });
    expect(s().lines.map((l) => l.discountPara)).toEqual([0, 0]);
    expect(calls.filter((c) => c.name === 'sales.approveDiscount').at(-1)?.input).toMatchObject({
      scope: 'sale',
      lines: [
        { name: BREAD.name, unitPrice: 65, discount: 6.5 },
        { name: MILK.name, unitPrice: 139.99, discount: 14 },
      ],
    });
    expect(await s().approve('000000')).toBe(why);
    expect(s().lines.map((l) => l.discountPara)).toEqual([0, 0]);
    expect(await s().approve('482916')).toBeNull();
    expect(s().dialog).toBeNull();
    expect(s().lines.map((l) => l.discountPara)).toEqual([650, 1400]);
    expect(s().notice).toMatchObject({ key: 'approval.approved', params: { name: 'Мира' } });
  });

  it('edits quantity and discount (never above the line), removes lines', async () => {
    const { s } = await scanned(['8600000100018', '8600000101855']);
    s().setQuantity(0, 3000);
    await s().setDiscount(0, 100_000);
    expect(s().lines[0]).toMatchObject({ quantityMilli: 3000, discountPara: 19500 });
    await s().setDiscount(0, 500);
    expect(cartTotal(s().lines)).toBe(19500 - 500 + 13999);
    s().removeLine(0);
    expect(s().lines.map((l) => l.name)).toEqual([MILK.name]);
  });

  it('converts para and thousandths to the contract’s decimals only at checkout', () => {
    const input = toCheckoutInput(
      [
        { key: 1, name: 'Сир', unitPricePara: 89900, quantityMilli: 614, discountPara: 199, label: 'E', unit: 'kg' },
        {
          key: 2,
          productId: 7,
          name: 'Хлеб',
          unitPricePara: 6500,
          quantityMilli: 2000,
          discountPara: 0,
          label: 'E',
          unit: 'piece',
          gtin: '8600000100018',
        },
      ],
      {
        payments: [
          { type: 'card', amountPara: 30000 },
          { type: 'cash', amountPara: 50000 },
          { type: 'voucher', amountPara: 0 },
        ],
        invoiceType: 'normal',
        buyerId: '10:123456788',
      },
    );
    expect(input).toEqual({
      lines: [
        { name: 'Сир', quantity: 0.614, unitPrice: 899, labels: ['E'], discount: 1.99 },
        // The catalog product by its id (its price is checked by the core, barcode or not); no cashier is sent.
        { name: 'Хлеб', quantity: 2, unitPrice: 65, labels: ['E'], gtin: '8600000100018', productId: 7 },
      ],
      payments: [
        { type: 'card', amount: 300 },
        { type: 'cash', amount: 500 },
      ],
      invoiceType: 'normal',
      buyerId: '10:123456788',
    });
  });

  it('checks out, shows the queued order and refreshes it when order.updated says fiscalized', async () => {
    let state: 'queued' | 'fiscalized' = 'queued';
    const { store, emit, calls } = setup({
      ...queuedSale({ totalPara: 6500, changePara: 3500 }, [], () => ({ state })),
    });
    await store.getState().init();
    await store.getState().scan('8600000100018');
    expect(
      await store.getState().checkout({ payments: [{ type: 'cash', amountPara: 10000 }], invoiceType: 'normal' }),
    ).toBe(true);
    expect(store.getState()).toMatchObject({
      screen: 'receipt',
      lines: [],
      lastSale: { paidPara: 10000, order: { state: 'queued' } },
    });
    state = 'fiscalized';
    emit('order.updated', { orderId: 99, orderNumber: 'other', state: 'fiscalized' });
    expect(calls.filter((c) => c.name === 'orders.get')).toHaveLength(1);
    emit('order.updated', { orderId: 7, orderNumber: 'T1-7', state: 'fiscalized' });
    await vi.waitFor(() => expect(store.getState().lastSale?.order?.state).toBe('fiscalized'));
    store.getState().newSale();
    expect(store.getState()).toMatchObject({ screen: 'sale', lastSale: null });
  });

  it('parks the cart and resumes it', async () => {
    let parkedCart: unknown = null;
    const { store } = setup({
      'parked.save': ({ cart, name }) => {
        parkedCart = cart;
        return ok({
          id: 3,
          createdAt: '2025-03-01T10:00:00Z',
          name: name ?? null,
          lines: cart.lines.length,
          totalPara: 6500,
        });
      },
      'parked.take': ({ id }) =>
        ok({
          id,
          createdAt: '2025-03-01T10:00:00Z',
          name: 'Петар',
          lines: 1,
          totalPara: 6500,
          cart: parkedCart as never,
        }),
    });
    await store.getState().init();
    await store.getState().scan('8600000100018');
    expect(await store.getState().park('Петар')).toBe(true);
    expect(store.getState().lines).toEqual([]);
    expect(parkedCart).toEqual({
      lines: [
        {
          productId: 1,
          name: BREAD.name,
          unitPricePara: 6500,
          quantityMilli: 1000,
          discountPara: 0,
          label: 'E',
          unit: 'piece',
          gtin: '8600000100018',
        },
      ],
    });
    expect(await store.getState().resume(3)).toBe(true);
    expect(store.getState().lines.map((l) => l.name)).toEqual([BREAD.name]);
  });

  it('ignores stale search answers', async () => {
    const pending: ((v: ReturnType<typeof ok<(typeof BREAD)[]>>) => void)[] = [];
    const { store } = setup({
      'catalog.search': () => new Promise((resolve) => pending.push(resolve)),
    });
    const first = store.getState().setQuery('m');
    const second = store.getState().setQuery('ml');
    pending[1]?.(ok([MILK]));
    await second;
    pending[0]?.(ok([BREAD]));
    await first;
    expect(store.getState()).toMatchObject({ query: 'ml', resultsFor: 'ml', results: [MILK] });
  });
});

describe('the open cart kept in the core', () => {
  const ANA = { id: 2, name: 'Ана', role: 'cashier' as const, active: true, mustChangePin: false };
  const SAVED = {
    name: 'Сир',
    unitPricePara: 89900,
    quantityMilli: 614,
    discountPara: 0,
    label: 'E',
    unit: 'kg' as const,
  };

  it('comes back at login after a crash, and every change is saved with a growing revision', async () => {
    const saves: { rev: number; lines: unknown[] }[] = [];
    const { store } = setup({
      'staff.login': () => ok(ANA),
      'cart.get': () => ok({ rev: 41, lines: [SAVED], cashier: 'Ана', updatedAt: '2026-11-25T09:00:00.000Z' }),
      'cart.save': (input) => {
        saves.push(input);
        return ok({ rev: input.rev, saved: true });
      },
    });
    await store.getState().init();
    expect(await store.getState().login('1111')).toBeNull();
    expect(store.getState().lines).toMatchObject([SAVED]);
    expect(store.getState().notice).toEqual({ kind: 'info', key: 'sale.cartRestored', params: { count: 1 } });
    await store.getState().scan('8600000100018');
    expect(saves.map((s) => s.rev)).toEqual([42, 43]);
    expect(saves.at(-1)?.lines).toHaveLength(2);
    expect(saves.at(-1)?.lines.every((l) => !('key' in (l as object)))).toBe(true);
  });

  it('the checkout sends the revision it sells; nothing is saved before the saved cart was read', async () => {
    const saves: number[] = [];
    const checkouts: CheckoutInput[] = [];
    const { store } = setup({
      'staff.login': () => ok(ANA),
      'cart.get': () => ok({ rev: 0, lines: [], cashier: null, updatedAt: null }),
      'cart.save': (input) => {
        saves.push(input.rev);
        return ok({ rev: input.rev, saved: true });
      },
      ...queuedSale({ totalPara: 6500, changePara: 0, orderId: 1, orderNumber: 'T1-1' }, checkouts),
    });
    await store.getState().init();
    await store.getState().scan('8600000100018'); // before login: the saved cart is not known yet
    expect(saves).toEqual([]);
    store.setState({ lines: [] });
    await store.getState().login('1111');
    await store.getState().scan('8600000100018');
    expect(saves).toEqual([1]);
    await store.getState().checkout({ payments: [{ type: 'cash', amountPara: 6500 }], invoiceType: 'normal' });
    expect(checkouts[0]).toMatchObject({ cartRev: 1 });
    expect(saves).toEqual([1, 2]); // the emptied cart after the sale
  });
});

describe('the counter follows the core (issue 38)', () => {
  const ANA = { id: 2, name: 'Ана', role: 'cashier' as const, active: true, mustChangePin: false };
  const empty = () => ok({ rev: 0, lines: [], cashier: null, updatedAt: null });

  it('a catalog change moves quick keys and catalog-priced lines to the new price, not a manager-set one', async () => {
    let price = 6500;
    const saves: unknown[][] = [];
    const { store, emit } = setup({
      'staff.login': () => ok(ANA),
      'cart.get': empty,
      'cart.save': (input) => {
        saves.push(input.lines);
        return ok({ rev: input.rev, saved: true });
      },
      'catalog.favourites': () => ok([{ ...BREAD, pricePara: price }]),
      'catalog.byIds': ({ ids }) =>
        ok(
          [
            { ...BREAD, pricePara: price },
            { ...MILK, pricePara: 15000 },
          ].filter((p) => ids.includes(p.id)),
        ),
      'staff.approve': () => ok({ approvedBy: 'Менаџер' }),
    });
    await store.getState().init();
    await store.getState().login('1111');
    const s = () => store.getState();
    await s().scan('8600000100018');
    await s().scan('2701011001019'); // a price sticker: its own price stays
    await s().scan('8600000101855');
    s().setPrice(2, 12000); // the milk at a manager's price
    price = 7000;
    emit('catalog.changed', { products: 3 });
    await vi.waitFor(() => expect(s().lines[0]?.unitPricePara).toBe(7000));
    expect(s().favourites.map((p) => p.pricePara)).toEqual([7000]);
    expect(s().lines.map((l) => [l.unitPricePara, l.priceWas])).toEqual([
      [7000, 6500],
      [101, undefined],
      [12000, undefined],
    ]);
    expect(s().notice).toMatchObject({ key: 'sale.priceFollowed', params: { was: '65,00', now: '70,00' } });
    // The marks are the counter's own: the core's strict cart schema never sees them.
    expect(saves.at(-1)?.some((l) => 'priceWas' in (l as object) || 'priceSet' in (l as object))).toBe(false);
    // The checkout sends the catalog's price: nothing for the core's guard to ask a PIN for.
    expect(toCheckoutInput(s().lines, { payments: [], invoiceType: 'normal' }).lines[0]?.unitPrice).toBe(70);
  });

  it('two prices changed in one catalog change are named by one notice that counts them', async () => {
    let bread = 6500;
    let milk = MILK.pricePara;
    const { store, emit } = setup({
      'staff.login': () => ok(ANA),
      'cart.get': empty,
      'catalog.favourites': () => ok([]),
      'catalog.byIds': ({ ids }) =>
        ok(
          [
            { ...BREAD, pricePara: bread },
            { ...MILK, pricePara: milk },
          ].filter((p) => ids.includes(p.id)),
        ),
    });
    await store.getState().init();
    await store.getState().login('1111');
    const s = () => store.getState();
    await s().scan('8600000100018');
    await s().scan('8600000101855');
    bread = 7000;
    milk = 15500;
    emit('catalog.changed', { products: 2 });
    await vi.waitFor(() => expect(s().lines[1]?.unitPricePara).toBe(15500));
    expect(s().lines.map((l) => [l.unitPricePara, l.priceWas])).toEqual([
      [7000, 6500],
      [15500, 13999],
    ]);
    expect(s().notice).toMatchObject({
      key: 'sale.pricesFollowed',
      params: { count: 2, was: '65,00', now: '70,00' },
    });
  });

  it('a session the core ended returns to the login and keeps the cart for the next person', async () => {
    const { store, emit } = setup({ 'staff.login': () => ok(ANA), 'cart.get': empty });
    await store.getState().init();
    await store.getState().login('1111');
    await store.getState().scan('8600000100018');
    store.setState({ managerTab: 'staff', dialog: 'discount' });
    emit('session.ended', { name: 'Ана', reason: 'deactivated' });
    expect(store.getState()).toMatchObject({
      cashier: null,
      managerTab: null,
      dialog: null,
      sessionEnded: { name: 'Ана', lines: 1 },
    });
    expect(store.getState().lines).toHaveLength(1);
    await store.getState().login('2222');
    expect(store.getState()).toMatchObject({ cashier: ANA, sessionEnded: null });
    expect(store.getState().lines).toHaveLength(1);
  });
});

describe('F1 after the core ended the session unseen', () => {
  it('returns to the login with the cart kept when parking is refused for want of a session', async () => {
    const ANA = { id: 2, name: 'Ана', role: 'cashier' as const, active: true, mustChangePin: false };
    let session = true;
    const forbidden = { ok: false as const, error: { code: 'forbidden' as const, message: 'Приступ одбијен.' } };
    const { store } = setup({
      'staff.login': () => ok(ANA),
      'cart.get': () => (session ? ok({ rev: 0, lines: [], cashier: null, updatedAt: null }) : forbidden),
      'parked.save': () => forbidden,
    });
    await store.getState().init();
    await store.getState().login('1111');
    await store.getState().scan('8600000100018');
    session = false;
    await store.getState().logout();
    expect(store.getState().cashier).toBeNull();
    expect(store.getState().lines).toHaveLength(1);
  });
});
