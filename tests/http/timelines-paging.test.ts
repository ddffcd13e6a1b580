// Paging of the timelines (API.md §1.5, §9): limit 20 / 40, max_id, since_id, min_id, Link on every
// non-empty page; pages stay exact and gap-free when rows in between are hidden at read time.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { follow, get, mute, newUser, postStatus, type User } from "./timelines-helpers.ts";

let t: TestApp;
let reader: User;
/** The ids the reader's home shows, newest first. */
let ids: string[] = [];

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(", ").filter(Boolean)) {
    const [, url, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part)!;
    out[rel!] = url!;
  }
  return out;
}

async function page(query: string) {
  const res = await get(t, `/api/v1/timelines/home${query}`, reader.token);
  expect(res.status).toBe(200);
  return { ids: (res.body as { id: string }[]).map((s) => s.id), links: links(res.headers.get("link")) };
}

beforeAll(async () => {
  t = await startTestApp();
  reader = await newUser(t, "p");
  const friend = await newUser(t, "p");
  const muted = await newUser(t, "p");
  await follow(t, reader, friend);
  await follow(t, reader, muted);
  await mute(t, reader, muted);
  // 45 visible statuses, with hidden rows (a muted account's) between them.
  for (let i = 0; i < 45; i++) {
    const author = i % 2 === 0 ? reader : friend;
    ids.unshift((await postStatus(t, author, `status ${i}`)).id);
    if (i % 5 === 0) await postStatus(t, muted, `hidden ${i}`);
  }
  await t.deps.jobs.drain();
});
afterAll(() => t.close());

describe("limit", () => {
  test("20 by default, at most 40; negative values count as positive, 0 or garbage gives nothing", async () => {
    expect((await page("")).ids).toEqual(ids.slice(0, 20));
    expect((await page("?limit=40")).ids).toEqual(ids.slice(0, 40));
    expect((await page("?limit=100")).ids).toEqual(ids.slice(0, 40));
    expect((await page("?limit=-3")).ids).toEqual(ids.slice(0, 3));
    const none = await page("?limit=0");
    expect(none.ids).toEqual([]);
    expect(none.links).toEqual({});
    expect((await page("?limit=abc")).ids).toEqual([]);
  });
});

describe("cursors", () => {
  test("max_id: the page strictly older than it", async () => {
    expect((await page(`?limit=5&max_id=${ids[9]}`)).ids).toEqual(ids.slice(10, 15));
  });

  test("since_id: the newest page strictly newer than it", async () => {
    expect((await page(`?limit=5&since_id=${ids[20]}`)).ids).toEqual(ids.slice(0, 5));
    expect((await page(`?since_id=${ids[3]}`)).ids).toEqual(ids.slice(0, 3));
  });

  test("min_id: the page immediately newer than it, still newest first", async () => {
    expect((await page(`?limit=5&min_id=${ids[20]}`)).ids).toEqual(ids.slice(15, 20));
    expect((await page(`?limit=5&min_id=${ids[20]}&max_id=${ids[17]}`)).ids).toEqual(ids.slice(18, 20));
  });

  test("ids padded, unpadded or beyond any status work as cursors", async () => {
    expect((await page(`?limit=2&max_id=000${ids[0]}`)).ids).toEqual(ids.slice(1, 3));
    expect((await page("?limit=2&max_id=99999999999999999999")).ids).toEqual(ids.slice(0, 2));
    expect((await page(`?limit=2&since_id=${ids[0]}`)).ids).toEqual([]);
  });
});

describe("Link", () => {
  test("next (max_id of the last) and prev (min_id of the first) on every non-empty page, repeating the other parameters", async () => {
    const first = await page("?limit=5&local=true");
    expect(first.links.next).toBe(`${BASE}/api/v1/timelines/home?limit=5&local=true&max_id=${ids[4]}`);
    expect(first.links.prev).toBe(`${BASE}/api/v1/timelines/home?limit=5&local=true&min_id=${ids[0]}`);
    // A short last page still has both.
    const last = await page(`?limit=5&max_id=${ids[42]}`);
    expect(last.ids).toEqual(ids.slice(43));
    expect(Object.keys(last.links).sort()).toEqual(["next", "prev"]);
    expect((await page(`?max_id=${ids[44]}`)).links).toEqual({});
  });

  test("following next links walks every status exactly once; prev links walk back", async () => {
    const seen: string[] = [];
    let query = "?limit=7";
    for (;;) {
      const current = await page(query);
      if (current.ids.length === 0) break;
      seen.push(...current.ids);
      query = current.links.next!.slice(`${BASE}/api/v1/timelines/home`.length);
    }
    expect(seen).toEqual(ids);

    const back: string[] = [];
    query = `?limit=7&max_id=${ids[30]}`;
    let current = await page(query);
    back.unshift(...current.ids);
    for (;;) {
      current = await page(current.links.prev!.slice(`${BASE}/api/v1/timelines/home`.length));
      if (current.ids.length === 0) break;
      back.unshift(...current.ids);
    }
    expect(back).toEqual(ids.slice(0, back.length));
    expect(back.length).toBeGreaterThanOrEqual(31);
  });
});
