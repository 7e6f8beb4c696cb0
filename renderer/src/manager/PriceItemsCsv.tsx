/**
 * Менаџер → Цене: a price list's items read from a CSV file (issue 42, docs/prices.md "CSV import of a list's
 * prices"; the reading is shared/prices/items-csv.ts, the hub's too). The file's rows replace the form's rows (and
 * its days, when it has them, are the list's); a bad row is said under the file's field, by its line and column,
 * and nothing of the file is taken. Nothing is saved until the form is.
 */
import { useState } from 'react';
import type { Language } from '../../../shared/domain.ts';
import { csvProblemText, parsePriceItemsCsv, type CsvItems } from '../../../shared/prices/items-csv.ts';
import { CsvFileButton } from '../ui/CsvFileButton.tsx';

export function PriceItemsCsv(props: { lang: Language; label: string; onItems: (read: CsvItems) => void }) {
  const [error, setError] = useState<string | undefined>();
  const read = async (file: File) => {
    const r = parsePriceItemsCsv(await file.text());
    if (!r.ok) return setError(csvProblemText(props.lang, r.problem, props.label));
    setError(undefined);
    props.onItems(r.value);
  };
  return (
    <CsvFileButton label={props.label} error={error} errorId="price-list-csv-error" onFile={(f) => void read(f)} />
  );
}
