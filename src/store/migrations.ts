// The data format version and the ordered migrations that bring older data to it, run synchronously at
// start-up before the server listens (after a safety snapshot: src/backup/upgrade.ts). The format version is
// the number of the last migration; a data directory records the one it is at under meta "schema_version".
import type { Store } from "./handle.ts";
import { WARREN_VERSION } from "../lib/version.ts";
import { moveJobsIntoLanes } from "./jobs.ts";
import { renameLegacyJobs } from "./legacy-jobs.ts";
import { moveHomeRows, moveToStatusIdRows } from "./timelines.ts";
import { indexNotifyingFollowers } from "./relationships.ts";
import { compressStatuses, packIdKeyspaces, packMoreIdKeyspaces, packRecords } from "./pack-records.ts";
import { packAllAccountKeys } from "./account-keys-packing.ts";
import { countMembers } from "./member-figures.ts";

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
  { version: 8, describe: "status records of 128 bytes or more LZ4-compressed", run: compressStatuses },
  { version: 9, describe: "keys of ids packed, 8 bytes an id (home_reblogs, notifications_by_status, notifications_by_pair)", run: packIdKeyspaces },
  { version: 10, describe: "home rows of the status id alone, 8 bytes (home_rows → home_status_ids)", run: moveToStatusIdRows },
  {
    version: 11,
    describe: "keys of ids packed, 8 bytes an id (favourites, favourites_by_status, favourite_of, statuses_by_account, status_replies, reblogs_by_status, reblog_of)",
    run: packMoreIdKeyspaces,
  },
  { version: 12, describe: "instance statistics kept as figures (members, active members by day, local posts) and an index of Owners", run: countMembers },
];

/** The data format this Warren writes; it reads and migrates every older one (from 0, a new directory). */
export const DATA_FORMAT_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Data written by a newer Warren: refused, never migrated down or half-read. */
export class DataFormatError extends Error {
  constructor(
    readonly where: string,
    readonly found: number,
    /** "older": found while a server serves it (a rolling restart across a migration, a command beside a server). */
    readonly age: "newer" | "older" = "newer",
  ) {
    super(
      age === "older"
        ? `${where} has data format ${found}, older than this Warren's (${DATA_FORMAT_VERSION}): it cannot be migrated while a running warren ` +
            `serves it (a rolling restart, or a command beside the server); stop warren, then start it again`
        : `${where} has data format ${found}, written by a newer Warren; Warren ${WARREN_VERSION} reads data formats up to ${DATA_FORMAT_VERSION}: ` +
            `run a newer Warren, or restore a backup made by this one`,
    );
  }
}

/** Throws DataFormatError when `format` (found at `where`) is newer than this Warren's. */
export function checkDataFormat(where: string, format: number): void {
  if (format > DATA_FORMAT_VERSION) throw new DataFormatError(where, format);
}

/** The migrations that would bring data at `format` to DATA_FORMAT_VERSION, in order. */
export function pendingMigrations(format: number): readonly { version: number; describe: string }[] {
  return MIGRATIONS.filter((migration) => migration.version > format);
}

/** Runs one migration's step alone (tests check that each is idempotent). */
export function runMigrationStep(store: Store, version: number): void {
  MIGRATIONS.find((migration) => migration.version === version)!.run(store);
}

export function runMigrations(store: Store): void {
  const current = schemaVersion(store);
  checkDataFormat(`data directory ${store.dir}`, current);
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
