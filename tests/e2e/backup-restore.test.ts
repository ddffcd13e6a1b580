// The restore drill end to end: a real server process takes posts while `warren backup` runs, is killed,
// its data directory is moved aside, the backup restored in its place and a server started on it. Through the
// API the restored instance answers as the original did at the snapshot: the same accounts, relationships,
// notifications, scheduled statuses (a pending job), media files served byte for byte, and statuses: every
// post acknowledged before the backup began, none sent after it ended, and each one it has unchanged.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { restartableWarren } from "../../bench/lib/restartable.ts";
import { BenchClient, type User } from "../../bench/lib/client.ts";
import type { Warren } from "../../bench/lib/servers.ts";
import { eventually } from "../helpers/eventually.ts";
import { jpeg } from "../helpers/media.ts";

setDefaultTimeout(120_000);

const root = mkdtempSync(join(tmpdir(), "warren-backup-e2e-"));
const dataDir = join(root, "data");
const warren = restartableWarren(dataDir);
const client = new BenchClient(warren as unknown as Warren);
afterAll(async () => {
  await warren.stop();
  rmSync(root, { recursive: true, force: true });
});

type Json = any;
const get = (path: string, user: User) => client.api<Json>(path, { token: user.token });

async function all(path: string, user: User): Promise<Json[]> {
  const out: Json[] = [];
  for (let maxId = ""; ; ) {
    const page = await get(`${path}${path.includes("?") ? "&" : "?"}limit=40${maxId ? `&max_id=${maxId}` : ""}`, user);
    out.push(...page);
    if (page.length < 40) return out;
    maxId = page.at(-1).id;
  }
}

/** Everything the comparison looks at, as each user sees it (alice's statuses separately). */
async function capture(users: User[], ids: string[]) {
  const seen: Record<string, unknown> = {};
  for (const user of users) {
    seen[`${user.username} accounts`] = await Promise.all(ids.map((id) => get(`/api/v1/accounts/${id}`, user)));
    seen[`${user.username} relationships`] = await get(`/api/v1/accounts/relationships?${ids.map((id) => `id[]=${id}`).join("&")}`, user);
    seen[`${user.username} notifications`] = await all("/api/v1/notifications", user);
    seen[`${user.username} scheduled`] = await get("/api/v1/scheduled_statuses", user);
    seen[`${user.username} following`] = await all(`/api/v1/accounts/${ids[users.indexOf(user)]}/following`, user);
  }
  return seen;
}

async function upload(user: User): Promise<Json> {
  const body = new FormData();
  body.append("file", new File([await jpeg(64, 48)], "picture.jpg", { type: "image/jpeg" }));
  body.append("description", "a picture");
  const res = await fetch(`${warren.url}/api/v2/media`, { method: "POST", headers: { authorization: `Bearer ${user.token}` }, body });
  expect(res.status).toBe(200);
  return res.json();
}

/** `value` without alice's status count and last post time, which follow her posts (wherever her account is nested). */
function withoutPostings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPostings);
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  const isAlice = (value as Json).username === "alice";
  for (const [key, inner] of Object.entries(value)) if (!(isAlice && (key === "statuses_count" || key === "last_status_at"))) out[key] = withoutPostings(inner);
  return out;
}

const bytesOf = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer()).toString("base64");

test("a backup taken under writes restores to an instance that answers as the original did", async () => {
  await warren.start();
  const [alice, bob, carol] = [await client.user("alice"), await client.user("bob"), await client.user("carol")];
  const users = [alice, bob, carol];
  const ids = await Promise.all(users.map(async (u) => (await get("/api/v1/accounts/verify_credentials", u)).id as string));
  const [aliceId, bobId, carolId] = ids as [string, string, string];

  // A settled world: follows, a block, a mention, a favourite, a picture, a status scheduled for later.
  await client.api(`/api/v1/accounts/${aliceId}/follow`, { method: "POST", token: bob.token });
  await client.api(`/api/v1/accounts/${aliceId}/follow`, { method: "POST", token: carol.token });
  await client.api(`/api/v1/accounts/${bobId}/block`, { method: "POST", token: carol.token });
  const media = await upload(alice);
  const pictured = await client.api<Json>("/api/v1/statuses", { token: alice.token, json: { status: "a picture", media_ids: [media.id] } });
  const mention = await client.api<Json>("/api/v1/statuses", { token: bob.token, json: { status: "hello @alice" } });
  await client.api(`/api/v1/statuses/${pictured.id}/favourite`, { method: "POST", token: carol.token });
  const later = new Date(Date.now() + 3600_000).toISOString();
  await client.api("/api/v1/statuses", { token: alice.token, json: { status: "later", scheduled_at: later } });
  await eventually(async () => (await get("/api/v1/notifications", alice)).length === 4);
  const picture = await bytesOf(pictured.media_attachments[0].url);

  // Alice posts all along; the backup runs meanwhile.
  const sent: { id: string; startedAt: number; answeredAt: number }[] = [];
  let writing = true;
  const writer = (async () => {
    for (let n = 0; writing; n++) {
      const startedAt = performance.now();
      const status = await client.api<Json>("/api/v1/statuses", { token: alice.token, json: { status: `post ${n}` } });
      sent.push({ id: status.id, startedAt, answeredAt: performance.now() });
    }
  })();
  await eventually(async () => sent.length >= 10);
  const backupStarted = performance.now();
  const run = await warren.cli("backup", `--to=${join(root, "backup")}`);
  const backupEnded = performance.now();
  expect(run.stderr).toContain("database: 100%");
  expect(run.code).toBe(0);
  await eventually(async () => sent.filter((s) => s.startedAt > backupEnded).length >= 5);
  writing = false;
  await writer;
  const original = await capture(users, ids);
  const originalStatuses = await all(`/api/v1/accounts/${aliceId}/statuses`, alice);
  await warren.kill9();

  renameSync(dataDir, join(root, "data-original"));
  const restore = await warren.cli("restore", `--from=${join(root, "backup")}`);
  expect(restore.stdout).toContain("checksums verified");
  expect(restore.code).toBe(0);
  await warren.start();

  // Statuses: a prefix in time of what the original had, each unchanged.
  const restoredStatuses = await all(`/api/v1/accounts/${aliceId}/statuses`, alice);
  const restoredIds = new Set(restoredStatuses.map((s) => s.id));
  for (const s of sent.filter((s) => s.answeredAt < backupStarted)) expect(restoredIds.has(s.id)).toBe(true);
  for (const s of sent.filter((s) => s.startedAt > backupEnded)) expect(restoredIds.has(s.id)).toBe(false);
  const newest = restoredStatuses[0].id;
  expect(withoutPostings(restoredStatuses)).toEqual(withoutPostings(originalStatuses.filter((s) => BigInt(s.id) <= BigInt(newest))));
  expect(restoredIds.has(pictured.id) && (await get(`/api/v1/statuses/${mention.id}`, bob)).content).toContain("hello");

  // Everything else as the original answered it.
  const restored = await capture(users, ids);
  for (const [part, seen] of Object.entries(restored)) expect([part, withoutPostings(seen)]).toEqual([part, withoutPostings(original[part])]);
  const aliceSeen = (restored["bob accounts"] as Json[])[0];
  expect(aliceSeen.statuses_count).toBe(restoredStatuses.length);
  expect((restored["alice scheduled"] as Json[]).map((s) => s.params.text)).toEqual(["later"]);
  expect((restored["carol relationships"] as Json[]).find((r) => r.id === bobId).blocking).toBe(true);
  expect(await bytesOf(pictured.media_attachments[0].url)).toBe(picture);
  expect(carolId).toBeTruthy();
});
