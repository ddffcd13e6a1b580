// Schema 11 (docs/disk.md): favourites, favouritesByStatus, favouriteOf, statusesByAccount, statusReplies,
// reblogsByStatus and reblogOf store each id in 8 bytes, as migration 9 did for three others. Entries of the
// schema-10 form (ordered-binary strings, msgpack values) are moved by migration 11, a second run changes
// nothing, the API answers what it answered before, and undoing a favourite or a reblog still finds its rows.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { openStore, type Store } from "../../src/store/db.ts";
import { keyspaceEntries, unpackKeyspaces } from "../helpers/packed-keyspaces.ts";
import { PACKED_KEYSPACES_11 } from "../../src/store/pack-records.ts";
import { runMigrationStep, schemaVersion } from "../../src/store/migrations.ts";
import { call, follow, newUser, postStatus, type User } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "warren-packed-ids-11-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let alice: User;
let bob: User;
let carol: User;
let rootId: string;
let entries: string;
let answers: string;

const entriesOf = (store: Store, names: readonly string[]) => keyspaceEntries(store, names);
const packedNames = PACKED_KEYSPACES_11.map(([, packed]) => packed);
const legacyNames = PACKED_KEYSPACES_11.map(([legacy]) => legacy);

/** What the seven keyspaces are read for, through the API. */
async function answersOf(t: TestApp): Promise<string> {
  const paths = [
    ["/api/v1/favourites", carol],
    [`/api/v1/statuses/${rootId}/favourited_by`, bob],
    [`/api/v1/statuses/${rootId}/reblogged_by`, bob],
    [`/api/v1/statuses/${rootId}/context`, carol],
    [`/api/v1/statuses/${rootId}`, carol],
    [`/api/v1/accounts/${alice.id}/statuses`, bob],
    [`/api/v1/accounts/${carol.id}/statuses?limit=2`, bob],
    [`/api/v1/accounts/${carol.id}`, bob],
  ] as const;
  const out = [];
  for (const [path, user] of paths) {
    const answer = await call(t, "GET", path, user.token);
    expect(answer.status).toBe(200);
    out.push(answer.body);
  }
  return JSON.stringify(out);
}

beforeAll(async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  alice = await newUser(t, "pm");
  bob = await newUser(t, "pm");
  carol = await newUser(t, "pm");
  await follow(t, bob, alice);
  rootId = (await postStatus(t, alice, "root")).id;
  await postStatus(t, bob, { status: "a reply", in_reply_to_id: rootId });
  await postStatus(t, carol, { status: "another", in_reply_to_id: rootId });
  for (const user of [bob, carol]) {
    expect((await call(t, "POST", `/api/v1/statuses/${rootId}/favourite`, user.token)).status).toBe(200);
    expect((await call(t, "POST", `/api/v1/statuses/${rootId}/reblog`, user.token)).status).toBe(200);
  }
  await postStatus(t, carol, "carol's own");
  await t.deps.jobs.drain();
  answers = await answersOf(t);
  entries = entriesOf(t.deps.store, packedNames);
  for (const list of JSON.parse(entries) as unknown[][]) expect(list.length).toBeGreaterThan(0);
  await t.deps.jobs.stop();
  await t.deps.store.close();

  // Back to the schema-10 form: the entries in the keyspaces of before, as ordered-binary keys and msgpack values.
  const store = await unpackKeyspaces(dir, PACKED_KEYSPACES_11, 10);
  expect(entriesOf(store, legacyNames)).toBe(entries);
  expect(entriesOf(store, packedNames)).toBe(JSON.stringify(packedNames.map(() => [])));
  await store.close();
}, 120_000);

test("migration 11 moves the entries into the packed keyspaces and empties the old ones; a second run changes nothing", async () => {
  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(11);
    expect(entriesOf(store, packedNames)).toBe(entries);
    expect(entriesOf(store, legacyNames)).toBe(JSON.stringify(legacyNames.map(() => [])));
    await store.write(() => runMigrationStep(store, 11));
    expect(entriesOf(store, packedNames)).toBe(entries);
  } finally {
    await store.close();
  }
});

test("after it, the API answers as before, and undoing a favourite or a reblog finds its rows", async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  try {
    expect(await answersOf(t)).toBe(answers);
    expect((await call(t, "POST", `/api/v1/statuses/${rootId}/unfavourite`, carol.token)).status).toBe(200);
    expect((await call(t, "POST", `/api/v1/statuses/${rootId}/unreblog`, carol.token)).status).toBe(200);
    await t.deps.jobs.drain();
    const root = (await call(t, "GET", `/api/v1/statuses/${rootId}`, carol.token)).body;
    expect([root.favourites_count, root.reblogs_count, root.replies_count, root.favourited, root.reblogged]).toEqual([1, 1, 2, false, false]);
    const favourites = (await call(t, "GET", "/api/v1/favourites", carol.token)).body as unknown[];
    expect(favourites).toEqual([]);
    const by = (await call(t, "GET", `/api/v1/statuses/${rootId}/favourited_by`, bob.token)).body as { id: string }[];
    expect(by.map((a) => a.id)).toEqual([bob.id]);
    // Ids that are no 8-byte number find nothing (the key encoder would throw on them): 404s and empty pages.
    for (const bad of ["abc", "99999999999999999999999", "-1"]) {
      for (const path of [`/api/v1/statuses/${bad}/favourited_by`, `/api/v1/statuses/${bad}/reblogged_by`, `/api/v1/statuses/${bad}/context`, `/api/v1/accounts/${bad}/statuses`]) {
        expect((await call(t, "GET", path, bob.token)).status).toBe(404);
      }
      expect((await call(t, "GET", `/api/v1/favourites?max_id=${bad}&since_id=${bad}&min_id=${bad}`, carol.token)).status).toBe(200);
      expect((await call(t, "GET", `/api/v1/accounts/${alice.id}/statuses?max_id=${bad}&min_id=${bad}`, bob.token)).status).toBe(200);
    }
  } finally {
    await t.deps.jobs.stop();
    await t.deps.store.close();
  }
});
