/**
 * A till's push that carries only its status: its current tax labels and, as every till now reports them from the
 * gateway, their VAT rates (or none, as an older till). The hub's receipt calculation takes the rates from it.
 */
import type { HubService } from '../../hub/service.ts';
import type { AuthedTill } from '../../hub/services/shared.ts';

export function pushTaxRates(
  service: HubService,
  till: AuthedTill,
  labels: readonly string[],
  taxRates?: readonly { label: string; rate: number }[],
): ReturnType<HubService['push']> {
  return service.push(till, {
    tillId: till.id,
    events: [],
    status: {
      queued: 0,
      needsAttention: 0,
      oldestQueuedAt: null,
      hubQueued: 0,
      taxLabels: [...labels],
      ...(taxRates ? { taxRates: [...taxRates] } : {}),
    },
  });
}
