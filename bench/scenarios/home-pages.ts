// The home page cache under other people's writes, and the page build it saves (issue 9, items 4 and 5).
// home_rebuilt_100k: every request has a new max_id in a 100k-row home, so every one builds its page (feed
// scan, checks, presentation of 20 statuses); home_top_rebuilt builds the newest page every time (a query
// parameter that differs per request). home_kept_amid_writes: one reader repeats one request while
// other accounts post 20 statuses/s and favourite them (fan-out jobs, counters: commits all the time, none of
// which changes the reader's page), so it should stay as fast as the quiet home_timeline_20.
import type { BenchClient } from "../lib/client.ts";
import { pacedLoop } from "../lib/paced.ts";
import { seed, STATUSES, varyingMaxId } from "./filtered-reads.ts";
import { prepareHome } from "./home-timeline.ts";
import type { Scenario } from "./types.ts";

const WRITES_PER_SECOND = 20;

export const homeRebuilt: Scenario = {
  name: "home_rebuilt_100k",
  description: `GET /api/v1/timelines/home?max_id=<varies>, user token, ${STATUSES / 1000}k home rows: every page built`,
  variantOf: "home_timeline_20",
  async prepare(client) {
    const { newestId, token } = await seed(client);
    const page = await client.api<unknown[]>(`/api/v1/timelines/home?max_id=${newestId}`, { token });
    if (page.length !== 20) throw new Error(`the home gave ${page.length} statuses, not 20`);
    return { method: "GET", path: `/api/v1/timelines/home?max_id=${varyingMaxId(newestId)}`, headers: { authorization: `Bearer ${token}` } };
  },
};

/**
 * The newest page of the same home, with a query parameter that differs per request (as a client or a proxy
 * busting caches would send): never answered from the page cache, so every request builds the page, from
 * statuses whose records and renderings are warm.
 */
export const homeTopRebuilt: Scenario = {
  name: "home_top_rebuilt",
  description: `GET /api/v1/timelines/home?limit=20&nocache=<varies>, user token, ${STATUSES / 1000}k home rows: the newest page built every time`,
  variantOf: "home_timeline_20",
  async prepare(client) {
    const { token } = await seed(client);
    return { method: "GET", path: "/api/v1/timelines/home?limit=20&nocache={{n}}", headers: { authorization: `Bearer ${token}` } };
  },
};

/** Accounts the reader does not follow, posting and favourite-ing each other's statuses. */
async function unrelatedWriters(client: BenchClient): Promise<() => Promise<void>> {
  const writers = [await client.user("elsewhere1"), await client.user("elsewhere2")];
  const follower = await client.user("elsewhere3");
  for (const writer of writers) {
    const { id } = await client.api<{ id: string }>("/api/v1/accounts/verify_credentials", { token: writer.token });
    await client.api(`/api/v1/accounts/${id}/follow`, { token: follower.token, json: {} });
  }
  return pacedLoop(WRITES_PER_SECOND, async (n) => {
    const writer = writers[n % writers.length]!;
    const status = await client.api<{ id: string }>("/api/v1/statuses", { token: writer.token, json: { status: `Elsewhere ${n}`, visibility: "public" } });
    await client.api(`/api/v1/statuses/${status.id}/favourite`, { token: follower.token, json: {} });
  });
}

export const homeKeptAmidWrites: Scenario = {
  name: "home_kept_amid_writes",
  description: `GET /api/v1/timelines/home?limit=20 repeated while others post and favourite ${WRITES_PER_SECOND}/s`,
  variantOf: "home_timeline_20",
  async prepare(client) {
    const reader = await prepareHome(client);
    return { method: "GET", path: "/api/v1/timelines/home?limit=20", headers: { authorization: `Bearer ${reader.token}` } };
  },
  background: unrelatedWriters,
};
