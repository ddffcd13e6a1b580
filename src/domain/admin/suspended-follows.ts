// Staff suspending a remote account ends its follows of local accounts at once (Mastodon's
// SuspendAccountService#reject_remote_follows!): its server still shows it our accounts' posts otherwise,
// since it is not suspended there. Each follow removed records `follow.removed`, whose federation subscriber
// sends the remote account a Reject embedding its own Follow (with the id it sent). Not undone by
// unsuspension, as on Mastodon: nothing can make a remote account follow again; it may follow anew.
// A local account's suspension ends no follow: its remote followers get an Update of its actor marked
// `suspended` (account.updated), and another when it is lifted, as Mastodon sends.
import type { Store } from "../../store/db.ts";
import type { Config } from "../../config.ts";
import type { JobEnqueuer } from "../../jobs/queue.ts";
import { getAccount } from "../../store/accounts.ts";
import { followingIdsOf, removeFollow } from "../../store/relationships.ts";
import { recordEvent } from "../events.ts";
import { withdrawFollowNotifications } from "../notifications/withdraw.ts";

const BATCH = 200;

/** The follows of remote account `accountId`, suspended here at `suspendedAt`, end; batch by batch, while
 * that suspension holds. Idempotent. */
export async function endFollowsOfSuspended(ctx: { store: Store; config: Config; jobs: JobEnqueuer }, accountId: string, suspendedAt: number): Promise<void> {
  const { store } = ctx;
  const due = () => {
    const account = getAccount(store, accountId);
    return account && account.domain !== null && account.suspended && account.suspensionOrigin === "local" && account.suspendedAt === suspendedAt;
  };
  for (;;) {
    if (!due()) return;
    const targets: string[] = [];
    for (const id of followingIdsOf(store, accountId)) if (targets.push(id) >= BATCH) break;
    if (targets.length === 0) return;
    await store.write(() => {
      if (!due()) return;
      for (const targetId of targets) {
        const removed = removeFollow(store, accountId, targetId);
        if (!removed) continue;
        withdrawFollowNotifications(store, accountId, targetId);
        recordEvent(ctx, "follow.removed", { followerId: accountId, targetId, uri: removed.uri });
      }
    });
  }
}
