// Link cards: fetched by the card.fetch job from a real local HTTP server, shown as status.card and by
// GET /api/v1/statuses/:id/card ({} when there is none). Loopback is only reachable because this app runs
// with WARREN_ALLOW_PRIVATE_ADDRESSES=true; a second app without it must get no card.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { get, newUser, postStatus, type User } from "./statuses-helpers.ts";

let t: TestApp;
let strict: TestApp;
let alice: User;
let server: ReturnType<typeof Bun.serve>;
let base: string;

const page = (head: string, body = "") => new Response(`<!doctype html><html lang="en-GB"><head>${head}</head><body>${body}</body></html>`, {
  headers: { "content-type": "text/html; charset=utf-8" },
});

beforeAll(async () => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      switch (url.pathname) {
        case "/og":
          return page(`
            <title>Fallback title</title>
            <meta property="og:title" content="Open &amp; Graph">
            <meta property="og:description" content="A  described
              page">
            <meta property="og:image" content="/image.png">
            <meta property="og:image:width" content="640"><meta property="og:image:height" content="480">
            <meta property="og:site_name" content="Example Site">
            <meta name="author" content="Ada">
            <meta property="article:published_time" content="2024-05-01T10:00:00Z">`);
        case "/plain":
          return page(`<title> Just a title </title><meta name="description" content="From the description tag">`);
        case "/empty":
          return page("", "<p>no metadata at all</p>");
        case "/json":
          return Response.json({ title: "not html" });
        case "/big":
          return page("", `${"x".repeat(1_200_000)}<title>too far</title>`);
        case "/slow":
          await Bun.sleep(7000); // a server slower than the fetch's time limit, which is under test
          return page("<title>too slow</title>");
        case "/oembed-page":
          return page(`<title>Video page</title><link rel="alternate" type="application/json+oembed" href="/oembed.json">`);
        case "/oembed.json":
          return Response.json({
            type: "video",
            version: "1.0",
            title: "A video",
            author_name: "Director",
            author_url: "https://director.example/",
            provider_name: "Tube",
            provider_url: "https://tube.example/",
            thumbnail_url: "https://tube.example/thumb.jpg",
            html: '<iframe src="https://tube.example/embed/1" width="560" height="315" onload="alert(1)"></iframe><script>alert(2)</script>',
            width: 560,
            height: 315,
          });
      }
      const hops = /^\/redirect\/(\d+)$/.exec(url.pathname);
      if (hops) {
        const n = Number(hops[1]);
        return new Response(null, { status: 302, headers: { location: n > 1 ? `/redirect/${n - 1}` : "/plain" } });
      }
      return new Response("not found", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
  t = await startTestApp({ WARREN_ALLOW_PRIVATE_ADDRESSES: "true" });
  strict = await startTestApp();
  alice = await newUser(t, "alice");
}, 60_000);
afterAll(async () => {
  await t.close();
  await strict.close();
  server.stop(true);
});

async function cardOf(path: string, app = t, user = alice) {
  const status = await postStatus(app === t ? t : app, user, `look: ${base}${path} nice`);
  await app.deps.jobs.drain();
  const res = await get(app, `/api/v1/statuses/${status.id}/card`);
  expect(res.status).toBe(200);
  return { status, card: res.body };
}

describe("link cards", () => {
  test("OpenGraph metadata makes the card, shown on the status too", async () => {
    const { status, card } = await cardOf("/og");
    expect(card).toMatchObject({
      url: `${base}/og`,
      title: "Open & Graph",
      description: "A described page",
      type: "link",
      image: `${base}/image.png`,
      width: 640,
      height: 480,
      provider_name: "Example Site",
      author_name: "Ada",
      language: "en",
      published_at: "2024-05-01T10:00:00.000Z",
      html: "",
      blurhash: null,
    });
    expect(card.authors).toEqual([{ name: "Ada", url: "", account: null }]);
    const shown = await get(t, `/api/v1/statuses/${status.id}`);
    expect(shown.body.card).toEqual(card);
  });

  test("<title> and <meta name=description> are the fallbacks", async () => {
    const { card } = await cardOf("/plain");
    expect(card).toMatchObject({ title: "Just a title", description: "From the description tag", image: null });
  });

  test("no card: {} (never 404) for pages without a title, non-HTML, errors", async () => {
    for (const path of ["/empty", "/json", "/missing"]) {
      const { status, card } = await cardOf(path);
      expect(card).toEqual({});
      expect((await get(t, `/api/v1/statuses/${status.id}`)).body.card).toBeNull();
    }
    const noLink = await postStatus(t, alice, "no link here");
    expect((await get(t, `/api/v1/statuses/${noLink.id}/card`)).body).toEqual({});
  });

  test("redirects are followed up to three times", async () => {
    expect((await cardOf("/redirect/3")).card.title).toBe("Just a title");
    expect((await cardOf("/redirect/4")).card).toEqual({});
  });

  test("at most 1 MiB of a page is read", async () => {
    expect((await cardOf("/big")).card).toEqual({});
  });

  test("oEmbed: video cards keep only a rebuilt https iframe", async () => {
    const { card } = await cardOf("/oembed-page");
    expect(card).toMatchObject({
      type: "video",
      title: "A video",
      author_name: "Director",
      author_url: "https://director.example/",
      provider_name: "Tube",
      provider_url: "https://tube.example/",
      image: "https://tube.example/thumb.jpg",
      width: 560,
      height: 315,
    });
    expect(card.html).toBe('<iframe src="https://tube.example/embed/1" width="560" height="315" frameborder="0" allowfullscreen="true"></iframe>');
  });

  test("a slow page gives up after the time limit", async () => {
    const started = Date.now();
    expect((await cardOf("/slow")).card).toEqual({});
    expect(Date.now() - started).toBeLessThan(6500);
  }, 10_000);

  test("without WARREN_ALLOW_PRIVATE_ADDRESSES a loopback URL gets no card", async () => {
    const user = await newUser(strict, "bob");
    const { card } = await cardOf("/og", strict, user);
    expect(card).toEqual({});
  });

  test("GET …/card of a status the caller may not see: 404", async () => {
    const hidden = await postStatus(t, alice, { status: `${base}/og`, visibility: "private" });
    expect((await get(t, `/api/v1/statuses/${hidden.id}/card`)).status).toBe(404);
    expect((await get(t, "/api/v1/statuses/0/card")).status).toBe(404);
  });
});
