// Reblog (boost) and unreblog. A reblog is a wrapper status with reblogOfId; reblogging twice returns the
// existing wrapper. Unreblogging discards the wrapper at once (like a delete) and leaves the rest to the
// `reblog.removed` event's subscriber. Each action has a core for any acting account (local or, with
// federation, remote) and a wrapper for the API that resolves the token holder and raw ids.
import type { Deps } from "../../deps.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import { getAccount, putAccount } from "../../store/accounts.ts";
import { adjustStatusCounter, getStatus, insertStatus, reblogIdOf } from "../../store/statuses.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { notify } from "../notifications/notify.ts";
import { assertCanReblog, assertVisible } from "../policy/interaction.ts";
import { onStatusCreated } from "../timelines/distribute.ts";
import { newStatusRecord } from "./record.ts";
import { discardStatus } from "./delete.ts";
import { recordEvent, type Origin } from "../events.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { StatusRecord, Visibility } from "../../model/statuses.ts";

export type ReblogVisibility = Exclude<Visibility, "direct">;

/** The status an interaction applies to: a reblog wrapper stands for the status it wraps. */
export function interactionTarget(deps: Deps, viewerId: string, rawId: string): StatusRecord {
  const id = normaliseId(rawId);
  let status = id ? getStatus(deps.store, id) : undefined;
  assertVisible(deps.store, viewerId, status);
  if (status.reblogOfId) status = getStatus(deps.store, status.reblogOfId);
  assertVisible(deps.store, viewerId, status);
  return status;
}

/** POST /api/v1/statuses/:id/reblog: the visibility asked for, else the user's default (never direct). */
export async function reblogStatus(deps: Deps, viewer: UserViewer, rawId: string, visibility?: ReblogVisibility): Promise<StatusRecord> {
  const original = interactionTarget(deps, viewer.account.id, rawId);
  const preferred = viewer.user.privacy === "direct" ? "private" : viewer.user.privacy;
  return reblog(deps, viewer.account, original, visibility ?? preferred ?? "public");
}

/** The core, for any actor: returns the wrapper (new, or the one that exists). A remote actor's Announce
 * gives the wrapper its ActivityPub id (`uri`) and the origin "remote". */
export async function reblog(
  deps: Deps,
  actor: AccountRecord,
  original: StatusRecord,
  visibility: ReblogVisibility,
  remote?: { uri: string },
): Promise<StatusRecord> {
  const { store } = deps;
  assertCanReblog(store, actor.id, original);
  const existing = reblogIdOf(store, actor.id, original.id);
  if (existing) return getStatus(store, existing)!;
  const now = Date.now();
  const wrapper = newStatusRecord({ id: newId(now), author: actor, createdAt: now, visibility, reblogOf: original, uri: remote?.uri });
  return store.write(() => {
    const raced = reblogIdOf(store, actor.id, original.id);
    if (raced) return getStatus(store, raced)!;
    insertStatus(store, wrapper);
    onStatusCreated(deps, wrapper, null, remote ? "remote" : "local");
    adjustStatusCounter(store, original.id, "reblogsCount", 1);
    const account = getAccount(store, actor.id);
    if (account) putAccount(store, { ...account, statusesCount: account.statusesCount + 1, lastStatusAt: now });
    notify(deps, { type: "reblog", recipientId: original.accountId, fromAccountId: actor.id, statusId: original.id }, now);
    return wrapper;
  });
}

/** Returns the original status as it stands afterwards (reblogged false, count already lowered). */
export async function unreblogStatus(deps: Deps, viewer: UserViewer, rawId: string): Promise<StatusRecord> {
  const original = interactionTarget(deps, viewer.account.id, rawId);
  await unreblog(deps, viewer.account, original);
  return getStatus(deps.store, original.id) ?? original;
}

/** The core: discards the actor's reblog of `original` at once; the `reblog.removed` subscriber does the rest. */
export async function unreblog(deps: Deps, actor: AccountRecord, original: StatusRecord, origin: Origin = "local"): Promise<void> {
  const { store } = deps;
  await store.write(() => {
    const wrapperId = reblogIdOf(store, actor.id, original.id);
    const wrapper = wrapperId ? getStatus(store, wrapperId) : undefined;
    if (!wrapper || wrapper.deletedAt) return;
    const now = Date.now();
    discardStatus(store, wrapper, now);
    recordEvent(deps, "reblog.removed", { statusId: wrapper.id, reblogOfId: original.id, accountId: actor.id }, origin, now);
  });
}
