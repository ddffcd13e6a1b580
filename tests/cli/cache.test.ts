// `warren cache recount statuses|accounts` run as the real CLI (a child process) on the data directory of
// a running in-process app: counters broken on purpose through the store are repaired, and the app's API
// (whose caches another process has just outdated) shows the recounted values.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { normaliseId } from "../../src/lib/ids.ts";
import { getAccount, putAccount } from "../../src/store/accounts.ts";
import { getStatus, putStatus } from "../../src/store/statuses.ts";
import { call, follow, get, newUser, post, postStatus, type User } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

let dir: string;
let t: TestApp;
let alice: User;
let bob: User;
let carol: User;
let status: { id: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-cli-"));
  t = await startTestApp({ WARREN_DATA_DIR: dir, WARREN_JOB_WORKERS: "2" });
  [alice, bob, carol] = [await newUser(t, "alice"), await newUser(t, "bob"), await newUser(t, "carol")];
  status = await postStatus(t, alice, "count me");
  await postStatus(t, alice, { status: "@bob psst", visibility: "direct" });
  const gone = await postStatus(t, alice, "going away");
  await call(t, "DELETE", `/api/v1/statuses/${gone.id}`, alice.token);
  for (const user of [bob, carol]) await post(t, `/api/v1/statuses/${status.id}/favourite`, user.token);
  await post(t, `/api/v1/statuses/${status.id}/unfavourite`, bob.token);
  const reply = await postStatus(t, bob, { status: "@alice yes", in_reply_to_id: status.id });
  await postStatus(t, carol, { status: "@alice no", in_reply_to_id: status.id });
  await call(t, "DELETE", `/api/v1/statuses/${reply.id}`, bob.token);
  await post(t, `/api/v1/statuses/${status.id}/reblog`, carol.token);
  await follow(t, bob, alice);
  await follow(t, carol, alice);
  await follow(t, alice, bob);
  await t.deps.jobs.drain();
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runWarren(dir, "cache", ...args);

const statusCounts = async () => {
  const { replies_count, reblogs_count, favourites_count } = (await get(t, `/api/v1/statuses/${status.id}`, alice.token)).body;
  return { replies_count, reblogs_count, favourites_count };
};
const accountCounts = async (user: User) => {
  const { statuses_count, followers_count, following_count } = (await get(t, `/api/v1/accounts/${user.id}`, alice.token)).body;
  return { statuses_count, followers_count, following_count };
};

const RIGHT_STATUS = { replies_count: 1, reblogs_count: 1, favourites_count: 1 };
const RIGHT_ALICE = { statuses_count: 1, followers_count: 2, following_count: 1 };
const RIGHT_CAROL = { statuses_count: 2, followers_count: 0, following_count: 1 };

/** Store-level sabotage: the wrong counts a drifted instance would have stored. */
async function breakCounters() {
  const store = t.deps.store;
  await store.write(() => {
    const stored = getStatus(store, normaliseId(status.id)!)!;
    putStatus(store, { ...stored, repliesCount: 3, reblogsCount: 0, favouritesCount: 2 });
    for (const user of [alice, carol]) {
      const account = getAccount(store, normaliseId(user.id)!)!;
      putAccount(store, { ...account, statusesCount: 40, followersCount: 7, followingCount: 0 });
    }
  });
}

describe("cache recount", () => {
  test("the counts are right to begin with", async () => {
    expect(await statusCounts()).toEqual(RIGHT_STATUS);
    expect(await accountCounts(alice)).toEqual(RIGHT_ALICE);
    expect(await accountCounts(carol)).toEqual(RIGHT_CAROL);
  });

  test("statuses: broken status counters are recomputed from favourites, reblogs and replies", async () => {
    await breakCounters();
    expect(await statusCounts()).toEqual({ replies_count: 3, reblogs_count: 0, favourites_count: 2 });
    const run = await cli("recount", "statuses");
    expect(run.code).toBe(0);
    // alice's two (one direct), bob's none (his reply was deleted), carol's reply and reblog
    expect(run.stdout).toBe("OK, recounted 4 records (1 corrected)\n");
    expect(run.stderr).toBe("Recounting statuses: 100% (4/4)\n");
    expect(await statusCounts()).toEqual(RIGHT_STATUS);
    expect((await accountCounts(alice)).statuses_count).toBe(40);
  });

  test("accounts: statuses, followers and following counts are recomputed", async () => {
    const run = await cli("recount", "accounts");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("OK, recounted 3 records (2 corrected)\n");
    expect(run.stderr).toBe("Recounting accounts: 100% (3/3)\n");
    expect(await accountCounts(alice)).toEqual(RIGHT_ALICE);
    expect(await accountCounts(carol)).toEqual(RIGHT_CAROL);
    expect(await accountCounts(bob)).toEqual({ statuses_count: 0, followers_count: 1, following_count: 1 });
  });

  test("a second run finds nothing to correct", async () => {
    expect((await cli("recount", "statuses")).stdout).toBe("OK, recounted 4 records (0 corrected)\n");
    expect((await cli("recount", "accounts")).stdout).toBe("OK, recounted 3 records (0 corrected)\n");
  });

  test("wrong words are usage errors", async () => {
    for (const args of [["recount"], ["recount", "users"], ["recount", "statuses", "accounts"], ["count", "statuses"], []]) {
      const run = await cli(...args);
      expect(run.code).toBe(64);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("warren cache recount statuses|accounts");
    }
  });
});
