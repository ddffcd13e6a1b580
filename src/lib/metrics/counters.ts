// The counter families every thread may increment. Importing this module also starts the thread's part of
// the cross-thread sum (threads.ts).
import { Counter } from "./registry.ts";
import "./threads.ts";

export const cacheHits = new Counter("warren_cache_hits_total", "Lookups answered by a cache tier (src/domain/caches/index.ts), all threads", ["cache"]);
export const cacheMisses = new Counter("warren_cache_misses_total", "Lookups a cache tier could not answer (absent or stale), all threads", ["cache"]);
export const jobsFailed = new Counter("warren_jobs_failed_total", "Failed job attempts (retried or moved to the dead letters), by job type", ["type"]);
export const jobsDeadLettered = new Counter("warren_jobs_dead_lettered_total", "Jobs given up and moved to the dead letters, by job type", ["type"]);
export const federationDeliveries = new Counter(
  "warren_federation_deliveries_total",
  "Delivery POSTs to remote inboxes by result: success (2xx/3xx), client_error (4xx), server_error (5xx), network_error (no answer, or a name that does not resolve), refused (dropped before sending: blocked domain, private address, not http(s))",
  ["result"],
);
export const federationInbox = new Counter("warren_federation_inbox_total", "Incoming activities with a verified signature, handed to the inbox listeners, by activity type", ["type"]);

/** A cache tier's two cells, taken once by the cache. */
export function cacheCells(tier: string): { hits: { value: number }; misses: { value: number } } {
  return { hits: cacheHits.cell(tier), misses: cacheMisses.cell(tier) };
}

/** The job runner's observer (src/jobs/outcomes.ts JobObserver): failures are recorded on the main thread. */
export const jobMetrics = {
  failed(type: string, deadLettered: boolean): void {
    jobsFailed.cell(type).value++;
    if (deadLettered) jobsDeadLettered.cell(type).value++;
  },
};
