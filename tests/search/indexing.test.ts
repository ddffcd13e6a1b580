// The search index follows the records through the subscribers (domain/search/indexing.ts), with jobs on
// worker threads as in production, and `warren search deploy` (run as the real CLI) rebuilds it from them.
// The engine is asked directly: what the API makes of its answers is tests/http/search.test.ts's concern.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startMediaApp, uploadImage } from "../helpers/media.ts";
import { runCommand, runWarren } from "../helpers/cli.ts";
import { BASE, type TestApp } from "../helpers/app.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { searchEngineFor } from "../../src/search/index.ts";
import type { SearchEngine } from "../../src/search/engine.ts";
import { call, postStatus, type User } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

let t: TestApp;
let alice: User;
let bob: User;
let engine: SearchEngine;
const PAGE = { limit: 20, offset: 0 };
const id = (raw: string) => normaliseId(raw)!;

beforeAll(async () => {
  ({ t, alice, bob } = await startMediaApp(["alice", "bob"]));
  engine = searchEngineFor(t.deps.store, t.deps.config);
});
afterAll(async () => {
  await t.close();
});

async function settled(): Promise<void> {
  await t.deps.jobs.drain();
  t.deps.store.freshSnapshot();
}

describe("as things happen", () => {
  test("new accounts are found by username", async () => {
    await settled();
    expect(await engine.searchAccounts("alice", PAGE)).toEqual([id(alice.id)]);
    expect(await engine.searchAccounts("bo", PAGE)).toEqual([id(bob.id)]);
  });

  test("a profile change re-indexes the account", async () => {
    const res = await call(t, "PATCH", "/api/v1/accounts/update_credentials", alice.token, { display_name: "Alice Liddell" });
    expect(res.status).toBe(200);
    await settled();
    expect(await engine.searchAccounts("liddell", PAGE)).toEqual([id(alice.id)]);
  });

  test("a status is found by its text, content warning and media descriptions, without its markup", async () => {
    const media = await uploadImage(t, alice.token, "A tabby sleeping on a keyboard");
    const status = await postStatus(t, alice, { status: "Fish & chips <b>tonight</b> #Friday", spoiler_text: "food talk", media_ids: [media.id] });
    await settled();
    for (const q of ["fish chips", "tonight", "food talk", "tabby keyboard", "friday"]) {
      expect(await engine.searchStatuses(q, PAGE)).toEqual([id(status.id)]);
    }
    for (const q of ["amp", "span", "href", "nofollow"]) expect(await engine.searchStatuses(q, PAGE)).toEqual([]);
    expect(await engine.searchStatuses("fish", { ...PAGE, accountId: id(alice.id) })).toEqual([id(status.id)]);
    expect(await engine.searchStatuses("fish", { ...PAGE, accountId: id(bob.id) })).toEqual([]);
  });

  test("hashtags of public and unlisted statuses are found, ranked by uses; those of private ones are not", async () => {
    await postStatus(t, bob, "#caturday again");
    await postStatus(t, bob, "#caturday forever");
    await postStatus(t, bob, { status: "#catalogue", visibility: "unlisted" });
    await postStatus(t, bob, { status: "#catsecret", visibility: "private" });
    await settled();
    expect(await engine.searchTags("cat", PAGE)).toEqual(["caturday", "catalogue"]);
    expect(await engine.searchTags("friday", PAGE)).toEqual(["friday"]);
  });

  test("reblogs are not indexed; a deleted status leaves the index", async () => {
    const status = await postStatus(t, bob, "ephemeral words here");
    const reblog = await call(t, "POST", `/api/v1/statuses/${status.id}/reblog`, alice.token);
    expect(reblog.status).toBe(200);
    await settled();
    expect(await engine.searchStatuses("ephemeral", PAGE)).toEqual([id(status.id)]);
    expect((await call(t, "DELETE", `/api/v1/statuses/${status.id}`, bob.token)).status).toBe(200);
    await settled();
    expect(await engine.searchStatuses("ephemeral", PAGE)).toEqual([]);
  });
});

describe("warren search deploy", () => {
  test("rebuilds the index from the records, whatever it held", async () => {
    await settled();
    const before = {
      statuses: await engine.searchStatuses("fish", PAGE),
      accounts: await engine.searchAccounts("ali", PAGE),
      tags: await engine.searchTags("cat", PAGE),
    };
    await engine.clear();
    await engine.indexStatuses([{ id: id("1"), accountId: id(bob.id), text: "stale leftovers", visibility: "public", createdAt: 1 }]);
    const run = await runWarren(t.dir, "search", "deploy");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^OK, indexed 2 accounts, \d+ statuses and 3 hashtags \(embedded\)\n$/);
    expect(run.stderr).toContain("100%");
    t.deps.store.freshSnapshot();
    expect(await engine.searchStatuses("stale", PAGE)).toEqual([]);
    expect(await engine.searchStatuses("fish", PAGE)).toEqual(before.statuses);
    expect(await engine.searchAccounts("ali", PAGE)).toEqual(before.accounts);
    expect(await engine.searchTags("cat", PAGE)).toEqual(before.tags);
  });

  test("an engine that fails makes it exit 1 with one line", async () => {
    const run = await runCommand([process.execPath, "src/main.ts", "search", "deploy"], {
      env: { ...process.env, WARREN_DATA_DIR: t.dir, WARREN_URL: BASE, WARREN_LOG: "off", WARREN_MEILISEARCH_URL: "http://127.0.0.1:9" },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toStartWith("search deploy failed: ");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("usage errors exit 64", async () => {
    const run = await runWarren(t.dir, "search", "deploy", "--now");
    expect(run.code).toBe(64);
    expect(run.stderr).toContain("usage:");
  });
});
