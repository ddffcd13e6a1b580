// Schema 8 (docs/disk.md): status records of 128 bytes or more are stored LZ4-compressed. Records of the
// schema-7 form (plain msgpack) are read as they are, compressed by migration 8, and the API answers the same
// before and after; a record under the threshold stays as it is.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { RootDatabase } from "lmdb";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { openStore, type Store } from "../../src/store/db.ts";
import { runMigrationStep, schemaVersion } from "../../src/store/migrations.ts";
import { STATUS_COMPRESSION_THRESHOLD } from "../../src/store/status-compression.ts";
import { readStatus } from "../../src/store/statuses.ts";
import { call, follow, newUser, postStatus, type User } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "warren-compressed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COMPRESSED = 254;
let alice: User;
let bob: User;
let statusIds: string[];
let answers: unknown[];
let plainLength: number;

const pad = (id: string) => id.padStart(18, "0");
/**
 * The statuses keyspace opened without compression, in the store's environment. Records are put as
 * self-describing msgpack maps: the keyspace's shared structures entry is itself compressed now.
 */
const plain = (store: Store, encoding: "binary" | "msgpack") =>
  (store.db.statuses as unknown as RootDatabase).openDB({ name: "statuses", encoding, keyEncoding: "ordered-binary", compression: false });
const rawRecords = (store: Store) => statusIds.map((id) => plain(store, "binary").getBinary(pad(id))!);

async function answersOf(t: TestApp) {
  const out: unknown[] = [];
  for (const id of statusIds) out.push((await call(t, "GET", `/api/v1/statuses/${id}`, bob.token)).body);
  out.push((await call(t, "GET", "/api/v1/timelines/home", bob.token)).body);
  out.push((await call(t, "GET", `/api/v1/accounts/${alice.id}/statuses`, bob.token)).body);
  return out;
}

beforeAll(async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  alice = await newUser(t, "lz");
  bob = await newUser(t, "lz");
  await follow(t, bob, alice);
  const long = await postStatus(t, alice, `#words ${"the same words again and again, ".repeat(12)}@${bob.username}`);
  const short = await postStatus(t, alice, "hi");
  const reblog = (await call(t, "POST", `/api/v1/statuses/${long.id}/reblog`, bob.token)).body;
  statusIds = [long.id, short.id, reblog.id];
  await t.deps.jobs.drain();
  answers = await answersOf(t);
  // New records of the threshold or more are written compressed.
  const [longRaw] = rawRecords(t.deps.store);
  expect(longRaw![0]).toBe(COMPRESSED);
  await t.deps.jobs.stop();
  await t.deps.store.close();

  // Back to the schema-7 form: every record plain msgpack.
  const store = openStore(dir, { migrate: false });
  const records = statusIds.map((id) => store.db.statuses.get(pad(id)));
  await store.write(() => {
    statusIds.forEach((id, i) => plain(store, "msgpack").put(pad(id), records[i]));
    store.db.meta.put("schema_version", 7);
  });
  for (const raw of rawRecords(store)) expect(raw[0]).not.toBe(COMPRESSED);
  plainLength = rawRecords(store)[0]!.length;
  expect(plainLength).toBeGreaterThan(STATUS_COMPRESSION_THRESHOLD * 3);
  await store.close();
}, 120_000);

test("plain records read as they are before migration 8, and it compresses the large ones; a second run changes nothing", async () => {
  const before = openStore(dir, { migrate: false });
  const read = statusIds.map((id) => readStatus(before, pad(id)));
  expect(read.map((status) => status?.id)).toEqual(statusIds.map(pad));
  await before.close();

  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(8);
    const [longRaw, shortRaw, reblogRaw] = rawRecords(store);
    expect(longRaw![0]).toBe(COMPRESSED);
    expect(longRaw!.length).toBeLessThan(plainLength);
    expect(shortRaw!.length < STATUS_COMPRESSION_THRESHOLD ? shortRaw![0] !== COMPRESSED : shortRaw![0] === COMPRESSED).toBe(true);
    expect(reblogRaw!.length < STATUS_COMPRESSION_THRESHOLD ? reblogRaw![0] !== COMPRESSED : reblogRaw![0] === COMPRESSED).toBe(true);
    expect(statusIds.map((id) => readStatus(store, pad(id)))).toEqual(read);
    const once = rawRecords(store).map((raw) => Buffer.from(raw).toString("hex"));
    await store.write(() => runMigrationStep(store, 8));
    expect(rawRecords(store).map((raw) => Buffer.from(raw).toString("hex"))).toEqual(once);
  } finally {
    await store.close();
  }
});

test("the API answers as it did from the plain records", async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  try {
    expect(await answersOf(t)).toEqual(answers);
  } finally {
    await t.deps.jobs.stop();
    await t.deps.store.close();
  }
});
