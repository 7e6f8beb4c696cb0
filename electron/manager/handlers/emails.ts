/** The emails area's handlers (shared/contract/emails.ts): receipts e-mailed through the gateway's queue. */
import { areaHandlers, type AreaHandlers } from '../../dispatch.ts';
import type { EmailQueue } from '../email.ts';

export function emailsHandlers(emails: EmailQueue): AreaHandlers<'emails'> {
  return areaHandlers('emails', {
    'emails.send': async (input) => emails.send(input),
    'emails.list': async () => ({ emails: emails.list() }),
  });
}
