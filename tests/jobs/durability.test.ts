// A job survives kill -9 of a real server process and runs when the server starts again on the same data.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { openStore } from "../../src/store/db.ts";
import { claimedJobs, jobCounts, pendingJobs } from "../../src/store/jobs.ts";
import { marked, TEST_HANDLERS } from "./fixtures/queue.ts";
import { eventually } from "../helpers/eventually.ts";

const ROOT = join(import.meta.dir, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "warren-durable-"));
const children: Subprocess[] = [];

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exited));
  rmSync(dir, { recursive: true, force: true });
});

function serve(): Subprocess<"ignore", "ignore", "pipe"> {
  const child = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      WARREN_DATA_DIR: dir,
      WARREN_PORT: "0",
      WARREN_JOB_WORKERS: "1",
      WARREN_JOB_HANDLERS_EXTRA: TEST_HANDLERS,
      WARREN_LOG: "info",
    },
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  children.push(child);
  return child;
}

test("a claimed job survives kill -9 of the server and runs after the restart", async () => {
  const store = openStore(dir);
  try {
    await store.write(() => enqueueJob(store, "test.sleep", { key: "durable", ms: 1000 }));

    const first = serve();
    await eventually(() => marked(store, "durable:started"), { timeoutMs: 15_000 });
    first.kill("SIGKILL");
    expect(await first.exited).not.toBe(0);
    expect(marked(store, "durable")).toBeUndefined();
    // The server's own jobs (trends.refresh) may have been claimed with it, and still be.
    expect(claimedJobs(store).filter((job) => job.type === "test.sleep").map((job) => job.owner)).toEqual([first.pid]);

    const second = serve();
    const done = await eventually(() => marked(store, "durable"), { timeoutMs: 15_000 });
    expect(done.attempt).toBe(2);
    second.kill("SIGTERM");
    const code = await second.exited;
    const log = await new Response(second.stderr).text();
    expect(log).toContain("released jobs claimed by a stopped process");
    expect(code).toBe(0);
    // Nothing claimed or dead; only the server's own recurring chain (trends.refresh) may wait for its time.
    expect(jobCounts(store)).toMatchObject({ claimed: 0, dead: 0 });
    expect(pendingJobs(store).map((job) => job.type).filter((type) => type.startsWith("test."))).toEqual([]);
  } finally {
    await store.close();
  }
}, 40_000);
