// `warren usage [--pages-only] [--json]`: where the disk goes, per keyspace (docs/disk.md). Reads only; safe
// while the server runs (it reads one snapshot). Exit codes: 0 ok, 64 usage.
import { loadConfig } from "../config.ts";
import { openStore } from "../store/db.ts";
import { environmentUsage, type EnvironmentUsage } from "../store/usage.ts";
import { parseArgs, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";

const USAGE = `usage:
  warren usage [--pages-only] [--json]   entries, key and value bytes and pages on disk per keyspace
                                         (--pages-only: LMDB's page counts alone, without reading every entry)
`;

const MIB = 1024 * 1024;

export async function runUsageCommand(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(args, [], ["pages-only", "json"]);
    if (parsed.positional.length) throw new UsageError(`unexpected argument: ${parsed.positional[0]}`);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}`);
    return 64;
  }
  const store = openStore(loadConfig().dataDir, { migrate: false });
  try {
    const bar = progressBar("Reading keyspaces");
    const usage = environmentUsage(store, !parsed.flags.has("pages-only"), bar.update);
    bar.finish();
    process.stdout.write(parsed.flags.has("json") ? `${JSON.stringify(usage, null, 2)}\n` : usageTable(usage, !parsed.flags.has("pages-only")));
    return 0;
  } finally {
    await store.close();
  }
}

const mib = (bytes: number) => (bytes / MIB).toFixed(1);
const count = (n: number) => n.toLocaleString("en-US");

/** The keyspaces that hold pages, largest first, and the file's totals. */
export function usageTable(usage: EnvironmentUsage, withBytes: boolean): string {
  const rows = usage.keyspaces.filter((k) => k.pageBytes > 0).sort((a, b) => b.pageBytes - a.pageBytes);
  const inTrees = rows.reduce((sum, k) => sum + k.pageBytes, 0);
  const header = ["keyspace", "entries", ...(withBytes ? ["key MiB", "value MiB", "B/entry"] : []), "on disk MiB", "share"];
  const lines = rows.map((k) => [
    k.name,
    count(k.entries),
    ...(withBytes ? [mib(k.keyBytes), mib(k.valueBytes), k.entries ? ((k.keyBytes + k.valueBytes) / k.entries).toFixed(0) : "0"] : []),
    mib(k.pageBytes),
    `${((k.pageBytes / Math.max(1, inTrees)) * 100).toFixed(1)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [
    format(header),
    ...lines.map(format),
    "",
    `in keyspaces: ${mib(inTrees)} MiB; other pages: ${mib(usage.freeBytes)} MiB (free pages, reused by later writes and given back by`,
    "\`warren compact\`, and the sub-trees of long duplicate runs in homeFeed and searchPostings, which LMDB does not count per keyspace)",
    `LMDB file: ${mib(usage.fileBytes)} MiB (page size ${usage.pageSize} bytes)`,
    "",
  ].join("\n");
}
