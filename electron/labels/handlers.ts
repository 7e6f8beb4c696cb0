/**
 * The labels area's handlers (shared/contract/labels.ts): thin adapters from validated input to the labels service.
 * Every command carries a manager's PIN (or the manager logged in: the guard verified it, `caller.approver`).
 */
import { areaHandlers, type AreaHandlers } from '../dispatch.ts';
import type { LabelsService } from './service.ts';

export function labelsHandlers(labels: LabelsService): AreaHandlers<'labels'> {
  return areaHandlers('labels', {
    'labels.overview': async () => labels.overview(),
    'labels.preview': async (input) => labels.preview(input),
    'labels.print': async (input, caller) => labels.print(input, caller),
    'labels.pdf': async (input, caller) => labels.pdf(input, caller),
    'labels.printerSet': async (input, caller) => labels.setPrinter(input, caller),
    'labels.productSet': async (input, caller) => labels.setProduct(input, caller),
  });
}
