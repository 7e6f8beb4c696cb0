/**
 * Tolerant readers of the L-PFR's answers (../shared/spec/lpfr-api-notes.md §1, §3): only what Kasa relies
 * on is required, everything else optional, unknown fields kept. Numbers may come as strings, GSCs as
 * numbers.
 */
import { z } from 'zod';
import { TaxItemSchema, TaxRateGroupSchema } from '../gateway/types.ts';

const num = z.coerce.number();
/** A GSC: "1300", or 1300 from a client that serialises it as a number. */
const gsc = z.union([z.string(), z.number().int()]).transform((g) => String(g).padStart(4, '0'));
const text = z.string().nullish().catch(undefined);

/** A tax item as the gateway's answer holds it, but for a category name the L-PFR may send as null. */
export const LpfrTaxItemSchema = TaxItemSchema.extend({ categoryName: z.string().nullish() });

/**
 * InvoiceResult. Required: what makes it a signed invoice (number, time, counter, total). The journal and QR
 * are null when the request asked to omit them.
 */
export const InvoiceResultSchema = z.looseObject({
  requestedBy: z.string().optional(),
  signedBy: z.string().optional(),
  sdcDateTime: z.string().min(1),
  invoiceCounter: z.string().min(1),
  invoiceCounterExtension: z.string().optional(),
  invoiceNumber: z.string().min(1),
  taxItems: z.array(LpfrTaxItemSchema).nullish(),
  verificationUrl: z.string().nullish(),
  verificationQRCode: z.string().nullish(),
  journal: z.string().nullish(),
  messages: text,
  encryptedInternalData: text,
  signature: text,
  totalCounter: num.optional(),
  transactionTypeCounter: num.optional(),
  totalAmount: num,
  taxGroupRevision: num.optional(),
  businessName: text,
  tin: text,
  locationName: text,
  address: text,
  district: text,
  mrc: text,
});
export type LpfrInvoiceResult = z.infer<typeof InvoiceResultSchema>;

export const LpfrStatusSchema = z.looseObject({
  gsc: z.array(gsc).default([]),
  mssc: z.array(z.unknown()).nullish(),
  isPinRequired: z.boolean().optional().catch(undefined),
  auditRequired: z.boolean().optional().catch(undefined),
  sdcDateTime: text,
  lastInvoiceNumber: text,
  uid: text,
  supportedLanguages: z.array(z.string()).optional().catch(undefined),
  currentTaxRates: TaxRateGroupSchema.optional().catch(undefined),
  allTaxRates: z.array(z.unknown()).optional().catch(undefined),
  protocolVersion: text,
  softwareVersion: text,
  make: text,
  model: text,
});
export type LpfrStatus = z.infer<typeof LpfrStatusSchema>;

export const LpfrEnvironmentSchema = z.looseObject({
  organizationName: text,
  serverTimeZone: text,
  street: text,
  city: text,
  country: text,
  endpoints: z.record(z.string(), z.unknown()).nullish().catch(undefined),
  environmentName: text,
  ntpServer: text,
  supportedLanguages: z.array(z.string()).optional().catch(undefined),
});
export type LpfrEnvironment = z.infer<typeof LpfrEnvironmentSchema>;
