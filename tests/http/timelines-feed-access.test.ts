// Mastodon 4.5's feed access settings on GET /api/v1/timelines/public and /tag/:hashtag: 422 for a request
// without a user where the part asked for is not public, the part a reader may not see left out (nothing when
// that part alone was asked for), `disabled` parts only for roles with view_feeds, kept pages that follow a
// change of the settings at once, and public streams that obey them as the timelines do.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, signedInUser } from "../helpers/clients.ts";
import { setFeedAccess, type FeedAccess } from "../../src/domain/instance/feed-access.ts";
import type { FeedSetting } from "../../src/model/instance.ts";
import { streamHub } from "../../src/http/streaming/hub.ts";
import type { StreamClient } from "../../src/domain/streaming/hub.ts";
import { get, idOf, newUser, postStatus, remoteAccount, remoteStatus, timeline, type User } from "./timelines-helpers.ts";

let t: TestApp;
let reader: User;
let moderator: User;
let localId: string;
let remoteId: string;

beforeAll(async () => {
  t = await startTestApp({ WARREN_CACHE_STATUS_HEADER: "true" });
  reader = await newUser(t, "fa");
  moderator = await signedInUser(t, "famod", undefined, { role: "Moderator" });
  localId = (await postStatus(t, reader, "local words #topic")).id;
  remoteId = idOf(await remoteStatus(t, await remoteAccount(t, "far"), { tags: ["topic"] }));
});
afterAll(() => t.close());

async function set(values: Partial<Record<FeedSetting, FeedAccess>>) {
  const all: Record<FeedSetting, FeedAccess> = {
    local_live_feed_access: "public", remote_live_feed_access: "public", local_topic_feed_access: "public", remote_topic_feed_access: "public",
  };
  for (const [name, value] of Object.entries({ ...all, ...values })) await setFeedAccess(t.deps, name as FeedSetting, value);
}

const refused = async (path: string, token?: string) => {
  const res = await get(t, path, token);
  expect(res).toMatchObject({ status: 422, body: { error: "This method requires an authenticated user" } });
};

describe("live feeds", () => {
  test("defaults: everything public, with and without a token", async () => {
    expect(await timeline(t, "/api/v1/timelines/public")).toEqual([remoteId, localId]);
  });

  test("remote authenticated: visitors may still ask for the local part; users see both", async () => {
    await set({ remote_live_feed_access: "authenticated" });
    await refused("/api/v1/timelines/public");
    await refused("/api/v1/timelines/public?remote=true");
    const app = await createClientApp(t);
    await refused("/api/v1/timelines/public", (await appToken(t, app, "read")).access_token);
    expect(await timeline(t, "/api/v1/timelines/public?local=true")).toEqual([localId]);
    expect(await timeline(t, "/api/v1/timelines/public", reader.token)).toEqual([remoteId, localId]);
  });

  test("remote disabled: users get the local part only, and nothing when they ask for remote; view_feeds sees all", async () => {
    await set({ remote_live_feed_access: "disabled" });
    expect(await timeline(t, "/api/v1/timelines/public", reader.token)).toEqual([localId]);
    expect(await timeline(t, "/api/v1/timelines/public?remote=true", reader.token)).toEqual([]);
    expect(await timeline(t, "/api/v1/timelines/public", moderator.token)).toEqual([remoteId, localId]);
  });

  test("a kept page follows a change of the settings", async () => {
    await set({});
    for (let i = 0; i < 3; i++) expect(await timeline(t, "/api/v1/timelines/public?limit=5")).toEqual([remoteId, localId]);
    await set({ local_live_feed_access: "authenticated" });
    await refused("/api/v1/timelines/public?limit=5");
    await set({});
  });
});

describe("topic feeds", () => {
  test("the hashtag timeline follows the topic settings, not the live ones", async () => {
    await set({ remote_live_feed_access: "disabled", remote_topic_feed_access: "authenticated" });
    await refused("/api/v1/timelines/tag/topic");
    expect(await timeline(t, "/api/v1/timelines/tag/topic?local=true")).toEqual([localId]);
    expect(await timeline(t, "/api/v1/timelines/tag/topic", reader.token)).toEqual([remoteId, localId]);
    await set({});
  });

  test("/api/v2/instance shows the settings; local topic feeds cannot be disabled", async () => {
    await set({ local_live_feed_access: "authenticated", remote_topic_feed_access: "disabled" });
    const access = (await get(t, "/api/v2/instance")).body.configuration.timelines_access;
    expect(access).toEqual({
      live_feeds: { local: "authenticated", remote: "public" },
      hashtag_feeds: { local: "public", remote: "disabled" },
      trending_link_feeds: { local: "public", remote: "disabled" },
    });
    await expect(setFeedAccess(t.deps, "local_topic_feed_access", "disabled")).rejects.toThrow("cannot be disabled");
    await set({});
  });
});

describe("streams", () => {
  test("the public stream leaves out the part its subscriber may not read, as the timeline does", async () => {
    await set({ remote_live_feed_access: "disabled" });
    const received: { who: string; id: string }[] = [];
    const client = (who: string, accountId: string): StreamClient => ({
      viewer: { accountId: accountId.padStart(18, "0"), scopes: ["read"], rawToken: "" },
      send: (_stream, event, payload) => void (event === "update" && received.push({ who, id: JSON.parse(payload!).id })),
      heartbeat: () => {},
      close: () => {},
    });
    const hub = streamHub(t.deps);
    const [forReader, forModerator] = [client("reader", reader.id), client("moderator", moderator.id)];
    hub.subscribe(forReader, { name: "public" });
    hub.subscribe(forModerator, { name: "public" });
    try {
      const remote = idOf(await remoteStatus(t, await remoteAccount(t, "streamer")));
      const local = (await postStatus(t, moderator, "streamed words")).id;
      await t.deps.jobs.drain();
      expect(received.filter((r) => r.who === "reader").map((r) => r.id)).toEqual([local]);
      expect(received.filter((r) => r.who === "moderator").map((r) => r.id).sort()).toEqual([local, remote].sort());
    } finally {
      hub.disconnect(forReader);
      hub.disconnect(forModerator);
      await set({});
    }
  });
});
