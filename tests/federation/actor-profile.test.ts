// src/federation/actor-profile.ts: what a remote actor says of itself (Mastodon, GoToSocial, Misskey and
// Pleroma shapes), as the account record keeps it; hostile values cleaned or dropped.
import { expect, test } from "bun:test";
import { Application, Group, Person, Service, type Actor } from "@fedify/vocab";
import { actorProfile, ownPublicKeyPem } from "../../src/federation/actor-profile.ts";
import { GTS_CONTEXT, MASTODON_CONTEXT, MISSKEY_CONTEXT, parse, PLEROMA_CONTEXT } from "./fixtures/objects.ts";

const ID = "https://remote.example/users/ada";
const actorJson = (context: unknown, type: string, extra: object = {}) => ({
  "@context": context,
  id: ID,
  type,
  preferredUsername: "ada",
  inbox: `${ID}/inbox`,
  outbox: `${ID}/outbox`,
  followers: `${ID}/followers`,
  following: `${ID}/following`,
  ...extra,
});
const profile = async (type: typeof Person | typeof Service | typeof Group | typeof Application, json: object) =>
  actorProfile((await parse<Actor>(type, json)) as Actor, new URL(ID), "ada", "remote.example");

test("Mastodon: a Person with fields, images, flags, endpoints and aliases", async () => {
  const got = await profile(Person, actorJson(MASTODON_CONTEXT, "Person", {
    name: "Ada :wave:",
    summary: "<p>Hello <a href=\"https://remote.example/@ada\">me</a></p>",
    url: "https://remote.example/@ada",
    manuallyApprovesFollowers: true,
    discoverable: true,
    indexable: false,
    icon: { type: "Image", mediaType: "image/png", url: "https://remote.example/avatar.png" },
    image: { type: "Image", mediaType: "image/png", url: "https://remote.example/header.png" },
    endpoints: { sharedInbox: "https://remote.example/inbox" },
    alsoKnownAs: ["https://old.example/users/ada"],
    attachment: [{ type: "PropertyValue", name: "Site", value: "<a href=\"https://ada.example\">ada.example</a>" }],
    tag: [{ type: "Emoji", id: "https://remote.example/emojis/1", name: ":wave:", icon: { type: "Image", url: "https://remote.example/wave.png" } }],
  }));
  expect(got).toMatchObject({
    username: "ada",
    domain: "remote.example",
    displayName: "Ada :wave:",
    locked: true,
    bot: false,
    group: false,
    discoverable: true,
    indexable: false,
    avatarUrl: "https://remote.example/avatar.png",
    headerUrl: "https://remote.example/header.png",
    uri: ID,
    url: "https://remote.example/@ada",
    inbox: `${ID}/inbox`,
    sharedInbox: "https://remote.example/inbox",
    followersUrl: `${ID}/followers`,
    alsoKnownAs: ["https://old.example/users/ada"],
    emojis: [{ shortcode: "wave", url: "https://remote.example/wave.png", staticUrl: "https://remote.example/wave.png" }],
  });
  expect(got.note).toContain("<a href=\"https://remote.example/@ada\"");
  expect(got.fields).toEqual([{ name: "Site", value: expect.stringContaining("https://ada.example"), verifiedAt: null }]);
});

test("a Service or Application is a bot, a Group a group", async () => {
  expect(await profile(Service, actorJson(GTS_CONTEXT, "Service"))).toMatchObject({ bot: true, group: false });
  expect(await profile(Application, actorJson(MASTODON_CONTEXT, "Application"))).toMatchObject({ bot: true });
  expect(await profile(Group, actorJson(MISSKEY_CONTEXT, "Group"))).toMatchObject({ bot: false, group: true });
});

test("GoToSocial / Pleroma: no name, no url, no flags: defaults, the url is the id", async () => {
  for (const context of [GTS_CONTEXT, PLEROMA_CONTEXT]) {
    expect(await profile(Person, actorJson(context, "Person"))).toMatchObject({
      displayName: "", note: "", fields: [], emojis: [], locked: false, discoverable: false, indexable: false,
      avatarUrl: null, headerUrl: null, url: ID, sharedInbox: null, alsoKnownAs: [],
    });
  }
});

test("hostile: scripts and markup out of names, bios and fields; sizes bounded", async () => {
  const got = await profile(Person, actorJson(MASTODON_CONTEXT, "Person", {
    name: `<img src=x onerror=alert(1)>${"n".repeat(1_000)}`,
    summary: `<script>alert(1)</script><p onclick="x()">bio</p>${"b".repeat(60_000)}`,
    attachment: Array.from({ length: 30 }, (_, i) => ({ type: "PropertyValue", name: `<b>f${i}</b>`, value: "<script>x</script>v" })),
  }));
  expect(got.displayName.length).toBe(255);
  expect(got.displayName).not.toContain("<");
  expect(got.note).not.toContain("<script");
  expect(got.note).not.toContain("onclick");
  expect(got.note.length).toBeLessThanOrEqual(50_000);
  expect(got.fields).toHaveLength(16);
  expect(got.fields[0]).toEqual({ name: "f0", value: expect.not.stringContaining("<script"), verifiedAt: null });
});

test("hostile: javascript: and data: URLs for the profile and images are dropped", async () => {
  const got = await profile(Person, actorJson(MASTODON_CONTEXT, "Person", {
    url: "javascript:alert(1)",
    icon: { type: "Image", url: "data:image/png;base64,AAAA" },
    image: { type: "Image", url: "javascript:alert(2)" },
    alsoKnownAs: ["ftp://old.example/ada", "https://old.example/ada", ...Array.from({ length: 40 }, (_, i) => `https://m${i}.example/ada`)],
  }));
  expect(got).toMatchObject({ url: ID, avatarUrl: null, headerUrl: null });
  expect(got.alsoKnownAs).toHaveLength(16);
  expect(got.alsoKnownAs[0]).toBe("https://old.example/ada");
});

test("hostile: fields missing a name or value are skipped", async () => {
  const got = await profile(Person, actorJson(MASTODON_CONTEXT, "Person", {
    attachment: [{ type: "PropertyValue", name: "only a name" }, { type: "PropertyValue", value: "only a value" }, { type: "PropertyValue", name: "ok", value: "yes" }],
  }));
  expect(got.fields.map((field) => field.name)).toEqual(["ok"]);
});

test("the public key is kept only when the actor owns it", async () => {
  const pair = await crypto.subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["sign", "verify"]);
  const spki = Buffer.from(await crypto.subtle.exportKey("spki", pair.publicKey)).toString("base64");
  const pem = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)!.join("\n")}\n-----END PUBLIC KEY-----\n`;
  const withKey = (owner: string) => parse(Person, actorJson(MASTODON_CONTEXT, "Person", { publicKey: { id: `${ID}#main-key`, owner, publicKeyPem: pem } }));
  expect(await ownPublicKeyPem((await withKey(ID)) as Actor, new URL(ID))).toContain("BEGIN PUBLIC KEY");
  expect(await ownPublicKeyPem((await withKey("https://evil.example/users/x")) as Actor, new URL(ID))).toBeNull();
  expect(await ownPublicKeyPem((await parse(Person, actorJson(MASTODON_CONTEXT, "Person"))) as Actor, new URL(ID))).toBeNull();
});
