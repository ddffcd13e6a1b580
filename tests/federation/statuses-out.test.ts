// Outgoing statuses (federation part 2): a real Warren instance on loopback with job workers on, and the
// hand-written fake peer as the other server. mallory (on the peer) follows alice; eve (on the peer) follows
// nobody and is mentioned; trent (on the peer) is neither. What the peer's inboxes receive is checked as sent:
// the exact to/cc of API.md §14.5 per visibility, Delete(Tombstone), Like/Undo(Like), Announce/Undo(Announce);
// Notes, activities, the outbox and the featured collection through HTTP GETs, private ones signed.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { signRequest } from "@fedify/fedify/sig";
import { startFakePeer, type FakeActor, type FakePeer, type Received } from "../helpers/fake-peer.ts";
import { json, relationship, resolveAccount, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { file, jpeg, postMedia } from "../helpers/media.ts";
import { silenceAccount } from "../helpers/moderation.ts";
import { eventually } from "../helpers/eventually.ts";

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const AP = "application/activity+json";

let warren: Instance;
let peer: FakePeer;
let mallory: FakeActor;
let eve: FakeActor;
let trent: FakeActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;

const actorUri = (username: string) => `http://${warren.domain}/users/${username}`;
const followers = () => `${actorUri("alice")}/followers`;
/** A JSON-LD property as a list (one value may be sent bare). */
const list = (value: unknown): unknown[] => (value == null ? [] : Array.isArray(value) ? value : [value]);
const idOf = (value: any): string => (typeof value === "string" ? value : value?.id);

async function post(text: string, visibility: string, token = alice.token): Promise<any> {
  return json(warren, "/api/v1/statuses", token, { method: "POST", body: JSON.stringify({ status: text, visibility }), headers: { "content-type": "application/json" } });
}

/** Every delivery of `type` whose object is (or names) `objectId`. */
const deliveries = (type: string, objectId: string): Received[] =>
  peer.received.filter((r) => r.body?.type === type && (idOf(r.body.object) === objectId || idOf(r.body.object?.object) === objectId));

const delivered = (type: string, objectId: string) => eventually(async () => deliveries(type, objectId)[0]);

const bodyOf = (res: Response): Promise<any> => res.json();

/** A GET with ActivityPub's Accept, signed by `signer` when given. */
async function get(path: string, signer?: FakeActor): Promise<Response> {
  let request = new Request(`http://${warren.domain}${path}`, { headers: { accept: AP } });
  if (signer) request = await signRequest(request, signer.privateKey, new URL(signer.keyId));
  return fetch(request);
}

beforeAll(async () => {
  warren = await startInstance();
  peer = await startFakePeer();
  alice = await signedInUser(warren.t, "alice");
  [mallory, eve, trent] = await Promise.all([peer.actor("mallory"), peer.actor("eve"), peer.actor("trent")]);
  const follow = { id: `${mallory.id}#follows/1`, type: "Follow", actor: mallory.id, object: actorUri("alice") };
  expect((await peer.send(mallory, `${actorUri("alice")}/inbox`, follow)).status).toBe(202);
  await delivered("Accept", follow.id);
  // eve is known here (so alice can mention her) and trent too (so his signature can be checked).
  for (const who of ["eve", "trent"]) {
    await json(warren, `/api/v2/search?q=${encodeURIComponent(`@${who}@${peer.domain}`)}&resolve=true&type=accounts`, alice.token);
  }
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
});

test("a public, an unlisted and a private status reach the followers' shared inbox once, addressed as §14.5", async () => {
  const mention = `@eve@${peer.domain}`;
  const expected: Record<string, { to: string[]; cc: string[] }> = {
    public: { to: [PUBLIC], cc: [followers(), eve.id] },
    unlisted: { to: [followers()], cc: [PUBLIC, eve.id] },
    private: { to: [followers()], cc: [eve.id] },
  };
  for (const [visibility, addressing] of Object.entries(expected)) {
    const status = await post(`${visibility} hello ${mention} #Warren`, visibility);
    const create = await delivered("Create", status.uri);
    // mallory (a follower) and eve (mentioned) share the peer's inbox: one delivery.
    expect(create.path).toBe("/inbox");
    await warren.t.deps.jobs.drain();
    expect(deliveries("Create", status.uri)).toHaveLength(1);
    const { body } = create;
    expect(body.id).toBe(`${status.uri}/activity`);
    expect(body.actor).toBe(actorUri("alice"));
    for (const object of [body, body.object]) {
      expect(list(object.to)).toEqual(addressing.to);
      expect(list(object.cc)).toEqual(addressing.cc);
    }
    const note = body.object;
    expect(note).toMatchObject({ id: status.uri, type: "Note", url: status.url, attributedTo: actorUri("alice"), sensitive: false });
    expect(note.content).toBe(status.content);
    expect(note.contentMap).toEqual({ [status.language]: status.content });
    expect(list(note.tag)).toEqual([
      { type: "Mention", href: eve.id, name: `@eve@${peer.domain}` },
      { type: "Hashtag", href: `http://${warren.domain}/tags/warren`, name: "#Warren" }, // as the author wrote it (issue 25 item 6)
    ]);
  }
});

test("a silenced author's mentions address only its followers: another mentioned account is neither addressed nor sent it", async () => {
  const sid = await signedInUser(warren.t, "sid");
  const follow = { id: `${mallory.id}#follows/sid`, type: "Follow", actor: mallory.id, object: actorUri("sid") };
  expect((await peer.send(mallory, `${actorUri("sid")}/inbox`, follow)).status).toBe(202);
  await delivered("Accept", follow.id);
  await silenceAccount(warren.t, sid.id);
  const status = await post(`hello @mallory@${peer.domain} and @eve@${peer.domain}`, "direct", sid.token);
  const create = await delivered("Create", status.uri);
  expect(create.path).toBe("/users/mallory/inbox");
  expect(list(create.body.to)).toEqual([mallory.id]);
  expect(list(create.body.object.tag).map((tag: any) => tag.href)).toEqual([mallory.id]);
  await warren.t.deps.jobs.drain();
  expect(deliveries("Create", status.uri)).toHaveLength(1);
});

test("a direct status goes only to the mentioned actor's own inbox, never to a follower", async () => {
  const status = await post(`secret @eve@${peer.domain}`, "direct");
  const create = await delivered("Create", status.uri);
  expect(create.path).toBe("/users/eve/inbox");
  expect(list(create.body.to)).toEqual([eve.id]);
  expect(list(create.body.cc)).toEqual([]);
  expect(list(create.body.object.to)).toEqual([eve.id]);
  // A later public post arriving proves the queue went past it: the direct one went nowhere else.
  const later = await post("later", "public");
  await delivered("Create", later.uri);
  await warren.t.deps.jobs.drain();
  expect(deliveries("Create", status.uri).map((r) => r.path)).toEqual(["/users/eve/inbox"]);
});

/** A public Note by `actor` mentioning alice, sent to warren and stored there (an incoming Create): its Status. */
async function remoteNote(from: FakePeer, actor: FakeActor, slug: string): Promise<any> {
  const noteId = `${actor.id}/statuses/${slug}`;
  const note = {
    id: noteId,
    type: "Note",
    attributedTo: actor.id,
    content: `<p>hi @alice</p>`,
    published: new Date().toISOString(),
    to: [PUBLIC],
    cc: [`${actor.id}/followers`, actorUri("alice")],
    tag: [{ type: "Mention", href: actorUri("alice"), name: `@alice@${warren.domain}` }],
  };
  const sent = await from.send(actor, `http://${warren.domain}/inbox`, { id: `${noteId}/activity`, type: "Create", actor: actor.id, to: note.to, cc: note.cc, object: note });
  expect(sent.status).toBe(202);
  return eventually(async () => {
    const found = await json(warren, `/api/v2/search?q=${encodeURIComponent(noteId)}&resolve=true&type=statuses`, alice.token);
    return found.statuses[0];
  });
}

test("a public reply reaches the replied-to remote author's server; a private one, not addressed to it, does not", async () => {
  const other = await startFakePeer();
  try {
    const zed = await other.actor("zed");
    const parent = await remoteNote(other, zed, "parent");
    const reply = (visibility: string) =>
      json(warren, "/api/v1/statuses", alice.token, {
        method: "POST",
        body: JSON.stringify({ status: `a ${visibility} reply`, visibility, in_reply_to_id: parent.id }),
        headers: { "content-type": "application/json" },
      });
    const privateReply = await reply("private");
    const publicReply = await reply("public");
    const create = await eventually(async () => other.received.find((r) => r.body?.type === "Create" && r.body.object?.id === publicReply.uri));
    expect(create.body.object.inReplyTo).toBe(parent.uri);
    // Its followers still get both (on the other peer); the replied-to server only the public one.
    await delivered("Create", privateReply.uri);
    await warren.t.deps.jobs.drain();
    expect(other.received.filter((r) => r.body?.type === "Create").map((r) => r.body.object.id)).toEqual([publicReply.uri]);
  } finally {
    other.stop();
  }
});

test("an edit goes out as Update(Note) with `updated`", async () => {
  const status = await post("first words", "public");
  await delivered("Create", status.uri);
  await json(warren, `/api/v1/statuses/${status.id}`, alice.token, { method: "PUT", body: JSON.stringify({ status: "second words" }), headers: { "content-type": "application/json" } });
  const update = await delivered("Update", status.uri);
  expect(update.path).toBe("/inbox");
  expect(update.body.object).toMatchObject({ id: status.uri, type: "Note" });
  expect(update.body.object.content).toContain("second words");
  expect(typeof update.body.object.updated).toBe("string");
  expect(list(update.body.to)).toEqual([PUBLIC]);
});

test("a deleted status goes out as Delete(Tombstone) to Public", async () => {
  const status = await post("soon gone", "public");
  await delivered("Create", status.uri);
  const res = await warren.t.request(`/api/v1/statuses/${status.id}`, { method: "DELETE", token: alice.token });
  expect(res.status).toBe(200);
  const del = await delivered("Delete", status.uri);
  expect(del.path).toBe("/inbox");
  expect(del.body.id).toBe(`${status.uri}#delete`);
  expect(del.body.actor).toBe(actorUri("alice"));
  expect(list(del.body.to)).toEqual([PUBLIC]);
  expect(del.body.object).toEqual({ id: status.uri, type: "Tombstone", atomUri: status.uri });
  // Gone for GETs too.
  expect((await get(new URL(status.uri).pathname)).status).toBe(404);
});

test("a favourite and a reblog of a remote status: Like and Announce, then their Undo", async () => {
  // mallory's Note mentioning alice is stored here (incoming Create).
  const stored = await remoteNote(peer, mallory, "remote-1");
  const noteId = stored.uri;

  await json(warren, `/api/v1/statuses/${stored.id}/favourite`, alice.token, { method: "POST" });
  const like = await delivered("Like", noteId);
  // The author alone, at its own inbox.
  expect(like.path).toBe("/users/mallory/inbox");
  expect(like.body.actor).toBe(actorUri("alice"));
  expect(like.body.id).toStartWith(`${actorUri("alice")}#likes/`);
  await json(warren, `/api/v1/statuses/${stored.id}/unfavourite`, alice.token, { method: "POST" });
  const undoLike = await delivered("Undo", noteId);
  expect(undoLike.path).toBe("/users/mallory/inbox");
  expect(undoLike.body.object).toMatchObject({ type: "Like", id: like.body.id, object: noteId });

  const reblog = await json(warren, `/api/v1/statuses/${stored.id}/reblog`, alice.token, { method: "POST", body: JSON.stringify({ visibility: "public" }), headers: { "content-type": "application/json" } });
  const announce = await delivered("Announce", noteId);
  // Followers and the original author are on one server: one delivery to its shared inbox.
  expect(announce.path).toBe("/inbox");
  expect(announce.body.id).toBe(reblog.uri);
  expect(announce.body.id).toEndWith("/activity");
  expect(list(announce.body.to)).toEqual([PUBLIC]);
  expect(list(announce.body.cc)).toEqual([mallory.id, followers()]);
  // Served at its id too.
  const served = await get(new URL(reblog.uri).pathname);
  expect(served.status).toBe(200);
  expect(await bodyOf(served)).toMatchObject({ type: "Announce", id: reblog.uri, object: noteId });

  await json(warren, `/api/v1/statuses/${stored.id}/unreblog`, alice.token, { method: "POST" });
  const undo = await eventually(async () => peer.received.find((r) => r.body?.type === "Undo" && r.body.object?.type === "Announce"));
  expect(undo.path).toBe("/inbox");
  expect(undo.body.object).toMatchObject({ id: reblog.uri, actor: actorUri("alice"), object: noteId });
});

test("an attachment goes out as a Document with its description, size, blurhash and focal point", async () => {
  const upload = await postMedia(warren.t, alice.token, { file: file(await jpeg(64, 48), "a.jpg", "image/jpeg"), description: "a red corner", focus: "0.5,-0.25" });
  expect(upload.status).toBe(200);
  const media = await upload.json() as any;
  const status = await json(warren, "/api/v1/statuses", alice.token, {
    method: "POST",
    body: JSON.stringify({ status: "look", media_ids: [media.id] }),
    headers: { "content-type": "application/json" },
  });
  const expected = { type: "Document", mediaType: "image/jpeg", url: media.url, name: "a red corner", width: 64, height: 48, blurhash: media.blurhash, focalPoint: [0.5, -0.25] };
  const create = await delivered("Create", status.uri);
  expect(list(create.body.object.attachment)).toEqual([expected]);
  // The same served to a GET of the Note.
  const note = await bodyOf(await get(new URL(status.uri).pathname));
  expect(list(note.attachment)).toEqual([expected]);
  expect(typeof media.blurhash).toBe("string");
});

test("a status with a poll goes out as a Question with its options, voters and end", async () => {
  const status = await json(warren, "/api/v1/statuses", alice.token, {
    method: "POST",
    body: JSON.stringify({ status: "tea or coffee?", poll: { options: ["tea", "coffee"], expires_in: 3600 } }),
    headers: { "content-type": "application/json" },
  });
  const create = await delivered("Create", status.uri);
  for (const question of [create.body.object, await bodyOf(await get(new URL(status.uri).pathname))]) {
    expect(question).toMatchObject({ id: status.uri, type: "Question", votersCount: 0 });
    expect(Date.parse(question.endTime)).toBe(Date.parse(status.poll.expires_at));
    expect(list(question.oneOf)).toEqual([
      { type: "Note", name: "tea", replies: { type: "Collection", totalItems: 0 } },
      { type: "Note", name: "coffee", replies: { type: "Collection", totalItems: 0 } },
    ]);
    expect(question.anyOf).toBeUndefined();
    expect(question.closed).toBeUndefined();
  }
});

test("a public Note, its Create and the outbox are served to ActivityPub GETs", async () => {
  const pub = await post("for everyone", "public");
  const unlisted = await post("quietly", "unlisted");
  const priv = await post("followers only", "private");

  const res = await get(new URL(pub.uri).pathname);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/activity+json");
  const note = await bodyOf(res);
  expect(note).toMatchObject({ id: pub.uri, type: "Note", attributedTo: actorUri("alice"), url: pub.url, content: pub.content });
  expect(list(note.cc)).toEqual([followers()]);
  const activity = await bodyOf(await get(`${new URL(pub.uri).pathname}/activity`));
  expect(activity).toMatchObject({ id: `${pub.uri}/activity`, type: "Create", actor: actorUri("alice") });
  expect(idOf(activity.object)).toBe(pub.uri);
  // Its web page's URL, asked for ActivityPub JSON, is the Note too (as on Mastodon).
  expect(await bodyOf(await get(new URL(pub.url).pathname))).toMatchObject({ id: pub.uri, type: "Note" });
  // Browsers are not answered by Fedify.
  expect((await fetch(`http://${warren.domain}${new URL(pub.uri).pathname}`, { headers: { accept: "text/html" } })).headers.get("content-type") ?? "").not.toContain("activity+json");

  const outbox = await bodyOf(await get("/users/alice/outbox"));
  expect(outbox.type).toBe("OrderedCollection");
  const account = await json(warren, "/api/v1/accounts/verify_credentials", alice.token);
  expect(outbox.totalItems).toBe(account.statuses_count);
  const page = await bodyOf(await get(new URL(outbox.first).pathname + new URL(outbox.first).search));
  const objects = list(page.orderedItems).map((item: any) => idOf(item.object));
  // Newest first; public and unlisted, never private.
  expect(objects.slice(0, 2)).toEqual([unlisted.uri, pub.uri]);
  expect(objects).not.toContain(priv.uri);
  expect(list(page.orderedItems).every((item: any) => item.type === "Create" || item.type === "Announce")).toBe(true);
});

test("the outbox pages on: 20 activities, then the rest from `next`, none twice", async () => {
  const dave = await signedInUser(warren.t, "dave");
  const posted: string[] = [];
  for (let i = 0; i < 22; i++) posted.unshift((await post(`number ${i}`, i % 2 ? "public" : "unlisted", dave.token)).uri);
  const outbox = await bodyOf(await get("/users/dave/outbox"));
  expect(outbox.totalItems).toBe(22);
  const path = (url: string) => new URL(url).pathname + new URL(url).search;
  const first = await bodyOf(await get(path(outbox.first)));
  expect(list(first.orderedItems)).toHaveLength(20);
  const second = await bodyOf(await get(path(first.next)));
  const objects = [...list(first.orderedItems), ...list(second.orderedItems)].map((item: any) => idOf(item.object));
  expect(objects).toEqual(posted);
  expect(second.next).toBeUndefined();
  expect((await get("/users/dave/outbox?cursor=nonsense")).status).toBe(404);
});

test("a private Note: 404 unsigned or to an outsider, served to a signed GET from a follower or a mentioned actor", async () => {
  const priv = await post(`only for followers and @eve@${peer.domain}`, "private");
  const direct = await post(`only eve @eve@${peer.domain}`, "direct");
  const path = new URL(priv.uri).pathname;
  expect((await get(path)).status).toBe(404);
  expect((await get(`${path}/activity`)).status).toBe(404);
  expect((await get(path, trent)).status).toBe(404);
  const toFollower = await get(path, mallory);
  expect(toFollower.status).toBe(200);
  expect(await bodyOf(toFollower)).toMatchObject({ id: priv.uri, type: "Note" });
  expect((await get(path, eve)).status).toBe(200);
  // Direct: the mentioned actor only, not a follower.
  const directPath = new URL(direct.uri).pathname;
  expect((await get(directPath, mallory)).status).toBe(404);
  expect((await get(directPath)).status).toBe(404);
  expect((await get(directPath, eve)).status).toBe(200);
});

test("pinned public statuses are the featured collection, named by the actor", async () => {
  const pinned = await post("pinned", "public");
  const priv = await post("pinned but private", "private");
  for (const s of [pinned, priv]) await json(warren, `/api/v1/statuses/${s.id}/pin`, alice.token, { method: "POST" });
  const actor = await bodyOf(await get("/users/alice"));
  expect(actor.featured).toBe(`${actorUri("alice")}/collections/featured`);
  const featured = await bodyOf(await get("/users/alice/collections/featured"));
  expect(featured.type).toBe("OrderedCollection");
  const items = list(featured.orderedItems);
  expect(items.map(idOf)).toEqual([pinned.uri]);
  expect(items[0]).toMatchObject({ type: "Note", content: pinned.content });
});

test("another Warren stores what alice posts for its follower (public with media, private), its favourite and reblog count here, and it drops the status when deleted", async () => {
  const second = await startInstance();
  try {
    const bob = await signedInUser(second.t, "bob");
    const remoteAlice = await resolveAccount(second, bob.token, "alice", warren);
    await json(second, `/api/v1/accounts/${remoteAlice.id}/follow`, bob.token, { method: "POST" });
    await eventually(async () => (await relationship(second, bob.token, remoteAlice.id)).following);

    const upload = await postMedia(warren.t, alice.token, { file: file(await jpeg(40, 30), "b.jpg", "image/jpeg"), description: "small" });
    const media = (await upload.json()) as any;
    const pub = await json(warren, "/api/v1/statuses", alice.token, {
      method: "POST",
      body: JSON.stringify({ status: "to the world #Warren", media_ids: [media.id] }),
      headers: { "content-type": "application/json" },
    });
    const priv = await post("to my followers", "private");
    const home = (uri: string) => eventually(async () => (await json(second, "/api/v1/timelines/home", bob.token)).find((s: any) => s.uri === uri));
    const seen = await home(pub.uri);
    expect(seen).toMatchObject({ visibility: "public", url: pub.url });
    expect(seen.content).toContain("to the world");
    expect(seen.media_attachments).toHaveLength(1);
    expect(seen.media_attachments[0]).toMatchObject({ remote_url: media.url, description: "small" });
    expect(seen.tags.map((t: any) => t.name)).toEqual(["warren"]);
    expect((await home(priv.uri)).visibility).toBe("private");

    // bob's favourite and reblog there count here (his Like and Announce, read by this instance's inbox).
    await json(second, `/api/v1/statuses/${seen.id}/favourite`, bob.token, { method: "POST" });
    await json(second, `/api/v1/statuses/${seen.id}/reblog`, bob.token, { method: "POST" });
    await eventually(async () => {
      const here = await json(warren, `/api/v1/statuses/${pub.id}`, alice.token);
      return here.favourites_count === 1 && here.reblogs_count === 1;
    });

    await warren.t.request(`/api/v1/statuses/${pub.id}`, { method: "DELETE", token: alice.token });
    await eventually(async () => (await second.t.request(`/api/v1/statuses/${seen.id}`, { token: bob.token })).status === 404);
  } finally {
    await stopInstance(second);
  }
}, 30_000);

test("under WARREN_AUTHORIZED_FETCH a public Note needs a signature (401), and a signer the author blocks gets 404", async () => {
  const secure = await startInstance({ WARREN_AUTHORIZED_FETCH: "true" });
  try {
    const carol = await signedInUser(secure.t, "carol");
    const status = await json(secure, "/api/v1/statuses", carol.token, { method: "POST", body: JSON.stringify({ status: "hi", visibility: "public" }), headers: { "content-type": "application/json" } });
    const url = (suffix = "") => `http://${secure.domain}${new URL(status.uri).pathname}${suffix}`;
    const signedGet = async (signer: FakeActor | null, suffix = "") => {
      const request = new Request(url(suffix), { headers: { accept: AP } });
      return fetch(signer ? await signRequest(request, signer.privateKey, new URL(signer.keyId)) : request);
    };
    const unsigned = await signedGet(null);
    expect(unsigned.status).toBe(401);
    expect(await bodyOf(unsigned)).toEqual({ error: "Request not signed" });
    expect((await signedGet(null, "/activity")).status).toBe(401);
    expect((await signedGet(trent)).status).toBe(200);
    const trentHere = await json(secure, `/api/v2/search?q=${encodeURIComponent(`@trent@${peer.domain}`)}&resolve=true&type=accounts`, carol.token);
    await json(secure, `/api/v1/accounts/${trentHere.accounts[0].id}/block`, carol.token, { method: "POST" });
    expect((await signedGet(trent)).status).toBe(404);
    expect((await signedGet(mallory)).status).toBe(200);
  } finally {
    await stopInstance(secure);
  }
}, 30_000);
