/** The p-th percentile (0–100) of a sample, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Runs `task` for each item with at most `concurrency` in flight. */
export async function pool<T, R>(items: T[], concurrency: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!, i);
    }
  }));
  return results;
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Prints a goal's verdict line. */
export function goal(label: string, holds: boolean): string {
  return `  ${holds ? 'PASS' : 'MISS'}  ${label}`;
}
