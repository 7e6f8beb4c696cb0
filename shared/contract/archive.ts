/** The archive of issued receipts: local orders and the gateway's archive. */
import { z } from 'zod';
import { command } from './define.ts';
import * as s from './schemas.ts';
import type { OrderState, ReceiptView } from '../domain.ts';
import type { Para } from '../money.ts';

/** One issued (or locally queued) receipt in the archive list. */
export interface ArchiveRow {
  source: 'local' | 'gateway';
  orderId?: number;
  orderNumber: string;
  invoiceNumber?: string;
  invoiceType: string;
  transactionType: string;
  state: OrderState | 'issued';
  sdcDateTime?: string;
  createdAt?: string;
  totalPara: Para;
  paymentTypes: string[];
  /** The cashier who rang the sale up, as the order (or the gateway's receipt) names them. */
  cashier?: string;
  referentDocumentNumber?: string;
}

export interface ArchiveDetail {
  receipt: ReceiptView;
  qrCodeFileUrl?: string;
  orderId?: number;
  chain: {
    invoiceNumber: string;
    invoiceType: string;
    transactionType: string;
    orderNumber: string;
    totalPara: Para;
  }[];
}

export interface LookupRow {
  orderNumber: string;
  fiscalized: boolean;
  invoiceNumber?: string;
  sdcDateTime?: string;
  localState?: OrderState;
}

const archiveFilters = {
  startDate: s.isoDate.optional(),
  endDate: s.isoDate.optional(),
  orderNumber: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).optional(),
  invoiceNumber: z.string({ error: 'text' }).trim().max(60, { error: 'too_long' }).optional(),
  invoiceType: s.invoiceType.optional(),
  transactionType: z.enum(['sale', 'refund', 'finalize'], { error: 'invalid' }).optional(),
  paymentType: s.paymentType.optional(),
};

export const archiveCommands = {
  'archive.search': command<{ rows: ArchiveRow[]; total: number; page: number; pages: number }>('session')(
    z.strictObject({
      source: z.enum(['local', 'gateway'], { error: 'invalid' }),
      page: s.page.optional(),
      limit: s.pageLimit.optional(),
      ...archiveFilters,
    }),
    'Issued receipts: local orders or the gateway archive, paginated and filtered.',
  ),
  'archive.get': command<ArchiveDetail>('session')(
    z.strictObject({ invoiceNumber: z.string({ error: 'text' }).trim().min(3).max(60) }),
    'One receipt with its journal, QR link and chain (local copy first, else the gateway archive).',
  ),
  'archive.lookup': command<{ records: LookupRow[] }>('session')(
    z.strictObject({
      orderNumbers: z
        .array(z.string({ error: 'text' }).trim().min(1).max(100), { error: 'required' })
        .min(1)
        .max(100),
    }),
    '"Was this fiscalized?": fiscalization-lookup at the gateway beside the local state.',
  ),
} as const;
