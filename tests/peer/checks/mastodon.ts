// What Mastodon's ActivityPub::Activity parsers (app/lib/activitypub/activity/*.rb, read as reference) need
// beyond what every flavour needs: a Create's object embedded with an id it can store as the status URI, a
// Delete of an actor naming the actor itself, a Move whose object is its actor, movedTo and alsoKnownAs as IRIs.
import { commonProblems, idOf, isIri, list, type Activity, type CheckContext } from "./common.ts";

export function mastodonProblems(activity: Activity, context: CheckContext): string[] {
  const problems = commonProblems(activity, context);
  if (activity.type === "Create" && activity.object?.type === "Note") {
    const note = activity.object;
    // Mastodon reads visibility from to/cc; an empty `to` with only `cc` would be read as unlisted or direct.
    if (list(note.to).length === 0 && list(note.cc).length > 0) problems.push("Create(Note): empty to, visibility cannot be read as sent");
    if (typeof note.url !== "string" && note.url != null && !idOf(list(note.url)[0])) problems.push("Create(Note): url is neither a string nor a Link");
  }
  if (activity.type === "Delete" && typeof activity.object === "object" && activity.object?.type === "Person" && activity.object.id !== activity.actor) {
    problems.push("Delete(Person): an actor may only delete itself");
  }
  problems.push(...migrationProblems(activity));
  return problems;
}

/** Account migration: ActivityPub::Activity::Move reads `target` with value_or_id and drops a Move to its own
 * actor; ProcessAccountService reads `movedTo` and `alsoKnownAs` of an actor (its Update) as IRIs. */
function migrationProblems(activity: Activity): string[] {
  const problems: string[] = [];
  if (activity.type === "Move" && idOf(activity.target) === activity.actor) problems.push("Move: the target is the moving actor itself");
  const actor = activity.type === "Update" && typeof activity.object === "object" ? activity.object : null;
  if (actor && actor.movedTo != null && !isIri(idOf(actor.movedTo))) problems.push("Update(actor): movedTo is not an IRI");
  if (actor && !list(actor.alsoKnownAs).every((alias) => isIri(idOf(alias)))) problems.push("Update(actor): alsoKnownAs holds something other than IRIs");
  return problems;
}
