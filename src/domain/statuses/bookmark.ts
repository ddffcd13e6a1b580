// Bookmarks: private to their owner, synchronous both ways, idempotent.
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import { bookmarkIdOf, insertBookmark, removeBookmark } from "../../store/statuses-interactions.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { interactionTarget } from "./reblog.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export async function bookmarkStatus(deps: Deps, viewer: UserViewer, rawId: string): Promise<StatusRecord> {
  const { store } = deps;
  const me = viewer.account.id;
  const status = interactionTarget(deps, me, rawId);
  if (bookmarkIdOf(store, me, status.id)) return status;
  await store.write(() => {
    if (!bookmarkIdOf(store, me, status.id)) insertBookmark(store, { id: newId(), accountId: me, statusId: status.id });
  });
  return status;
}

export async function unbookmarkStatus(deps: Deps, viewer: UserViewer, rawId: string): Promise<StatusRecord> {
  const { store } = deps;
  const me = viewer.account.id;
  const status = interactionTarget(deps, me, rawId);
  await store.write(() => {
    const id = bookmarkIdOf(store, me, status.id);
    if (id) removeBookmark(store, { id, accountId: me, statusId: status.id });
  });
  return status;
}
