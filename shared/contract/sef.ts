/**
 * E-invoices through SEF (owned by electron/sef, docs/sef.md): a fiscalized sale, advance or refund of a business
 * (`10:`) or public-sector (`12:`) buyer gets its e-invoice once, through a durable outbox; its SEF state is listed
 * for the manager; incoming invoices become goods receipt drafts. A manager's PIN travels with every command. The
 * SEF API key is set here and never read back: the view says only whether one is set.
 */
import { z } from 'zod';
import { command, managerOnly } from './define.ts';
import * as s from './schemas.ts';
import type { Para } from '../money.ts';
import { isValidPib } from '../buyer-id.ts';
import { SEF_CATEGORY_CODES, type SefLabelCategory } from '../sef/tax.ts';
import type { SefDocumentKind } from '../sef/ubl.ts';

const { managerPin } = s;

/** The outbox's states (docs/sef.md): SEF's final ones are accepted, rejected, cancelled and storno. */
export const SEF_STATES = ['queued', 'sent', 'accepted', 'rejected', 'cancelled', 'storno', 'refused'] as const;
export type SefState = (typeof SEF_STATES)[number];

export interface SefErrorFieldView {
  field: string;
  message: string;
}

export interface SefDocumentView {
  id: number;
  orderId: number;
  orderNumber: string;
  kind: SefDocumentKind;
  /** The e-invoice's number (the order's number: unique per shop). */
  number: string;
  buyerId: string;
  /** The buyer's name as SEF's register has it (known after the first send). */
  buyerName?: string;
  totalPara: Para;
  state: SefState;
  /** The buyer's or the seller's comment (a rejection's reason, a cancellation's). */
  sefComment?: string;
  sefInvoiceId?: number;
  attempts: number;
  /** An attempt's answer never came: it is looked up at SEF before anything is sent again. */
  inDoubt: boolean;
  lastError?: { status: number | null; code: string | null; message: string; fields?: SefErrorFieldView[] };
  /** Issued by the shop's automatic setting, not by a person. */
  auto: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A fiscalized sale, advance or refund of a business buyer that has no e-invoice yet (the list offers one). */
export interface SefOfferView {
  orderId: number;
  orderNumber: string;
  buyerId: string;
  totalPara: Para;
  createdAt: string;
}

export interface SefSellerView {
  pib: string;
  registrationNumber: string;
  name: string;
  street: string;
  city: string;
  postalZone: string;
  bankAccount: string;
}

export interface SefSettingsView {
  /** `demo`: SEF's demo environment (or, with no key, the embedded fake SEF); `prod`: the real SEF. */
  environment: 'demo' | 'prod';
  autoIssue: boolean;
  /** Whether documents to public-sector buyers are registered in the CRF (SEF asks for an explicit choice). */
  sendToCir: boolean;
  seller: SefSellerView;
  /** The SEF category of each tax label that is not a 20 % or 10 % VAT rate (docs/sef.md). */
  labelCategories: Record<string, SefLabelCategory>;
  hasKey: boolean;
  /** No key: the embedded fake SEF answers (demo mode). */
  demo: boolean;
}

export interface SefIncomingResult {
  /** Goods receipt drafts made now, one per incoming invoice not seen before. */
  made: { sefId: number; receiptId: number; supplier: string; invoiceNumber: string; lines: number }[];
  /** Incoming invoices already made into drafts before (never twice). */
  skipped: number;
  /** Incoming invoices that could not be read, with why. */
  failed: { sefId: number; reason: string }[];
}

const digits = (n: number, key: string) =>
  z
    .string({ error: 'text' })
    .trim()
    .refine((v) => v === '' || new RegExp(`^\\d{${n}}$`).test(v), { error: key });

export const SefSettingsInput = z.strictObject({
  managerPin,
  environment: z.enum(['demo', 'prod'], { error: 'sef_environment' }),
  autoIssue: z.boolean({ error: 'boolean' }),
  sendToCir: z.boolean({ error: 'boolean' }),
  seller: z.strictObject({
    pib: z
      .string({ error: 'text' })
      .trim()
      .refine((v) => v === '' || isValidPib(v), { error: 'buyer_id_pib' }),
    registrationNumber: digits(8, 'sef_registration_number'),
    name: z.string({ error: 'text' }).trim().max(200, { error: 'too_long' }),
    street: z.string({ error: 'text' }).trim().max(200, { error: 'too_long' }),
    city: z.string({ error: 'text' }).trim().max(100, { error: 'too_long' }),
    postalZone: z.string({ error: 'text' }).trim().max(10, { error: 'too_long' }),
    bankAccount: z
      .string({ error: 'text' })
      .trim()
      .refine((v) => v === '' || /^(\d{3}-\d{1,13}-\d{2}|\d{18})$/.test(v), { error: 'bank_account' }),
  }),
  labelCategories: z
    .record(
      s.labelCode,
      z.strictObject({
        code: z.enum(SEF_CATEGORY_CODES.filter((c) => c !== 'S') as ['AE', 'E', 'Z', 'O', 'SS'], {
          error: 'sef_category',
        }),
        exemptionCode: s.text(40),
      }),
    )
    .optional(),
  /** A new SEF API key (never shown again); `clearKey` removes the stored one. */
  apiKey: z.string({ error: 'text' }).trim().min(8, { error: 'sef_key' }).max(200, { error: 'too_long' }).optional(),
  clearKey: z.boolean({ error: 'boolean' }).optional(),
});
export type SefSettingsInput = z.infer<typeof SefSettingsInput>;

export const sefCommands = {
  'sef.issue': command<SefDocumentView>('manager')(
    z.strictObject({ managerPin, orderId: s.id }),
    'Makes the e-invoice of a fiscalized sale (380), advance (386) or refund (credit note 381) of a `10:` or `12:` ' +
      'buyer, once: a second call for the same order returns the first document. Sent by the SEF outbox; a buyer, ' +
      'label or shop detail SEF could not take is refused at its field before anything is saved.',
  ),
  'sef.list': managerOnly<{ documents: SefDocumentView[]; offers: SefOfferView[] }>(
    'The e-invoices, newest first, each with its SEF state; and the recent sales of business buyers that have none.',
  ),
  'sef.forOrder': command<{ document: SefDocumentView | null; offer: boolean }>('manager')(
    z.strictObject({ managerPin, orderId: s.id }),
    "An order's e-invoice, if it has one, and whether one may be issued for it now.",
  ),
  'sef.retry': command<SefDocumentView>('manager')(
    z.strictObject({ managerPin, id: s.id }),
    'Sends a document SEF refused again (rebuilt, a new request, the same number) or a queued one now.',
  ),
  'sef.cancel': command<SefDocumentView>('manager')(
    z.strictObject({ managerPin, id: s.id, comment: s.text(200) }),
    "Cancels a sent document the buyer has not acted on, or stornoes an accepted one, at SEF (SEF's rules), audited.",
  ),
  'sef.settings': managerOnly<SefSettingsView>(
    "SEF's settings; the API key is never returned, only whether one is set.",
  ),
  'sef.saveSettings': command<SefSettingsView>('manager')(
    SefSettingsInput,
    "Saves SEF's settings; a new API key goes to the secret store (never to the database, a log or the screen).",
  ),
  'sef.incoming': managerOnly<SefIncomingResult>(
    "Fetches the suppliers' e-invoices from SEF and makes each new one a goods receipt draft in one step (the " +
      'supplier found or made by PIB), once per SEF invoice.',
  ),
} as const;
