// POST /api/v2/media and /api/v1/media, GET/PUT/DELETE /api/v1/media/:id, through HTTP as clients send
// them (multipart), with real images drawn by sharp and a real short video made by ffmpeg.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import sharp from "sharp";
import { findFfmpeg } from "../../src/media/ffmpeg.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";

let t: TestApp;
let alice: Awaited<ReturnType<typeof signedInUser>>;


beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  alice = await signedInUser(t, "alice");

});
afterAll(() => t.close());

type Json = Record<string, any>;
const BASE = "http://localhost:3000";

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#3a7" } })
    .composite([{ input: { create: { width: Math.ceil(width / 2), height: Math.ceil(height / 2), channels: 3, background: "#e52" } }, left: 0, top: 0 }])
    .jpeg()
    .toBuffer();

function form(fields: Record<string, string | Blob>): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  return body;
}

const file = (bytes: Uint8Array | string, name = "upload.bin", type = "application/octet-stream") => new File([bytes], name, { type });

const upload = (fields: Record<string, string | Blob>, token = alice.token, version = "v2") =>
  t.request(`/api/${version}/media`, { method: "POST", token, body: form(fields) });

/** A short real video with sound, made by ffmpeg. */
async function makeVideo(): Promise<Uint8Array> {
  const tools = findFfmpeg()!;
  const out = join(t.dir, `made-${Math.random().toString(36).slice(2)}.mp4`);
  const proc = Bun.spawn([tools.ffmpeg, "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=15:duration=1", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-shortest", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-c:a", "aac", out]);
  expect(await proc.exited).toBe(0);
  return new Uint8Array(await Bun.file(out).arrayBuffer());
}

async function waitProcessed(id: string, token = alice.token): Promise<Response> {
  for (let i = 0; i < 300; i++) {
    const res = await t.request(`/api/v1/media/${id}`, { token });
    if (res.status !== 206) return res;
    await Bun.sleep(50);
  }
  throw new Error("still processing");
}

describe("images", () => {
  test("a JPEG is processed at once: 200, stored sizes, meta, blurhash, served files", async () => {
    const res = await upload({ file: file(await jpeg(1200, 800), "photo.jpg", "image/jpeg"), description: "A red square on green", focus: "0.5,-0.25" });
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
    const res = await upload({ file: file(await makeVideo(), "clip.mp4", "video/mp4") });
    expect(res.status).toBe(202);
    const media = (await res.json()) as Json;
    expect(media.url).toBeNull();
    const done = await waitProcessed(media.id);
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
