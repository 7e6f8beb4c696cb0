/**
 * The customer-facing display (issue 41 §3, owned by electron/display, docs/payments.md "The customer display"): what
 * the customer sees while the cashier works — the cart as it is built, the total, on payment the amount paid and the
 * change, the IPS QR code while the IPS dialog is open, „Хвала“ after the receipt; idle, the shop's name.
 *
 * The counter tells the core what the customer should see (`display.show`); the core builds the frame (the IPS code
 * itself from the shop's settings, never from the caller) and hands it to the displays: a second Electron window by
 * the `display.frame` event, a tablet on the LAN by the browser host's display stream, opened with a display-only
 * token a manager makes here (`display.tokenCreate`), which opens that stream and nothing else.
 *
 * Money is decimal RSD and quantities decimal on the wire (para and thousandths inside, and in the frame).
 */
import { z } from 'zod';
import { command, managerOnRecord, managerOnly, event } from './define.ts';
import * as s from './schemas.ts';
import type { Language } from '../domain.ts';
import type { Milli, Para } from '../money.ts';
import { ipsReference } from '../payments/ips-qr.ts';

const { managerPin } = s;

/** What the customer is shown: nothing sold yet, the cart, the payment screen, the IPS code, or the thanks. */
export const DISPLAY_PHASES = ['idle', 'cart', 'payment', 'ips', 'thanks'] as const;
export type DisplayPhase = (typeof DISPLAY_PHASES)[number];

export const DisplayShowInput = z.strictObject({
  phase: z.enum(DISPLAY_PHASES, { error: 'invalid' }),
  lines: z
    .array(
      z.strictObject({
        name: s.text(200),
        quantity: s.quantity,
        /** The unit price the line is sold at. */
        unitPrice: s.nonNegativeAmount,
        /** The line's amount after its discounts. */
        total: s.nonNegativeAmount,
        /** The promotion or price list that prices the line (docs/prices.md). */
        promotion: s.text(120).optional(),
      }),
      { error: 'lines' },
    )
    .max(500, { error: 'too_many' }),
  total: s.nonNegativeAmount,
  /** After the sale: what the customer paid. */
  paid: s.nonNegativeAmount.optional(),
  /** While the IPS dialog is open: the amount and the reference of the code shown (the core rebuilds the code). */
  ips: z.strictObject({ amount: s.positiveAmount, reference: ipsReference }).optional(),
});

/** One line as the display shows it. */
export interface DisplayLineView {
  name: string;
  quantityMilli: Milli;
  unitPara: Para;
  totalPara: Para;
  promotion?: string;
}

/** What every display shows now. */
export interface DisplayFrame {
  phase: DisplayPhase;
  /** The shop's name (the idle screen). */
  shopName: string;
  lines: DisplayLineView[];
  totalPara: Para;
  paidPara?: Para;
  /** paid − total, when paid. */
  changePara?: Para;
  /** The NBS IPS QR code's text and what it says, while the IPS dialog is open. */
  ips?: { payload: string; amountPara: Para; name: string; reference: string };
}

/** A display-only token as the manager sees it (never its secret, which is shown once, when made). */
export interface DisplayTokenView {
  id: number;
  label: string;
  language: Language;
  createdAt: string;
  createdBy: string | null;
  revokedAt: string | null;
}

const language = z.enum(['sr-Cyrl', 'sr-Latn', 'en'], { error: 'invalid' });

export const displayCommands = {
  'display.show': command<{ shown: true }>('session')(
    DisplayShowInput,
    'What the customer displays show now, from the counter: the phase, the cart lines, the total, what was paid, ' +
      'the IPS code shown (its amount and reference: the core builds the code from the shop settings, refusing ' +
      'as `ips.request` does). The core emits the frame (`display.frame`) and keeps it for a display that connects.',
  ),
  'display.tokens': managerOnly<{ tokens: DisplayTokenView[] }>(
    'The display-only tokens made on this till, revoked ones included (never their secrets).',
  ),
  'display.tokenCreate': command<DisplayTokenView & { token: string }>('manager')(
    z.strictObject({ managerPin, label: s.text(60), language }),
    'Makes a display-only token (32 random bytes; only its SHA-256 is kept) for a tablet on the LAN that shows the ' +
      'customer display in `language`: it opens the display stream of the browser host and nothing else. The ' +
      'secret is returned once. Audited.',
  ),
  'display.tokenRevoke': managerOnRecord<DisplayTokenView>(
    'Revokes a display-only token: refused from now on, and its open streams are closed. Audited.',
  ),
} as const;

export const displayEvents = {
  'display.frame': event<DisplayFrame>(
    'What the customer displays show now (after every `display.show`): the second window in Electron draws it.',
  ),
} as const;
