// Muted threads (POST /api/v1/statuses/:id/mute|unmute, Mastodon's conversation mutes): no notification about
// a status of a muted thread reaches the account that muted it, and its statuses show `muted: true` to it.
// A thread is named by its root: the first status up the reply chain that replies to nothing (or whose
// parent is gone), found by walking at most MAX_DEPTH parents.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getStatus } from "../../store/statuses.ts";
import { mutesAnyThread, mutesThread, putThreadMute, removeThreadMute } from "../../store/thread-mutes.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** Deeper threads are named by their status this many replies up (Mastodon's threads are rarely a tenth of it). */
const MAX_DEPTH = 256;

/** The root status id of the thread a status belongs to (a reblog: of the status it wraps). */
export function threadRootOf(store: Store, status: StatusRecord): string {
  let current = status.reblogOfId ? (getStatus(store, status.reblogOfId) ?? status) : status;
  for (let depth = 0; depth < MAX_DEPTH && current.inReplyToId; depth++) {
    const parent = getStatus(store, current.inReplyToId);
    if (!parent) return current.inReplyToId;
    current = parent;
  }
  return current.id;
}

/** Has `accountId` muted the thread of this status? Reads nothing more for accounts that mute no thread. */
export function threadMuted(store: Store, accountId: string, status: StatusRecord): boolean {
  return mutesAnyThread(store, accountId) && mutesThread(store, accountId, threadRootOf(store, status));
}

function visibleStatus(store: Store, viewerId: string, rawId: string): StatusRecord {
  const id = normaliseId(rawId);
  const status = id ? getStatus(store, id) : undefined;
  if (!status || !canSeeStatus(store, viewerId, status)) throw new NotFound();
  return status;
}

/** POST /api/v1/statuses/:id/mute: any status the viewer may see; muting again changes nothing. */
export async function muteThread(deps: Deps, viewer: AccountRecord, rawId: string): Promise<StatusRecord> {
  return deps.store.write(() => {
    const status = visibleStatus(deps.store, viewer.id, rawId);
    putThreadMute(deps.store, viewer.id, threadRootOf(deps.store, status), Date.now());
    return status;
  });
}

/** POST /api/v1/statuses/:id/unmute. */
export async function unmuteThread(deps: Deps, viewer: AccountRecord, rawId: string): Promise<StatusRecord> {
  return deps.store.write(() => {
    const status = visibleStatus(deps.store, viewer.id, rawId);
    removeThreadMute(deps.store, viewer.id, threadRootOf(deps.store, status));
    return status;
  });
}
