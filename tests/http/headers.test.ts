// Caching headers (API.md §1.6, DESIGN.md): every answer varies on Authorization, errors included;
// anonymous reads of public data may be cached publicly; answers to a token are private; instance
// information is public for 5 minutes whoever asks.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, signedInUser } from "../helpers/clients.ts";

setDefaultTimeout(60_000);

interface Route {
  method: string;
  path: string;
  hooks: { detail?: { security?: Record<string, string[]>[] } };
}

const CLIENT_PATHS = /^\/(api|oauth|\.well-known|nodeinfo)(\/|$)/;
/** Not data: the HTML sign-in page and the streaming health probe; and the link timeline, 404 for any link that
 * is not trending (its caching is checked in tests/http/trends.test.ts). */
const NOT_DATA = new Set(["/oauth/authorize", "/api/v1/streaming/health", "/api/v1/timelines/link"]);
const isEventStream = (path: string) => path.startsWith("/api/v1/streaming/") && path !== "/api/v1/streaming/health";

let t: TestApp;
let routes: Route[];
let userToken: string;
let appTokenValue: string;
let samples: Map<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  const alice = await signedInUser(t, "alice");
  const bob = await signedInUser(t, "bob");
  userToken = alice.token;
  appTokenValue = (await appToken(t, alice.app, "read")).access_token;
  const status = (await (await t.request("/api/v1/statuses", { method: "POST", token: bob.token, json: { status: "hi #cache" } })).json()) as { id: string };
  const poll = (await (await t.request("/api/v1/statuses", {
    method: "POST",
    token: bob.token,
    json: { status: "which?", poll: { options: ["a", "b"], expires_in: 3600 } },
  })).json()) as { id: string };
  const collection = (await (await t.request("/api/v1/collections", { method: "POST", token: bob.token, json: { name: "cached", description: "a collection", discoverable: true } })).json()) as { collection: { id: string } };
  await t.deps.jobs.drain();
  routes = (t.app.routes as unknown as Route[]).filter((r) => CLIENT_PATHS.test(r.path) && r.method !== "WS");
  // A request for each route that finds something.
  samples = new Map(
    routes.map((r) => {
      const id = r.path.startsWith("/api/v1/statuses/") ? status.id
        : r.path.startsWith("/api/v1/polls/") ? poll.id
        : r.path.startsWith("/api/v1/collections/") ? collection.collection.id
        : bob.id;
      let path = r.path.replace(":hashtag", "cache").replace(":name", "cache").replace(":account_id", bob.id).replace(":id", id);
      if (r.path === "/api/v1/accounts/lookup") path += "?acct=bob";
      if (r.path === "/api/v2/search") path += "?q=bob";
      if (r.path === "/api/v1/accounts") path += `?id[]=${bob.id}`;
      if (r.path === "/api/v1/statuses") path += `?id[]=${status.id}`;
      if (r.path === "/.well-known/webfinger") path += "?resource=acct:bob@localhost:3000";
      return [`${r.method} ${r.path}`, path];
    }),
  );
});
afterAll(() => t.close());

const sample = (route: Route) => samples.get(`${route.method} ${route.path}`)!;
const isPublic = (route: Route) => !route.hooks.detail?.security || route.hooks.detail.security.some((s) => Object.keys(s).length === 0);
const publicReads = () => routes.filter((r) => r.method === "GET" && isPublic(r) && !NOT_DATA.has(r.path));

describe("Vary: Authorization", () => {
  test("on every answer of every client route, with or without a token, errors included", async () => {
    const problems: string[] = [];
    for (const route of routes) {
      for (const token of [undefined, "bad", appTokenValue, userToken]) {
        if (isEventStream(route.path) && token === userToken) continue; // an open stream
        const res = await t.request(sample(route), { method: route.method, token, ...(route.method === "GET" ? {} : { json: {} }) });
        const vary = res.headers.get("vary") ?? "";
        if (!/(^|,\s*)Authorization(\s*,|$)/i.test(vary)) problems.push(`${route.method} ${route.path} (${res.status}): vary "${vary}"`);
        await res.body?.cancel();
      }
    }
    expect(problems).toEqual([]);
  });

  test("on unknown routes, unparseable bodies, HEAD and CORS preflights", async () => {
    const answers = [
      await t.request("/api/v1/nothing-here"),
      await t.request("/api/v1/statuses", { method: "POST", token: userToken, headers: { "content-type": "application/json" }, body: "{oops" }),
      await t.request("/api/v2/instance", { method: "HEAD" }),
      await t.request("/api/v1/timelines/home", { method: "OPTIONS", headers: { origin: "https://elk.example", "access-control-request-method": "GET" } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 400, 200, 204]);
    for (const res of answers) expect(res.headers.get("vary")).toContain("Authorization");
  });
});

describe("Cache-Control", () => {
  test("anonymous GETs of public data are publicly cacheable", async () => {
    const reads = publicReads();
    expect(reads.length).toBeGreaterThan(25);
    const problems: string[] = [];
    for (const route of reads) {
      const res = await t.request(sample(route));
      const value = res.headers.get("cache-control") ?? "";
      if (res.status !== 200 || !/^public, max-age=\d+/.test(value)) problems.push(`${route.path}: ${res.status} "${value}"`);
      await res.body?.cancel();
    }
    expect(problems).toEqual([]);
  });

  test("the same reads with a token are private, except documents that are the same for everyone", async () => {
    const problems: string[] = [];
    for (const route of publicReads()) {
      const res = await t.request(sample(route), { token: userToken });
      const value = res.headers.get("cache-control") ?? "";
      const personal = route.hooks.detail?.security !== undefined;
      if (personal ? !/private|no-store/.test(value) || value.includes("public") : !value.startsWith("public")) {
        problems.push(`${route.path}: "${value}"`);
      }
      await res.body?.cancel();
    }
    expect(problems).toEqual([]);
  });

  test("reads that need a token, and writes, are never public", async () => {
    const problems: string[] = [];
    for (const route of routes.filter((r) => !isPublic(r) && !isEventStream(r.path))) {
      const res = await t.request(sample(route), { method: route.method, token: userToken, ...(route.method === "GET" ? {} : { json: {} }) });
      const value = res.headers.get("cache-control") ?? "";
      if (value.includes("public")) problems.push(`${route.method} ${route.path}: "${value}"`);
      await res.body?.cancel();
    }
    expect(problems).toEqual([]);
  });

  test("instance information: public for 300 s for anyone, with any token or none", async () => {
    for (const path of ["/api/v2/instance", "/api/v1/instance", "/api/v1/instance/rules", "/api/v1/instance/extended_description"]) {
      for (const token of [undefined, userToken, appTokenValue, "bad"]) {
        const res = await t.request(path, { token });
        expect(res.status).toBe(200);
        expect(res.headers.get("cache-control")).toStartWith("public, max-age=300");
      }
      expect((await t.request(`${path}?access_token=${userToken}`)).headers.get("cache-control")).toStartWith("public, max-age=300");
    }
  });

  test("a token in the query string makes an answer private too", async () => {
    const res = await t.request(`/api/v1/timelines/public?access_token=${userToken}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).not.toContain("public");
  });

  test("HEAD is cached like GET", async () => {
    const res = await t.request("/api/v1/timelines/public", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=15");
  });

  test("the OAuth discovery document is the same for everyone", async () => {
    const res = await t.request("/.well-known/oauth-authorization-server", { token: userToken });
    expect(res.headers.get("cache-control")).toStartWith("public");
  });
});

describe("Date", () => {
  test("every answer carries the server's clock (Bun adds none): API, errors, HEAD /, ActivityPub", async () => {
    const problems: string[] = [];
    const answers = [
      ...(await Promise.all(routes.filter((r) => !isEventStream(r.path)).map(async (r) => [r.path, await t.request(sample(r), { method: r.method, ...(r.method === "GET" ? {} : { json: {} }) })] as const))),
      ["HEAD /", await t.request("/", { method: "HEAD" })] as const,
      ["actor", await t.request("/users/bob", { headers: { accept: "application/activity+json" } })] as const,
    ];
    for (const [what, res] of answers) {
      const date = Date.parse(res.headers.get("date") ?? "");
      if (!(Math.abs(date - Date.now()) < 60_000)) problems.push(`${what} (${res.status}): "${res.headers.get("date")}"`);
      await res.body?.cancel();
    }
    expect(problems).toEqual([]);
  });
});

