// Muting: the muted account's statuses leave the muter's home timeline and, with `notifications` (default
// true), its notifications to the muter are dropped. A `duration` in seconds makes the mute expire; every
// read guard (store/relationships.ts getMute) treats an expired mute as absent, so expiry needs no job.
import type { Deps } from "../../deps.ts";
import { NotPermitted } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { AccountRecord, MuteRecord } from "../../store/records.ts";
import { getMute, putMute, removeMute } from "../../store/relationships.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";

export interface MuteOptions {
  notifications: boolean;
  /** seconds; 0 = until unmuted */
  durationSeconds: number;
}

/** Mutes, or changes the options of a live mute (it keeps its place in GET /api/v1/mutes). */
export async function muteAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string, options: MuteOptions): Promise<RelationshipFacts> {
  const { store } = deps;
  const target = findTargetAccount(store, rawTargetId, { allowSuspended: true });
  if (target.id === viewer.id) throw new NotPermitted();
  await store.write(() => {
    const now = Date.now();
    const live = getMute(store, viewer.id, target.id, now);
    const mute: MuteRecord = {
      v: 1,
      id: live?.id ?? newId(now),
      accountId: viewer.id,
      targetId: target.id,
      notifications: options.notifications,
      expiresAt: options.durationSeconds > 0 ? now + options.durationSeconds * 1000 : null,
      createdAt: live?.createdAt ?? now,
    };
    putMute(store, mute);
  });
  return relationshipWith(store, viewer.id, target.id);
}

export async function unmuteAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await deps.store.write(() => {
    removeMute(deps.store, viewer.id, target.id);
  });
  return relationshipWith(deps.store, viewer.id, target.id);
}
