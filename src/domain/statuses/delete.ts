// DELETE /api/v1/statuses/:id and unreblog. The request makes the status vanish at once (deletedAt set, out
// of its account's list and its parent's replies, pin and "has reblogged" rows gone, and the counters of
// those rows lowered with them); the rest of the removal is the `statuses.removal` subscriber of the
// `status.deleted` event (reactions/statuses.ts, remove.ts).
import type { Deps } from "../../deps.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, putAccount } from "../../store/accounts.ts";
import { adjustStatusCounter, forgetReblog, getStatus, putStatus, removeFromAccount, removeFromParent } from "../../store/statuses.ts";
import { removePin } from "../../store/statuses-interactions.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { assertCanDelete } from "../policy/interaction.ts";
import { normaliseId } from "../../lib/ids.ts";
import { roleCan } from "../accounts/roles.ts";
import { recordEvent, type Origin } from "../events.ts";
import { detachForRedraft } from "../media/attach.ts";
import { uncountQuote } from "../quotes/attach.ts";
import { remoteInteractorIds } from "./interactors.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** Inside a write: the part of a deletion every read path relies on. */
export function discardStatus(store: Store, status: StatusRecord, now: number): void {
  putStatus(store, { ...status, deletedAt: now });
  if (removeFromAccount(store, status) && status.visibility !== "direct") {
    const account = getAccount(store, status.accountId);
    if (account) putAccount(store, { ...account, statusesCount: Math.max(0, account.statusesCount - 1) });
  }
  removePin(store, status.accountId, status.id);
  detachReply(store, status);
  if (forgetReblog(store, status)) adjustStatusCounter(store, status.reblogOfId!, "reblogsCount", -1);
  uncountQuote(store, status);
}

/** Inside a write: the status stops counting among its parent's replies (once, however often called). */
export function detachReply(store: Store, status: StatusRecord): void {
  if (removeFromParent(store, status)) adjustStatusCounter(store, status.inReplyToId!, "repliesCount", -1);
}

/**
 * DELETE /api/v1/statuses/:id: the viewer's status (any status, for moderators); returns it as it was.
 * Its attachments are freed for a redraft unless `deleteMedia` (Mastodon's delete_media) asks otherwise.
 */
export async function deleteStatus(deps: Deps, viewer: UserViewer, rawId: string, deleteMedia = false): Promise<StatusRecord> {
  const id = normaliseId(rawId);
  const target = id ? getStatus(deps.store, id) : undefined;
  assertCanDelete(viewer.account.id, roleCan(viewer.user.role, "manage_reports"), target);
  await discardAndRecord(deps, target, "local", !deleteMedia);
  return target;
}

/** The core, once the actor may delete it: gone from every read path now, the rest by `status.deleted`'s
 * subscriber. (A remote author's Delete comes through here too, its right checked by the inbox.) */
export async function discardAndRecord(deps: Deps, status: StatusRecord, origin: Origin = "local", keepMedia = false): Promise<void> {
  const { store } = deps;
  await store.write(() => {
    const fresh = getStatus(store, status.id);
    if (!fresh || fresh.deletedAt) return;
    const now = Date.now();
    discardStatus(store, fresh, now);
    if (keepMedia) detachForRedraft(deps, fresh, now);
    const audience = {
      visibility: fresh.visibility,
      mentionIds: fresh.mentionIds,
      inReplyToAccountId: fresh.inReplyToAccountId,
      quotedAccountId: fresh.quote?.accountId ?? null,
      interactorIds: remoteInteractorIds(store, fresh),
    };
    recordEvent(deps, "status.deleted", { statusId: fresh.id, accountId: fresh.accountId, audience }, origin, now);
  });
}
