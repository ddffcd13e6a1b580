// What GoToSocial's parsers (internal/typeutils/astointernal.go, internal/ap/extract.go and
// internal/federation/federatingdb, read as reference) need beyond what every flavour needs: an Undo carries
// the undone activity embedded (it is never dereferenced), and embedded Follows and Blocks have ids it can
// store and match ("unusable iri property" otherwise).
import { commonProblems, isIri, type Activity, type CheckContext } from "./common.ts";

const UNDOABLE = ["Follow", "Block", "Like", "Announce"];

export function gotosocialProblems(activity: Activity, context: CheckContext): string[] {
  const problems = commonProblems(activity, context);
  if (activity.type === "Undo" && typeof activity.object === "string") problems.push("Undo: GoToSocial needs the undone activity embedded, not only its IRI");
  if (activity.type === "Undo" && typeof activity.object === "object" && !UNDOABLE.includes(activity.object?.type)) {
    problems.push(`Undo: GoToSocial does not undo a ${activity.object?.type}`);
  }
  if (activity.type === "Create" && typeof activity.object === "object" && !isIri(activity.object?.attributedTo)) {
    problems.push("Create: GoToSocial needs attributedTo as a single IRI");
  }
  return problems;
}
