// The kept timeline pages (http/cache/timeline-pages.ts) answer a repeated request before routing and before
// the token check: they must never serve another caller's page, a page after a write that changes what it
// shows (by a request or by a job on a worker thread), a page past the end of a mute that hid something,
// or headers (CORS, Vary, Cache-Control, Link) other than the uncached answer's; and writes that change
// nothing on the page must leave it kept. X-Warren-Cache (WARREN_CACHE_STATUS_HEADER) tells hits from misses.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { block, call, follow, get, mute, newUser, post, postStatus, type User } from "./timelines-helpers.ts";
import { staffUser } from "./admin-helpers.ts";

let t: TestApp;
let reader: User;
let author: User;
let statusId: string;

beforeAll(async () => {
  // Pages below a max_id would be cut from windows of the feed (timelines-windows.test.ts): off, to test the kept pages.
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_CACHE_STATUS_HEADER: "on", WARREN_PAGE_WINDOWS: "off" });
  [reader, author] = [await newUser(t, "kp"), await newUser(t, "kp")];
  await follow(t, reader, author);
  statusId = (await postStatus(t, author, "kept #kept")).id;
  await t.deps.jobs.drain();
});
afterAll(() => t.close());

const ids = (body: any) => (body as { id: string }[]).map((s) => s.id);
const ORIGIN = { origin: "https://elk.example" };

/** The first answer, and the third, which comes from the kept page. */
async function firstAndKept(path: string, init: { token?: string; headers?: Record<string, string> } = {}) {
  const ask = () => t.request(path, { ...init, headers: { ...ORIGIN, ...init.headers } });
  const first = await ask();
  await ask();
  const second = await ask();
  expect(second.headers.get("x-warren-cache")).toBe("hit");
  return { first, second, bodies: [await first.text(), await second.text()] };
}

function sameHeaders(a: Response, b: Response) {
  for (const name of ["access-control-allow-origin", "access-control-expose-headers", "cache-control", "vary", "link", "content-type"]) {
    expect([name, b.headers.get(name)]).toEqual([name, a.headers.get(name)]);
  }
}

describe("headers of a kept page", () => {
  test("anonymous public and hashtag pages: CORS, Vary, public Cache-Control and Link as the first answer", async () => {
    for (const path of ["/api/v1/timelines/public?limit=1", "/api/v1/timelines/tag/kept"]) {
      const { first, second, bodies } = await firstAndKept(path);
      expect(bodies[1]).toBe(bodies[0]);
      sameHeaders(first, second);
      expect(second.headers.get("access-control-allow-origin")).toBe("*");
      expect(second.headers.get("access-control-expose-headers")).toContain("Link");
      expect(second.headers.get("cache-control")).toBe("public, max-age=15, stale-while-revalidate=30, stale-if-error=86400");
      expect(second.headers.get("vary")).toContain("Authorization");
      expect(second.headers.get("link")).toContain(`max_id=${statusId}>; rel="next"`);
      expect(second.headers.get("content-type")).toStartWith("application/json");
    }
  });

  test("a home page: private, no-store on the repeat too", async () => {
    const { first, second, bodies } = await firstAndKept("/api/v1/timelines/home", { token: reader.token });
    expect(bodies[1]).toBe(bodies[0]);
    sameHeaders(first, second);
    expect(second.headers.get("cache-control")).toBe("private, no-store");
    expect(second.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("whose page", () => {
  test("anonymous, header token and query token pages of one URL never mix", async () => {
    const path = "/api/v1/timelines/public";
    const anonymous = await get(t, path);
    const signedIn = await get(t, path, reader.token);
    const again = await get(t, path);
    expect(anonymous.body[0]).not.toHaveProperty("favourited");
    expect(signedIn.body[0]).toHaveProperty("favourited", false);
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");
    expect(again.body[0]).not.toHaveProperty("favourited");
    expect(again.headers.get("cache-control")).toStartWith("public");
    for (const param of ["access_token", "bearer_token"]) {
      const byQuery = await get(t, `${path}?${param}=${reader.token}`);
      expect(byQuery.status).toBe(200);
      expect(byQuery.body[0]).toHaveProperty("favourited", false);
      expect(byQuery.headers.get("cache-control")).toBe("private, no-store");
      expect(byQuery.headers.get("link")).not.toContain(reader.token);
    }
  });

  test("two users asking the same URL get their own pages", async () => {
    const fan = await newUser(t, "kp");
    await post(t, `/api/v1/statuses/${statusId}/favourite`, fan.token);
    const path = "/api/v1/timelines/tag/kept";
    for (let i = 0; i < 2; i++) {
      expect((await get(t, path, fan.token)).body[0]).toMatchObject({ id: statusId, favourited: true });
      expect((await get(t, path, reader.token)).body[0]).toMatchObject({ id: statusId, favourited: false });
    }
    // A bad token after a good one is still refused: the early answer needs the exact credentials.
    expect(await get(t, path, `${fan.token}x`)).toMatchObject({ status: 401, body: { error: "The access token is invalid" } });
  });
});

/**
 * Reads a page until it is kept: a request is kept once it has been asked before (a client paging back
 * through history asks each page once), so the third answer comes from the kept page.
 */
async function kept(path: string, token: string) {
  for (let asked = 0; asked < 3; asked++) {
    const answer = await get(t, path, token);
    expect(answer.status).toBe(200);
    if (answer.headers.get("x-warren-cache") === "hit") return answer;
  }
  throw new Error(`${path} was not kept`);
}

/** The next read of a kept page after `change` (and the jobs it set off), answered as `answered`. */
async function readAfter(path: string, token: string, change: () => Promise<unknown>, answered: "miss" | "rendered") {
  await kept(path, token);
  await change();
  await t.deps.jobs.drain();
  const res = await get(t, path, token);
  expect(res.headers.get("x-warren-cache")).toBe(answered);
  return res;
}

/** The next read of a kept page after `change`: rebuilt, and what it shows. */
const afterChange = (path: string, token: string, change: () => Promise<unknown>) => readAfter(path, token, change, "miss");

/** A reader following an author with one status in the reader's home. */
async function pair() {
  const [reader, author] = [await newUser(t, "kv"), await newUser(t, "kv")];
  await follow(t, reader, author);
  const status = await postStatus(t, author, "kept");
  await t.deps.jobs.drain();
  return { reader, author, status };
}

const HOME = "/api/v1/timelines/home";

describe("which pages are kept", () => {
  test("a request asked once is not kept (paging back through history); asked again, it is", async () => {
    const { reader } = await pair();
    const cache = async (path: string) => (await get(t, path, reader.token)).headers.get("x-warren-cache");
    for (const maxId of ["99999999999999999", "99999999999999998"]) expect(await cache(`${HOME}?max_id=${maxId}`)).toBe("miss");
    expect([await cache(HOME), await cache(HOME), await cache(HOME)]).toEqual(["miss", "miss", "hit"]);
  });
});

describe("a kept page is rebuilt after each write that changes it", () => {
  test("a new status in the feed, put there by the fan-out job on a worker thread (taken into the top page: timelines-prepend.test.ts)", async () => {
    const { reader, author } = await pair();
    let fresh = "";
    const res = await readAfter(HOME, reader.token, async () => (fresh = (await postStatus(t, author, "new")).id), "rendered");
    expect(ids(res.body)[0]).toBe(fresh);
  });

  test("a deletion", async () => {
    const { reader, author, status } = await pair();
    const res = await afterChange(HOME, reader.token, () => call(t, "DELETE", `/api/v1/statuses/${status.id}`, author.token));
    expect(ids(res.body)).not.toContain(status.id);
  });

  test("a block and a mute by the reader, and a block of the reader by the author", async () => {
    for (const change of [
      (reader: User, author: User) => block(t, reader, author),
      (reader: User, author: User) => mute(t, reader, author),
      (reader: User, author: User) => block(t, author, reader),
    ]) {
      const { reader, author, status } = await pair();
      const res = await afterChange("/api/v1/timelines/public?local=true", reader.token, () => change(reader, author));
      expect(ids(res.body)).not.toContain(status.id);
    }
  });

  test("a favourite by someone else (the counter) and by the reader (the flag)", async () => {
    const { reader, status } = await pair();
    const fan = await newUser(t, "kv");
    let res = await afterChange(HOME, reader.token, () => post(t, `/api/v1/statuses/${status.id}/favourite`, fan.token));
    expect(res.body[0]).toMatchObject({ id: status.id, favourites_count: 1, favourited: false });
    res = await afterChange(HOME, reader.token, () => post(t, `/api/v1/statuses/${status.id}/favourite`, reader.token));
    expect(res.body[0]).toMatchObject({ id: status.id, favourites_count: 2, favourited: true });
  });

  test("an author suspended and unsuspended, and the reader suspended: built again (statuses gone, back), refused", async () => {
    const admin = await staffUser(t, `kpadmin${Date.now()}`, "Admin");
    const { reader, author, status } = await pair();
    const res = await afterChange(HOME, reader.token, () => act(admin, author.id, "suspend"));
    expect(ids(res.body)).not.toContain(status.id);
    // The page examined the suspended author without showing it: lifting the suspension builds it again.
    const back = await afterChange(HOME, reader.token, () => call(t, "POST", `/api/v1/admin/accounts/${author.id}/unsuspend`, admin.token));
    expect(ids(back.body)).toContain(status.id);
    await kept(HOME, reader.token);
    await act(admin, reader.id, "suspend");
    expect((await get(t, HOME, reader.token)).status).toBe(403);
  });

  test("a revoked token is refused, not answered from its kept page", async () => {
    const { reader } = await pair();
    await kept(HOME, reader.token);
    const revoked = await t.request("/oauth/revoke", {
      method: "POST",
      form: { client_id: reader.app.client_id, client_secret: reader.app.client_secret, token: reader.token },
    });
    expect(revoked.status).toBe(200);
    expect(await get(t, HOME, reader.token)).toMatchObject({ status: 401 });
  });

  test("the end of a mute that hid a status, with nothing written", async () => {
    const { reader, author, status } = await pair();
    // No job may run meanwhile (the mute's clean-up would be a write): this is the page's own end. (Paused,
    // not stopped: a stopped queue does not start again, and the tests after this one need it.)
    t.deps.jobs.pause();
    try {
      expect((await call(t, "POST", `/api/v1/accounts/${author.id}/mute`, reader.token, { duration: 1 })).status).toBe(200);
      const mutedUntil = Date.now() + 1000;
      expect(ids((await kept(HOME, reader.token)).body)).not.toContain(status.id);
      await Bun.sleep(mutedUntil - Date.now() + 20);
      const res = await get(t, HOME, reader.token);
      expect(res.headers.get("x-warren-cache")).toBe("miss");
      expect(ids(res.body)).toContain(status.id);
    } finally {
      t.deps.jobs.resume();
    }
  });
});

const act = (admin: { token: string }, id: string, type: string) =>
  call(t, "POST", `/api/v1/admin/accounts/${id}/action`, admin.token, { type, send_email_notification: false });

describe("a kept page whose only change is in the accounts it shows is rendered again from what it loaded", () => {
  let freshAsked = 0;
  /** The next read of a kept page after `change`: rendered again, and exactly what a fresh build shows. */
  async function renderedAfter(path: string, token: string, change: () => Promise<unknown>) {
    const res = await readAfter(path, token, change, "rendered");
    // A URL never asked before is built afresh (the pages here hold fewer than 10 statuses).
    const fresh = await get(t, `${path}${path.includes("?") ? "&" : "?"}limit=${20 - freshAsked++}`, token);
    expect(fresh.headers.get("x-warren-cache")).toBe("miss");
    expect(res.body).toEqual(fresh.body);
    return res;
  }

  test("an author's profile and counters (a new follower)", async () => {
    const { reader, author } = await pair();
    let res = await renderedAfter(HOME, reader.token, () =>
      call(t, "PATCH", "/api/v1/accounts/update_credentials", author.token, { display_name: "Renamed" }),
    );
    expect(res.body[0].account.display_name).toBe("Renamed");
    const before = res.body[0].account.followers_count;
    const stranger = await newUser(t, "kv");
    res = await renderedAfter(HOME, reader.token, () => follow(t, stranger, author));
    expect(res.body[0].account.followers_count).toBe(before + 1);
  });

  test("not when the change is one the timeline rules ask about: a silenced author leaves the public timeline", async () => {
    const admin = await staffUser(t, `kpadmin${Date.now()}`, "Admin");
    const [reader, author] = [await newUser(t, "kv"), await newUser(t, "kv")];
    const status = await postStatus(t, author, "public for now");
    const path = "/api/v1/timelines/public?local=true";
    expect(ids((await kept(path, reader.token)).body)).toContain(status.id);
    await act(admin, author.id, "silence");
    const res = await get(t, path, reader.token);
    expect(res.headers.get("x-warren-cache")).toBe("miss");
    expect(ids(res.body)).not.toContain(status.id);
  });
});

describe("a kept page survives writes that change nothing on it", () => {
  test("statuses fanned out to others, favourites and follows elsewhere, another user's profile", async () => {
    const { reader } = await pair();
    const [other, stranger] = [await newUser(t, "kv"), await newUser(t, "kv")];
    await follow(t, other, stranger);
    await kept(HOME, reader.token);
    const elsewhere = await postStatus(t, stranger, "not in the reader's home");
    await post(t, `/api/v1/statuses/${elsewhere.id}/favourite`, other.token);
    await call(t, "PATCH", "/api/v1/accounts/update_credentials", stranger.token, { display_name: "Someone else" });
    await t.deps.jobs.drain();
    const res = await get(t, HOME, reader.token);
    expect(res.headers.get("x-warren-cache")).toBe("hit");
  });
});
