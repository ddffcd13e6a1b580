// The busy instance (issue 29): 200 readers who each follow 50 of 100 authors, the authors posting 20
// statuses/s in all, every reader polling their home. Each post reaches about 100 homes, so each reader's home
// gains a status about every 0.1 s and nearly every read builds its page. Runs on the seeded instance: authors
// and readers are seeded users, the follows are made through the API before the load (and their back-fill
// jobs waited for). Alongside the rates, the writer reports how long its posts took to reach a follower's home
// (every 10th post, polled by the writer) and the job queue's lag as /metrics tells it.
import type { BenchClient } from "../lib/client.ts";
import { pacedLoop } from "../lib/paced.ts";
import type { SeedManifest, SeededAccount } from "../seed/manifest.ts";
import type { Scenario } from "./types.ts";

const AUTHORS = 100;
const READERS = 200;
const FOLLOWS_EACH = 50;
const POSTS_PER_SECOND = 20;
const WATCH_EVERY = 10;
const SETUP_CONCURRENCY = 16;

const bearer = (user: SeededAccount) => ({ authorization: `Bearer ${user.token}` });

function cast(seeded: SeedManifest | undefined): { authors: SeededAccount[]; readers: SeededAccount[] } {
  if (!seeded || seeded.users.length < AUTHORS + READERS) throw new Error(`busy_home needs a seeded instance of at least ${AUTHORS + READERS} users`);
  // Every third user from the end is an author, the rest read: neither group is only the seed's early (most
  // followed) accounts.
  const users = seeded.users.slice(-(AUTHORS + READERS) * 2);
  const authors = users.filter((_, i) => i % 6 === 0).slice(0, AUTHORS);
  const readers = users.filter((_, i) => i % 6 !== 0).slice(0, READERS);
  return { authors, readers };
}

/** Reader r follows authors r, r+2, r+4, … (mod 100): 50 each, every author followed by 100 readers. */
const followedBy = (r: number, authors: SeededAccount[]) => Array.from({ length: FOLLOWS_EACH }, (_, k) => authors[(r + 2 * k) % authors.length]!);

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/** Waits until no lane has a due job waiting for a second on end (the follows' back-fills done; delayed jobs,
 * such as recurring ones, may stay). */
async function queueDrained(client: BenchClient): Promise<void> {
  let idleSince = performance.now();
  for (const deadline = performance.now() + 300_000; performance.now() < deadline; await Bun.sleep(250)) {
    if ((await jobLagMs(client)) > 0) idleSince = performance.now();
    else if (performance.now() - idleSince > 1000) return;
  }
  throw new Error("the job queue did not drain within 300 s");
}

const metrics = async (client: BenchClient) => (await fetch(`${client.warren.url}/metrics`)).text();

/** The largest `warren_job_lag_seconds` of any lane, in ms. */
async function jobLagMs(client: BenchClient): Promise<number> {
  return Math.max(0, ...[...(await metrics(client)).matchAll(/^warren_job_lag_seconds\{[^}]*\} ([\d.e+-]+)/gm)].map((m) => Number(m[1]) * 1000));
}

async function inHome(client: BenchClient, reader: SeededAccount, statusId: string): Promise<boolean> {
  const page = await client.api<{ id: string }[]>(`/api/v1/timelines/home?limit=1&max_id=${BigInt(statusId) + 1n}`, { token: reader.token });
  return page[0]?.id === statusId;
}

async function lagUntilInHome(client: BenchClient, reader: SeededAccount, statusId: string, postedAt: number): Promise<number> {
  while (!(await inHome(client, reader, statusId))) {
    if (performance.now() - postedAt > 30_000) throw new Error(`status ${statusId} not in a follower's home after 30 s`);
    await Bun.sleep(5);
  }
  return performance.now() - postedAt;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
};

export const busyHome: Scenario = {
  name: "busy_home",
  description: `GET /api/v1/timelines/home by ${READERS} readers each following ${FOLLOWS_EACH} of ${AUTHORS} authors posting ${POSTS_PER_SECOND}/s in all`,
  seeded: true,
  async prepare(client, seeded) {
    const { authors, readers } = cast(seeded);
    const follows = readers.flatMap((reader, r) => followedBy(r, authors).map((author) => ({ reader, author })));
    await inParallel(follows, SETUP_CONCURRENCY, async ({ reader, author }) => {
      await client.api(`/api/v1/accounts/${author.id}/follow`, { token: reader.token, json: {} });
    });
    await queueDrained(client);
    // The bare handler answers every reader with the first one's page.
    return { method: "GET", path: "/api/v1/timelines/home", headers: bearer(readers[0]!), headerVariants: readers.map(bearer) };
  },
  async background(client, seeded) {
    const { authors, readers } = cast(seeded);
    const lags: number[] = [];
    const queueLags: number[] = [];
    const watching: Promise<void>[] = [];
    const stopPosting = pacedLoop(POSTS_PER_SECOND, async (n) => {
      const author = authors[n % authors.length]!;
      const { id } = await client.api<{ id: string }>("/api/v1/statuses", { token: author.token, json: { status: `Busy post ${n} #benchmarks`, visibility: "public" } });
      if (n % WATCH_EVERY !== 0) return;
      // A reader that follows this author: reader r follows authors r + 2k, so r = author index (mod 2 steps).
      const reader = readers[(n % authors.length) % READERS]!;
      watching.push(lagUntilInHome(client, reader, id, performance.now()).then((ms) => void lags.push(ms)));
    });
    // Twice a second: /metrics counts the job keyspaces, which is not free (its share in the profile, docs/benchmarks.md).
    const stopSampling = pacedLoop(2, async () => void queueLags.push(await jobLagMs(client)));
    return async () => {
      await Promise.all([stopPosting(), stopSampling()]);
      await Promise.all(watching);
      const f = (ms: number) => `${ms.toFixed(0)} ms`;
      const pages = (await metrics(client)).match(/^warren_cache_(hits|misses)_total\{cache="timeline pages"\}.*$/gm) ?? [];
      return [
        `timeline pages since start: ${pages.map((line) => line.replace(/\{.*\}/, "")).join(", ")}`,
        `queue: post → a follower's home p50 ${f(percentile(lags, 50))}, p99 ${f(percentile(lags, 99))}, max ${f(Math.max(...lags))} over ${lags.length} posts; ` +
          `warren_job_lag_seconds (sampled 2/s) p50 ${f(percentile(queueLags, 50))}, max ${f(Math.max(...queueLags))}`,
      ];
    };
  },
};
