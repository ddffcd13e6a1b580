// GET /api/v1/timelines/home?limit=20 and ?limit=40: one range scan of the reader's home feed (filled by
// fan-out), the read-time policy checks, and the presentation of a full page of statuses by three authors
// with mentions, hashtags and links, plus a few reblogs.
import type { BenchClient, User } from "../lib/client.ts";
import type { Scenario } from "./types.ts";

const STATUSES_PER_AUTHOR = 20;

/** A reader following three authors whose statuses (and a few reblogs) fill more than 40 home rows. */
export async function prepareHome(client: BenchClient): Promise<User> {
  const reader = await client.user("reader");
  const authors = [await client.user("author1"), await client.user("author2"), await client.user("author3")];
  for (const author of authors) {
    await client.api(`/api/v1/accounts/${await accountId(client, author)}/follow`, { token: reader.token, json: {} });
  }
  const posted: string[] = [];
  for (let i = 0; i < STATUSES_PER_AUTHOR; i++) {
    for (const [n, author] of authors.entries()) {
      const other = authors[(n + 1) % authors.length]!;
      const status = await client.api<{ id: string }>("/api/v1/statuses", {
        token: author.token,
        json: { status: `Status ${i} by ${author.username} for @${other.username} about #benchmarks, see https://example.invalid/${i}`, visibility: "public" },
      });
      posted.push(status.id);
    }
  }
  // A few reblogs of the first statuses (old enough to be re-shown), by the next author.
  for (const [n, id] of posted.slice(0, 6).entries()) {
    await client.api(`/api/v1/statuses/${id}/reblog`, { token: authors[(n + 1) % authors.length]!.token, json: {} });
  }
  // Fan-out is a background job: wait until the home feed has at least 40 rows.
  for (let attempt = 0; attempt < 200; attempt++) {
    const page = await client.api<unknown[]>("/api/v1/timelines/home?limit=40", { token: reader.token });
    if (page.length === 40) return reader;
    await Bun.sleep(50);
  }
  throw new Error("the home timeline did not fill up");
}

async function accountId(client: BenchClient, user: User): Promise<string> {
  return (await client.api<{ id: string }>("/api/v1/accounts/verify_credentials", { token: user.token })).id;
}

const homeTimeline = (limit: number): Scenario => ({
  name: `home_timeline_${limit}`,
  description: `GET /api/v1/timelines/home?limit=${limit}, user token, statuses by 3 followed authors`,
  async prepare(client) {
    const reader = await prepareHome(client);
    return { method: "GET", path: `/api/v1/timelines/home?limit=${limit}`, headers: { authorization: `Bearer ${reader.token}` } };
  },
});

export const homeTimeline20 = homeTimeline(20);
export const homeTimeline40 = homeTimeline(40);
