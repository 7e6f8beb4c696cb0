/**
 * Wire shapes of the Fiscal Receipt Gateway (../shared/spec/fiscal-receipt-gateway-api.md).
 * Response schemas are tolerant readers: required only what Kasa relies on, everything else optional
 * and unknown fields kept, because the spec leaves several shapes "not shown".
 */
import { z } from 'zod';
import type { ReceiptItem } from '../../shared/receipt-items.ts';
import {
  normalizeArchiveRecord,
  normalizeBulkFailure,
  normalizeFinalizeReply,
  normalizeIssueReply,
  normalizeReceipt,
  normalizeSendEmailReply,
  normalizeTaxRates,
} from './normalize.ts';

/**
 * A receipt item on the wire: what Kasa sends (shared/receipt-items.ts), plus the spec's `discount`, which it never
 * sends but may read.
 */
export interface GatewayItem extends ReceiptItem {
  discount?: number;
}

export interface GatewayPayment {
  type: string;
  amount: number;
  advanceAmount?: number;
}

export interface GatewaySettings {
  returnIfOrderNumberExists?: boolean;
  skipOrderNumberValidation?: boolean;
  skipInvoiceNumberValidation?: boolean;
  skipAmountValidation?: boolean;
  skipBuyerIdValidation?: boolean;
  sendToEmail?: string;
  isFinal?: boolean;
  orderNumberUnderReceipt?: boolean;
  textHeader?: string;
  textFooter?: string;
}

/** A receipt request: sale, refund, full refund, bulk element, async, finalize. */
export interface ReceiptRequest {
  orderNumber: string;
  items: GatewayItem[];
  payments?: GatewayPayment[];
  metaFields?: Record<string, unknown>;
  referentDocumentNumber?: string;
  referentDocumentDt?: string;
  buyerId?: string;
  dateTimeOfIssue?: string;
  cashier?: string;
  settings?: GatewaySettings;
}

const num = z.coerce.number();

export const TaxItemSchema = z.looseObject({
  categoryType: num.optional(),
  label: z.string(),
  amount: num,
  rate: num,
  categoryName: z.string().optional(),
});

/**
 * An issued receipt, flat or wrapped (normalize.ts). Nothing is fiscalized without a non-empty
 * invoiceNumber. `journal` may be absent (the SDK's receipt object has none): such a receipt is
 * fiscalized but not printable until its journal is fetched (journal.ts).
 */
const IssuedReceiptObject = z.looseObject({
  invoiceNumber: z.string().min(1),
  invoiceCounter: z.string().optional(),
  invoiceCounterExtension: z.string().optional(),
  businessName: z.string().optional(),
  locationName: z.string().optional(),
  sdcDateTime: z.string().min(1),
  invoicePdfUrl: z.string().optional(),
  verificationUrl: z.string().optional(),
  totalAmount: num.optional(),
  invoiceType: z.string().optional(),
  transactionType: z.string().optional(),
  taxItems: z.array(TaxItemSchema).optional(),
  additional: z.looseObject({}).optional(),
  orderNumber: z.string().optional(),
  metaFields: z.record(z.string(), z.unknown()).optional(),
  journal: z.string().optional(),
  qrCodeFileUrl: z.string().optional(),
  /** Payment types normalised to the spec's enum (`Card` → `card`, `WireTransfer` → `wireTransfer`). */
  payments: z
    .array(z.looseObject({ type: z.string(), amount: num.optional() }))
    .optional()
    .catch(undefined),
});
export const IssuedReceiptSchema = z.preprocess(normalizeReceipt, IssuedReceiptObject);
export type IssuedReceipt = z.infer<typeof IssuedReceiptObject>;

/** A reply that issues receipts (`receipts`: where each one is), read after `normalize` (normalize.ts). */
const issuingReply = <S extends Record<string, typeof IssuedReceiptSchema>>(
  normalize: (raw: unknown) => unknown,
  receipts: S,
) => z.preprocess(normalize, z.looseObject({ correlationId: z.string().optional(), ...receipts }));

export const IssueResponseSchema = issuingReply(normalizeIssueReply, { receipt: IssuedReceiptSchema });
export type IssueResponse = z.infer<typeof IssueResponseSchema>;

export const FinalizeResponseSchema = issuingReply(normalizeFinalizeReply, {
  refundReceipt: IssuedReceiptSchema,
  finalReceipt: IssuedReceiptSchema,
});
export type FinalizeResponse = z.infer<typeof FinalizeResponseSchema>;

/**
 * Bulk: `receipts` are normalised receipts (an unreadable element stays, the engine skips it);
 * `failedReceipts` are `{orderNumber, error}` whatever the wire shape (client.bulk normalises them with
 * the order numbers it sent, so plain strings are matched too).
 */
export const BulkResponseSchema = z.looseObject({
  receipts: z.array(z.unknown()).default([]),
  failedReceipts: z.array(z.unknown().transform((f) => normalizeBulkFailure(f, []))).default([]),
  totalProcessed: num.optional(),
  successful: num.optional(),
  failed: num.optional(),
});
export type BulkResponse = z.infer<typeof BulkResponseSchema>;

export const TaxRateGroupSchema = z.looseObject({
  validFrom: z.string(),
  groupId: num,
  taxCategories: z.array(
    z.looseObject({
      name: z.string(),
      categoryType: num,
      orderId: num.optional(),
      taxRates: z.array(z.looseObject({ rate: num, label: z.string().min(1) })),
    }),
  ),
});
export type TaxRateGroup = z.infer<typeof TaxRateGroupSchema>;

/** `{currentTaxRates, allTaxRates}` (spec) or an array of groups (SDK). */
export const TaxRatesResponseSchema = z.preprocess(
  (raw) => normalizeTaxRates(raw),
  z.looseObject({
    currentTaxRates: TaxRateGroupSchema,
    allTaxRates: z.array(TaxRateGroupSchema).optional(),
  }),
);
export type TaxRatesResponse = z.infer<typeof TaxRatesResponseSchema>;

export const LookupRecordSchema = z.looseObject({
  orderNumber: z.string(),
  fiscalized: z.boolean(),
  invoiceNumber: z.string().nullish(),
  receiptId: z.unknown().optional(),
  sdcDateTime: z.string().nullish(),
});
export type LookupRecord = z.infer<typeof LookupRecordSchema>;

export const LookupResponseSchema = z.looseObject({ records: z.array(LookupRecordSchema) });

/** `{receipt, chain, chainMetadata}` (spec) or the flat receipt (SDK) → always the wrapper. */
export const ArchiveRecordSchema = z.preprocess(
  normalizeArchiveRecord,
  z.looseObject({
    receipt: IssuedReceiptSchema,
    chain: z.unknown().optional(),
    chainMetadata: z.unknown().optional(),
  }),
);
export type ArchiveRecord = z.infer<typeof ArchiveRecordSchema>;

export const VerifyTokenSchema = z.looseObject({
  type: z.string().optional(),
  authable: z.looseObject({ shopId: z.unknown(), companyId: z.unknown(), id: z.unknown() }).partial().optional(),
  apiKey: z.looseObject({ id: z.unknown(), version: z.unknown(), name: z.unknown() }).partial().optional(),
  user: z.unknown().optional(),
});
export type VerifyTokenResponse = z.infer<typeof VerifyTokenSchema>;

export const ApiKeyMeSchema = z.looseObject({
  apiKeyId: z.unknown().optional(),
  apiKeyName: z.string().nullish(),
  companyId: z.unknown().optional(),
  companyName: z.string().nullish(),
  shopId: z.unknown().optional(),
  shopName: z.string().nullish(),
});
export type ApiKeyMe = z.infer<typeof ApiKeyMeSchema>;

/** `{success, correlationId}` (spec) or `{}` (SDK): accepted unless `success` is false. */
export const SendEmailResponseSchema = z.unknown().transform(normalizeSendEmailReply);

/** Lists whose shape is "not shown": the items array is found under common names. */
export const ListResponseSchema = z.union([
  z.array(z.unknown()).transform((items) => ({ items, total: items.length as number | undefined })),
  z.looseObject({}).transform((o) => {
    const rec = o as Record<string, unknown>;
    const key = ['data', 'items', 'receipts', 'drafts', 'cashiers', 'results', 'records'].find((k) =>
      Array.isArray(rec[k]),
    );
    const items = key ? (rec[key] as unknown[]) : [];
    const meta = (rec['meta'] ?? rec['pagination']) as Record<string, unknown> | undefined;
    const totalRaw = rec['total'] ?? rec['totalCount'] ?? meta?.['total'] ?? meta?.['totalItems'];
    const total = typeof totalRaw === 'number' ? totalRaw : undefined;
    return { items, total };
  }),
]);
export type ListResponse = { items: unknown[]; total: number | undefined };
