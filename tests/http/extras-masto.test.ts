// Conversations, hashtags (follow, feature), endorsements, preferences, the directory, user domain blocks,
// thread mutes, the notification policy and requests, trends, announcements and custom emojis as masto.js (the client library behind Elk and Phanpy) drives them, against the in-process
// app behind a real HTTP listener: its URLs, bodies (JSON and multipart) and paginators.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createRestAPIClient, type mastodon } from "masto";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { newUser, type User } from "./statuses-helpers.ts";
import sharp from "sharp";
import { publishAnnouncement } from "../../src/domain/announcements/announcements.ts";
import { importEmoji } from "../../src/domain/emojis/import.ts";
import { storeTrends } from "../../src/domain/trends/refresh.ts";
import { setAutoApprove } from "../../src/store/trends.ts";

let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
let alice: User;
let bob: User;
let asAlice: mastodon.rest.Client;
let asBob: mastodon.rest.Client;

beforeAll(async () => {
  t = await startTestApp();
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => t.app.handle(request) });
  [alice, bob] = await Promise.all([newUser(t, "alice"), newUser(t, "bob")]);
  const url = `http://127.0.0.1:${server.port}`;
  asAlice = createRestAPIClient({ url, accessToken: alice.token });
  asBob = createRestAPIClient({ url, accessToken: bob.token });
}, 60_000);
afterAll(async () => {
  server.stop(true);
  await t.close();
});

async function all<T>(paginator: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of paginator) out.push(...page);
  return out;
}

describe("masto.js", () => {
  test("conversations: a direct message is one, read, then removed for the viewer only", async () => {
    await asAlice.v1.statuses.create({ status: `@${bob.username} just between us`, visibility: "direct" });
    await t.deps.jobs.drain();
    const [conversation] = await asBob.v1.conversations.list();
    expect(conversation!.unread).toBe(true);
    expect(conversation!.accounts.map((a) => a.id)).toEqual([alice.id]);
    expect(conversation!.lastStatus!.content).toContain("just between us");
    const read = await asBob.v1.conversations.$select(conversation!.id).read();
    expect(read.unread).toBe(false);
    await asBob.v1.conversations.$select(conversation!.id).remove();
    expect(await asBob.v1.conversations.list()).toEqual([]);
    expect((await asAlice.v1.conversations.list()).length).toBe(1);
  });

  test("hashtags: fetch, follow (the home then takes them), followed list, feature and suggestions", async () => {
    const tag = await asBob.v1.tags.$select("gardening").fetch();
    expect(tag).toMatchObject({ name: "gardening", following: false });
    expect((await asBob.v1.tags.$select("gardening").follow()).following).toBe(true);
    expect((await all(asBob.v1.followedTags.list())).map((t) => t.name)).toEqual(["gardening"]);
    const post = await asAlice.v1.statuses.create({ status: "first tomatoes #gardening" });
    await t.deps.jobs.drain();
    expect((await asBob.v1.timelines.home.list()).map((s) => s.id)).toContain(post.id);
    expect((await asBob.v1.tags.$select("gardening").unfollow()).following).toBe(false);

    await asAlice.v1.statuses.create({ status: "more #gardening and #cooking" });
    await t.deps.jobs.drain();
    const featured = await asAlice.v1.featuredTags.create({ name: "gardening" });
    expect(featured.name).toBe("gardening");
    expect((await asAlice.v1.featuredTags.list()).map((f) => f.name)).toEqual(["gardening"]);
    expect((await asBob.v1.accounts.$select(alice.id).featuredTags.list()).map((f) => f.name)).toEqual(["gardening"]);
    expect((await asAlice.v1.featuredTags.suggestions.list()).map((s) => s.name)).toContain("cooking");
    await asAlice.v1.featuredTags.$select(featured.id).remove();
    expect(await asAlice.v1.featuredTags.list()).toEqual([]);
  });

  test("endorsements, preferences and the directory", async () => {
    await asBob.v1.accounts.$select(alice.id).follow();
    expect((await asBob.v1.accounts.$select(alice.id).endorse()).endorsed).toBe(true);
    expect((await all(asBob.v1.endorsements.list())).map((a) => a.id)).toEqual([alice.id]);
    expect((await asAlice.v1.accounts.$select(bob.id).endorsements.list()).map((a) => a.id)).toEqual([alice.id]);
    expect((await asBob.v1.accounts.$select(alice.id).unendorse()).endorsed).toBe(false);

    const preferences = await asAlice.v1.preferences.fetch();
    expect(preferences["posting:default:visibility"]).toBe("public");
    expect(preferences["reading:expand:spoilers"]).toBe(false);

    await asAlice.v1.accounts.updateCredentials({ discoverable: true });
    const directory = await asBob.v1.directory.list({ local: true, order: "new" });
    expect(directory.map((a) => a.id)).toContain(alice.id);
  });

  test("user domain blocks and thread mutes", async () => {
    await asAlice.v1.domainBlocks.create({ domain: "spam.example" });
    expect(await all(asAlice.v1.domainBlocks.list())).toEqual(["spam.example"]);
    await asAlice.v1.domainBlocks.remove({ domain: "spam.example" });
    expect(await all(asAlice.v1.domainBlocks.list())).toEqual([]);

    const thread = await asAlice.v1.statuses.create({ status: "a busy thread" });
    expect((await asAlice.v1.statuses.$select(thread.id).mute()).muted).toBe(true);
    await asBob.v1.statuses.create({ status: `@${alice.username} noise`, inReplyToId: thread.id });
    await t.deps.jobs.drain();
    const mentions = await asAlice.v1.notifications.list({ types: ["mention"] });
    expect(mentions.some((n) => n.status?.content.includes("noise"))).toBe(false);
    expect((await asAlice.v1.statuses.$select(thread.id).unmute()).muted).toBe(false);
  });

  test("notification policy and requests: a stranger's private mention waits as a request, accepted into the list", async () => {
    const policy = await asBob.v2.notifications.policy.fetch();
    expect(policy.forPrivateMentions).toBe("filter");
    const stranger = await newUser(t, "stranger");
    const asStranger = createRestAPIClient({ url: `http://127.0.0.1:${server.port}`, accessToken: stranger.token });
    await asStranger.v1.statuses.create({ status: `@${bob.username} hello there`, visibility: "direct" });
    await t.deps.jobs.drain();
    const [request] = await asBob.v1.notifications.requests.list();
    expect(request!.account.id).toBe(stranger.id);
    expect((await asBob.v1.notifications.list({ types: ["mention"] })).some((n) => n.account.id === stranger.id)).toBe(false);
    await asBob.v1.notifications.requests.$select(request!.id).accept();
    await t.deps.jobs.drain();
    expect((await asBob.v1.notifications.requests.merged.fetch()).merged).toBe(true);
    expect((await asBob.v1.notifications.list({ types: ["mention"] })).some((n) => n.account.id === stranger.id)).toBe(true);
    const updated = await asBob.v2.notifications.policy.update({ forPrivateMentions: "accept" });
    expect(updated.forPrivateMentions).toBe("accept");
  });

  test("trends, announcements and custom emojis", async () => {
    const carol = await newUser(t, "carol");
    for (const user of [alice, bob, carol]) {
      const client = createRestAPIClient({ url: `http://127.0.0.1:${server.port}`, accessToken: user.token });
      await client.v1.statuses.create({ status: "spring is here #blossoms" });
    }
    await t.deps.jobs.drain();
    await t.deps.store.write(() => setAutoApprove(t.deps.store, true));
    await storeTrends(t.deps.store);
    expect((await asBob.v1.trends.tags.list()).map((tag) => tag.name)).toContain("blossoms");
    expect(Array.isArray(await asBob.v1.trends.statuses.list())).toBe(true);
    expect(Array.isArray(await asBob.v1.trends.links.list())).toBe(true);

    const announcement = await publishAnnouncement(t.deps, { text: "Maintenance on Sunday", startsAt: null, endsAt: null, allDay: false });
    const [listed] = await asBob.v1.announcements.list();
    expect(listed!.content).toContain("Maintenance on Sunday");
    await asBob.v1.announcements.$select(listed!.id).reactions.$select("👍").update();
    const [reacted] = await asBob.v1.announcements.list();
    expect(reacted!.reactions).toEqual([expect.objectContaining({ name: "👍", count: 1, me: true })]);
    await asBob.v1.announcements.$select(listed!.id).dismiss();
    expect(await asBob.v1.announcements.list()).toEqual([]);
    expect(listed!.id).toBe(announcement.id.replace(/^0+/, ""));

    const png = await sharp({ create: { width: 32, height: 32, channels: 4, background: "#3a7" } }).png().toBuffer();
    await importEmoji(t.deps, png, "blob_happy");
    const emojis = await asBob.v1.customEmojis.list();
    expect(emojis.map((e) => e.shortcode)).toContain("blob_happy");
    expect(emojis.find((e) => e.shortcode === "blob_happy")!.url).toStartWith("http");
  });
});
