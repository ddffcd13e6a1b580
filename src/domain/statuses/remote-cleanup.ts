// `warren statuses remove --days=N` (docs/cli.md), as tootctl's: remote statuses older than N days that nobody
// here has had to do with (store/remote-statuses.ts) are deleted as a remote author's Delete deletes them (at
// once from every read path, the rest by the `status.deleted` subscriber). Reblogs by remote accounts of such
// statuses go the same way, being remote statuses themselves.
import type { Deps } from "../../deps.ts";
import { idAtTime } from "../../lib/ids.ts";
import { countRecords } from "../../store/db.ts";
import { statusesBetween, touchedHere } from "../../store/remote-statuses.ts";
import { discardAndRecord } from "./delete.ts";

const BATCH = 500;

/** Walks the statuses older than `cutoff` (ms) once; `onProgress` hears statuses examined of all statuses. */
export async function removeUntouchedRemoteStatuses(deps: Deps, cutoff: number, dryRun: boolean, onProgress?: (done: number, total: number) => void): Promise<number> {
  const total = countRecords(deps.store.db.statuses);
  const beforeId = idAtTime(cutoff);
  let examined = 0;
  let matched = 0;
  let afterId: string | null = null;
  for (;;) {
    const batch = statusesBetween(deps.store, afterId, beforeId, BATCH);
    if (batch.length === 0) break;
    for (const status of batch) {
      if (status.local || status.deletedAt || touchedHere(deps.store, status)) continue;
      matched++;
      if (!dryRun) await discardAndRecord(deps, status, "remote");
    }
    examined += batch.length;
    afterId = batch[batch.length - 1]!.id;
    onProgress?.(Math.min(examined, total), total);
  }
  onProgress?.(total, total);
  return matched;
}
