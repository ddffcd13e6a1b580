// notifications.status_update (subscriber of status.updated): an `update` notification to every local account
// that reblogged the edited status. Each edit replaces the previous one's (one per status and account, the
// newest); a second run of the same job finds its own notification and adds nothing.
import type { JobEnqueuer } from "../../jobs/queue.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { notificationsBetween, removeNotification } from "../../store/notifications.ts";
import { getStatus, reblogIdOf, reblogIdsOfStatus } from "../../store/statuses.ts";
import { notify } from "../notifications/notify.ts";
import { canSeeStatus } from "../policy/visibility.ts";

export async function notifyRebloggersOfEdit(deps: { store: Store; jobs: JobEnqueuer }, statusId: string, editedAt: number): Promise<void> {
  const { store } = deps;
  await store.write(() => {
    const status = getStatus(store, statusId);
    if (!status || status.deletedAt) return;
    const rebloggers = new Set<string>();
    for (const reblogId of reblogIdsOfStatus(store, statusId)) {
      const wrapper = getStatus(store, reblogId);
      if (wrapper && !wrapper.deletedAt && reblogIdOf(store, wrapper.accountId, statusId) === wrapper.id) rebloggers.add(wrapper.accountId);
    }
    for (const recipientId of rebloggers) {
      if (getAccount(store, recipientId)?.domain !== null || !canSeeStatus(store, recipientId, status)) continue;
      for (const n of notificationsBetween(store, recipientId, status.accountId)) {
        if (n.type === "update" && n.statusId === statusId && n.createdAt < editedAt) removeNotification(store, n);
      }
      notify(deps, { type: "update", recipientId, fromAccountId: status.accountId, statusId }, editedAt);
    }
  });
}
