/** One benchmark figure, in the one format every benchmark prints. */
export function benchLine(name: string, metric: string, value: number, limit: number, unit: string): string {
  const v = round(value);
  const l = round(limit);
  return `BENCH ${name} ${metric}=${v}${unit} limit=${l}${unit} ratio=${(value / limit).toFixed(2)}`;
}

function round(n: number): number {
  if (n >= 100) return Math.round(n * 10) / 10;
  if (n >= 1) return Math.round(n * 100) / 100;
  return Math.round(n * 1000) / 1000;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] ?? NaN;
}
