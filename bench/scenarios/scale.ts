// Scale scenarios: the read endpoints, a mixed load and posting, on a seeded instance (bench/seed.ts; run.ts
// copies it once per run and starts each scenario's Warren on the copy). Each read comes three times: `cached`
// repeats one request (answered from the page caches while nothing it shows changes), `uncached` varies max_id
// per request ({{n}}), so no request is one asked before (timelines cut them from windows of the feed:
// http/cache/page-windows.ts), and `built` is uncached with the windows off, so every request builds its page
// from the feed.
import type { BenchClient } from "../lib/client.ts";
import type { RequestSpec } from "../lib/load.ts";
import type { SeedManifest, SeededAccount } from "../seed/manifest.ts";
import type { Scenario } from "./types.ts";
import { pacedLoop } from "../lib/paced.ts";
import { busyHome } from "./busy-home.ts";

const READERS = 1000;
const WRITER_POSTS_PER_SECOND = 20;

const bearer = (user: SeededAccount) => ({ authorization: `Bearer ${user.token}` });
/** A reader with a full home: the follower of the largest account that its fan-out reaches last. */
export const readerOf = (m: SeedManifest) => m.users[m.largest.lastFollower]!;

function manifest(seeded: SeedManifest | undefined): SeedManifest {
  if (!seeded) throw new Error("a scale scenario needs a seeded instance");
  return seeded;
}

/** `max_id=` values a little below `newestId`, one per request: its first 10 digits, less one, then {{n}}. */
function varyingMaxId(newestId: string): string {
  return `${BigInt(newestId) / 100_000_000n - 1n}{{n}}`;
}

interface Read {
  name: string;
  what: string;
  path(m: SeedManifest): string;
  /** Who reads (null: no token). */
  reader(m: SeedManifest): SeededAccount | null;
  /** The id of the newest item in the answer (for the varying max_id). */
  newest(body: unknown): string | undefined;
  /** Are its pages below a max_id cut from page windows (then a `built` variant measures the build)? */
  windowed?: boolean;
}

const firstId = (body: unknown) => (body as { id: string }[])[0]?.id;

async function firstPage(client: BenchClient, read: Read, m: SeedManifest): Promise<unknown> {
  const reader = read.reader(m);
  return client.api(read.path(m), { token: reader?.token });
}

function spec(read: Read, m: SeedManifest, path: string): RequestSpec {
  const reader = read.reader(m);
  return { method: "GET", path, headers: reader ? bearer(reader) : {} };
}

function scenarios(read: Read): Scenario[] {
  const cached: Scenario = {
    name: `scale_${read.name}`,
    description: `${read.what}, repeated`,
    seeded: true,
    async prepare(client, seeded) {
      const m = manifest(seeded);
      await firstPage(client, read, m);
      return spec(read, m, read.path(m));
    },
  };
  const uncached: Scenario = {
    name: `scale_${read.name}_uncached`,
    description: `${read.what}, max_id varies`,
    seeded: true,
    variantOf: cached.name,
    async prepare(client, seeded) {
      const m = manifest(seeded);
      const newest = read.newest(await firstPage(client, read, m));
      if (!newest) throw new Error(`${read.name}: the first page is empty`);
      const path = read.path(m);
      return spec(read, m, `${path}${path.includes("?") ? "&" : "?"}max_id=${varyingMaxId(newest)}`);
    },
  };
  const built: Scenario = {
    ...uncached,
    name: `scale_${read.name}_built`,
    description: `${read.what}, max_id varies, page windows off (WARREN_PAGE_WINDOWS=off)`,
    env: { WARREN_PAGE_WINDOWS: "off" },
  };
  return read.windowed ? [cached, uncached, built] : [cached, uncached];
}

const READS: Read[] = [
  { name: "home", what: "GET /api/v1/timelines/home", path: () => "/api/v1/timelines/home", reader: readerOf, newest: firstId, windowed: true },
  { name: "public", what: "GET /api/v1/timelines/public, no token", path: () => "/api/v1/timelines/public", reader: () => null, newest: firstId, windowed: true },
  { name: "tag", what: "GET /api/v1/timelines/tag/<most used>", path: (m) => `/api/v1/timelines/tag/${m.tag}`, reader: readerOf, newest: firstId, windowed: true },
  {
    name: "account_statuses",
    what: "GET /api/v1/accounts/<busiest poster>/statuses",
    path: (m) => `/api/v1/accounts/${m.users[m.busiest.index]!.id}/statuses`,
    reader: readerOf,
    newest: firstId,
    windowed: true,
  },
  {
    name: "notifications_grouped",
    what: "GET /api/v2/notifications of the largest account",
    path: () => "/api/v2/notifications",
    reader: (m) => m.users[m.largest.index]!,
    newest: (body) => (body as { notification_groups: { page_max_id?: string; most_recent_notification_id?: string }[] }).notification_groups[0]?.most_recent_notification_id,
  },
];

export const context: Scenario = {
  name: "scale_context",
  description: "GET /api/v1/statuses/<root>/context of a 200-reply thread",
  seeded: true,
  async prepare(client, seeded) {
    const m = manifest(seeded);
    const reader = readerOf(m);
    const path = `/api/v1/statuses/${m.thread.rootId}/context`;
    const { descendants } = await client.api<{ descendants: unknown[] }>(path, { token: reader.token });
    if (descendants.length !== m.thread.replies) throw new Error(`the thread shows ${descendants.length} replies, not ${m.thread.replies}`);
    return { method: "GET", path, headers: bearer(reader) };
  },
};

/** The same thread with a query parameter that differs per request: never answered from a kept answer, so each is built. */
export const contextBuilt: Scenario = {
  ...context,
  name: "scale_context_built",
  description: "GET /api/v1/statuses/<root>/context of a 200-reply thread, built every time (a new URL per request)",
  variantOf: context.name,
  async prepare(client, seeded) {
    const spec = await context.prepare(client, seeded);
    return { ...spec, path: `${spec.path}?request={{n}}` };
  },
};

export const verifyCredentialsSeeded: Scenario = {
  name: "scale_verify_credentials",
  description: "GET /api/v1/accounts/verify_credentials",
  seeded: true,
  async prepare(_client, seeded) {
    return { method: "GET", path: "/api/v1/accounts/verify_credentials", headers: bearer(readerOf(manifest(seeded))) };
  },
};

/** Every n-th seeded user, n chosen so that about `count` of them are taken. */
function spread(m: SeedManifest, count: number): SeededAccount[] {
  const step = Math.max(1, Math.floor(m.users.length / count));
  return m.users.filter((_, i) => i % step === 0).slice(0, count);
}

export const homeManyReaders: Scenario = {
  name: "scale_home_readers_and_writer",
  description: `GET /api/v1/timelines/home by ${READERS} different readers, while one writer posts ${WRITER_POSTS_PER_SECOND}/s`,
  seeded: true,
  variantOf: "scale_home",
  async prepare(_client, seeded) {
    const readers = spread(manifest(seeded), READERS);
    // The bare handler answers every reader with the first one's page.
    return { method: "GET", path: "/api/v1/timelines/home", headers: bearer(readers[0]!), headerVariants: readers.map(bearer) };
  },
  async background(client, seeded) {
    const writers = spread(manifest(seeded), 50);
    return pacedLoop(WRITER_POSTS_PER_SECOND, async (n) => {
      const writer = writers[n % writers.length]!;
      await client.api("/api/v1/statuses", { token: writer.token, json: { status: `Mixed-load post ${n} #benchmarks`, visibility: "public" } });
    });
  },
};

export const postSeeded: Scenario = {
  name: "scale_post_status",
  description: "POST /api/v1/statuses by a reader of the seeded instance (fan-out to its followers follows)",
  seeded: true,
  async prepare(_client, seeded) {
    const writer = readerOf(manifest(seeded));
    return {
      method: "POST",
      path: "/api/v1/statuses",
      headers: { ...bearer(writer), "content-type": "application/json" },
      body: JSON.stringify({ status: "Scale post {{n}} about #benchmarks", visibility: "public" }),
    };
  },
};

export const SCALE_SCENARIOS: Scenario[] = [
  verifyCredentialsSeeded,
  ...READS.flatMap(scenarios),
  context,
  contextBuilt,
  homeManyReaders,
  busyHome,
  postSeeded,
];
