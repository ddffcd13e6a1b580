// `bun bench/memory.ts`: Warren's resident memory around a load of page rebuilds (issue 9, item 5). A home of
// 100k rows (the filtered-reads seed), then GET /api/v1/timelines/home with a new max_id on every request, so
// every request builds, renders and keeps a page. Memory is sampled idle, right after the load, and after a
// quiet pause: RSS, and its anonymous part (LMDB's memory map is file-backed and not counted there).
//
//   bun bench/memory.ts [--duration=20] [--pause=15] [--connections=50]
import { BenchClient } from "./lib/client.ts";
import { generateLoad } from "./lib/load.ts";
import { memoryOf, type Memory } from "./lib/memory.ts";
import { startWarren } from "./lib/servers.ts";
import { homeRebuilt } from "./scenarios/home-pages.ts";

function option(name: string, fallback: string): number {
  const prefix = `--${name}=`;
  return Number(process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback);
}

const durationMs = option("duration", "20") * 1000;
const pauseMs = option("pause", "15") * 1000;
const connections = option("connections", "50");

const warren = await startWarren();
const samples: { when: string; memory: Memory | null }[] = [];
const sample = (when: string) => samples.push({ when, memory: memoryOf(warren.pid) });
try {
  const spec = await homeRebuilt.prepare(new BenchClient(warren));
  sample("after seeding (100k home rows)");
  const result = await generateLoad(warren.url, spec, { connections, threads: 1, durationMs });
  sample(`after ${durationMs / 1000} s of page rebuilds (${Math.round(result.rps)} req/s)`);
  await Bun.sleep(pauseMs);
  sample(`after ${pauseMs / 1000} s quiet`);
} finally {
  await warren.stop();
}
console.log("\nwhen                                              RSS MB  anon MB");
for (const { when, memory } of samples) {
  console.log(`${when.padEnd(48)}  ${memory?.rssMb.toFixed(0).padStart(6)}  ${memory?.anonMb.toFixed(0).padStart(7)}`);
}
