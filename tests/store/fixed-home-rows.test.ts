// Schema 8 (docs/disk.md): home rows are 16 bytes each (status id, author id) in an MDB_DUPFIXED keyspace.
// A home written in the schema 4–7 form (variable rows in home_rows, 24 bytes for a reblog) is moved by
// migration 8, and the home timeline answers the same before and after; removing a status (a reblog
// included) still finds its row, and `warren compact` keeps the keyspace's fixed-size rows.
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
import { call, follow, newUser, postStatus, type User } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "warren-fixed-home-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let alice: User;
let bob: User;
let carol: User;
let reblogId: string;
let home: unknown;

const pad = (id: string) => id.padStart(18, "0");
const rowCount = (store: Store, name: "homeFeed" | "variableHomeFeed", viewer: User) => store.db[name].getValuesCount(pad(viewer.id));
const homeOf = async (t: TestApp, user: User) => (await call(t, "GET", "/api/v1/timelines/home?limit=40", user.token)).body;

/** The row of schemas 4–7: status id, author id, and for a reblog the id it wraps. */
function variableRow(statusId: string, authorId: string, reblogOfId: string | null): Buffer {
  const bytes = Buffer.alloc(reblogOfId ? 24 : 16);
  bytes.writeBigUInt64BE(BigInt(statusId), 0);
  bytes.writeBigUInt64BE(BigInt(authorId), 8);
  if (reblogOfId) bytes.writeBigUInt64BE(BigInt(reblogOfId), 16);
  return bytes;
}

const MDB_DUPFIXED = 0x10;

/** The raw sizes of bob's home rows, and the keyspace's LMDB flags (its MDB_db record in the main database). */
async function rawHomeRows(): Promise<{ sizes: number[]; dupFixed: boolean }> {
  const env = open({ path: join(dir, "warren.lmdb"), readOnly: true, maxDbs: 128, compression: false, encoding: "binary", keyEncoding: "binary" });
  try {
    const rows = env.openDB({ name: KEYSPACES.homeFeed, dupSort: true, encoding: "binary", keyEncoding: "ordered-binary" });
    const sizes = [...rows.getValues(pad(bob.id))].map((value) => (value as Buffer).length);
    // The main database maps each name (NUL-terminated as lmdb-js writes it) to its MDB_db: md_pad (4 bytes),
    // then md_flags (16 bits, little-endian on the machines Warren runs on).
    const named = (key: unknown) => Buffer.from(key as Buffer).toString().replace(/\0$/, "") === KEYSPACES.homeFeed;
    const record = [...env.getRange({})].find(({ key }) => named(key))!.value as Buffer;
    return { sizes, dupFixed: (record.readUInt16LE(4) & MDB_DUPFIXED) !== 0 };
  } finally {
    await env.close();
  }
}

beforeAll(async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  alice = await newUser(t, "fixed");
  bob = await newUser(t, "fixed");
  carol = await newUser(t, "fixed");
  await follow(t, bob, alice);
  await follow(t, bob, carol);
  // A reblog reaches bob's home when what it wraps is not already there: dave's post, bob not following dave.
  const dave = await newUser(t, "fixed");
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

  // Back to the schema-7 form: the rows as variable rows in home_rows, the fixed keyspace empty.
  const store = openStore(dir, { migrate: false });
  await store.write(() => {
    for (const { key, value } of [...store.db.homeFeed.getRange({})]) {
      const status = readStatus(store, value.statusId)!;
      store.db.variableHomeFeed.put(key, variableRow(value.statusId, value.authorId, status.reblogOfId));
    }
    store.db.homeFeed.clearSync();
    store.db.meta.put("schema_version", 7);
  });
  expect(rowCount(store, "variableHomeFeed", bob)).toBe(4);
  expect(rowCount(store, "homeFeed", bob)).toBe(0);
  await store.close();
}, 120_000);

test("migration 8 moves the rows into 16-byte rows and empties home_rows; a second run changes nothing", async () => {
  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(8);
    expect(rowCount(store, "variableHomeFeed", bob)).toBe(0);
    expect(rowCount(store, "homeFeed", bob)).toBe(4);
    await store.write(() => runMigrationStep(store, 8));
    expect(rowCount(store, "homeFeed", bob)).toBe(4);
  } finally {
    await store.close();
  }
  const raw = await rawHomeRows();
  expect(raw.sizes).toEqual([16, 16, 16, 16]);
  expect(raw.dupFixed).toBe(true);
});

test("the home timeline answers as before; a removed reblog leaves it, a new post lands in it", async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  try {
    expect(await homeOf(t, bob)).toEqual(home);
    expect((await call(t, "DELETE", `/api/v1/statuses/${reblogId}`, carol.token)).status).toBe(200);
    const later = await postStatus(t, carol, "after the upgrade");
    await t.deps.jobs.drain();
    const ids = ((await homeOf(t, bob)) as { id: string }[]).map((status) => status.id);
    expect(ids).toEqual([later.id, ...(home as { id: string }[]).map((status) => status.id).filter((id) => id !== reblogId)]);
  } finally {
    await t.deps.jobs.stop();
    await t.deps.store.close();
  }
});

test("warren compact keeps the rows fixed-size (MDB_DUPFIXED) and the home as it was", async () => {
  const before = openStore(dir);
  const rows = [...before.db.homeFeed.getRange({})].map(({ key, value }) => [key, value]);
  await before.close();
  await compactEnvironment(dir, () => {});
  const raw = await rawHomeRows();
  expect(raw.sizes).toEqual([16, 16, 16, 16]);
  expect(raw.dupFixed).toBe(true);
  const after = openStore(dir);
  try {
    expect([...after.db.homeFeed.getRange({})].map(({ key, value }) => [key, value])).toEqual(rows);
  } finally {
    await after.close();
  }
});
