// The `trends.refresh` job (docs/trends.md): recomputes every kind of trend and schedules the next run in the
// same write, so one chain of jobs runs every REFRESH_EVERY_MS for as long as the server lives. Start-up
// starts a chain unless a live one is waiting; a run that is not the chain's current one does nothing.
import type { JobEnqueuer } from "../../jobs/queue.ts";
import type { Store } from "../../store/db.ts";
import { nextRefreshAt, putNextRefreshAt, putTrendList } from "../../store/trends.ts";
import { computeTrends } from "./compute.ts";
import { TRENDS_REFRESH } from "../job-names.ts";

export const REFRESH_EVERY_MS = 10 * 60_000;
/** A chain whose next run is this late is taken for broken (its job gave up) and started again. */
const STALE_MS = 3 * REFRESH_EVERY_MS;

export interface TrendsRefresh {
  runAt: number;
}

interface Ctx {
  store: Store;
  jobs: JobEnqueuer;
}

function enqueueNext(ctx: Ctx, now: number, delayMs: number): void {
  const runAt = now + delayMs;
  putNextRefreshAt(ctx.store, runAt);
  ctx.jobs.enqueue(TRENDS_REFRESH, { runAt } satisfies TrendsRefresh, { lane: "default", delayMs });
}

/** Computes and stores every list now (the CLI's `warren trends refresh`, and each run of the chain). */
export async function storeTrends(store: Store, now = Date.now()): Promise<void> {
  const lists = computeTrends(store, now);
  await store.write(() => {
    putTrendList(store, "tags", lists.tags);
    putTrendList(store, "statuses", lists.statuses);
    putTrendList(store, "links", lists.links);
  });
}

/** The job: the chain's current run refreshes and schedules the next one. */
export async function refreshTrends(ctx: Ctx, payload: TrendsRefresh): Promise<void> {
  if (nextRefreshAt(ctx.store) !== payload.runAt) return;
  await storeTrends(ctx.store);
  await ctx.store.write(() => {
    if (nextRefreshAt(ctx.store) === payload.runAt) enqueueNext(ctx, Date.now(), REFRESH_EVERY_MS);
  });
}

/** At start-up: a first refresh at once unless a chain is alive (then nothing is written: no sync at each start). */
export async function startTrendsRefresh(ctx: Ctx, now = Date.now()): Promise<void> {
  const broken = () => {
    const next = nextRefreshAt(ctx.store);
    return next === undefined || next < now - STALE_MS;
  };
  if (!broken()) return;
  await ctx.store.write(() => {
    if (broken()) enqueueNext(ctx, now, 0);
  });
}
