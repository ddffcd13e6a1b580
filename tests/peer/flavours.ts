// How each server the test peer plays shapes what it serves: actors, their keys, WebFinger answers,
// collections and activity ids. Written from the shapes of real documents (Mastodon's serializers and
// fixtures, GoToSocial's docs/federation and typeutils, Misskey's ApRendererService), read as reference only.
import { randomUUID } from "node:crypto";

export type Flavour = "mastodon" | "gotosocial" | "misskey";

const AS = "https://www.w3.org/ns/activitystreams";
const SECURITY = "https://w3id.org/security/v1";

export interface ActorShape {
  /** Actor id, from which inbox, collections and key ids follow. */
  id: string;
  keyId: string;
  inbox: string;
  sharedInbox: string | null;
  /** Path under which the key is served on its own, when it is not a fragment of the actor (GoToSocial). */
  keyPath: string | null;
  profileUrl: string;
}

/** Where an account lives on a server of this flavour. Misskey names users by an opaque id, not the username. */
export function actorShape(flavour: Flavour, base: string, username: string): ActorShape {
  if (flavour === "gotosocial") {
    const id = `${base}/users/${username}`;
    return { id, keyId: `${id}/main-key`, inbox: `${id}/inbox`, sharedInbox: null, keyPath: `/users/${username}/main-key`, profileUrl: `${base}/@${username}` };
  }
  if (flavour === "misskey") {
    const id = `${base}/users/9${Buffer.from(username).toString("hex").slice(0, 9)}`;
    return { id, keyId: `${id}#main-key`, inbox: `${id}/inbox`, sharedInbox: `${base}/inbox`, keyPath: null, profileUrl: `${base}/@${username}` };
  }
  const id = `${base}/users/${username}`;
  return { id, keyId: `${id}#main-key`, inbox: `${id}/inbox`, sharedInbox: `${base}/inbox`, keyPath: null, profileUrl: `${base}/@${username}` };
}

const MASTODON_CONTEXT = [
  AS,
  SECURITY,
  {
    manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
    toot: "http://joinmastodon.org/ns#",
    featured: { "@id": "toot:featured", "@type": "@id" },
    featuredTags: { "@id": "toot:featuredTags", "@type": "@id" },
    alsoKnownAs: { "@id": "as:alsoKnownAs", "@type": "@id" },
    movedTo: { "@id": "as:movedTo", "@type": "@id" },
    schema: "http://schema.org#",
    PropertyValue: "schema:PropertyValue",
    value: "schema:value",
    discoverable: "toot:discoverable",
    suspended: "toot:suspended",
    memorial: "toot:memorial",
    indexable: "toot:indexable",
    Emoji: "toot:Emoji",
    focalPoint: { "@container": "@list", "@id": "toot:focalPoint" },
  },
];

export const MISSKEY_CONTEXT = [
  AS,
  SECURITY,
  {
    Key: "sec:Key",
    manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
    sensitive: "as:sensitive",
    Hashtag: "as:Hashtag",
    quoteUrl: "as:quoteUrl",
    toot: "http://joinmastodon.org/ns#",
    Emoji: "toot:Emoji",
    featured: "toot:featured",
    discoverable: "toot:discoverable",
    schema: "http://schema.org#",
    PropertyValue: "schema:PropertyValue",
    value: "schema:value",
    misskey: "https://misskey-hub.net/ns#",
    _misskey_content: "misskey:_misskey_content",
    _misskey_quote: "misskey:_misskey_quote",
    _misskey_reaction: "misskey:_misskey_reaction",
    _misskey_votes: "misskey:_misskey_votes",
    _misskey_summary: "misskey:_misskey_summary",
    isCat: "misskey:isCat",
    vcard: "http://www.w3.org/2006/vcard/ns#",
  },
];

const GOTOSOCIAL_CONTEXT = [AS, SECURITY, { manuallyApprovesFollowers: "as:manuallyApprovesFollowers", toot: "http://joinmastodon.org/ns#", discoverable: "toot:discoverable", featured: { "@id": "toot:featured", "@type": "@id" } }];

export interface ActorFacts {
  username: string;
  name: string;
  summary: string;
  locked: boolean;
  publicKeyPem: string;
  published: string;
}

/** The actor document a server of `flavour` serves for `facts` at `shape.id`. */
export function actorDocument(flavour: Flavour, shape: ActorShape, facts: ActorFacts): Record<string, unknown> {
  const { id } = shape;
  const common = {
    id,
    type: "Person",
    following: `${id}/following`,
    followers: `${id}/followers`,
    inbox: shape.inbox,
    outbox: `${id}/outbox`,
    preferredUsername: facts.username,
    name: facts.name,
    summary: facts.summary,
    url: shape.profileUrl,
    manuallyApprovesFollowers: facts.locked,
    discoverable: true,
    published: facts.published,
    publicKey: { id: shape.keyId, owner: id, publicKeyPem: facts.publicKeyPem },
  };
  if (flavour === "gotosocial") {
    // No shared inbox; the key lives at its own path; featured is a collection under the actor.
    return { "@context": GOTOSOCIAL_CONTEXT, ...common, featured: `${id}/collections/featured`, tag: [] };
  }
  if (flavour === "misskey") {
    return {
      "@context": MISSKEY_CONTEXT,
      ...common,
      type: "Person",
      featured: `${id}/collections/featured`,
      sharedInbox: shape.sharedInbox,
      endpoints: { sharedInbox: shape.sharedInbox },
      _misskey_summary: facts.summary,
      isCat: false,
      noindex: false,
      speakAsCat: false,
      attachment: [],
      tag: [],
      publicKey: { ...common.publicKey, type: "Key" },
    };
  }
  return {
    "@context": MASTODON_CONTEXT,
    ...common,
    featured: `${id}/collections/featured`,
    featuredTags: `${id}/collections/tags`,
    indexable: true,
    memorial: false,
    devices: `${id}/collections/devices`,
    tag: [],
    attachment: [],
    endpoints: { sharedInbox: shape.sharedInbox },
  };
}

/** GoToSocial serves the key on its own: a stub of the owner carrying only the key. */
export function keyDocument(shape: ActorShape, publicKeyPem: string): Record<string, unknown> {
  return { "@context": [AS, SECURITY], id: shape.id, type: "Person", publicKey: { id: shape.keyId, owner: shape.id, publicKeyPem } };
}

export function webfinger(flavour: Flavour, domain: string, username: string, shape: ActorShape): Record<string, unknown> {
  const links: Record<string, unknown>[] = [
    { rel: "self", type: "application/activity+json", href: shape.id },
    { rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: shape.profileUrl },
  ];
  if (flavour === "mastodon") links.push({ rel: "http://ostatus.org/schema/1.0/subscribe", template: `http://${domain}/authorize_interaction?uri={uri}` });
  const aliases = flavour === "gotosocial" ? [shape.id, shape.profileUrl] : flavour === "mastodon" ? [shape.profileUrl, shape.id] : [];
  return { subject: `acct:${username}@${domain}`, aliases, links };
}

/** An OrderedCollection of actor ids (followers, following) or activities (outbox) with one first page. */
export function collection(flavour: Flavour, id: string, items: string[] | Record<string, unknown>[], page: boolean): Record<string, unknown> {
  const firstQuery = flavour === "gotosocial" ? "?limit=40" : flavour === "misskey" ? "?page=true" : "?page=1";
  if (!page) {
    return { "@context": AS, id, type: "OrderedCollection", totalItems: items.length, first: `${id}${firstQuery}` };
  }
  return { "@context": AS, id: `${id}${firstQuery}`, type: "OrderedCollectionPage", totalItems: items.length, partOf: id, orderedItems: items };
}

/** The featured (pinned) collection, served whole, as all three do. */
export function featured(id: string): Record<string, unknown> {
  return { "@context": AS, id, type: "OrderedCollection", totalItems: 0, orderedItems: [] };
}

let counter = 0;
/** An id for an activity this server makes (Accept, Follow…), in its own style. */
export function activityId(flavour: Flavour, base: string, actorId: string, kind: string): string {
  counter += 1;
  if (flavour === "gotosocial") return `${actorId}/${kind}/01J${String(counter).padStart(23, "0")}`;
  if (flavour === "misskey") return `${base}/${kind}s/9${counter.toString(36).padStart(9, "0")}`;
  // Mastodon: follows and blocks are records with a URI of their own; answers and likes are actor fragments.
  if (kind === "follow" || kind === "block") return `${base}/${randomUUID()}`;
  return `${actorId}#${kind}s/${counter}`;
}

/** Content types each accepts on an inbox POST (GoToSocial answers 406 to others). */
export function acceptsContentType(flavour: Flavour, contentType: string | null): boolean {
  const type = (contentType ?? "").toLowerCase();
  if (type.startsWith("application/activity+json")) return true;
  if (type.startsWith("application/ld+json")) return flavour !== "gotosocial" || type.includes('profile="https://www.w3.org/ns/activitystreams"');
  return flavour === "mastodon" && type.startsWith("application/json");
}
