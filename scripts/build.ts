// `npm run build`: compiles Warren into one executable, dist/warren, then checks it.
//
// - Entry points: src/main.ts plus every Worker entry found in src (see worker-entries.ts), so job workers
//   run inside the binary.
// - scripts/native-plugin.ts embeds the native addons of lmdb, msgpackr-extract and sharp (and libvips).
// - Checks: the binary holds no absolute path of this checkout (a native file that was not embedded would
//   be required from there and work here but nowhere else), `dist/warren help` runs, and a small smoke binary
//   built with the same plugin opens LMDB, packs with msgpackr's native extractor and encodes a PNG with sharp.
//
// Flags: --skip-smoke skips the smoke binary (faster rebuilds while developing).
import { mkdirSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { assertNoCheckoutPaths, nativePlugin, NativeBuildError } from "./native-plugin.ts";
import { findWorkerEntries } from "./worker-entries.ts";
import { runNativeSmoke } from "./native-smoke-run.ts";

const root = join(import.meta.dir, "..");
const dist = join(root, "dist");
const outfile = join(dist, "warren");

async function compile(entrypoints: string[], out: string, plugin = nativePlugin()) {
  let result: Bun.BuildOutput;
  try {
    result = await Bun.build({
      entrypoints,
      target: "bun",
      // Entry outputs are named without their folder, so `new URL("./worker.ts", import.meta.url)` inside the
      // binary (where import.meta.url is the executable's root) resolves to the embedded worker.
      naming: "[name].[ext]",
      sourcemap: "linked",
      // Bun would inline the builder's NODE_ENV (a build run under `bun test` would get a binary that thinks
      // it is always under test); the executable reads it at run time, like `bun src/main.ts`.
      define: { "process.env.NODE_ENV": "process.env.NODE_ENV" },
      plugins: [plugin.plugin],
      compile: { outfile: out, autoloadBunfig: false },
    });
  } catch (error) {
    // Bun.build throws an AggregateError of build messages (plugin errors included).
    for (const message of (error as AggregateError).errors ?? [error]) console.error(message);
    throw new NativeBuildError(`bun build failed for ${entrypoints.map((e) => relative(root, e)).join(", ")}`);
  }
  if (!result.success) throw new NativeBuildError(`bun build failed: ${result.logs.join("\n")}`);
  // Source maps are embedded in the executable; the copies written next to it are not needed.
  for (const output of result.outputs) if (output.path.endsWith(".map")) rmSync(output.path, { force: true });
  return plugin;
}

async function assertRuns(file: string) {
  const proc = Bun.spawn([file, "help"], { stdout: "pipe", stderr: "pipe", cwd: dist });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0 || !out.includes("warren serve")) {
    throw new NativeBuildError(`${relative(root, file)} help exited with ${code}:\n${out}${err}`);
  }
}

async function main() {
  const started = performance.now();
  const skipSmoke = process.argv.includes("--skip-smoke");
  const workers = findWorkerEntries(join(root, "src"));
  const entrypoints = [join(root, "src/main.ts"), ...workers];
  mkdirSync(dist, { recursive: true });

  const plugin = await compile(entrypoints, outfile);
  plugin.assertApplied(["lmdb", "lmdb-dictionary", "msgpackr-extract"]);
  assertNoCheckoutPaths(outfile);
  await assertRuns(outfile);
  if (!skipSmoke) await runNativeSmoke(compile);

  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const workerList = workers.map((w) => relative(root, w)).join(", ") || "none";
  console.log(`built ${relative(root, outfile)} in ${seconds}s (worker entries: ${workerList}${skipSmoke ? "; smoke skipped" : ""})`);
}

try {
  await main();
} catch (error) {
  // A binary that failed its checks must not look fresh to tests/e2e/binary.test.ts.
  rmSync(outfile, { force: true });
  if (!(error instanceof NativeBuildError)) throw error;
  console.error(`\nBUILD FAILED: ${error.message}\n`);
  process.exit(1);
}
