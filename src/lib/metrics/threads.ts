// Counters incremented in job worker threads (their caches, deliveries, inbox activities) reach the main
// thread's /metrics over a BroadcastChannel: each worker posts its cumulative counter values every
// FLUSH_MS when they moved, and the main thread keeps the latest values of each thread and adds them to its
// own at scrape time. Cumulative values make a lost or late message harmless (the next one carries all),
// and the counts of a worker that was replaced stay in the sum. The cost: a worker's counts show up to
// FLUSH_MS late, and those of its last FLUSH_MS are lost if it is terminated (a crash or a timeout).
// Nothing in src/jobs knows about this; the channel is process-wide, like the counters.
import { isMainThread, threadId } from "node:worker_threads";
import { snapshotCounters, type CounterSnapshot } from "./registry.ts";

export const FLUSH_MS = 1000;
const CHANNEL = "warren-metrics";
/** Threads whose last values are kept apart; past it the oldest are folded into one retired sum. */
const MAX_THREADS = 128;

interface ThreadCounters {
  threadId: number;
  counters: CounterSnapshot;
}

const byThread = new Map<number, CounterSnapshot>();
const retired: CounterSnapshot = {};

function addInto(total: CounterSnapshot, more: CounterSnapshot): void {
  for (const [name, values] of Object.entries(more)) {
    const into = (total[name] ??= {});
    for (const [labels, value] of Object.entries(values)) into[labels] = (into[labels] ?? 0) + value;
  }
}

function received(message: ThreadCounters): void {
  byThread.delete(message.threadId);
  byThread.set(message.threadId, message.counters);
  if (byThread.size <= MAX_THREADS) return;
  const [oldest, counters] = byThread.entries().next().value!;
  byThread.delete(oldest);
  addInto(retired, counters);
}

/** The sum of the counters of every worker thread heard from (the main thread's own are not included). */
export function workerCounters(): CounterSnapshot {
  const total: CounterSnapshot = {};
  addInto(total, retired);
  for (const counters of byThread.values()) addInto(total, counters);
  return total;
}

function fingerprint(snapshot: CounterSnapshot): number {
  let sum = 0;
  for (const values of Object.values(snapshot)) for (const value of Object.values(values)) sum += value;
  return sum;
}

// Both ends are unref'd: neither keeps a process (or a worker) alive.
const channel = new BroadcastChannel(CHANNEL);
(channel as BroadcastChannel & { unref?(): void }).unref?.();
if (isMainThread) {
  channel.onmessage = (event) => received(event.data as ThreadCounters);
} else {
  let sent = 0;
  const timer = setInterval(() => {
    const counters = snapshotCounters();
    const now = fingerprint(counters);
    if (now === sent) return;
    sent = now;
    channel.postMessage({ threadId, counters } satisfies ThreadCounters);
  }, FLUSH_MS);
  timer.unref?.();
}
