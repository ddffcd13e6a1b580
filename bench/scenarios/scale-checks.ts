// Timed checks on the seeded instance, measured from outside as a client sees them: how long after a post is
// acknowledged it shows in a follower's home (fan-out on the server's job queue).
//   scale_queue_lag: a burst of posts by many authors, each watched in the home of one of its followers.
//   scale_fan_out_largest: a post by the account with the most followers, watched in the home of the follower
//   its fan-out reaches last (followers are delivered in id order).
import type { BenchClient } from "../lib/client.ts";
import type { SeedManifest, SeededAccount } from "../seed/manifest.ts";

export interface ScaleCheck {
  name: string;
  description: string;
  limitMs: number;
  /** Durations (ms) of each run or watched post. */
  run(client: BenchClient, seeded: SeedManifest): Promise<number[]>;
}

const BURST = 200;
const BURST_CONCURRENCY = 20;
const POLL_CONCURRENCY = 8;
const GIVE_UP_MS = 60_000;

interface Watched {
  statusId: string;
  postedAt: number;
  follower: SeededAccount;
}

async function post(client: BenchClient, author: SeededAccount, text: string): Promise<{ id: string; at: number }> {
  const { id } = await client.api<{ id: string }>("/api/v1/statuses", { token: author.token, json: { status: text, visibility: "public" } });
  return { id, at: performance.now() };
}

/** The newest row at or below the status: the status itself once it is there, however much came in since. */
async function inHome(client: BenchClient, reader: SeededAccount, statusId: string): Promise<boolean> {
  const page = await client.api<{ id: string }[]>(`/api/v1/timelines/home?limit=1&max_id=${BigInt(statusId) + 1n}`, { token: reader.token });
  return page[0]?.id === statusId;
}

/** Polls each watched home until its status shows; returns each lag (ms after the post was acknowledged). */
async function lags(client: BenchClient, watched: Watched[]): Promise<number[]> {
  const lag = new Map<Watched, number>();
  const deadline = performance.now() + GIVE_UP_MS;
  while (lag.size < watched.length) {
    if (performance.now() > deadline) throw new Error(`${watched.length - lag.size} posts still missing from a follower's home after ${GIVE_UP_MS} ms`);
    const waiting = watched.filter((w) => !lag.has(w));
    for (let i = 0; i < waiting.length; i += POLL_CONCURRENCY) {
      await Promise.all(waiting.slice(i, i + POLL_CONCURRENCY).map(async (w) => {
        if (await inHome(client, w.follower, w.statusId)) lag.set(w, performance.now() - w.postedAt);
      }));
    }
  }
  return watched.map((w) => lag.get(w)!);
}

export const queueLag: ScaleCheck = {
  name: "scale_queue_lag",
  description: `${BURST} posts by different authors, ${BURST_CONCURRENCY} at a time; lag until each is in a follower's home`,
  limitMs: 5000,
  async run(client, m) {
    const byId = new Map(m.users.map((u) => [u.id, u]));
    // Authors with a follower, from across the instance.
    const pairs: { author: SeededAccount; follower: SeededAccount }[] = [];
    for (let i = 0; pairs.length < BURST && i < m.users.length; i += Math.max(1, Math.floor(m.users.length / (BURST * 2)))) {
      const author = m.users[i]!;
      const [first] = await client.api<{ id: string }[]>(`/api/v1/accounts/${author.id}/followers?limit=1`, { token: author.token });
      const follower = first && byId.get(first.id);
      if (follower) pairs.push({ author, follower });
    }
    const watched: Watched[] = [];
    for (let i = 0; i < pairs.length; i += BURST_CONCURRENCY) {
      await Promise.all(pairs.slice(i, i + BURST_CONCURRENCY).map(async ({ author, follower }, j) => {
        const { id, at } = await post(client, author, `Burst post ${i + j} #benchmarks`);
        watched.push({ statusId: id, postedAt: at, follower });
      }));
    }
    return lags(client, watched);
  },
};

export const fanOutLargest: ScaleCheck = {
  name: "scale_fan_out_largest",
  description: "a post by the account with the most followers, until the last follower's home has it",
  limitMs: 5000,
  async run(client, m) {
    const author = m.users[m.largest.index]!;
    const follower = m.users[m.largest.lastFollower]!;
    const runs: number[] = [];
    for (let n = 0; n < 3; n++) {
      const { id, at } = await post(client, author, `Largest account post ${n} #benchmarks`);
      runs.push(...(await lags(client, [{ statusId: id, postedAt: at, follower }])));
    }
    return runs;
  },
};

export const SCALE_CHECKS: ScaleCheck[] = [queueLag, fanOutLargest];
