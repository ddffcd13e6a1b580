// Trends: tags, statuses and links computed by the refresh job from recent public activity, listed once staff
// approve them (or with auto-approval on), re-checked at read time, offset-paged; the admin review routes,
// link publishers (sites) included.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { suspendAccount } from "../helpers/moderation.ts";
import { staffUser } from "./admin-helpers.ts";
import { refreshTrends, startTrendsRefresh, storeTrends } from "../../src/domain/trends/refresh.ts";
import { TRENDS_REFRESH } from "../../src/domain/job-names.ts";
import { nextRefreshAt, setAutoApprove } from "../../src/store/trends.ts";
import { block, favourite, follow, get, newUser, post, postStatus, reblog } from "./notifications-helpers.ts";

let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let base: string;
let staff: { token: string };

beforeAll(async () => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => new Response(`<!doctype html><html><head><title>Big news</title><meta property="og:description" content="Everyone shares it"></head></html>`, {
      headers: { "content-type": "text/html; charset=utf-8" },
    }),
  });
  base = `http://127.0.0.1:${server.port}`;
  t = await startTestApp({ WARREN_ALLOW_PRIVATE_ADDRESSES: "true" });
  staff = await staffUser(t, "trendstaff", "Moderator");
});
afterAll(async () => {
  await t.close();
  server.stop(true);
});

const refresh = async () => {
  await t.deps.jobs.drain();
  await storeTrends(t.deps.store);
};
const autoApprove = (on: boolean) => t.deps.store.write(() => setAutoApprove(t.deps.store, on));
const names = (body: { name: string }[]) => body.map((tag) => tag.name);

/** Three accounts use #tag publicly and share a link; one public post is reblogged and favourited; a
 * private one is favourited by followers. */
async function scene(tag: string) {
  const [a, b, c] = [await newUser(t, "tr"), await newUser(t, "tr"), await newUser(t, "tr")];
  const popular = await postStatus(t, a, `hello #${tag} ${base}/news-${tag}`);
  await postStatus(t, b, `me too #${tag} ${base}/news-${tag}`);
  await postStatus(t, c, `#${tag}!`);
  await favourite(t, b, popular.id);
  await favourite(t, c, popular.id);
  await reblog(t, c, popular.id);
  await follow(t, b, a);
  await follow(t, c, a);
  const secret = await postStatus(t, a, { status: `private #${tag}secret`, visibility: "private" });
  await favourite(t, b, secret.id);
  await favourite(t, c, secret.id);
  await refresh();
  return { a, b, c, popular, secret };
}

describe("GET /api/v1/trends/*", () => {
  test("nothing is listed before review; approved tags, statuses and links are, with their keys", async () => {
    const { popular, secret } = await scene("spring");
    expect((await get(t, "/api/v1/trends/tags")).body).toEqual([]);
    expect((await get(t, "/api/v1/trends/statuses")).body).toEqual([]);
    expect((await get(t, "/api/v1/trends/links")).body).toEqual([]);

    const candidates = await get(t, "/api/v1/admin/trends/tags", staff.token);
    expect(candidates.status).toBe(200);
    expect(candidates.body.find((c: { name: string }) => c.name === "spring")).toMatchObject({ requires_review: true, trendable: false });
    expect((await post(t, "/api/v1/admin/trends/tags/spring/approve", staff.token)).body).toMatchObject({ name: "spring", requires_review: false, trendable: true });
    const tags = await get(t, "/api/v1/trends/tags");
    expect(names(tags.body)).toEqual(["spring"]);
    expect((await get(t, "/api/v1/trends")).body).toEqual(tags.body);
    expect(tags.body[0].history[0]).toMatchObject({ accounts: "3", uses: "3" });

    const statuses = (await get(t, "/api/v1/admin/trends/statuses", staff.token)).body as { id: string }[];
    expect(statuses.map((s) => s.id)).toContain(popular.id);
    expect(statuses.map((s) => s.id)).not.toContain(secret.id);
    expect((await post(t, `/api/v1/admin/trends/statuses/${popular.id}/approve`, staff.token)).status).toBe(200);
    expect(((await get(t, "/api/v1/trends/statuses")).body as { id: string }[]).map((s) => s.id)).toEqual([popular.id]);

    const links = (await get(t, "/api/v1/admin/trends/links", staff.token)).body as { id: string; url: string }[];
    const news = links.find((l) => l.url === `${base}/news-spring`)!;
    expect(news).toBeDefined();
    expect((await post(t, `/api/v1/admin/trends/links/${news.id}/approve`, staff.token)).status).toBe(200);
    const listed = await get(t, "/api/v1/trends/links");
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ url: `${base}/news-spring`, title: "Big news" });
    expect(listed.body[0].history[0]).toMatchObject({ accounts: "2", uses: "2" });
    expect(listed.body[0].history).toHaveLength(7);

    const url = encodeURIComponent(`${base}/news-spring`);
    const timeline = await get(t, `/api/v1/timelines/link?url=${url}`);
    expect(timeline.status).toBe(200);
    const anonymous = await t.request(`/api/v1/timelines/link?url=${url}`);
    expect(anonymous.headers.get("cache-control")).toStartWith("public, max-age=60");
    expect(timeline.body).toHaveLength(2);
    expect(timeline.body[1].id).toBe(popular.id);
    expect(((await get(t, `/api/v1/timelines/link?url=${url}&limit=1`)).body as { id: string }[]).map((s) => s.id)).toEqual([timeline.body[0].id]);
    expect(((await get(t, `/api/v1/timelines/link?url=${url}&max_id=${timeline.body[0].id}`)).body as { id: string }[]).map((s) => s.id)).toEqual([popular.id]);
    expect(((await get(t, `/api/v1/timelines/link?url=${url}&min_id=${popular.id}`)).body as { id: string }[]).map((s) => s.id)).toEqual([timeline.body[0].id]);
    expect((await get(t, "/api/v1/timelines/link")).status).toBe(400);
    expect((await get(t, `/api/v1/timelines/link?url=${encodeURIComponent(`${base}/news-autumn`)}`)).status).toBe(404);
  });

  test("rejected stays out even with auto-approval; auto-approval lists the unreviewed", async () => {
    await scene("autumn");
    expect((await post(t, "/api/v1/admin/trends/tags/autumn/reject", staff.token)).body).toMatchObject({ requires_review: false, trendable: false });
    await autoApprove(true);
    try {
      const listed = names((await get(t, "/api/v1/trends/tags?limit=20")).body);
      expect(listed).not.toContain("autumn");
      expect(listed).toContain("spring");
      expect(listed).not.toContain("springsecret");
      expect(listed).not.toContain("autumnsecret");
    } finally {
      await autoApprove(false);
    }
  });

  test("read-time checks: blocked and suspended authors, deleted statuses, private posts never", async () => {
    const { a, popular } = await scene("winter");
    await autoApprove(true);
    try {
      const viewer = await newUser(t, "tr");
      expect(((await get(t, "/api/v1/trends/statuses", viewer.token)).body as { id: string }[]).map((s) => s.id)).toContain(popular.id);
      await block(t, viewer, a);
      expect(((await get(t, "/api/v1/trends/statuses", viewer.token)).body as { id: string }[]).map((s) => s.id)).not.toContain(popular.id);
      await t.request(`/api/v1/statuses/${popular.id}`, { method: "DELETE", token: a.token });
      expect(((await get(t, "/api/v1/trends/statuses")).body as { id: string }[]).map((s) => s.id)).not.toContain(popular.id);
      const other = await scene("summer");
      expect(((await get(t, "/api/v1/trends/statuses")).body as { id: string }[]).map((s) => s.id)).toContain(other.popular.id);
      await suspendAccount(t, other.a.id);
      expect(((await get(t, "/api/v1/trends/statuses")).body as { id: string }[]).map((s) => s.id)).not.toContain(other.popular.id);
    } finally {
      await autoApprove(false);
    }
  });

  test("offset paging with Link headers; limits clamp", async () => {
    await autoApprove(true);
    try {
      const all = names((await get(t, "/api/v1/trends/tags?limit=20")).body);
      expect(all.length).toBeGreaterThanOrEqual(2);
      const first = await get(t, "/api/v1/trends/tags?limit=1");
      expect(names(first.body)).toEqual(all.slice(0, 1));
      expect(first.headers.get("link")).toContain('offset=1>; rel="next"');
      const second = await get(t, "/api/v1/trends/tags?limit=1&offset=1");
      expect(names(second.body)).toEqual(all.slice(1, 2));
      expect(second.headers.get("link")).toContain('offset=0>; rel="prev"');
      expect((await get(t, "/api/v1/trends/tags?offset=1000")).body).toEqual([]);
    } finally {
      await autoApprove(false);
    }
  });
});

describe("admin review", () => {
  test("staff only, and only current candidates", async () => {
    const user = await newUser(t, "tr");
    expect((await get(t, "/api/v1/admin/trends/tags", user.token)).status).toBe(403);
    expect((await post(t, "/api/v1/admin/trends/tags/spring/approve", user.token)).status).toBe(403);
    expect((await get(t, "/api/v1/admin/trends/tags")).status).toBe(401);
    expect((await post(t, "/api/v1/admin/trends/tags/nosuchtag/approve", staff.token)).status).toBe(404);
    expect((await post(t, "/api/v1/admin/trends/statuses/123/approve", staff.token)).status).toBe(404);
    expect((await post(t, "/api/v1/admin/trends/links/abc/reject", staff.token)).status).toBe(404);
    expect((await post(t, "/api/v1/admin/trends/links/publishers/nowhere.example/approve", staff.token)).status).toBe(404);
    expect((await get(t, "/api/v1/admin/trends/links/publishers", user.token)).status).toBe(403);
  });

  test("link publishers: a site's review decides its links that have none of their own", async () => {
    await scene("autumn");
    const autumn = `${base}/news-autumn`;
    const publishers = await get(t, "/api/v1/admin/trends/links/publishers", staff.token);
    expect(publishers.status).toBe(200);
    expect(publishers.body).toEqual([
      { id: "127.0.0.1", domain: "127.0.0.1", trendable: false, reviewed_at: null, requested_review_at: null, requires_review: true },
    ]);
    const trendingUrls = async () => ((await get(t, "/api/v1/trends/links")).body as { url: string }[]).map((l) => l.url);
    expect(await trendingUrls()).not.toContain(autumn);
    const approved = await post(t, "/api/v1/admin/trends/links/publishers/127.0.0.1/approve", staff.token);
    expect(approved.body).toMatchObject({ domain: "127.0.0.1", trendable: true, requires_review: false });
    expect(typeof approved.body.reviewed_at).toBe("string");
    expect(await trendingUrls()).toContain(autumn);
    const candidate = ((await get(t, "/api/v1/admin/trends/links", staff.token)).body as any[]).find((l) => l.url === autumn);
    expect(candidate.requires_review).toBe(false);
    // A link's own review wins over its site's.
    await post(t, `/api/v1/admin/trends/links/${candidate.id}/reject`, staff.token);
    expect(await trendingUrls()).not.toContain(autumn);
    expect((await post(t, "/api/v1/admin/trends/links/publishers/127.0.0.1/reject", staff.token)).body.trendable).toBe(false);
  });
});

describe("the refresh job", () => {
  test("start-up starts one chain; each run schedules the next; a stale run does nothing", async () => {
    await startTrendsRefresh(t.deps);
    const first = nextRefreshAt(t.deps.store)!;
    await startTrendsRefresh(t.deps);
    expect(nextRefreshAt(t.deps.store)).toBe(first);
    await t.deps.jobs.drain();
    const next = nextRefreshAt(t.deps.store)!;
    expect(next).toBeGreaterThan(first);
    await refreshTrends(t.deps, { runAt: first });
    expect(nextRefreshAt(t.deps.store)).toBe(next);
    expect(TRENDS_REFRESH).toBe("trends.refresh");
  });
});

