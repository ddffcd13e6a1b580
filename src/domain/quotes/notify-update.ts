// notifications.quoted_update (subscriber of status.updated): a `quoted_update` notification, from the editor
// about the edited status, to every local account whose accepted quote of it still stands (Mastodon's
// UpdateStatusService). One per status and account, the newest edit's; a second run adds nothing.
import type { JobEnqueuer } from "../../jobs/queue.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { notificationsBetween, removeNotification } from "../../store/notifications.ts";
import { quoteRowsOf } from "../../store/quotes.ts";
import { getStatus } from "../../store/statuses.ts";
import { notify } from "../notifications/notify.ts";
import { canSeeStatus } from "../policy/visibility.ts";

/** At most this many quoters are told of one edit (the rows are read in one job). */
const MAX_QUOTERS = 10_000;

export async function notifyQuotersOfEdit(deps: { store: Store; jobs: JobEnqueuer }, statusId: string, editedAt: number): Promise<void> {
  const { store } = deps;
  await store.write(() => {
    const status = getStatus(store, statusId);
    if (!status || status.deletedAt) return;
    const quoters = new Set<string>();
    for (const row of quoteRowsOf(store, statusId, MAX_QUOTERS)) {
      const quoting = getStatus(store, row.statusId);
      if (quoting && !quoting.deletedAt && quoting.quote?.statusId === statusId && quoting.quote.state === "accepted") quoters.add(quoting.accountId);
    }
    for (const recipientId of quoters) {
      if (getAccount(store, recipientId)?.domain !== null || !canSeeStatus(store, recipientId, status)) continue;
      for (const n of notificationsBetween(store, recipientId, status.accountId)) {
        if (n.type === "quoted_update" && n.statusId === statusId && n.createdAt < editedAt) removeNotification(store, n);
      }
      notify(deps, { type: "quoted_update", recipientId, fromAccountId: status.accountId, statusId }, editedAt);
    }
  });
}
