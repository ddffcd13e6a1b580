// `warren restore --from=DIR`: fills a new or empty data directory from a backup, checked (docs/operations.md).
import { resolve } from "node:path";
import { loadConfig } from "../config.ts";
import { restoreBackup } from "../backup/restore.ts";
import { BackupError } from "../backup/write.ts";
import { DATA_FORMAT_VERSION, DataFormatError } from "../store/migrations.ts";
import { parseArgs, UsageError } from "./command.ts";
import { progressBar } from "./progress.ts";
import { describeBackup } from "./backup.ts";

export const RESTORE_USAGE = "usage: warren restore --from=DIR   (into WARREN_DATA_DIR, which must be new or empty)\n";

export async function runRestoreCommand(args: string[]): Promise<number> {
  let from: string;
  try {
    const parsed = parseArgs(args, ["from"], []);
    if (!parsed.values.from || parsed.positional.length > 0) throw new UsageError("give the backup's directory with --from=DIR");
    from = resolve(parsed.values.from);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${RESTORE_USAGE}`);
    return 64;
  }
  const { dataDir } = loadConfig();
  const started = performance.now();
  try {
    const manifest = await restoreBackup(from, dataDir, progressBar("restore"));
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const upgrade = manifest.dataFormat < DATA_FORMAT_VERSION ? ` (Warren migrates it to format ${DATA_FORMAT_VERSION} when it starts)` : "";
    process.stdout.write(`restored ${from} (made ${manifest.createdAt}) into ${dataDir} in ${seconds} s, checksums verified: ${describeBackup(manifest)}${upgrade}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError || error instanceof DataFormatError)) throw error;
    process.stderr.write(`restore refused: ${error.message}\n`);
    return 1;
  }
}
