/** The archive area's handlers (shared/contract/archive.ts): issued receipts, local and at the gateway. */
import { areaHandlers, type AreaHandlers } from '../../dispatch.ts';
import type { Archive } from '../archive.ts';

export function archiveHandlers(archive: Archive): AreaHandlers<'archive'> {
  return areaHandlers('archive', {
    'archive.search': async ({ source, ...filters }) =>
      source === 'local' ? archive.local(filters) : archive.gateway(filters),
    'archive.get': async ({ invoiceNumber }) => archive.get(invoiceNumber),
    'archive.lookup': async ({ orderNumbers }) => ({ records: await archive.lookup(orderNumbers) }),
  });
}
