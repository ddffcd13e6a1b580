// Endorsements (Mastodon's account pins): POST /api/v1/accounts/:id/endorse|unendorse (and the older pin|unpin),
// GET /api/v1/endorsements (yours) and GET /api/v1/accounts/:id/endorsements (anyone's, 4.4). Only an account
// you follow may be endorsed; an endorsement counts only while you follow (an unfollow ends it in effect).
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { getEndorsement, pageEndorsements, putEndorsement, removeEndorsement } from "../../store/endorsements.ts";
import { isBlocking, isFollowing } from "../../store/relationships.ts";
import { viewerHides } from "../policy/visibility.ts";
import { relationshipWith, type RelationshipFacts } from "../relationships/facts.ts";
import { findTargetAccount } from "../relationships/target.ts";
import type { AccountPage } from "../relationships/lists.ts";
import { accountVisible, cachedAccount, findVisibleAccount } from "./read.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { PageQuery } from "../../model/paging.ts";

export async function endorseAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId);
  await deps.store.write(() => {
    if (!isFollowing(deps.store, viewer.id, target.id)) {
      throw new Unprocessable("Validation failed: You must be already following the person you want to endorse");
    }
    if (getEndorsement(deps.store, viewer.id, target.id)) return;
    const now = Date.now();
    putEndorsement(deps.store, viewer.id, target.id, { v: 1, id: newId(now), createdAt: now });
  });
  return relationshipWith(deps.store, viewer.id, target.id);
}

export async function unendorseAccount(deps: Deps, viewer: AccountRecord, rawTargetId: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  await deps.store.write(() => removeEndorsement(deps.store, viewer.id, target.id));
  return relationshipWith(deps.store, viewer.id, target.id);
}

/** `ownerId`'s endorsements still in effect (followed, visible, not suspended), minus accounts `viewerId` hides. */
function endorsementsOf(deps: Deps, ownerId: string, viewerId: string | null, query: PageQuery): AccountPage {
  const { store } = deps;
  const shown = (targetId: string) => {
    const account = cachedAccount(store, targetId);
    if (!account || account.suspended || !accountVisible(store, account) || !isFollowing(store, ownerId, targetId)) return false;
    return !viewerId || (!viewerHides(store, viewerId, targetId) && !isBlocking(store, targetId, viewerId));
  };
  const rows = pageEndorsements(store, ownerId, query, shown);
  const entries = rows.map((row) => ({ cursor: row.id, account: cachedAccount(store, row.targetId)! }));
  return { entries, full: entries.length === query.limit };
}

/** GET /api/v1/endorsements. */
export function ownEndorsements(deps: Deps, viewerId: string, query: PageQuery): AccountPage {
  return endorsementsOf(deps, viewerId, null, query);
}

/** GET /api/v1/accounts/:id/endorsements: none shown for a suspended owner, one hiding its collections (to
 * others), or one blocking the viewer. */
export function accountEndorsements(deps: Deps, viewerId: string | null, rawId: string, query: PageQuery): AccountPage {
  const owner = findVisibleAccount(deps, rawId);
  const hidden = owner.suspended || (owner.hideCollections && owner.id !== viewerId) || (viewerId !== null && isBlocking(deps.store, owner.id, viewerId));
  return hidden ? { entries: [], full: false } : endorsementsOf(deps, owner.id, viewerId, query);
}
