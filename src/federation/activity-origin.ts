// An activity's id must be on its actor's server (same scheme, host and port). Fedify remembers the ids of
// activities it has handled (for a day, whatever their sender) and skips a repeat; without this check a
// server could sign an activity under an id another server will use later (ours are predictable:
// `<actor>#follows/<snowflake>`) and have the genuine one ignored. Activities without an id are Fedify's to
// judge; forwarded activities keep their author's id and actor, so they pass.
import { actorIdsOf } from "./domain-policy.ts";

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** Whether `activity` claims an id on another server than (one of) its actors. */
export function hasForeignId(activity: unknown): boolean {
  if (typeof activity !== "object" || activity === null) return false;
  const id = (activity as { id?: unknown }).id;
  if (id === undefined || id === null) return false;
  if (typeof id !== "string") return true;
  const idOrigin = originOf(id);
  const actors = actorIdsOf(activity);
  return idOrigin === null || actors.some((actor) => originOf(actor) !== idOrigin);
}
