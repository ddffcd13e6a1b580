// Start-up on a data directory written by an older Warren: a safety snapshot of it first (a backup like
// `warren backup` makes, inside the data directory, media hard-linked), one line on stderr with its path,
// then the migrations. Data from a newer Warren is refused (DataFormatError), never touched.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../store/db.ts";
import { DATABASE_FILE } from "../store/backup.ts";
import { checkDataFormat, DATA_FORMAT_VERSION, DataFormatError, runMigrations, schemaVersion } from "../store/migrations.ts";
import { WARREN_VERSION } from "../lib/version.ts";
import { writeBackup } from "./write.ts";

/** Safety snapshots live in the data directory (writable wherever the data is, e.g. a container's volume). */
export const SNAPSHOTS_DIR = "snapshots";

export interface UpgradeOutcome {
  from: number;
  to: number;
  /** the safety snapshot's folder, when one was taken */
  snapshot: string | null;
}

/** `<dataDir>/snapshots/before-format-<to>`, with the time added if a snapshot of that name exists already. */
function snapshotFolder(dataDir: string, to: number): string {
  const base = join(dataDir, SNAPSHOTS_DIR, `before-format-${to}`);
  return existsSync(base) ? `${base}-${new Date().toISOString().replace(/[:.]/g, "-")}` : base;
}

/**
 * Brings the data directory to this Warren's data format. A new directory (or one never migrated) needs no
 * snapshot (`create`: it is created at this format now); data at format 1 or later is snapshotted first.
 * `say` hears the one line for the operator.
 */
export async function upgradeDataDir(
  dataDir: string,
  say: (line: string) => void = (line) => process.stderr.write(line),
  options: { refuseOlder?: boolean; create?: boolean } = {},
): Promise<UpgradeOutcome> {
  if (!existsSync(join(dataDir, DATABASE_FILE))) {
    // A supervisor creates the store before its processes start: else each would find the others' store half
    // created (its migrations run one transaction each) and refuse it as older, or migrate it at once.
    if (options.create) await openStore(dataDir).close();
    return { from: DATA_FORMAT_VERSION, to: DATA_FORMAT_VERSION, snapshot: null };
  }
  const store = openStore(dataDir, { migrate: false });
  try {
    const from = schemaVersion(store);
    checkDataFormat(`data directory ${dataDir}`, from);
    if (from === DATA_FORMAT_VERSION) return { from, to: from, snapshot: null };
    // A server process of a supervisor (src/cluster) must not migrate under the feet of the others still running.
    if (options.refuseOlder) throw new DataFormatError(`data directory ${dataDir}`, from, "older");
    let snapshot: string | null = null;
    if (from > 0) {
      snapshot = snapshotFolder(dataDir, DATA_FORMAT_VERSION);
      await writeBackup(store, snapshot, { media: "link" });
      say(
        `warren: upgrading data format ${from} to ${DATA_FORMAT_VERSION} (Warren ${WARREN_VERSION}); safety snapshot of the data before it: ${snapshot} ` +
          `(restore it with \`warren restore --from=${snapshot}\` into an empty data directory)\n`,
      );
    }
    runMigrations(store);
    return { from, to: DATA_FORMAT_VERSION, snapshot };
  } finally {
    await store.close();
  }
}
