// How the viewer relates to an account, read after an action has committed (the Relationship entity).
import type { Store } from "../../store/db.ts";
import { relationshipFacts } from "../../store/relationships.ts";
import { normaliseId } from "../../lib/ids.ts";
import { getAccount } from "../../store/accounts.ts";
import type { RelationshipFacts } from "../../model/relationships.ts";

export type { RelationshipFacts };

export function relationshipWith(store: Store, viewerId: string, targetId: string): RelationshipFacts {
  return relationshipFacts(store, viewerId, targetId);
}

/** GET /api/v1/accounts/relationships: one entry per known account, in the order asked, without repeats.
 * Ids that are not ids, unknown accounts and (unless `withSuspended`) suspended ones are left out. */
export function relationshipsWith(store: Store, viewerId: string, rawIds: readonly string[], withSuspended: boolean): RelationshipFacts[] {
  const seen = new Set<string>();
  const out: RelationshipFacts[] = [];
  const now = Date.now();
  for (const raw of rawIds) {
    const id = normaliseId(raw);
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const account = getAccount(store, id);
    if (!account || (account.suspended && !withSuspended)) continue;
    out.push(relationshipFacts(store, viewerId, id, now));
  }
  return out;
}
