// Avatar and header uploads through PATCH /api/v1/accounts/update_credentials (multipart, as clients send
// them), DELETE /api/v1/profile/avatar|header, and serving the stored files at GET /system/*.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";

let t: TestApp;
let user: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await startTestApp();
  user = await signedInUser(t, "painter");
});
afterAll(() => t.close());

type Json = Record<string, any>;
const BASE = "http://localhost:3000";

function solid(width: number, height: number, options: { alpha?: boolean } = {}) {
  const background = options.alpha ? { r: 200, g: 80, b: 40, alpha: 0.5 } : "#8a5";
  return sharp({ create: { width, height, channels: options.alpha ? 4 : 3, background } });
}

const png = (width: number, height: number, options: { alpha?: boolean } = {}) => solid(width, height, options).png().toBuffer();

function form(fields: Record<string, string | Blob>): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  return body;
}

const blob = (bytes: Uint8Array | string, type = "image/png") => new Blob([bytes], { type });

function upload(fields: Record<string, string | Blob>, token = user.token) {
  return t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token, body: form(fields) });
}

async function uploaded(fields: Record<string, string | Blob>): Promise<Json> {
  const res = await upload(fields);
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

/** GET of a URL the API answered, through the app. */
const fetchUrl = (url: string) => t.request(url.slice(BASE.length));

async function served(url: string) {
  const res = await fetchUrl(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  const bytes = Buffer.from(await res.arrayBuffer());
  return { type: res.headers.get("content-type"), meta: await sharp(bytes).metadata() };
}

const fileOf = (url: string) => join(t.dir, "media", url.slice(`${BASE}/system/`.length));
const accountDir = (kind: "avatars" | "headers") => join(t.dir, "media", "accounts", kind, user.id.padStart(18, "0"));
const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

describe("avatar", () => {
  test("an opaque image becomes a centred square JPEG of at most 400 px", async () => {
    const body = await uploaded({ avatar: blob(await png(1000, 800)), avatar_description: "A green square" });
    expect(body.avatar).toMatch(new RegExp(`^${BASE}/system/accounts/avatars/0*${user.id}/[0-9a-f]{32}\\.jpg$`));
    expect(body.avatar_static).toBe(body.avatar);
    expect(body.avatar_description).toBe("A green square");
    const { type, meta } = await served(body.avatar);
    expect(type).toBe("image/jpeg");
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 400, 400]);
    // Every view of the account points to the same file.
    const me = (await (await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).json()) as Json;
    const shown = (await (await t.request(`/api/v1/accounts/${user.id}`)).json()) as Json;
    expect([me.avatar, shown.avatar, shown.avatar_static]).toEqual([body.avatar, body.avatar, body.avatar]);
  });

  test("small images are cropped, never enlarged; alpha keeps PNG", async () => {
    const body = await uploaded({ avatar: blob(await png(64, 40, { alpha: true })) });
    expect(body.avatar).toEndWith(".png");
    const { type, meta } = await served(body.avatar);
    expect(type).toBe("image/png");
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([40, 40, true]);
  });

  test("the content decides, not the declared type: a WebP sent as image/jpeg, an AVIF", async () => {
    const webp = await solid(120, 120).webp().toBuffer();
    expect((await served((await uploaded({ avatar: blob(webp, "image/jpeg") })).avatar)).meta.width).toBe(120);
    const avif = await solid(50, 90).avif().toBuffer();
    expect((await served((await uploaded({ avatar: blob(avif, "application/octet-stream") })).avatar)).meta.width).toBe(50);
  });

  test("EXIF orientation is applied and metadata is stripped", async () => {
    const sideways = await solid(200, 100).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const body = await uploaded({ header: blob(sideways, "image/jpeg") });
    const { meta } = await served(body.header);
    expect([meta.width, meta.height]).toEqual([100, 200]);
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
  });

  test("an animated GIF keeps its first frame as a still image", async () => {
    const frames = await Promise.all(["#f00", "#00f"].map((c) => sharp({ create: { width: 30, height: 20, channels: 3, background: c } }).png().toBuffer()));
    const gif = await sharp(frames, { join: { animated: true } }).gif().toBuffer();
    const body = await uploaded({ avatar: blob(gif, "image/gif") });
    expect(body.avatar_static).toBe(body.avatar);
    const res = await fetchUrl(body.avatar);
    const still = sharp(Buffer.from(await res.arrayBuffer()));
    const meta = await still.metadata();
    expect([meta.format, meta.pages ?? 1, meta.width, meta.height]).toEqual(["png", 1, 20, 20]);
    const { dominant } = await still.stats();
    expect(dominant.r).toBeGreaterThan(200);
    expect(dominant.b).toBeLessThan(50);
  });

  test("a replaced avatar's file is deleted; the new one stays", async () => {
    const first = (await uploaded({ avatar: blob(await png(100, 100)) })).avatar as string;
    expect(existsSync(fileOf(first))).toBe(true);
    const second = (await uploaded({ avatar: blob(await png(90, 90)) })).avatar as string;
    expect(second).not.toBe(first);
    expect(existsSync(fileOf(first))).toBe(false);
    expect((await fetchUrl(first)).status).toBe(404);
    expect(filesIn(accountDir("avatars"))).toEqual([second.split("/").pop()!]);
  });

  test("an empty file field changes nothing", async () => {
    const before = (await (await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).json()) as Json;
    const body = await uploaded({ avatar: "", display_name: "Painter" });
    expect(body.display_name).toBe("Painter");
    expect(body.avatar).toBe(before.avatar);
  });
});

describe("header", () => {
  test("large headers shrink to 1500×500 pixels or fewer, keeping their shape", async () => {
    const wide = await uploaded({ header: blob(await png(3000, 1000, { alpha: true })) });
    expect(wide.header).toMatch(new RegExp(`^${BASE}/system/accounts/headers/0*${user.id}/[0-9a-f]{32}\\.png$`));
    expect(wide.header_static).toBe(wide.header);
    expect((await served(wide.header)).meta).toMatchObject({ width: 1500, height: 500 });
    const square = await uploaded({ header: blob(await solid(2000, 2000).jpeg().toBuffer(), "image/jpeg") });
    const { type, meta } = await served(square.header);
    expect(type).toBe("image/jpeg");
    expect([meta.width, meta.height]).toEqual([866, 866]);
    expect(existsSync(fileOf(wide.header))).toBe(false);
  });

  test("small headers are kept as they are; avatar and header in one request", async () => {
    const body = await uploaded({ header: blob(await png(600, 200)), avatar: blob(await png(300, 300)), header_description: "Hills" });
    expect((await served(body.header)).meta).toMatchObject({ width: 600, height: 200 });
    expect((await served(body.avatar)).meta).toMatchObject({ width: 300, height: 300 });
    expect(body.header_description).toBe("Hills");
  });
});

describe("bad uploads are 422 and change nothing", () => {
  async function rejected(fields: Record<string, string | Blob>, token = user.token) {
    const before = (await (await t.request("/api/v1/accounts/verify_credentials", { token })).json()) as Json;
    const files = [...filesIn(accountDir("avatars")), ...filesIn(accountDir("headers"))];
    const res = await upload(fields, token);
    expect(res.status).toBe(422);
    const after = (await (await t.request("/api/v1/accounts/verify_credentials", { token })).json()) as Json;
    expect(after).toEqual(before);
    expect([...filesIn(accountDir("avatars")), ...filesIn(accountDir("headers"))]).toEqual(files);
    return res.json();
  }

  const invalid = (field: string) => ({
    error: `Validation failed: ${field[0]!.toUpperCase()}${field.slice(1)} content type is invalid`,
    details: { [field]: [{ error: "ERR_INVALID", description: "content type is invalid" }] },
  });

  test("text claiming to be an image, SVG, TIFF, a truncated PNG", async () => {
    expect(await rejected({ avatar: blob("hello, I am not a picture") })).toEqual(invalid("avatar"));
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    expect(await rejected({ header: blob(svg, "image/svg+xml") })).toEqual(invalid("header"));
    expect(await rejected({ avatar: blob(await solid(20, 20).tiff().toBuffer(), "image/tiff") })).toEqual(invalid("avatar"));
    const whole = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#123" } }).png({ compressionLevel: 0 }).toBuffer();
    expect(await rejected({ avatar: blob(whole.subarray(0, whole.length / 2)) })).toEqual(invalid("avatar"));
  });

  test("an avatar that is not a file", async () => {
    const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: user.token, json: { avatar: "https://example.com/cat.png" } });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual(invalid("avatar"));
  });

  test("files of 8 MB or more", async () => {
    const big = new Uint8Array(8 * 1024 * 1024);
    big.set(await png(10, 10));
    expect(await rejected({ avatar: blob(big), header: blob(big) })).toEqual({
      error: "Validation failed: Avatar file size must be less than 8 MB, Header file size must be less than 8 MB",
      details: {
        avatar: [{ error: "ERR_LESS_THAN", description: "file size must be less than 8 MB" }],
        header: [{ error: "ERR_LESS_THAN", description: "file size must be less than 8 MB" }],
      },
    });
  });

  test("more pixels than the image matrix limit", async () => {
    // A real PNG whose header claims 8000×5000: refused from the header, before any decoding.
    const bytes = new Uint8Array(await png(8, 5));
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    view.setUint32(16, 8000);
    view.setUint32(20, 5000);
    view.setUint32(29, Bun.hash.crc32(bytes.subarray(12, 29)));
    expect(await rejected({ avatar: blob(bytes) })).toEqual({
      error: "Validation failed: Avatar dimensions are too large (maximum is 33177600 pixels)",
      details: { avatar: [{ error: "ERR_INVALID", description: "dimensions are too large (maximum is 33177600 pixels)" }] },
    });
  });

  test("a good image with another invalid field: every problem listed, nothing saved", async () => {
    expect(await rejected({ avatar: blob(await png(50, 50)), header: blob("nope"), display_name: "d".repeat(31) })).toEqual({
      error: "Validation failed: Display name is too long (maximum is 30 characters), Header content type is invalid",
      details: {
        display_name: [{ error: "ERR_TOO_LONG", description: "is too long (maximum is 30 characters)" }],
        header: [{ error: "ERR_INVALID", description: "content type is invalid" }],
      },
    });
  });
});

describe("avatar_description and header_description", () => {
  test("limited as the instance reports: the limit is accepted, one more is 422 naming the field", async () => {
    const instance = (await (await t.request("/api/v2/instance")).json()) as Json;
    const limits = instance.configuration.accounts;
    for (const [field, limit] of [["avatar_description", limits.max_avatar_description_length], ["header_description", limits.max_header_description_length]] as const) {
      expect(limit).toBe(150);
      const exact = "é".repeat(limit);
      const body = await uploaded({ [field]: exact });
      expect(body[field]).toBe(exact);
      const tooLong = await upload({ [field]: `${exact}x` });
      expect(tooLong.status).toBe(422);
      expect(((await tooLong.json()) as Json).error).toContain(field.replace("_", " ").replace(/^./, (c) => c.toUpperCase()).split(" ")[0]!);
      const me = (await (await t.request("/api/v1/accounts/verify_credentials", { token: user.token })).json()) as Json;
      expect(me[field]).toBe(exact);
    }
  });
});

describe("DELETE /api/v1/profile/avatar and /header", () => {
  test("back to the default images; the files are deleted", async () => {
    const body = await uploaded({ avatar: blob(await png(80, 80)), header: blob(await png(900, 300)) });
    for (const kind of ["avatar", "header"] as const) {
      const res = await t.request(`/api/v1/profile/${kind}`, { method: "DELETE", token: user.token });
      expect(res.status).toBe(200);
      const after = (await res.json()) as Json;
      expect(after[kind]).toBe(`${BASE}/${kind}s/original/missing.png`);
      expect(after[`${kind}_static`]).toBe(`${BASE}/${kind}s/original/missing.png`);
      expect(after.source).toBeObject();
      expect(existsSync(fileOf(body[kind]))).toBe(false);
    }
    expect(filesIn(accountDir("avatars"))).toEqual([]);
    expect(filesIn(accountDir("headers"))).toEqual([]);
    // Removing again is harmless.
    expect((await t.request("/api/v1/profile/avatar", { method: "DELETE", token: user.token })).status).toBe(200);
  });

  test("need a user token with write:accounts", async () => {
    const reader = await signedInUser(t, "reader", "read");
    expect((await t.request("/api/v1/profile/avatar", { method: "DELETE" })).status).toBe(401);
    const res = await t.request("/api/v1/profile/header", { method: "DELETE", token: reader.token });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "This action is outside the authorized scopes" });
  });

  test("uploads need write:accounts too", async () => {
    const reader = await signedInUser(t, "looker", "read");
    const res = await upload({ avatar: blob(await png(10, 10)) }, reader.token);
    expect(res.status).toBe(403);
    expect(filesIn(join(t.dir, "media", "accounts", "avatars"))).not.toContain(reader.id.padStart(18, "0"));
  });
});

describe("GET /system/*", () => {
  test("paths outside the stored files are 404", async () => {
    writeFileSync(join(t.dir, "secret.png"), "not for you");
    const body = await uploaded({ avatar: blob(await png(30, 30)) });
    const stored = body.avatar.slice(BASE.length) as string;
    expect(stored).toEndWith(".jpg");
    const name = stored.split("/").pop()!;
    const attempts = [
      "/system/..%2fsecret.png",
      "/system/%2e%2e%2fsecret.png",
      "/system/accounts/..%2f..%2f..%2fsecret.png",
      "/system/accounts%2f..%2f..%2fsecret.png",
      "/system/%2e%2e/secret.png",
      "/system/accounts/avatars/..%5c..%5c..%5csecret.png",
      "/system/%2Fetc%2Fpasswd",
      "/system//etc/passwd",
      "/system/accounts/avatars",
      "/system/accounts/avatars/missing.png",
      "/system/warren.lmdb/data.mdb",
      `/system/accounts/avatars/0${user.id}/${name}`,
      `/system/accounts/avatars/${user.id.padStart(18, "0")}/.${name}.tmp`,
      stored.replace(/\.jpg$/, ".txt"),
      `${stored}%00.png`,
      "/system/%E0%A4%A",
    ];
    for (const path of attempts) {
      const res = await t.request(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    const res = await t.request("/system/..%2fsecret.png");
    expect(await res.json()).toEqual({ error: "Record not found" });
    expect((await t.request(stored)).status).toBe(200);
  });

  test("answers with the file's content type and nosniff", async () => {
    const body = await uploaded({ avatar: blob(await png(30, 30, { alpha: true })) });
    const res = await fetchUrl(body.avatar);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });
});
