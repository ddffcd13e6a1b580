// Private notes on other accounts (Relationship.note). A blank comment removes the note.
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { putAccountNote } from "../../store/relationships.ts";
import { RELATIONSHIP_LIMITS } from "../limits.ts";
import { findTargetAccount } from "./target.ts";
import { relationshipWith, type RelationshipFacts } from "./facts.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export async function setAccountNote(deps: Deps, viewer: AccountRecord, rawTargetId: string, comment: string): Promise<RelationshipFacts> {
  const target = findTargetAccount(deps.store, rawTargetId, { allowSuspended: true });
  const text = comment.trim() === "" ? "" : comment;
  if ([...text].length > RELATIONSHIP_LIMITS.maxNoteLength) {
    throw new Unprocessable(`Validation failed: Comment is too long (maximum is ${RELATIONSHIP_LIMITS.maxNoteLength} characters)`);
  }
  await deps.store.write(() => {
    putAccountNote(deps.store, viewer.id, target.id, text);
  });
  return relationshipWith(deps.store, viewer.id, target.id);
}
