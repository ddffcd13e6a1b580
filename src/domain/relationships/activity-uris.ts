// The ActivityPub ids of follows and blocks, kept with the relationship records (FollowRecord.uri,
// BlockRecord.uri) so that every Undo, Accept and Reject names the very Follow or Block it answers
// (GoToSocial and Pleroma match by id; docs/federation.md "Follows and blocks"). A local account's Follow or
// Block gets a path of its own under its actor, which src/federation/relationship-objects.ts serves while the
// relationship stands; a remote one's keeps the id its server gave it.
import type { AccountRecord } from "../../model/accounts.ts";
import type { BlockRecord, FollowRecord } from "../../model/relationships.ts";

/** The id of the Follow (or request) `follower` sends for record `id`: `<actor>/follows/<targetId>/<id>`. */
export const followUri = (follower: AccountRecord, targetId: string, id: string): string => `${follower.uri}/follows/${targetId}/${id}`;

/** The id of the Block `blocker` sends for record `id`: `<actor>/blocks/<targetId>/<id>`. */
export const blockUri = (blocker: AccountRecord, targetId: string, id: string): string => `${blocker.uri}/blocks/${targetId}/${id}`;

/**
 * The id of a follow (`pending`: a request), kept or, for a local follower's record from before ids were kept,
 * rebuilt: a request keeps the fragment id it was sent with (`<actor>#follows/<id>`, what the other server
 * stored); an accepted follow's request id is lost, so it gets the path id of its record (served as the others).
 * Null for a remote follower whose Follow came without an id.
 */
export function followUriOf(follower: AccountRecord, record: FollowRecord, pending: boolean): string | null {
  if (record.uri) return record.uri;
  if (follower.domain !== null) return null;
  return pending ? `${follower.uri}#follows/${record.id}` : followUri(follower, record.targetId, record.id);
}

/** The id of a block, kept or, for a local blocker's record from before ids were kept, the fragment id it was
 * sent with (`<actor>#blocks/<id>`). Null for a remote blocker's Block that came without an id. */
export function blockUriOf(blocker: AccountRecord, record: BlockRecord): string | null {
  if (record.uri) return record.uri;
  return blocker.domain === null ? `${blocker.uri}#blocks/${record.id}` : null;
}
