// The fan-out job: puts new statuses (and reblogs) into the home feed of every local follower and into the
// lists they belong to. The `status.created` (or `reblog.created`) jobs of one batch are merged into one pass:
// their rows are written together, sorted by viewer, ROWS_PER_WRITE at most per transaction, so a transaction
// touches each home once (and bumps its version once) instead of once per status. Streams are signalled after
// each transaction, per status, with the homes that took it.
import type { Store } from "../../store/db.ts";
import { listsContaining } from "../../store/lists.ts";
import { getStatus } from "../../store/statuses.ts";
import { isLocalAccountId, putListEntry } from "../../store/timelines.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { STREAM_TOPIC, type EmitSignal } from "../streaming/signals.ts";
import { addToHome, authorFactsOf, entryOf, wantsInHome, type AuthorFacts } from "./distribute.ts";
import { localFollowersOf } from "./followers.ts";
import { tagBringsHome, tagFollowersOf } from "../tags/home.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/**
 * Home rows per transaction. A transaction copies every LMDB page it changes once, so the more rows share a
 * home's pages the cheaper each row: a realtime batch (64 statuses) of 100 followers each fits in one, which
 * holds the write lock ~30 ms. In one thread, posts of 100 followers: 1,300/s at 2,000 rows per write, 1,900 at this.
 */
export const ROWS_PER_WRITE = 8000;

/** Some of a status's followers (or, `viaTags`, followers of its hashtags): the rows one transaction writes for it. */
interface Part {
  status: StatusRecord;
  followerIds: string[];
  viaTags?: boolean;
}

const updateOf = (status: StatusRecord) => ({ topic: STREAM_TOPIC, kind: "update", statusId: status.id }) as const;

/**
 * The fan-out jobs of a batch, as one. Idempotent: rows are put by key, and a deleted status goes nowhere
 * (checked again in every transaction). A status with more followers than ROWS_PER_WRITE is cut into parts;
 * parts are packed whole into transactions of at most ROWS_PER_WRITE rows.
 */
export async function fanOutStatuses(store: Store, emit: EmitSignal, statusIds: readonly string[]): Promise<void> {
  const statuses: StatusRecord[] = [];
  for (const id of new Set(statusIds)) {
    const status = getStatus(store, id);
    if (status && !status.deletedAt) statuses.push(status);
  }
  // Oldest first, so each home takes the batch's rows in order (see deliverToHomes).
  statuses.sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const status of statuses) {
    const ownHome = isLocalAccountId(store, status.accountId) ? [status.accountId] : [];
    emit({ ...updateOf(status), homes: ownHome, lists: [], broadcast: true });
  }
  const parts: Part[] = [];
  for (const status of statuses) {
    const followers = localFollowersOf(store, status.accountId);
    for (let i = 0; i < followers.length; i += ROWS_PER_WRITE) parts.push({ status, followerIds: followers.slice(i, i + ROWS_PER_WRITE) });
    const tagFollowers = tagFollowersOf(store, status);
    for (let i = 0; i < tagFollowers.length; i += ROWS_PER_WRITE) {
      parts.push({ status, followerIds: tagFollowers.slice(i, i + ROWS_PER_WRITE), viaTags: true });
    }
  }
  for (const group of packed(parts)) {
    const taken = await store.write(() => deliverToHomes(store, group));
    for (const [status, homes] of taken) if (homes.length) emit({ ...updateOf(status), homes, lists: [], broadcast: false });
  }
  const listed = await store.write(() => statuses.map((status) => ({ status, lists: deliverToLists(store, status) })));
  for (const { status, lists } of listed) if (lists.length) emit({ ...updateOf(status), homes: [], lists, broadcast: false });
}

/** Parts grouped into transactions of at most ROWS_PER_WRITE rows (a bigger part goes alone). */
function packed(parts: Part[]): Part[][] {
  const groups: Part[][] = [];
  let group: Part[] = [];
  let rows = 0;
  for (const part of parts) {
    if (rows + part.followerIds.length > ROWS_PER_WRITE && group.length) {
      groups.push(group);
      group = [];
      rows = 0;
    }
    group.push(part);
    rows += part.followerIds.length;
  }
  if (group.length) groups.push(group);
  return groups;
}

/**
 * Inside a write: the rows of `parts` (oldest status first), in key order: viewer by viewer, each home's rows
 * of the batch together and oldest first (so the reblog fall-off sees an original put in the same batch).
 * Returns the homes that took each status; a status deleted meanwhile goes nowhere.
 */
function deliverToHomes(store: Store, parts: Part[]): Map<StatusRecord, string[]> {
  const taken = new Map<StatusRecord, string[]>();
  // What the rules ask of each status's author, once per status rather than once per follower.
  const authors = new Map<StatusRecord, AuthorFacts | undefined>();
  const homes = new Map<string, { status: StatusRecord; viaTags: boolean }[]>();
  for (const { status, followerIds, viaTags = false } of parts) {
    if (!taken.has(status)) {
      if (getStatus(store, status.id)?.deletedAt !== null) continue;
      taken.set(status, []);
      authors.set(status, authorFactsOf(store, status));
    }
    for (const viewerId of followerIds) {
      const statuses = homes.get(viewerId);
      if (statuses) statuses.push({ status, viaTags });
      else homes.set(viewerId, [{ status, viaTags }]);
    }
  }
  // Followers came local (localFollowersOf); a local account removed since is no longer a user.
  for (const viewerId of [...homes.keys()].sort()) {
    if (!isLocalAccountId(store, viewerId)) continue;
    for (const { status, viaTags } of homes.get(viewerId)!) {
      const wanted = viaTags ? tagBringsHome(store, viewerId, status) : wantsInHome(store, status, viewerId, authors.get(status));
      if (wanted && addToHome(store, viewerId, status)) taken.get(status)!.push(viewerId);
    }
  }
  return taken;
}

/** Inside a write: the lists (of local owners who follow the author) that took the status. */
function deliverToLists(store: Store, status: StatusRecord): string[] {
  const taken: string[] = [];
  if (getStatus(store, status.id)?.deletedAt !== null) return taken;
  for (const { ownerId, listId } of listsContaining(store, status.accountId)) {
    if (!isLocalAccountId(store, ownerId)) continue;
    if (ownerId !== status.accountId && !wantsInHome(store, status, ownerId)) continue;
    if (ownerId === status.accountId && !canSeeStatus(store, ownerId, status)) continue;
    putListEntry(store, listId, status.id, entryOf(status));
    taken.push(listId);
  }
  return taken;
}
