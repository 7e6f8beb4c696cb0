/** Tax-rate groups the tests announce through the sandbox, derived from the demo shop's own group. */
import { DEMO_TAX_GROUP, type TaxGroup } from '../../electron/sandbox/accounts.ts';

/**
 * The "rate change": the demo shop's group (6) with A at 12 % instead of 10 %, as group 7 valid from `validFrom`.
 * It keeps the demo group's first `categories` categories (VAT, then VAT-EXCL, then STT).
 */
export function rateChangeGroup(validFrom: string, categories: number): TaxGroup {
  return {
    validFrom,
    groupId: 7,
    taxCategories: DEMO_TAX_GROUP.taxCategories.slice(0, categories).map((c) => ({
      ...c,
      taxRates: c.taxRates.map((r) => (r.label === 'A' ? { ...r, rate: 12 } : { ...r })),
    })),
  };
}
