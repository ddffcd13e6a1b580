// What Misskey's ApInboxService and ApNoteService (packages/backend/src/core/activitypub, read as reference)
// need beyond what every flavour needs: the activity's id on the signer's host (checked against the key's
// host), a Note's content as HTML or `_misskey_content`, a Like's object a note IRI.
import { commonProblems, type Activity, type CheckContext } from "./common.ts";

export function misskeyProblems(activity: Activity, context: CheckContext): string[] {
  const problems = commonProblems(activity, context);
  if (context.signer && typeof activity.id === "string" && URL.canParse(activity.id) && new URL(activity.id).host !== new URL(context.signer).host) {
    problems.push("Misskey: activity id host differs from the signer's host");
  }
  const note = activity.type === "Create" ? activity.object : null;
  if (note && typeof note.content !== "string" && typeof note._misskey_content !== "string") problems.push("Misskey: Note has no content");
  return problems;
}
