// /metrics of several server processes (WARREN_PROCESSES > 1): whichever process a scrape reaches gathers
// every process's metrics through the supervisor (src/cluster) and labels each series with its process's
// slot, `process="0"` …, so Prometheus sees every process on every scrape and sum() adds them up. Metrics
// read from the shared data (the job queue's keys, LMDB's map) are the same in every process: kept once,
// unlabelled.
import type { Collected } from "./registry.ts";

const SHARED = new Set([
  "warren_jobs_waiting",
  "warren_job_lag_seconds",
  "warren_jobs_running",
  "warren_jobs_dead",
  "warren_lmdb_map_used_bytes",
  "warren_lmdb_map_size_bytes",
  "warren_lmdb_readers",
]);

export interface ProcessMetrics {
  index: number;
  metrics: Collected[];
}

function withProcess(labels: string, index: number): string {
  const label = `process="${index}"`;
  return labels === "" ? `{${label}}` : `{${label},${labels.slice(1)}`;
}

/** One family per name, with every process's samples labelled by process (shared ones once, as they are). */
export function mergeProcesses(processes: readonly ProcessMetrics[]): Collected[] {
  const merged = new Map<string, Collected>();
  for (const { index, metrics } of [...processes].sort((a, b) => a.index - b.index)) {
    for (const metric of metrics) {
      const shared = SHARED.has(metric.name);
      let family = merged.get(metric.name);
      if (family && shared) continue;
      if (!family) merged.set(metric.name, (family = { ...metric, samples: [] }));
      for (const sample of metric.samples) family.samples.push(shared ? sample : { ...sample, labels: withProcess(sample.labels, index) });
    }
  }
  return [...merged.values()];
}
