/**
 * A fiscal tax label → SEF's VAT category (docs/sef.md, "The Serbian UBL profile"). Labels come only from the
 * gateway's tax rates: a label is looked up there for its rate, never guessed from its letter. A label whose rate
 * is one of Serbia's two VAT rates (20 %, 10 %) is category S at that rate. Any other label (0 %, or a rate that
 * is not VAT, such as the demo account's sales taxes) has no category SEF would accept until the manager names
 * one for it in the SEF settings, with SEF's exemption reason code; until then the document is refused at issue,
 * naming the label.
 */
import type { TaxLabel } from '../domain.ts';

export const SEF_CATEGORY_CODES = ['S', 'AE', 'E', 'Z', 'O', 'SS'] as const;
export type SefCategoryCode = (typeof SEF_CATEGORY_CODES)[number];

/** Serbia's VAT rates that SEF takes as category S. */
export const SEF_STANDARD_RATES: readonly number[] = [20, 10];

export interface SefCategory {
  code: SefCategoryCode;
  /** The VAT percent (0 for every category but S). */
  percent: number;
  /** SEF's exemption reason code (e.g. `PDV-RS-25-2-7`), required for every category but S. */
  exemptionCode?: string;
}

/** The manager's choice for a label that is not a standard rate. */
export interface SefLabelCategory {
  code: Exclude<SefCategoryCode, 'S'>;
  exemptionCode: string;
}

export type SefCategoryResult =
  { ok: true; category: SefCategory } | { ok: false; reason: 'unknown_label' | 'unmapped' };

/** The SEF category of `label` under the gateway's `labels` and the manager's `overrides`. */
export function sefCategoryFor(
  label: string,
  labels: readonly TaxLabel[],
  overrides: Readonly<Record<string, SefLabelCategory>> = {},
): SefCategoryResult {
  // Exact UTF-8 compare: Cyrillic А and Latin A are different labels (docs/gateway.md).
  const rate = labels.find((l) => l.label === label);
  if (rate === undefined) return { ok: false, reason: 'unknown_label' };
  const chosen = overrides[label];
  if (chosen !== undefined)
    return { ok: true, category: { code: chosen.code, percent: 0, exemptionCode: chosen.exemptionCode } };
  if (SEF_STANDARD_RATES.includes(rate.rate)) return { ok: true, category: { code: 'S', percent: rate.rate } };
  return { ok: false, reason: 'unmapped' };
}
