// Windows of a feed (http/cache/page-windows.ts): a page below a max_id cut from a window must be the page a
// build sends, byte for byte and Link for Link, for every feed, viewer, limit and cursor; and after any change
// to what the window read. Each answer is compared with the same request built with windows off
// (config.pageWindows, WARREN_PAGE_WINDOWS), in the same state of the store.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { block, call, follow, mute, newUser, post, postStatus, remoteAccount, remoteStatuses, type User } from "./timelines-helpers.ts";
import { putFollow } from "../../src/store/relationships.ts";
import { idBefore, newId, publicId } from "../../src/lib/ids.ts";

let t: TestApp;
let reader: User;
let authors: User[];
let listId: string;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_CACHE_STATUS_HEADER: "on" });
  reader = await newUser(t, "wr");
  authors = [await newUser(t, "wa"), await newUser(t, "wa"), await newUser(t, "wa")];
  await follow(t, reader, authors[0]!);
  await follow(t, reader, authors[1]!);
  const visibilities = ["public", "public", "unlisted", "private"];
  for (let i = 0; i < 45; i++) {
    for (const [n, author] of authors.entries()) {
      const status = await postStatus(t, author, { status: `window ${i} ${i % 3 === 0 ? "#win" : ""}`, visibility: visibilities[(i + n) % 4] });
      if (n === 1 && i % 5 === 0) await post(t, `/api/v1/statuses/${status.id}/reblog`, authors[0]!.token);
    }
  }
  const list = await post(t, "/api/v1/lists", reader.token, { title: "windows" });
  listId = list.body.id;
  await post(t, `/api/v1/lists/${listId}/accounts`, reader.token, { account_ids: [authors[1]!.id] });
  await t.deps.jobs.drain();
});
afterAll(() => t.close());

const config = () => t.deps.config as { pageWindows: boolean };

async function answer(path: string, token: string | undefined, windows: boolean) {
  config().pageWindows = windows;
  try {
    const res = await t.request(path, { token });
    return { status: res.status, body: await res.text(), link: res.headers.get("link"), cache: res.headers.get("x-warren-cache") };
  } finally {
    config().pageWindows = true;
  }
}

/** Every status id of a feed, newest first, paged with windows off. */
async function allIds(path: string, token?: string): Promise<string[]> {
  const out: string[] = [];
  let maxId = "";
  for (;;) {
    const page = JSON.parse((await answer(`${path}${path.includes("?") ? "&" : "?"}limit=40${maxId}`, token, false)).body) as { id: string }[];
    if (page.length === 0) return out;
    out.push(...page.map((s) => s.id));
    maxId = `&max_id=${page.at(-1)!.id}`;
  }
}

/** Asks `path` below each max_id, built and then windowed; the two must match; returns how many came from a window. */
async function sameAsBuilt(path: string, token: string | undefined, maxIds: string[], limits = [20]): Promise<number> {
  let windowed = 0;
  for (const limit of limits) {
    for (const maxId of maxIds) {
      const url = `${path}${path.includes("?") ? "&" : "?"}max_id=${maxId}&limit=${limit}`;
      const built = await answer(url, token, false);
      const cut = await answer(url, token, true);
      expect({ url, status: cut.status, body: cut.body, link: cut.link }).toEqual({ url, status: built.status, body: built.body, link: built.link });
      if (cut.cache === "window") windowed++;
    }
  }
  return windowed;
}

/** Cursors in and between a feed's rows: each id, the id just below it, and one past the newest. */
function cursors(ids: string[], every = 3): string[] {
  const out = [String(BigInt(ids[0] ?? "999999999999999999") + 1n)];
  for (let i = 0; i < ids.length; i += every) out.push(ids[i]!, publicId(idBefore(ids[i]!.padStart(18, "0"))));
  return out;
}

describe("pages cut from a window are the pages built", () => {
  const feeds = (): [string, string, string | undefined][] => [
    ["home", "/api/v1/timelines/home", reader.token],
    ["public, anonymous", "/api/v1/timelines/public", undefined],
    ["public, signed in", "/api/v1/timelines/public", reader.token],
    ["public, local", "/api/v1/timelines/public?local=true", reader.token],
    ["hashtag", "/api/v1/timelines/tag/win", reader.token],
    ["list", `/api/v1/timelines/list/${listId}`, reader.token],
    ["account statuses", `/api/v1/accounts/${authors[0]!.id}/statuses`, reader.token],
    ["account statuses, anonymous, no reblogs", `/api/v1/accounts/${authors[0]!.id}/statuses?exclude_reblogs=true`, undefined],
    ["account statuses of one not followed", `/api/v1/accounts/${authors[2]!.id}/statuses`, reader.token],
  ];

  test("every feed, at cursors on and between its rows, limits 1, 20 and 40", async () => {
    for (const [name, path, token] of feeds()) {
      const ids = await allIds(path, token);
      expect([name, ids.length > 20]).toEqual([name, true]);
      const windowed = await sameAsBuilt(path, token, cursors(ids), [1, 20, 40]);
      // All but the first (which admits the window's key) come from a window.
      expect([name, windowed]).toEqual([name, cursors(ids).length * 3 - 1]);
    }
  });

  test("a hashtag with any[] (several feeds merged) is built, never cut", async () => {
    const path = "/api/v1/timelines/tag/win?any[]=other";
    const ids = await allIds(path, reader.token);
    expect(await sameAsBuilt(path, reader.token, cursors(ids, 5))).toBe(0);
  });

  test("since_id and min_id pages are built", async () => {
    const ids = await allIds("/api/v1/timelines/home", reader.token);
    for (const cursor of ["since_id", "min_id"]) {
      const url = `/api/v1/timelines/home?max_id=${ids[2]}&${cursor}=${ids[30]}`;
      const built = await answer(url, reader.token, false);
      const again = await answer(url, reader.token, true);
      expect(again.cache).not.toBe("window");
      expect(again.body).toBe(built.body);
    }
  });
});

describe("a window after a change is the page built after it", () => {
  const home = "/api/v1/timelines/home";
  async function check() {
    const ids = await allIds(home, reader.token);
    return sameAsBuilt(home, reader.token, cursors(ids, 7));
  }

  test("an account's statuses after its new post, a reblog and a deletion; empty once suspended", async () => {
    const path = `/api/v1/accounts/${authors[2]!.id}/statuses`;
    const check = async () => sameAsBuilt(path, reader.token, cursors(await allIds(path, reader.token), 7));
    expect(await check()).toBeGreaterThan(0);
    await postStatus(t, authors[2]!, "one more");
    expect(await check()).toBeGreaterThan(0);
    const ids = await allIds(path, reader.token);
    await post(t, `/api/v1/statuses/${ids[40]}/reblog`, authors[2]!.token);
    await call(t, "DELETE", `/api/v1/statuses/${ids[12]}`, authors[2]!.token);
    await t.deps.jobs.drain();
    expect(await check()).toBeGreaterThan(0);
    const below = ids[5]!;
    await t.deps.store.write(() => t.deps.store.db.accounts.put(authors[2]!.id, { ...t.deps.store.db.accounts.get(authors[2]!.id), suspended: true }));
    const suspended = await answer(`${path}?max_id=${below}`, reader.token, true);
    expect(suspended.body).toBe((await answer(`${path}?max_id=${below}`, reader.token, false)).body);
  });

  test("a new post, a deletion, a favourite, a block and a mute, each followed by every page again", async () => {
    await check();
    const fresh = await postStatus(t, authors[0]!, "newest");
    await t.deps.jobs.drain();
    await check();
    const ids = await allIds(home, reader.token);
    await call(t, "DELETE", `/api/v1/statuses/${ids[10]}`, authors[0]!.token);
    await call(t, "DELETE", `/api/v1/statuses/${ids[11]}`, authors[1]!.token);
    await t.deps.jobs.drain();
    await check();
    await post(t, `/api/v1/statuses/${ids[25]}/favourite`, reader.token);
    await post(t, `/api/v1/statuses/${fresh.id}/bookmark`, reader.token);
    await check();
    await mute(t, reader, authors[1]!);
    await t.deps.jobs.drain();
    await check();
    await block(t, reader, authors[0]!);
    await t.deps.jobs.drain();
    await check();
    // Windows were dropped after each change, and one that answered fewer than three pages cools its key
    // for 10 s (jobs committing between the checks' requests can do that): the same home under another key
    // (`local` changes nothing but the Link) shows windows are cut after the block. Its first request admits
    // the key; the cursors just below are new URLs (an exact repeat would be a kept page).
    const again = `${home}?local=false`;
    const after = cursors(await allIds(again, reader.token), 7);
    const below = after.map((cursor) => String(BigInt(cursor) - 1n));
    expect(await sameAsBuilt(again, reader.token, [...after, ...below])).toBeGreaterThan(0);
  });

});

describe("row budget", () => {
  test("a feed that hides more rows than a read examines: the same short page and Link as a build", async () => {
    const muted = await remoteAccount(t, "loudwin", "loud-window.example");
    const follow = { v: 1 as const, id: newId(), accountId: reader.id, targetId: muted.id, reblogs: true, notify: false, languages: null, createdAt: Date.now(), uri: null };
    await t.deps.store.write(() => putFollow(t.deps.store, follow));
    await remoteStatuses(t, muted, 1100);
    await call(t, "POST", `/api/v1/accounts/${muted.id}/mute`, reader.token);
    await postStatus(t, await newUser(t, "wq"), "above the loud ones");
    await t.deps.jobs.drain();
    const path = "/api/v1/timelines/public";
    const top = JSON.parse((await answer(`${path}?limit=1`, reader.token, false)).body)[0].id as string;
    const built = await answer(`${path}?max_id=${top}`, reader.token, false);
    // Short: the budget ran out among the muted rows, and the Link continues past the last row examined.
    expect(JSON.parse(built.body).length).toBeLessThan(20);
    expect(built.link).toContain("max_id=");
    const higher = String(BigInt(top) + 1n);
    expect(await sameAsBuilt(path, reader.token, [higher, top, higher, top])).toBeGreaterThan(0);
  });

  test("a window below a deep max_id grows up to newer ones with the rows in between", async () => {
    // Anonymous, the loud account's rows are shown: deeper than a window from the newest row reaches.
    const path = "/api/v1/timelines/public?remote=true";
    const ids = await allIds(path);
    expect(ids.length).toBeGreaterThan(1000);
    // Built below an old cursor, then asked from higher and higher ones (a client paging from the top down
    // after jumping, or a bench stepping its cursor up).
    const rising = [ids[400]!, ids[300]!, ids[250]!, ids[249]!, ids[200]!, ids[130]!];
    expect(await sameAsBuilt(path, undefined, rising)).toBe(rising.length - 1);
  });

  test("cursors that jump about a feed: a window that answered fewer than three pages is not replaced for a while", async () => {
    const path = "/api/v1/timelines/public?remote=true&only_media=false";
    const ids = await allIds(path);
    const cache = async (maxId: string) => (await answer(`${path}&max_id=${maxId}`, undefined, true)).cache;
    // Admitted, then a window below ids[600] (one answer), then a jump it does not hold: built, and for a while
    // every page that window does not hold is built too (each window costs about five pages' builds).
    expect([await cache(ids[900]!), await cache(ids[600]!), await cache(ids[300]!), await cache(ids[100]!)]).toEqual(["miss", "window", "miss", "miss"]);
    // The pages the window holds are still cut from it.
    expect(await cache(ids[601]!)).toBe("window");
    expect(await sameAsBuilt(path, undefined, [ids[300]!, ids[620]!])).toBe(1);
  });
});
