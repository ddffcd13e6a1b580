// Whose media is whose, through HTTP: another user's uploads do not exist for you (GET, PUT, DELETE are 404
// and change nothing) and cannot go on your statuses; uploads need a user token with write:media; once on a
// status an upload can still be described (the status shows it at once) but neither fetched through
// /api/v1/media nor deleted; and the media_ids[] rules of POST /api/v1/statuses (one status per upload, at
// most four, a video alone, nothing still processing). Job workers run on threads, as in production.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { STATUS_LIMITS } from "../../src/domain/limits.ts";
import type { TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, passwordToken } from "../helpers/clients.ts";
import {
  file, makeVideo, mediaRecordCount, postMedia, putMedia, showMedia, solidImage, startMediaApp, uploadImage, waitProcessed,
  type Json, type User,
} from "../helpers/media.ts";

let t: TestApp;
let alice: User;
let bob: User;
let image: Uint8Array;
let video: Uint8Array;

beforeAll(async () => {
  ({ t, alice, bob } = await startMediaApp(["alice", "bob"]));
  image = await solidImage(32, 24, "#c33");
  video = await makeVideo(t);
});
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------- helpers

const uploadPicture = (user: User, description = "a red rectangle") => uploadImage(t, user.token, description, image);

async function uploadVideo(user: User): Promise<Json> {
  const res = await postMedia(t, user.token, { file: file(video, "clip.mp4", "video/mp4") }, "v1");
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

const deleteMedia = (token: string | undefined, id: string) => t.request(`/api/v1/media/${id}`, { method: "DELETE", token });

function post(user: User, mediaIds: string[], text = "look at this") {
  const body = new URLSearchParams({ status: text });
  for (const id of mediaIds) body.append("media_ids[]", id);
  return t.request("/api/v1/statuses", {
    method: "POST",
    token: user.token,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
}

async function answer(res: Response): Promise<{ status: number; body: Json }> {
  return { status: res.status, body: (await res.json()) as Json };
}

/** A user token for `user` with only these scopes. */
async function tokenWith(user: User, scope: string): Promise<string> {
  return (await passwordToken(t, await createClientApp(t), user.username, user.password, scope)).access_token;
}

const mediaFolderCount = () => {
  try {
    return readdirSync(join(t.dir, "media", "media_attachments", "original")).length;
  } catch {
    return 0;
  }
};
const recordCount = () => mediaRecordCount(t);

const NOT_FOUND = { status: 404, body: { error: "Record not found" } };

// ------------------------------------------------------------------------------------------- ownership

describe("another user's media", () => {
  test("bob cannot GET, PUT or DELETE alice's upload: 404 each, and it stays as it was", async () => {
    const media = await uploadPicture(alice);
    expect((await answer(await showMedia(t, bob.token, media.id))).status).toBe(404);
    const put = await answer(await putMedia(t, bob.token, media.id, { description: "defaced", focus: "1,1" }));
    expect(put.status).toBe(404);
    const thumbnail = await answer(await putMedia(t, bob.token, media.id, { thumbnail: file(image, "t.jpg", "image/jpeg") }));
    expect(thumbnail.status).toBe(404);
    expect((await answer(await deleteMedia(bob.token, media.id))).status).toBe(404);
    // The same answer as for an id that does not exist: nothing tells bob it is there.
    const missing = await answer(await showMedia(t, bob.token, "1" + media.id));
    expect(missing.status).toBe(404);
    expect(put.body).toEqual(missing.body);

    const after = await showMedia(t, alice.token, media.id);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual(media);
    expect((await t.request(new URL(media.url).pathname)).status).toBe(200);
    expect((await t.request(new URL(media.preview_url).pathname)).status).toBe(200);
  });

  test("the 404 is Mastodon's record-not-found body", async () => {
    const media = await uploadPicture(alice);
    expect(await answer(await showMedia(t, bob.token, media.id))).toEqual(NOT_FOUND);
  });

  test("bob cannot attach alice's upload to his status: 422, and alice still can", async () => {
    const media = await uploadPicture(alice);
    expect(await answer(await post(bob, [media.id]))).toEqual({
      status: 422,
      body: { error: `Could not find media attachments with IDs: ${media.id}` },
    });
    // Mixed with one of his own, the whole post is refused and his own upload stays free.
    const own = await uploadPicture(bob);
    expect((await post(bob, [own.id, media.id])).status).toBe(422);
    expect((await showMedia(t, bob.token, own.id)).status).toBe(200);

    expect((await showMedia(t, alice.token, media.id)).status).toBe(200);
    const status = await answer(await post(alice, [media.id]));
    expect(status.status).toBe(200);
    expect(status.body.media_attachments.map((m: Json) => m.id)).toEqual([media.id]);
  });

  test("bob cannot change alice's upload once it is on her status either", async () => {
    const media = await uploadPicture(alice, "hers");
    const status = (await (await post(alice, [media.id])).json()) as Json;
    expect((await putMedia(t, bob.token, media.id, { description: "his now" })).status).toBe(404);
    expect((await deleteMedia(bob.token, media.id)).status).toBe(404);
    const shown = (await (await t.request(`/api/v1/statuses/${status.id}`, { token: bob.token })).json()) as Json;
    expect(shown.media_attachments[0].description).toBe("hers");
  });
});

// --------------------------------------------------------------------------------------- tokens, scopes

describe("tokens", () => {
  const requests = (token: string | undefined, id: string) => [
    () => postMedia(t, token, { file: file(image, "a.jpg", "image/jpeg") }, "v2"),
    () => postMedia(t, token, { file: file(image, "a.jpg", "image/jpeg") }, "v1"),
    () => showMedia(t, token, id),
    () => putMedia(t, token, id, { description: "changed" }),
    () => deleteMedia(token, id),
  ];

  async function expectAll(token: string | undefined, expected: { status: number; body: Json }) {
    const media = await uploadPicture(alice, "untouched");
    const records = recordCount();
    const folders = mediaFolderCount();
    for (const send of requests(token, media.id)) expect(await answer(await send())).toEqual(expected);
    expect(recordCount()).toBe(records);
    expect(mediaFolderCount()).toBe(folders);
    expect(((await (await showMedia(t, alice.token, media.id)).json()) as Json).description).toBe("untouched");
  }

  test("no token: 401", async () => {
    await expectAll(undefined, { status: 401, body: { error: "The access token is invalid" } });
  });

  test("a token that does not exist: 401", async () => {
    await expectAll("not-a-real-token", { status: 401, body: { error: "The access token is invalid" } });
  });

  test("an app-only token (client_credentials), even with write: 422, as Mastodon (it needs a user)", async () => {
    const token = (await appToken(t, await createClientApp(t), "write")).access_token;
    await expectAll(token, { status: 422, body: { error: "This method requires an authenticated user" } });
  });

  for (const scope of ["read", "write:statuses", "read write:accounts"]) {
    test(`a user token with only "${scope}": 403`, async () => {
      await expectAll(await tokenWith(alice, scope), { status: 403, body: { error: "This action is outside the authorized scopes" } });
    });
  }

  for (const scope of ["write:media", "write"]) {
    test(`a user token with "${scope}" may upload and manage`, async () => {
      const token = await tokenWith(alice, scope);
      const res = await postMedia(t, token, { file: file(image, "a.jpg", "image/jpeg") });
      expect(res.status).toBe(200);
      const media = (await res.json()) as Json;
      expect((await showMedia(t, token, media.id)).status).toBe(200);
      expect((await putMedia(t, token, media.id, { description: "mine" })).status).toBe(200);
      expect((await deleteMedia(token, media.id)).status).toBe(200);
      expect((await showMedia(t, token, media.id)).status).toBe(404);
    });
  }
});

// ------------------------------------------------------------------------------------------ on a status

describe("once on a status", () => {
  test("GET is 404, PUT still works and the status shows it at once, DELETE is 422", async () => {
    const media = await uploadPicture(alice, "before");
    const created = await answer(await post(alice, [media.id]));
    expect(created.status).toBe(200);
    const statusId = created.body.id as string;
    const statusPath = `/api/v1/statuses/${statusId}`;
    // Read first, as clients do, so that anything kept from this reading would show below.
    for (const token of [alice.token, bob.token, undefined]) {
      const shown = (await (await t.request(statusPath, { token })).json()) as Json;
      expect(shown.media_attachments[0]).toMatchObject({ id: media.id, description: "before" });
    }

    expect(await answer(await showMedia(t, alice.token, media.id))).toEqual(NOT_FOUND);

    const put = await putMedia(t, alice.token, media.id, { description: "after", focus: "-0.5,0.5" });
    expect(put.status).toBe(200);
    expect(((await put.json()) as Json).description).toBe("after");
    for (const token of [alice.token, bob.token, undefined]) {
      const shown = (await (await t.request(statusPath, { token })).json()) as Json;
      expect(shown.media_attachments[0]).toMatchObject({ id: media.id, description: "after", meta: { focus: { x: -0.5, y: 0.5 } } });
    }
    const inTimeline = (await (await t.request(`/api/v1/accounts/${alice.id}/statuses`, { token: bob.token })).json()) as Json[];
    expect(inTimeline.find((s) => s.id === statusId)?.media_attachments[0].description).toBe("after");

    expect(await answer(await deleteMedia(alice.token, media.id))).toEqual({
      status: 422,
      body: { error: "Media attachment is currently used by a status" },
    });
    const still = (await (await t.request(statusPath, { token: alice.token })).json()) as Json;
    expect(still.media_attachments.map((m: Json) => m.id)).toEqual([media.id]);
    expect((await t.request(new URL(media.url).pathname)).status).toBe(200);
  });

  test("the same upload cannot go on a second status", async () => {
    const media = await uploadPicture(alice);
    expect((await post(alice, [media.id], "first")).status).toBe(200);
    expect(await answer(await post(alice, [media.id], "second"))).toEqual({
      status: 422,
      body: { error: `Could not find media attachments with IDs: ${media.id}` },
    });
  });

  test("two posts racing for the same upload: exactly one gets it", async () => {
    const media = await uploadPicture(alice);
    const answers = await Promise.all([post(alice, [media.id], "one"), post(alice, [media.id], "two"), post(alice, [media.id], "three")]);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 422, 422]);
  });
});

// -------------------------------------------------------------------------------------- media_ids rules

describe("media_ids[] rules", () => {
  test(`at most ${STATUS_LIMITS.maxMediaAttachments}: that many go on in the order given, one more is 422 and attaches nothing`, async () => {
    const five: Json[] = [];
    for (let i = 0; i < STATUS_LIMITS.maxMediaAttachments + 1; i++) five.push(await uploadPicture(alice, `picture ${i}`));
    const ids = five.map((m) => m.id as string);
    expect(await answer(await post(alice, ids))).toEqual({
      status: 422,
      body: { error: `Cannot attach more than ${STATUS_LIMITS.maxMediaAttachments} files` },
    });
    for (const id of ids) expect((await showMedia(t, alice.token, id)).status).toBe(200);

    const four = [...ids.slice(0, STATUS_LIMITS.maxMediaAttachments)].reverse();
    const created = await answer(await post(alice, four));
    expect(created.status).toBe(200);
    expect(created.body.media_attachments.map((m: Json) => m.id)).toEqual(four);
  });

  test("a video with an image: 422; a video alone: 200", async () => {
    const clip = await uploadVideo(alice);
    expect(clip.type).toBe("video");
    const picture = await uploadPicture(alice);
    for (const order of [[clip.id, picture.id], [picture.id, clip.id]]) {
      expect(await answer(await post(alice, order))).toEqual({
        status: 422,
        body: { error: "Cannot attach a video to a post that already contains images" },
      });
    }
    expect((await showMedia(t, alice.token, clip.id)).status).toBe(200);
    const created = await answer(await post(alice, [clip.id]));
    expect(created.status).toBe(200);
    expect(created.body.media_attachments[0]).toMatchObject({ id: clip.id, type: "video" });
  }, 20_000);

  test("a video still processing (jobs paused, so it stays so): 422, and 200 once processed", async () => {
    t.deps.jobs.pause();
    let media: Json;
    try {
      const res = await postMedia(t, alice.token, { file: file(video, "clip.mp4", "video/mp4") });
      expect(res.status).toBe(202);
      media = (await res.json()) as Json;
      expect(media.url).toBeNull();
      expect((await showMedia(t, alice.token, media.id)).status).toBe(206);
      expect(await answer(await post(alice, [media.id]))).toEqual({
        status: 422,
        body: { error: "Cannot attach files that have not finished processing. Try again in a moment!" },
      });
      // The refused post took nothing: the upload is still free, still processing.
      expect((await showMedia(t, alice.token, media.id)).status).toBe(206);
    } finally {
      t.deps.jobs.resume();
    }
    expect((await waitProcessed(t, alice.token, media.id)).status).toBe(200);
    const created = await answer(await post(alice, [media.id]));
    expect(created.status).toBe(200);
    expect(created.body.media_attachments[0]).toMatchObject({ id: media.id, type: "video" });
    expect(created.body.media_attachments[0].url).toEndWith(".mp4");
  }, 20_000);

  test("posting right after a v2 video upload, with jobs running: 422 not processed yet, or 200 if done already", async () => {
    const res = await postMedia(t, alice.token, { file: file(video, "clip.mp4", "video/mp4") });
    expect(res.status).toBe(202);
    const media = (await res.json()) as Json;
    const first = await answer(await post(alice, [media.id]));
    if (first.status === 200) {
      expect(first.body.media_attachments[0]).toMatchObject({ id: media.id, type: "video" });
      return;
    }
    expect(first).toEqual({ status: 422, body: { error: "Cannot attach files that have not finished processing. Try again in a moment!" } });
    expect((await waitProcessed(t, alice.token, media.id)).status).toBe(200);
    expect((await post(alice, [media.id])).status).toBe(200);
  }, 20_000);

  test("a processing video and an image together: 422 either way", async () => {
    t.deps.jobs.pause();
    try {
      const clip = (await (await postMedia(t, alice.token, { file: file(video, "clip.mp4", "video/mp4") })).json()) as Json;
      const picture = await uploadPicture(alice);
      const res = await answer(await post(alice, [picture.id, clip.id]));
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(/not finished processing|Cannot attach a video/);
      expect((await showMedia(t, alice.token, picture.id)).status).toBe(200);
    } finally {
      t.deps.jobs.resume();
    }
  }, 20_000);

  test("ids that are not ids or not there: 422 naming them", async () => {
    for (const id of ["abc", "0", "99999999999999999"]) {
      expect(await answer(await post(alice, [id]))).toEqual({ status: 422, body: { error: `Could not find media attachments with IDs: ${id}` } });
    }
  });
});
