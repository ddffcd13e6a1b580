// `warren media remove [--days=N]` and `warren media remove-orphans` run as the real CLI (a child process)
// on the data directory of a running in-process app, whose HTTP API and files then show the effect.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { servedStatus, startMediaApp, storedOnDisk, uploadImage, type Json, type User } from "../helpers/media.ts";
import { idAtTime, normaliseId } from "../../src/lib/ids.ts";
import { getMedia } from "../../src/store/media.ts";
import { call, postStatus } from "../http/statuses-helpers.ts";

setDefaultTimeout(30_000);

let dir: string;
let t: TestApp;
let alice: User;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-cli-"));
  ({ t, alice } = await startMediaApp(["alice"], { WARREN_DATA_DIR: dir }));
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runWarren(dir, "media", ...args);
/** A fresh JPEG uploaded by alice. */
const upload = (description: string) => uploadImage(t, alice.token, description);

const mediaDir = () => join(dir, "media", "media_attachments");
const record = (media: Json) => getMedia(t.deps.store, normaliseId(media.id)!);

async function expectKept(media: Json) {
  expect(record(media)).toBeDefined();
  for (const url of [media.url, media.preview_url]) {
    expect(storedOnDisk(t, url)).toBe(true);
    expect(await servedStatus(t, url)).toBe(200);
  }
}

async function expectGone(media: Json) {
  expect(record(media)).toBeUndefined();
  expect((await t.request(`/api/v1/media/${media.id}`, { token: alice.token })).status).toBe(404);
  for (const url of [media.url, media.preview_url]) {
    expect(storedOnDisk(t, url)).toBe(false);
    expect(await servedStatus(t, url)).toBe(404);
  }
}

describe("media remove", () => {
  let loose: Json;
  let freed: Json;
  let attached: Json;

  beforeAll(async () => {
    loose = await upload("never posted");
    attached = await upload("on a status");
    await postStatus(t, alice, { status: "with media", media_ids: [attached.id] });
    // A redraft's media are on no status again.
    freed = await upload("redrafted");
    const draft = await postStatus(t, alice, { status: "draft", media_ids: [freed.id] });
    expect((await call(t, "DELETE", `/api/v1/statuses/${draft.id}`, alice.token)).status).toBe(200);
    await t.deps.jobs.drain();
  });

  test("the default (a day) spares uploads of today", async () => {
    const run = await cli("remove");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("OK, removed 0 unattached media attachments\n");
    for (const media of [loose, freed, attached]) await expectKept(media);
  });

  test("--dry-run counts what --days=0 would remove and removes nothing", async () => {
    const run = await cli("remove", "--days=0", "--dry-run");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("OK, would remove 2 unattached media attachments (dry run)\n");
    for (const media of [loose, freed, attached]) await expectKept(media);
  });

  test("usage counts the files and bytes by kind", async () => {
    const run = await cli("usage");
    expect(run.code).toBe(0);
    // Three uploads, each an original and a preview at least.
    expect(Number(run.stdout.match(/^local attachments: [\d.]+ MB in (\d+) files$/m)?.[1])).toBeGreaterThanOrEqual(6);
    expect(run.stdout).toMatch(/\ntotal: [\d.]+ MB\n$/);
  });

  test("--days=0 removes unattached uploads with their files and keeps attached ones", async () => {
    const run = await cli("remove", "--days=0");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("OK, removed 2 unattached media attachments\n");
    await expectGone(loose);
    await expectGone(freed);
    await expectKept(attached);
    expect(record(attached)!.statusId).not.toBeNull();
    // A second run finds nothing.
    expect((await cli("remove", "--days", "0")).stdout).toBe("OK, removed 0 unattached media attachments\n");
  });

  test("a --days that is not a number of days is a usage error (64)", async () => {
    for (const args of [["--days=abc"], ["--days=-1"], ["--days"], ["--weeks=1"], ["now"]]) {
      const run = await cli("remove", ...args);
      expect(run.code).toBe(64);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("warren media remove [--days=N]");
    }
    expect(record(attached)).toBeDefined();
  });
});

describe("media remove-orphans", () => {
  test("removes folders of records that are gone (older than an hour) and keeps the others", async () => {
    const kept = await upload("still here");
    const oldId = idAtTime(Date.now() - 2 * 3600_000);
    const youngId = idAtTime(Date.now() - 60_000);
    for (const [style, id] of [["original", oldId], ["small", oldId], ["original", youngId]] as const) {
      mkdirSync(join(mediaDir(), style, id), { recursive: true });
      writeFileSync(join(mediaDir(), style, id, "0123456789abcdef0123456789abcdef.jpg"), "left behind");
    }
    // A waiting upload whose record is gone (a crash after ffmpeg failed it, before its copy was deleted).
    const incoming = join(dir, "incoming");
    mkdirSync(incoming, { recursive: true });
    const strayUpload = join(incoming, `${idAtTime(Date.now() - 3 * 3600_000)}-0123456789abcdef0123456789abcdef.mp4`);
    writeFileSync(strayUpload, "never processed");
    const before = readdirSync(join(mediaDir(), "original"));
    expect(before).toContain(oldId);
    expect(before).toContain(normaliseId(kept.id)!);

    const run = await cli("remove-orphans");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^OK, removed the files of 2 media attachments that no longer exist\n$/);
    expect(existsSync(strayUpload)).toBe(false);
    expect(existsSync(join(mediaDir(), "original", oldId))).toBe(false);
    expect(existsSync(join(mediaDir(), "small", oldId))).toBe(false);
    // Too young to be an orphan for sure: its upload may still be running.
    expect(existsSync(join(mediaDir(), "original", youngId))).toBe(true);
    await expectKept(kept);
    expect(existsSync(join(mediaDir(), "original", normaliseId(kept.id)!))).toBe(true);
    expect(existsSync(join(mediaDir(), "small", normaliseId(kept.id)!))).toBe(true);

    expect((await cli("remove-orphans", "extra")).code).toBe(64);
  });
});
