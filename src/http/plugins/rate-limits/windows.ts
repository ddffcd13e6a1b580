// Counting requests in fixed windows aligned to the epoch, as rack-attack does (a 5-minute window ends at
// :00, :05, …), on rate-limiter-flexible's in-memory limiter. The window's number is part of the key, so a
// new window starts from zero whatever the limiter's own expiry says; the limiter's timers free the counts
// of past windows. Counts live in memory: a restart forgets them, which an attacker cannot cause, and LMDB
// writes on every request would cost far more than the limits protect. With several server processes the
// counts are shared through their supervisor (src/cluster/rate-counts.ts).
// The in-memory limiter's own modules: the package's index loads every store's limiter, node:cluster with
// them (~10 ms of the server's start: docs/benchmarks.md). Typed by the index (rate-limiter-flexible.d.ts).
import RateLimiterMemory from "rate-limiter-flexible/lib/RateLimiterMemory.js";
import RateLimiterRes from "rate-limiter-flexible/lib/RateLimiterRes.js";

export interface Limit {
  name: string;
  limit: number;
  periodSeconds: number;
}

export interface Count {
  limit: number;
  remaining: number;
  /** End of the current window, epoch milliseconds. */
  resetAt: number;
  /** The same, as Mastodon's X-RateLimit-Reset shows it: ISO 8601 with microseconds. */
  resetText: string;
  exceeded: boolean;
}

export class FixedWindows {
  private readonly limiters = new Map<string, RateLimiterMemory>();

  constructor(private readonly factor: number) {}

  private limiter(limit: Limit): RateLimiterMemory {
    let limiter = this.limiters.get(limit.name);
    if (!limiter) {
      limiter = new RateLimiterMemory({ keyPrefix: limit.name, points: limit.limit * this.factor, duration: limit.periodSeconds });
      this.limiters.set(limit.name, limiter);
    }
    return limiter;
  }

  /** Counts one request for `key` and reports where it stands. */
  async hit(limit: Limit, key: string, now: number): Promise<Count> {
    const periodMs = limit.periodSeconds * 1000;
    const window = Math.floor(now / periodMs);
    const resetAt = (window + 1) * periodMs;
    const allowed = limit.limit * this.factor;
    let consumed: number;
    try {
      consumed = (await this.limiter(limit).consume(`${window}:${key}`, 1, { customDuration: (resetAt - now) / 1000 })).consumedPoints;
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      consumed = refusal.consumedPoints;
    }
    return { limit: allowed, remaining: Math.max(allowed - consumed, 0), resetAt, resetText: resetText(resetAt), exceeded: consumed > allowed };
  }
}

/** Formatting a date costs more than counting: each window's end is formatted once. */
const resetTexts = new Map<number, string>();

/** A window's end as Mastodon's X-RateLimit-Reset shows it: ISO 8601 with microseconds. */
export function resetText(resetAt: number): string {
  let text = resetTexts.get(resetAt);
  if (text === undefined) {
    if (resetTexts.size > 64) resetTexts.clear(); // a few windows of each length are current
    text = new Date(resetAt).toISOString().replace("Z", "000Z");
    resetTexts.set(resetAt, text);
  }
  return text;
}
