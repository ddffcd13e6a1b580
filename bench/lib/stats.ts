// Latency percentiles and the numbers a benchmark row shows.
export interface Measurement {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** Status codes other than the expected one, with counts. */
  unexpected: Record<string, number>;
}

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function summarise(latencies: Float64Array[], errors: number, seconds: number, unexpected: Record<string, number>): Measurement {
  const total = latencies.reduce((n, part) => n + part.length, 0);
  const all = new Float64Array(total);
  let offset = 0;
  for (const part of latencies) {
    all.set(part, offset);
    offset += part.length;
  }
  all.sort();
  return { requests: total, errors, seconds, rps: total / seconds, p50: percentile(all, 50), p99: percentile(all, 99), unexpected };
}
