// What Mastodon signs inside an activity, and for how long a server's HTTP signature scheme is remembered.
//
// Linked-Data signatures and object proofs. Fedify adds both to every activity it sends (an RSA
// `signature`, an Ed25519 `proof`), whoever it is addressed to. Mastodon LD-signs only activities of public
// and unlisted statuses (Payloadable#serialize_payload: `sign?`), so that a relay or a forwarding server can
// pass them on; a followers-only or direct activity carrying one is a copy anyone who got it could forward
// and have verified as ours. Each outgoing message is therefore stripped of both before delivery unless it is
// addressed to the public (delivery.ts's messageGate), its HTTP signature being what the receiver checks. In
// secure mode (WARREN_AUTHORIZED_FETCH) none is LD-signed, as Mastodon's `signing_enabled?` is false there: a
// signed copy could be passed on to servers the author's instance refuses to serve.
//
// Signature schemes. Fedify's KvSpecDeterminer remembers, per origin, the scheme (RFC 9421 or draft-cavage)
// a server last answered 2xx to, forever: a server that later accepts RFC 9421 (or stops) would never be asked
// again. Fedify constructs that determiner itself, so the expiry lives in our KvStore (kv.ts): entries under
// SIGNATURE_SPEC_PREFIX are written with SIGNATURE_SPEC_TTL_MS, after which the first knock is tried again.
const PUBLIC_IDS = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);

/** Where Fedify keeps each origin's signature scheme (createFederation's kvPrefixes.httpMessageSignaturesSpec). */
export const SIGNATURE_SPEC_PREFIX = ["warren", "signature_spec"] as const;
/** How long a server's scheme is trusted before it is found again (one extra knock a day at most). */
export const SIGNATURE_SPEC_TTL_MS = 24 * 3600_000;

type Json = Record<string, unknown>;

const asList = (value: unknown): unknown[] => (value == null ? [] : Array.isArray(value) ? value : [value]);
const idOf = (value: unknown): string | undefined => {
  if (typeof value === "string") return value;
  const id = (value as Json | null)?.id;
  return typeof id === "string" ? id : undefined;
};

/** Whether the compacted activity (or its embedded object) is addressed to the public. */
export function addressedToPublic(activity: Json): boolean {
  const object = typeof activity.object === "object" && activity.object !== null ? (activity.object as Json) : {};
  return [activity.to, activity.cc, object.to, object.cc].flatMap(asList).some((a) => PUBLIC_IDS.has(idOf(a) ?? ""));
}

/** The activity as Mastodon would send it: without LD signature and proof unless it is public (and never
 * under authorized fetch). */
export function signedAsMastodonSigns(activity: unknown, authorizedFetch: boolean): unknown {
  if (typeof activity !== "object" || activity === null || Array.isArray(activity)) return activity;
  const json = activity as Json;
  if ((!authorizedFetch && addressedToPublic(json)) || (!("signature" in json) && !("proof" in json))) return activity;
  const { signature: _signature, proof: _proof, ...rest } = json;
  return rest;
}
