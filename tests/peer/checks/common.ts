// What every one of the servers the test peer plays needs of a received activity, whatever its flavour:
// ids that are absolute IRIs on the sender's server, an actor that is the signer, embedded objects with ids
// where the receiver must find what is undone, and objects shaped as their parsers read them. Each check
// returns problems as sentences; an empty list means the activity is understood.
export const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";
const PUBLIC_ALIASES = [PUBLIC, "as:Public", "Public"];

export interface CheckContext {
  /** The owner of the key that signed the request (null when unsigned or unverified). */
  signer: string | null;
  userAgent: string | null;
}

export type Activity = Record<string, any>;

export const list = (value: unknown): any[] => (value == null ? [] : Array.isArray(value) ? value : [value]);
export const idOf = (value: any): string | undefined => (typeof value === "string" ? value : typeof value?.id === "string" ? value.id : undefined);

export function isIri(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

const sameOrigin = (a: string, b: string) => new URL(a).origin === new URL(b).origin;

/** An id that names the actor document itself rather than something of its own (`<actor>#follows/1`). */
export const isActorFragment = (id: string, actor: string) => id.startsWith(`${actor}#`);

export const isPublic = (activity: Activity) =>
  [...list(activity.to), ...list(activity.cc), ...list(activity.object?.to), ...list(activity.object?.cc)].some((a) => PUBLIC_ALIASES.includes(idOf(a) ?? ""));

function envelopeProblems(activity: Activity, context: CheckContext): string[] {
  const problems: string[] = [];
  const type = activity.type;
  if (!list(activity["@context"]).some((c) => c === "https://www.w3.org/ns/activitystreams")) problems.push(`${type}: @context does not include the ActivityStreams context`);
  if (!isIri(activity.id)) problems.push(`${type}: id is not an absolute IRI (${JSON.stringify(activity.id)})`);
  if (!isIri(activity.actor)) problems.push(`${type}: actor is not an IRI`);
  else {
    if (isIri(activity.id) && !sameOrigin(activity.id, activity.actor)) problems.push(`${type}: id ${activity.id} is not on the actor's server`);
    if (context.signer && context.signer !== activity.actor) problems.push(`${type}: signed by ${context.signer} but its actor is ${activity.actor}`);
  }
  if ((activity.signature || activity.proof) && !isPublic(activity)) {
    problems.push(`${type}: carries a Linked-Data signature or proof though it is not public (Mastodon signs only public activities)`);
  }
  return problems;
}

/** Accept, Reject and Undo: the receiver finds what they answer or undo by the embedded object's id. */
function answerProblems(activity: Activity): string[] {
  const { type, object } = activity;
  if (typeof object === "string") return isIri(object) ? [] : [`${type}: object is not an IRI`];
  if (!object || typeof object !== "object") return [`${type}: no object`];
  const problems: string[] = [];
  if (!isIri(object.id)) problems.push(`${type}(${object.type}): embedded object has no id (GoToSocial: "unusable iri property"; Pleroma: object id required), so nothing is ${type === "Undo" ? "undone" : "matched"}`);
  if (!object.type) problems.push(`${type}: embedded object has no type`);
  if (["Follow", "Block", "Like", "Announce"].includes(object.type) && !isIri(object.actor)) problems.push(`${type}(${object.type}): embedded object has no actor`);
  if (["Follow", "Block", "Like", "Announce"].includes(object.type) && !isIri(idOf(object.object))) problems.push(`${type}(${object.type}): embedded object has no object`);
  if (type === "Undo" && isIri(object.actor) && object.actor !== activity.actor) problems.push(`Undo(${object.type}): undoes an activity of another actor`);
  if (type === "Accept" || type === "Reject") {
    if (object.type === "Follow" && idOf(object.object) !== activity.actor) problems.push(`${type}(Follow): the follow's object is not the accepting actor`);
  }
  return problems;
}

function relationProblems(activity: Activity): string[] {
  const problems: string[] = [];
  if (!isIri(idOf(activity.object))) problems.push(`${activity.type}: object is not an IRI`);
  if (isIri(activity.id) && isIri(activity.actor) && isActorFragment(activity.id, activity.actor)) {
    problems.push(`${activity.type}: id ${activity.id} is a fragment of the actor URI, not a dereferenceable id of its own`);
  }
  return problems;
}

function tagProblems(tags: any[], where: string): string[] {
  const problems: string[] = [];
  for (const tag of tags) {
    if (tag?.type === "Mention" && (!isIri(tag.href) || typeof tag.name !== "string")) problems.push(`${where}: Mention tag needs href and name`);
    if (tag?.type === "Hashtag" && (!isIri(tag.href) || !/^#/.test(tag.name ?? ""))) problems.push(`${where}: Hashtag tag needs href and a name starting with #`);
    if (tag?.type === "Emoji") {
      if (!/^:[A-Za-z0-9_]+:$/.test(tag.name ?? "")) problems.push(`${where}: Emoji name must be :shortcode:`);
      if (!isIri(tag.id)) problems.push(`${where}: Emoji needs an id`);
      if (!isIri(tag.icon?.url) || !tag.icon?.mediaType) problems.push(`${where}: Emoji icon needs url and mediaType`);
    }
  }
  return problems;
}

/** A Note (or Question, Article) as Mastodon, GoToSocial and Misskey parse one. */
export function noteProblems(note: Activity, actor: string): string[] {
  const where = `${note.type ?? "object"} ${note.id ?? ""}`.trim();
  const problems: string[] = [];
  if (!["Note", "Question", "Article", "Page"].includes(note.type)) problems.push(`${where}: type is not Note, Question, Article or Page`);
  if (!isIri(note.id)) problems.push(`${where}: no id`);
  else if (!sameOrigin(note.id, actor)) problems.push(`${where}: id is not on the actor's server`);
  if (idOf(note.attributedTo) !== actor) problems.push(`${where}: attributedTo is not the activity's actor`);
  // A poll vote (Mastodon's VoteSerializer): a Note with the option's `name` in reply to the Question, no content.
  const vote = note.type === "Note" && typeof note.name === "string" && note.inReplyTo != null && note.content == null;
  if (!vote && typeof note.content !== "string") problems.push(`${where}: no content`);
  if (!vote && (typeof note.published !== "string" || Number.isNaN(Date.parse(note.published)))) problems.push(`${where}: published is not a date`);
  if (list(note.to).length + list(note.cc).length === 0) problems.push(`${where}: no to/cc (nobody would see it)`);
  if (note.inReplyTo != null && !isIri(idOf(note.inReplyTo))) problems.push(`${where}: inReplyTo is not an IRI`);
  for (const attachment of list(note.attachment)) {
    if (!isIri(attachment?.url) && !isIri(idOf(list(attachment?.url)[0]))) problems.push(`${where}: attachment without url`);
  }
  return [...problems, ...tagProblems(list(note.tag), where)];
}

function objectActivityProblems(activity: Activity): string[] {
  const { type, object, actor } = activity;
  if (type === "Create") {
    if (typeof object !== "object" || !object) return ["Create: object must be embedded"];
    const problems = noteProblems(object, actor);
    const addressed = new Set([...list(activity.to), ...list(activity.cc)].map(idOf));
    for (const recipient of [...list(object.to), ...list(object.cc)].map(idOf)) {
      if (!addressed.has(recipient)) problems.push(`Create: the Note is addressed to ${recipient} but the Create is not`);
    }
    return problems;
  }
  if (type === "Update") {
    if (typeof object !== "object" || !object) return ["Update: object must be embedded"];
    if (["Person", "Service", "Application", "Group", "Organization"].includes(object.type)) {
      return object.id === actor ? [] : ["Update: an actor may only update itself"];
    }
    const problems = noteProblems(object, actor);
    // A Question's Update without `updated` refreshes its counts only (Mastodon's poll updates).
    if (typeof object.updated !== "string" && object.type !== "Question") problems.push("Update(Note): no updated date");
    return problems;
  }
  if (type === "Delete") {
    const id = idOf(object);
    if (!isIri(id)) return ["Delete: object has no id"];
    return sameOrigin(id, actor) ? [] : ["Delete: object is not on the actor's server"];
  }
  return [];
}

function otherProblems(activity: Activity): string[] {
  const { type, object } = activity;
  if (type === "Like" || type === "Announce") {
    const problems = isIri(idOf(object)) ? [] : [`${type}: object is not an IRI`];
    if (type === "Announce" && list(activity.to).length + list(activity.cc).length === 0) problems.push("Announce: no to/cc");
    if (type === "Announce" && typeof activity.published !== "string") problems.push("Announce: no published date");
    return problems;
  }
  if (type === "Flag") {
    const objects = list(object);
    if (objects.length === 0 || !objects.every((o) => isIri(idOf(o)))) return ["Flag: object must be the account (and statuses) as IRIs"];
    return typeof activity.content === "string" || activity.content == null ? [] : ["Flag: content must be a string"];
  }
  if (type === "Move") {
    const problems: string[] = [];
    if (idOf(object) !== activity.actor) problems.push("Move: object must be the moving actor");
    if (!isIri(idOf(activity.target))) problems.push("Move: target is not an IRI");
    return problems;
  }
  return [];
}

/** Problems every flavour has with `activity`, and with the request's User-Agent. */
export function commonProblems(activity: Activity, context: CheckContext): string[] {
  const problems = envelopeProblems(activity, context);
  if (["Accept", "Reject", "Undo"].includes(activity.type)) problems.push(...answerProblems(activity));
  if (activity.type === "Follow" || activity.type === "Block") problems.push(...relationProblems(activity));
  problems.push(...objectActivityProblems(activity), ...otherProblems(activity));
  return problems;
}

/** The User-Agent every request should carry (servers log and block by it; `Bun/…` names no server). */
export function userAgentProblems(userAgent: string | null): string[] {
  if (!userAgent) return ["User-Agent missing"];
  if (/^Bun\//.test(userAgent) || !/https?:\/\//.test(userAgent)) return [`User-Agent "${userAgent}" does not name the server (expected Warren/<version> (+<instance url>))`];
  return [];
}
