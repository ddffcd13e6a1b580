// Remote custom emoji images and attachments added by an Update, kept here (issue 26, items 1 and 4), against
// the non-Fedify test peer: an emoji's image is fetched once by URL however many statuses use it, kept with a
// PNG of its first frame as `static_url` and served from Warren's origin; until then the API gives the remote
// URL; a remote account's emojis alike. A domain whose block rejects media is never fetched from. An Update adding an attachment fetches it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import sharp from "sharp";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { activity, emojiTag, note } from "../peer/objects.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";
import { runWarren } from "../helpers/cli.ts";
import { staffUser } from "../http/reports-helpers.ts";

let warren: Instance;
let peer: Peer;
let mallory: PeerActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;

const local = (url: string | null) => !!url && url.startsWith(`http://${warren.domain}/system/`);
const emojiUrl = (shortcode: string) => `${peer.base}/files/emoji/${shortcode}.png`;
const fetchesOf = (path: string) => peer.requests.filter((r) => r.method === "GET" && r.path === path).length;
const inHome = (uri: string) => eventually(async () => (await json(warren, "/api/v1/timelines/home", alice.token)).find((s: any) => s.uri === uri));

/** Mallory posts a Note using `:shortcode:`; its id. */
async function postWithEmoji(shortcode: string): Promise<string> {
  const object = note(peer, mallory, { content: `<p>look :${shortcode}:</p>`, tag: [emojiTag(peer, shortcode)] });
  expect((await peer.send(mallory, `http://${warren.domain}/inbox`, activity(peer, mallory, "Create", object))).status).toBe(202);
  return object.id;
}

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  peer = startPeer({ flavour: "mastodon" });
  mallory = peer.actor("mallory");
  const q = encodeURIComponent(`@mallory@${peer.domain}`);
  const [account] = (await json(warren, `/api/v2/search?q=${q}&resolve=true&type=accounts`, alice.token)).accounts;
  await json(warren, `/api/v1/accounts/${account.id}/follow`, alice.token, { method: "POST" });
  await eventually(async () => (await json(warren, `/api/v1/accounts/relationships?id[]=${account.id}`, alice.token))[0].following);
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
});

test("an emoji is its remote URL until fetched, then a copy here with a PNG first frame as static_url", async () => {
  // An animated-capable GIF served under the tag's .png URL (servers do that): kept as sent, its still a PNG.
  const gif = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#fc0" } }).gif().toBuffer();
  peer.serveFile("/files/emoji/blobcat.png", gif, "image/gif", 2_000);
  const id = await postWithEmoji("blobcat");
  const before = await inHome(id);
  expect(before.emojis).toEqual([{ shortcode: "blobcat", url: emojiUrl("blobcat"), static_url: emojiUrl("blobcat"), visible_in_picker: false }]);
  const [emoji] = await eventually(async () => {
    const { emojis } = await json(warren, `/api/v1/statuses/${before.id}`, alice.token);
    return local(emojis[0].url) && emojis;
  });
  expect(emoji).toMatchObject({ shortcode: "blobcat", visible_in_picker: false });
  expect(emoji.url).toEndWith(".gif");
  expect(emoji.static_url).toEndWith(".png");
  expect(local(emoji.static_url)).toBe(true);
  const still = await warren.t.request(new URL(emoji.static_url).pathname);
  expect(still.status).toBe(200);
  expect((await sharp(new Uint8Array(await still.arrayBuffer())).metadata()).format).toBe("png");
});

test("the same emoji in two statuses is fetched once; media remove drops the copy", async () => {
  peer.serveFile("/files/emoji/party.png", await sharp({ create: { width: 16, height: 16, channels: 4, background: "#f0f8" } }).png().toBuffer(), "image/png");
  const first = await postWithEmoji("party");
  const second = await postWithEmoji("party");
  await warren.t.deps.jobs.drain();
  for (const uri of [first, second]) {
    const status = await inHome(uri);
    expect(local(status.emojis[0].url)).toBe(true);
  }
  expect(fetchesOf("/files/emoji/party.png")).toBe(1);
  const usage = await runWarren(warren.t.dir, "media", "usage");
  expect(usage.stdout).toMatch(/remote custom emojis: [\d.]+ MB in [1-9]\d* files/);
  const removed = await runWarren(warren.t.dir, "media", "remove", "--days=0");
  expect(removed.code).toBe(0);
  expect(removed.stdout).toMatch(/copies of [1-9]\d* remote custom emojis/);
  expect((await inHome(first)).emojis[0].url).toBe(emojiUrl("party"));
});

test("an Update adding an attachment gets it fetched and kept here", async () => {
  peer.serveFile("/files/added.png", await sharp({ create: { width: 40, height: 20, channels: 3, background: "#0af" } }).png().toBuffer(), "image/png");
  const object = note(peer, mallory, { content: "<p>no picture yet</p>" });
  expect((await peer.send(mallory, `http://${warren.domain}/inbox`, activity(peer, mallory, "Create", object))).status).toBe(202);
  const before = await inHome(object.id);
  expect(before.media_attachments).toEqual([]);
  const edited = {
    ...object,
    content: "<p>now with a picture</p>",
    updated: new Date(Date.now() + 1000).toISOString(),
    attachment: [{ type: "Document", mediaType: "image/png", url: `${peer.base}/files/added.png`, name: "added" }],
  };
  expect((await peer.send(mallory, `http://${warren.domain}/inbox`, activity(peer, mallory, "Update", edited))).status).toBe(202);
  // Read from the home timeline only (a status's own page would queue the fetch itself: remote-media.ts refetchOnRead).
  const media = await eventually(async () => {
    await warren.t.deps.jobs.drain();
    const [m] = (await inHome(object.id)).media_attachments;
    return m && local(m.url) && m;
  });
  expect(media).toMatchObject({ type: "image", remote_url: `${peer.base}/files/added.png`, description: "added" });
  expect(local(media.preview_url)).toBe(true);
});

test("a remote account's emojis name the copy once kept, and the remote URL again once it is removed", async () => {
  peer.serveFile("/files/emoji/wave.png", await sharp({ create: { width: 24, height: 24, channels: 3, background: "#0c0" } }).png().toBuffer(), "image/png");
  const eve = peer.actor("eve", { name: "Eve :wave:" });
  eve.document = { ...eve.document, tag: [emojiTag(peer, "wave")] };
  const q = encodeURIComponent(`@eve@${peer.domain}`);
  const [found] = (await json(warren, `/api/v2/search?q=${q}&resolve=true&type=accounts`, alice.token)).accounts;
  expect(found.emojis).toEqual([{ shortcode: "wave", url: emojiUrl("wave"), static_url: emojiUrl("wave"), visible_in_picker: false }]);
  await warren.t.deps.jobs.drain();
  const [kept] = (await json(warren, `/api/v1/accounts/${found.id}`, alice.token)).emojis;
  expect(local(kept.url) && local(kept.static_url)).toBe(true);
  expect((await warren.t.request(new URL(kept.url).pathname)).status).toBe(200);
  expect(fetchesOf("/files/emoji/wave.png")).toBe(1);
  const removed = await runWarren(warren.t.dir, "media", "remove", "--days=0");
  expect(removed.code).toBe(0);
  const [again] = (await json(warren, `/api/v1/accounts/${found.id}`, alice.token)).emojis;
  expect(again).toMatchObject({ url: emojiUrl("wave"), static_url: emojiUrl("wave") });
});

test("a domain block with reject_media: emojis stay remote, nothing fetched", async () => {
  const admin = await staffUser(warren.t, "Admin");
  const block = await warren.t.request("/api/v1/admin/domain_blocks", { method: "POST", token: admin.token, json: { domain: "127.0.0.1", severity: "noop", reject_media: true } });
  expect(block.status).toBe(200);
  peer.serveFile("/files/emoji/rejected.png", await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } }).png().toBuffer(), "image/png");
  const id = await postWithEmoji("rejected");
  await warren.t.deps.jobs.drain();
  const status = await inHome(id);
  expect(status.emojis[0].url).toBe(emojiUrl("rejected"));
  await warren.t.deps.jobs.drain();
  expect(fetchesOf("/files/emoji/rejected.png")).toBe(0);
});
