// The daily clean-up of remote media copies (WARREN_MEDIA_CACHE_DAYS, docs/media.md): a chain of
// `media.remote_cache_expiry` jobs, one a day, each removing the copies fetched more than that many days ago
// (domain/media/remote-cache.ts) and queuing the next in the same write, as trends.refresh chains. Start-up
// starts a chain unless a live one is waiting; with 0 days no chain runs and copies are kept.
import type { Config } from "../../config.ts";
import type { JobEnqueuer } from "../../jobs/queue.ts";
import type { Store } from "../../store/db.ts";
import { nextCacheExpiryAt, putNextCacheExpiryAt } from "../../store/media.ts";
import { removeRemoteCopies } from "./remote-cache.ts";
import { REMOTE_CACHE_EXPIRY } from "../job-names.ts";

const DAY_MS = 86_400_000;

interface Ctx {
  store: Store;
  config: Config;
  jobs: JobEnqueuer;
}

function enqueueNext(ctx: Ctx, runAt: number, now: number): void {
  putNextCacheExpiryAt(ctx.store, runAt);
  ctx.jobs.enqueue(REMOTE_CACHE_EXPIRY, { runAt }, { lane: "backfill", delayMs: Math.max(0, runAt - now) });
}

/** The job: the chain's current run removes what is older than the configured days and queues tomorrow's. */
export async function expireRemoteCache(ctx: Ctx, payload: { runAt: number }): Promise<void> {
  if (nextCacheExpiryAt(ctx.store) !== payload.runAt || ctx.config.mediaCacheDays <= 0) return;
  await removeRemoteCopies(ctx, Date.now() - ctx.config.mediaCacheDays * DAY_MS);
  await ctx.store.write(() => {
    if (nextCacheExpiryAt(ctx.store) === payload.runAt) enqueueNext(ctx, Date.now() + DAY_MS, Date.now());
  });
}

/** At start-up: the first run in an hour unless a chain is alive (or the cache is kept forever). */
export async function startRemoteCacheExpiry(ctx: Ctx, now = Date.now()): Promise<void> {
  if (ctx.config.mediaCacheDays <= 0) return;
  // A live chain (the usual restart) needs no write, so no sync at each start.
  const broken = () => {
    const next = nextCacheExpiryAt(ctx.store);
    return next === undefined || next < now - DAY_MS;
  };
  if (!broken()) return;
  await ctx.store.write(() => {
    if (broken()) enqueueNext(ctx, now + 60 * 60_000, now);
  });
}
