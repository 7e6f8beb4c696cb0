/** The counter: the checkout, the tax rates it prices with, and the app's state (owned by electron/sales). */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import type { AppInfo, OrderState, Processor, TaxRatesView, ReceiptView } from '../domain.ts';
import { ParkedLine } from './catalog.ts';
import { ipsReference } from '../payments/ips-qr.ts';

/** An open cart's revision (`cart.save`): what a save stores and what a sale names to close it. */
const cartRev = z.number({ error: 'number' }).int({ error: 'integer' }).positive({ error: 'positive' });

export const CheckoutLine = z.strictObject({
  name: s.text(100),
  quantity: s.quantity,
  unitPrice: s.nonNegativeAmount,
  labels: z.array(s.labelCode, { error: 'labels' }).min(1, { error: 'labels' }).max(5, { error: 'too_many' }),
  gtin: s.gtin.optional(),
  /**
   * The catalog product this line sells (`catalog.*` ids). A line that names a product (by this id or by its
   * barcode `gtin`) at a price other than the catalog's needs a manager's approval; a line naming none is a
   * hand-typed item, sold at the price typed and kept marked as such (`OrderLine.handTyped`).
   */
  productId: s.id.optional(),
  /**
   * The in-store price barcode (EAN-13, prefix 20–29) the line was scanned by: the price it carries is the
   * product's price for this line. Only checked by the core, never sent to the gateway.
   */
  priceCode: s.gtin.optional(),
  /** Line discount in RSD, taken off the line total. */
  discount: s.nonNegativeAmount.optional(),
});

export const CheckoutInput = z.strictObject({
  lines: z.array(CheckoutLine, { error: 'lines' }).min(1, { error: 'lines' }).max(500, { error: 'too_many' }),
  /**
   * Payments in RSD. Cash may exceed what is due: the excess is change, computed locally, and is
   * not sent to the gateway as a payment. Empty (or ignored) for proforma and training: they take no
   * money and the core sends one nominal payment (electron/sales/no-money.ts); a sale without enough
   * payments is refused by the core at `payments`.
   */
  payments: z
    .array(z.strictObject({ type: s.paymentType, amount: s.positiveAmount }), { error: 'payments' })
    .max(11, { error: 'too_many' }),
  invoiceType: z.enum(['normal', 'training', 'proforma', 'advance'], { error: 'invoice_type' }).optional(),
  buyerId: s.buyerId.optional(),
  email: s.email.optional(),
  /** An advance paid earlier by bank transfer: the day the payment was made (YYYY-MM-DD), sent as its ESIR time. */
  paidOn: s.calendarDate.optional(),
  // No `cashier`: the core names the person logged in on every document (a `cashier` sent is refused by name).
  /** The open cart's revision this sale sells (`cart.save`): the core closes it with the order. */
  cartRev: cartRev.optional(),
  /**
   * Paid by an instant transfer the customer made by scanning the till's IPS QR code (`ips.request`): its model 97
   * reference (`RO`), stored with the order and sent in the receipt's `metaFields`, so the transfer on the shop's
   * account statement names the order. Needs a `mobileMoney` payment.
   */
  ipsReference: ipsReference.optional(),
});
export type CheckoutInput = z.infer<typeof CheckoutInput>;

export interface CheckoutResult {
  orderId: number;
  orderNumber: string;
  state: OrderState;
  totalPara: number;
  changePara: number;
  receipt?: ReceiptView;
  /** Which fiscal processor signed it (set with `receipt`). */
  processor?: Processor;
  /**
   * A sale that takes money left unsigned (`queued`: neither the gateway nor an L-PFR could sign it): the
   * non-fiscal slip „ОВО НИЈЕ ФИСКАЛНИ РАЧУН“ was queued at this till's printer (`printing`), or no printer is
   * set (`no_printer`) and the customer got no paper. Its fiscal receipt prints here once issued.
   */
  outageSlip?: 'printing' | 'no_printer';
}

/** An IPS QR code for one payment at this till (docs/payments.md): what the customer's bank app reads. */
export interface IpsRequestView {
  /** The code's text (`K:PT|V:01|C:1|R:…|N:…|I:RSD…|SF:221|RO:97…`), drawn as the QR code. */
  payload: string;
  /** `RO`: model 97 and its control pair, then the reference; ties the transfer to the order (`ipsReference`). */
  reference: string;
  /** The shop's account (18 digits) and the payee name as the code carries them. */
  account: string;
  name: string;
  amountPara: number;
}

/** The counter's open cart as kept in the core (electron/sales/open-cart.ts). */
export interface OpenCartView {
  /** The revision last saved or sold (0: none); the counter continues above it. */
  rev: number;
  lines: ParkedLine[];
  cashier: string | null;
  updatedAt: string | null;
}

/** A discount the manager approved when it was entered (`sales.approveDiscount`). */
export interface DiscountApproval {
  /** How many lines went beyond the limit and were approved (0: none needed approval). */
  approved: number;
  /** The approving manager's name, when one approved. */
  approvedBy: string | null;
}

export const salesCommands = {
  'app.info': command<AppInfo>('public')(s.empty, 'Mode (demo or live), language, terminal and version.'),
  'taxRates.get': command<TaxRatesView>('public')(
    z.strictObject({ refresh: z.boolean({ error: 'boolean' }).optional() }),
    'The current tax labels from the gateway, cached for offline use; refresh asks the gateway again.',
  ),
  'sales.checkout': command<CheckoutResult>('session')(
    CheckoutInput,
    'Commits the order, its frozen gateway request and its outbox row in one transaction before answering; ' +
      'answers `fiscalized` if the gateway issued the receipt within the online budget, otherwise `queued` (then ' +
      'the non-fiscal slip prints: `outageSlip`). The receipt names the person logged in; a `cashier` sent is ' +
      'refused at that field. With `offlineSales: refused`, a sale that takes money while nothing can sign it is ' +
      'refused (unavailable, offline_sales_refused) and nothing is saved.',
  ),
  'sales.approveDiscount': command<DiscountApproval>('session')(
    z.strictObject({
      lines: z.array(CheckoutLine, { error: 'lines' }).min(1, { error: 'lines' }).max(500, { error: 'too_many' }),
      /** The discount was given on the whole sale (the approval prompt says so), or on one line. */
      scope: z.enum(['line', 'sale'], { error: 'scope' }),
    }),
    'Asks, when a discount is entered, whether it needs a manager: a line whose discount is beyond the limit ' +
      'needs `approval`, and the approval is kept for exactly that line (name, code, price, quantity, ' +
      'discount), for this cashier, used once by the next `sales.checkout` that sells it. A line changed ' +
      'since needs approval again at checkout.',
  ),
  'cart.get': command<OpenCartView>('session')(
    s.empty,
    'The open cart as last saved, so a reload, a crash or a restart brings it back (empty once sold).',
  ),
  'cart.save': command<{ rev: number; saved: boolean }>('session')(
    z.strictObject({
      rev: cartRev,
      lines: z.array(ParkedLine, { error: 'lines' }).max(500, { error: 'too_many' }),
    }),
    'Stores the open cart at revision `rev`. saved is false when a newer revision, or a sale of this one ' +
      '(`sales.checkout` with `cartRev`), is already stored: a late save never brings back a sold cart.',
  ),
  'ips.request': command<IpsRequestView>('session')(
    z.strictObject({ amount: s.positiveAmount }),
    "An IPS QR code („IPS скенирај“, K:PT) for `amount` RSD into the shop's IPS account, with a new model 97 " +
      'reference made from the Belgrade time and a random pair. Refused (unavailable, ips_not_configured) while ' +
      'the manager has not set the account and the payee name. Nothing is saved: the sale is made by ' +
      '`sales.checkout` with the `ipsReference` once the cashier sees the transfer arrived.',
  ),
  'ips.print': command<{ jobId: number }>('session')(
    z.strictObject({ amount: s.positiveAmount, reference: ipsReference }),
    'Prints the IPS QR code for `amount` with this `reference` (the one shown) on the receipt printer: a ' +
      'non-fiscal slip with the amount, the account and the reference, the code printed as the receipt QR is ' +
      '(native or raster). Refused without a printer (printer_not_configured) or IPS settings.',
  ),
} as const;
