// Schema 9 (docs/disk.md): the keyspaces whose keys and values are ids only (homeReblogs,
// notificationsByStatus, notificationsByPair) store each id in 8 bytes. Entries of the schema-8 form
// (ordered-binary strings, msgpack values) are moved by migration 9, and what the three are read for still
// works after it: a deleted status takes its notifications along, a block takes the blocked account's
// notifications, and a second reblog of a status a home already shows through a reblog stays out of it.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { openStore, type Store } from "../../src/store/db.ts";
import { keyspaceEntries, unpackKeyspaces } from "../helpers/packed-keyspaces.ts";
import { PACKED_KEYSPACES } from "../../src/store/pack-records.ts";
import { runMigrationStep, schemaVersion } from "../../src/store/migrations.ts";
import { block, call, follow, newUser, postStatus, type User } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "warren-packed-ids-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let alice: User;
let bob: User;
let carol: User;
let erin: User;
let mentionId: string;
let davesId: string;
let entries: string;

const entriesOf = (store: Store, names: readonly string[]) => keyspaceEntries(store, names, (key) => Array.isArray(key));
const packedNames = PACKED_KEYSPACES.map(([, packed]) => packed);
const legacyNames = PACKED_KEYSPACES.map(([legacy]) => legacy);
const types = async (t: TestApp, user: User) =>
  ((await call(t, "GET", "/api/v1/notifications", user.token)).body as { type: string; account: { id: string } }[]).map((n) => `${n.type}:${n.account.id}`);
const homeIds = async (t: TestApp, user: User) => ((await call(t, "GET", "/api/v1/timelines/home", user.token)).body as { id: string }[]).map((s) => s.id);

beforeAll(async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  alice = await newUser(t, "pk");
  bob = await newUser(t, "pk");
  carol = await newUser(t, "pk");
  erin = await newUser(t, "pk");
  const dave = await newUser(t, "pk");
  await follow(t, bob, alice);
  await follow(t, bob, carol);
  await follow(t, bob, erin);
  mentionId = (await postStatus(t, alice, `hello @${bob.username}`)).id;
  const bobs = await postStatus(t, bob, "bob's");
  await call(t, "POST", `/api/v1/statuses/${bobs.id}/favourite`, carol.token);
  davesId = (await postStatus(t, dave, "dave's")).id;
  await call(t, "POST", `/api/v1/statuses/${davesId}/reblog`, carol.token);
  await t.deps.jobs.drain();
  expect(await types(t, bob)).toEqual([`favourite:${carol.id}`, `mention:${alice.id}`]);
  entries = entriesOf(t.deps.store, packedNames);
  for (const list of JSON.parse(entries) as unknown[][]) expect(list.length).toBeGreaterThan(0);
  await t.deps.jobs.stop();
  await t.deps.store.close();

  // Back to the schema-8 form: the entries in the keyspaces of before, as ordered-binary keys and msgpack values.
  const store = await unpackKeyspaces(dir, PACKED_KEYSPACES, 8);
  expect(entriesOf(store, legacyNames)).toBe(entries);
  await store.close();
}, 120_000);

test("migration 9 moves the entries into the packed keyspaces and empties the old ones; a second run changes nothing", async () => {
  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(9);
    expect(entriesOf(store, packedNames)).toBe(entries);
    expect(entriesOf(store, legacyNames)).toBe("[[],[],[]]");
    await store.write(() => runMigrationStep(store, 9));
    expect(entriesOf(store, packedNames)).toBe(entries);
  } finally {
    await store.close();
  }
});

test("after it, deletions, blocks and reblog de-duplication find what they look for", async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  try {
    expect((await call(t, "DELETE", `/api/v1/statuses/${mentionId}`, alice.token)).status).toBe(200);
    await t.deps.jobs.drain();
    expect(await types(t, bob)).toEqual([`favourite:${carol.id}`]);
    const before = await homeIds(t, bob);
    const erins = (await call(t, "POST", `/api/v1/statuses/${davesId}/reblog`, erin.token)).body.id;
    await t.deps.jobs.drain();
    expect(await homeIds(t, bob)).toEqual(before);
    expect(before).not.toContain(erins);
    await block(t, bob, carol);
    await t.deps.jobs.drain();
    expect(await types(t, bob)).toEqual([]);
  } finally {
    await t.deps.jobs.stop();
    await t.deps.store.close();
  }
});
