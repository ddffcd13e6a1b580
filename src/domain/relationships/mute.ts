// Muting: the muted account's statuses leave the muter's home timeline and, with `notifications` (default
// true), its notifications to the muter are dropped. A `duration` in seconds makes the mute expire: every
// read guard (store/relationships.ts getMute) treats an expired mute as absent from that moment, and a
// job deletes it then, so that what was kept for the unchanged store (timeline pages) is renewed too.
import type { Deps } from "../../deps.ts";
import type { Store } from "../../store/db.ts";
import { NotPermitted } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { getMute, getMuteRecord, putMute, removeMute } from "../../store/relationships.ts";
import { recordEvent } from "../events.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { MuteRecord } from "../../model/relationships.ts";

/** Which mute the expiry subscriber (relationships.mute_expiry) looks at when it runs. */
export interface MuteExpired {
  muterId: string;
  targetId: string;
}

export interface MuteOptions {
  notifications: boolean;
  /** seconds; 0 = until unmuted */
  durationSeconds: number;
}

/** Mutes, or changes the options of a live mute (it keeps its place in GET /api/v1/mutes). */
export async function muteAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string, options: MuteOptions): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await mute(deps, viewer, target, options);
  return relationshipWith(deps.store, viewer.id, target.id);
}

/** The core (mutes are private to this server: they never federate). */
export async function mute(deps: Deps, actor: AccountRecord, target: AccountRecord, options: MuteOptions): Promise<void> {
  const { store } = deps;
  if (target.id === actor.id) throw new NotPermitted();
  await store.write(() => {
    const now = Date.now();
    const live = getMute(store, actor.id, target.id, now);
    const record: MuteRecord = {
      v: 1,
      id: live?.id ?? newId(now),
      accountId: actor.id,
      targetId: target.id,
      notifications: options.notifications,
      expiresAt: options.durationSeconds > 0 ? now + options.durationSeconds * 1000 : null,
      createdAt: live?.createdAt ?? now,
    };
    putMute(store, record);
    recordEvent(deps, "mute.created", { muteId: record.id, accountId: actor.id, targetId: target.id, expiresAt: record.expiresAt }, "local", now);
  });
}

export async function unmuteAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await unmute(deps, viewer, target);
  return relationshipWith(deps.store, viewer.id, target.id);
}

export async function unmute(deps: Deps, actor: AccountRecord, target: AccountRecord): Promise<void> {
  await deps.store.write(() => {
    if (removeMute(deps.store, actor.id, target.id)) recordEvent(deps, "mute.removed", { accountId: actor.id, targetId: target.id });
  });
}

/** The mute's expiry (relationships.mute_expiry): deletes the mute if it has ended (a mute renewed since is left alone). Idempotent. */
export async function removeExpiredMute(store: Store, event: MuteExpired): Promise<void> {
  await store.write(() => {
    const mute = getMuteRecord(store, event.muterId, event.targetId);
    if (mute && mute.expiresAt !== null && mute.expiresAt <= Date.now()) removeMute(store, event.muterId, event.targetId);
  });
}
