// Follow suggestions through HTTP: GET /api/v2/suggestions and /api/v1/suggestions, DELETE …/:account_id.
// Every source, the merging of sources into one entry, the ranking, every exclusion, dismissal, limit and
// offset, the v1 shape, scopes. Each test starts its own app: the global rankings are kept for minutes, so a
// test builds its world first and then asks.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createUser, passwordToken, signedInUser } from "../helpers/clients.ts";
import { silenceAccount, suspendAccount } from "../helpers/moderation.ts";
import { addFeatured } from "../../src/domain/suggestions/featured.ts";
import { changeUser } from "../../src/domain/accounts/manage.ts";

setDefaultTimeout(60_000);

type User = Awaited<ReturnType<typeof signedInUser>>;

interface World {
  t: TestApp;
  u: Record<string, User>;
}

/** A fresh app with these signed-in users; closed after `body` whatever happens. */
async function inWorld(names: string[], body: (w: World) => Promise<void>): Promise<void> {
  const t = await startTestApp();
  try {
    const u: Record<string, User> = {};
    for (const name of names) u[name] = await signedInUser(t, name);
    await body({ t, u });
  } finally {
    await t.close();
  }
}

async function call(t: TestApp, method: string, path: string, token: string, json?: unknown) {
  const res = await t.request(path, { method, token, ...(json !== undefined ? { json } : {}) });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

const follow = (w: World, a: string, b: string) => call(w.t, "POST", `/api/v1/accounts/${w.u[b]!.id}/follow`, w.u[a]!.token);
const unfollow = (w: World, a: string, b: string) => call(w.t, "POST", `/api/v1/accounts/${w.u[b]!.id}/unfollow`, w.u[a]!.token);
const profile = (w: World, a: string, fields: Record<string, unknown>) =>
  call(w.t, "PATCH", "/api/v1/accounts/update_credentials", w.u[a]!.token, fields);
const pick = (w: World, name: string) => addFeatured(w.t.deps, name);

async function suggestions(w: World, viewer: string, query = ""): Promise<any[]> {
  return call(w.t, "GET", `/api/v2/suggestions${query}`, w.u[viewer]!.token);
}

/** username → sources, in the order suggested. */
async function sourcesOf(w: World, viewer: string, query = ""): Promise<[string, string[]][]> {
  return (await suggestions(w, viewer, query)).map((s) => [s.account.username, s.sources]);
}

async function names(w: World, viewer: string, query = ""): Promise<string[]> {
  return (await suggestions(w, viewer, query)).map((s) => s.account.username);
}

async function post(w: World, author: string, visibility = "public"): Promise<string> {
  return (await call(w.t, "POST", "/api/v1/statuses", w.u[author]!.token, { status: `by ${author}`, visibility })).id;
}

describe("sources", () => {
  test("featured: staff picks come first, in the order picked, whatever the others score", () =>
    inWorld(["viewer", "fan1", "fan2", "star", "pick1", "pick2"], async (w) => {
      // star is followed by two local users: a computed suggestion with a high score.
      await follow(w, "fan1", "star");
      await follow(w, "fan2", "star");
      await pick(w, "pick2");
      await pick(w, "pick1");
      const got = await suggestions(w, "viewer");
      expect(got.slice(0, 2).map((s) => [s.account.username, s.sources, s.source])).toEqual([
        ["pick2", ["featured"], "staff"],
        ["pick1", ["featured"], "staff"],
      ]);
      expect(got.map((s) => s.account.username)).toContain("star");
    }));

  test("friends_of_friends: followed by the accounts the viewer follows, more friends ranking higher", () =>
    inWorld(["viewer", "friend1", "friend2", "one", "two"], async (w) => {
      await follow(w, "viewer", "friend1");
      await follow(w, "viewer", "friend2");
      await follow(w, "friend1", "one");
      await follow(w, "friend1", "two");
      await follow(w, "friend2", "two");
      const got = await suggestions(w, "viewer");
      // Local follows also make them most followed: one entry each, listing both sources.
      expect(got.map((s) => [s.account.username, s.sources, s.source])).toEqual([
        ["two", ["friends_of_friends", "most_followed"], "past_interactions"],
        ["one", ["friends_of_friends", "most_followed"], "past_interactions"],
      ]);
    }));

  test("friends_of_friends: a friend who hides their collections lends none of their follows", () =>
    inWorld(["viewer", "friend", "hidden"], async (w) => {
      await follow(w, "viewer", "friend");
      await follow(w, "friend", "hidden");
      expect(await sourcesOf(w, "viewer")).toEqual([["hidden", ["friends_of_friends", "most_followed"]]]);
      await profile(w, "friend", { hide_collections: true });
      expect(await sourcesOf(w, "viewer")).toEqual([["hidden", ["most_followed"]]]);
    }));

  test("friends_of_friends is read again when a friend follows someone new (the per-viewer cache)", () =>
    inWorld(["viewer", "friend", "first", "later"], async (w) => {
      await follow(w, "viewer", "friend");
      await follow(w, "friend", "first");
      expect(await names(w, "viewer")).toEqual(["first"]);
      await follow(w, "friend", "later");
      const got = await sourcesOf(w, "viewer");
      // Not yet counted by most_followed (kept for minutes), but a friend of a friend at once.
      expect(got.find(([name]) => name === "later")).toEqual(["later", ["friends_of_friends"]]);
    }));

  test("similar_to_recently_followed: followed by the other followers of whom the viewer just followed", () =>
    inWorld(["viewer", "artist", "fan", "related"], async (w) => {
      await follow(w, "fan", "artist");
      await follow(w, "fan", "related");
      await follow(w, "viewer", "artist");
      // The viewer does not follow the fan: not a friend of a friend, but a follow of a fellow follower.
      expect(await sourcesOf(w, "viewer")).toEqual([["related", ["similar_to_recently_followed", "most_followed"]]]);
    }));

  test("most_followed: the accounts the most local users follow, most first", () =>
    inWorld(["viewer", "a", "b", "c", "popular", "known"], async (w) => {
      for (const fan of ["a", "b", "c"]) await follow(w, fan, "popular");
      await follow(w, "a", "known");
      expect(await sourcesOf(w, "viewer")).toEqual([
        ["popular", ["most_followed"]],
        ["known", ["most_followed"]],
      ]);
    }));

  test("most_interactions: authors whose recent public statuses were favourited and reblogged most", () =>
    inWorld(["viewer", "a", "b", "loud", "quiet", "silent", "secret"], async (w) => {
      const loud1 = await post(w, "loud");
      const loud2 = await post(w, "loud", "unlisted");
      const quiet = await post(w, "quiet");
      await post(w, "silent");
      const secret = await post(w, "secret", "direct");
      await call(w.t, "POST", `/api/v1/statuses/${loud1}/favourite`, w.u.a!.token);
      await call(w.t, "POST", `/api/v1/statuses/${loud1}/reblog`, w.u.b!.token);
      await call(w.t, "POST", `/api/v1/statuses/${loud2}/favourite`, w.u.b!.token);
      await call(w.t, "POST", `/api/v1/statuses/${quiet}/favourite`, w.u.a!.token);
      await call(w.t, "POST", `/api/v1/statuses/${secret}/favourite`, w.u.secret!.token);
      // silent has no interactions; secret's only one is on a direct message.
      expect(await sourcesOf(w, "viewer")).toEqual([
        ["loud", ["most_interactions"]],
        ["quiet", ["most_interactions"]],
      ]);
    }));
});

describe("merging and ranking", () => {
  test("an account named by several sources is one entry listing them all, and ranks above single-source ones", () =>
    inWorld(["viewer", "friend", "fan", "both", "busy"], async (w) => {
      await follow(w, "viewer", "friend");
      await follow(w, "friend", "both");
      await follow(w, "fan", "both");
      const status = await post(w, "busy");
      await call(w.t, "POST", `/api/v1/statuses/${status}/favourite`, w.u.fan!.token);
      await pick(w, "both");
      const got = await suggestions(w, "viewer");
      expect(got.map((s) => [s.account.username, s.sources, s.source])).toEqual([
        ["both", ["featured", "friends_of_friends", "most_followed"], "staff"],
        ["busy", ["most_interactions"], "global"],
      ]);
    }));

  test("without picks, two sources outrank the top of one", () =>
    inWorld(["viewer", "friend", "a", "b", "c", "double", "single"], async (w) => {
      // single tops most_followed (three local followers); double is a friend's follow: fof + most_followed.
      for (const fan of ["a", "b", "c"]) await follow(w, fan, "single");
      await follow(w, "viewer", "friend");
      await follow(w, "friend", "double");
      expect(await sourcesOf(w, "viewer")).toEqual([
        ["double", ["friends_of_friends", "most_followed"]],
        ["single", ["most_followed"]],
      ]);
    }));
});

describe("exclusions", () => {
  /** `target` is a staff pick the viewer sees; after `action` the viewer must not see it, others still do. */
  async function excludedAfter(action: (w: World) => Promise<void>, options: { viewerOnly?: boolean } = {}) {
    await inWorld(["viewer", "target", "other"], async (w) => {
      await pick(w, "target");
      expect(await names(w, "viewer")).toEqual(["target"]);
      await action(w);
      expect(await names(w, "viewer")).toEqual([]);
      if (options.viewerOnly) expect(await names(w, "other")).toEqual(["target"]);
    });
  }

  test("never the viewer themselves", () =>
    inWorld(["viewer", "other"], async (w) => {
      await pick(w, "viewer");
      expect(await names(w, "viewer")).toEqual([]);
      expect(await names(w, "other")).toEqual(["viewer"]);
    }));

  test("not an account the viewer follows", () => excludedAfter((w) => follow(w, "viewer", "target"), { viewerOnly: true }));

  test("not an account the viewer has asked to follow", () =>
    excludedAfter(async (w) => {
      await profile(w, "target", { locked: true });
      const relationship = await follow(w, "viewer", "target");
      expect(relationship.requested).toBe(true);
    }, { viewerOnly: true }));

  test("not an account the viewer blocks", () =>
    excludedAfter((w) => call(w.t, "POST", `/api/v1/accounts/${w.u.target!.id}/block`, w.u.viewer!.token), { viewerOnly: true }));

  test("not an account that blocks the viewer", () =>
    excludedAfter((w) => call(w.t, "POST", `/api/v1/accounts/${w.u.viewer!.id}/block`, w.u.target!.token), { viewerOnly: true }));

  test("not an account the viewer mutes", () =>
    excludedAfter((w) => call(w.t, "POST", `/api/v1/accounts/${w.u.target!.id}/mute`, w.u.viewer!.token), { viewerOnly: true }));

  test("not a suspended account", () => excludedAfter((w) => suspendAccount(w.t, w.u.target!.id)));

  test("not a silenced (limited) account", () => excludedAfter((w) => silenceAccount(w.t, w.u.target!.id)));

  test("not an account that is not discoverable", () => excludedAfter((w) => profile(w, "target", { discoverable: false })));

  test("not a disabled user's account", () => excludedAfter(async (w) => void (await changeUser(w.t.deps, w.u.target!.id.padStart(18, "0"), { disabled: true }))));

  test("not an unapproved or unconfirmed user's account", () =>
    inWorld(["viewer"], async (w) => {
      await createUser(w.t, "pending", { approved: false });
      await createUser(w.t, "unconfirmed", { confirmed: false });
      await createUser(w.t, "ready");
      for (const name of ["pending", "unconfirmed", "ready"]) await addFeatured(w.t.deps, name);
      expect(await names(w, "viewer")).toEqual(["ready"]);
    }));

  test("not a dismissed account, for that viewer only", () =>
    excludedAfter(async (w) => {
      expect(await call(w.t, "DELETE", `/api/v1/suggestions/${w.u.target!.id}`, w.u.viewer!.token)).toEqual({});
    }, { viewerOnly: true }));

  test("computed suggestions pass the same exclusions", () =>
    inWorld(["viewer", "friend", "blocked", "muted", "dismissed", "shy", "kept"], async (w) => {
      await follow(w, "viewer", "friend");
      for (const name of ["blocked", "muted", "dismissed", "shy", "kept"]) await follow(w, "friend", name);
      expect((await names(w, "viewer")).sort()).toEqual(["blocked", "dismissed", "kept", "muted", "shy"]);
      await call(w.t, "POST", `/api/v1/accounts/${w.u.blocked!.id}/block`, w.u.viewer!.token);
      await call(w.t, "POST", `/api/v1/accounts/${w.u.muted!.id}/mute`, w.u.viewer!.token);
      await call(w.t, "DELETE", `/api/v2/suggestions/${w.u.dismissed!.id}`, w.u.viewer!.token);
      await profile(w, "shy", { discoverable: false });
      expect(await names(w, "viewer")).toEqual(["kept"]);
    }));
});

describe("dismissal", () => {
  test("is for good and idempotent; any id answers {} (as Mastodon); v1 and v2 both dismiss", () =>
    inWorld(["viewer", "a", "b"], async (w) => {
      await pick(w, "a");
      await pick(w, "b");
      for (let i = 0; i < 2; i++) expect(await call(w.t, "DELETE", `/api/v1/suggestions/${w.u.a!.id}`, w.u.viewer!.token)).toEqual({});
      expect(await names(w, "viewer")).toEqual(["b"]);
      expect(await call(w.t, "DELETE", `/api/v2/suggestions/${w.u.b!.id}`, w.u.viewer!.token)).toEqual({});
      expect(await names(w, "viewer")).toEqual([]);
      for (const id of ["999", "not-an-id", w.u.viewer!.id]) {
        expect(await call(w.t, "DELETE", `/api/v1/suggestions/${id}`, w.u.viewer!.token)).toEqual({});
      }
      // Following and unfollowing does not bring a dismissed account back.
      await follow(w, "viewer", "a");
      await unfollow(w, "viewer", "a");
      expect(await names(w, "viewer")).toEqual([]);
    }));
});

describe("v1, limit and offset", () => {
  test("v1 answers the suggested accounts (Account[]) with Mastodon's Deprecation header", () =>
    inWorld(["viewer", "friend", "x", "y"], async (w) => {
      await follow(w, "viewer", "friend");
      await follow(w, "friend", "x");
      await pick(w, "y");
      const v2 = await suggestions(w, "viewer");
      const res = await w.t.request("/api/v1/suggestions", { token: w.u.viewer!.token });
      expect(res.status).toBe(200);
      expect(res.headers.get("deprecation")).toBe("@1621123200");
      const v1 = (await res.json()) as any[];
      expect(v1).toEqual(v2.map((s) => s.account));
      expect(v1.map((a) => a.username)).toEqual(["y", "x"]);
      expect(v1[0]).not.toHaveProperty("sources");
      expect((await w.t.request("/api/v2/suggestions", { token: w.u.viewer!.token })).headers.get("deprecation")).toBeNull();
    }));

  test("limit defaults to 40 and is clamped at 80; offset skips; limit=0 and garbage give nothing", async () => {
    await inWorld(["viewer"], async (w) => {
      for (let i = 0; i < 82; i++) {
        const name = `p${String(i).padStart(2, "0")}`;
        await createUser(w.t, name);
        await addFeatured(w.t.deps, name);
      }
      const all = await names(w, "viewer", "?limit=80");
      expect(all.length).toBe(80);
      expect(all.slice(0, 3)).toEqual(["p00", "p01", "p02"]);
      expect((await names(w, "viewer")).length).toBe(40);
      expect((await names(w, "viewer", "?limit=1000")).length).toBe(80);
      expect(await names(w, "viewer", "?limit=3&offset=2")).toEqual(["p02", "p03", "p04"]);
      expect(await names(w, "viewer", "?limit=2&offset=80")).toEqual(["p80", "p81"]);
      expect(await names(w, "viewer", "?limit=2&offset=-3")).toEqual(["p00", "p01"]);
      expect(await names(w, "viewer", "?limit=0")).toEqual([]);
      expect(await names(w, "viewer", "?limit=many")).toEqual([]);
      const v1 = (await call(w.t, "GET", "/api/v1/suggestions?limit=2&offset=1", w.u.viewer!.token)) as any[];
      expect(v1.map((a) => a.username)).toEqual(["p01", "p02"]);
    });
  });
});

describe("authorisation", () => {
  test("anonymous and bad tokens 401, missing scopes 403, app tokens 422; read:accounts reads, write:accounts dismisses", () =>
    inWorld(["viewer", "target"], async (w) => {
      const { t } = w;
      await pick(w, "target");
      const target = w.u.target!.id;
      const status = async (method: string, path: string, token?: string) => (await t.request(path, { method, token })).status;
      for (const path of ["/api/v2/suggestions", "/api/v1/suggestions"]) {
        expect(await status("GET", path)).toBe(401);
        expect(await status("GET", path, "not-a-token")).toBe(401);
      }
      for (const path of [`/api/v1/suggestions/${target}`, `/api/v2/suggestions/${target}`]) expect(await status("DELETE", path)).toBe(401);

      const app = w.u.viewer!.app;
      const narrow = async (scope: string) => (await passwordToken(t, app, "viewer", w.u.viewer!.password, scope)).access_token;
      const writeOnly = await narrow("write");
      const readAccounts = await narrow("read:accounts");
      const writeAccounts = await narrow("write:accounts");
      const appOnly = (await appToken(t, app, "read write")).access_token;

      for (const path of ["/api/v2/suggestions", "/api/v1/suggestions"]) {
        expect(await status("GET", path, writeOnly)).toBe(403);
        expect(await status("GET", path, writeAccounts)).toBe(403);
        expect(await status("GET", path, appOnly)).toBe(422);
        expect(await status("GET", path, readAccounts)).toBe(200);
      }
      const body = await (await t.request("/api/v2/suggestions", { token: readAccounts })).json();
      expect((body as any[]).map((s) => s.account.username)).toEqual(["target"]);

      for (const path of [`/api/v1/suggestions/${target}`, `/api/v2/suggestions/${target}`]) {
        expect(await status("DELETE", path, readAccounts)).toBe(403);
        expect(await status("DELETE", path, appOnly)).toBe(422);
      }
      expect(await names(w, "viewer")).toEqual(["target"]);
      expect(await status("DELETE", `/api/v1/suggestions/${target}`, writeAccounts)).toBe(200);
      expect(await names(w, "viewer")).toEqual([]);
    }));
});
