// Reblog (boost) and unreblog. A reblog is a wrapper status with reblogOfId; reblogging twice returns the
// existing wrapper. Unreblogging discards the wrapper at once (like a delete) and leaves the rest to the
// `status.removed` job.
import type { Deps } from "../../deps.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import { getAccount, putAccount } from "../../store/accounts.ts";
import type { StatusRecord, Visibility } from "../../store/records.ts";
import { adjustStatusCounter, getStatus, insertStatus, reblogIdOf } from "../../store/statuses.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { notify } from "../notifications/notify.ts";
import { assertCanReblog, assertVisible } from "../policy/interaction.ts";
import { onStatusCreated } from "../timelines/distribute.ts";
import { statusUrls } from "./create.ts";
import { discardStatus } from "./delete.ts";
import { recordEvent } from "../events.ts";

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

/** Returns the wrapper (new or existing). */
export async function reblogStatus(deps: Deps, viewer: UserViewer, rawId: string, visibility?: ReblogVisibility): Promise<StatusRecord> {
  const { store } = deps;
  const me = viewer.account;
  const original = interactionTarget(deps, me.id, rawId);
  assertCanReblog(store, me.id, original);
  const existing = reblogIdOf(store, me.id, original.id);
  if (existing) return getStatus(store, existing)!;

  const preferred = viewer.user.privacy === "direct" ? "private" : viewer.user.privacy;
  const now = Date.now();
  const id = newId(now);
  const wrapper: StatusRecord = {
    v: 1,
    id,
    accountId: me.id,
    ...statusUrls(me, id, true),
    local: true,
    text: "",
    content: "",
    spoilerText: "",
    sensitive: false,
    visibility: visibility ?? preferred ?? "public",
    language: null,
    inReplyToId: null,
    inReplyToAccountId: null,
    reblogOfId: original.id,
    applicationId: null,
    mentionIds: [],
    tags: [],
    mediaIds: [],
    repliesCount: 0,
    reblogsCount: 0,
    favouritesCount: 0,
    createdAt: now,
    editedAt: null,
    deletedAt: null,
  };
  return store.write(() => {
    const raced = reblogIdOf(store, me.id, original.id);
    if (raced) return getStatus(store, raced)!;
    insertStatus(store, wrapper);
    onStatusCreated(deps, wrapper);
    adjustStatusCounter(store, original.id, "reblogsCount", 1);
    const account = getAccount(store, me.id);
    if (account) putAccount(store, { ...account, statusesCount: account.statusesCount + 1, lastStatusAt: now });
    notify(deps, { type: "reblog", recipientId: original.accountId, fromAccountId: me.id, statusId: original.id }, now);
    return wrapper;
  });
}

/** Returns the original status as it stands afterwards (reblogged false, count already lowered). */
export async function unreblogStatus(deps: Deps, viewer: UserViewer, rawId: string): Promise<StatusRecord> {
  const { store } = deps;
  const me = viewer.account;
  const original = interactionTarget(deps, me.id, rawId);
  await store.write(() => {
    const wrapperId = reblogIdOf(store, me.id, original.id);
    const wrapper = wrapperId ? getStatus(store, wrapperId) : undefined;
    if (!wrapper || wrapper.deletedAt) return;
    const now = Date.now();
    discardStatus(store, wrapper, now);
    recordEvent(deps, "reblog.removed", { statusId: wrapper.id, reblogOfId: original.id, accountId: me.id }, "local", now);
  });
  return getStatus(store, original.id) ?? original;
}
