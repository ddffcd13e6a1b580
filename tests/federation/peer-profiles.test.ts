// Profiles and custom emojis as the test peer (tests/peer/, not Fedify) receives them (issue 25 items 5, 6):
// mallory (Mastodon peer) follows alice. alice's bio links its hashtags and mentions, and the actor's `tag`
// lists them (Mention, Hashtag as written); field values go out as Mastodon renders them (links with
// rel="me", hashtags); a local custom emoji named in the profile or a status is an `Emoji` tag, and its id
// answers an ActivityPub GET.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { eventually } from "../helpers/eventually.ts";
import { runWarren } from "../helpers/cli.ts";
import { startPeer, type Peer, type PeerActor, type PeerRequest } from "../peer/server.ts";
import { problemsIn } from "../peer/problems.ts";
import { list } from "../peer/checks/common.ts";
import { json, startInstance, stopInstance, type Instance } from "../helpers/federation.ts";
import { signedInUser } from "../helpers/clients.ts";

let warren: Instance;
let mastodon: Peer;
let mallory: PeerActor;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let files: string;
const base = () => `http://${warren.domain}`;
const aliceUri = () => `${base()}/users/alice`;
const AP = "application/activity+json";

const send = (path: string, method: string, body: unknown) =>
  json(warren, path, alice.token, { method, body: JSON.stringify(body), headers: { "content-type": "application/json" } });

/** The delivery of `type` whose object satisfies `match` (waits for it); checked: verified, nothing unexpected. */
async function delivered(type: string, match: (object: any) => boolean): Promise<PeerRequest> {
  const request = await eventually(() => mastodon.deliveries(type).find((r) => match(r.activity?.object)), { what: type });
  expect(request.verification).toMatchObject({ ok: true, owner: aliceUri() });
  expect(problemsIn([request])).toEqual([]);
  return request;
}

beforeAll(async () => {
  warren = await startInstance();
  alice = await signedInUser(warren.t, "alice");
  await signedInUser(warren.t, "bob");
  files = mkdtempSync(join(tmpdir(), "warren-peer-emoji-"));
  const png = join(files, "blobcat.png");
  writeFileSync(png, await sharp({ create: { width: 32, height: 32, channels: 4, background: "#e0a030" } }).png().toBuffer());
  expect((await runWarren(warren.t.dir, "emoji", "import", png, "--shortcode=blobcat")).code).toBe(0);
  mastodon = startPeer({ flavour: "mastodon" });
  mallory = mastodon.actor("mallory");
  const follow = { id: mastodon.newActivityId(mallory, "follow"), type: "Follow", actor: mallory.id, object: aliceUri() };
  expect((await mastodon.send(mallory, `${aliceUri()}/inbox`, follow)).status).toBe(202);
  await eventually(() => mastodon.deliveries("Accept")[0]);
  await json(warren, `/api/v2/search?q=${encodeURIComponent(`@mallory@${mastodon.domain}`)}&resolve=true&type=accounts`, alice.token);
});
afterAll(async () => {
  mastodon.stop();
  await stopInstance(warren);
  rmSync(files, { recursive: true, force: true });
});

const emojiTag = () => ({
  type: "Emoji",
  id: `${base()}/emojis/blobcat`,
  name: ":blobcat:",
  icon: { type: "Image", mediaType: "image/png", url: expect.stringMatching(new RegExp(`^${base()}/.+\\.png$`)) },
  updated: expect.any(String),
});

test("the profile's bio, fields and emojis go out as Mastodon renders them, with the actor's tag", async () => {
  const account = await send("/api/v1/accounts/update_credentials", "PATCH", {
    display_name: "Alice :blobcat:",
    note: `Hi @bob and @mallory@${mastodon.domain}! I post about #WarrenDev`,
    fields_attributes: { 0: { name: "Site", value: "https://alice.example/about" }, 1: { name: "Likes", value: "#Fediverse" } },
  });
  // The API shows the same bio HTML.
  expect(account.note).toContain(`<a href="${base()}/tags/warrendev" class="mention hashtag" rel="tag">#<span>WarrenDev</span></a>`);
  const update = await delivered("Update", (object) => object?.id === aliceUri() && object?.name === "Alice :blobcat:");
  const actor = update.activity!.object;
  expect(actor.summary).toContain(`class="u-url mention">@<span>mallory</span></a>`);
  expect(actor.summary).toContain(`class="mention hashtag" rel="tag">#<span>WarrenDev</span></a>`);
  const tags = list(actor.tag);
  expect(tags).toContainEqual({ type: "Mention", href: `${base()}/users/bob`, name: `@bob@${warren.domain}` });
  expect(tags).toContainEqual({ type: "Mention", href: mallory.id, name: `@mallory@${mastodon.domain}` });
  expect(tags).toContainEqual({ type: "Hashtag", href: `${base()}/tags/warrendev`, name: "#WarrenDev" });
  expect(tags).toContainEqual(emojiTag());
  const [site, likes] = list(actor.attachment);
  expect(site).toMatchObject({ type: "PropertyValue", name: "Site" });
  expect(site.value).toContain(`<a href="https://alice.example/about" target="_blank" rel="nofollow noopener me" translate="no">`);
  expect(likes.value).toBe(`<a href="${base()}/tags/fediverse" class="mention hashtag" rel="tag">#<span>Fediverse</span></a>`);
  // The actor fetched is the one delivered.
  const fetched: any = await (await mastodon.get(mallory, aliceUri())).json();
  expect(list(fetched.tag)).toEqual(tags);
});

test("a status naming a custom emoji carries its Emoji tag, and hashtags keep their case", async () => {
  const status = await send("/api/v1/statuses", "POST", { status: "Hello :blobcat: #CamelCase :nosuchemoji:", visibility: "public" });
  const create = await delivered("Create", (object) => object?.id === status.uri);
  expect(list(create.activity!.object.tag)).toEqual([
    { type: "Hashtag", href: `${base()}/tags/camelcase`, name: "#CamelCase" },
    emojiTag(),
  ]);
});

test("an emoji's id answers an ActivityPub GET; an unknown shortcode is 404", async () => {
  const response = await fetch(`${base()}/emojis/blobcat`, { headers: { accept: AP } });
  expect(response.status).toBe(200);
  expect(await response.json()).toMatchObject(emojiTag());
  expect((await fetch(`${base()}/emojis/nosuchemoji`, { headers: { accept: AP } })).status).toBe(404);
});
