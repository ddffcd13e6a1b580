// Media on S3-compatible object storage (WARREN_S3_*), against a real S3-API server on loopback (s3rver):
// uploads (an image at once, a video through the worker threads' job), previews, avatars and custom emoji go to
// the bucket and the API's URLs point to its public URL; deleting a status, `media remove` and
// `remove-orphans` delete objects; `media migrate` moves files both ways and the URLs follow; a backup names
// the bucket instead of copying; a half-given configuration is refused.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { importEmoji } from "../../src/domain/emojis/import.ts";
import type { TestApp } from "../helpers/app.ts";
import { runCommand } from "../helpers/cli.ts";
import { BASE, startTestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";
import { eventually } from "../helpers/eventually.ts";
import { file, makeVideo, startMediaApp, uploadFile, uploadImage, waitProcessed, type Json, type User } from "../helpers/media.ts";
import { startTestBucket, type TestBucket } from "../helpers/s3.ts";
import { call, postStatus } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startTestBucket();
});
afterAll(() => bucket.close());

const keyOf = (url: string) => url.slice(bucket.publicUrl.length + 1);
const inBucket = (url: string) => bucket.client.exists(keyOf(url));

/** `warren <args>` on `dataDir` as the instance at BASE, with `env` (the bucket's, unless told). */
const warren = (dataDir: string, args: string[], env: Record<string, string> = bucket.env) =>
  runCommand([process.execPath, "src/main.ts", ...args], { env: { ...process.env, WARREN_DATA_DIR: dataDir, WARREN_URL: BASE, WARREN_LOG: "off", ...env } });

/** Files under the data directory's media folder (none while media live in the bucket). */
function localMediaFiles(dataDir: string): string[] {
  const root = join(dataDir, "media");
  return existsSync(root) ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];
}

describe("with WARREN_S3_* set", () => {
  let t: TestApp;
  let alice: User;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "warren-s3-"));
    ({ t, alice } = await startMediaApp(["alice"], { ...bucket.env, WARREN_DATA_DIR: dataDir }));
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("an image upload: url and preview_url are in the bucket's public URL, fetchable there, and nothing is on disk", async () => {
    const media = await uploadImage(t, alice.token, "in the bucket");
    for (const url of [media.url, media.preview_url] as string[]) {
      expect(url).toStartWith(`${bucket.publicUrl}/media_attachments/`);
      expect(await inBucket(url)).toBe(true);
      const served = await fetch(url);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/jpeg");
      expect((await sharp(new Uint8Array(await served.arrayBuffer())).metadata()).format).toBe("jpeg");
    }
    expect(localMediaFiles(dataDir)).toEqual([]);
    // An old /system/ URL (a federated copy, a client's cache) is sent on to the bucket; a path we never write is 404.
    const path = `/system/${keyOf(media.url)}`;
    for (const method of ["GET", "HEAD"]) {
      const res = await t.request(path, { method });
      expect({ method, status: res.status, location: res.headers.get("location") }).toEqual({ method, status: 302, location: media.url });
    }
    for (const never of ["/system/media_attachments/a%2Fb.png", "/system/media_attachments/x.exe", "/system/.hidden/x.png"]) {
      expect({ never, status: (await t.request(never)).status }).toEqual({ never, status: 404 });
    }
  });

  test("a video is transcoded by a worker thread and lands in the bucket, with its preview", async () => {
    const video = await makeVideo(t);
    const queued = await uploadFile(t, alice.token, file(video, "clip.mp4", "video/mp4"), undefined, [202]);
    const media = (await (await waitProcessed(t, alice.token, queued.id)).json()) as Json;
    expect(media.type).toBe("video");
    expect(media.url).toStartWith(`${bucket.publicUrl}/media_attachments/original/`);
    expect(media.url).toEndWith(".mp4");
    expect(media.preview_url).toStartWith(`${bucket.publicUrl}/media_attachments/small/`);
    const stored = await bucket.client.stat(keyOf(media.url));
    expect(stored.size).toBeGreaterThan(1000);
    expect(stored.type).toBe("video/mp4");
    expect(await inBucket(media.preview_url)).toBe(true);
    expect(localMediaFiles(dataDir)).toEqual([]);
    // The waiting copy (local scratch, never published) is removed once the job finished.
    await t.deps.jobs.drain();
    expect(existsSync(join(dataDir, "incoming")) ? readdirSync(join(dataDir, "incoming")) : []).toEqual([]);
  });

  test("deleting a status (delete_media=true) deletes its attachments' objects once the removal job ran", async () => {
    const media = await uploadImage(t, alice.token, "short-lived");
    const status = await postStatus(t, alice, { status: "with a picture", media_ids: [media.id] });
    expect(status.media_attachments[0].url).toBe(media.url);
    expect([await inBucket(media.url), await inBucket(media.preview_url)]).toEqual([true, true]);
    expect((await call(t, "DELETE", `/api/v1/statuses/${status.id}?delete_media=true`, alice.token)).status).toBe(200);
    await t.deps.jobs.drain();
    await eventually(async () => !(await inBucket(media.url)) && !(await inBucket(media.preview_url)), { what: "the objects deleted" });
  });

  test("an avatar (in the API and the ActivityPub actor) and a custom emoji go to the bucket too", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3a7" } }).png().toBuffer();
    const form = new FormData();
    form.append("avatar", new File([png], "me.png", { type: "image/png" }));
    const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: alice.token, body: form });
    expect(res.status).toBe(200);
    const account = (await res.json()) as Json;
    expect(account.avatar).toStartWith(`${bucket.publicUrl}/accounts/avatars/`);
    expect(await inBucket(account.avatar)).toBe(true);
    // Federation shows the same URL: the actor's icon.
    const actor = (await (await t.request("/users/alice", { headers: { accept: "application/activity+json" } })).json()) as Json;
    expect(actor.icon.url).toBe(account.avatar);

    await importEmoji(t.deps, png, "bucket_blob");
    const emojis = (await (await t.request("/api/v1/custom_emojis")).json()) as Json[];
    const emoji = emojis.find((e) => e.shortcode === "bucket_blob")!;
    for (const url of [emoji.url, emoji.static_url]) {
      expect(url).toStartWith(`${bucket.publicUrl}/`);
      expect((await fetch(url)).status).toBe(200);
    }
  });

  test("`media remove` and `media remove-orphans` delete objects", async () => {
    const loose = await uploadImage(t, alice.token, "never posted");
    const stray = "media_attachments/original/100000000000000000/0123456789abcdef0123456789abcdef.png";
    await bucket.client.write(stray, "left by a crash", { type: "image/png" });
    const removed = await warren(dataDir, ["media", "remove", "--days=0"]);
    expect(removed.stdout).toMatch(/^OK, removed \d+ unattached media attachments\n$/);
    expect(await inBucket(loose.url)).toBe(false);
    expect(await inBucket(loose.preview_url)).toBe(false);
    const orphans = await warren(dataDir, ["media", "remove-orphans"]);
    expect(orphans.stdout).toBe("OK, removed the files of 1 media attachments that no longer exist\n");
    expect(await bucket.client.exists(stray)).toBe(false);
  });

  test("a backup records the bucket and copies no media file", async () => {
    const target = join(dataDir, "..", `backup-${Date.now()}`);
    try {
      const run = await warren(dataDir, ["backup", `--to=${target}`]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`they live in the bucket ${bucket.bucket}`);
      const manifest = JSON.parse(readFileSync(join(target, "manifest.json"), "utf8"));
      expect(manifest.mediaBucket).toEqual({ endpoint: bucket.endpoint, bucket: bucket.bucket, publicUrl: bucket.publicUrl });
      expect(manifest.files.filter((f: Json) => f.path.startsWith("media/"))).toEqual([]);
      expect(JSON.stringify(manifest)).not.toContain("S3RVER"); // no credentials in a backup
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});

describe("warren media migrate", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "warren-migrate-"));
  // A bucket of its own: migrate moves everything in it.
  let own: TestBucket;
  beforeAll(async () => {
    own = await startTestBucket("moved-media");
  });
  afterAll(async () => {
    await own.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs `steps` against an app on `dataDir` (jobs on worker threads), local or on the bucket, then closes it (the data stay). */
  async function withApp<T>(env: Record<string, string>, steps: (t: TestApp) => Promise<T>): Promise<T> {
    const t = await startTestApp({ WARREN_JOB_WORKERS: "2", ...env, WARREN_DATA_DIR: dataDir });
    try {
      return await steps(t);
    } finally {
      await t.close();
    }
  }
  const showStatus = async (t: TestApp, token: string, id: string): Promise<Json> => (await call(t, "GET", `/api/v1/statuses/${id}`, token)).body;

  test("--to=s3 moves the files into the bucket, --to=local back, and the API's URLs follow", async () => {
    const { statusId, token, media } = await withApp({}, async (t) => {
      const alice = await signedInUser(t, "alice");
      const media = await uploadImage(t, alice.token, "moving house");
      const status = await postStatus(t, alice, { status: "picture", media_ids: [media.id] });
      return { statusId: status.id as string, token: alice.token, media };
    });
    expect(media.url).toStartWith(`${BASE}/system/media_attachments/`);
    const names = localMediaFiles(dataDir).sort();
    expect(names.length).toBe(2);

    const toBucket = await warren(dataDir, ["media", "migrate", "--to=s3"], own.env);
    expect({ code: toBucket.code, stderr: toBucket.stderr.includes("100%") }).toEqual({ code: 0, stderr: true });
    expect(toBucket.stdout).toMatch(/^OK, moved 2 media files \(\d+\.\d MB\) to the bucket moved-media\n$/);
    expect(localMediaFiles(dataDir)).toEqual([]);

    await withApp(own.env, async (t) => {
      const attachment = (await showStatus(t, token, statusId)).media_attachments[0];
      expect(attachment.url).toBe(`${own.publicUrl}/${media.url.slice(`${BASE}/system/`.length)}`);
      expect(attachment.preview_url).toBe(`${own.publicUrl}/${media.preview_url.slice(`${BASE}/system/`.length)}`);
      for (const url of [attachment.url, attachment.preview_url]) expect((await fetch(url)).status).toBe(200);
    });

    const back = await warren(dataDir, ["media", "migrate", "--to=local"], own.env);
    expect(back.stderr.replace(/^Moving.*\n/gm, "")).toBe("");
    expect(back.stdout).toMatch(/^OK, moved 2 media files \(\d+\.\d MB\) to the data directory\n$/);
    expect(localMediaFiles(dataDir).sort()).toEqual(names);
    expect(await own.keys()).toEqual([]);

    await withApp({}, async (t) => {
      const attachment = (await showStatus(t, token, statusId)).media_attachments[0];
      expect([attachment.url, attachment.preview_url]).toEqual([media.url, media.preview_url]);
      for (const url of [attachment.url, attachment.preview_url]) expect((await t.request(url.slice(BASE.length))).status).toBe(200);
    });
  });

  test("without a bucket configured it says what to set (exit 1); a bad --to is a usage error (64)", async () => {
    const none = await warren(dataDir, ["media", "migrate", "--to=s3"], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("WARREN_S3_ENDPOINT");
    expect((await warren(dataDir, ["media", "migrate", "--to=ftp"])).code).toBe(64);
    expect((await warren(dataDir, ["media", "migrate"])).code).toBe(64);
  });
});

describe("configuration", () => {
  test("all or nothing: a partial WARREN_S3_* set is refused, naming what is missing; bad URLs and buckets too", () => {
    const full = bucket.env;
    expect(loadConfig({ ...full }).s3).toEqual({
      endpoint: bucket.endpoint,
      bucket: bucket.bucket,
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      publicUrl: bucket.publicUrl,
    });
    expect(loadConfig({}).s3).toBeNull();
    for (const name of ["WARREN_S3_ENDPOINT", "WARREN_S3_BUCKET", "WARREN_S3_ACCESS_KEY_ID", "WARREN_S3_SECRET_ACCESS_KEY", "WARREN_S3_PUBLIC_URL"]) {
      const partial = { ...full, [name]: "" };
      expect(() => loadConfig(partial)).toThrow(ConfigError);
      expect(() => loadConfig(partial)).toThrow(name);
    }
    expect(() => loadConfig({ WARREN_S3_REGION: "eu-west-1" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...full, WARREN_S3_PUBLIC_URL: "cdn.example" })).toThrow("WARREN_S3_PUBLIC_URL");
    expect(() => loadConfig({ ...full, WARREN_S3_ENDPOINT: "ftp://s3.example" })).toThrow("WARREN_S3_ENDPOINT");
    expect(() => loadConfig({ ...full, WARREN_S3_BUCKET: "Bad_Bucket" })).toThrow("WARREN_S3_BUCKET");
    expect(loadConfig({ ...full, WARREN_S3_PUBLIC_URL: "https://cdn.example/media/" }).s3!.publicUrl).toBe("https://cdn.example/media");
  });
});
