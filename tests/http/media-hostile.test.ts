// Hostile uploads to POST /api/v2/media and /api/v1/media and hostile edits through PUT /api/v1/media/:id, sent
// as a careless client or an attacker would: broken and lying files, files too large in bytes or in pixels,
// playlists, over-long descriptions, bad focal points, forbidden field names, a flood. Each refusal must be a
// plain `{"error": …}` (422, or 413/400 where a plugin answers), quickly, never a 500, and must leave neither a
// record nor a file behind. Job workers run on threads, as in production.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { MEDIA_LIMITS } from "../../src/domain/limits.ts";
import type { TestApp } from "../helpers/app.ts";
import {
  file, jpeg, makeVideo, mediaRecordCount, postMedia, putMedia, showMedia, solidImage, startMediaApp, waitProcessed,
  type Fields, type Json, type User,
} from "../helpers/media.ts";

let t: TestApp;
let alice: User;
let realJpeg: Uint8Array;
let smallPng: Uint8Array;

beforeAll(async () => {
  ({ t, alice } = await startMediaApp(["alice"]));
  realJpeg = await jpeg(320, 240);
  smallPng = await solidImage(8, 8, "#08f", "png");
});
afterAll(() => t.close());

// ---------------------------------------------------------------------------------------------- helpers

const upload = (fields: Fields, version: "v1" | "v2" = "v2") => postMedia(t, alice.token, fields, version);
const update = (id: string, fields: Fields) => putMedia(t, alice.token, id, fields);
const show = (id: string) => showMedia(t, alice.token, id);

/** Every file under the given folders of the data directory, relative to it. */
function filesUnder(...folders: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(t.dir, path));
    }
  };
  for (const folder of folders) walk(join(t.dir, folder));
  return out.sort();
}

const storedFiles = () => filesUnder(join("media", "media_attachments"), "incoming", "tmp");
/** Waits (briefly) for the stored files to be `expected`: a job tidies up just after its write commits. */
async function filesBecome(expected: string[]): Promise<void> {
  await eventually(() => storedFiles().join() === expected.join(), { timeoutMs: 2_000 }).catch(() => {});
  expect(storedFiles()).toEqual(expected);
}

const recordCount = () => mediaRecordCount(t);

/**
 * Runs a hostile request and checks what a refusal must be: the status, `{"error": …}` matching `message`, no
 * new media record, no new file in media storage, in the waiting folder or in the scratch folder.
 */
async function expectRefusedCleanly(send: () => Promise<Response>, status: number, message: RegExp): Promise<Json> {
  const files = storedFiles();
  const records = recordCount();
  const res = await send();
  const body = (await res.json()) as Json;
  expect({ status: res.status, body }).toEqual({ status, body: { error: expect.stringMatching(message) } });
  expect(recordCount()).toBe(records);
  expect(storedFiles()).toEqual(files);
  return body;
}

/** Sends the same upload to both versions: a refusal there is the same. */
async function expectUploadRefused(fields: () => Record<string, string | Blob>, message: RegExp): Promise<void> {
  for (const version of ["v2", "v1"] as const) await expectRefusedCleanly(() => upload(fields(), version), 422, message);
}

const INVALID_TYPE = /^Validation failed: File content type is invalid$/;
/** What a file that looks like an image in its header but does not decode gets. */
const NOT_VERIFIED = /^Validation failed: File content type is invalid$|^File type of uploaded media could not be verified$/;

/** The offset just past the segment of JPEG marker 0xFF `marker` (its two length bytes included). */
function markerEnd(jpegBytes: Uint8Array, marker: number): number {
  for (let i = 2; i + 3 < jpegBytes.length; ) {
    if (jpegBytes[i] !== 0xff) throw new Error(`no marker at ${i}`);
    const length = (jpegBytes[i + 2]! << 8) | jpegBytes[i + 3]!;
    if (jpegBytes[i + 1] === marker) return i + 2 + length;
    i += 2 + length;
  }
  throw new Error(`no marker ${marker.toString(16)}`);
}

/** Reproducible garbage (xorshift32), so a failure can be replayed. */
function seededNoise(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

// A PNG made by hand: the signature, then chunks with their CRCs.
const ascii = (text: string) => new TextEncoder().encode(text);
const PNG_SIGNATURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(ascii(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, Bun.hash.crc32(out.subarray(4, 8 + data.length)));
  return out;
}

function ihdr(width: number, height: number, bitDepth: number, colourType: number): Uint8Array {
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  data.set([bitDepth, colourType, 0, 0, 0], 8);
  return pngChunk("IHDR", data);
}

const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/**
 * A complete, valid 1-bit greyscale PNG of `side`×`side` pixels, all black: a few dozen KB that decode to
 * side² bytes (or three times that in RGB). The scanlines are compressed in one go from a shared zero buffer.
 */
function pngBomb(side: number): Uint8Array {
  const rowBytes = 1 + Math.ceil(side / 8);
  const idat = deflateSync(new Uint8Array(rowBytes * side), { level: 9 });
  return concat(PNG_SIGNATURE, ihdr(side, side, 1, 0), pngChunk("IDAT", idat), pngChunk("IEND", new Uint8Array(0)));
}

/** An MP4 `ftyp` box, as at the start of every MP4, followed by `rest`. */
const ftypThen = (rest: Uint8Array) =>
  concat(new Uint8Array([0, 0, 0, 0x18]), ascii("ftypmp42"), new Uint8Array(4), ascii("mp42isom"), rest);

const noise = (length: number) => {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(length, i + 65536)));
  return bytes;
};

// ----------------------------------------------------------------------------------------- broken files

describe("broken and wrong files", () => {
  test("a truncated JPEG (its first half): 422 (libvips calls a premature end an error), nothing stored", async () => {
    const half = realJpeg.slice(0, Math.floor(realJpeg.length / 2));
    // Its header is whole: the dimensions still read, so only decoding finds the cut.
    expect(await sharp(half).metadata()).toMatchObject({ format: "jpeg", width: 320, height: 240 });
    await expectUploadRefused(() => ({ file: file(half, "cut.jpg", "image/jpeg") }), NOT_VERIFIED);
    // The same cut as a custom thumbnail.
    await expectUploadRefused(() => ({ file: file(smallPng, "a.png", "image/png"), thumbnail: file(half, "t.jpg", "image/jpeg") }), /^Validation failed: Thumbnail content type is invalid$|^Thumbnail type of uploaded media could not be verified$/);
  });

  test("a JPEG whose header is whole up to its frame header, then garbage: 422, nothing stored", async () => {
    const sof = markerEnd(realJpeg, 0xc0);
    const corrupt = concat(realJpeg.slice(0, sof), seededNoise(realJpeg.length - sof, 1));
    await expectUploadRefused(() => ({ file: file(corrupt, "photo.jpg", "image/jpeg") }), NOT_VERIFIED);
  });

  test("a JPEG whose headers are whole and whose scan data is garbage: a valid image or 422, never a 500", async () => {
    const sos = markerEnd(realJpeg, 0xda);
    for (const seed of [2, 3, 4]) {
      const corrupt = concat(realJpeg.slice(0, sos), seededNoise(realJpeg.length - sos - 2, seed), new Uint8Array([0xff, 0xd9]));
      const files = storedFiles();
      const res = await upload({ file: file(corrupt, "photo.jpg", "image/jpeg") });
      const body = (await res.json()) as Json;
      if (res.status === 200) {
        expect(body.meta.original).toMatchObject({ width: 320, height: 240 });
        const served = await t.request(new URL(body.url).pathname);
        expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(320);
      } else {
        expect({ status: res.status, body }).toEqual({ status: 422, body: { error: expect.stringMatching(NOT_VERIFIED) } });
        expect(storedFiles()).toEqual(files);
      }
    }
  });

  test("a text file named photo.png with type image/png: 422 (the type comes from the bytes)", async () => {
    await expectUploadRefused(() => ({ file: file("this is not a picture\n".repeat(20), "photo.png", "image/png") }), INVALID_TYPE);
  });

  test("a PNG signature and a header chunk, nothing else: 422", async () => {
    await expectUploadRefused(() => ({ file: file(concat(PNG_SIGNATURE, ihdr(64, 64, 8, 2)), "photo.png", "image/png") }), /^Validation failed: File content type is invalid$|could not be verified/);
  });

  test("zero bytes: 422 blank", async () => {
    await expectUploadRefused(() => ({ file: file(new Uint8Array(0), "empty.jpg", "image/jpeg") }), /^Validation failed: File can't be blank$/);
  });

  test("no file field at all (only a description, or nothing): 422 blank", async () => {
    await expectUploadRefused(() => ({ description: "a picture of nothing" }), /^Validation failed: File can't be blank$/);
    await expectUploadRefused(() => ({}), /^Validation failed: File can't be blank$/);
  });

  test("`file` sent as a text field instead of a file: 422 blank", async () => {
    await expectUploadRefused(() => ({ file: "not a file, a string" }), /^Validation failed: File can't be blank$/);
  });

  test("a JSON body with a file name in `file`: 422 blank", async () => {
    const files = storedFiles();
    const res = await t.request("/api/v2/media", { method: "POST", token: alice.token, json: { file: "/etc/passwd", description: "x" } });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: "Validation failed: File can't be blank" });
    expect(storedFiles()).toEqual(files);
  });

  test("an SVG (scripts, external references) is not an image we take: 422", async () => {
    const svg = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><image href="file:///etc/passwd"/></svg>`;
    await expectUploadRefused(() => ({ file: file(svg, "x.svg", "image/svg+xml") }), INVALID_TYPE);
  });
});

// ----------------------------------------------------------------------------------------------- sizes

describe("too large", () => {
  test("an image over the image size limit (a PNG header, then padding): 422 naming the limit, nothing stored", async () => {
    const big = concat(PNG_SIGNATURE, ihdr(64, 64, 8, 2), new Uint8Array(MEDIA_LIMITS.imageSizeLimit - 32));
    expect(big.length).toBeGreaterThan(MEDIA_LIMITS.imageSizeLimit);
    const limitMb = Math.round(MEDIA_LIMITS.imageSizeLimit / 1024 / 1024);
    await expectUploadRefused(() => ({ file: file(big, "big.png", "image/png") }), new RegExp(`^Validation failed: File file size must be less than ${limitMb} MB$`));
  }, 20_000);

  test("a body declaring more than the upload limit: 413 before it is read", async () => {
    const files = storedFiles();
    const boundary = "----hostile";
    const res = await t.request("/api/v2/media", {
      method: "POST",
      token: alice.token,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(200 * 1024 * 1024) },
      body: `--${boundary}\r\ncontent-disposition: form-data; name="description"\r\n\r\nx\r\n--${boundary}--\r\n`,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^Request body too large \(the limit is \d+ bytes\)$/) });
    expect(storedFiles()).toEqual(files);
  });

  test("a streamed body (no length) that goes past the upload limit: 413 once the limit is crossed", async () => {
    const files = storedFiles();
    const records = recordCount();
    const boundary = "----hostilestream";
    const chunk = new Uint8Array(4 * 1024 * 1024);
    const limit = MEDIA_LIMITS.videoSizeLimit + MEDIA_LIMITS.imageSizeLimit + 1024 * 1024;
    let sent = 0;
    let first = true;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (first) {
          first = false;
          controller.enqueue(ascii(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="v.mp4"\r\ncontent-type: video/mp4\r\n\r\n`));
          return;
        }
        // A little past the limit, then the stream would go on forever: the server must stop reading.
        if (sent > limit * 2) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await t.app.handle(
      new Request("http://localhost:3000/api/v2/media", {
        method: "POST",
        headers: { authorization: `Bearer ${alice.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
        body: stream,
        // Bun and undici want this for a streamed request body.
        duplex: "half",
      }),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as Json).error).toBe(`Request body too large (the limit is ${limit} bytes)`);
    // Read until the limit was crossed, then no further.
    expect(sent).toBeGreaterThan(limit);
    expect(sent).toBeLessThan(limit + 3 * chunk.length);
    expect(recordCount()).toBe(records);
    expect(storedFiles()).toEqual(files);
  }, 20_000);

  test("a decompression bomb (a valid 20000×20000 PNG of a few KB): 422 naming dimensions, quickly, without the memory", async () => {
    const bomb = pngBomb(20_000);
    expect(bomb.length).toBeLessThan(200 * 1024);
    // A valid PNG of that size (sharp reads its header once told not to stop at its own default limit).
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: "png", width: 20_000, height: 20_000 });
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const answers: Json[] = [];
    for (const version of ["v2", "v1"] as const) {
      answers.push(await expectRefusedCleanly(() => upload({ file: file(bomb, "bomb.png", "image/png") }, version), 422, /\S/));
    }
    expect(performance.now() - started).toBeLessThan(3000);
    expect(process.memoryUsage().rss - before).toBeLessThan(500 * 1024 * 1024);
    // The refusal says why: the picture is too large, not that a valid PNG is of an invalid type.
    const dimensions = `Validation failed: File dimensions are too large (the limit is ${MEDIA_LIMITS.imageMatrixLimit} pixels)`;
    expect(answers).toEqual([{ error: dimensions }, { error: dimensions }]);
  });

  test("a 7000×7000 PNG (over the pixel limit, under sharp's own): 422 naming dimensions", async () => {
    const bomb = pngBomb(7000);
    expect(7000 * 7000).toBeGreaterThan(MEDIA_LIMITS.imageMatrixLimit);
    await expectUploadRefused(
      () => ({ file: file(bomb, "bomb.png", "image/png") }),
      new RegExp(`^Validation failed: File dimensions are too large \\(the limit is ${MEDIA_LIMITS.imageMatrixLimit} pixels\\)$`),
    );
  });

  test("a 7000×7000 bomb as a custom thumbnail, on upload and on PUT: 422, the media unchanged", async () => {
    const bomb = pngBomb(7000);
    const dimensions = /^Validation failed: (Thumbnail|File) dimensions are too large/;
    await expectUploadRefused(() => ({ file: file(smallPng, "a.png", "image/png"), thumbnail: file(bomb, "t.png", "image/png") }), dimensions);
    const media = (await (await upload({ file: file(smallPng, "a.png", "image/png") })).json()) as Json;
    await expectRefusedCleanly(() => update(media.id, { thumbnail: file(bomb, "t.png", "image/png") }), 422, dimensions);
    const after = (await (await show(media.id)).json()) as Json;
    expect(after).toEqual(media);
  });

  test("a GIF header declaring 65535×65535: 422, quickly", async () => {
    const gif = concat(ascii("GIF89a"), new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00]), ascii(","), new Uint8Array([0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0]), new Uint8Array([2, 2, 0x4c, 0x01, 0, 0x3b]));
    const started = performance.now();
    await expectUploadRefused(() => ({ file: file(gif, "big.gif", "image/gif") }), /^Validation failed: File (dimensions are too large|content type is invalid)/);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

// ---------------------------------------------------------------------------------------------- videos

describe("lying video", () => {
  test("an MP4 `ftyp` box followed by garbage: v1 422; v2 202, then GET 422 with why; no file left behind", async () => {
    const liar = () => ({ file: file(ftypThen(noise(64 * 1024)), "clip.mp4", "video/mp4") });
    await expectRefusedCleanly(() => upload(liar(), "v1"), 422, /\S/);

    const files = storedFiles();
    const res = await upload(liar(), "v2");
    const body = (await res.json()) as Json;
    if (res.status === 202) {
      expect(body.url).toBeNull();
      const done = await waitProcessed(t, alice.token, body.id);
      expect(done.status).toBe(422);
      const failed = (await done.json()) as Json;
      expect(failed).toEqual({ error: expect.stringMatching(/\S/) });
      expect(failed.error).not.toMatch(/internal/i);
      // The waiting copy and the scratch folder go (the job removes the copy just after recording the failure);
      // no preview or original was stored.
      await filesBecome(files);
      // Failed media cannot go on a status.
      const post = await t.request("/api/v1/statuses", { method: "POST", token: alice.token, form: { status: "x", "media_ids[]": body.id } });
      expect(post.status).toBe(422);
      // …and can be deleted.
      expect((await t.request(`/api/v1/media/${body.id}`, { method: "DELETE", token: alice.token })).status).toBe(200);
      expect((await show(body.id)).status).toBe(404);
    } else {
      expect({ status: res.status, body }).toEqual({ status: 422, body: { error: expect.stringMatching(/\S/) } });
      expect(storedFiles()).toEqual(files);
    }
  }, 20_000);

  test("an HLS playlist (#EXTM3U) sent as video/mp4: 422 at once, never handed to ffmpeg", async () => {
    const playlist = "#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\nfile:///etc/passwd\n#EXTINF:10.0,\nhttp://169.254.169.254/latest/meta-data/\n#EXT-X-ENDLIST\n";
    await expectUploadRefused(() => ({ file: file(playlist, "clip.mp4", "video/mp4") }), INVALID_TYPE);
  });

  test("an HLS playlist behind an MP4 `ftyp` box: v1 422, nothing is fetched or left", async () => {
    const playlist = ascii("\n#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n");
    await expectRefusedCleanly(() => upload({ file: file(ftypThen(playlist), "clip.mp4", "video/mp4") }, "v1"), 422, /\S/);
  }, 20_000);

  test("a PNG renamed clip.mp4 with type video/mp4 is taken for what its bytes are: an image (200)", async () => {
    // The server never trusts the name or the client's type; a genuine PNG is a genuine image.
    for (const version of ["v2", "v1"] as const) {
      const res = await upload({ file: file(smallPng, "clip.mp4", "video/mp4") }, version);
      expect(res.status).toBe(200);
      const media = (await res.json()) as Json;
      expect(media.type).toBe("image");
      expect(media.url).toMatch(/\.(png|jpg)$/);
    }
  });

  test("a real video named photo.jpg with type image/jpeg is processed as a video (202 on v2)", async () => {
    const res = await upload({ file: file(await makeVideo(t), "photo.jpg", "image/jpeg") });
    expect(res.status).toBe(202);
    const done = await waitProcessed(t, alice.token, ((await res.json()) as Json).id);
    expect(done.status).toBe(200);
    expect(((await done.json()) as Json).type).toBe("video");
  }, 20_000);

  test("the first half of a real video (no index): v1 422 or a valid video, never a 500", async () => {
    const video = await makeVideo(t);
    const res = await upload({ file: file(video.slice(0, Math.floor(video.length / 2)), "cut.mp4", "video/mp4") }, "v1");
    expect([200, 422]).toContain(res.status);
    const body = (await res.json()) as Json;
    if (res.status === 200) expect(body.type).toMatch(/^(video|gifv)$/);
    else expect(body).toEqual({ error: expect.stringMatching(/\S/) });
  }, 20_000);
});

// ------------------------------------------------------------------------------------ text and numbers

describe("description", () => {
  let limit: number;
  beforeAll(async () => {
    const instance = (await (await t.request("/api/v2/instance")).json()) as Json;
    limit = instance.configuration.media_attachments.description_limit;
  });

  test("the limit is the one the instance reports", () => {
    expect(limit).toBe(MEDIA_LIMITS.descriptionLimit);
  });

  for (const [name, unit] of [["ASCII", "a"], ["accented", "é"], ["emoji", "😀"]] as const) {
    test(`${name}: exactly the limit in characters is kept, on upload and on PUT; one more is 422 naming the limit`, async () => {
      const exact = unit.repeat(limit);
      const res = await upload({ file: file(smallPng, "a.png", "image/png"), description: exact });
      expect(res.status).toBe(200);
      const media = (await res.json()) as Json;
      expect(media.description).toBe(exact);

      const tooLong = new RegExp(`^Validation failed: Description is too long \\(maximum is ${limit} characters\\)$`);
      await expectUploadRefused(() => ({ file: file(smallPng, "a.png", "image/png"), description: exact + unit }), tooLong);
      await expectRefusedCleanly(() => update(media.id, { description: exact + unit }), 422, tooLong);
      expect(((await (await show(media.id)).json()) as Json).description).toBe(exact);

      const edited = await update(media.id, { description: unit.repeat(limit - 1) + "b" });
      expect(edited.status).toBe(200);
      expect(((await edited.json()) as Json).description).toBe(unit.repeat(limit - 1) + "b");
    });
  }
});

describe("focus", () => {
  const invalid = ["abc", "2,0", "0,-1.5", "1", "0.5,0.5,0.5", "0.5,", ",0.5", "1e0,0", "NaN,0", "Infinity,0", "0x1,0", "0.5;0.5"];
  const FOCUS = /^Validation failed: Focus must be two numbers between -1\.0 and 1\.0, as x,y$/;

  test("invalid focal points are 422 on upload (nothing stored) and on PUT (record unchanged)", async () => {
    const media = (await (await upload({ file: file(smallPng, "a.png", "image/png"), focus: "0.25,0.25" })).json()) as Json;
    for (const focus of invalid) {
      await expectUploadRefused(() => ({ file: file(smallPng, "a.png", "image/png"), focus }), FOCUS);
      await expectRefusedCleanly(() => update(media.id, { focus }), 422, FOCUS);
    }
    expect(((await (await show(media.id)).json()) as Json).meta.focus).toEqual({ x: 0.25, y: 0.25 });
  });

  test("the corners are valid: -1,1 → {x:-1, y:1}", async () => {
    const res = await upload({ file: file(smallPng, "a.png", "image/png"), focus: "-1,1" });
    expect(res.status).toBe(200);
    const media = (await res.json()) as Json;
    expect(media.meta.focus).toEqual({ x: -1, y: 1 });
    const edited = await update(media.id, { focus: "1,-1" });
    expect(((await edited.json()) as Json).meta.focus).toEqual({ x: 1, y: -1 });
  });
});

describe("thumbnail", () => {
  test("a thumbnail that is not an image: 422 on upload (nothing stored) and on PUT (record unchanged)", async () => {
    const THUMB = /^Validation failed: Thumbnail content type is invalid$/;
    await expectUploadRefused(() => ({ file: file(smallPng, "a.png", "image/png"), thumbnail: file("hello", "t.png", "image/png") }), THUMB);
    const media = (await (await upload({ file: file(smallPng, "a.png", "image/png") })).json()) as Json;
    await expectRefusedCleanly(() => update(media.id, { thumbnail: file("hello", "t.png", "image/png") }), 422, THUMB);
    await expectRefusedCleanly(() => update(media.id, { thumbnail: file(new Uint8Array(0), "t.png", "image/png") }), 422, THUMB);
    await expectRefusedCleanly(() => update(media.id, { thumbnail: file(ftypThen(noise(1024)), "t.mp4", "video/mp4") }), 422, THUMB);
    expect((await (await show(media.id)).json()) as Json).toEqual(media);
  });
});

// ------------------------------------------------------------------------------------------ parameters

describe("hostile field names", () => {
  for (const name of ["__proto__", "constructor", "prototype"]) {
    test(`a multipart field named ${name} (plain and nested): 400, nothing stored, the prototype untouched`, async () => {
      for (const key of [name, `${name}[description]`, `description[${name}]`]) {
        await expectRefusedCleanly(
          () => upload([["file", file(smallPng, "a.png", "image/png")], [key, "polluted"]]),
          400,
          new RegExp(`^Parameter name not allowed: ${name}$`),
        );
      }
      expect(({} as Json).description).toBeUndefined();
      const media = (await (await upload({ file: file(smallPng, "a.png", "image/png") })).json()) as Json;
      expect(media.description).toBeNull();
      await expectRefusedCleanly(() => update(media.id, [[name, "x"]]), 400, new RegExp(`^Parameter name not allowed: ${name}$`));
    });
  }

  test("a file in the description field and text in the thumbnail field: 422, never a 500", async () => {
    const res = await upload([["file", file(smallPng, "a.png", "image/png")], ["description", file("hi", "d.txt", "text/plain")]]);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/description/i) });
    await expectUploadRefused(() => ({ file: file(smallPng, "a.png", "image/png"), thumbnail: "not a file" }), /^Validation failed: Thumbnail content type is invalid$/);
  });

  test("media ids that are not ids: 404", async () => {
    for (const id of ["abc", "-1", "0", "99999999999999999999999999", "1%2F..%2F..", "%00"]) {
      const res = await show(id);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    }
  });
});

// ------------------------------------------------------------------------------------------------ flood

describe("flood", () => {
  test("20 concurrent uploads of a small image all answer 200 with distinct ids and files", async () => {
    const image = await jpeg(64, 48);
    const answers = await Promise.all(Array.from({ length: 20 }, () => upload({ file: file(image, "a.jpg", "image/jpeg") })));
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    const media = (await Promise.all(answers.map((res) => res.json()))) as Json[];
    expect(new Set(media.map((m) => m.id)).size).toBe(20);
    expect(new Set(media.map((m) => m.url)).size).toBe(20);
    for (const m of media) expect((await show(m.id)).status).toBe(200);
  }, 20_000);
});
