// Search on the seeded instance (the run's copy of it; see bench/lib/seeded.ts). Selected by name with
// --only, e.g. `npm run bench -- --only=search_deploy,search_statuses,scale_search_statuses --data DIR`:
//
//   search_deploy          `warren search deploy` run as the operator runs it (the CLI, a child process) on the
//                          copy: the time to build the embedded index from every account and status record, and
//                          the index's size (the environment compacted before and after, told apart).
//   search_statuses        status full-text queries through the embedded engine, in-process (no HTTP, no privacy
//                          filter): p50/p99 per kind of query (common and rare words, one, two and three words,
//                          last-word prefixes), each query repeated. The seeded text draws from 100 common English
//                          words (each in roughly one status in six); rare words are the seed's less used
//                          hashtags and mentioned usernames.
//   scale_search_statuses  GET /api/v2/search?type=statuses for two common words, through the whole endpoint
//                          (engine, privacy checks of every candidate, the statuses presented), against the bare
//                          handler returning the same bytes, like the other scale scenarios.
//
// Whichever is selected, the index is built first (search_deploy's figures), since the others need it.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbeddedEngine } from "../../src/search/embedded.ts";
import { openStore } from "../../src/store/db.ts";
import type { SeededCopy } from "../lib/seeded.ts";
import { run as runCommand } from "../lib/process.ts";
import type { SeedManifest } from "../seed/manifest.ts";
import type { MediaReport } from "./media-upload.ts";
import type { Scenario } from "./types.ts";

const root = join(import.meta.dir, "../..");

export const SEARCH_CHECK_NAMES = ["search_deploy", "search_statuses"] as const;

/** The queries, and what kind each is (the report groups by kind). Usernames are picked by the instance's size. */
function queries(m: SeedManifest): { kind: string; q: string }[] {
  const user = (share: number) => `user${Math.floor(m.accounts * share)}`;
  return [
    { kind: "one common word", q: "water" },
    { kind: "one common word", q: "people" },
    { kind: "one common word", q: "number" },
    { kind: "two common words", q: "water people" },
    { kind: "two common words", q: "look time" },
    { kind: "two common words", q: "oil find" },
    { kind: "three common words", q: "the of and" },
    { kind: "three common words", q: "long day call" },
    { kind: "one rare word", q: "tag287" },
    { kind: "one rare word", q: "tag251" },
    { kind: "one rare word", q: user(0.7321) },
    { kind: "rare and common", q: "people tag250" },
    { kind: "rare and common", q: `water ${user(0.4242)}` },
    { kind: "prefix", q: "wat" },
    { kind: "prefix", q: "peo" },
    { kind: "prefix", q: "tag2" },
    { kind: "prefix", q: user(0.73).slice(0, -1) },
    { kind: "word and prefix", q: "water peo" },
    { kind: "word and prefix", q: "time tag1" },
  ];
}
const WARM_UPS = 3;
const REPEATS = 30;
const PAGE = { limit: 20, offset: 0 };

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** The size of the environment compacted (mdb_env_copy2 with compaction): what its records take. */
async function compactedBytes(dir: string): Promise<number> {
  const store = openStore(dir, { migrate: false });
  const target = mkdtempSync(join(tmpdir(), "warren-bench-compact-"));
  try {
    await store.db.meta.backup(join(target, "warren.lmdb"), true);
    return statSync(join(target, "warren.lmdb")).size;
  } finally {
    await store.close();
    rmSync(target, { recursive: true, force: true });
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Builds the index on the copy (timed), then times the queries. Reports whichever of SEARCH_CHECK_NAMES was asked for. */
export async function searchFigures(copy: SeededCopy, wanted: ReadonlySet<string>): Promise<MediaReport[]> {
  const reports: MediaReport[] = [];
  const m: SeedManifest = copy.manifest;

  console.log("search_deploy: warren search deploy on the seeded copy…");
  const before = await compactedBytes(copy.dir);
  const started = performance.now();
  const run = await runCommand([process.execPath, join(root, "src/main.ts"), "search", "deploy"], {
    cwd: root,
    env: { ...process.env, WARREN_DATA_DIR: copy.dir, WARREN_URL: m.url, WARREN_LOG: "off", WARREN_MEILISEARCH_URL: "" },
  });
  const seconds = (performance.now() - started) / 1000;
  const problems = run.code === 0 ? [] : [`search_deploy: exit ${run.code}: ${run.stderr.trim().split("\n").at(-1)}`];
  const after = await compactedBytes(copy.dir);
  const indexBytes = after - before;
  const records = m.accounts + m.statuses;
  if (wanted.has("search_deploy")) {
    reports.push({
      name: "search_deploy",
      lines: [
        `search_deploy (warren search deploy, ${m.accounts} accounts and ${m.statuses} statuses): ${seconds.toFixed(1)} s, ` +
          `${Math.round(records / seconds).toLocaleString("en-US")} records/s; ${run.stdout.trim()}`,
        `  index size ${mib(indexBytes)} (environment compacted: ${mib(before)} before, ${mib(after)} after), ` +
          `${(indexBytes / m.statuses).toFixed(0)} bytes per status`,
      ],
      problems,
      figures: { seconds, records, indexBytes, compactedBefore: before, compactedAfter: after, output: run.stdout.trim() },
    });
  }

  if (wanted.has("search_statuses")) {
    console.log("search_statuses: status queries through the embedded engine…");
    const store = openStore(copy.dir, { migrate: false });
    const engine = createEmbeddedEngine(store);
    const QUERIES = queries(m);
    const byKind = new Map<string, number[]>();
    const found: Record<string, number> = {};
    try {
      for (const { kind, q } of QUERIES) {
        for (let i = 0; i < WARM_UPS; i++) await engine.searchStatuses(q, PAGE);
        for (let i = 0; i < REPEATS; i++) {
          const at = performance.now();
          found[q] = (await engine.searchStatuses(q, PAGE)).length;
          const ms = performance.now() - at;
          byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
        }
      }
    } finally {
      await store.close();
    }
    const all = [...byKind.values()].flat().sort((a, b) => a - b);
    const lines = [`search_statuses (${QUERIES.length} queries × ${REPEATS}, first page of 20, in-process): p50 ${percentile(all, 50).toFixed(2)} ms, p99 ${percentile(all, 99).toFixed(2)} ms`];
    const figures: Record<string, unknown> = { p50: percentile(all, 50), p99: percentile(all, 99), found, kinds: {} };
    for (const [kind, runs] of byKind) {
      const sorted = runs.sort((a, b) => a - b);
      const queries = QUERIES.filter((query) => query.kind === kind).map((query) => `"${query.q}" (${found[query.q]})`).join(", ");
      lines.push(`  ${kind.padEnd(18)} p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms: ${queries}`);
      (figures.kinds as Record<string, unknown>)[kind] = { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
    }
    reports.push({
      name: "search_statuses",
      lines,
      problems: found.water ? [] : ["search_statuses: nothing found for \"water\" (the index was not built)"],
      figures,
    });
  }
  return reports;
}

/** The request-rate scenario: two common words through GET /api/v2/search, by a seeded user. */
export const searchStatusesHttp: Scenario = {
  name: "scale_search_statuses",
  description: "GET /api/v2/search?type=statuses, two common words, first page",
  seeded: true,
  async prepare(client, seeded) {
    if (!seeded) throw new Error("scale_search_statuses needs a seeded instance");
    const reader = seeded.users[seeded.largest.lastFollower]!;
    const path = "/api/v2/search?type=statuses&q=water%20people&limit=20";
    const answer = await client.api<{ statuses: unknown[] }>(path, { token: reader.token });
    if (answer.statuses.length === 0) throw new Error("scale_search_statuses found nothing: the index was not built (search_deploy runs first)");
    return { method: "GET", path, headers: { authorization: `Bearer ${reader.token}` } };
  },
};
