// A revoked token (POST /oauth/revoke, API.md §2.6) is refused by every route that reads a token: 401
// "The access token is invalid", in the header or the query string, on public routes too (a token that
// is sent must be valid). Routes that ignore tokens (instance information, discovery) still answer, and
// the user's other tokens keep working.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, passwordToken, signedInUser } from "../helpers/clients.ts";

setDefaultTimeout(60_000);

interface Route {
  method: string;
  path: string;
  hooks: { detail?: { security?: Record<string, string[]>[] } };
}

const CLIENT_PATHS = /^\/(api|oauth|\.well-known|nodeinfo)(\/|$)/;
const INVALID = { error: "The access token is invalid" };

let t: TestApp;
let routes: Route[];
let revokedUser: string;
let revokedApp: string;
let otherToken: string;
let bobId: string;
let statusId: string;

async function revoke(client: { client_id: string; client_secret: string }, token: string) {
  const res = await t.request("/oauth/revoke", { method: "POST", form: { ...client, token } });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({});
}

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open" });
  const alice = await signedInUser(t, "alice");
  const bob = await signedInUser(t, "bob");
  bobId = bob.id;
  statusId = ((await (await t.request("/api/v1/statuses", { method: "POST", token: bob.token, json: { status: "hi #revoked" } })).json()) as { id: string }).id;
  revokedUser = alice.token;
  revokedApp = (await appToken(t, alice.app, "read write")).access_token;
  otherToken = (await passwordToken(t, alice.app, "alice", alice.password)).access_token;
  // Both work before.
  expect((await t.request("/api/v1/accounts/verify_credentials", { token: revokedUser })).status).toBe(200);
  expect((await t.request("/api/v1/apps/verify_credentials", { token: revokedApp })).status).toBe(200);
  await revoke(alice.app, revokedUser);
  await revoke(alice.app, revokedApp);
  routes = (t.app.routes as unknown as Route[]).filter((r) => CLIENT_PATHS.test(r.path) && r.method !== "WS");
});
afterAll(() => t.close());

function pathOf(route: Route): string {
  const id = route.path.startsWith("/api/v1/statuses/") ? statusId : bobId;
  let path = route.path.replace(":hashtag", "revoked").replace(":account_id", bobId).replace(":id", id);
  if (route.path === "/api/v1/accounts/lookup") path += "?acct=bob";
  if (route.path === "/api/v1/accounts" || route.path === "/api/v1/statuses") path += `?id[]=${route.path === "/api/v1/statuses" ? statusId : bobId}`;
  if (route.path.startsWith("/api/v1/streaming/hashtag")) path += "?tag=revoked";
  return path;
}

const readsTokens = (route: Route) => route.hooks.detail?.security?.some((s) => "bearer" in s) || route.path.startsWith("/api/v1/streaming/") && route.path !== "/api/v1/streaming/health";

describe("a revoked token", () => {
  test("there are route families to check", () => {
    const families = new Set(routes.filter(readsTokens).map((r) => r.path.split("/").slice(0, 4).join("/")));
    for (const family of ["/api/v1/accounts", "/api/v1/statuses", "/api/v1/timelines", "/api/v1/lists", "/api/v1/markers", "/api/v1/follow_requests", "/api/v1/blocks", "/api/v1/mutes", "/api/v1/favourites", "/api/v1/bookmarks", "/api/v1/streaming", "/api/v1/apps", "/oauth/userinfo"]) {
      expect(families).toContain(family);
    }
  });

  test("is 401 on every route that reads a token, user token or app token, header or query", async () => {
    const problems: string[] = [];
    for (const route of routes.filter(readsTokens)) {
      for (const token of [revokedUser, revokedApp]) {
        const init = route.method === "GET" ? {} : { json: {} };
        const answers = [
          await t.request(pathOf(route), { method: route.method, token, ...init }),
          await t.request(`${pathOf(route)}${pathOf(route).includes("?") ? "&" : "?"}access_token=${token}`, { method: route.method, ...init }),
        ];
        // The streaming endpoints answer with the streaming server's own wording ("Invalid access token").
        const expected = route.path.startsWith("/api/v1/streaming/") ? { error: "Invalid access token" } : INVALID;
        for (const res of answers) {
          const body = await res.text();
          if (res.status !== 401 || body !== JSON.stringify(expected)) problems.push(`${route.method} ${route.path}: ${res.status} ${body.slice(0, 80)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test("does not matter where no token is read", async () => {
    for (const path of ["/api/v2/instance", "/api/v1/instance", "/api/v1/instance/rules", "/.well-known/nodeinfo", "/nodeinfo/2.0", "/.well-known/oauth-authorization-server"]) {
      expect((await t.request(path, { token: revokedUser })).status).toBe(200);
    }
  });

  test("leaves the user's other tokens, and anonymous reads, working", async () => {
    expect((await t.request("/api/v1/accounts/verify_credentials", { token: otherToken })).status).toBe(200);
    expect((await t.request("/api/v1/timelines/home", { token: otherToken })).status).toBe(200);
    expect((await t.request(`/api/v1/accounts/${bobId}`)).status).toBe(200);
    expect((await t.request(`/api/v1/statuses/${statusId}`)).status).toBe(200);
  });

  test("cannot sign anyone up", async () => {
    const res = await t.request("/api/v1/accounts", {
      method: "POST",
      token: revokedApp,
      json: { username: "ghost", email: "ghost@example.com", password: "ghost password", agreement: true },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(INVALID);
  });
});
