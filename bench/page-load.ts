// In-process timing of the status loader (src/domain/statuses/load.ts) on a seeded instance: home pages of 20
// of several readers at several depths, each page's statuses read once and then `loadStatuses` repeated.
// Reads only (the store is opened without migrations and nothing is written), so it may run on the seed itself.
//
//   bun bench/page-load.ts --data=.bench/seeds/a10000-s1000000-seed1 [--readers=12] [--repeats=2000]
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import type { Deps } from "../src/deps.ts";
import { loadStatuses } from "../src/domain/statuses/load.ts";
import { homeTimeline } from "../src/domain/timelines/read.ts";
import { openStore } from "../src/store/db.ts";
import { readManifest } from "./seed/manifest.ts";
import { bookmarkIdOf, bookmarkedAmong, favouriteIdOf, favouritedAmong } from "../src/store/statuses-interactions.ts";
import { reblogIdOf, rebloggedAmong } from "../src/store/statuses.ts";
import { END } from "../src/store/db.ts";
import { flag } from "./seed/options.ts";
import type { StatusRecord } from "../src/model/statuses.ts";

const args = process.argv.slice(2);
const data = flag(args, "data") ?? join(import.meta.dir, "../.bench/seeds/a10000-s1000000-seed1");
const readers = Number(flag(args, "readers") ?? 12);
const repeats = Number(flag(args, "repeats") ?? 2000);

const manifest = readManifest(data);
const store = openStore(data, { migrate: false });
const deps = { config: loadConfig({ WARREN_DATA_DIR: data, WARREN_CHECK_RESPONSES: "false" }), store, jobs: null } as unknown as Deps;

// The benchmark's reader (a full home), then readers spread over the seeded accounts.
const users = [manifest.users[manifest.largest.lastFollower]!];
for (let i = 1; users.length < readers; i++) users.push(manifest.users[Math.floor((i * manifest.users.length) / readers)]!);

interface Page {
  viewerId: string;
  statuses: StatusRecord[];
}
const pages: Page[] = [];
for (const user of users) {
  let maxId: string | undefined;
  for (let depth = 0; depth < 5; depth++) {
    const statuses = homeTimeline(store, user.id, { limit: 20, maxId });
    if (statuses.length < 20) break;
    pages.push({ viewerId: user.id, statuses });
    // Deeper pages: skip ahead by a few pages each time.
    const skip = homeTimeline(store, user.id, { limit: 40 * (depth + 1), maxId: statuses.at(-1)!.id });
    maxId = skip.at(-1)?.id;
    if (!maxId) break;
  }
}

function timePages(): number[] {
  const perPage: number[] = [];
  for (const page of pages) {
    for (let i = 0; i < 50; i++) loadStatuses(deps, page.viewerId, page.statuses);
    const start = Bun.nanoseconds();
    for (let i = 0; i < repeats; i++) loadStatuses(deps, page.viewerId, page.statuses);
    perPage.push((Bun.nanoseconds() - start) / repeats / 1000);
  }
  return perPage;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${pages.length} home pages of 20 (${users.length} readers, up to 5 depths each), loadStatuses × ${repeats} each`);
for (let round = 1; round <= 3; round++) {
  const perPage = timePages();
  const mean = perPage.reduce((a, b) => a + b, 0) / perPage.length;
  console.log(`round ${round}: per page mean ${mean.toFixed(1)} µs, median ${median(perPage).toFixed(1)} µs, min ${Math.min(...perPage).toFixed(1)}, max ${Math.max(...perPage).toFixed(1)}`);
}
// The viewer's flags alone: three point reads per status against one range read per keyspace.
const flagIds = (page: Page) => page.statuses.map((s) => s.reblogOfId ?? s.id);
function timeFlags(read: (viewerId: string, ids: string[]) => unknown): number {
  let total = 0;
  for (const page of pages) {
    const ids = flagIds(page);
    for (let i = 0; i < 50; i++) read(page.viewerId, ids);
    const start = Bun.nanoseconds();
    for (let i = 0; i < repeats; i++) read(page.viewerId, ids);
    total += (Bun.nanoseconds() - start) / repeats / 1000;
  }
  return total / pages.length;
}
const rowsInRange = (keyspace: typeof store.db.favouriteOf, page: Page) => {
  const ids = flagIds(page).sort();
  return keyspace.getKeysCount({ start: [page.viewerId, ids[0]!], end: [page.viewerId, ids.at(-1)!, END] });
};
for (const name of ["favouriteOf", "reblogOf", "bookmarkOf"] as const) {
  const counts = pages.map((page) => rowsInRange(store.db[name], page));
  console.log(`${name}: rows among a page's ids (range) per page: median ${median(counts)}, max ${Math.max(...counts)}; rows on the page: ${pages.reduce((n, page) => n + flagIds(page).filter((id) => store.db[name].doesExist([page.viewerId, id])).length, 0)} in all`);
}
for (let round = 1; round <= 3; round++) {
  const point = timeFlags((viewerId, ids) => {
    let n = 0;
    for (const id of ids) n += (favouriteIdOf(store, viewerId, id) ? 1 : 0) + (reblogIdOf(store, viewerId, id) ? 1 : 0) + (bookmarkIdOf(store, viewerId, id) ? 1 : 0);
    return n;
  });
  const range = timeFlags((viewerId, ids) => favouritedAmong(store, viewerId, ids).size + rebloggedAmong(store, viewerId, ids).size + bookmarkedAmong(store, viewerId, ids).size);
  console.log(`round ${round}: flags of a page, 60 point reads ${point.toFixed(1)} µs, 3 range reads ${range.toFixed(1)} µs`);
}
await store.close();
