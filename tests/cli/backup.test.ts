// `warren backup` / `warren restore` / `warren --version` as an operator runs them, and their refusals: a
// backup into a non-empty directory, a restore into a non-empty data directory, a damaged backup (a changed
// byte, a missing file, no manifest), a backup or a data directory of a newer data format. Start-up on older
// data takes a safety snapshot first and says where.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import { DATA_FORMAT_VERSION } from "../../src/store/migrations.ts";
import { WARREN_VERSION } from "../../src/lib/version.ts";
import { runCommand, runWarren } from "../helpers/cli.ts";
import { startTestApp } from "../helpers/app.ts";

setDefaultTimeout(60_000);

const root = mkdtempSync(join(tmpdir(), "warren-backup-cli-"));
const data = join(root, "data");
const backup = join(root, "backup");
const MEDIA_FILE = "media/accounts/avatars/000000000000000001/0123456789abcdef0123456789abcdef.png";
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function setDataFormat(dir: string, format: number): Promise<void> {
  const store = openStore(dir, { migrate: false });
  await store.write(() => store.db.meta.put("schema_version", format));
  await store.close();
}

function copyOfBackup(name: string): string {
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  Bun.spawnSync(["cp", "-a", backup, dir]);
  return dir;
}

beforeAll(async () => {
  expect((await runWarren(data, "accounts", "create", "alice", "--email=alice@example.com", "--confirmed")).code).toBe(0);
  mkdirSync(join(data, MEDIA_FILE, ".."), { recursive: true });
  writeFileSync(join(data, MEDIA_FILE), "not really a png");
  const run = await runWarren(data, "backup", `--to=${backup}`);
  expect(run.stderr).toContain("database: 100%");
  expect(run.stdout).toMatch(/^backed up .* in \d+\.\d\d s: .*1 media files.*data format \d+, Warren /);
  expect(run.code).toBe(0);
});

test("a backup holds the database, the media and a manifest with versions, counts and checksums", () => {
  const manifest = JSON.parse(readFileSync(join(backup, "manifest.json"), "utf8"));
  expect(manifest).toMatchObject({ kind: "warren-backup", warrenVersion: WARREN_VERSION, dataFormat: DATA_FORMAT_VERSION });
  expect(manifest.keyspaces.users).toBe(2); // alice and msgpack's shared structures
  expect(manifest.files.map((f: any) => f.path)).toEqual(["warren.lmdb", MEDIA_FILE]);
  for (const file of manifest.files) {
    expect(file.size).toBe(statSync(join(backup, file.path)).size);
    expect(file.sha256).toBe(new Bun.CryptoHasher("sha256").update(readFileSync(join(backup, file.path))).digest("hex"));
  }
  expect(readdirSync(data).sort()).toEqual(["media", "warren.lmdb", "warren.lmdb-lock"]); // no marker left
});

test("a backup into a non-empty directory is refused", async () => {
  const run = await runWarren(data, "backup", `--to=${backup}`);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("is not empty");
  expect((await runWarren(data, "backup")).code).toBe(64);
});

test("a restore fills a new data directory with the same accounts and files", async () => {
  const target = join(root, "restored");
  const run = await runWarren(target, "restore", `--from=${backup}`);
  expect(run.stdout).toContain("checksums verified");
  expect(run.code).toBe(0);
  expect(readFileSync(join(target, MEDIA_FILE), "utf8")).toBe("not really a png");
  const listed = await runWarren(target, "accounts", "modify", "alice", "--disable");
  expect(listed.code).toBe(0);
});

test("a restore into a non-empty data directory is refused and leaves it as it was", async () => {
  const before = readdirSync(data).sort();
  const run = await runWarren(data, "restore", `--from=${backup}`);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^restore refused: data directory .* is not empty/);
  expect(readdirSync(data).sort()).toEqual(before);
});

test("a damaged backup is refused and nothing is left behind", async () => {
  const flipped = copyOfBackup("flipped");
  const bytes = readFileSync(join(flipped, MEDIA_FILE));
  bytes.writeUInt8(bytes.readUInt8(3) ^ 1, 3);
  writeFileSync(join(flipped, MEDIA_FILE), bytes);
  const missing = copyOfBackup("missing");
  rmSync(join(missing, "warren.lmdb"));
  const unfinished = copyOfBackup("unfinished");
  rmSync(join(unfinished, "manifest.json"));
  for (const [from, message] of [
    [flipped, "does not match its SHA-256"],
    [missing, "is missing: the backup is incomplete"],
    [unfinished, "has no manifest.json"],
  ] as const) {
    const target = join(root, `into-${from.split("/").pop()}`);
    const run = await runWarren(target, "restore", `--from=${from}`);
    expect(run.stderr).toContain(message);
    expect(run.code).toBe(1);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(root).filter((name) => name.includes(".restoring"))).toEqual([]);
  }
});

test("a backup of a newer data format is refused, naming both versions", async () => {
  const newer = copyOfBackup("newer");
  const manifest = JSON.parse(readFileSync(join(newer, "manifest.json"), "utf8"));
  writeFileSync(join(newer, "manifest.json"), JSON.stringify({ ...manifest, dataFormat: DATA_FORMAT_VERSION + 1 }));
  const run = await runWarren(join(root, "into-newer"), "restore", `--from=${newer}`);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`has data format ${DATA_FORMAT_VERSION + 1}, written by a newer Warren; Warren ${WARREN_VERSION} reads data formats up to ${DATA_FORMAT_VERSION}`);
});

test("a data directory of a newer format is refused at start with one line, nothing changed", async () => {
  const dir = join(root, "from-the-future");
  expect((await runWarren(dir, "restore", `--from=${backup}`)).code).toBe(0);
  await setDataFormat(dir, DATA_FORMAT_VERSION + 1);
  for (const args of [["serve"], ["accounts", "approve", "--all"]]) {
    const run = await runWarren(dir, ...args);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `warren: data directory ${dir} has data format ${DATA_FORMAT_VERSION + 1}, written by a newer Warren; Warren ${WARREN_VERSION} reads data formats up to ${DATA_FORMAT_VERSION}: run a newer Warren, or restore a backup made by this one\n`,
    );
  }
  expect((await runWarren(dir, "version")).stdout).toContain(`data format ${DATA_FORMAT_VERSION + 1} (newer than this Warren reads)`);
});

test("older data is migrated after a safety snapshot announced in one line", async () => {
  const dir = join(root, "from-the-past");
  expect((await runWarren(dir, "restore", `--from=${backup}`)).code).toBe(0);
  await setDataFormat(dir, DATA_FORMAT_VERSION - 1);
  const run = await runWarren(dir, "accounts", "approve", "--all");
  expect(run.code).toBe(0);
  const snapshot = join(dir, "snapshots", `before-format-${DATA_FORMAT_VERSION}`);
  expect(run.stderr).toBe(
    `warren: upgrading data format ${DATA_FORMAT_VERSION - 1} to ${DATA_FORMAT_VERSION} (Warren ${WARREN_VERSION}); safety snapshot of the data before it: ${snapshot} ` +
      `(restore it with \`warren restore --from=${snapshot}\` into an empty data directory)\n`,
  );
  expect(JSON.parse(readFileSync(join(snapshot, "manifest.json"), "utf8")).dataFormat).toBe(DATA_FORMAT_VERSION - 1);
  expect(statSync(join(snapshot, MEDIA_FILE)).ino).toBe(statSync(join(dir, MEDIA_FILE)).ino); // hard link
  expect((await runWarren(dir, "version")).stdout).toContain(`data directory ${dir}: data format ${DATA_FORMAT_VERSION}\n`);
  const again = await runWarren(dir, "accounts", "approve", "--all");
  expect(again.stderr).toBe(""); // migrated once
  // The snapshot restores like any backup.
  const restored = await runWarren(join(root, "from-snapshot"), "restore", `--from=${snapshot}`);
  expect(restored.stdout).toContain(`(Warren migrates it to format ${DATA_FORMAT_VERSION} when it starts)`);
});

test("--version prints the version /api/v2/instance reports, Mastodon's form then Warren's", async () => {
  const t = await startTestApp();
  try {
    const reported = ((await (await t.request("/api/v2/instance")).json()) as { version: string }).version;
    expect(reported).toBe(`4.6.0 (compatible; Warren ${WARREN_VERSION})`);
    expect(((await (await t.request("/api/v1/instance")).json()) as { version: string }).version).toBe(reported);
    for (const word of ["--version", "version"]) {
      const run = await runCommand([process.execPath, "src/main.ts", word], { env: { ...process.env, WARREN_DATA_DIR: join(root, "none"), WARREN_LOG: "off" } });
      expect(run.stdout.split("\n")[0]).toBe(reported);
    }
  } finally {
    await t.close();
  }
});
