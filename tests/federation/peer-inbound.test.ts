// What the fediverse sends, as Warren's users see it (issue 26, items 1, 3, 8, 9, 10): a real Warren (job workers
// on) and the test peer (tests/peer/, not Fedify) playing Mastodon, GoToSocial and Pleroma-shaped servers. alice
// follows mallory (Mastodon peer) and gina (GoToSocial peer); their posts are read back through the Mastodon API.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { activity, emojiTag, note } from "../peer/objects.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";

let warren: Instance;
let mastodon: Peer;
let gts: Peer;
let mallory: PeerActor;
let gina: PeerActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;
const inbox = () => `http://${warren.domain}/inbox`;

async function follow(peer: Peer, actor: PeerActor): Promise<void> {
  const q = encodeURIComponent(`@${actor.username}@${peer.domain}`);
  const [account] = (await json(warren, `/api/v2/search?q=${q}&resolve=true&type=accounts`, alice.token)).accounts;
  await json(warren, `/api/v1/accounts/${account.id}/follow`, alice.token, { method: "POST" });
  await eventually(async () => (await json(warren, `/api/v1/accounts/relationships?id[]=${account.id}`, alice.token))[0].following);
}

/** The API's Status of `uri` once alice's home timeline shows it. */
const inHome = (uri: string) => eventually(async () => (await json(warren, "/api/v1/timelines/home", alice.token)).find((s: any) => s.uri === uri));

async function post(peer: Peer, actor: PeerActor, body: Record<string, unknown>): Promise<void> {
  expect((await peer.send(actor, inbox(), body)).status).toBe(202);
}

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  mastodon = startPeer({ flavour: "mastodon" });
  gts = startPeer({ flavour: "gotosocial", secure: true });
  mallory = mastodon.actor("mallory", { name: "Mallory :blobcat:" });
  mallory.document = { ...mallory.document, summary: "<p>I like :verified: things</p>", tag: [emojiTag(mastodon, "blobcat"), emojiTag(mastodon, "verified"), emojiTag(mastodon, "unused")] };
  gina = gts.actor("gina");
  await follow(mastodon, mallory);
  await follow(gts, gina);
});
afterAll(async () => {
  mastodon.stop();
  gts.stop();
  await stopInstance(warren);
});

test("custom emoji of a Note and of an actor's name and bio become their emojis", async () => {
  const object = note(mastodon, mallory, { content: "<p>hi :blobcat: :nosuch:</p>", tag: [emojiTag(mastodon, "blobcat"), emojiTag(mastodon, "unused")] });
  await post(mastodon, mallory, activity(mastodon, mallory, "Create", object));
  const status = await inHome(object.id);
  expect(status.emojis).toEqual([
    { shortcode: "blobcat", url: `${mastodon.base}/files/emoji/blobcat.png`, static_url: `${mastodon.base}/files/emoji/blobcat.png`, visible_in_picker: false },
  ]);
  expect(status.account.emojis.map((e: any) => e.shortcode).sort()).toEqual(["blobcat", "verified"]);
  expect(status.account.emojis.every((e: any) => e.visible_in_picker === false)).toBe(true);
});

test("an EmojiReact (Pleroma) and Misskey's Like with a reaction count as favourites of a local status", async () => {
  const local = await json(warren, "/api/v1/statuses", alice.token, { method: "POST", body: JSON.stringify({ status: "react to me" }), headers: { "content-type": "application/json" } });
  const react = activity(mastodon, mallory, "EmojiReact", local.uri, { content: "🔥" });
  await post(mastodon, mallory, react);
  await eventually(async () => (await json(warren, `/api/v1/statuses/${local.id}`, alice.token)).favourites_count === 1);
  const notifications = await json(warren, "/api/v1/notifications?types[]=favourite", alice.token);
  expect(notifications[0].account.acct).toBe(`mallory@${mastodon.domain}`);
  await post(gts, gina, activity(gts, gina, "Like", local.uri, { _misskey_reaction: "👍", content: "👍" }));
  await eventually(async () => (await json(warren, `/api/v1/statuses/${local.id}`, alice.token)).favourites_count === 2);
  await post(mastodon, mallory, activity(mastodon, mallory, "Undo", react));
  await eventually(async () => (await json(warren, `/api/v1/statuses/${local.id}`, alice.token)).favourites_count === 1);
});

test("attachments as sent: blurhash, focal point, size, and alt text from name or GoToSocial's summary", async () => {
  const object = note(mastodon, mallory, {
    attachment: [
      { type: "Document", mediaType: "image/png", url: `${mastodon.base}/files/a.png`, name: "a cat", blurhash: "UBL_:rOpGG-oBUNG,qRj2so|=eE1w^n4S5NH", focalPoint: [0.5, -0.25], width: 640, height: 480 },
      { type: "Video", url: [{ type: "Link", mediaType: "video/mp4", href: `${mastodon.base}/files/b.mp4` }], width: 1280, height: 720 },
      { type: "Audio", url: { type: "Link", mediaType: "audio/ogg", href: `${mastodon.base}/files/c.ogg` } },
    ],
  });
  await post(mastodon, mallory, activity(mastodon, mallory, "Create", object));
  const [image, video, audio] = (await inHome(object.id)).media_attachments;
  expect(image).toMatchObject({ type: "image", remote_url: `${mastodon.base}/files/a.png`, description: "a cat", blurhash: "UBL_:rOpGG-oBUNG,qRj2so|=eE1w^n4S5NH" });
  expect(image.meta).toMatchObject({ focus: { x: 0.5, y: -0.25 }, original: { width: 640, height: 480 } });
  expect(video).toMatchObject({ type: "video", remote_url: `${mastodon.base}/files/b.mp4`, meta: { original: { width: 1280, height: 720 } } });
  expect(audio).toMatchObject({ type: "audio", remote_url: `${mastodon.base}/files/c.ogg` });

  const fromGts = note(gts, gina, { attachment: [{ type: "Image", mediaType: "image/jpeg", url: `${gts.base}/files/d.jpg`, summary: "alt as GoToSocial sends it", name: "" }] });
  await post(gts, gina, activity(gts, gina, "Create", fromGts));
  expect((await inHome(fromGts.id)).media_attachments[0]).toMatchObject({ type: "image", description: "alt as GoToSocial sends it" });
});

test("an Update(Note) changes text, hashtags, mentions, attachments, sensitivity, language and emoji, with history", async () => {
  const object = note(mastodon, mallory, { content: "<p>first</p>", tag: [{ type: "Hashtag", name: "#old", href: `${mastodon.base}/tags/old` }] });
  await post(mastodon, mallory, activity(mastodon, mallory, "Create", object));
  const before = await inHome(object.id);
  expect(before.tags.map((t: any) => t.name)).toEqual(["old"]);
  const aliceUri = `http://${warren.domain}/users/alice`;
  const edited = {
    ...object,
    content: "<p>second :blobcat: @alice</p>",
    contentMap: { de: "<p>second :blobcat: @alice</p>" },
    sensitive: true,
    summary: "cw",
    updated: new Date(Date.now() + 1000).toISOString(),
    cc: [...object.cc, aliceUri],
    tag: [{ type: "Hashtag", name: "#new", href: `${mastodon.base}/tags/new` }, { type: "Mention", href: aliceUri, name: "@alice" }, emojiTag(mastodon, "blobcat")],
    attachment: [{ type: "Document", mediaType: "image/png", url: `${mastodon.base}/files/e.png`, name: "new picture" }],
  };
  await post(mastodon, mallory, activity(mastodon, mallory, "Update", edited));
  const after = await eventually(async () => {
    const status = await json(warren, `/api/v1/statuses/${before.id}`, alice.token);
    return status.edited_at ? status : null;
  });
  expect(after).toMatchObject({ content: "<p>second :blobcat: @alice</p>", sensitive: true, spoiler_text: "cw", language: "de" });
  expect(after.tags.map((t: any) => t.name)).toEqual(["new"]);
  expect(after.mentions.map((m: any) => m.acct)).toEqual(["alice"]);
  expect(after.emojis.map((e: any) => e.shortcode)).toEqual(["blobcat"]);
  expect(after.media_attachments).toHaveLength(1);
  expect(after.media_attachments[0]).toMatchObject({ remote_url: `${mastodon.base}/files/e.png`, description: "new picture" });
  const history = await json(warren, `/api/v1/statuses/${before.id}/history`, alice.token);
  expect(history.map((v: any) => v.content)).toEqual(["<p>first</p>", "<p>second :blobcat: @alice</p>"]);
  const mentions = await json(warren, "/api/v1/notifications?types[]=mention", alice.token);
  expect(mentions.some((n: any) => n.status.id === before.id)).toBe(true);
});

test("a deleted status leaves a tombstone: a replayed Create, or one after an early Delete, stores nothing", async () => {
  const object = note(mastodon, mallory, { content: "<p>soon gone</p>" });
  const create = activity(mastodon, mallory, "Create", object);
  await post(mastodon, mallory, create);
  const stored = await inHome(object.id);
  await post(mastodon, mallory, activity(mastodon, mallory, "Delete", { id: object.id, type: "Tombstone" }));
  await eventually(async () => (await warren.t.request(`/api/v1/statuses/${stored.id}`, { token: alice.token })).status === 404);
  // The same Create again, as a replay with a fresh activity id (the inbox's idempotency would drop the same id).
  await post(mastodon, mallory, { ...create, id: mastodon.newActivityId(mallory, "create") });

  const early = note(mastodon, mallory, { content: "<p>deleted before it came</p>" });
  await post(mastodon, mallory, activity(mastodon, mallory, "Delete", { id: early.id, type: "Tombstone" }));
  // Handled before the Create arrives (inbox jobs run side by side, so two sent back to back may swap).
  await warren.t.deps.jobs.drain();
  await post(mastodon, mallory, activity(mastodon, mallory, "Create", early));
  // A later post arrives: by then the two before it have been handled, and neither is in the timeline.
  const later = note(mastodon, mallory, { content: "<p>still here</p>" });
  await post(mastodon, mallory, activity(mastodon, mallory, "Create", later));
  await inHome(later.id);
  await warren.t.deps.jobs.drain();
  const home = await json(warren, "/api/v1/timelines/home", alice.token);
  expect(home.some((s: any) => s.uri === object.id || s.uri === early.id)).toBe(false);
  const search = await json(warren, `/api/v2/search?q=${encodeURIComponent(early.id)}&resolve=true&type=statuses`, alice.token);
  expect(search.statuses).toEqual([]);
});

test("Accept: application/json on actor and status URLs answers ActivityPub JSON, as Mastodon does", async () => {
  const local = await json(warren, "/api/v1/statuses", alice.token, { method: "POST", body: JSON.stringify({ status: "as json" }), headers: { "content-type": "application/json" } });
  for (const [url, type] of [[`/users/alice`, "Person"], [`/@alice`, "Person"], [new URL(local.uri).pathname, "Note"], [`/@alice/${local.id}`, "Note"]] as const) {
    const res = await warren.t.request(url, { headers: { accept: "application/json" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("json");
    expect(((await res.json()) as { type: string }).type).toBe(type);
  }
  // A browser listing JSON after HTML still gets the page.
  const page = await warren.t.request(`/@alice`, { headers: { accept: "text/html,application/json;q=0.9" } });
  expect(page.headers.get("content-type")).toContain("text/html");
});

test("bounds and sanitising: at most 50 emoji, 16 attachments and 20 poll options; names as plain text; no odd URLs", async () => {
  const shortcodes = Array.from({ length: 60 }, (_, i) => `e${i}`);
  const hostile = { ...emojiTag(mastodon, "evil"), icon: { type: "Image", url: "javascript:alert(1)" } };
  const object = note(mastodon, mallory, {
    type: "Question",
    content: `<p>${shortcodes.map((s) => `:${s}:`).join(" ")} :evil:</p>`,
    tag: [...shortcodes.map((s) => emojiTag(mastodon, s)), hostile],
    oneOf: Array.from({ length: 30 }, (_, i) => ({ type: "Note", name: `<b>option</b> ${i}`, replies: { type: "Collection", totalItems: 1 } })),
    attachment: Array.from({ length: 20 }, (_, i) => ({ type: "Document", mediaType: "image/png", url: `${mastodon.base}/files/${i}.png`, name: `<script>x</script>alt ${i}` })),
  });
  await post(mastodon, mallory, activity(mastodon, mallory, "Create", object));
  const status = await inHome(object.id);
  expect(status.emojis).toHaveLength(50);
  expect(status.emojis.some((e: any) => e.shortcode === "evil")).toBe(false);
  expect(status.media_attachments).toHaveLength(16);
  expect(status.media_attachments[0].description).not.toContain("<");
  expect(status.poll.options).toHaveLength(20);
  expect(status.poll.options[0].title).toBe("option 0");
});
