// End-to-end client compatibility: a real Warren server in a child process, driven only through masto.js
// (the client library behind Elk and Phanpy) the way an app drives it. masto builds its own URLs (Rails-style
// `ids[]=`/`a[b]=` query strings), sends JSON or multipart bodies, follows Link headers in its paginator and
// speaks the WebSocket streaming protocol with the token as sub-protocol. Every failing call here is a real
// client compatibility defect. Set MASTO_E2E_TRACE=1 to print every non-2xx exchange.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import sharp from "sharp";
import { createOAuthAPIClient, createRestAPIClient, createStreamingAPIClient, MastoHttpError, type mastodon } from "masto";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(15_000);

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "warren-masto-"));
let server: Subprocess<"ignore", "ignore", "pipe"> | null = null;
let serverLog = "";
let url = "";

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function drain(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  for await (const chunk of stream) serverLog += decoder.decode(chunk, { stream: true });
}

async function waitForInstance(timeoutMs: number) {
  const answered = async () => {
    if (server?.exitCode !== null) throw new Error(`warren serve exited with ${server?.exitCode}:\n${serverLog}`);
    return (await fetch(`${url}/api/v2/instance`).catch(() => null))?.status === 200; // null: not listening yet
  };
  await eventually(answered, { timeoutMs, intervalMs: 50 }).catch((error: Error) => {
    if (!error.message.startsWith("timed out")) throw error;
    throw new Error(`GET /api/v2/instance did not answer 200 within ${timeoutMs} ms:\n${serverLog}`);
  });
}

/** Optional trace of what masto sent and what came back, for failures that need the raw exchange. */
function traceFetch() {
  const original = globalThis.fetch;
  // masto always calls fetch with one Request object.
  const traced = async (request: Request) => {
    const body = request.body ? await request.clone().text() : "";
    const response = await original(request);
    if (!response.ok) {
      const answer = await response.clone().text();
      console.error(`masto → ${request.method} ${request.url} ${body.slice(0, 300)}\n  ← ${response.status} ${answer.slice(0, 300)}`);
    }
    return response;
  };
  globalThis.fetch = Object.assign(traced, { preconnect: original.preconnect }) as typeof fetch;
}

beforeAll(async () => {
  if (process.env.MASTO_E2E_TRACE) traceFetch();
  const port = freePort();
  url = `http://127.0.0.1:${port}`;
  server = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      WARREN_DATA_DIR: dir,
      WARREN_PORT: String(port),
      WARREN_URL: url,
      WARREN_REGISTRATIONS: "open",
      // Every user here signs up from 127.0.0.1, as many as the per-address sign-up limit allows.
      WARREN_RATE_LIMITS: "off",
      WARREN_LOG: "off",
    },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  void drain(server.stderr);
  await waitForInstance(15_000);
}, 20_000);

afterAll(async () => {
  if (server) {
    server.kill("SIGTERM");
    await server.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

const SCOPES = "read write follow push";

interface User {
  username: string;
  password: string;
  token: string;
  id: string;
  rest: mastodon.rest.Client;
}

let app: mastodon.v1.Client;
let asApp: mastodon.rest.Client;
const users: Record<"alice" | "bob" | "carol" | "dave", User> = {} as never;
/** Alice's first status, posted before Bob follows her: a new follow back-fills it into his home. */
let rabbitHole = "";

/** The rejected masto call's HTTP error (status and Mastodon error message). */
async function httpError(call: Promise<unknown>): Promise<MastoHttpError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof MastoHttpError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** Collects every page a masto paginator yields (bounded, so a Link loop fails instead of hanging). */
async function allPages<T>(paginator: AsyncIterable<T[]>, maxPages = 20): Promise<T[][]> {
  const pages: T[][] = [];
  for await (const page of paginator) {
    pages.push(page);
    if (pages.length >= maxPages) throw new Error(`paginator still going after ${maxPages} pages`);
  }
  return pages;
}

const ids = (statuses: { id: string }[]) => statuses.map((status) => status.id);
const byIdDesc = (a: string, b: string) => (BigInt(b) > BigInt(a) ? 1 : BigInt(b) < BigInt(a) ? -1 : 0);

describe("masto.js against a real Warren server", () => {
  test("app registration and OAuth tokens (client_credentials, sign-up, password grant)", async () => {
    const anonymous = createRestAPIClient({ url });
    app = await anonymous.v1.apps.create({
      clientName: "masto e2e",
      redirectUris: "urn:ietf:wg:oauth:2.0:oob",
      scopes: SCOPES,
      website: "https://masto.example",
    });
    expect(app.name).toBe("masto e2e");
    expect(app.clientId).toBeString();
    expect(app.clientSecret).toBeString();
    expect(app.scopes).toEqual(["read", "write", "follow", "push"]);
    expect(app.redirectUris).toEqual(["urn:ietf:wg:oauth:2.0:oob"]);

    const oauth = createOAuthAPIClient({ url });
    const appToken = await oauth.token.create({
      grantType: "client_credentials",
      clientId: app.clientId!,
      clientSecret: app.clientSecret!,
      redirectUri: "urn:ietf:wg:oauth:2.0:oob",
      scope: SCOPES,
    });
    expect(appToken.tokenType).toBe("Bearer");
    expect(appToken.scope).toBe(SCOPES);
    expect(appToken.createdAt).toBeNumber();
    asApp = createRestAPIClient({ url, accessToken: appToken.accessToken });
    expect((await asApp.v1.apps.verifyCredentials()).name).toBe("masto e2e");

    for (const username of ["alice", "bob", "carol", "dave"] as const) {
      const password = `masto-${username}-password`;
      // Sign-up (open registrations): masto sends multipart form data, booleans as "true".
      const signUp = await asApp.v1.accounts.create({ username, password, email: `${username}@masto.example`, agreement: true, locale: "en" });
      expect(signUp.tokenType).toBe("Bearer");
      expect(signUp.scope).toBe(SCOPES);
      const rest = createRestAPIClient({ url, accessToken: signUp.accessToken });
      const me = await rest.v1.accounts.verifyCredentials();
      expect(me.username).toBe(username);
      users[username] = { username, password, token: signUp.accessToken, id: me.id, rest };
    }

    // The password grant (enabled by default in Warren), as masto's OAuth client sends it (multipart form).
    const byPassword = await oauth.token.create({
      grantType: "password",
      clientId: app.clientId!,
      clientSecret: app.clientSecret!,
      redirectUri: "urn:ietf:wg:oauth:2.0:oob",
      username: "alice",
      password: users.alice.password,
      scope: "read write",
    });
    expect(byPassword.scope).toBe("read write");
    const viaPassword = createRestAPIClient({ url, accessToken: byPassword.accessToken });
    expect((await viaPassword.v1.accounts.verifyCredentials()).id).toBe(users.alice.id);

    // OAuth errors (RFC 6749 shape) reach the app as MastoHttpError with the description (API.md §2.5).
    const wrongPassword = await httpError(
      oauth.token.create({ grantType: "password", clientId: app.clientId!, clientSecret: app.clientSecret!, redirectUri: "urn:ietf:wg:oauth:2.0:oob", username: "alice", password: "wrong-password" }),
    );
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.message).toBe("invalid_grant");
    expect(wrongPassword.description).toBeString();
    const wrongSecret = await httpError(
      oauth.token.create({ grantType: "client_credentials", clientId: app.clientId!, clientSecret: "not-the-secret", redirectUri: "urn:ietf:wg:oauth:2.0:oob" }),
    );
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.message).toBe("invalid_client");
    const tooWide = await httpError(
      oauth.token.create({ grantType: "client_credentials", clientId: app.clientId!, clientSecret: app.clientSecret!, redirectUri: "urn:ietf:wg:oauth:2.0:oob", scope: "admin:read" }),
    );
    expect(tooWide.statusCode).toBe(400);
    expect(tooWide.message).toBe("invalid_scope");

    // Revocation through masto (multipart form), then the token is refused.
    await oauth.revoke({ clientId: app.clientId!, clientSecret: app.clientSecret!, token: byPassword.accessToken });
    const refused = await httpError(viaPassword.v1.accounts.verifyCredentials());
    expect(refused.statusCode).toBe(401);
    expect(refused.message).toBe("The access token is invalid");
  });

  test("verifyCredentials carries the keys masto's CredentialAccount promises; updateCredentials (multipart, fields)", async () => {
    const alice = users.alice.rest;
    const me = await alice.v1.accounts.verifyCredentials();
    for (const key of [
      "id", "username", "acct", "url", "displayName", "note", "avatar", "avatarStatic", "header", "headerStatic", "locked",
      "fields", "emojis", "bot", "group", "createdAt", "lastStatusAt", "statusesCount", "followersCount", "followingCount",
      "roles", "source", "role",
    ]) {
      expect(me).toHaveProperty(key);
    }
    for (const key of ["note", "fields", "language", "privacy", "sensitive", "followRequestsCount", "indexable", "attributionDomains"]) {
      expect(me.source).toHaveProperty(key);
    }

    const updated = await alice.v1.accounts.updateCredentials({
      displayName: "Alice Liddell",
      note: "Curiouser & curiouser",
      locked: false,
      bot: false,
      fieldsAttributes: [
        { name: "Home", value: "Wonderland" },
        { name: "Pronouns", value: "she/her" },
      ],
      source: { privacy: "public", sensitive: false, language: "en" },
    });
    expect(updated.displayName).toBe("Alice Liddell");
    expect(updated.note).toContain("Curiouser &amp; curiouser");
    expect(updated.source.note).toBe("Curiouser & curiouser");
    expect(updated.fields.map((f) => [f.name, f.value])).toEqual([
      ["Home", "Wonderland"],
      ["Pronouns", "she/her"],
    ]);
    expect(updated.source.fields.map((f) => [f.name, f.value])).toEqual([
      ["Home", "Wonderland"],
      ["Pronouns", "she/her"],
    ]);
    expect(updated.source.language).toBe("en");
    expect((await alice.v1.accounts.$select(users.alice.id).fetch()).displayName).toBe("Alice Liddell");
    const looked = await users.bob.rest.v1.accounts.lookup({ acct: "alice" });
    expect(looked.id).toBe(users.alice.id);
    // GET /api/v1/accounts?id[]=… as masto encodes arrays
    const many = await users.bob.rest.v1.accounts.fetch({ id: [users.alice.id, users.carol.id] });
    expect(many.map((a) => a.username).sort()).toEqual(["alice", "carol"]);
  });

  test("statuses: create with spoiler and visibility, fetch, context, favourite, reblog, bookmark, pin, delete", async () => {
    const alice = users.alice.rest;
    const bob = users.bob.rest;
    const root = await alice.v1.statuses.create({ status: "Down the rabbit hole #wonderland", spoilerText: "falling", visibility: "unlisted", language: "en" });
    rabbitHole = root.id;
    expect(root.spoilerText).toBe("falling");
    expect(root.sensitive).toBe(true);
    expect(root.visibility).toBe("unlisted");
    expect(root.account.id).toBe(users.alice.id);
    expect(root.application?.name).toBe("masto e2e");
    expect(root.tags.map((tag) => tag.name)).toEqual(["wonderland"]);
    for (const key of [
      "id", "uri", "createdAt", "editedAt", "account", "content", "visibility", "sensitive", "spoilerText", "mediaAttachments",
      "mentions", "tags", "emojis", "reblogsCount", "favouritesCount", "repliesCount", "url", "inReplyToId",
      "inReplyToAccountId", "reblog", "poll", "card", "language", "favourited", "reblogged", "muted", "bookmarked", "pinned",
    ]) {
      expect(root).toHaveProperty(key);
    }

    const reply = await bob.v1.statuses.create({ status: "@alice mind the fall", inReplyToId: root.id, visibility: "public" });
    expect(reply.inReplyToId).toBe(root.id);
    expect(reply.inReplyToAccountId).toBe(users.alice.id);
    expect(reply.mentions.map((m) => m.acct)).toEqual(["alice"]);

    expect((await bob.v1.statuses.$select(root.id).fetch()).id).toBe(root.id);
    const context = await bob.v1.statuses.$select(reply.id).context.fetch();
    expect(ids(context.ancestors)).toEqual([root.id]);
    expect(context.descendants).toEqual([]);
    expect(ids((await alice.v1.statuses.$select(root.id).context.fetch()).descendants)).toEqual([reply.id]);
    // GET /api/v1/statuses?id[]=…
    expect(ids(await bob.v1.statuses.fetch({ id: [root.id, reply.id] })).sort()).toEqual([root.id, reply.id].sort());

    const favourited = await bob.v1.statuses.$select(root.id).favourite();
    expect(favourited.favourited).toBe(true);
    expect(favourited.favouritesCount).toBe(1);
    const favouritedBy = await alice.v1.statuses.$select(root.id).favouritedBy.list();
    expect(favouritedBy.map((a) => a.id)).toEqual([users.bob.id]);
    expect(ids(await bob.v1.favourites.list())).toEqual([root.id]);
    const unfavourited = await bob.v1.statuses.$select(root.id).unfavourite();
    expect(unfavourited.favourited).toBe(false);
    expect(unfavourited.favouritesCount).toBe(0);

    const boost = await bob.v1.statuses.$select(root.id).reblog({ visibility: "public" });
    expect(boost.reblog?.id).toBe(root.id);
    expect(boost.reblog?.reblogged).toBe(true);
    expect(boost.reblog?.reblogsCount).toBe(1);
    expect((await alice.v1.statuses.$select(root.id).rebloggedBy.list()).map((a) => a.id)).toEqual([users.bob.id]);
    const unboosted = await bob.v1.statuses.$select(root.id).unreblog();
    expect(unboosted.id).toBe(root.id);
    expect(unboosted.reblogged).toBe(false);
    expect(unboosted.reblogsCount).toBe(0);

    expect((await bob.v1.statuses.$select(root.id).bookmark()).bookmarked).toBe(true);
    expect(ids(await bob.v1.bookmarks.list())).toEqual([root.id]);
    expect((await bob.v1.statuses.$select(root.id).unbookmark()).bookmarked).toBe(false);
    expect(await bob.v1.bookmarks.list()).toEqual([]);

    expect((await alice.v1.statuses.$select(root.id).pin()).pinned).toBe(true);
    const pinned = await bob.v1.accounts.$select(users.alice.id).statuses.list({ pinned: true });
    expect(ids(pinned)).toEqual([root.id]);
    expect((await alice.v1.statuses.$select(root.id).unpin()).pinned).toBe(false);

    const scratch = await alice.v1.statuses.create({ status: "to be deleted", visibility: "private" });
    const deleted = await alice.v1.statuses.$select(scratch.id).remove();
    expect(deleted.id).toBe(scratch.id);
    expect(deleted.text).toBe("to be deleted");
    const gone = await httpError(alice.v1.statuses.$select(scratch.id).fetch());
    expect(gone.statusCode).toBe(404);
    expect(gone.message).toBe("Record not found");
  });

  test("deleting someone else's status is 404, as Mastodon answers it", async () => {
    // Mastodon looks the status up among the caller's own (`Status.where(account: current_account).find`), so
    // the status of another account is not found (API.md §1.2, §5.2) and masto apps show "Record not found".
    const notYours = await httpError(users.bob.rest.v1.statuses.$select(rabbitHole).remove());
    expect(notYours.statusCode).toBe(404);
    expect(notYours.message).toBe("Record not found");
    expect((await users.bob.rest.v1.statuses.$select(rabbitHole).fetch()).id).toBe(rabbitHole);
  });

  test("follow, relationships (id[]), locked account requests, block, mute", async () => {
    const { alice, bob, carol } = users;
    const followed = await bob.rest.v1.accounts.$select(alice.id).follow({ reblogs: true, notify: false });
    expect(followed.following).toBe(true);
    expect(followed.requested).toBe(false);
    expect(followed.showingReblogs).toBe(true);

    const relationships = await bob.rest.v1.accounts.relationships.fetch({ id: [alice.id, carol.id] });
    const byId = Object.fromEntries(relationships.map((r) => [r.id, r]));
    expect(byId[alice.id]?.following).toBe(true);
    expect(byId[carol.id]?.following).toBe(false);
    for (const key of [
      "id", "following", "showingReblogs", "notifying", "languages", "followedBy", "blocking", "blockedBy", "muting",
      "mutingNotifications", "requested", "requestedBy", "domainBlocking", "endorsed", "note",
    ]) {
      expect(byId[alice.id]).toHaveProperty(key);
    }
    expect((await alice.rest.v1.accounts.$select(bob.id).followers.list()).map((a) => a.id)).toEqual([]);
    expect((await alice.rest.v1.accounts.$select(alice.id).followers.list()).map((a) => a.id)).toEqual([bob.id]);
    expect((await bob.rest.v1.accounts.$select(bob.id).following.list()).map((a) => a.id)).toEqual([alice.id]);

    const unfollowed = await bob.rest.v1.accounts.$select(alice.id).unfollow();
    expect(unfollowed.following).toBe(false);

    // Carol locks her account: Bob's follow becomes a request she lists and authorizes.
    expect((await carol.rest.v1.accounts.updateCredentials({ locked: true })).locked).toBe(true);
    const requested = await bob.rest.v1.accounts.$select(carol.id).follow();
    expect(requested.following).toBe(false);
    expect(requested.requested).toBe(true);
    const pending = await carol.rest.v1.followRequests.list();
    expect(pending.map((a) => a.id)).toEqual([bob.id]);
    expect((await carol.rest.v1.accounts.verifyCredentials()).source.followRequestsCount).toBe(1);
    const [seenByCarol] = await carol.rest.v1.accounts.relationships.fetch({ id: [bob.id] });
    expect(seenByCarol?.requestedBy).toBe(true);
    const authorized = await carol.rest.v1.followRequests.$select(bob.id).authorize();
    expect(authorized.followedBy).toBe(true);
    expect(await carol.rest.v1.followRequests.list()).toEqual([]);
    const [afterAuthorize] = await bob.rest.v1.accounts.relationships.fetch({ id: [carol.id] });
    expect(afterAuthorize?.following).toBe(true);
    expect(afterAuthorize?.requested).toBe(false);

    // Block removes the follow at once; mute with JSON body params.
    const blocked = await carol.rest.v1.accounts.$select(bob.id).block();
    expect(blocked.blocking).toBe(true);
    expect(blocked.followedBy).toBe(false);
    expect((await carol.rest.v1.blocks.list()).map((a) => a.id)).toEqual([bob.id]);
    const [blockedView] = await bob.rest.v1.accounts.relationships.fetch({ id: [carol.id] });
    expect(blockedView?.blockedBy).toBe(true);
    expect(blockedView?.following).toBe(false);
    const refused = await httpError(bob.rest.v1.accounts.$select(carol.id).follow());
    expect(refused.statusCode).toBe(403);
    expect((await carol.rest.v1.accounts.$select(bob.id).unblock()).blocking).toBe(false);

    const muted = await carol.rest.v1.accounts.$select(alice.id).mute({ notifications: false, duration: 3600 });
    expect(muted.muting).toBe(true);
    expect(muted.mutingNotifications).toBe(false);
    const mutes = await carol.rest.v1.mutes.list();
    expect(mutes.map((a) => a.id)).toEqual([alice.id]);
    expect((mutes[0] as unknown as { muteExpiresAt: string | null }).muteExpiresAt).toBeString();
    expect((await carol.rest.v1.accounts.$select(alice.id).unmute()).muting).toBe(false);
    expect((await carol.rest.v1.accounts.updateCredentials({ locked: false })).locked).toBe(false);
  });

  test("timelines through masto's paginator: home, public, tag pages follow Link headers without gaps", async () => {
    const { alice, bob } = users;
    await bob.rest.v1.accounts.$select(alice.id).follow();
    const posted: string[] = [];
    for (let i = 0; i < 7; i++) {
      posted.push((await alice.rest.v1.statuses.create({ status: `page test ${i} #mastopaging`, visibility: "public" })).id);
    }
    const newestFirst = [...posted].sort(byIdDesc);

    const tagPages = await allPages(bob.rest.v1.timelines.tag.$select("mastopaging").list({ limit: 3 }));
    // Timelines link `next` from every non-empty page (API.md §1.5), so the walk ends on an empty page.
    expect(tagPages.map((page) => page.length)).toEqual([3, 3, 1, 0]);
    expect(tagPages.flat().map((s) => s.id)).toEqual(newestFirst);
    // Anonymous clients page the tag timeline too.
    const anonymous = createRestAPIClient({ url });
    expect((await allPages(anonymous.v1.timelines.tag.$select("mastopaging").list({ limit: 2 }))).flat().map((s) => s.id)).toEqual(newestFirst);

    const publicPages = await allPages(anonymous.v1.timelines.public.list({ limit: 4, local: true }));
    const publicIds = publicPages.flat().map((s) => s.id);
    expect(publicIds.slice(0, 7)).toEqual(newestFirst);
    expect(new Set(publicIds).size).toBe(publicIds.length);
    expect([...publicIds].sort(byIdDesc)).toEqual(publicIds);

    // Home fan-out and the follow's back-fill (of rabbitHole) are background jobs on different lanes: page
    // through everything until both have landed.
    const homeIds = await eventually(async () => {
      const walked = (await allPages(bob.rest.v1.timelines.home.list({ limit: 3 }))).flat().map((s) => s.id);
      return walked[0] === newestFirst[0] && walked.includes(rabbitHole) ? walked : undefined;
    }, { what: "home fan-out and the follow's back-fill", timeoutMs: 10_000 });
    expect(homeIds.slice(0, 7)).toEqual(newestFirst);
    expect(new Set(homeIds).size).toBe(homeIds.length);
    expect([...homeIds].sort(byIdDesc)).toEqual(homeIds);

    // Paging backwards: from the oldest three, the `prev` links lead up to the newest without gaps.
    const olderPage = await bob.rest.v1.timelines.tag.$select("mastopaging").list({ limit: 3, maxId: newestFirst[3] });
    expect(ids(olderPage)).toEqual(newestFirst.slice(4, 7));
    const newerPages = await allPages(bob.rest.v1.timelines.tag.$select("mastopaging").list({ limit: 2, minId: newestFirst[6] }).setDirection("prev"));
    expect(newerPages.flat().map((s) => s.id).sort(byIdDesc)).toEqual(newestFirst.slice(0, 6));
  });

  test("lists: create, add accounts (account_ids[] in JSON), list timeline, remove", async () => {
    const { alice, bob } = users;
    const list = await bob.rest.v1.lists.create({ title: "Wonderland", exclusive: false });
    expect(list.title).toBe("Wonderland");
    expect(list.repliesPolicy).toBe("list");
    expect(list.exclusive).toBe(false);
    await bob.rest.v1.lists.$select(list.id).accounts.create({ accountIds: [alice.id] });
    expect((await bob.rest.v1.lists.$select(list.id).accounts.list()).map((a) => a.id)).toEqual([alice.id]);
    expect((await bob.rest.v1.accounts.$select(alice.id).lists.list()).map((l) => l.id)).toEqual([list.id]);
    expect((await bob.rest.v1.lists.list()).map((l) => l.title)).toEqual(["Wonderland"]);

    const post = await alice.rest.v1.statuses.create({ status: "for the list", visibility: "public" });
    await eventually(async () => ((await bob.rest.v1.timelines.list.$select(list.id).list())[0]?.id === post.id ? true : undefined), { what: "list fan-out" });
    const listPages = await allPages(bob.rest.v1.timelines.list.$select(list.id).list({ limit: 5 }));
    const listIds = listPages.flat().map((s) => s.id);
    expect(listIds[0]).toBe(post.id);
    expect(new Set(listIds).size).toBe(listIds.length);

    const renamed = await bob.rest.v1.lists.$select(list.id).update({ title: "Looking glass" });
    expect(renamed.title).toBe("Looking glass");
    await bob.rest.v1.lists.$select(list.id).accounts.remove({ accountIds: [alice.id] });
    expect(await bob.rest.v1.lists.$select(list.id).accounts.list()).toEqual([]);
    await bob.rest.v1.lists.$select(list.id).remove();
    expect(await bob.rest.v1.lists.list()).toEqual([]);
  });

  test("markers: save and read back with timeline[]", async () => {
    const bob = users.bob.rest;
    const [latest] = await bob.v1.timelines.home.list({ limit: 1 });
    const saved = await bob.v1.markers.create({ home: { lastReadId: latest!.id } });
    expect(saved.home.lastReadId).toBe(latest!.id);
    expect(saved.home.version).toBeNumber();
    expect(saved.home.updatedAt).toBeString();
    const read = await bob.v1.markers.fetch({ timeline: ["home", "notifications"] });
    expect(read.home.lastReadId).toBe(latest!.id);
    expect(read.home.version).toBe(saved.home.version);
    expect(read).not.toHaveProperty("notifications");
    const [, older] = await bob.v1.timelines.home.list({ limit: 2 });
    const moved = await bob.v1.markers.create({ home: { lastReadId: older!.id }, notifications: { lastReadId: "1" } });
    expect(moved.home.lastReadId).toBe(older!.id);
    expect(moved.home.version).toBe(saved.home.version + 1);
    expect(moved.notifications.lastReadId).toBe("1");
  });

  test("account lists page through Link headers: followers, favourites, blocks, mutes, follow requests", async () => {
    const { alice, bob, carol, dave } = users;
    const others = [alice, bob, carol];
    for (const user of others) await user.rest.v1.accounts.$select(dave.id).follow();
    const followerPages = await allPages(alice.rest.v1.accounts.$select(dave.id).followers.list({ limit: 1 }));
    expect(followerPages.flat().map((a) => a.id)).toEqual([carol.id, bob.id, alice.id]);

    const favourited: string[] = [];
    for (let i = 0; i < 3; i++) {
      const status = await dave.rest.v1.statuses.create({ status: `favourite me ${i}`, visibility: "public" });
      await alice.rest.v1.statuses.$select(status.id).favourite();
      favourited.unshift(status.id);
    }
    expect(ids((await allPages(alice.rest.v1.favourites.list({ limit: 2 }))).flat())).toEqual(favourited);

    for (const user of others) await dave.rest.v1.accounts.$select(user.id).block();
    expect((await allPages(dave.rest.v1.blocks.list({ limit: 2 }))).flat().map((a) => a.id)).toEqual([carol.id, bob.id, alice.id]);
    for (const user of others) await dave.rest.v1.accounts.$select(user.id).unblock();

    for (const user of others) await dave.rest.v1.accounts.$select(user.id).mute({ notifications: true });
    expect((await allPages(dave.rest.v1.mutes.list({ limit: 2 }))).flat().map((a) => a.id)).toEqual([carol.id, bob.id, alice.id]);
    for (const user of others) await dave.rest.v1.accounts.$select(user.id).unmute();

    // The block removed every follow of Dave; now he is locked and the follows arrive as requests.
    await dave.rest.v1.accounts.updateCredentials({ locked: true });
    for (const user of others) expect((await user.rest.v1.accounts.$select(dave.id).follow()).requested).toBe(true);
    const requestPages = await allPages(dave.rest.v1.followRequests.list({ limit: 2 }));
    expect(requestPages.flat().map((a) => a.id)).toEqual([carol.id, bob.id, alice.id]);
    for (const user of others) {
      const rejected = await dave.rest.v1.followRequests.$select(user.id).reject();
      expect(rejected.requestedBy).toBe(false);
      expect(rejected.followedBy).toBe(false);
    }
    expect(await dave.rest.v1.followRequests.list()).toEqual([]);
    await dave.rest.v1.accounts.updateCredentials({ locked: false });
  });

  test("follow options, account note, remove from followers, account statuses with boolean filters", async () => {
    const { alice, bob, dave } = users;
    const followed = await dave.rest.v1.accounts.$select(alice.id).follow({ reblogs: false, notify: true, languages: ["en"] });
    expect(followed.following).toBe(true);
    expect(followed.showingReblogs).toBe(false);
    expect(followed.notifying).toBe(true);
    expect(followed.languages).toEqual(["en"]);
    const noted = await dave.rest.v1.accounts.$select(alice.id).note.create({ comment: "met at the tea party" });
    expect(noted.note).toBe("met at the tea party");
    const removed = (await alice.rest.v1.accounts.$select(dave.id).removeFromFollowers()) as unknown as mastodon.v1.Relationship;
    expect(removed.followedBy).toBe(false);
    const [seenByDave] = await dave.rest.v1.accounts.relationships.fetch({ id: [alice.id] });
    expect(seenByDave?.following).toBe(false);

    const original = await alice.rest.v1.statuses.create({ status: "an original #looking", visibility: "public" });
    const reply = await alice.rest.v1.statuses.create({ status: "@bob a reply to bob", inReplyToId: (await bob.rest.v1.statuses.create({ status: "bob speaks" })).id });
    const boost = await alice.rest.v1.statuses.$select((await bob.rest.v1.statuses.create({ status: "bob again" })).id).reblog();
    const all = await dave.rest.v1.accounts.$select(alice.id).statuses.list({ limit: 3 });
    expect(ids(all)).toEqual([boost.id, reply.id, original.id]);
    const plain = await dave.rest.v1.accounts.$select(alice.id).statuses.list({ limit: 2, excludeReplies: true, excludeReblogs: true, onlyMedia: false });
    expect(ids(plain)[0]).toBe(original.id);
    expect(plain.every((s) => s.inReplyToId === null && s.reblog === null)).toBe(true);
    expect(ids(await dave.rest.v1.accounts.$select(alice.id).statuses.list({ tagged: "looking" }))).toEqual([original.id]);
    // Paging the profile with the filters kept in the Link header.
    const pages = await allPages(dave.rest.v1.accounts.$select(alice.id).statuses.list({ limit: 2, excludeReblogs: true }));
    const paged = pages.flat();
    expect(paged.some((s) => s.reblog !== null)).toBe(false);
    expect(new Set(ids(paged)).size).toBe(paged.length);
    expect(ids(paged)).toContain(original.id);
  });

  test("error answers masto can read; idempotency header; card; profile update with an image file", async () => {
    const { alice, bob } = users;
    const blank = await httpError(alice.rest.v1.statuses.create({ status: "" }));
    expect(blank.statusCode).toBe(422);
    expect(blank.message).toBe("Validation failed: Text can't be blank");

    const taken = await httpError(asApp.v1.accounts.create({ username: "alice", password: "another-password", email: "alice2@masto.example", agreement: true, locale: "en" }));
    expect(taken.statusCode).toBe(422);
    expect((taken.details as unknown as Record<string, { error: string }[]>)?.username?.[0]?.error).toBe("ERR_TAKEN");

    const readOnly = await createOAuthAPIClient({ url }).token.create({
      grantType: "password", clientId: app.clientId!, clientSecret: app.clientSecret!, redirectUri: "urn:ietf:wg:oauth:2.0:oob",
      username: "bob", password: bob.password, scope: "read",
    });
    const outOfScope = await httpError(createRestAPIClient({ url, accessToken: readOnly.accessToken }).v1.statuses.create({ status: "nope" }));
    expect(outOfScope.statusCode).toBe(403);
    expect(outOfScope.message).toBe("This action is outside the authorized scopes");

    const missing = await httpError(bob.rest.v1.statuses.$select("123456").fetch());
    expect(missing.statusCode).toBe(404);
    expect(missing.message).toBe("Record not found");

    // The spec: reblogging a private status is a generic 422.
    const secret = await alice.rest.v1.statuses.create({ status: "followers only", visibility: "private" });
    const privateBoost = await httpError(alice.rest.v1.statuses.$select(secret.id).reblog());
    expect(privateBoost.statusCode).toBe(422);

    const meta = { requestInit: { headers: { "Idempotency-Key": "masto-e2e-once" } } };
    const first = await alice.rest.v1.statuses.create({ status: "only once" }, meta);
    const again = await alice.rest.v1.statuses.create({ status: "only once, retried" }, meta);
    expect(again.id).toBe(first.id);

    // No card for a status without links: `{}`, never 404.
    expect(await bob.rest.v1.statuses.$select(first.id).card.fetch()).toEqual({} as never);

  });

  test("updateCredentials with an avatar file (multipart) sets the avatar", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#8a5" } }).png().toBuffer();
    const withAvatar = await users.carol.rest.v1.accounts.updateCredentials({ displayName: "Carol (pictured)", avatar: new Blob([png], { type: "image/png" }) });
    expect(withAvatar.displayName).toBe("Carol (pictured)");
    // Mastodon stores the upload and answers with its URL instead of the default (API.md §3.2, §4.1).
    expect(withAvatar.avatar).not.toContain("missing.png");
    expect(withAvatar.avatarStatic).not.toContain("missing.png");
    const image = await fetch(withAvatar.avatar);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toStartWith("image/");
  });

  test("media: v2 upload with a description and focus, update, attach to a status, delete the unattached one", async () => {
    const { rest } = users.dave;
    const jpeg = await sharp({ create: { width: 320, height: 200, channels: 3, background: "#36c" } }).jpeg().toBuffer();
    const media = await rest.v2.media.create({ file: new Blob([jpeg], { type: "image/jpeg" }), description: "A blue field", focus: "0.5,0.5" });
    expect(media.type).toBe("image");
    expect(media.url).toStartWith(url);
    expect(media.meta?.original).toMatchObject({ width: 320, height: 200 });
    expect(media.blurhash).toBeString();
    const updated = await rest.v1.media.$select(media.id).update({ description: "A bluer field" });
    expect(updated.description).toBe("A bluer field");
    const status = await rest.v1.statuses.create({ status: "with a picture", mediaIds: [media.id] });
    expect(status.mediaAttachments.map((m) => m.id)).toEqual([media.id]);
    expect(status.mediaAttachments[0]!.description).toBe("A bluer field");
    const spare = await rest.v2.media.create({ file: new Blob([jpeg], { type: "image/jpeg" }) });
    // masto has no call for DELETE /api/v1/media/:id (Mastodon 4.4): the raw request.
    const removed = await fetch(`${url}/api/v1/media/${spare.id}`, { method: "DELETE", headers: { authorization: `Bearer ${users.dave.token}` } });
    expect(removed.status).toBe(200);
    expect((await httpError(rest.v1.media.$select(spare.id).fetch())).statusCode).toBe(404);
  });

  test("search (accounts, hashtags, statuses), filters, suggestions, reports and a push subscription", async () => {
    const { rest } = users.alice;
    await rest.v1.statuses.create({ status: "Searching for #warrenmasto in the burrow" });
    const results = await eventually(async () => {
      const found = await rest.v2.search.list({ q: "burrow", type: "statuses" });
      return found.statuses.length > 0 ? found : undefined;
    }, { what: "the status to be indexed" });
    expect(results.statuses[0]!.content).toContain("burrow");
    const accounts = await rest.v2.search.list({ q: users.bob.username, type: "accounts" });
    expect(accounts.accounts[0]!.id).toBe(users.bob.id);
    const tags = await rest.v2.search.list({ q: "#warrenmas", type: "hashtags" });
    expect(tags.hashtags.map((tag) => tag.name)).toContain("warrenmasto");
    expect((await rest.v2.search.list({ q: "burrow", type: "statuses", offset: -3 })).statuses.length).toBeGreaterThan(0);

    const filter = await rest.v2.filters.create({ title: "No burrows", context: ["home", "public"], filterAction: "warn", keywordsAttributes: [{ keyword: "burrow" }] });
    expect(filter.keywords?.map((k) => k.keyword)).toEqual(["burrow"]);
    expect((await rest.v2.filters.list()).map((f) => f.id)).toContain(filter.id);
    expect((await httpError(rest.v2.filters.create({ title: "Bad", context: ["home"], filterAction: "explode" as never }))).statusCode).toBe(422);
    await rest.v2.filters.$select(filter.id).remove();

    expect(await rest.v2.suggestions.list()).toBeArray();

    const report = await rest.v1.reports.create({ accountId: users.dave.id, comment: "testing reports", category: "other" });
    expect(report.targetAccount.id).toBe(users.dave.id);

    const keys = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
    const p256dh = Buffer.from(await crypto.subtle.exportKey("raw", keys.publicKey)).toString("base64url");
    const auth = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64url");
    const subscription = await rest.v1.push.subscription.create({
      subscription: { endpoint: "https://push.example/send/abc", keys: { p256dh, auth } },
      data: { alerts: { mention: true } },
      policy: "all",
    });
    expect(subscription.endpoint).toBe("https://push.example/send/abc");
    expect(subscription.alerts.mention).toBe(true);
    expect(subscription.serverKey).toBeString();
  });

  test("instance sub-resources and custom emojis", async () => {
    const anonymous = createRestAPIClient({ url });
    expect(await anonymous.v1.instance.peers.list()).toBeArray();
    const activity = await anonymous.v1.instance.activity.list();
    expect(activity).toBeArray();
    expect(activity[0]).toHaveProperty("statuses");
    expect(await anonymous.v1.instance.languages.list()).toBeArray();
    expect((await anonymous.v1.instance.extendedDescription.fetch()).content).toBeString();
    expect(await anonymous.v1.instance.translationLanguages.list()).toEqual({});
    expect(await anonymous.v1.customEmojis.list()).toBeArray();
  });

  test("instance v2 and v1", async () => {
    const anonymous = createRestAPIClient({ url });
    const v2 = await anonymous.v2.instance.fetch();
    expect(v2.domain).toBe(new URL(url).host);
    expect(v2.configuration.urls.streaming).toBe(url.replace(/^http/, "ws"));
    expect(v2.registrations.enabled).toBe(true);
    expect(v2.registrations.approvalRequired).toBe(false);
    expect(v2.configuration.statuses.maxCharacters).toBeNumber();
    expect(v2.configuration.accounts.maxProfileFields).toBeNumber();
    expect(v2.configuration.mediaAttachments.supportedMimeTypes).toBeArray();
    expect(v2.configuration.polls.maxOptions).toBeNumber();
    for (const key of ["title", "version", "sourceUrl", "description", "usage", "thumbnail", "icon", "languages", "apiVersions", "contact", "rules"]) {
      expect(v2).toHaveProperty(key);
    }
    const v1 = await anonymous.v1.instance.fetch();
    expect(v1.uri).toBe(new URL(url).host);
    expect(v1.urls.streamingApi).toBe(url.replace(/^http/, "ws"));
    expect(v1.registrations).toBe(true);
    expect(v1.stats.userCount).toBe(4);
  });

  test("streaming over one WebSocket: user, user:notification, public:local, hashtag and list streams", async () => {
    const { alice, bob } = users;
    const list = await bob.rest.v1.lists.create({ title: "Tea party" });
    await bob.rest.v1.lists.$select(list.id).accounts.create({ accountIds: [alice.id] });
    const instance = await bob.rest.v2.instance.fetch();
    const streaming = createStreamingAPIClient({ streamingApiUrl: instance.configuration.urls.streaming, accessToken: bob.token, retry: false });
    // A second socket with the token in the query string (`?access_token=`), as masto's `useInsecureAccessToken` sends it.
    const byQuery = createStreamingAPIClient({
      streamingApiUrl: instance.configuration.urls.streaming,
      accessToken: users.carol.token,
      useInsecureAccessToken: true,
      retry: false,
    });
    try {
      const received: Record<string, mastodon.streaming.Event[]> = {};
      const listen = (name: string, subscription: mastodon.streaming.Subscription) => {
        received[name] = [];
        (async () => {
          for await (const event of subscription) received[name]!.push(event);
        })().catch(() => {});
      };
      listen("user", streaming.user.subscribe());
      listen("user:notification", streaming.user.notification.subscribe());
      listen("public:local", streaming.public.local.subscribe());
      // masto keeps only events whose `stream` contains the tag exactly as subscribed (Mastodon echoes it).
      listen("hashtag", streaming.hashtag.subscribe({ tag: "TeaParty" }));
      listen("list", streaming.list.subscribe({ list: list.id }));
      listen("query token", byQuery.public.local.subscribe());
      // masto sends one {"type":"subscribe"} per stream once the socket is open, and the server takes a socket's
      // messages in order: a first status seen on the streams subscribed last shows that all are registered.
      await Promise.all([streaming.prepare(), byQuery.prepare()]);
      const updated = (name: string, id: string) => received[name]!.find((e) => e.event === "update" && e.payload.id === id);
      const warmUp = await alice.rest.v1.statuses.create({ status: "warming up the #teaparty", visibility: "public" });
      await eventually(() => updated("list", warmUp.id) && updated("query token", warmUp.id), { what: "the first status on every socket" });

      const post = await alice.rest.v1.statuses.create({ status: "live from the #teaparty", visibility: "public" });
      const expected: Record<string, string[]> = {
        user: ["user"],
        "public:local": ["public:local"],
        hashtag: ["hashtag", "TeaParty"],
        list: ["list", list.id],
      };
      for (const [name, stream] of Object.entries(expected)) {
        const update = await eventually(async () => received[name]!.find((e) => e.event === "update" && e.payload.id === post.id), { what: `update on ${name}` });
        expect(update.stream).toEqual(stream);
        expect(update.event === "update" && update.payload.content).toContain("live from the");
        expect(update.event === "update" && update.payload.account.id).toBe(alice.id);
      }
      const viaQuery = await eventually(async () => received["query token"]!.find((e) => e.event === "update" && e.payload.id === post.id), { what: "update on the query-token socket" });
      expect(viaQuery.stream).toEqual(["public:local"]);

      const mention = await alice.rest.v1.statuses.create({ status: "@bob are you streaming?", visibility: "unlisted" });
      for (const name of ["user", "user:notification"]) {
        const notification = await eventually(async () => received[name]!.find((e) => e.event === "notification" && e.payload.status?.id === mention.id), { what: `notification on ${name}` });
        expect(notification.stream).toEqual([name]);
        expect(notification.event === "notification" && notification.payload.type).toBe("mention");
        expect(notification.event === "notification" && notification.payload.account.id).toBe(alice.id);
      }

      await alice.rest.v1.statuses.$select(post.id).remove();
      for (const [name, stream] of Object.entries(expected)) {
        const deletion = await eventually(async () => received[name]!.find((e) => e.event === "delete" && e.payload === post.id), { what: `delete on ${name}` });
        expect(deletion.stream).toEqual(stream);
      }
    } finally {
      streaming.close();
      byQuery.close();
    }
  });
});
