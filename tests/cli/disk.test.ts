// `warren usage` and `warren compact` run as the real CLI (child processes) on the data directory of an
// instance that posted and then deleted most of its statuses: usage shows where the bytes are, compact refuses
// while a server runs there, then gives the space back, and the instance answers as before.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { open } from "lmdb";
import { KEYSPACES } from "../../src/store/keys.ts";
import { call, newUser, postStatus } from "../http/statuses-helpers.ts";

setDefaultTimeout(60_000);

const POSTED = 240;
const KEPT = 30;
let dir: string;
let accountId: string;
let before: unknown;

const fileBytes = () => statSync(join(dir, "warren.lmdb")).size;
const ownStatuses = (t: TestApp) => call(t, "GET", `/api/v1/accounts/${accountId}/statuses?limit=40`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-disk-"));
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  const alice = await newUser(t, "disk");
  accountId = alice.id;
  const ids: string[] = [];
  for (let i = 0; i < POSTED; i++) ids.push((await postStatus(t, alice, `post ${i} ${"words to fill the page ".repeat(20)}`)).id);
  for (const id of ids.slice(KEPT)) expect((await call(t, "DELETE", `/api/v1/statuses/${id}`, alice.token)).status).toBe(200);
  await t.deps.jobs.drain();
  before = (await ownStatuses(t)).body;
  expect((before as unknown[]).length).toBe(KEPT);
  await t.close();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("usage prints entries, key and value bytes and pages per keyspace, largest first", async () => {
  const table = await runWarren(dir, "usage");
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/^keyspace +entries +key MiB +value MiB +B\/entry +on disk MiB +share\n/);
  expect(table.stdout).toMatch(/\nstatuses +\d+ /);
  expect(table.stdout).toMatch(/LMDB file: [\d.]+ MiB/);
  const json = JSON.parse((await runWarren(dir, "usage", "--json")).stdout);
  const statuses = json.keyspaces.find((k: { name: string }) => k.name === "statuses");
  // The kept statuses and msgpack's shared structures entry.
  expect(statuses.entries).toBe(KEPT + 1);
  // Bytes as stored: each record holds 460 letters of text twice (text and HTML), LZ4-compressed (schema 8).
  expect(statuses.valueBytes).toBeGreaterThan(KEPT * 100);
  expect(statuses.valueBytes).toBeLessThan(KEPT * 400);
  expect(statuses.pageBytes).toBeGreaterThan(0);
  expect(json.fileBytes).toBe(fileBytes());
  expect((await runWarren(dir, "usage", "--bogus")).code).toBe(64);
});

const MDB_DUPFIXED = 0x10;

/** Whether a sub-database is MDB_DUPFIXED: its MDB_db record in the main database, md_flags after md_pad. */
async function dupFixed(name: string): Promise<boolean> {
  const env = open({ path: join(dir, "warren.lmdb"), readOnly: true, maxDbs: 128, compression: false, encoding: "binary", keyEncoding: "binary" });
  try {
    // lmdb-js writes each name NUL-terminated.
    const named = (key: unknown) => Buffer.from(key as Buffer).toString().replace(/\0$/, "") === name;
    const record = [...env.getRange({})].find(({ key }) => named(key))!.value as Buffer;
    return (record.readUInt16LE(4) & MDB_DUPFIXED) !== 0;
  } finally {
    await env.close();
  }
}

/** Starts `warren serve` on the data directory and resolves once it listens. */
async function startServe() {
  const child = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    env: { ...process.env, WARREN_DATA_DIR: dir, WARREN_PORT: "0", WARREN_JOB_WORKERS: "0", WARREN_LOG: "on" },
    stdout: "ignore",
    stderr: "pipe",
  });
  let stderr = "";
  const decoder = new TextDecoder();
  const reader = child.stderr.getReader();
  while (!stderr.includes("warren listening")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`serve ended: ${stderr}`);
    stderr += decoder.decode(value);
  }
  reader.releaseLock();
  return child;
}

test("compact refuses while a server runs on the data directory, then gives the space back", async () => {
  const server = await startServe();
  const sizeBefore = fileBytes();
  const refused = await runWarren(dir, "compact");
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`a Warren server (pid ${server.pid}) is running on ${dir}: stop it`);
  expect(fileBytes()).toBe(sizeBefore);
  server.kill("SIGTERM");
  await server.exited;

  const compacted = await runWarren(dir, "compact");
  expect(compacted.stderr).toContain("Compacting");
  expect(compacted.code).toBe(0);
  expect(compacted.stdout).toMatch(/^OK, compacted \d+ entries in [\d.]+ s: [\d.]+ MiB before, [\d.]+ MiB after \([\d.]+ MiB given back\)\n$/);
  expect(fileBytes()).toBeLessThan(sizeBefore * 0.6);
  // The copy's sub-databases keep their flags: search_postings' fixed-size rows stay MDB_DUPFIXED.
  expect(await dupFixed(KEYSPACES.searchPostings)).toBe(true);

  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  try {
    expect((await ownStatuses(t)).body).toEqual(before);
    const [first] = before as { id: string }[];
    expect((await call(t, "GET", `/api/v1/statuses/${first!.id}`)).status).toBe(200);
  } finally {
    await t.deps.jobs.stop();
    await t.deps.store.close();
  }
});

test("compact says what is wrong with a directory that holds no data", async () => {
  const empty = mkdtempSync(join(tmpdir(), "warren-empty-"));
  try {
    const run = await runWarren(empty, "compact");
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`no Warren data in ${empty} (set WARREN_DATA_DIR)\n`);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
