// `bun bench/startup.ts [--runs=5] [--data=SEED] [--baseline=DIR]`: start-up time, from the spawn of
// `bun src/main.ts serve` until `/api/v2/instance` first answers 200 (polled every 2 ms), on an empty data
// directory and, with --data, on a copy of a seeded instance (bench/seed.ts). With --baseline=DIR the Warren
// of another checkout (e.g. a detached worktree of main) is started too, alternating start by start with this
// one, each on its own copy (a newer Warren migrates its copy; the older one would refuse it). Each copy is
// started once untimed first (its first start creates or migrates the environment and fills the page cache).
// Prints each start's milliseconds and the median per checkout; see docs/benchmarks.md.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { captureOutput, freePort, stop } from "./lib/process.ts";
import { warrenEnv } from "./lib/servers.ts";

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

const runs = Number(option("runs") ?? "5");
const seed = option("data");
const baseline = option("baseline");
const here = join(import.meta.dir, "..");

interface Checkout {
  name: string;
  root: string;
  dataDir: string;
  times: number[];
}

/** Milliseconds from spawn until the instance answers; the server is stopped before returning. */
async function startOnce(checkout: Checkout): Promise<number> {
  const port = freePort();
  const env = warrenEnv(checkout.dataDir, port);
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, "src/main.ts", "serve"], { cwd: checkout.root, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  // Read as it comes: a full pipe would stall the server's writes.
  const output = captureOutput(proc);
  const url = `http://127.0.0.1:${port}/api/v2/instance`;
  let status = 0;
  try {
    while (performance.now() - started < 60_000) {
      if (proc.exitCode !== null) break;
      status = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
        async (response) => (await response.arrayBuffer(), response.status),
        () => 0,
      );
      if (status === 200) return performance.now() - started;
      await Bun.sleep(2);
    }
  } finally {
    await stop(proc);
  }
  throw new Error(`${checkout.name}: no 200 within 60 s (exit code ${proc.exitCode}, last status ${status}):\n${output()}`);
}

function checkoutOf(name: string, root: string): Checkout {
  const dataDir = mkdtempSync(join(tmpdir(), "warren-startup-"));
  if (seed) cpSync(resolve(seed), dataDir, { recursive: true });
  return { name, root, dataDir, times: [] };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const checkouts = [checkoutOf("this", here), ...(baseline ? [checkoutOf("baseline", resolve(baseline))] : [])];
console.log(`start-up, ${seed ? `a copy of ${seed}` : "an empty data directory"}, ${runs} starts each${baseline ? `, alternating with ${baseline}` : ""}`);
try {
  for (const checkout of checkouts) await startOnce(checkout);
  for (let run = 0; run < runs; run++) {
    // Alternate which goes first, so that neither always follows the other's exit.
    const order = run % 2 === 0 ? checkouts : [...checkouts].reverse();
    for (const checkout of order) checkout.times.push(await startOnce(checkout));
  }
} finally {
  for (const checkout of checkouts) rmSync(checkout.dataDir, { recursive: true, force: true });
}
for (const { name, times } of checkouts) {
  console.log(`${name.padEnd(9)} median ${median(times).toFixed(0)} ms  (${times.map((ms) => ms.toFixed(0)).join(", ")})`);
}
