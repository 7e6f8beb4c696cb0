/** Sample data for renderer tests. */
import type { ProductView } from '../../../shared/contract/catalog.ts';
import { UNKNOWN_CONDITION, type PrintStatus, type PrinterCondition } from '../../../shared/contract/printer.ts';
import type { AppInfo, OrderView, SyncStatus, TaxRatesView } from '../../../shared/domain.ts';
import type { CheckoutInput } from '../../../shared/contract/index.ts';
import { ok, type FakeHandlers } from './fake-api.ts';

export const DEMO_RATES: TaxRatesView = {
  groupId: 6,
  validFrom: '2024-01-01T00:00:00Z',
  fetchedAt: '2025-03-01T10:00:00Z',
  labels: [
    { label: 'Ж', rate: 19, categoryName: 'ECAL', categoryType: 0 },
    { label: 'A', rate: 10, categoryName: 'STT', categoryType: 0 },
    { label: 'E', rate: 6, categoryName: 'N-TAX', categoryType: 0 },
    { label: 'F', rate: 11, categoryName: 'PBL', categoryType: 0 },
  ],
};

export const INFO: AppInfo = {
  version: '0.1.0',
  mode: 'demo',
  demoAccount: true,
  language: 'sr-Cyrl',
  terminalId: 'T1',
  trainingMode: false,
  transport: 'host',
  firstRun: false,
};

export const SYNC: SyncStatus = {
  online: true,
  paused: null,
  queued: 0,
  needsAttention: 0,
  oldestQueuedAt: null,
  lastSuccessAt: null,
  lastError: null,
};

export function product(over: Partial<ProductView> = {}): ProductView {
  return {
    id: 1,
    code: '1001',
    name: 'Хлеб бели 500 г',
    barcodes: ['8600000100018'],
    pricePara: 6500,
    label: 'E',
    unit: 'piece',
    group: null,
    favourite: false,
    labelMissing: false,
    ...over,
  };
}

export const BREAD = product();
export const MILK = product({
  id: 2,
  code: '1006',
  name: 'Млеко 2,8% 1 л',
  barcodes: ['8600000101855'],
  pricePara: 13999,
});
export const CHEESE = product({
  id: 3,
  code: '1011',
  name: 'Сир бели крављи',
  barcodes: [],
  pricePara: 89900,
  unit: 'kg',
});
export const WINE_BAD_LABEL = product({
  id: 4,
  code: '2001',
  name: 'Вино',
  barcodes: ['96385074'],
  label: 'Ђ',
  labelMissing: true,
});

export function order(over: Partial<OrderView> = {}): OrderView {
  return {
    orderId: 7,
    orderNumber: 'T1-20250301-0007',
    kind: 'sale',
    invoiceType: 'normal',
    transactionType: 'sale',
    state: 'queued',
    createdAt: '2025-03-01T10:00:00Z',
    totalPara: 0,
    changePara: 0,
    lines: [],
    payments: [],
    attempts: 0,
    unknown: false,
    ...over,
  };
}

/**
 * The core's answers to a sale the till checks out: `sales.checkout` takes it as queued (each input kept in
 * `checkouts`, for the test to read what the till sent) and `orders.get` reads the order back with the same total
 * and change, and with what `read` says at the time of the read (a state the test moves on, a receipt).
 */
export function queuedSale(
  sale: { totalPara: number; changePara: number; orderId?: number; orderNumber?: string },
  checkouts: CheckoutInput[] = [],
  read: () => Partial<OrderView> = () => ({}),
): Required<Pick<FakeHandlers, 'sales.checkout' | 'orders.get'>> {
  const { totalPara, changePara } = sale;
  return {
    'sales.checkout': (input) => {
      checkouts.push(input as CheckoutInput);
      const number = { orderId: sale.orderId ?? 7, orderNumber: sale.orderNumber ?? 'T1-7' };
      return ok({ ...number, state: 'queued', totalPara, changePara });
    },
    'orders.get': () => ok(order({ state: 'queued', totalPara, changePara, ...read() })),
  };
}

/**
 * A printer that answered its status query at `checkedAt` with nothing wrong: online, paper in, cover and drawer
 * shut.
 */
export function printerFine(checkedAt: string): PrinterCondition {
  return {
    source: 'printer',
    online: true,
    paper: 'ok',
    coverOpen: false,
    drawerOpen: false,
    error: 'none',
    checkedAt,
  };
}

/** A printer set and ready, nothing waiting; `over` changes what a test needs. */
export function printStatus(over: Partial<PrintStatus> = {}): PrintStatus {
  return {
    state: 'idle',
    printer: UNKNOWN_CONDITION,
    confirm: null,
    held: 0,
    configured: true,
    uri: 'tcp://192.168.1.50:9100',
    uriSource: 'settings',
    profileId: 'epson-tm-t88v',
    autoPrint: true,
    header: '',
    footer: '',
    queued: 0,
    failed: 0,
    jobId: null,
    lastError: null,
    lastPrintedAt: null,
    ...over,
  };
}
