// The Relationship entity (API.md §4.6): how the signed-in account relates to another one.
// showing_reblogs / notifying / languages describe the follow, or the pending request when there is one.
import { t, type Static } from "elysia";
import { publicId } from "../lib/ids.ts";
import type { RelationshipFacts } from "../domain/relationships/facts.ts";
import { Nullable } from "./nullable.ts";

export const RelationshipSchema = t.Object(
  {
    id: t.String({ description: "The other account's id" }),
    following: t.Boolean(),
    showing_reblogs: t.Boolean({ description: "Their reblogs reach your home timeline (follow or pending request)" }),
    notifying: t.Boolean({ description: "You are notified of their new statuses (follow or pending request)" }),
    languages: Nullable(t.Array(t.String(), { description: "Languages of theirs you follow; null = all" })),
    followed_by: t.Boolean(),
    blocking: t.Boolean(),
    blocked_by: t.Boolean(),
    muting: t.Boolean(),
    muting_notifications: t.Boolean(),
    muting_expires_at: Nullable(t.String({ description: "ISO 8601 datetime when the mute ends" })),
    requested: t.Boolean({ description: "You have a pending follow request to them" }),
    requested_by: t.Boolean({ description: "They have a pending follow request to you" }),
    domain_blocking: t.Boolean(),
    endorsed: t.Boolean(),
    note: t.String({ description: "Your private note on them; empty when none" }),
  },
  { description: "Mastodon Relationship" },
);
export type Relationship = Static<typeof RelationshipSchema>;

export function presentRelationship(facts: RelationshipFacts): Relationship {
  const options = facts.following ?? facts.requested;
  return {
    id: publicId(facts.targetId),
    following: facts.following !== undefined,
    showing_reblogs: options?.reblogs ?? false,
    notifying: options?.notify ?? false,
    languages: options?.languages ?? null,
    followed_by: facts.followedBy,
    blocking: facts.blocking,
    blocked_by: facts.blockedBy,
    muting: facts.mute !== undefined,
    muting_notifications: facts.mute?.notifications ?? false,
    muting_expires_at: facts.mute?.expiresAt ? new Date(facts.mute.expiresAt).toISOString() : null,
    requested: facts.requested !== undefined,
    requested_by: facts.requestedBy,
    domain_blocking: facts.domainBlocking,
    endorsed: facts.endorsed,
    note: facts.note,
  };
}
