// Media test steps: a test app and users to upload as, real pictures drawn by sharp and a real short video
// made by ffmpeg, multipart uploads through POST /api/v{1,2}/media as clients send them, and the wait for a
// queued upload to be processed.
import { expect } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { findFfmpeg } from "../../src/media/ffmpeg.ts";
import { BASE, startTestApp, type TestApp } from "./app.ts";
import { signedInUser } from "./clients.ts";
import { eventually } from "./eventually.ts";

export type Json = Record<string, any>;
export type User = Awaited<ReturnType<typeof signedInUser>>;

/**
 * A test app whose jobs run on two worker threads, as in production (processing crosses threads), and a
 * signed-in user for each name: `const { t, alice } = await startMediaApp(["alice"])`.
 */
export async function startMediaApp<const Name extends string>(
  names: readonly Name[],
  env: Record<string, string> = {},
): Promise<{ t: TestApp } & Record<Name, User>> {
  const t = await startTestApp({ WARREN_JOB_WORKERS: "2", ...env });
  const users = {} as Record<Name, User>;
  for (const name of names) users[name] = await signedInUser(t, name);
  return { t, ...users };
}

// ---------------------------------------------------------------------------------------------- files

/** A picture of one colour, encoded by sharp. */
export async function solidImage(
  width: number,
  height: number,
  background: string | { r: number; g: number; b: number },
  format: "jpeg" | "png" = "jpeg",
): Promise<Uint8Array> {
  const image = sharp({ create: { width, height, channels: 3, background } });
  return new Uint8Array(await (format === "png" ? image.png() : image.jpeg()).toBuffer());
}

/** A JPEG with something to see: a red quarter on green. */
export async function jpeg(width: number, height: number): Promise<Uint8Array> {
  const quarter = { create: { width: Math.ceil(width / 2), height: Math.ceil(height / 2), channels: 3 as const, background: "#e52" } };
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: "#3a7" } })
      .composite([{ input: quarter, left: 0, top: 0 }])
      .jpeg()
      .toBuffer(),
  );
}

let shade = 0;
/** A small JPEG of a colour not drawn just before (so consecutive uploads are different files). */
export function freshJpeg(width = 64, height = 48): Promise<Uint8Array> {
  shade = (shade + 37) % 256;
  return solidImage(width, height, { r: shade, g: 255 - shade, b: 90 });
}

/** A short real video with sound (a silent one would be gifv, as on Mastodon), made by ffmpeg in the app's folder. */
export async function makeVideo(t: TestApp, size = "160x120", rate = 15): Promise<Uint8Array> {
  const tools = findFfmpeg()!;
  const out = join(t.dir, `made-${Math.random().toString(36).slice(2)}.mp4`);
  const proc = Bun.spawn([
    tools.ffmpeg, "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", `testsrc=size=${size}:rate=${rate}:duration=1`,
    "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-shortest", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-c:a", "aac", out,
  ]);
  expect(await proc.exited).toBe(0);
  return new Uint8Array(await Bun.file(out).arrayBuffer());
}

export const file = (bytes: Uint8Array | string, name = "upload.bin", type = "application/octet-stream") => new File([bytes], name, { type });

// ------------------------------------------------------------------------------------------- requests

export type Fields = Record<string, string | Blob> | [string, string | Blob][];

/** A multipart body with these fields (a list of pairs may repeat a name). */
export function multipart(fields: Fields): FormData {
  const body = new FormData();
  for (const [key, value] of Array.isArray(fields) ? fields : Object.entries(fields)) body.append(key, value);
  return body;
}

/** POST /api/{version}/media with these multipart fields. */
export const postMedia = (t: TestApp, token: string | undefined, fields: Fields, version: "v1" | "v2" = "v2") =>
  t.request(`/api/${version}/media`, { method: "POST", token, body: multipart(fields) });

/** PUT /api/v1/media/:id with these multipart fields. */
export const putMedia = (t: TestApp, token: string | undefined, id: string, fields: Fields) =>
  t.request(`/api/v1/media/${id}`, { method: "PUT", token, body: multipart(fields) });

/** GET /api/v1/media/:id (206 while still processing). */
export const showMedia = (t: TestApp, token: string | undefined, id: string) => t.request(`/api/v1/media/${id}`, { token });

/**
 * Uploads `upload` through POST /api/v2/media, with a description if given, and returns the attachment; fails
 * unless the answer is one of `accepted` (200, processed at once, as images are; a video on v2 is 202).
 */
export async function uploadFile(t: TestApp, token: string, upload: File, description?: string, accepted = [200]): Promise<Json> {
  const res = await postMedia(t, token, description === undefined ? { file: upload } : { file: upload, description });
  const text = await res.text();
  expect(accepted, `upload failed: ${res.status} ${text}`).toContain(res.status);
  return JSON.parse(text) as Json;
}

/** Uploads an image (`bytes`, or a fresh JPEG) as photo.jpg, expecting it processed at once (200). */
export async function uploadImage(t: TestApp, token: string, description?: string, bytes?: Uint8Array): Promise<Json> {
  return uploadFile(t, token, file(bytes ?? (await freshJpeg()), "photo.jpg", "image/jpeg"), description);
}

/** Polls GET /api/v1/media/:id while it answers 206 (still processing), and returns the first other answer. */
export async function waitProcessed(t: TestApp, token: string, id: string): Promise<Response> {
  return eventually(async () => {
    const res = await showMedia(t, token, id);
    return res.status === 206 ? undefined : res;
  }, { what: "the media to be processed" });
}

// ------------------------------------------------------------------------------------------- storage

/** The HTTP status a media file URL of the app is served with. */
export const servedStatus = async (t: TestApp, url: string) => (await t.request(url.slice(BASE.length))).status;

/** Whether the file behind a media URL of the app is in its data directory. */
export const storedOnDisk = (t: TestApp, url: string) => existsSync(join(t.deps.config.dataDir, "media", url.slice(`${BASE}/system/`.length)));

/** How many media records the store holds. */
export const mediaRecordCount = (t: TestApp) => t.deps.store.db.media.getCount();
