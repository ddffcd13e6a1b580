// HTTP signatures policy, through the wire against a hand-written peer in secure mode (it answers only
// validly signed GETs): every GET Warren makes is signed (the instance actor's key when no user is behind it);
// stale, tampered and replayed deliveries have no effect; WARREN_AUTHORIZED_FETCH (Mastodon's secure mode)
// guards collections, reduces unsigned actor GETs, always serves the instance actor, and refuses signers
// that are blocked (by the owner: 404, their domain suspended: 403). Job workers on.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { federatedWorld } from "../helpers/federated-world.ts";
import { signRequest } from "@fedify/fedify/sig";
import type { FakeActor } from "../helpers/fake-peer.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { staffUser } from "../http/admin-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(30_000);

const AP = "application/activity+json";

const { a: warren, peer } = federatedWorld({ peer: { requireSignedGets: true } });
let bob: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  bob = await signedInUser(warren.t, "bob");
});

/** A GET of `url` signed by `actor` (draft-cavage, as Mastodon signs fetches). */
async function signedGet(actor: FakeActor, url: string, date?: Date): Promise<Response> {
  const request = new Request(url, { headers: { accept: AP } });
  const currentTime = date ? Temporal.Instant.fromEpochMilliseconds(date.getTime()) : undefined;
  return fetch(await signRequest(request, actor.privateKey, new URL(actor.keyId), { currentTime }));
}

/** Resolves `username` on the fake peer from `i` (search with resolve=true): the remote Account. */
async function resolvePeerAccount(i: Instance, token: string, username: string): Promise<any> {
  const q = encodeURIComponent(`@${username}@${peer.domain}`);
  const found = await json(i, `/api/v2/search?q=${q}&resolve=true&type=accounts`, token);
  expect(found.accounts.length).toBe(1);
  return found.accounts[0];
}

const unsignedGet = (url: string) => fetch(url, { headers: { accept: AP } });

/** The body of an answer as JSON (tests look into ActivityPub documents freely). */
const jsonOf = async (res: Response): Promise<any> => res.json();

/** Posts the exact bytes and headers of a signed request to `url` (a replay, or a replay elsewhere). */
async function replay(signed: Request, body: string, url = signed.url): Promise<Response> {
  return fetch(url, { method: "POST", headers: signed.headers, body });
}

const followerAccts = async (i: Instance, owner: { id: string; token: string }) =>
  ((await json(i, `/api/v1/accounts/${owner.id}/followers`, owner.token)) as { acct: string }[]).map((a) => a.acct);

describe("outgoing GETs are signed", () => {
  test("an actor found through WebFinger is fetched with the instance actor's signature", async () => {
    const erin = await peer.actor("erin");
    // The peer really refuses unsigned fetches.
    expect((await unsignedGet(erin.id)).status).toBe(401);
    const remote = await resolvePeerAccount(warren, bob.token, "erin");
    expect(remote.acct).toBe(`erin@${peer.domain}`);
    const fetches = peer.fetched.filter((f) => f.path === "/users/erin" && f.signedBy);
    expect(fetches.length).toBeGreaterThan(0);
    expect(fetches.every((f) => f.signedBy === `http://${warren.domain}/users/instance.actor#main-key`)).toBe(true);
  });

  test("the key of an activity at the shared inbox is fetched signed by the instance actor, at a personal inbox by its owner", async () => {
    const frank = await peer.actor("frank");
    const grace = await peer.actor("grace");
    const object = `http://${warren.domain}/users/bob`;
    const shared = await peer.send(frank, `http://${warren.domain}/inbox`, { id: `${frank.id}#follows/1`, type: "Follow", actor: frank.id, object });
    expect(shared.status).toBe(202);
    const personal = await peer.send(grace, `${object}/inbox`, { id: `${grace.id}#follows/1`, type: "Follow", actor: grace.id, object });
    expect(personal.status).toBe(202);
    const signers = (path: string) => new Set(peer.fetched.filter((f) => f.path === path).map((f) => f.signedBy));
    expect(signers("/users/frank")).toEqual(new Set([`http://${warren.domain}/users/instance.actor#main-key`]));
    // The key was fetched for the signature check by bob's key, later (the listener's lookups) by the instance's.
    expect(signers("/users/grace").has(`http://${warren.domain}/users/bob#main-key`)).toBe(true);
    expect([...signers("/users/grace")].every((signer) => signer !== null)).toBe(true);
    await eventually(async () => (await followerAccts(warren, bob)).length === 2);
  });
});

describe("stale, tampered and replayed deliveries", () => {
  let mallory: FakeActor;
  const inbox = () => `http://${warren.domain}/users/bob/inbox`;
  const follow = (n: string) => ({ id: `${mallory.id}#follows/${n}`, type: "Follow", actor: mallory.id, object: `http://${warren.domain}/users/bob` });

  beforeAll(async () => {
    mallory = await peer.actor("mallory");
  });

  test("a correctly signed Follow dated two hours ago is refused (401) and changes nothing", async () => {
    const res = await peer.send(mallory, inbox(), follow("stale"), { date: new Date(Date.now() - 2 * 3600_000) });
    expect(res.status).toBe(401);
    await warren.t.deps.jobs.drain();
    expect(await followerAccts(warren, bob)).not.toContain(`mallory@${peer.domain}`);
  });

  test("a body changed after signing is refused (401: its digest no longer matches)", async () => {
    const signed = await peer.signed(mallory, inbox(), follow("tampered"));
    const body = (await signed.clone().text()).replace("#follows/tampered", "#follows/tampered2");
    expect((await replay(signed, body)).status).toBe(401);
    await warren.t.deps.jobs.drain();
    expect(await followerAccts(warren, bob)).not.toContain(`mallory@${peer.domain}`);
  });

  test("the same signed Follow sent again after an Undo does not follow again, nor answer again", async () => {
    const activity = follow("replayed");
    const signed = await peer.signed(mallory, inbox(), activity);
    const body = await signed.clone().text();
    expect((await replay(signed, body)).status).toBe(202);
    await eventually(async () => (await followerAccts(warren, bob)).includes(`mallory@${peer.domain}`));
    const accepts = () => peer.received.filter((r) => r.body?.type === "Accept" && (r.body.object?.id ?? r.body.object) === activity.id);
    await eventually(async () => accepts().length === 1);

    const undo = await peer.send(mallory, inbox(), { id: `${mallory.id}#follows/replayed/undo`, type: "Undo", actor: mallory.id, object: activity });
    expect(undo.status).toBe(202);
    await eventually(async () => !(await followerAccts(warren, bob)).includes(`mallory@${peer.domain}`));

    // Within the signature's hour the replay verifies, but the activity id was already processed: no effect.
    expect((await replay(signed, body)).status).toBeLessThan(300);
    await warren.t.deps.jobs.drain();
    expect(await followerAccts(warren, bob)).not.toContain(`mallory@${peer.domain}`);
    expect(accepts().length).toBe(1);
    // Nor can it be aimed at another inbox: the signature covers the request target.
    expect((await replay(signed, body, `http://${warren.domain}/inbox`)).status).toBe(401);
  });
});

describe("WARREN_AUTHORIZED_FETCH", () => {
  let secure: Instance;
  let alice: Awaited<ReturnType<typeof signedInUser>>;
  let reader: FakeActor;
  const url = (path: string) => `http://${secure.domain}${path}`;

  beforeAll(async () => {
    secure = await startInstance({ WARREN_AUTHORIZED_FETCH: "true" });
    alice = await signedInUser(secure.t, "alice");
    const carol = await signedInUser(secure.t, "carol");
    await json(secure, `/api/v1/accounts/${alice.id}/follow`, carol.token, { method: "POST" });
    reader = await peer.actor("reader");
  });
  afterAll(() => stopInstance(secure));

  test("collections need a valid signature: unsigned or forged 401, signed 200", async () => {
    for (const path of ["/users/alice/followers", "/users/alice/following", "/users/alice/outbox", "/users/alice/followers?cursor=first"]) {
      const unsigned = await unsignedGet(url(path));
      expect(unsigned.status).toBe(401);
      expect(await unsigned.json()).toEqual({ error: "Request not signed" });
      expect((await signedGet(reader, url(path))).status).toBe(200);
    }
    const forger = { ...reader, privateKey: (await peer.actor("forger")).privateKey };
    const forged = await signedGet(forger, url("/users/alice/followers"));
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: "Request signature could not be verified" });
    expect((await signedGet(reader, url("/users/alice/followers"), new Date(Date.now() - 2 * 3600_000))).status).toBe(401);
    const page = await jsonOf(await signedGet(reader, url("/users/alice/followers?cursor=first")));
    expect(page.orderedItems).toEqual([url("/users/carol")]);
  });

  test("an unsigned actor GET gets the reduced actor, a signed one the whole; answers vary by Signature", async () => {
    const unsigned = await unsignedGet(url("/users/alice"));
    expect(unsigned.status).toBe(200);
    expect(unsigned.headers.get("vary")).toContain("Signature");
    const reduced = await jsonOf(unsigned);
    expect(reduced).toMatchObject({ id: url("/users/alice"), type: "Person", preferredUsername: "alice", inbox: url("/users/alice/inbox") });
    expect(reduced.publicKey.id).toBe(url("/users/alice#main-key"));
    expect(reduced.endpoints.sharedInbox).toBe(url("/inbox"));
    for (const hidden of ["name", "summary", "followers", "following", "url", "published", "icon", "attachment"]) expect(reduced).not.toHaveProperty(hidden);

    const whole = await jsonOf(await signedGet(reader, url("/users/alice")));
    expect(whole.name).toBe("alice");
    expect(whole.followers).toBe(url("/users/alice/followers"));
  });

  test("the instance actor is served whole without a signature", async () => {
    const res = await unsignedGet(url("/users/instance.actor"));
    expect(res.status).toBe(200);
    const actor = await jsonOf(res);
    expect(actor.type).toBe("Application");
    expect(actor.name).toBe(secure.domain);
    expect(actor.publicKey.id).toBe(url("/users/instance.actor#main-key"));
  });

  test("a signer the owner blocks gets 404 for its actor and collections; others still get them", async () => {
    const blocked = await peer.actor("blocked");
    const remote = await resolvePeerAccount(secure, alice.token, "blocked");
    await json(secure, `/api/v1/accounts/${remote.id}/block`, alice.token, { method: "POST" });
    for (const path of ["/users/alice", "/users/alice/followers", "/users/alice/following"]) {
      const res = await signedGet(blocked, url(path));
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Record not found" });
      expect((await signedGet(reader, url(path))).status).toBe(200);
    }
    // Someone else's collections stay open to it.
    expect((await signedGet(blocked, url("/users/carol/following"))).status).toBe(200);
  });

  test("two servers in secure mode still federate: whole profiles, follow and accept", async () => {
    const other = await startInstance({ WARREN_AUTHORIZED_FETCH: "true" });
    try {
      const named = await secure.t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: alice.token, json: { display_name: "Alice Secure" } });
      expect(named.status).toBe(200);
      const zoe = await signedInUser(other.t, "zoe");
      const found = await json(other, `/api/v2/search?q=${encodeURIComponent(`@alice@${secure.domain}`)}&resolve=true&type=accounts`, zoe.token);
      // The signed fetch got the whole actor, not the reduced one.
      expect(found.accounts[0].display_name).toBe("Alice Secure");
      await json(other, `/api/v1/accounts/${found.accounts[0].id}/follow`, zoe.token, { method: "POST" });
      await eventually(async () => (await json(other, `/api/v1/accounts/relationships?id[]=${found.accounts[0].id}`, zoe.token))[0].following);
    } finally {
      await stopInstance(other);
    }
  });

  test("a signer from a suspended domain gets 403", async () => {
    const admin = await staffUser(secure.t, "boss", "Admin");
    const host = new URL(peer.base).hostname;
    const created = await secure.t.request("/api/v1/admin/domain_blocks", { method: "POST", token: admin.token, json: { domain: host, severity: "suspend" } });
    expect(created.status).toBe(200);
    for (const path of ["/users/alice", "/users/alice/followers"]) {
      const res = await signedGet(reader, url(path));
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: "This action is not allowed" });
    }
  });

  test("without the setting, collections and the whole actor are served unsigned", async () => {
    const followers = await unsignedGet(`http://${warren.domain}/users/bob/followers`);
    expect(followers.status).toBe(200);
    expect((await jsonOf(followers)).totalItems).toBeGreaterThan(0);
    const actor = await jsonOf(await unsignedGet(`http://${warren.domain}/users/bob`));
    expect(actor.name).toBe("bob");
    expect(actor.followers).toBe(`http://${warren.domain}/users/bob/followers`);
  });
});
