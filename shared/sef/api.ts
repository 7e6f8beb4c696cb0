/**
 * SEF's public API as Kasa uses it (docs/sef.md, "SEF's API"): paths, the reply shapes the client reads (zod,
 * read tolerantly: unknown fields pass), and SEF's document statuses. The fake SEF (electron/sef/fake-sef.ts)
 * serves exactly these shapes.
 */
import { z } from 'zod';

/** SEF's published hosts (docs/sef.md). */
export const SEF_URLS = {
  demo: 'https://demoefaktura.mfin.gov.rs',
  prod: 'https://efaktura.mfin.gov.rs',
} as const;

export const SEF_PATHS = {
  send: '/api/publicApi/sales-invoice/ubl',
  status: '/api/publicApi/sales-invoice',
  /** The fake SEF's look-up by requestId (docs/sef.md, "Unsure"). */
  byRequestId: '/api/publicApi/sales-invoice/requestId',
  cancel: '/api/publicApi/sales-invoice/cancel',
  storno: '/api/publicApi/sales-invoice/storno',
  purchaseIds: '/api/publicApi/purchase-invoice/ids',
  purchaseXml: '/api/publicApi/purchase-invoice/xml',
  companies: '/api/publicApi/getAllCompanies',
  registered: '/api/publicApi/Company/CheckIfCompanyRegisteredOnEfaktura',
} as const;

/** SEF's statuses of a sales invoice. */
export const SEF_STATUSES = [
  'New',
  'Draft',
  'Sending',
  'Sent',
  'Seen',
  'Approved',
  'Rejected',
  'Cancelled',
  'Storno',
  'Mistake',
] as const;
export type SefStatus = (typeof SEF_STATUSES)[number];

export const SendReplySchema = z.looseObject({
  InvoiceId: z.number().int(),
  PurchaseInvoiceId: z.number().int().nullish(),
  SalesInvoiceId: z.number().int().nullish(),
});
export type SendReply = z.infer<typeof SendReplySchema>;

export const StatusReplySchema = z.looseObject({
  InvoiceId: z.number().int(),
  Status: z.enum(SEF_STATUSES),
  Comment: z.string().nullish(),
});
export type StatusReply = z.infer<typeof StatusReplySchema>;

/** SEF's refusal: `ErrorCode` and `Message` (as Odoo reads them), with the fields it names. */
export const ErrorReplySchema = z.looseObject({
  ErrorCode: z.string().nullish(),
  Message: z.string().nullish(),
  FieldErrors: z.array(z.looseObject({ FieldName: z.string(), ErrorMessage: z.string() })).nullish(),
});
export type ErrorReply = z.infer<typeof ErrorReplySchema>;

export const PurchaseIdsReplySchema = z.looseObject({ PurchaseInvoiceIds: z.array(z.number().int()) });

export const CompanySchema = z.looseObject({
  VatRegistrationCode: z.string(),
  RegistrationCode: z.string().nullish(),
  Name: z.string(),
  BugetCompanyNumber: z.string().nullish(),
  Deleted: z.boolean().nullish(),
});
export type SefCompany = z.infer<typeof CompanySchema>;
