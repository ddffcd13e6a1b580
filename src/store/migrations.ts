// Schema version and ordered migrations, run synchronously at start-up before the server listens.
import type { Store } from "./db.ts";
import { moveJobsIntoLanes } from "./jobs.ts";
import { renameLegacyJobs } from "./legacy-jobs.ts";
import { moveHomeRows } from "./timelines.ts";
import { indexNotifyingFollowers } from "./relationships.ts";
import { packRecords } from "./pack-records.ts";
import { packAllAccountKeys } from "./account-keys-packing.ts";

interface Migration {
  version: number;
  describe: string;
  run(store: Store): void;
}

// Append only: a migration, once released, never changes. Each runs inside the write transaction that
// also records its version, so a crash leaves either the old or the new schema.
const MIGRATIONS: Migration[] = [
  { version: 1, describe: "initial keyspaces", run: () => {} },
  { version: 2, describe: "jobs keyed by [lane, runAt, jobId]", run: moveJobsIntoLanes },
  { version: 3, describe: "jobs of the pre-events types become their subscribers' jobs", run: renameLegacyJobs },
  { version: 4, describe: "home rows packed as sorted duplicates under the viewer (home_feed → home_rows)", run: moveHomeRows },
  { version: 5, describe: "an index of the follows that notify of new posts", run: indexNotifyingFollowers },
  { version: 6, describe: "status and notification records without the ids their keys hold (and derivable local status addresses)", run: packRecords },
  { version: 7, describe: "actors' key pairs stored as DER, two to a page", run: packAllAccountKeys },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function runMigrations(store: Store): void {
  const current: number = store.db.meta.get("schema_version") ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(`data was written by a newer Warren (schema ${current} > ${SCHEMA_VERSION})`);
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    store.db.meta.transactionSync(() => {
      migration.run(store);
      store.db.meta.put("schema_version", migration.version);
    });
  }
}

export function schemaVersion(store: Store): number {
  return store.db.meta.get("schema_version") ?? 0;
}
