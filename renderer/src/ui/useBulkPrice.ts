/**
 * The form of a price change for a whole group of products by a percentage (docs/prices.md), as the till's catalog
 * dialog and the hub's Артикли section both have it: a group, a percentage, the count it would change shown first
 * (the preview) and confirmed after. Each screen sends it its own way and says its refusals in its own words.
 */
import { useState } from 'react';
import { parsePercentInput } from '../../../shared/catalog/percent.ts';
import { MAX_PERCENT_BP, MIN_PERCENT_BP } from '../../../shared/catalog/price-change.ts';

/** The refusals under the two fields. */
export interface BulkPriceErrors {
  group?: string;
  percent?: string;
}

/** What the preview said: the group and percentage it was asked for, and how many products they change. */
export interface BulkPricePreview {
  group: string;
  percentBp: number;
  count: number;
}

export function useBulkPrice() {
  const [group, setGroupTyped] = useState('');
  const [percent, setPercentTyped] = useState('');
  const [errors, setErrors] = useState<BulkPriceErrors>({});
  const [preview, setPreview] = useState<BulkPricePreview | null>(null);
  const [busy, setBusy] = useState(false);
  // A changed field drops the preview: the count it said is not the one the button would now confirm.
  const setGroup = (value: string) => {
    setGroupTyped(value);
    setPreview(null);
  };
  const setPercent = (value: string) => {
    setPercentTyped(value);
    setPreview(null);
  };
  /**
   * The percentage typed in hundredths (bp) when a group is chosen and the percentage is one the rules allow (not
   * zero, within the bounds); else null, with each refusal under its field in the screen's words.
   */
  const checked = (words: { groupRequired: string; percentInvalid: string }): number | null => {
    const bp = parsePercentInput(percent);
    const found: BulkPriceErrors = {};
    if (group === '') found.group = words.groupRequired;
    if (bp === null || bp === 0 || bp < MIN_PERCENT_BP || bp > MAX_PERCENT_BP) found.percent = words.percentInvalid;
    setErrors(found);
    return Object.keys(found).length > 0 ? null : bp;
  };
  return { group, setGroup, percent, setPercent, errors, setErrors, preview, setPreview, busy, setBusy, checked };
}
