// `warren --version` prints what /api/v1/instance and /api/v2/instance report as `version` (Mastodon's form,
// then Warren's own version); `warren version` adds the data format, this Warren's and the data directory's.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config.ts";
import { REPORTED_VERSION } from "../lib/version.ts";
import { DATABASE_FILE, summariseDatabase } from "../store/backup.ts";
import { DATA_FORMAT_VERSION } from "../store/migrations.ts";

export function printVersion(): number {
  process.stdout.write(`${REPORTED_VERSION}\n`);
  return 0;
}

export async function runVersionCommand(): Promise<number> {
  const { dataDir } = loadConfig();
  const file = join(dataDir, DATABASE_FILE);
  let data = `data directory ${dataDir}: no data yet`;
  if (existsSync(file)) {
    const { dataFormat } = await summariseDatabase(file);
    const note = dataFormat > DATA_FORMAT_VERSION ? " (newer than this Warren reads)" : dataFormat < DATA_FORMAT_VERSION ? " (migrated at the next start)" : "";
    data = `data directory ${dataDir}: data format ${dataFormat}${note}`;
  }
  process.stdout.write(`${REPORTED_VERSION}\ndata format ${DATA_FORMAT_VERSION} (reads formats 0 to ${DATA_FORMAT_VERSION})\n${data}\n`);
  return 0;
}
