// A remote reply stored before its parent was known (StatusRecord.inReplyToUri) joins its thread once the
// parent is fetched (federation/thread-fetch.ts): it gets its parent ids and its row under the parent, and the
// parent's replies count moves, in one write, as if the two had arrived in order.
import type { Deps } from "../../deps.ts";
import { addReplyRow, adjustStatusCounter, getStatus, putStatus } from "../../store/statuses.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** Links `childId` under `parent` if it still waits for exactly that parent; the linked child, or null. */
export async function linkOrphanReply(deps: Pick<Deps, "store">, childId: string, parent: StatusRecord): Promise<StatusRecord | null> {
  const { store } = deps;
  return store.write(() => {
    const child = getStatus(store, childId);
    const current = getStatus(store, parent.id);
    if (!child || child.deletedAt || child.inReplyToId || child.inReplyToUri !== parent.uri) return null;
    if (!current || current.deletedAt || current.id === child.id) return null;
    const { inReplyToUri: _linked, ...rest } = child;
    const linked: StatusRecord = { ...rest, inReplyToId: current.id, inReplyToAccountId: current.accountId };
    putStatus(store, linked);
    addReplyRow(store, linked);
    adjustStatusCounter(store, current.id, "repliesCount", 1);
    return linked;
  });
}
