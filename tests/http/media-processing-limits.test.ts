// Cheap uploads that would cost minutes of CPU: Mastodon's video limits and an animation's frames are
// checked in the request (422 before any transcode), a transcode past its budget fails cleanly, and the
// media lane shares its work between accounts. Worker threads on, real ffmpeg; the inputs are made here by
// ffmpeg (lavfi testsrc) or written byte by byte (GIFs of many frames).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { findFfmpeg } from "../../src/media/ffmpeg.ts";
import type { TestApp } from "../helpers/app.ts";
import { file, makeVideo, mediaRecordCount, postMedia, showMedia, startMediaApp, waitProcessed, type Json, type User } from "../helpers/media.ts";

let t: TestApp;
let alice: User;
let bob: User;

beforeAll(async () => {
  ({ t, alice, bob } = await startMediaApp(["alice", "bob"]));
});

afterAll(async () => {
  await t?.close();
});

/** A video of `seconds` of testsrc at `size` and `rate`, made by ffmpeg (MPEG-4 part 2: quick to make, not H.264). */
async function testVideo(app: TestApp, size: string, rate: number, seconds: number): Promise<File> {
  const out = join(app.dir, `made-${size}-${rate}-${seconds}-${Math.random().toString(36).slice(2)}.mp4`);
  const proc = Bun.spawn([
    findFfmpeg()!.ffmpeg, "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", `testsrc=size=${size}:rate=${rate}:duration=${seconds}`,
    "-c:v", "mpeg4", "-q:v", "31", "-y", out,
  ]);
  expect(await proc.exited).toBe(0);
  return file(await Bun.file(out).bytes(), "clip.mp4", "video/mp4");
}

/**
 * An animated GIF of `frames` frames on a `width`×`height` screen, each frame one pixel (as ffmpeg's GIF
 * encoder writes frames that do not change): a few bytes per frame, a full screen each once decoded.
 */
function manyFrameGif(width: number, height: number, frames: number): File {
  const u16 = (n: number) => [n & 0xff, n >> 8];
  const header = [...Buffer.from("GIF89a"), ...u16(width), ...u16(height), 0x80, 0, 0, 0, 0, 0, 255, 255, 255];
  // Graphic control (2/100 s), a 1×1 image at the corner, its LZW data (clear, index 0, end).
  const frame = [0x21, 0xf9, 4, 0, 2, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0];
  const bytes = new Uint8Array(header.length + frame.length * frames + 1);
  bytes.set(header);
  for (let i = 0; i < frames; i++) bytes.set(frame, header.length + i * frame.length);
  bytes[bytes.length - 1] = 0x3b;
  return file(bytes, "anim.gif", "image/gif");
}

const incomingCount = (app: TestApp) => readdirSync(join(app.dir, "incoming"), { withFileTypes: true }).length;

async function expectRefused(upload: File, error: string | RegExp, app = t, user = alice) {
  const records = mediaRecordCount(app);
  for (const version of ["v2", "v1"] as const) {
    const started = performance.now();
    const res = await postMedia(app, user.token, { file: upload }, version);
    const body = (await res.json()) as Json;
    expect({ status: res.status, body }).toEqual({ status: 422, body: { error: expect.stringMatching(error) } });
    // Refused from the header or ffprobe's answer: no transcode was started.
    expect(performance.now() - started).toBeLessThan(3000);
  }
  expect(mediaRecordCount(app)).toBe(records);
  expect(app.deps.jobs.stats().pending).toBe(0);
}

describe("past Mastodon's limits: 422 in the request, nothing stored, no job", () => {
  test("a 4096×2160 video (over 3840×2160, the matrix limit)", async () => {
    await expectRefused(await testVideo(t, "4096x2160", 10, 0.2), /^4096x2160 videos are not supported$/);
    expect(incomingCount(t)).toBe(0);
  }, 30_000);

  test("a 240 fps video (over 120)", async () => {
    await expectRefused(await testVideo(t, "64x48", 240, 0.5), /^240fps videos are not supported$/);
  }, 30_000);

  test("an animated GIF of 36,001 frames (over MAX_VIDEO_FRAMES)", async () => {
    await expectRefused(manyFrameGif(1, 1, 36_001), /^Validation failed: File has too many frames \(36001; the limit is 36000\)$/);
  });

  test("a 115 KB GIF of 5,000 frames of 1000×1000 (five billion pixels to decode and encode)", async () => {
    const gif = manyFrameGif(1000, 1000, 5000);
    expect(gif.size).toBeLessThan(120_000);
    await expectRefused(gif, /^Validation failed: File has too many frames for its size \(5000 frames of 1000x1000; .*1000000000 pixels/);
  });

  test("within the limits, the same shapes are taken: a 3840×2160 video, a GIF of 100 frames of 1000×1000", async () => {
    const video = await postMedia(t, alice.token, { file: await testVideo(t, "3840x2160", 10, 0.1) });
    expect(video.status).toBe(202);
    expect((await waitProcessed(t, alice.token, ((await video.json()) as Json).id)).status).toBe(200);
    const gif = await postMedia(t, alice.token, { file: manyFrameGif(1000, 1000, 100) });
    expect(gif.status).toBe(202);
    const done = await waitProcessed(t, alice.token, ((await gif.json()) as Json).id);
    expect(done.status).toBe(200);
    expect(((await done.json()) as Json).type).toBe("gifv");
  }, 60_000);
});

describe("202, 206, 200", () => {
  test("v2 answers 202 with url null; GET 206 and a status with it 422 while it is processed; then 200 and postable", async () => {
    t.deps.jobs.pause();
    const res = await postMedia(t, alice.token, { file: file(await makeVideo(t), "clip.mp4", "video/mp4") });
    expect(res.status).toBe(202);
    const media = (await res.json()) as Json;
    expect(media.url).toBeNull();
    const pending = await showMedia(t, alice.token, media.id);
    expect(pending.status).toBe(206);
    expect(((await pending.json()) as Json).url).toBeNull();
    const early = await t.request("/api/v1/statuses", { method: "POST", token: alice.token, form: { status: "x", "media_ids[]": media.id } });
    expect(early.status).toBe(422);
    expect(((await early.json()) as Json).error).toMatch(/not finished processing/);
    t.deps.jobs.resume();
    const done = await waitProcessed(t, alice.token, media.id);
    expect(done.status).toBe(200);
    expect(((await done.json()) as Json).url).toEndWith(".mp4");
    const post = await t.request("/api/v1/statuses", { method: "POST", token: alice.token, form: { status: "x", "media_ids[]": media.id } });
    expect(post.status).toBe(200);
  }, 30_000);
});

describe("fairness between accounts", () => {
  test("bob's small video, uploaded after alice's five heavy ones, is ready while most of hers still wait", async () => {
    const heavy = await testVideo(t, "1280x720", 30, 12);
    const hers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await postMedia(t, alice.token, { file: heavy });
      expect(res.status).toBe(202);
      hers.push(((await res.json()) as Json).id);
    }
    const started = performance.now();
    const res = await postMedia(t, bob.token, { file: file(await makeVideo(t), "clip.mp4", "video/mp4") });
    expect(res.status).toBe(202);
    const his = await waitProcessed(t, bob.token, ((await res.json()) as Json).id);
    const seconds = (performance.now() - started) / 1000;
    expect(his.status).toBe(200);
    const statuses = await Promise.all(hers.map(async (id) => (await showMedia(t, alice.token, id)).status));
    // One of hers at a time: at least four of five still processing when his is done (first in, first out would
    // have run all five first), and his took seconds, not the minute hers take together.
    expect(statuses.filter((status) => status === 206).length).toBeGreaterThanOrEqual(4);
    expect(seconds).toBeLessThan(10);
    console.log(`bob's video ready in ${seconds.toFixed(1)} s; alice's: ${statuses.join(" ")}`);
    // Hers that wait are deleted (their jobs then have nothing to do), so the file ends quickly.
    for (const id of hers) await t.request(`/api/v1/media/${id}`, { method: "DELETE", token: alice.token });
    await t.deps.jobs.drain();
  }, 180_000);
});

describe("a transcode past its budget", () => {
  let small: TestApp;
  let carol: User;

  beforeAll(async () => {
    ({ t: small, carol } = await startMediaApp(["carol"], { WARREN_MEDIA_TRANSCODE_MAX_SECONDS: "1" }));
  });

  afterAll(async () => {
    await small?.close();
  });

  test("ffmpeg is killed at the cap: GET 422 with why, the waiting copy gone, and it cannot go on a status", async () => {
    // About 300 frames of 720p to encode: seconds of work on one thread.
    const slow = await testVideo(small, "1280x720", 30, 10);
    const res = await postMedia(small, carol.token, { file: slow });
    expect(res.status).toBe(202);
    const media = (await res.json()) as Json;
    const started = performance.now();
    const done = await waitProcessed(small, carol.token, media.id);
    expect({ status: done.status, body: await done.json() }).toEqual({ status: 422, body: { error: "Processing the file took too long" } });
    expect(performance.now() - started).toBeLessThan(6000);
    await small.deps.jobs.drain();
    expect(incomingCount(small)).toBe(0);
    const post = await small.request("/api/v1/statuses", { method: "POST", token: carol.token, form: { status: "x", "media_ids[]": media.id } });
    expect(post.status).toBe(422);
    // v1 waits for the same job, then refuses the upload with the same reason and keeps nothing.
    const records = mediaRecordCount(small);
    const v1 = await postMedia(small, carol.token, { file: slow }, "v1");
    expect({ status: v1.status, body: await v1.json() }).toEqual({ status: 422, body: { error: "Processing the file took too long" } });
    expect(mediaRecordCount(small)).toBe(records);
  }, 60_000);
});
