// The paging helper (API.md §1.4, §1.5, §9) seen through two endpoints that page relationship rows:
// GET /api/v1/follow_requests (accounts, 40 / 80, prev with since_id, next only on a full page) and
// GET /api/v1/favourites (statuses, 20 / 40, prev with min_id, next on every non-empty page). Both are
// paged by the row's id (the request, the favourite), not by the id of the account or status shown.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let owner: User;
/** Usernames of the requesters, newest request first. */
let requesters: string[] = [];
/** Ids of the favourited statuses, newest favourite first. */
let favourited: string[] = [];

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(", ").filter(Boolean)) {
    const [, url, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part)!;
    out[rel!] = url!;
  }
  return out;
}

async function requests(query = "") {
  const res = await get(t, `/api/v1/follow_requests${query}`, owner.token);
  expect(res.status).toBe(200);
  return { names: (res.body as { username: string }[]).map((a) => a.username), links: links(res.headers.get("link")) };
}

async function favourites(query = "") {
  const res = await get(t, `/api/v1/favourites${query}`, owner.token);
  expect(res.status).toBe(200);
  return { ids: (res.body as { id: string }[]).map((s) => s.id), links: links(res.headers.get("link")) };
}

const relative = (url: string, path: string) => url.slice(`${BASE}${path}`.length);

beforeAll(async () => {
  t = await startTestApp();
  owner = await newUser(t, "owner");
  expect((await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: owner.token, json: { locked: true } })).status).toBe(200);
  const fans: User[] = [];
  for (let i = 0; i < 5; i++) fans.push(await newUser(t, "fan"));
  // Requests in another order than the accounts were created: paging must follow the requests.
  for (const fan of [fans[2]!, fans[0]!, fans[4]!, fans[1]!, fans[3]!]) {
    expect((await post(t, `/api/v1/accounts/${owner.id}/follow`, fan.token)).body.requested).toBe(true);
    requesters.unshift(fan.username);
  }
  // 45 statuses, favourited oldest-last so favourite order differs from status order.
  const author = fans[0]!;
  const statuses: string[] = [];
  for (let i = 0; i < 45; i++) statuses.push((await postStatus(t, author, `status ${i}`)).id);
  for (const id of [...statuses].reverse()) {
    expect((await post(t, `/api/v1/statuses/${id}/favourite`, owner.token)).status).toBe(200);
    favourited.unshift(id);
  }
});
afterAll(() => t.close());

describe("limit", () => {
  test("absent: the endpoint's default", async () => {
    expect((await requests()).names).toEqual(requesters);
    expect((await favourites()).ids).toEqual(favourited.slice(0, 20));
  });

  test("honoured up to twice the default, clamped silently above", async () => {
    expect((await favourites("?limit=40")).ids).toEqual(favourited.slice(0, 40));
    expect((await favourites("?limit=41")).ids).toEqual(favourited.slice(0, 40));
    expect((await favourites("?limit=100000000000000000000")).ids).toEqual(favourited.slice(0, 40));
    expect((await requests("?limit=1000")).names).toEqual(requesters);
  });

  test("negative values count as positive; 0 and garbage give an empty page without links", async () => {
    expect((await requests("?limit=-2")).names).toEqual(requesters.slice(0, 2));
    expect((await favourites("?limit=-3")).ids).toEqual(favourited.slice(0, 3));
    for (const limit of ["0", "abc", "", "-0"]) {
      const page = await favourites(`?limit=${limit}`);
      expect(page.ids).toEqual([]);
      expect(page.links).toEqual({});
      expect((await requests(`?limit=${limit}`)).names).toEqual([]);
    }
  });

  test("leading digits count, as Ruby's to_i reads them", async () => {
    expect((await requests("?limit=2.9")).names).toEqual(requesters.slice(0, 2));
    expect((await favourites("?limit=3abc")).ids).toEqual(favourited.slice(0, 3));
  });
});

describe("Link", () => {
  test("account lists: next only when the page is full, prev with since_id, cursors are request ids", async () => {
    const first = await requests("?limit=2");
    expect(first.names).toEqual(requesters.slice(0, 2));
    expect(Object.keys(first.links).sort()).toEqual(["next", "prev"]);
    expect(first.links.next).toMatch(new RegExp(`^${BASE}/api/v1/follow_requests\\?limit=2&max_id=\\d+$`));
    expect(first.links.prev).toMatch(new RegExp(`^${BASE}/api/v1/follow_requests\\?limit=2&since_id=\\d+$`));

    const walked: string[] = [];
    let query = "?limit=2";
    for (let guard = 0; guard < 10; guard++) {
      const page = await requests(query);
      walked.push(...page.names);
      if (!page.links.next) {
        expect(page.names.length).toBeLessThan(2); // a short page has no next
        break;
      }
      query = relative(page.links.next, "/api/v1/follow_requests");
    }
    expect(walked).toEqual(requesters);
    // An unpaged, complete list has prev only.
    expect(Object.keys((await requests()).links)).toEqual(["prev"]);
  });

  test("the cursors are not account ids", async () => {
    const ids = ((await get(t, "/api/v1/follow_requests", owner.token)).body as { id: string }[]).map((a) => a.id);
    const cursors = Object.values((await requests("?limit=1")).links).map((url) => /_id=(\d+)/.exec(url)![1]);
    for (const cursor of cursors) expect(ids).not.toContain(cursor);
  });

  test("status lists: next and prev (min_id) on every non-empty page; walking next visits each once", async () => {
    const walked: string[] = [];
    let query = "?limit=7";
    for (let guard = 0; guard < 20; guard++) {
      const page = await favourites(query);
      if (page.ids.length === 0) {
        expect(page.links).toEqual({});
        break;
      }
      expect(Object.keys(page.links).sort()).toEqual(["next", "prev"]);
      expect(page.links.prev).toMatch(/[?&]min_id=\d+$/);
      walked.push(...page.ids);
      query = relative(page.links.next!, "/api/v1/favourites");
    }
    expect(walked).toEqual(favourited);
  });

  test("prev walks back to the newest page", async () => {
    const middle = await favourites("?limit=10");
    const second = await favourites(relative(middle.links.next!, "/api/v1/favourites"));
    expect(second.ids).toEqual(favourited.slice(10, 20));
    const back = await favourites(relative(second.links.prev!, "/api/v1/favourites"));
    expect(back.ids).toEqual(favourited.slice(0, 10));
  });

  test("repeats limit, drops the cursors it replaces and never carries the access token", async () => {
    const res = await t.request(`/api/v1/favourites?limit=3&max_id=99999999999999999999&access_token=${owner.token}`);
    const found = links(res.headers.get("link"));
    expect(found.next).toMatch(new RegExp(`^${BASE}/api/v1/favourites\\?limit=3&max_id=\\d+$`));
    expect(found.prev).toMatch(new RegExp(`^${BASE}/api/v1/favourites\\?limit=3&min_id=\\d+$`));
    expect(res.headers.get("link")).not.toContain(owner.token);
  });
});

describe("cursors", () => {
  let cursors: string[] = [];
  beforeAll(async () => {
    // One page per request, to learn each row's cursor from the Link header.
    cursors = [];
    let query = "?limit=1";
    for (let i = 0; i < 5; i++) {
      const page = await requests(query);
      cursors.push(/max_id=(\d+)/.exec(page.links.next!)![1]!);
      query = relative(page.links.next!, "/api/v1/follow_requests");
    }
  });

  test("max_id: strictly older rows", async () => {
    expect((await requests(`?max_id=${cursors[1]}`)).names).toEqual(requesters.slice(2));
  });

  test("since_id: the newest rows strictly newer; min_id: the rows immediately newer, still newest first", async () => {
    expect((await requests(`?limit=2&since_id=${cursors[4]}`)).names).toEqual(requesters.slice(0, 2));
    expect((await requests(`?limit=2&min_id=${cursors[4]}`)).names).toEqual(requesters.slice(2, 4));
    expect((await requests(`?since_id=${cursors[0]}`)).names).toEqual([]);
    // With min_id, since_id is ignored, as Mastodon's to_a_paginated_by_id does.
    expect((await requests(`?limit=2&min_id=${cursors[4]}&since_id=${cursors[1]}`)).names).toEqual(requesters.slice(2, 4));
  });

  test("padded, huge and malformed cursors never fail", async () => {
    expect((await requests(`?limit=1&max_id=0000${cursors[0]}`)).names).toEqual(requesters.slice(1, 2));
    expect((await requests(`?max_id=${"9".repeat(40)}`)).names).toEqual(requesters);
    expect((await requests(`?min_id=${"9".repeat(5000)}`)).names).toEqual(requesters);
    expect((await requests("?max_id=abc&since_id=-1&min_id=%F0%9F%90%87")).names).toEqual(requesters);
  });

  test("parameters of the wrong shape are 422, not 500", async () => {
    for (const query of ["?limit[]=2", "?max_id[a]=1", "?since_id[]=1&since_id[]=2"]) {
      const res = await get(t, `/api/v1/follow_requests${query}`, owner.token);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(/^Validation failed: /);
    }
  });
});
