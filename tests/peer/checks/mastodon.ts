// What Mastodon's ActivityPub::Activity parsers (app/lib/activitypub/activity/*.rb, read as reference) need
// beyond what every flavour needs: a Create's object embedded with an id it can store as the status URI, a
// Delete of an actor naming the actor itself, a Move whose object is its actor.
import { commonProblems, idOf, list, type Activity, type CheckContext } from "./common.ts";

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
  return problems;
}
