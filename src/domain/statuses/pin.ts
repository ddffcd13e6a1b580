// Pins: the author's own statuses shown first on their profile. Not boosts, not direct statuses, and at
// most ACCOUNT_LIMITS.maxPinnedStatuses; Mastodon's validation messages.
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import { getStatus } from "../../store/statuses.ts";
import { insertPin, pinIdOf, pinsOf, removePin } from "../../store/statuses-interactions.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { ACCOUNT_LIMITS } from "../limits.ts";
import { assertVisible } from "../policy/interaction.ts";
import type { StatusRecord } from "../../model/statuses.ts";

function pinnable(deps: Deps, viewer: UserViewer, rawId: string): StatusRecord {
  const id = normaliseId(rawId);
  const status = id ? getStatus(deps.store, id) : undefined;
  assertVisible(deps.store, viewer.account.id, status);
  return status;
}

export async function pinStatus(deps: Deps, viewer: UserViewer, rawId: string): Promise<StatusRecord> {
  const { store } = deps;
  const me = viewer.account.id;
  const status = pinnable(deps, viewer, rawId);
  if (status.reblogOfId) throw new Unprocessable("Validation failed: A boost cannot be pinned");
  if (status.accountId !== me) throw new Unprocessable("Validation failed: Someone else's post cannot be pinned");
  if (status.visibility === "direct") throw new Unprocessable("Validation failed: Posts that are only visible to mentioned users cannot be pinned");
  const full = () => pinsOf(store, me).length >= ACCOUNT_LIMITS.maxPinnedStatuses;
  if (pinIdOf(store, me, status.id)) return status;
  if (full()) throw new Unprocessable("Validation failed: You have already pinned the maximum number of posts");
  await store.write(() => {
    if (!pinIdOf(store, me, status.id) && !full()) insertPin(store, { id: newId(), accountId: me, statusId: status.id });
  });
  return status;
}

export async function unpinStatus(deps: Deps, viewer: UserViewer, rawId: string): Promise<StatusRecord> {
  const status = pinnable(deps, viewer, rawId);
  await deps.store.write(() => removePin(deps.store, viewer.account.id, status.id));
  return status;
}
