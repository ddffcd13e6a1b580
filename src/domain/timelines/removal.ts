// A deleted status (or undone reblog) leaves every feed, and the streams that could have shown it hear
// `delete`. Runs first in the `statuses.removal` and `statuses.reblog_removal` subscribers, while the record
// still exists; a deleted original takes its reblogs with it. Reads already hide a deleted status: this is
// tidying and signalling.
import type { Store } from "../../store/db.ts";
import { listsContaining } from "../../store/lists.ts";
import { followerIdsOf } from "../../store/relationships.ts";
import { getStatus, reblogIdsOfStatus } from "../../store/statuses.ts";
import { isLocalAccountId, removeHomeEntry, removeListEntry, removePublicEntry } from "../../store/timelines.ts";
import { STREAM_TOPIC, type DeleteBroadcast, type EmitSignal } from "../streaming/signals.ts";
import { FAN_OUT_BATCH, publicFeedsOf } from "./distribute.ts";
import type { StatusRecord } from "../../model/statuses.ts";

function broadcastOf(status: StatusRecord): DeleteBroadcast | null {
  if (status.reblogOfId) return null;
  if (status.visibility === "direct") return { public: false, local: status.local, media: false, tags: [], direct: [status.accountId, ...status.mentionIds] };
  if (status.visibility !== "public") return null;
  const listed = !status.inReplyToId || status.inReplyToAccountId === status.accountId;
  return { public: listed, local: status.local, media: status.mediaIds.length > 0, tags: status.tags, direct: [] };
}

async function removeOne(store: Store, emit: EmitSignal, status: StatusRecord): Promise<void> {
  const signal = { topic: STREAM_TOPIC, kind: "delete", statusId: status.id } as const;
  emit({ ...signal, homes: [], lists: [], broadcast: broadcastOf(status) });
  await store.write(() => {
    for (const feed of publicFeedsOf(status)) removePublicEntry(store, feed, status.id);
  });
  const owners = [status.accountId, ...followerIdsOf(store, status.accountId)].filter((id) => isLocalAccountId(store, id));
  for (let i = 0; i < owners.length; i += FAN_OUT_BATCH) {
    const batch = owners.slice(i, i + FAN_OUT_BATCH);
    const homes = await store.write(() => batch.filter((id) => removeHomeEntry(store, id, status.id)));
    if (homes.length) emit({ ...signal, homes, lists: [], broadcast: null });
  }
  const lists = await store.write(() => listsContaining(store, status.accountId).map((m) => m.listId).filter((id) => removeListEntry(store, id, status.id)));
  if (lists.length) emit({ ...signal, homes: [], lists, broadcast: null });
}

/** The timeline part of removing a status; idempotent (rows already gone are skipped). */
export async function removeStatusFromTimelines(store: Store, emit: EmitSignal, statusId: string): Promise<void> {
  const status = getStatus(store, statusId);
  if (!status) return;
  const reblogs = status.reblogOfId ? [] : reblogIdsOfStatus(store, status.id).map((id) => getStatus(store, id));
  for (const one of [status, ...reblogs]) if (one) await removeOne(store, emit, one);
}
