// Schema 6 (docs/disk.md): statuses are stored without their id and, for local ones, without the addresses
// their author's give; notifications without the ids of their key. Records in the schema-5 form (every field)
// are packed by migration 6, and the API answers the same before and after; an address that is not the derived
// one (the instance moved) is kept.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { openStore, type Store } from "../../src/store/db.ts";
import { schemaVersion } from "../../src/store/migrations.ts";
import { readStatus } from "../../src/store/statuses.ts";
import { getNotification } from "../../src/store/notifications.ts";
import { call, follow, newUser, postStatus, type User } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "warren-pack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let alice: User;
let bob: User;
let statusIds: string[];
let moved: string;
let answers: unknown[];
const OLD_URI = "https://old.example/users/x/statuses/1";
const OLD_URL = "https://old.example/@x/1";

/** What alice and bob see: the statuses, alice's notifications, bob's home. */
async function answersOf(t: TestApp) {
  const out: unknown[] = [];
  for (const id of statusIds) out.push((await call(t, "GET", `/api/v1/statuses/${id}`, bob.token)).body);
  out.push((await call(t, "GET", "/api/v1/notifications", alice.token)).body);
  out.push((await call(t, "GET", "/api/v1/timelines/home", bob.token)).body);
  return out;
}

const rawStatuses = (store: Store) => statusIds.map((id) => store.db.statuses.get(id.padStart(18, "0")));
const rawNotifications = (store: Store) =>
  [...store.db.notifications.getRange({ start: [alice.id.padStart(18, "0")], end: [alice.id.padStart(18, "0"), "\uffff"] })].map((row) => row.value);

beforeAll(async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  alice = await newUser(t, "pack");
  bob = await newUser(t, "pack");
  await follow(t, bob, alice);
  const post = await postStatus(t, alice, "hello @" + bob.username);
  const reply = await postStatus(t, bob, { status: "@" + alice.username + " hi", in_reply_to_id: post.id });
  const reblog = (await call(t, "POST", `/api/v1/statuses/${post.id}/reblog`, bob.token)).body;
  await call(t, "POST", `/api/v1/statuses/${post.id}/favourite`, bob.token);
  const old = await postStatus(t, alice, "written when the instance had another address");
  statusIds = [post.id, reply.id, reblog.id, old.id];
  moved = old.id;
  await t.deps.jobs.drain();

  // New records are written packed.
  for (const stored of rawStatuses(t.deps.store)) {
    expect(stored.id).toBeUndefined();
    expect(stored.uri).toBeUndefined();
    expect(stored.url).toBeUndefined();
  }
  const notifications = rawNotifications(t.deps.store);
  expect(notifications.length).toBeGreaterThanOrEqual(3);
  for (const stored of notifications) expect(stored.id).toBeUndefined();
  // The answers expected after the migration: these, with the moved status at its old addresses.
  const movedStatus = (await call(t, "GET", `/api/v1/statuses/${moved}`)).body;
  answers = JSON.parse(
    JSON.stringify(await answersOf(t))
      .replaceAll(JSON.stringify(movedStatus.uri), JSON.stringify(OLD_URI))
      .replaceAll(JSON.stringify(movedStatus.url), JSON.stringify(OLD_URL)),
  );
  await t.deps.jobs.stop();
  await t.deps.store.close();

  // Back to the schema-5 form: every field in the value, and one status whose addresses are no longer derived.
  const store = openStore(dir, { migrate: false });
  await store.write(() => {
    for (const id of statusIds) {
      const status = readStatus(store, id.padStart(18, "0"))!;
      const full = id === moved ? { ...status, uri: OLD_URI, url: OLD_URL } : status;
      store.db.statuses.put(status.id, full);
    }
    for (const { key } of [...store.db.notifications.getRange({})]) {
      if (Array.isArray(key)) store.db.notifications.put(key, getNotification(store, key[0], key[1]));
    }
    store.db.meta.put("schema_version", 5);
  });
  for (const stored of rawStatuses(store)) expect(stored.uri).toBeDefined();
  for (const stored of rawNotifications(store)) expect(stored.recipientId).toBe(alice.id.padStart(18, "0"));
  await store.close();
}, 120_000);

test("migration 6 packs the records and keeps an address that is not derived", async () => {
  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(6);
    for (const [i, stored] of rawStatuses(store).entries()) {
      expect(stored.id).toBeUndefined();
      if (statusIds[i] === moved) expect(stored.uri).toBe(OLD_URI);
      else expect(stored.uri).toBeUndefined();
    }
    for (const stored of rawNotifications(store)) {
      expect(stored.id).toBeUndefined();
      expect(stored.recipientId).toBeUndefined();
    }
    expect(readStatus(store, moved.padStart(18, "0"))!.url).toBe(OLD_URL);
  } finally {
    await store.close();
  }
});

test("the API answers as it did from the schema-5 records", async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  try {
    const after = await answersOf(t);
    expect(after).toEqual(answers);
    const [post] = after as { uri: string; url: string; id: string }[];
    expect(post!.uri).toBe(`http://localhost:3000/users/${alice.username}/statuses/${post!.id}`);
    expect(post!.url).toBe(`http://localhost:3000/@${alice.username}/${post!.id}`);
    expect((after[3] as { uri: string }).uri).toBe(OLD_URI);
  } finally {
    await t.deps.jobs.stop();
    await t.deps.store.close();
  }
});
