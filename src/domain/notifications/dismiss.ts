// Dismissing notifications: one (v1, 404 when not the requester's), a whole group (v2, also `ungrouped-<id>`),
// or all of them (clear). Each is one store write.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import { clearNotifications, getNotification, removeNotification } from "../../store/notifications.ts";
import { parseGroupKey } from "./group-key.ts";
import { groupMembers } from "./group.ts";

export async function dismissNotification(deps: Deps, recipientId: string, rawId: string): Promise<void> {
  const id = normaliseId(rawId);
  await deps.store.write(() => {
    const n = id ? getNotification(deps.store, recipientId, id) : undefined;
    if (!n) throw new NotFound();
    removeNotification(deps.store, n);
  });
}

/** Every notification of the group, hidden ones included; nothing to dismiss is not an error. */
export async function dismissGroup(deps: Deps, recipientId: string, key: string): Promise<void> {
  if (!parseGroupKey(key)) return;
  await deps.store.write(() => {
    for (const n of groupMembers(deps.store, recipientId, key, undefined, true)) removeNotification(deps.store, n);
  });
}

export async function clearAllNotifications(deps: Deps, recipientId: string): Promise<void> {
  await deps.store.write(() => {
    clearNotifications(deps.store, recipientId);
  });
}
