// `warren preview_cards remove [--days=N] [--dry-run]` run as the real CLI on the data directory of a running
// in-process app: a card fetched long ago goes (its status then shows none), a recent one stays.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { putCard } from "../../src/store/statuses-cards.ts";
import { get, newUser, postStatus } from "../http/statuses-helpers.ts";
import type { PreviewCardRecord } from "../../src/model/statuses.ts";

setDefaultTimeout(30_000);

const DAY_MS = 86_400_000;
let dir: string;
let t: TestApp;
let oldStatus: string;
let newStatus: string;

const card = (title: string, fetchedAt: number): PreviewCardRecord => ({
  v: 1, url: "https://example.com/", title, description: "", type: "link", authorName: "", authorUrl: "", providerName: "",
  providerUrl: "", html: "", width: 0, height: 0, image: null, imageDescription: "", embedUrl: "", language: null, publishedAt: null, fetchedAt,
});
const cardOf = async (id: string) => (await get(t, `/api/v1/statuses/${id}/card`)).body;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-cards-"));
  t = await startTestApp({ WARREN_DATA_DIR: dir });
  const alice = await newUser(t, "cards");
  oldStatus = (await postStatus(t, alice, "old link")).id;
  newStatus = (await postStatus(t, alice, "new link")).id;
  // Cards as the card.fetch subscriber writes them, one fetched 200 days ago.
  await t.deps.store.write(() => {
    putCard(t.deps.store, oldStatus.padStart(18, "0"), card("Old", Date.now() - 200 * DAY_MS));
    putCard(t.deps.store, newStatus.padStart(18, "0"), card("New", Date.now() - DAY_MS));
  });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

test("--dry-run counts the cards older than --days and removes none", async () => {
  const run = await runWarren(dir, "preview_cards", "remove", "--dry-run");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("OK, would remove 1 preview cards (dry run)\n");
  expect(run.stderr).toContain("Examining preview cards");
  expect((await cardOf(oldStatus)).title).toBe("Old");
});

test("the default (180 days) removes the old card and keeps the recent one; --days=0 takes the rest", async () => {
  const run = await runWarren(dir, "preview_cards", "remove");
  expect(run.stdout).toBe("OK, removed 1 preview cards\n");
  expect(await cardOf(oldStatus)).toEqual({});
  expect((await cardOf(newStatus)).title).toBe("New");
  expect((await runWarren(dir, "preview_cards", "remove", "--days=0")).stdout).toBe("OK, removed 1 preview cards\n");
  expect(await cardOf(newStatus)).toEqual({});
});

test("a bad --days is a usage error (64)", async () => {
  for (const args of [["--days=x"], ["--days=-2"], ["now"]]) {
    const run = await runWarren(dir, "preview_cards", "remove", ...args);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain("warren preview_cards remove [--days=N] [--dry-run]");
  }
});
