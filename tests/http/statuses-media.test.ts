// Media attachments on statuses, through HTTP: media_ids[] on POST /api/v1/statuses, the attachments in
// every place a status is rendered (in the author's order, with every MediaAttachment key), only_media
// filters, privacy, redraft (DELETE keeps the media), DELETE with delete_media=true (query or body), and the
// day-long wait of an unattached upload (the domain function called with a later `now`, and the delayed job it enqueues).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { expireUnattached, UNATTACHED_TTL_MS } from "../../src/domain/media/cleanup.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { pendingJobs } from "../../src/store/jobs.ts";
import { getMedia } from "../../src/store/media.ts";
import { BASE, type TestApp } from "../helpers/app.ts";
import { file, makeVideo, servedStatus, startMediaApp, storedOnDisk, uploadFile, uploadImage, waitProcessed, type Json } from "../helpers/media.ts";
import { call, follow, get, newUser, post, postStatus, type User } from "./statuses-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(30_000);

let t: TestApp;
let alice: User;
let bob: User;
let carol: User;

beforeAll(async () => {
  ({ t, alice, bob, carol } = await startMediaApp(["alice", "bob", "carol"]));
  await follow(t, bob, alice);
  await t.deps.jobs.drain();
}, 60_000);
afterAll(() => t.close());

const MEDIA_KEYS = ["id", "type", "url", "preview_url", "remote_url", "preview_remote_url", "text_url", "meta", "description", "blurhash"];

/** An image (a fresh 64×48 JPEG) uploaded by `user`. */
const upload = (user: User, description?: string) => uploadImage(t, user.token, description);

const storedId = (publicMediaId: string) => normaliseId(publicMediaId)!;

/** The attachments are exactly `expected` (ids and descriptions), in that order, with every key. */
function expectAttachments(attachments: Json[], expected: Json[]) {
  expect(attachments.map((m) => m.id)).toEqual(expected.map((m) => m.id));
  expect(attachments.map((m) => m.description)).toEqual(expected.map((m) => m.description));
  for (const media of attachments) {
    for (const key of MEDIA_KEYS) expect(media).toHaveProperty(key);
    expect(media.type).toBe("image");
    expect(media.url).toStartWith(`${BASE}/system/media_attachments/original/`);
    expect(media.preview_url).toStartWith(`${BASE}/system/media_attachments/small/`);
    expect([media.remote_url, media.preview_remote_url, media.text_url]).toEqual([null, null, null]);
    expect(media.meta.original).toMatchObject({ width: 64, height: 48 });
    expect(media.blurhash).toBeString();
  }
}

async function timelineStatus(path: string, token: string | undefined, id: string): Promise<Json> {
  await t.deps.jobs.drain();
  const res = await get(t, path, token);
  expect(res.status).toBe(200);
  const found = (res.body as Json[]).find((s) => s.id === id);
  if (!found) throw new Error(`${id} not in ${path}`);
  return found;
}

const idsOf = async (path: string, token?: string): Promise<string[]> => {
  await t.deps.jobs.drain();
  const res = await get(t, path, token);
  expect(res.status).toBe(200);
  return (res.body as Json[]).map((s) => s.id);
};

describe("attachments wherever a status is shown", () => {
  let four: Json[];
  let single: Json[];
  let fourStatus: Json;
  let singleStatus: Json;

  beforeAll(async () => {
    const uploads = [await upload(alice, "first"), await upload(alice, "second"), await upload(alice, "third"), await upload(alice, "fourth")];
    // The author's order, not the upload order.
    four = [uploads[2]!, uploads[0]!, uploads[3]!, uploads[1]!];
    single = [await upload(alice, "alone")];
    fourStatus = await postStatus(t, alice, { status: "four pictures", media_ids: four.map((m) => m.id) });
    singleStatus = await postStatus(t, alice, { status: "one picture", media_ids: single.map((m) => m.id) });
  });

  test("the POST answer and GET /api/v1/statuses/:id (signed in and anonymous)", async () => {
    expectAttachments(fourStatus.media_attachments, four);
    expectAttachments(singleStatus.media_attachments, single);
    for (const token of [bob.token, undefined]) {
      expectAttachments((await get(t, `/api/v1/statuses/${fourStatus.id}`, token)).body.media_attachments, four);
      expectAttachments((await get(t, `/api/v1/statuses/${singleStatus.id}`, token)).body.media_attachments, single);
    }
    for (const media of [...four, ...single]) expect(await servedStatus(t, media.url)).toBe(200);
  });

  test("a follower's home timeline", async () => {
    expectAttachments((await timelineStatus("/api/v1/timelines/home", bob.token, fourStatus.id)).media_attachments, four);
    expectAttachments((await timelineStatus("/api/v1/timelines/home", bob.token, singleStatus.id)).media_attachments, single);
  });

  test("public and local timelines", async () => {
    for (const path of ["/api/v1/timelines/public", "/api/v1/timelines/public?local=true"]) {
      expectAttachments((await timelineStatus(path, carol.token, fourStatus.id)).media_attachments, four);
      expectAttachments((await timelineStatus(path, undefined, singleStatus.id)).media_attachments, single);
    }
  });

  test("account statuses", async () => {
    const path = `/api/v1/accounts/${alice.id}/statuses`;
    expectAttachments((await timelineStatus(path, carol.token, fourStatus.id)).media_attachments, four);
    expectAttachments((await timelineStatus(path, undefined, singleStatus.id)).media_attachments, single);
  });

  test("the context of a reply thread, both ways", async () => {
    const replyMedia = [await upload(bob, "answer")];
    const reply = await postStatus(t, bob, { status: `@${alice.username} mine too`, in_reply_to_id: fourStatus.id, media_ids: replyMedia.map((m) => m.id) });
    expectAttachments(reply.media_attachments, replyMedia);
    const up = (await get(t, `/api/v1/statuses/${reply.id}/context`, carol.token)).body;
    expect(up.ancestors.map((s: Json) => s.id)).toEqual([fourStatus.id]);
    expectAttachments(up.ancestors[0].media_attachments, four);
    const down = (await get(t, `/api/v1/statuses/${fourStatus.id}/context`, alice.token)).body;
    expect(down.descendants.map((s: Json) => s.id)).toEqual([reply.id]);
    expectAttachments(down.descendants[0].media_attachments, replyMedia);
  });

  test("a reblog carries the original's attachments in reblog.media_attachments", async () => {
    const res = await post(t, `/api/v1/statuses/${fourStatus.id}/reblog`, carol.token);
    expect(res.status).toBe(200);
    expect(res.body.media_attachments).toEqual([]);
    expectAttachments(res.body.reblog.media_attachments, four);
    expectAttachments((await get(t, `/api/v1/statuses/${res.body.id}`, bob.token)).body.reblog.media_attachments, four);
    const inCarolsList = await timelineStatus(`/api/v1/accounts/${carol.id}/statuses`, bob.token, res.body.id);
    expectAttachments(inCarolsList.reblog.media_attachments, four);
  });

  test("favourites and bookmarks", async () => {
    expect((await post(t, `/api/v1/statuses/${fourStatus.id}/favourite`, bob.token)).status).toBe(200);
    expect((await post(t, `/api/v1/statuses/${singleStatus.id}/bookmark`, bob.token)).status).toBe(200);
    expectAttachments((await timelineStatus("/api/v1/favourites", bob.token, fourStatus.id)).media_attachments, four);
    expectAttachments((await timelineStatus("/api/v1/bookmarks", bob.token, singleStatus.id)).media_attachments, single);
  });

  test("attached uploads are no longer the uploader's to GET, and cannot be attached twice", async () => {
    expect((await t.request(`/api/v1/media/${single[0]!.id}`, { token: alice.token })).status).toBe(404);
    const again = await post(t, "/api/v1/statuses", alice.token, { status: "again", media_ids: [single[0]!.id] });
    expect(again.status).toBe(422);
  });
});

describe("what a status may carry", () => {
  test("media alone, with no text, is accepted", async () => {
    const media = [await upload(alice, "wordless")];
    const res = await post(t, "/api/v1/statuses", alice.token, { media_ids: media.map((m) => m.id) });
    expect(res.status).toBe(200);
    expect(res.body.content).toBe("");
    expectAttachments(res.body.media_attachments, media);
    // Neither text nor media is still refused.
    expect((await post(t, "/api/v1/statuses", alice.token, {})).status).toBe(422);
  });

  test("a processed video alone is accepted; with an image it is refused", async () => {
    const clip = file(await makeVideo(t, "64x48", 10), "clip.mp4", "video/mp4");
    const queued = await uploadFile(t, alice.token, clip, "a clip", [200, 202]);
    const done = await waitProcessed(t, alice.token, queued.id);
    expect(done.status).toBe(200);
    const image = await upload(alice, "a still");
    const mixed = await post(t, "/api/v1/statuses", alice.token, { media_ids: [queued.id, image.id] });
    expect(mixed.status).toBe(422);
    const res = await post(t, "/api/v1/statuses", alice.token, { media_ids: [queued.id] });
    expect(res.status).toBe(200);
    expect(res.body.media_attachments.map((m: Json) => [m.id, m.type, m.description])).toEqual([[queued.id, "video", "a clip"]]);
    const video = res.body.media_attachments[0];
    for (const key of MEDIA_KEYS) expect(video).toHaveProperty(key);
    expect(video.url).toEndWith(".mp4");
    expect(await servedStatus(t, video.url)).toBe(200);
    expect(await servedStatus(t, video.preview_url)).toBe(200);
  });
});

describe("only_media", () => {
  let withMedia: Json;
  let textOnly: Json;
  let dave: User;

  beforeAll(async () => {
    dave = await newUser(t, "dave");
    textOnly = await postStatus(t, dave, "words only");
    withMedia = await postStatus(t, dave, { status: "with a picture", media_ids: [(await upload(dave, "pic")).id] });
    await postStatus(t, dave, "more words");
    await t.deps.jobs.drain();
  });

  const onlyMedia = async (path: string, token?: string) => {
    await t.deps.jobs.drain();
    const res = await get(t, path, token);
    expect(res.status).toBe(200);
    const statuses = res.body as Json[];
    for (const status of statuses) expect((status.reblog ?? status).media_attachments.length).toBeGreaterThan(0);
    return statuses.map((s) => s.id);
  };

  test("account statuses", async () => {
    expect(await onlyMedia(`/api/v1/accounts/${dave.id}/statuses?only_media=true`, carol.token)).toEqual([withMedia.id]);
    expect(await onlyMedia(`/api/v1/accounts/${dave.id}/statuses?only_media=true`)).toEqual([withMedia.id]);
    // The spec's media-only list of an account's statuses.
    expect(await onlyMedia(`/api/v1/accounts/${dave.id}/statuses/media`, carol.token)).toEqual([withMedia.id]);
    expect(await onlyMedia(`/api/v1/accounts/${dave.id}/statuses/media`)).toEqual([withMedia.id]);
    const all = await idsOf(`/api/v1/accounts/${dave.id}/statuses`, carol.token);
    expect(all).toContain(textOnly.id);
    expect(all).toContain(withMedia.id);
  });

  test("public and local timelines", async () => {
    for (const path of ["/api/v1/timelines/public?only_media=true", "/api/v1/timelines/public?local=true&only_media=true"]) {
      for (const token of [carol.token, undefined]) {
        const ids = await onlyMedia(path, token);
        expect(ids).toContain(withMedia.id);
        expect(ids).not.toContain(textOnly.id);
      }
    }
    expect(await idsOf("/api/v1/timelines/public?local=true", carol.token)).toContain(textOnly.id);
  });
});

describe("privacy", () => {
  test("a private status with media is shown to followers only; its file names are random", async () => {
    const media = [await upload(alice, "secret picture")];
    const secret = await postStatus(t, alice, { status: "followers only", visibility: "private", media_ids: media.map((m) => m.id) });
    expectAttachments(secret.media_attachments, media);
    expect(media[0]!.url).toMatch(/\/system\/media_attachments\/original\/\d+\/[0-9a-f]{32}\.jpg$/);
    expect(media[0]!.preview_url).toMatch(/\/system\/media_attachments\/small\/\d+\/[0-9a-f]{32}\.\w+$/);
    expect((await get(t, `/api/v1/statuses/${secret.id}`, carol.token)).status).toBe(404);
    expect((await get(t, `/api/v1/statuses/${secret.id}`)).status).toBe(404);
    for (const path of [
      "/api/v1/timelines/home",
      "/api/v1/timelines/public",
      "/api/v1/timelines/public?only_media=true",
      "/api/v1/timelines/public?local=true&only_media=true",
      `/api/v1/accounts/${alice.id}/statuses`,
      `/api/v1/accounts/${alice.id}/statuses?only_media=true`,
    ]) {
      expect(await idsOf(path, carol.token)).not.toContain(secret.id);
    }
    expectAttachments((await get(t, `/api/v1/statuses/${secret.id}`, bob.token)).body.media_attachments, media);
    expectAttachments((await timelineStatus("/api/v1/timelines/home", bob.token, secret.id)).media_attachments, media);
  });
});

describe("deleting a status", () => {
  test("redraft: DELETE answers with the media, which a new status may take at once; files stay", async () => {
    const media = [await upload(alice, "keep me"), await upload(alice, "me too")];
    const status = await postStatus(t, alice, { status: "draft one", media_ids: media.map((m) => m.id) });
    const deleted = await call(t, "DELETE", `/api/v1/statuses/${status.id}`, alice.token);
    expect(deleted.status).toBe(200);
    expectAttachments(deleted.body.media_attachments, media);
    const again = await post(t, "/api/v1/statuses", alice.token, { status: "draft two", media_ids: media.map((m) => m.id) });
    expect(again.status).toBe(200);
    expectAttachments(again.body.media_attachments, media);
    await t.deps.jobs.drain(); // the old status's removal has run: the media belong to the new one
    expect((await get(t, `/api/v1/statuses/${status.id}`, alice.token)).status).toBe(404);
    expectAttachments((await get(t, `/api/v1/statuses/${again.body.id}`, bob.token)).body.media_attachments, media);
    for (const m of media) {
      expect(getMedia(t.deps.store, storedId(m.id))?.statusId).toBe(normaliseId(again.body.id));
      expect(await servedStatus(t, m.url)).toBe(200);
      expect(await servedStatus(t, m.preview_url)).toBe(200);
    }
  });

  test("redraft without re-posting: the media are free again (GET 200) and expire a day later", async () => {
    const media = await upload(alice, "later");
    const status = await postStatus(t, alice, { status: "soon gone", media_ids: [media.id] });
    const before = Date.now();
    expect((await call(t, "DELETE", `/api/v1/statuses/${status.id}`, alice.token)).status).toBe(200);
    await t.deps.jobs.drain();
    expect((await t.request(`/api/v1/media/${media.id}`, { token: alice.token })).status).toBe(200);
    expect(await servedStatus(t, media.url)).toBe(200);
    const job = pendingJobs(t.deps.store, 100_000).find(
      (j) => j.type === "media.expire_detached" && (j.payload as Json).event.payload.mediaId === storedId(media.id),
    );
    expect(job).toBeDefined();
    expect(job!.runAt).toBeGreaterThanOrEqual(before + UNATTACHED_TTL_MS);
  });

  test("delete_media=true: the records and files are removed in the background", async () => {
    const media = [await upload(alice, "bin me"), await upload(alice, "and me")];
    const status = await postStatus(t, alice, { status: "gone for good", media_ids: media.map((m) => m.id) });
    for (const m of media) expect(await servedStatus(t, m.url)).toBe(200);
    const deleted = await call(t, "DELETE", `/api/v1/statuses/${status.id}?delete_media=true`, alice.token);
    expect(deleted.status).toBe(200);
    expect((await get(t, `/api/v1/statuses/${status.id}`, alice.token)).status).toBe(404);
    await eventually(async () => {
      for (const m of media) {
        if (getMedia(t.deps.store, storedId(m.id))) return false;
        if ((await servedStatus(t, m.url)) !== 404 || (await servedStatus(t, m.preview_url)) !== 404) return false;
      }
      return true;
    }, { what: "the media to be removed" });
    for (const m of media) {
      expect(storedOnDisk(t, m.url)).toBe(false);
      expect(storedOnDisk(t, m.preview_url)).toBe(false);
      expect((await t.request(`/api/v1/media/${m.id}`, { token: alice.token })).status).toBe(404);
    }
    const reuse = await post(t, "/api/v1/statuses", alice.token, { status: "try", media_ids: [media[0]!.id] });
    expect(reuse.status).toBe(422);
  });

  test("delete_media in a form body (Mastodon.py) is read as in the query", async () => {
    const media = await upload(alice, "form-deleted");
    const status = await postStatus(t, alice, { status: "gone by form", media_ids: [media.id] });
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const res = await t.request(`/api/v1/statuses/${status.id}`, { method: "DELETE", token: alice.token, headers, body: "delete_media=1" });
    expect(res.status).toBe(200);
    await eventually(() => !getMedia(t.deps.store, storedId(media.id)), { what: "the media to be removed" });
    expect((await post(t, "/api/v1/statuses", alice.token, { status: "try", media_ids: [media.id] })).status).toBe(422);
  });
});

describe("unattached uploads", () => {
  test("uploading enqueues media.expire_unattached, delayed by a day", async () => {
    const before = Date.now();
    const media = await upload(alice, "waiting");
    const jobs = pendingJobs(t.deps.store, 100_000).filter(
      (j) => j.type === "media.expire_unattached" && (j.payload as Json).event.payload.mediaId === storedId(media.id),
    );
    expect(jobs.length).toBe(1);
    expect(jobs[0]!.lane).toBe("default");
    expect(jobs[0]!.runAt).toBeGreaterThanOrEqual(before + UNATTACHED_TTL_MS);
    expect(jobs[0]!.runAt).toBeLessThanOrEqual(Date.now() + UNATTACHED_TTL_MS);
  });

  test("expireUnattached removes an upload on no status for a day, with its files, and keeps attached ones", async () => {
    const { store, config } = t.deps;
    const loose = await upload(alice, "nobody wants me");
    const used = await upload(alice, "taken");
    await postStatus(t, alice, { status: "has it", media_ids: [used.id] });

    // Not yet a day: nothing happens.
    expect(await expireUnattached(store, config, storedId(loose.id), Date.now())).toBe(0);
    expect(getMedia(store, storedId(loose.id))).toBeDefined();

    const later = Date.now() + UNATTACHED_TTL_MS + 60_000;
    expect(await expireUnattached(store, config, storedId(used.id), later)).toBe(0);
    expect(await expireUnattached(store, config, storedId(loose.id), later)).toBe(1);

    expect(getMedia(store, storedId(loose.id))).toBeUndefined();
    expect(await servedStatus(t, loose.url)).toBe(404);
    expect(await servedStatus(t, loose.preview_url)).toBe(404);
    expect(storedOnDisk(t, loose.url)).toBe(false);
    expect(storedOnDisk(t, loose.preview_url)).toBe(false);
    expect((await t.request(`/api/v1/media/${loose.id}`, { token: alice.token })).status).toBe(404);

    expect(getMedia(store, storedId(used.id))?.statusId).not.toBeNull();
    expect(await servedStatus(t, used.url)).toBe(200);
    expect(await servedStatus(t, used.preview_url)).toBe(200);
    // Running again (a retried job) is harmless.
    expect(await expireUnattached(store, config, storedId(loose.id), later)).toBe(0);
  });
});
