// Remote media kept here, against the non-Fedify test peer (Mastodon's shapes): a followed account's avatar,
// header and attachments are fetched in the background, stored with a preview and served from Warren's
// origin, `remote_url` keeping the original; until fetched the API gives the remote URL, and a read fetches
// again what is missing. `warren media remove --days=0` drops the copies, `warren media usage` counts them,
// and a domain block with reject_media stops every fetch (attachments as links, avatars the default).
import { afterAll, beforeAll, expect, test } from "bun:test";
import sharp from "sharp";
import { startPeer, type Peer, type PeerActor } from "../peer/server.ts";
import { PUBLIC } from "../peer/checks/common.ts";
import { json, relationship, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";
import { runWarren } from "../helpers/cli.ts";
import { staffUser } from "../http/reports-helpers.ts";

let warren: Instance;
let peer: Peer;
let mallory: PeerActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let malloryId: string;
let counter = 0;

const png = (width: number, height: number, background: string) => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
const local = (url: string | null) => !!url && url.startsWith(`http://${warren.domain}/system/`);

/** `author` (on `from`) posts a Note with image attachments at `fileUrls`; its id. */
async function sendWithImages(from: Peer, author: PeerActor, fileUrls: string[]): Promise<string> {
  const id = `${author.id}/statuses/${++counter}`;
  const object = {
    id, type: "Note", attributedTo: author.id, content: `<p>picture ${counter}</p>`, published: new Date().toISOString(), to: [PUBLIC], cc: [`${author.id}/followers`],
    attachment: fileUrls.map((url) => ({ type: "Document", mediaType: "image/png", url, name: "a red square" })),
  };
  const create = { id: `${id}/activity`, type: "Create", actor: author.id, to: object.to, cc: object.cc, object };
  expect((await from.send(author, `http://${warren.domain}/inbox`, create)).status).toBe(202);
  return id;
}

/** Mallory posts a Note with one image attachment at `fileUrl`; the status as alice reads it. */
async function postWithImage(fileUrl: string): Promise<any> {
  const id = await sendWithImages(peer, mallory, [fileUrl]);
  await warren.t.deps.jobs.drain();
  return (await json(warren, "/api/v1/timelines/home", alice.token)).find((s: any) => s.uri === id);
}

async function follow(from: Peer, username: string): Promise<string> {
  const found = await json(warren, `/api/v2/search?q=${encodeURIComponent(`@${username}@${from.domain}`)}&resolve=true&type=accounts`, alice.token);
  const id = found.accounts[0].id;
  await json(warren, `/api/v1/accounts/${id}/follow`, alice.token, { method: "POST" });
  await eventually(async () => (await relationship(warren, alice.token, id)).following);
  return id;
}

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  peer = startPeer({ flavour: "mastodon" });
  mallory = peer.actor("mallory");
  mallory.document = {
    ...mallory.document,
    icon: { type: "Image", mediaType: "image/png", url: `${peer.base}/files/avatar.png` },
    image: { type: "Image", mediaType: "image/png", url: `${peer.base}/files/header.png` },
  };
  peer.serveFile("/files/avatar.png", await png(120, 120, "#00f"), "image/png");
  peer.serveFile("/files/header.png", await png(300, 100, "#0f0"), "image/png");
  malloryId = await follow(peer, "mallory");
});
afterAll(async () => {
  peer.stop();
  await stopInstance(warren);
});

test("an avatar and a header are fetched, kept and served from here", async () => {
  await warren.t.deps.jobs.drain();
  const account = await json(warren, `/api/v1/accounts/${malloryId}`, alice.token);
  expect(local(account.avatar)).toBe(true);
  expect(local(account.header)).toBe(true);
  const served = await warren.t.request(new URL(account.avatar).pathname);
  expect(served.status).toBe(200);
  const meta = await sharp(new Uint8Array(await served.arrayBuffer())).metadata();
  expect([meta.width, meta.height]).toEqual([120, 120]);
});

test("an attachment is the remote URL until fetched, then a copy here with a preview; a read fetches what is missing", async () => {
  const fileUrl = `${peer.base}/files/late.png`;
  const before = await postWithImage(fileUrl);
  // The file was not there yet (404): the API gives the remote URL.
  expect(before.media_attachments[0]).toMatchObject({ url: fileUrl, remote_url: fileUrl, description: "a red square" });
  peer.serveFile("/files/late.png", await png(200, 100, "#f00"), "image/png");
  await json(warren, `/api/v1/statuses/${before.id}`, alice.token);
  const media = await eventually(async () => {
    const [m] = (await json(warren, `/api/v1/statuses/${before.id}`, alice.token)).media_attachments;
    return local(m.url) && m;
  });
  expect(media).toMatchObject({ type: "image", remote_url: fileUrl });
  expect(local(media.preview_url)).toBe(true);
  expect(media.meta.original).toMatchObject({ width: 200, height: 100 });
  expect(media.blurhash).toBeString();
  const served = await warren.t.request(new URL(media.url).pathname);
  expect(served.status).toBe(200);
  expect(served.headers.get("content-type")).toStartWith("image/");
});

test("warren media usage counts the copies and warren media remove --days=0 drops them", async () => {
  const status = await postWithImage(`${peer.base}/files/avatar.png`);
  expect(local(status.media_attachments[0].url)).toBe(true);
  const usage = await runWarren(warren.t.dir, "media", "usage");
  expect(usage.code).toBe(0);
  expect(usage.stdout).toMatch(/remote attachments: [\d.]+ MB in [1-9]\d* files/);
  expect(usage.stdout).toMatch(/remote avatars and headers: [\d.]+ MB in 2 files/);
  const removed = await runWarren(warren.t.dir, "media", "remove", "--days=0");
  expect(removed.code).toBe(0);
  expect(removed.stdout).toMatch(/copies of [1-9]\d* remote media attachments and of 1 remote accounts/);
  const account = await json(warren, `/api/v1/accounts/${malloryId}`, alice.token);
  expect(account.avatar).toBe(`${peer.base}/files/avatar.png`);
  const gone = await warren.t.request(new URL(status.media_attachments[0].url).pathname);
  expect(gone.status).toBe(404);
  // Read again: fetched again.
  const [media] = (await json(warren, `/api/v1/statuses/${status.id}`, alice.token)).media_attachments;
  expect(media.url).toBe(`${peer.base}/files/avatar.png`);
  await eventually(async () => local((await json(warren, `/api/v1/statuses/${status.id}`, alice.token)).media_attachments[0].url));
});

test("a slow server's files do not hold another server's: two fetches per host at a time", async () => {
  const slow = startPeer({ flavour: "mastodon" });
  const fast = startPeer({ flavour: "gotosocial" });
  try {
    const sloth = slow.actor("sloth");
    const nina = fast.actor("nina");
    await follow(slow, "sloth");
    await follow(fast, "nina");
    await warren.t.deps.jobs.drain();
    const image = await png(20, 20, "#888");
    // 40 attachments that each take 4 s: more than the lane's 32 places on two workers.
    const slowUrls = Array.from({ length: 40 }, (_, i) => `${slow.base}/files/slow-${i}.png`);
    for (const url of slowUrls) slow.serveFile(new URL(url).pathname, image, "image/png", 4_000);
    for (let i = 0; i < 10; i++) await sendWithImages(slow, sloth, slowUrls.slice(i * 4, i * 4 + 4));
    await eventually(() => slow.requests.filter((r) => r.path.startsWith("/files/slow-")).length > 0);
    fast.serveFile("/files/quick.png", image, "image/png");
    const started = Date.now();
    const id = await sendWithImages(fast, nina, [`${fast.base}/files/quick.png`]);
    await eventually(async () => {
      const status = (await json(warren, "/api/v1/timelines/home", alice.token)).find((s: any) => s.uri === id);
      return status && local(status.media_attachments[0].url);
    });
    const waited = Date.now() - started;
    // The slow server had at most two fetches running at once, and the quick file did not wait for them.
    expect(slow.requests.filter((r) => r.path.startsWith("/files/slow-")).length).toBeLessThanOrEqual(4);
    expect(waited).toBeLessThan(4_000);
    console.log(`quick file kept ${waited} ms after its Create, beside 40 slow ones`);
  } finally {
    slow.stop();
    fast.stop();
  }
}, 120_000);

test("a domain block with reject_media: nothing fetched, attachments shown as links, avatars the default", async () => {
  const admin = await staffUser(warren.t, "Admin");
  const block = await warren.t.request("/api/v1/admin/domain_blocks", { method: "POST", token: admin.token, json: { domain: "127.0.0.1", severity: "noop", reject_media: true } });
  expect(block.status).toBe(200);
  peer.serveFile("/files/rejected.png", await png(10, 10, "#000"), "image/png");
  const status = await postWithImage(`${peer.base}/files/rejected.png`);
  expect(status.media_attachments[0]).toMatchObject({ type: "unknown", url: `${peer.base}/files/rejected.png`, preview_url: null });
  expect(peer.requests.some((r) => r.path === "/files/rejected.png")).toBe(false);
  const other = peer.actor("oscar");
  other.document = { ...other.document, icon: { type: "Image", mediaType: "image/png", url: `${peer.base}/files/oscar.png` } };
  const found = await json(warren, `/api/v2/search?q=${encodeURIComponent(`@oscar@${peer.domain}`)}&resolve=true&type=accounts`, alice.token);
  expect(found.accounts[0].avatar).toEndWith("/avatars/original/missing.png");
  await warren.t.deps.jobs.drain();
  expect(peer.requests.some((r) => r.path === "/files/oscar.png")).toBe(false);
});
