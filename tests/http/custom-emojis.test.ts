// Custom emojis: imported with `warren emoji import` (one file or a directory, run as the operator runs it),
// checked with sharp (PNG, GIF or WebP, 256 KiB, 1024 px), served as media files with a PNG still, listed by
// GET /api/v1/custom_emojis; usable as announcement reactions.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { call, get, newUser, postStatus } from "./notifications-helpers.ts";

let t: TestApp;
let files: string;
beforeAll(async () => {
  t = await startTestApp();
  files = mkdtempSync(join(tmpdir(), "warren-emoji-"));
});
afterAll(async () => {
  await t.close();
  rmSync(files, { recursive: true, force: true });
});

const square = (side: number, format: "png" | "gif" | "webp", colour = "#e0a030") =>
  sharp({ create: { width: side, height: side, channels: 4, background: colour } })[format]().toBuffer();
const noise = (side: number) => sharp(Buffer.from(Array.from({ length: side * side * 3 }, () => Math.floor(Math.random() * 256))), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();

async function file(name: string, data: Buffer | string, dir = files): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
}
const emojis = async () => (await get(t, "/api/v1/custom_emojis")).body as { shortcode: string; url: string; static_url: string; visible_in_picker: boolean; category: string | null }[];
const fetchPath = (url: string) => t.request(new URL(url).pathname);

describe("warren emoji import and GET /api/v1/custom_emojis", () => {
  test("one file: listed with its URLs, served as PNG with a PNG still", async () => {
    expect(await emojis()).toEqual([]);
    const run = await runWarren(t.dir, "emoji", "import", await file("cat.png", await square(64, "png")), "--shortcode=blobcat", "--category=Cats");
    expect(run.code).toBe(0);
    const [emoji] = await emojis();
    expect(emoji).toMatchObject({ shortcode: "blobcat", visible_in_picker: true, category: "Cats" });
    expect(Object.keys(emoji!).sort()).toEqual(["category", "shortcode", "static_url", "url", "visible_in_picker"]);
    const image = await fetchPath(emoji!.url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    const still = await fetchPath(emoji!.static_url);
    expect((await sharp(Buffer.from(await still.arrayBuffer())).metadata()).format).toBe("png");
  });

  test("a directory: its PNG, GIF and WebP files by name; bad ones refused (exit 1), the rest imported", async () => {
    const dir = join(files, "pack");
    mkdirSync(dir);
    await file("party_gif.gif", await square(32, "gif"), dir);
    await file("wave.webp", await square(32, "webp"), dir);
    await file("readme.txt", "not an image", dir);
    await file("fake.png", "not a png at all", dir);
    await file("x.png", await square(16, "png"), dir);
    const run = await runWarren(t.dir, "emoji", "import", dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("fake.png");
    expect(run.stderr).toContain("x.png");
    const codes = (await emojis()).map((e) => e.shortcode);
    expect(codes).toEqual(expect.arrayContaining(["party_gif", "wave"]));
    expect(codes).not.toContain("fake");
    expect(codes).not.toContain("readme");
    const gif = (await emojis()).find((e) => e.shortcode === "party_gif")!;
    expect((await fetchPath(gif.url)).headers.get("content-type")).toBe("image/gif");
  });

  test("limits: 256 KiB, 1024 px, formats, shortcodes, taken names unless --overwrite", async () => {
    const refused = async (...args: string[]) => {
      const run = await runWarren(t.dir, "emoji", "import", ...args);
      expect(run.code).toBe(1);
      return run.stderr;
    };
    expect(await refused(await file("big.png", await noise(400)), "--shortcode=big")).toContain("256 KiB");
    expect(await refused(await file("wide.png", await sharp({ create: { width: 1500, height: 8, channels: 3, background: "#fff" } }).png().toBuffer()), "--shortcode=wide")).toContain("1024");
    expect(await refused(await file("photo.jpg", await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } }).jpeg().toBuffer()), "--shortcode=photo")).toContain("PNG, GIF or WebP");
    expect(await refused(await file("ok.png", await square(16, "png")), "--shortcode=bad-name")).toContain("Shortcode");
    expect(await refused(await file("again.png", await square(16, "png")), "--shortcode=blobcat")).toContain("taken");
    const before = (await emojis()).find((e) => e.shortcode === "blobcat")!;
    const run = await runWarren(t.dir, "emoji", "import", await file("again2.png", await square(16, "png", "#00ff00")), "--shortcode=blobcat", "--overwrite");
    expect(run.code).toBe(0);
    const after = (await emojis()).find((e) => e.shortcode === "blobcat")!;
    expect(after.url).not.toBe(before.url);
    expect((await fetchPath(before.url)).status).toBe(404);
    expect((await runWarren(t.dir, "emoji", "import")).code).toBe(64);
    expect((await runWarren(t.dir, "emoji", "import", join(files, "missing.png"))).code).toBe(1);
  });

  test("--unlisted stays out of the list; remove deletes record and files; reactions may name one", async () => {
    expect((await runWarren(t.dir, "emoji", "import", await file("hidden.png", await square(16, "png")), "--unlisted")).code).toBe(0);
    expect((await emojis()).map((e) => e.shortcode)).not.toContain("hidden");
    expect((await runWarren(t.dir, "emoji", "list")).stdout).toContain(":hidden:\t-\tunlisted");

    const user = await newUser(t, "em");
    const published = await runWarren(t.dir, "announcements", "add", "With :wave: inside");
    const id = published.stdout.trim().split("\n")[1]!;
    expect((await call(t, "PUT", `/api/v1/announcements/${id}/reactions/wave`, user.token)).status).toBe(200);
    expect((await call(t, "PUT", `/api/v1/announcements/${id}/reactions/nosuch`, user.token)).status).toBe(422);
    const [announcement] = ((await get(t, "/api/v1/announcements", user.token)).body as { id: string; emojis: { shortcode: string }[]; reactions: { name: string; url?: string }[] }[]).filter((a) => a.id === id);
    expect(announcement!.emojis.map((e) => e.shortcode)).toEqual(["wave"]);
    expect(announcement!.reactions[0]).toMatchObject({ name: "wave", count: 1, me: true, url: expect.stringContaining("/system/custom_emojis/") });

    const wave = (await emojis()).find((e) => e.shortcode === "wave")!;
    expect((await runWarren(t.dir, "emoji", "remove", "wave")).code).toBe(0);
    expect((await emojis()).map((e) => e.shortcode)).not.toContain("wave");
    expect((await fetchPath(wave.url)).status).toBe(404);
    expect((await runWarren(t.dir, "emoji", "remove", "wave")).code).toBe(1);
  });
});

describe("custom emojis in statuses", () => {
  test("a local status lists the emojis its text and content warning name, as soon as they exist, in every rendering", async () => {
    const user = await newUser(t, "em");
    const status = await postStatus(t, user, { status: "I love :sparkle_cat: and :nosuchemoji:", spoiler_text: "cats :sparkle_cat:" });
    expect(status.emojis).toEqual([]);
    const timeline = () => get(t, `/api/v1/accounts/${user.id}/statuses`, user.token);
    expect((await timeline()).body[0].emojis).toEqual([]);
    const local = async () => (await get(t, "/api/v1/timelines/public?local=true")).body.find((s: { id: string }) => s.id === status.id).emojis;
    // Asked twice, so that the timeline page cache keeps it.
    expect(await local()).toEqual([]);
    expect(await local()).toEqual([]);
    expect((await runWarren(t.dir, "emoji", "import", await file("sparkle_cat.png", await square(16, "png")))).code).toBe(0);
    const one = (await get(t, `/api/v1/statuses/${status.id}`, user.token)).body;
    expect(one.emojis).toHaveLength(1);
    expect(Object.keys(one.emojis[0]).sort()).toEqual(["shortcode", "static_url", "url", "visible_in_picker"]);
    expect(one.emojis[0]).toMatchObject({ shortcode: "sparkle_cat", visible_in_picker: true });
    expect((await timeline()).body[0].emojis.map((e: { shortcode: string }) => e.shortcode)).toEqual(["sparkle_cat"]);
    expect(await local()).toHaveLength(1);
    expect((await runWarren(t.dir, "emoji", "remove", "sparkle_cat")).code).toBe(0);
    expect((await timeline()).body[0].emojis).toEqual([]);
  });
});
