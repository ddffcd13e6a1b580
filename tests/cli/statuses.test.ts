// `warren statuses remove [--days=N] [--dry-run]` run as the real CLI on the data directory of a running
// in-process app: an old remote status nobody here touched goes; one a local account favourited, one that
// mentions a local account, a recent one and local ones stay.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { idAtTime } from "../../src/lib/ids.ts";
import { call, newUser, postStatus, type User } from "../http/statuses-helpers.ts";
import { remoteAccount, remoteStatus } from "../http/timelines-helpers.ts";

setDefaultTimeout(30_000);

const DAY_MS = 86_400_000;
let dir: string;
let t: TestApp;
let alice: User;
const ids: Record<string, string> = {};

const statusAnswer = async (id: string) => (await call(t, "GET", `/api/v1/statuses/${id}`, alice.token)).status;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-statuses-"));
  t = await startTestApp({ WARREN_DATA_DIR: dir });
  alice = await newUser(t, "keep");
  const author = await remoteAccount(t, "faraway");
  // Ids are times (lib/ids.ts): statuses that arrived 100 days ago, each its own.
  let n = 0;
  const old = () => String(BigInt(idAtTime(Date.now() - 100 * DAY_MS)) + BigInt(++n)).padStart(18, "0");
  ids.untouched = (await remoteStatus(t, author, { id: old() })).id;
  ids.favourited = (await remoteStatus(t, author, { id: old() })).id;
  ids.mentioning = (await remoteStatus(t, author, { id: old(), mentionIds: [alice.id.padStart(18, "0")] })).id;
  ids.recent = (await remoteStatus(t, author)).id;
  ids.local = (await postStatus(t, alice, "mine")).id;
  expect((await call(t, "POST", `/api/v1/statuses/${ids.favourited}/favourite`, alice.token)).status).toBe(200);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

test("--dry-run counts the old untouched remote statuses and removes none", async () => {
  const run = await runWarren(dir, "statuses", "remove", "--days=30", "--dry-run");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("OK, would remove 1 remote statuses (dry run)\n");
  expect(run.stderr).toContain("Examining statuses");
  expect(await statusAnswer(ids.untouched!)).toBe(200);
});

test("removes only the old remote status nobody here interacted with", async () => {
  const run = await runWarren(dir, "statuses", "remove", "--days=30");
  expect(run.stdout).toBe("OK, removed 1 remote statuses\n");
  t.deps.store.freshSnapshot();
  expect(await statusAnswer(ids.untouched!)).toBe(404);
  for (const kept of ["favourited", "mentioning", "recent", "local"]) expect(await statusAnswer(ids[kept]!)).toBe(200);
  expect((await runWarren(dir, "statuses", "remove", "--days=30")).stdout).toBe("OK, removed 0 remote statuses\n");
});

test("a bad --days is a usage error (64)", async () => {
  const run = await runWarren(dir, "statuses", "remove", "--days=soon");
  expect(run.code).toBe(64);
  expect(run.stderr).toContain("warren statuses remove [--days=N] [--dry-run]");
});
