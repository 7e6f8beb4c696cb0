/** Receipts e-mailed through the gateway, kept in a persistent queue. */
import { z } from 'zod';
import { command, event } from './define.ts';
import * as s from './schemas.ts';
import type { GatewayErrorView } from '../domain.ts';

export interface EmailView {
  id: number;
  state: 'queued' | 'sent' | 'failed';
  email: string;
  invoiceNumber?: string;
  orderId?: number;
  lastError?: GatewayErrorView;
}

export const emailsCommands = {
  'emails.send': command<EmailView>('session')(
    z
      .strictObject({
        orderId: s.id.optional(),
        invoiceNumber: z.string({ error: 'text' }).trim().min(3).max(60).optional(),
        email: s.email,
        cc: z.array(s.email).max(10, { error: 'too_many' }).optional(),
        bcc: z.array(s.email).max(10, { error: 'too_many' }).optional(),
      })
      .refine((v) => v.orderId !== undefined || v.invoiceNumber !== undefined, {
        error: 'required',
        path: ['invoiceNumber'],
      }),
    'Sends the receipt as PDF through the gateway; kept in a persistent queue while offline or not yet fiscalized.',
  ),
  'emails.list': command<{ emails: EmailView[] }>('session')(
    s.empty,
    'E-mails waiting, sent or failed (newest first).',
  ),
} as const;

export const emailsEvents = {
  'email.updated': event<EmailView>('A queued e-mail was sent or failed.'),
} as const;
