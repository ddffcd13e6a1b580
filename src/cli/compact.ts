// `warren compact`: gives the disk back after deletions and repacks half-filled pages (store/compact.ts;
// docs/disk.md). Needs the server stopped: it refuses while one runs on the data directory. Exit codes: 0 ok,
// 1 failed (a server is running, no data), 64 usage.
import { loadConfig } from "../config.ts";
import { runningServerPid } from "../lib/server-pid.ts";
import { compactEnvironment, hasEnvironment } from "../store/compact.ts";
import { progressBar } from "./progress.ts";

const USAGE = `usage:
  warren compact    rewrite the data file without free pages, its pages filled (the server must be stopped)
`;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

export async function runCompactCommand(args: string[]): Promise<number> {
  if (args.length) {
    process.stderr.write(`unexpected argument: ${args[0]}\n${USAGE}`);
    return 64;
  }
  const { dataDir } = loadConfig();
  const pid = runningServerPid(dataDir);
  if (pid !== null) {
    process.stderr.write(`a Warren server (pid ${pid}) is running on ${dataDir}: stop it, then run \`warren compact\` again\n`);
    return 1;
  }
  if (!hasEnvironment(dataDir)) {
    process.stderr.write(`no Warren data in ${dataDir} (set WARREN_DATA_DIR)\n`);
    return 1;
  }
  const started = Date.now();
  const bar = progressBar("Compacting");
  const result = await compactEnvironment(dataDir, bar.update);
  bar.finish();
  const saved = result.beforeBytes - result.afterBytes;
  process.stdout.write(
    `OK, compacted ${result.entries} entries in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `${mib(result.beforeBytes)} before, ${mib(result.afterBytes)} after (${mib(saved)} given back)\n`,
  );
  return 0;
}
