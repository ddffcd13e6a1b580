// One `warren serve` per data directory (docs/scaling.md): with a supervisor of two processes running, a second
// supervisor or a lone server on the same directory is refused with one line, before it touches the data; and
// data older than the code is not migrated under the running processes (a rolling restart across a
// migration, or a command beside the server): refused with one line, the data left as it is.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWarren, warrenEnv, type Warren } from "../../bench/lib/servers.ts";
import { freePort } from "../../bench/lib/process.ts";
import { openStore } from "../../src/store/db.ts";
import { DATA_FORMAT_VERSION, schemaVersion } from "../../src/store/migrations.ts";
import { runCommand } from "../helpers/cli.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(60_000);

let dir: string;
let warren: Warren;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-exclusive-"));
  warren = await startWarren({ dataDir: dir, env: { WARREN_PROCESSES: "2", WARREN_PROCESS_HEADER: "on", WARREN_JOB_WORKERS: "1" } });
});

afterAll(async () => {
  await warren.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `warren serve` (or another command) on the same data directory, on a port of its own. */
function warrenOnSameData(args: string[], env: Record<string, string> = {}) {
  return runCommand([process.execPath, "src/main.ts", ...args], { env: warrenEnv(dir, freePort(), env) });
}

const pidFile = () => Number(readFileSync(join(dir, "warren.pid"), "utf8").trim());

async function dataFormat(): Promise<number> {
  const store = openStore(dir, { migrate: false });
  try {
    return schemaVersion(store);
  } finally {
    await store.close();
  }
}

async function setDataFormat(version: number): Promise<void> {
  const store = openStore(dir, { migrate: false });
  try {
    await store.db.meta.put("schema_version", version);
  } finally {
    await store.close();
  }
}

async function answeringPids(): Promise<Set<number>> {
  const pids = new Set<number>();
  await eventually(async () => {
    try {
      const res = await fetch(`${warren.url}/api/v1/instance`, { headers: { connection: "close" }, keepalive: false });
      await res.arrayBuffer();
      if (res.status === 200) pids.add(Number(res.headers.get("x-warren-pid")));
    } catch (error) {
      // During a rolling restart a connection queued on a listener as it closes is reset (docs/scaling.md,
      // tcp_migrate_req): ask again. Anything else is a failure.
      if ((error as { code?: string }).code !== "ECONNRESET") throw error;
    }
    return pids.size >= 2;
  }, { what: "both processes answering" });
  return pids;
}

test("a fresh data directory: both processes start at once, neither finds the store half created", async () => {
  expect((await answeringPids()).size).toBe(2);
  expect(warren.output()).not.toContain("data format");
  // The hint to create an Owner account comes once, not once per process (printed after the processes answer).
  await eventually(() => warren.output().includes("No Owner account yet"), { what: "the Owner hint" });
  expect(warren.output().match(/No Owner account yet/g)).toHaveLength(1);
});

test("a second supervisor and a lone server on the same data directory are refused with one line", async () => {
  expect(pidFile()).toBe(warren.pid);
  for (const processes of ["2", "1"]) {
    const second = await warrenOnSameData(["serve"], { WARREN_PROCESSES: processes });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(
      `warren: another warren (pid ${warren.pid}) serves ${dir}: stop it first, or run \`warren restart\` to replace its processes\n`,
    );
  }
  // The running one keeps its pid file and its processes.
  expect(pidFile()).toBe(warren.pid);
  expect((await answeringPids()).size).toBe(2);
});

test("older data is not migrated by a second `warren serve`, nor by a command beside the running one", async () => {
  await setDataFormat(DATA_FORMAT_VERSION - 1);
  try {
    const second = await warrenOnSameData(["serve"], { WARREN_PROCESSES: "2" });
    expect([second.code, second.stderr]).toEqual([1, expect.stringContaining(`another warren (pid ${warren.pid}) serves`)]);
    const command = await warrenOnSameData(["trends", "refresh"]);
    expect(command.code).toBe(1);
    expect(command.stderr).toBe(
      `warren: data directory ${dir} has data format ${DATA_FORMAT_VERSION - 1}, older than this Warren's (${DATA_FORMAT_VERSION}): ` +
        "it cannot be migrated while a running warren serves it (a rolling restart, or a command beside the server); stop warren, then start it again\n",
    );
    // Not migrated, and no safety snapshot taken.
    expect(await dataFormat()).toBe(DATA_FORMAT_VERSION - 1);
    expect(existsSync(join(dir, "snapshots"))).toBe(false);
  } finally {
    await setDataFormat(DATA_FORMAT_VERSION);
  }
});

test("a rolling restart onto older data: the new process refuses to migrate, the old ones keep serving", async () => {
  const before = await answeringPids();
  await setDataFormat(DATA_FORMAT_VERSION - 1);
  const printed = warren.output().length;
  const restart = await warren.cli("restart");
  expect(restart.code).toBe(0);
  const refusal = `has data format ${DATA_FORMAT_VERSION - 1}, older than this Warren's (${DATA_FORMAT_VERSION}): it cannot be migrated while a running warren serves it`;
  await eventually(() => warren.output().slice(printed).includes(refusal), { what: "the refusal" });
  // The processes that were serving still do, and the data is as it was.
  expect([...(await answeringPids())].sort()).toEqual([...before].sort());
  expect(await dataFormat()).toBe(DATA_FORMAT_VERSION - 1);
  // Once the data is at this Warren's format (here: set back), the supervisor's next start of the slot
  // succeeds and the rolling restart goes on.
  await setDataFormat(DATA_FORMAT_VERSION);
  await eventually(async () => {
    const pids = await answeringPids();
    return [...pids].every((pid) => !before.has(pid));
  }, { what: "both processes replaced", timeoutMs: 30_000 });
});
