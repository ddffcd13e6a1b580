// src/media/storage.ts on its own: saving and adopting files, their sizes, and what is refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig, type Config } from "../../src/config.ts";
import { adoptMediaFile, mediaFileInfo, mediaFileInfoSync, mediaFileSize, saveMediaFile } from "../../src/media/storage.ts";

let dir: string;
let outside: string;
let config: Config;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "warren-storage-"));
  outside = mkdtempSync(join(tmpdir(), "warren-outside-"));
  config = loadConfig({ WARREN_DATA_DIR: dir, WARREN_URL: "http://localhost:3000" });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const stored = (path: string) => join(dir, "media", ...path.slice("/system/".length).split("/"));

describe("saveMediaFile", () => {
  test("writes the bytes under a new random name and leaves no temporary", async () => {
    const first = await saveMediaFile(config, ["a", "b"], "png", new Uint8Array([1, 2, 3]));
    const second = await saveMediaFile(config, ["a", "b"], "png", new Uint8Array([1, 2, 3]));
    expect(first).toMatch(/^\/system\/a\/b\/[0-9a-f]{32}\.png$/);
    expect(second).not.toBe(first);
    expect([...readFileSync(stored(first))]).toEqual([1, 2, 3]);
    expect(readdirSync(join(dir, "media", "a", "b")).sort()).toEqual([first, second].map((p) => p.split("/").pop()!).sort());
  });

  test("refuses unsafe folders and extensions", async () => {
    for (const [folders, extension] of [[[".."], "png"], [["a/b"], "png"], [[".hidden"], "png"], [["a"], "PNG"], [["a"], "png/x"], [["a"], ""]] as const) {
      await expect(saveMediaFile(config, folders, extension, new Uint8Array([1]))).rejects.toThrow("unsafe media path");
    }
  });
});

describe("adoptMediaFile", () => {
  test("moves the file: gone from its place, same bytes in storage", async () => {
    mkdirSync(join(dir, "work"), { recursive: true });
    const source = join(dir, "work", "out.webm");
    writeFileSync(source, "webm bytes");
    const path = await adoptMediaFile(config, ["clips", "7"], "webm", source);
    expect(path).toMatch(/^\/system\/clips\/7\/[0-9a-f]{32}\.webm$/);
    expect(existsSync(source)).toBe(false);
    expect(readFileSync(stored(path), "utf8")).toBe("webm bytes");
    expect(readdirSync(join(dir, "media", "clips", "7"))).toEqual([path.split("/").pop()!]);
  });

  test("refuses a file outside the data dir, a directory, a missing file and unsafe names, and leaves the source", async () => {
    const foreign = join(outside, "foreign.mp4");
    writeFileSync(foreign, "x");
    await expect(adoptMediaFile(config, ["clips"], "mp4", foreign)).rejects.toThrow("outside the data directory");
    await expect(adoptMediaFile(config, ["clips"], "mp4", join(dir, "..", "elsewhere.mp4"))).rejects.toThrow("outside the data directory");
    expect(existsSync(foreign)).toBe(true);

    mkdirSync(join(dir, "work", "folder"), { recursive: true });
    await expect(adoptMediaFile(config, ["clips"], "mp4", join(dir, "work", "folder"))).rejects.toThrow();
    await expect(adoptMediaFile(config, ["clips"], "mp4", join(dir, "work", "missing.mp4"))).rejects.toThrow();

    const source = join(dir, "work", "kept.mp4");
    writeFileSync(source, "y");
    await expect(adoptMediaFile(config, [".."], "mp4", source)).rejects.toThrow("unsafe media path");
    await expect(adoptMediaFile(config, ["clips"], "mp4.tmp", source)).rejects.toThrow("unsafe media path");
    expect(existsSync(source)).toBe(true);
    expect(existsSync(join(dir, "work", "folder"))).toBe(true);
  });
});

describe("mediaFileSize and mediaFileInfo", () => {
  test("the stored size; null when missing or refused", async () => {
    const path = await saveMediaFile(config, ["sizes"], "mp3", new Uint8Array(1234));
    expect(await mediaFileSize(config, path)).toBe(1234);
    const empty = await saveMediaFile(config, ["sizes"], "ogg", new Uint8Array());
    expect(await mediaFileSize(config, empty)).toBe(0);
    for (const missing of ["/system/sizes/0123456789abcdef0123456789abcdef.mp3", "/system/sizes", "/system/../x.png", "/other/x.png", "/system/sizes/a.txt"]) {
      expect({ missing, size: await mediaFileSize(config, missing) }).toEqual({ missing, size: null });
      expect(mediaFileInfoSync(config, missing)).toBeNull();
    }
  });

  test("the synchronous variant agrees", async () => {
    const path = await saveMediaFile(config, ["sizes"], "gif", new Uint8Array(10));
    const info = await mediaFileInfo(config, path);
    expect(info).toMatchObject({ file: stored(path), contentType: "image/gif", size: 10 });
    expect(mediaFileInfoSync(config, path)).toEqual(info);
    // A stored name used as a folder is no file (ENOTDIR, not an exception).
    expect(mediaFileInfoSync(config, `${path}/x.gif`)).toBeNull();
    expect(await mediaFileInfo(config, `${path}/x.gif`)).toBeNull();
  });
});
