/**
 * The authorization table (shared/contract/authz.ts) covers every command of the contract, exactly, with
 * the rule the issue asks for. A command added without a rule fails here (and in the typecheck).
 */
import { describe, expect, it } from 'vitest';
import { AUTHZ, escalation, type EscalationContext } from '../../shared/contract/authz.ts';
import { COMMAND_NAMES, commands } from '../../shared/contract/index.ts';

const EXPECTED: Record<string, string> = {
  'app.info': 'public',
  'taxRates.get': 'public',
  'sync.status': 'public',
  'print.status': 'public',
  'settings.get': 'public',
  'staff.login': 'public',
  'staff.logout': 'public',
  'staff.changePin': 'public',
  'sales.checkout': 'session',
  'orders.get': 'session',
  'orders.list': 'session',
  'orders.resend': 'session',
  'retries.list': 'session',
  'retries.resume': 'session',
  'sync.now': 'session',
  'catalog.search': 'session',
  'catalog.byBarcode': 'session',
  'catalog.byIds': 'session',
  'catalog.favourites': 'session',
  'catalog.stats': 'session',
  'catalog.import': 'session',
  'catalog.barcodeRules': 'session',
  'catalog.list': 'session',
  'catalog.groups': 'session',
  'catalog.bulkPrice': 'session',
  'catalog.export': 'session',
  'parked.save': 'session',
  'parked.list': 'session',
  'parked.take': 'session',
  'parked.delete': 'session',
  'parked.remote': 'session',
  'parked.takeRemote': 'session',
  'print.receipt': 'session',
  'print.test': 'session',
  'print.reprintLast': 'session',
  'printer.profiles': 'session',
  'staff.list': 'session',
  'staff.approve': 'session',
  'refunds.source': 'session',
  'advances.list': 'session',
  'advances.finalize': 'session',
  'advances.add': 'session',
  'emails.list': 'session',
  'emails.send': 'session',
  'archive.search': 'session',
  'archive.get': 'session',
  'archive.lookup': 'session',
  'settings.verifyApiKey': 'session',
  // The L-PFR as this till sees it (the PIN never returned); setting it up is a manager's.
  'settings.lpfr': 'session',
  'reports.summary': 'session',
  'reports.csv': 'session',
  'reports.receiptsCsv': 'session',
  'reports.print': 'session',
  'print.check': 'session',
  'print.confirm': 'session',
  'printer.installed': 'session',
  'cart.get': 'session',
  'cart.save': 'session',
  'ips.request': 'session',
  'ips.print': 'session',
  'sales.approveDiscount': 'session',
  'shifts.current': 'session',
  'shifts.open': 'session',
  'shifts.print': 'session',
  'shifts.cash': 'approval',
  'shifts.close': 'approval',
  'refunds.create': 'approval',
  'orders.reissue': 'approval',
  'orders.lpfrNotSigned': 'approval',
  'copies.create': 'approval',
  'orders.fixLabels': 'approval',
  'catalog.loadSample': 'approval',
  'catalog.put': 'approval',
  // Goods (docs/goods.md): a cashier reads stock and the books; a manager's PIN posts and edits.
  'suppliers.list': 'session',
  'suppliers.put': 'manager',
  'goods.receipts': 'session',
  'goods.receipt': 'session',
  'goods.receiptSave': 'manager',
  'goods.receiptPost': 'manager',
  'goods.receiptReverse': 'manager',
  'goods.writeOff': 'manager',
  'goods.writeOffs': 'session',
  'goods.stock': 'session',
  'goods.priceChanges': 'session',
  'goods.kep': 'session',
  // E-invoices through SEF (docs/sef.md): issuing, cancelling, the key and incoming invoices are a manager's.
  'sef.issue': 'manager',
  'sef.list': 'manager',
  'sef.forOrder': 'manager',
  'sef.retry': 'manager',
  'sef.cancel': 'manager',
  'sef.settings': 'manager',
  'sef.saveSettings': 'manager',
  'sef.incoming': 'manager',
  // Part 2: A4 documents and the reorder list are reads; a cashier counts, a manager starts, posts and cancels.
  'goods.kepPdf': 'session',
  'goods.receiptLinesCsv': 'session',
  'goods.receiptPdf': 'session',
  'goods.priceChangePdf': 'session',
  'goods.writeOffPdf': 'session',
  'goods.countStart': 'manager',
  'goods.counts': 'session',
  'goods.count': 'session',
  'goods.countEnter': 'session',
  'goods.countImport': 'session',
  'goods.countPost': 'manager',
  'goods.countCancel': 'manager',
  'goods.countPdf': 'session',
  'goods.minimumSet': 'manager',
  'goods.reorder': 'session',
  'goods.reorderPdf': 'session',
  // Prices (docs/prices.md): everyone reads them and prices a cart by them; a manager sets them.
  'prices.overview': 'session',
  'prices.quote': 'session',
  'prices.listPut': 'manager',
  'prices.listDelete': 'manager',
  'prices.promotionPut': 'manager',
  'prices.promotionDelete': 'manager',
  'prices.schedule': 'manager',
  'prices.scheduleCancel': 'manager',
  // Shelf labels (docs/prices.md, "Shelf labels"): a manager's work.
  'labels.overview': 'manager',
  'labels.preview': 'manager',
  'labels.print': 'manager',
  'labels.pdf': 'manager',
  'labels.printerSet': 'manager',
  'labels.productSet': 'manager',
  'catalog.remove': 'approval',
  'printer.configure': 'approval',
  'staff.create': 'manager',
  'staff.update': 'manager',
  'settings.update': 'manager',
  'settings.setApiKey': 'manager',
  'settings.setLpfr': 'manager',
  'settings.setEsir': 'manager',
  'backups.list': 'manager',
  'backups.restore': 'manager',
  'backups.create': 'manager',
  'backups.copy': 'manager',
  'audit.list': 'manager',
  'print.held': 'manager',
  'print.lateReceipt': 'session',
  'print.lateReceipts': 'session',
  'print.resolveHeld': 'manager',
  'shifts.list': 'manager',
  // The hub link is seen by whoever is logged in; enrolling the till takes a manager's PIN.
  'hub.status': 'session',
  'hub.enrol': 'manager',
  // Pinning another certificate of the hub is as sensitive as enrolling (#25).
  'hub.repin': 'manager',
  'hub.catalogChoice': 'manager',
  // A manager's session asks; the approval is a manager's PIN at the hub, which the hub checks itself (#25).
  'hub.staffChoice': 'session',
  // The bookkeeper's exports (docs/exports.md): a manager's.
  'exports.build': 'manager',
  'exports.file': 'manager',
  'exports.accounts': 'manager',
  'exports.saveAccounts': 'manager',
  'exports.schedule': 'manager',
  'exports.saveSchedule': 'manager',
  // The customer display (docs/payments.md): the counter fills it; a manager makes and revokes the tablets' tokens.
  'display.show': 'session',
  'display.tokens': 'manager',
  'display.tokenCreate': 'manager',
  'display.tokenRevoke': 'manager',
  // The shop's stock as the store hub keeps it: whoever is logged in sees it at the counter.
  'goods.hubStock': 'session',
  // The monthly export by e-mail to the bookkeeper (docs/exports.md): a manager's.
  'exports.mail': 'manager',
  'exports.saveMail': 'manager',
  'exports.sendNow': 'manager',
  'hub.goodsOpening': 'manager',
  // Receipts and counts a till enrolled at a hub enters for the shop's book (docs/goods.md): a manager saves a
  // receipt draft; posting it carries a hub manager's PIN the hub checks; whoever is logged in may count.
  'hubGoods.receipts': 'session',
  'hubGoods.receiptSave': 'manager',
  'hubGoods.receiptPost': 'session',
  'hubGoods.counts': 'session',
  'hubGoods.countEnter': 'session',
};

describe('authorization table', () => {
  it('has exactly one rule for every command of the contract', () => {
    for (const name of COMMAND_NAMES)
      expect(AUTHZ[name], `${name} has no rule`).toMatch(/^(public|session|manager|approval)$/);
    expect(Object.keys(AUTHZ).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('gives every command the rule the issue asks for', () => {
    expect({ ...AUTHZ }).toEqual(EXPECTED);
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(commands).sort());
  });

  it('escalates a checkout by its input: training off refused, big discount or price override approved', () => {
    const ctx: EscalationContext = {
      trainingMode: false,
      discountLimitPercent: 10,
      // Product 7 (barcode 8600000100018) at 65,00; product 9 is not in the catalog any more.
      catalogPrices: (l) => [
        ...(l.productId === 7 ? [6500] : l.productId !== undefined ? ['unknown' as const] : []),
        ...(l.gtin === '8600000100018' ? [6500] : []),
      ],
    };
    const sale = (line: Record<string, unknown>, invoiceType?: string) =>
      commands['sales.checkout'].input.parse({
        lines: [{ name: 'x', quantity: 2, unitPrice: 65, labels: ['A'], ...line }],
        payments: [{ type: 'cash', amount: 1 }],
        ...(invoiceType ? { invoiceType } : {}),
      });
    expect(escalation('sales.checkout', sale({}), ctx)).toBeNull();
    expect(escalation('sales.checkout', sale({}, 'training'), ctx)).toEqual({
      kind: 'refuse',
      key: 'training_off',
      field: 'invoiceType',
    });
    expect(escalation('sales.checkout', sale({}, 'training'), { ...ctx, trainingMode: true })).toBeNull();
    expect(escalation('sales.checkout', sale({ discount: 13 }), ctx)).toBeNull(); // 10 % of 130
    expect(escalation('sales.checkout', sale({ discount: 13.01 }), ctx)).toEqual({
      kind: 'approval',
      reason: 'lines.0.discount',
    });
    expect(escalation('sales.checkout', sale({ gtin: '8600000100018' }), ctx)).toBeNull();
    expect(escalation('sales.checkout', sale({ gtin: '8600000100018', unitPrice: 1 }), ctx)).toEqual({
      kind: 'approval',
      reason: 'lines.0.unitPrice',
    });
    // Named by its id, without a barcode: another price needs a manager all the same; a hand-typed item does not.
    expect(escalation('sales.checkout', sale({ productId: 7 }), ctx)).toBeNull();
    expect(escalation('sales.checkout', sale({ productId: 7, unitPrice: 1 }), ctx)).toEqual({
      kind: 'approval',
      reason: 'lines.0.unitPrice',
    });
    expect(escalation('sales.checkout', sale({ productId: 9 }), ctx)).toEqual({
      kind: 'approval',
      reason: 'lines.0.unitPrice',
    });
    expect(escalation('sales.checkout', sale({ unitPrice: 1 }), ctx)).toBeNull();
    const further = { orderId: 1, payments: [{ type: 'cash', amount: 0.02 }] };
    const line = { name: 'x', quantity: 2, labels: ['A'], productId: 7 };
    expect(escalation('advances.add', { ...further, lines: [{ ...line, unitPrice: 0.01 }] }, ctx)).toEqual({
      kind: 'approval',
      reason: 'lines.0.unitPrice',
    });
    expect(escalation('advances.finalize', { orderId: 1, lines: [{ ...line, unitPrice: 65 }] }, ctx)).toBeNull();
    expect(escalation('catalog.import', { csv: '', dryRun: true }, ctx)).toBeNull();
    expect(escalation('catalog.import', { csv: '' }, ctx)).toEqual({ kind: 'approval', reason: 'catalog.import' });
    expect(escalation('catalog.barcodeRules', {}, ctx)).toBeNull();
    expect(escalation('catalog.bulkPrice', { group: 'Пиће', percentBp: 500, dryRun: true }, ctx)).toBeNull();
    expect(escalation('catalog.bulkPrice', { group: 'Пиће', percentBp: 500 }, ctx)).toEqual({
      kind: 'approval',
      reason: 'catalog.bulkPrice',
    });
    expect(escalation('emails.send', { orderId: 1, email: 'a@b.rs' }, ctx)).toBeNull();
    expect(escalation('emails.send', { invoiceNumber: 'AB-CD-1', email: 'a@b.rs' }, ctx)).toEqual({
      kind: 'approval',
      reason: 'invoiceNumber',
    });
    expect(escalation('catalog.barcodeRules', { rules: [] }, ctx)).toEqual({ kind: 'approval', reason: 'rules' });
  });
});
