// Schema 10 (docs/disk.md): a home row is the status id alone, 8 bytes. A home written in the schema 4–9 form
// (rows of status, author and reblogged ids in home_rows, 16 or 24 bytes) is moved by migration 10, and the
// home timeline answers the same before and after; removing a status (a reblog included) still finds its row,
// a muted author's statuses still leave it, and `warren compact` keeps the rows as they are.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { open } from "lmdb";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { openStore, type Store } from "../../src/store/db.ts";
import { compactEnvironment } from "../../src/store/compact.ts";
import { runMigrationStep, schemaVersion } from "../../src/store/migrations.ts";
import { KEYSPACES } from "../../src/store/keys.ts";
import { readStatus } from "../../src/store/statuses.ts";
import { call, follow, mute, newUser, postStatus, type User } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "warren-home-ids-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let alice: User;
let bob: User;
let carol: User;
let reblogId: string;
let home: unknown;

const pad = (id: string) => id.padStart(18, "0");
const rowCount = (store: Store, name: "homeFeed" | "wideHomeFeed", viewer: User) => store.db[name].getValuesCount(pad(viewer.id));
const homeOf = async (t: TestApp, user: User) => (await call(t, "GET", "/api/v1/timelines/home?limit=40", user.token)).body;

/** The row of schemas 4–9: status id, author id, and for a reblog the id it wraps. */
function wideRow(statusId: string, authorId: string, reblogOfId: string | null): Buffer {
  const bytes = Buffer.alloc(reblogOfId ? 24 : 16);
  bytes.writeBigUInt64BE(BigInt(statusId), 0);
  bytes.writeBigUInt64BE(BigInt(authorId), 8);
  if (reblogOfId) bytes.writeBigUInt64BE(BigInt(reblogOfId), 16);
  return bytes;
}

/** The raw sizes of bob's home rows. */
async function rawSizes(): Promise<number[]> {
  const env = open({ path: join(dir, "warren.lmdb"), readOnly: true, maxDbs: 128, compression: false });
  try {
    const rows = env.openDB({ name: KEYSPACES.homeFeed, dupSort: true, encoding: "binary", keyEncoding: "ordered-binary" });
    return [...rows.getValues(pad(bob.id))].map((value) => (value as Buffer).length);
  } finally {
    await env.close();
  }
}

beforeAll(async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  alice = await newUser(t, "hid");
  bob = await newUser(t, "hid");
  carol = await newUser(t, "hid");
  await follow(t, bob, alice);
  await follow(t, bob, carol);
  // A reblog reaches bob's home when what it wraps is not already there: dave's post, bob not following dave.
  const dave = await newUser(t, "hid");
  const daves = await postStatus(t, dave, "dave's");
  await postStatus(t, alice, "first");
  await postStatus(t, carol, "carol's");
  await postStatus(t, alice, "second");
  reblogId = (await call(t, "POST", `/api/v1/statuses/${daves.id}/reblog`, carol.token)).body.id;
  await t.deps.jobs.drain();
  home = await homeOf(t, bob);
  expect((home as unknown[]).length).toBe(4);
  await t.deps.jobs.stop();
  await t.deps.store.close();

  // Back to the schema-9 form: the rows as wide rows in home_rows, the new keyspace empty.
  const store = openStore(dir, { migrate: false });
  await store.write(() => {
    for (const { key, value } of [...store.db.homeFeed.getRange({})]) {
      const status = readStatus(store, value)!;
      store.db.wideHomeFeed.put(key, wideRow(value, status.accountId, status.reblogOfId));
    }
    store.db.homeFeed.clearSync();
    store.db.meta.put("schema_version", 9);
  });
  expect(rowCount(store, "wideHomeFeed", bob)).toBe(4);
  expect(rowCount(store, "homeFeed", bob)).toBe(0);
  await store.close();
}, 120_000);

test("migration 10 moves the rows into 8-byte rows and empties home_rows; a second run changes nothing", async () => {
  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(10);
    expect(rowCount(store, "wideHomeFeed", bob)).toBe(0);
    expect(rowCount(store, "homeFeed", bob)).toBe(4);
    await store.write(() => runMigrationStep(store, 10));
    expect(rowCount(store, "homeFeed", bob)).toBe(4);
  } finally {
    await store.close();
  }
  expect(await rawSizes()).toEqual([8, 8, 8, 8]);
});

test("the home timeline answers as before; a removed reblog leaves it, a new post lands in it, a muted author leaves it", async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  try {
    expect(await homeOf(t, bob)).toEqual(home);
    expect((await call(t, "DELETE", `/api/v1/statuses/${reblogId}`, carol.token)).status).toBe(200);
    const later = await postStatus(t, carol, "after the upgrade");
    await t.deps.jobs.drain();
    const ids = ((await homeOf(t, bob)) as { id: string }[]).map((status) => status.id);
    const kept = (home as { id: string }[]).map((status) => status.id).filter((id) => id !== reblogId);
    expect(ids).toEqual([later.id, ...kept]);
    await mute(t, bob, alice);
    const alices = new Set((home as { id: string; account: { id: string } }[]).filter((s) => s.account.id === alice.id).map((s) => s.id));
    expect(alices.size).toBe(2);
    expect(((await homeOf(t, bob)) as { id: string }[]).map((status) => status.id)).toEqual([later.id, ...kept.filter((id) => !alices.has(id))]);
  } finally {
    await t.deps.jobs.stop();
    await t.deps.store.close();
  }
});

test("warren compact keeps the rows and the home as they were", async () => {
  const before = openStore(dir);
  const rows = [...before.db.homeFeed.getRange({})].map(({ key, value }) => [key, value]);
  await before.close();
  await compactEnvironment(dir, () => {});
  expect(await rawSizes()).toEqual([8, 8, 8, 8]);
  const after = openStore(dir);
  try {
    expect([...after.db.homeFeed.getRange({})].map(({ key, value }) => [key, value])).toEqual(rows);
  } finally {
    await after.close();
  }
});
