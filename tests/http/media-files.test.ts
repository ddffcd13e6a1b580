// GET and HEAD /system/*: stored files written with saveMediaFile (or adopted with adoptMediaFile) into the
// test app's data dir, fetched as a browser or a video player would: whole, by byte range, conditionally.
// Paths that could reach anything but a stored file are 404.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { adoptMediaFile, mediaFileSize, saveMediaFile } from "../../src/media/storage.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
/** 100 000 bytes that differ from one offset to the next, so a slice from the wrong place shows. */
const DATA = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7 + (i >> 8)) & 0xff);
let video: string;

beforeAll(async () => {
  t = await startTestApp();
  video = await saveMediaFile(t.deps.config, ["media_attachments", "files", "1"], "mp4", DATA);
});
afterAll(() => t.close());

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const get = (path: string, headers: Record<string, string> = {}) => t.request(path, { headers });
const head = (path: string, headers: Record<string, string> = {}) => t.request(path, { method: "HEAD", headers });
/** Every header but Date, which may tick between two requests. */
const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => name !== "date"));

describe("the whole file", () => {
  test("GET answers the bytes with caching, validators and safety headers", async () => {
    const res = await get(video);
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(DATA);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("content-length")).toBe("100000");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-z]+"$/);
    expect(res.headers.has("content-range")).toBe(false);
    const modified = Date.parse(res.headers.get("last-modified")!);
    expect(Math.abs(modified - Date.now())).toBeLessThan(60_000);
  });

  test("HEAD answers the same headers without a body", async () => {
    const full = await get(video);
    const res = await head(video);
    expect(res.status).toBe(200);
    expect(headersOf(res)).toEqual(headersOf(full));
    expect((await bytesOf(res)).length).toBe(0);
  });

  test("each file has its own ETag", async () => {
    const other = await saveMediaFile(t.deps.config, ["media_attachments", "files", "1"], "mp4", DATA);
    const [a, b] = await Promise.all([head(video), head(other)]);
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    expect((await head(video)).headers.get("etag")).toBe(a.headers.get("etag"));
  });

  test("content types by extension; other extensions are not served", async () => {
    const types: Record<string, string> = {
      png: "image/png",
      jpg: "image/jpeg",
      jpeg: "image/jpeg",
      gif: "image/gif",
      webp: "image/webp",
      avif: "image/avif",
      mp4: "video/mp4",
      webm: "video/webm",
      mp3: "audio/mpeg",
      ogg: "audio/ogg",
      oga: "audio/ogg",
    };
    for (const [extension, type] of Object.entries(types)) {
      const path = await saveMediaFile(t.deps.config, ["types"], extension, new Uint8Array([1, 2, 3]));
      const res = await get(path);
      expect({ extension, status: res.status, type: res.headers.get("content-type") }).toEqual({ extension, status: 200, type });
      expect(await bytesOf(res)).toEqual(new Uint8Array([1, 2, 3]));
    }
    for (const extension of ["txt", "html", "svg", "js", "mp4x", "tmp"]) {
      const path = await saveMediaFile(t.deps.config, ["types"], extension, new Uint8Array([1, 2, 3]));
      expect({ extension, status: (await get(path)).status }).toEqual({ extension, status: 404 });
    }
  });

  test("an empty file", async () => {
    const empty = await saveMediaFile(t.deps.config, ["empty"], "mp3", new Uint8Array());
    const res = await get(empty);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe("0");
    expect((await bytesOf(res)).length).toBe(0);
    // No range of nothing can be satisfied.
    const ranged = await get(empty, { range: "bytes=0-" });
    expect([ranged.status, ranged.headers.get("content-range")]).toEqual([416, "bytes */0"]);
  });
});

describe("byte ranges", () => {
  async function expectSlice(range: string, start: number, end: number, method: "GET" | "HEAD" = "GET") {
    const res = await t.request(video, { method, headers: { range } });
    expect({ range, status: res.status }).toEqual({ range, status: 206 });
    expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/100000`);
    expect(res.headers.get("content-length")).toBe(String(end - start + 1));
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("etag")).toBeString();
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const body = await bytesOf(res);
    expect(body).toEqual(method === "HEAD" ? new Uint8Array() : DATA.slice(start, end + 1));
  }

  test("bytes=a-b", async () => {
    await expectSlice("bytes=0-0", 0, 0);
    await expectSlice("bytes=0-99", 0, 99);
    await expectSlice("bytes=12345-67890", 12345, 67890);
    await expectSlice("bytes=99999-99999", 99999, 99999);
  });

  test("bytes=a-b past the end stops at the last byte", async () => {
    await expectSlice("bytes=99990-200000", 99990, 99999);
    await expectSlice(`bytes=5-${"9".repeat(400)}`, 5, 99999);
  });

  test("bytes=a-", async () => {
    await expectSlice("bytes=0-", 0, 99999);
    await expectSlice("bytes=65536-", 65536, 99999);
  });

  test("bytes=-n: the last n bytes, or all of them", async () => {
    await expectSlice("bytes=-1", 99999, 99999);
    await expectSlice("bytes=-500", 99500, 99999);
    await expectSlice("bytes=-100000", 0, 99999);
    await expectSlice("bytes=-250000", 0, 99999);
  });

  test("the unit is case-insensitive and spaces around the range are allowed", async () => {
    await expectSlice("Bytes=10-19", 10, 19);
    await expectSlice("bytes= 10-19", 10, 19);
  });

  test("HEAD with a range: the slice's headers without a body", async () => {
    await expectSlice("bytes=100-199", 100, 199, "HEAD");
    await expectSlice("bytes=-10", 99990, 99999, "HEAD");
  });

  test("a range that cannot be satisfied is 416 with the size", async () => {
    for (const range of ["bytes=100000-", "bytes=100000-100005", "bytes=250000-", `bytes=${"9".repeat(400)}-`, "bytes=-0"]) {
      for (const method of ["GET", "HEAD"]) {
        const res = await t.request(video, { method, headers: { range } });
        expect({ range, method, status: res.status }).toEqual({ range, method, status: 416 });
        expect(res.headers.get("content-range")).toBe("bytes */100000");
        expect((await bytesOf(res)).length).toBe(0);
      }
    }
  });

  test("an invalid Range is ignored: the whole file", async () => {
    const invalid = ["bytes=5-2", "bytes=-", "bytes=", "bytes=abc", "bytes=1-2x", "bytes=0x10-", "items=0-9", "0-9", "bytes 0-9", "bytes=-1-2", "bytes=1.5-3"];
    for (const range of invalid) {
      const res = await get(video, { range });
      expect({ range, status: res.status }).toEqual({ range, status: 200 });
      expect(res.headers.get("content-length")).toBe("100000");
      expect(res.headers.has("content-range")).toBe(false);
      expect(await bytesOf(res)).toEqual(DATA);
    }
  });

  test("several ranges: the whole file", async () => {
    for (const range of ["bytes=0-9,20-29", "bytes=0-9, 50-", "bytes=-5,0-1"]) {
      const res = await get(video, { range });
      expect({ range, status: res.status }).toEqual({ range, status: 200 });
      expect(await bytesOf(res)).toEqual(DATA);
    }
  });

  test("If-Range: the range when it names this file's ETag or date, otherwise the whole file", async () => {
    const { headers } = await head(video);
    const etag = headers.get("etag")!;
    await expect(get(video, { range: "bytes=0-9", "if-range": etag }).then((r) => r.status)).resolves.toBe(206);
    await expect(get(video, { range: "bytes=0-9", "if-range": headers.get("last-modified")! }).then((r) => r.status)).resolves.toBe(206);
    for (const ifRange of ['"something-else"', `W/${etag}`, "Thu, 01 Jan 1970 00:00:00 GMT"]) {
      const res = await get(video, { range: "bytes=0-9", "if-range": ifRange });
      expect({ ifRange, status: res.status }).toEqual({ ifRange, status: 200 });
      expect(await bytesOf(res)).toEqual(DATA);
    }
  });
});

describe("If-None-Match", () => {
  test("this file's ETag, weak or in a list, or * is 304 without a body", async () => {
    const etag = (await head(video)).headers.get("etag")!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"a", ${etag}`, "*"]) {
      for (const method of ["GET", "HEAD"]) {
        const res = await t.request(video, { method, headers: { "if-none-match": ifNoneMatch, range: "bytes=0-9" } });
        expect({ ifNoneMatch, method, status: res.status }).toEqual({ ifNoneMatch, method, status: 304 });
        expect(res.headers.get("etag")).toBe(etag);
        expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect((await bytesOf(res)).length).toBe(0);
      }
    }
  });

  test("another ETag gets the file", async () => {
    const res = await get(video, { "if-none-match": '"not-this-one"' });
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(DATA);
  });
});

describe("paths that are not stored files are 404", () => {
  test("missing files and folders", async () => {
    for (const path of ["/system/media_attachments/files/1/0123456789abcdef0123456789abcdef.mp4", "/system/media_attachments/files/1", "/system/nothing.png"]) {
      const res = await get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(await res.json()).toEqual({ error: "Record not found" });
      expect((await head(path)).status).toBe(404);
    }
  });

  test("traversal, encoded separators, backslashes, NUL bytes, dot files, absolute paths", async () => {
    const media = join(t.dir, "media");
    writeFileSync(join(t.dir, "secret.png"), "not for you");
    writeFileSync(join(media, "media_attachments", "files", "1", ".x.png.tmp"), "half written");
    writeFileSync(join(media, ".hidden.png"), "hidden");
    mkdirSync(join(media, "folder.png"), { recursive: true });
    const name = video.split("/").pop()!;
    const attempts = [
      "/system/../secret.png",
      "/system/..%2fsecret.png",
      "/system/%2e%2e%2fsecret.png",
      "/system/%2e%2e/secret.png",
      "/system/%2E%2E/%2E%2E/secret.png",
      "/system/media_attachments/..%2f..%2f..%2fsecret.png",
      "/system/media_attachments%2f..%2f..%2fsecret.png",
      "/system/media_attachments/files/..%5c..%5c..%5c..%5csecret.png",
      "/system/..\\secret.png", // a raw backslash is a slash in an http URL: this is /secret.png
      `/system/media_attachments/files%5c1%5c${name}`,
      `/system/media_attachments/files/1/${name}%00.png`,
      `/system/media_attachments/files/1/${name}%00`,
      "/system/media_attachments/files/1/.x.png.tmp",
      "/system/media_attachments/files/1/%2ex.png.tmp",
      "/system/.hidden.png",
      "/system/folder.png",
      "/system/%2Fetc%2Fpasswd",
      "/system//etc/passwd",
      `/system/${encodeURIComponent(join(t.dir, "secret.png"))}`,
      `/system/${join(t.dir, "secret.png")}`,
      "/system/C:%5Csecret.png",
      "/system/warren.lmdb/data.mdb",
      `/system/media_attachments/files/01/${name}`,
      "/system/%E0%A4%A",
    ];
    for (const path of attempts) {
      expect({ path, status: (await get(path)).status }).toEqual({ path, status: 404 });
      expect({ path, status: (await head(path)).status }).toEqual({ path, status: 404 });
    }
    expect((await get(video)).status).toBe(200);
  });
});

describe("adoptMediaFile", () => {
  test("moves a file from the data dir into storage and serves it", async () => {
    const work = join(t.dir, "work");
    mkdirSync(work, { recursive: true });
    const source = join(work, "transcoded.mp4");
    const content = DATA.slice(0, 4321);
    writeFileSync(source, content);
    const path = await adoptMediaFile(t.deps.config, ["media_attachments", "files", "2"], "mp4", source);
    expect(path).toMatch(/^\/system\/media_attachments\/files\/2\/[0-9a-f]{32}\.mp4$/);
    expect(existsSync(source)).toBe(false);
    expect(readdirSync(join(t.dir, "media", "media_attachments", "files", "2"))).toEqual([path.split("/").pop()!]);
    expect(await mediaFileSize(t.deps.config, path)).toBe(4321);
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(await bytesOf(res)).toEqual(content);
    const ranged = await get(path, { range: "bytes=4300-" });
    expect(ranged.headers.get("content-range")).toBe("bytes 4300-4320/4321");
    expect(await bytesOf(ranged)).toEqual(content.slice(4300));
  });
});

test("the OpenAPI document describes GET and HEAD with their answers", async () => {
  const spec = (await (await t.request("/openapi/json")).json()) as any;
  const route = spec.paths["/system/*"];
  for (const method of ["get", "head"]) {
    expect(route[method].summary).toBeString();
    expect(Object.keys(route[method].responses)).toEqual(expect.arrayContaining(["200", "206", "304", "404", "416"]));
  }
});
