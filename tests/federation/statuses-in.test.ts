// Incoming statuses (federation part 2): a real Warren instance on loopback with job workers on, and the
// hand-written fake peer playing another server. Everything is checked through the API as clients see it:
// home, public (remote / local), hashtag and account timelines, notifications, threads, search with
// resolve=true; Announce, Like and their Undo, Update and Delete of a Note; refused input that writes nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakePeer, type FakeActor, type FakePeer } from "../helpers/fake-peer.ts";
import { json, relationship, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { openSse, type SseClient } from "../helpers/streaming.ts";
import { eventually } from "../helpers/eventually.ts";

let warren: Instance;
let peer: FakePeer;
let other: FakePeer;
let mallory: FakeActor;
let eve: FakeActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let bob: Awaited<ReturnType<typeof signedInUser>>;
let carol: Awaited<ReturnType<typeof signedInUser>>;
let malloryId: string;

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
// Mastodon's context terms the Notes below use.
const CONTEXT = [
  "https://www.w3.org/ns/activitystreams",
  { sensitive: "as:sensitive", Hashtag: "as:Hashtag", toot: "http://joinmastodon.org/ns#", blurhash: "toot:blurhash" },
];

const inbox = () => `http://${warren.domain}/inbox`;
const actorUri = (username: string) => `http://${warren.domain}/users/${username}`;
let serial = 0;

/** A Note by `actor` (public unless `extra` says otherwise). */
function note(actor: FakeActor, extra: Record<string, unknown> = {}): Record<string, any> {
  const id = `${actor.id}/statuses/${++serial}`;
  return {
    id,
    type: "Note",
    attributedTo: actor.id,
    content: `<p>note ${serial}</p>`,
    published: new Date().toISOString(),
    url: `${peer.base}/@${actor.username}/${serial}`,
    to: [PUBLIC],
    cc: [`${actor.id}/followers`],
    ...extra,
  };
}

/** `actor` sends `type` of `object` (a fresh activity id each time). */
async function send(actor: FakeActor, type: string, object: unknown, extra: Record<string, unknown> = {}, to = inbox()) {
  const res = await peer.send(actor, to, { "@context": CONTEXT, id: `${actor.id}#${type.toLowerCase()}/${++serial}`, type, actor: actor.id, object, ...extra });
  expect(res.status).toBe(202);
}

const create = (actor: FakeActor, object: Record<string, unknown>) => send(actor, "Create", object, { to: object.to, cc: object.cc });

/** The API's Status of a Note once `token`'s home timeline shows it. */
async function inHome(token: string, uri: string): Promise<any> {
  return eventually(async () => (await json(warren, "/api/v1/timelines/home", token)).find((s: any) => s.uri === uri || s.reblog?.uri === uri));
}

const timeline = (path: string, token?: string) => json(warren, path, token) as Promise<any[]>;
const uris = (statuses: any[]) => statuses.map((s) => s.uri);

beforeAll(async () => {
  warren = await startInstance();
  peer = await startFakePeer();
  other = await startFakePeer();
  [alice, bob, carol] = await Promise.all([signedInUser(warren.t, "alice"), signedInUser(warren.t, "bob"), signedInUser(warren.t, "carol")]);
  mallory = await peer.actor("mallory");
  eve = await peer.actor("eve");
  // alice follows mallory (the peer accepts by hand).
  const found = await json(warren, `/api/v2/search?q=${encodeURIComponent(`@mallory@${peer.domain}`)}&resolve=true&type=accounts`, alice.token);
  malloryId = found.accounts[0].id;
  await json(warren, `/api/v1/accounts/${malloryId}/follow`, alice.token, { method: "POST" });
  const follow = await eventually(async () => peer.received.find((r) => r.body?.type === "Follow" && r.body.actor === actorUri("alice")));
  await send(mallory, "Accept", follow.body, {}, `${actorUri("alice")}/inbox`);
  await eventually(async () => (await relationship(warren, alice.token, malloryId)).following);
});
afterAll(async () => {
  peer.stop();
  other.stop();
  await stopInstance(warren);
});

test("a public Note lands in the follower's home, the remote public timeline and its hashtag's, sanitised", async () => {
  const n = note(mallory, {
    content: `<p>Hello <script>alert(1)</script><a href="javascript:x()">x</a> <a href="${peer.base}/tags/Warren" class="mention hashtag" onclick="x">#<span>Warren</span></a></p>`,
    contentMap: { de: "<p>Hallo</p>" },
    summary: "cw <b>here</b>",
    tag: [{ type: "Hashtag", href: `${peer.base}/tags/Warren`, name: "#Warren" }],
    attachment: [{ type: "Document", mediaType: "image/png", url: `${peer.base}/files/a.png`, name: "a cat", width: 40, height: 20 }],
  });
  await create(mallory, n);
  const status = await inHome(alice.token, n.id);
  expect(status).toMatchObject({ uri: n.id, url: n.url, visibility: "public", spoiler_text: "cw here", sensitive: true, language: "de" });
  expect(status.content).not.toMatch(/script|javascript|onclick|alert/);
  expect(status.content).toContain(`href="${peer.base}/tags/Warren"`);
  expect(status.tags.map((t: any) => t.name)).toEqual(["warren"]);
  expect(status.account.acct).toBe(`mallory@${peer.domain}`);
  expect(status.media_attachments).toHaveLength(1);
  expect(status.media_attachments[0]).toMatchObject({ type: "image", url: `${peer.base}/files/a.png`, remote_url: `${peer.base}/files/a.png`, description: "a cat" });
  expect(status.media_attachments[0].meta.original).toMatchObject({ width: 40, height: 20 });

  expect(uris(await timeline("/api/v1/timelines/public?remote=true"))).toContain(n.id);
  expect(uris(await timeline("/api/v1/timelines/public?local=true"))).not.toContain(n.id);
  expect(uris(await timeline("/api/v1/timelines/public"))).toContain(n.id);
  const tagged = await eventually(async () => {
    const found = await timeline("/api/v1/timelines/tag/warren");
    return found.length ? found : undefined;
  });
  expect(uris(tagged)).toContain(n.id);
  // bob follows nobody: he still reads it by id and on mallory's profile.
  expect((await json(warren, `/api/v1/statuses/${status.id}`, bob.token)).uri).toBe(n.id);
  expect(uris(await timeline(`/api/v1/accounts/${malloryId}/statuses`, bob.token))).toContain(n.id);

  // The same Note again in a new Create (another activity id): nothing new is stored.
  await create(mallory, n);
  const sentinel = note(mallory);
  await create(mallory, sentinel);
  await inHome(alice.token, sentinel.id);
  const mine = await timeline(`/api/v1/accounts/${malloryId}/statuses?limit=40`, alice.token);
  expect(mine.filter((s) => s.uri === n.id)).toHaveLength(1);
});

test("an unlisted Note reaches the follower's home but no public timeline; a private one only followers", async () => {
  const unlisted = note(mallory, { to: [`${mallory.id}/followers`], cc: ["as:Public"] });
  await create(mallory, unlisted);
  const shown = await inHome(alice.token, unlisted.id);
  expect(shown.visibility).toBe("unlisted");
  expect(uris(await timeline("/api/v1/timelines/public?remote=true"))).not.toContain(unlisted.id);
  expect(uris(await timeline("/api/v1/timelines/public"))).not.toContain(unlisted.id);

  const bare = note(mallory, { to: ["Public"], cc: [] });
  await create(mallory, bare);
  expect((await inHome(alice.token, bare.id)).visibility).toBe("public");

  // An Article and a Question are read as Notes (the poll left out for now).
  const article = note(mallory, { type: "Article", content: "<p>an article</p>" });
  const question = note(mallory, { type: "Question", content: "<p>a question</p>", oneOf: [{ type: "Note", name: "yes" }] });
  for (const n of [article, question]) await create(mallory, n);
  expect((await inHome(alice.token, article.id)).content).toBe("<p>an article</p>");
  expect((await inHome(alice.token, question.id)).content).toBe("<p>a question</p>");

  const secret = note(mallory, { to: [`${mallory.id}/followers`], cc: [], content: "<p>followers only quixotically</p>" });
  await create(mallory, secret);
  const status = await inHome(alice.token, secret.id);
  expect(status.visibility).toBe("private");
  expect((await warren.t.request(`/api/v1/statuses/${status.id}`, { token: bob.token })).status).toBe(404);
  expect(uris(await timeline(`/api/v1/accounts/${malloryId}/statuses`, bob.token))).not.toContain(secret.id);
  expect(uris(await timeline(`/api/v1/timelines/public?remote=true`, bob.token))).not.toContain(secret.id);
  expect(uris(await timeline(`/api/v1/accounts/${malloryId}/statuses`, alice.token))).toContain(secret.id);
  // Search: the follower finds it once indexed; the non-follower never does.
  const searched = (token: string) => json(warren, "/api/v2/search?q=quixotically&type=statuses", token).then((r) => uris(r.statuses));
  await eventually(async () => (await searched(alice.token)).includes(secret.id));
  expect(await searched(bob.token)).toEqual([]);
});

test("a direct Note mentioning a local account notifies it and is seen by nobody else", async () => {
  const n = note(mallory, {
    to: [actorUri("carol")],
    cc: [],
    content: `<p><span class="h-card"><a href="${actorUri("carol")}" class="u-url mention">@<span>carol</span></a></span> psst</p>`,
    tag: [{ type: "Mention", href: actorUri("carol"), name: `@carol@${warren.domain}` }],
  });
  await create(mallory, n);
  const notification = await eventually(async () =>
    (await json(warren, "/api/v1/notifications?include_filtered=true", carol.token)).find((x: any) => x.type === "mention" && x.status?.uri === n.id));
  expect(notification.status.visibility).toBe("direct");
  expect(notification.status.mentions.map((m: any) => m.username)).toEqual(["carol"]);
  expect(notification.account.acct).toBe(`mallory@${peer.domain}`);
  const id = notification.status.id;
  expect((await json(warren, `/api/v1/statuses/${id}`, carol.token)).uri).toBe(n.id);
  // alice follows mallory but is not addressed; bob is nobody here.
  for (const token of [alice.token, bob.token]) expect((await warren.t.request(`/api/v1/statuses/${id}`, { token })).status).toBe(404);
  expect(uris(await timeline(`/api/v1/accounts/${malloryId}/statuses`, alice.token))).not.toContain(n.id);
  expect(uris(await timeline("/api/v1/timelines/home", alice.token))).not.toContain(n.id);
  // It opens a conversation for carol, and none for alice.
  await eventually(async () => (await json(warren, "/api/v1/conversations", carol.token)).find((c: any) => c.last_status?.uri === n.id));
  await warren.t.deps.jobs.drain();
  expect((await json(warren, "/api/v1/conversations", alice.token)).some((c: any) => c.last_status?.uri === n.id)).toBe(false);
});

/** The first event of `type` on `stream` about the Note `uri`. */
const streamed = (stream: SseClient, type: string, uri: string) =>
  eventually(async () => stream.events.find((e) => e.event === type && e.data && [JSON.parse(e.data).uri, JSON.parse(e.data).status?.uri].includes(uri)));

test("streams: the follower's home gets a private Note, the mentioned account its notification, the public stream only public ones", async () => {
  const base = `http://${warren.domain}`;
  const [home, notifications, open] = await Promise.all([
    openSse(base, "/api/v1/streaming/user", alice.token),
    openSse(base, "/api/v1/streaming/user/notification", carol.token),
    openSse(base, "/api/v1/streaming/public", bob.token),
  ]);
  try {
    const secret = note(mallory, {
      to: [`${mallory.id}/followers`],
      cc: [actorUri("carol")],
      tag: [{ type: "Mention", href: actorUri("carol"), name: `@carol@${warren.domain}` }],
    });
    await create(mallory, secret);
    await streamed(home, "update", secret.id);
    const notification = JSON.parse((await streamed(notifications, "notification", secret.id)).data);
    expect(notification).toMatchObject({ type: "mention", status: { visibility: "private" } });
    const shown = note(mallory);
    await create(mallory, shown);
    await streamed(open, "update", shown.id);
    expect(open.events.some((e) => e.data.includes(secret.id))).toBe(false);
  } finally {
    for (const stream of [home, notifications, open]) stream.close();
  }
});

test("replies to a local status are kept from anyone and join its thread; unsolicited Notes are dropped", async () => {
  const post = await json(warren, "/api/v1/statuses", alice.token, { method: "POST", body: JSON.stringify({ status: "a thread" }), headers: { "content-type": "application/json" } });
  // eve: followed by nobody here.
  const ignored = note(eve);
  await create(eve, ignored);
  const reply = note(eve, { inReplyTo: post.uri, cc: [actorUri("alice")] });
  await create(eve, reply);
  const context = await eventually(async () => {
    const found = await json(warren, `/api/v1/statuses/${post.id}/context`, bob.token);
    return found.descendants.length ? found : undefined;
  });
  expect(uris(context.descendants)).toEqual([reply.id]);
  expect(context.descendants[0]).toMatchObject({ in_reply_to_id: post.id, in_reply_to_account_id: alice.id });
  expect((await json(warren, `/api/v1/statuses/${post.id}`, alice.token)).replies_count).toBe(1);
  await warren.t.deps.jobs.drain();
  const eveId = context.descendants[0].account.id;
  const eves = await timeline(`/api/v1/accounts/${eveId}/statuses`, bob.token);
  expect(uris(eves)).toEqual([reply.id]);
  expect((await json(warren, `/api/v1/statuses/${context.descendants[0].id}/context`, bob.token)).ancestors.map((s: any) => s.id)).toEqual([post.id]);
});

test("a followed author's reply to a status not seen yet brings its thread along", async () => {
  const zoe = await peer.actor("zoe");
  const parent: Record<string, any> = { "@context": CONTEXT, ...note(zoe, { content: "<p>parent</p>" }) };
  peer.serve(new URL(parent.id).pathname, parent);
  const reply = note(mallory, { inReplyTo: parent.id, cc: [`${mallory.id}/followers`, zoe.id] });
  await create(mallory, reply);
  const stored = await eventually(async () => (await timeline(`/api/v1/accounts/${malloryId}/statuses`, alice.token)).find((s) => s.uri === reply.id));
  const context = await json(warren, `/api/v1/statuses/${stored.id}/context`, alice.token);
  expect(uris(context.ancestors)).toEqual([parent.id]);
  expect(stored.in_reply_to_id).toBe(context.ancestors[0].id);
});

test("refused: a Note attributed to someone else, on another origin, addressed to nobody, or too long", async () => {
  const stranger = await other.actor("stranger");
  const forged = note(mallory, { attributedTo: eve.id, content: "<p>forged</p>" });
  const foreign = { ...note(mallory), id: `${stranger.id}/statuses/1`, attributedTo: mallory.id };
  const nobody = note(mallory, { to: [], cc: [] });
  const huge = note(mallory, { content: `<p>${"x".repeat(200_000)}</p>` });
  for (const n of [forged, foreign, nobody, huge]) await create(mallory, n);
  // A Create whose actor is not its signer is refused before any listener (Fedify: 401).
  const res = await peer.send(mallory, inbox(), { "@context": CONTEXT, id: `${eve.id}#create/${++serial}`, type: "Create", actor: eve.id, object: note(eve) });
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  const sentinel = note(mallory);
  await create(mallory, sentinel);
  await inHome(alice.token, sentinel.id);
  await warren.t.deps.jobs.drain();
  const statuses = await timeline(`/api/v1/accounts/${malloryId}/statuses?limit=40`, alice.token);
  for (const n of [forged, foreign, nobody, huge]) expect(uris(statuses)).not.toContain(n.id);
  expect(uris(await timeline("/api/v1/timelines/public?remote=true"))).not.toContain(forged.id);
});

test("Like and Announce of a local status count and notify; their Undo takes them back", async () => {
  const post = await json(warren, "/api/v1/statuses", alice.token, { method: "POST", body: JSON.stringify({ status: "like me" }), headers: { "content-type": "application/json" } });
  const like = { id: `${mallory.id}#likes/${++serial}`, type: "Like", actor: mallory.id, object: post.uri };
  await peer.send(mallory, inbox(), { "@context": CONTEXT, ...like });
  const announce = { id: `${mallory.id}/statuses/${++serial}/activity`, type: "Announce", actor: mallory.id, object: post.uri, to: [PUBLIC], cc: [actorUri("alice")] };
  await peer.send(mallory, inbox(), { "@context": CONTEXT, ...announce });
  const counted = await eventually(async () => {
    const status = await json(warren, `/api/v1/statuses/${post.id}`, alice.token);
    return status.favourites_count === 1 && status.reblogs_count === 1 ? status : undefined;
  });
  expect(counted.id).toBe(post.id);
  const types = (await json(warren, "/api/v1/notifications", alice.token)).filter((x: any) => x.status?.id === post.id).map((x: any) => x.type);
  expect(types.sort()).toEqual(["favourite", "reblog"]);
  expect((await json(warren, `/api/v1/statuses/${post.id}/favourited_by`, alice.token)).map((a: any) => a.id)).toEqual([malloryId]);
  expect((await json(warren, `/api/v1/statuses/${post.id}/reblogged_by`, alice.token)).map((a: any) => a.id)).toEqual([malloryId]);
  // The reblog reaches mallory's follower alice? Her own status: Mastodon does not show it again; on mallory's profile it is.
  expect((await timeline(`/api/v1/accounts/${malloryId}/statuses`, bob.token)).some((s) => s.reblog?.id === post.id)).toBe(true);

  // eve may not undo mallory's Like.
  await send(eve, "Undo", { ...like, actor: eve.id });
  await send(mallory, "Undo", like);
  await send(mallory, "Undo", announce);
  await eventually(async () => {
    const status = await json(warren, `/api/v1/statuses/${post.id}`, alice.token);
    return status.favourites_count === 0 && status.reblogs_count === 0;
  });
  expect((await timeline(`/api/v1/accounts/${malloryId}/statuses`, bob.token)).some((s) => s.reblog?.id === post.id)).toBe(false);
});

test("an Announce of an unknown remote status fetches it; the booster's follower sees the reblog", async () => {
  const zed = await peer.actor("zed");
  const original: Record<string, any> = { "@context": CONTEXT, ...note(zed, { content: "<p>boosted</p>" }) };
  peer.serve(new URL(original.id).pathname, original);
  await send(mallory, "Announce", original.id, { id: `${mallory.id}/statuses/${++serial}/activity`, to: [PUBLIC] });
  const reblog = await inHome(alice.token, original.id);
  expect(reblog.account.id).toBe(malloryId);
  expect(reblog.reblog).toMatchObject({ uri: original.id, content: "<p>boosted</p>" });
  expect(reblog.reblog.account.acct).toBe(`zed@${peer.domain}`);
});

test("Update by the author edits the status; Delete by the author removes it everywhere; others are ignored", async () => {
  const n = note(mallory, { content: "<p>first</p>" });
  await create(mallory, n);
  const status = await inHome(alice.token, n.id);
  await send(eve, "Update", { ...n, attributedTo: eve.id, content: "<p>hijacked</p>" });
  await send(mallory, "Update", { ...n, content: "<p>second</p>", summary: "now with cw", updated: new Date().toISOString() });
  const edited = await eventually(async () => {
    const found = await json(warren, `/api/v1/statuses/${status.id}`, bob.token);
    return found.edited_at ? found : undefined;
  });
  expect(edited).toMatchObject({ content: "<p>second</p>", spoiler_text: "now with cw", sensitive: true });
  const history = await json(warren, `/api/v1/statuses/${status.id}/history`, bob.token);
  expect(history.map((v: any) => v.content)).toEqual(["<p>first</p>", "<p>second</p>"]);

  await send(eve, "Delete", { id: n.id, type: "Tombstone" });
  await send(mallory, "Delete", { id: n.id, type: "Tombstone" }, { to: [PUBLIC] });
  await eventually(async () => (await warren.t.request(`/api/v1/statuses/${status.id}`, { token: alice.token })).status === 404);
  expect(uris(await timeline("/api/v1/timelines/home", alice.token))).not.toContain(n.id);
  expect(uris(await timeline("/api/v1/timelines/public?remote=true"))).not.toContain(n.id);
  expect(uris(await timeline(`/api/v1/accounts/${malloryId}/statuses`, alice.token))).not.toContain(n.id);
});

test("search with resolve=true fetches a status by URL with its ancestors, though nobody follows its author", async () => {
  const yan = await peer.actor("yan");
  const served = (extra: Record<string, unknown>): Record<string, any> => ({ "@context": CONTEXT, ...note(yan, extra) });
  const root = served({ content: "<p>root</p>" });
  const middle = served({ content: "<p>middle</p>", inReplyTo: root.id });
  const leaf = served({ content: "<p>leaf</p>", inReplyTo: middle.id });
  for (const n of [root, middle, leaf]) peer.serve(new URL(n.id).pathname, n);
  const found = await json(warren, `/api/v2/search?q=${encodeURIComponent(leaf.id)}&resolve=true`, bob.token);
  expect(found.statuses.map((s: any) => s.uri)).toEqual([leaf.id]);
  expect(found.statuses[0].account.acct).toBe(`yan@${peer.domain}`);
  const context = await json(warren, `/api/v1/statuses/${found.statuses[0].id}/context`, bob.token);
  expect(uris(context.ancestors)).toEqual([root.id, middle.id]);
  // A document claiming another server's id, or a Note attributed to an actor of another server: nothing.
  const stranger = await other.actor("stranger2");
  const claimed = served({ id: `${stranger.id}/statuses/1`, attributedTo: stranger.id });
  peer.serve("/claimed", claimed);
  const misattributed = served({ attributedTo: stranger.id });
  peer.serve(new URL(misattributed.id).pathname, misattributed);
  for (const q of [`${peer.base}/claimed`, misattributed.id]) {
    const none = await json(warren, `/api/v2/search?q=${encodeURIComponent(q)}&resolve=true&type=statuses`, bob.token);
    expect(none.statuses).toEqual([]);
  }
  // Anonymous callers may not resolve.
  expect((await warren.t.request(`/api/v2/search?q=${encodeURIComponent(leaf.id)}&resolve=true`)).status).toBe(401);
});
