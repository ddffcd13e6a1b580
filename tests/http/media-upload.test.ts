// POST /api/v2/media and /api/v1/media, GET/PUT/DELETE /api/v1/media/:id, through HTTP as clients send
// them (multipart), with real images drawn by sharp and a real short video made by ffmpeg.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { BASE, type TestApp } from "../helpers/app.ts";
import { file, jpeg, makeVideo, postMedia, startMediaApp, waitProcessed, type Json, type User } from "../helpers/media.ts";

let t: TestApp;
let alice: User;

beforeAll(async () => {
  ({ t, alice } = await startMediaApp(["alice"]));
});
afterAll(() => t.close());

describe("images", () => {
  test("a JPEG is processed at once: 200, stored sizes, meta, blurhash, served files", async () => {
    const res = await postMedia(t, alice.token, { file: file(await jpeg(1200, 800), "photo.jpg", "image/jpeg"), description: "A red square on green", focus: "0.5,-0.25" });
    expect(res.status).toBe(200);
    const media = (await res.json()) as Json;
    expect(media.type).toBe("image");
    expect(media.url).toStartWith(`${BASE}/system/media_attachments/original/`);
    expect(media.preview_url).toStartWith(`${BASE}/system/media_attachments/small/`);
    expect(media.description).toBe("A red square on green");
    expect(media.meta.original).toEqual({ width: 1200, height: 800, size: "1200x800", aspect: 1.5 });
    expect(media.meta.small.width * media.meta.small.height).toBeLessThanOrEqual(640 * 360);
    expect(media.meta.focus).toEqual({ x: 0.5, y: -0.25 });
    expect(media.blurhash).toMatch(/^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{20,}$/);
    const served = await t.request(media.url.slice(BASE.length));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(1200);
  });
});

describe("video", () => {
  test("v2 answers 202 with url null, then GET goes 206 → 200 with video meta", async () => {
    const res = await postMedia(t, alice.token, { file: file(await makeVideo(t), "clip.mp4", "video/mp4") });
    expect(res.status).toBe(202);
    const media = (await res.json()) as Json;
    expect(media.url).toBeNull();
    const done = await waitProcessed(t, alice.token, media.id);
    expect(done.status).toBe(200);
    const ready = (await done.json()) as Json;
    expect(ready.type).toBe("video");
    expect(ready.url).toEndWith(".mp4");
    expect(ready.meta.original.duration).toBeGreaterThan(0.9);
    expect(ready.meta.width).toBe(160);
    expect(ready.blurhash).toBeString();
    const served = await t.request(ready.url.slice(BASE.length), { headers: { range: "bytes=0-99" } });
    expect(served.status).toBe(206);
    expect(served.headers.get("content-type")).toBe("video/mp4");
  });
});
