// Inbox POSTs whose draft-cavage signature Mastodon accepts but Fedify refuses: an `hs2019` signature over
// `(created)` with no `date` covered (Fedify 2.3 requires a signed Date; docs/federation.md). Fedify has no
// hook to take a signature verified elsewhere, so such a POST is verified here by Mastodon's rules
// (mastodon-signatures.ts: digest of the body, `(created)` within the hour, the key and its owner fetched
// through our loader) and, when its key owner is the activity's actor, handed to a second Federation of the
// same store built with Fedify's skipSignatureVerification (index.ts), whose listeners and queue are the same.
// Everything else, and any POST this verification does not pass, goes to Fedify's own check as before (401).
import type { Federation } from "@fedify/fedify";
import { coveredHeaders, mastodonSignatureOwner } from "./mastodon-signatures.ts";

/** Whether Fedify is sure to refuse the POST's signature though Mastodon's rules may accept it. */
export function needsOwnVerification(request: Request): boolean {
  const covered = coveredHeaders(request);
  return covered !== null && !covered.includes("date");
}

const actorIdOf = (activity: unknown): string | undefined => {
  const actor = (activity as { actor?: unknown } | null)?.actor;
  if (typeof actor === "string") return actor;
  const id = (actor as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : undefined;
};

/** Whether the POST is signed, by Mastodon's rules, by the activity's own actor (keys fetched through
 * `federation`'s loaders). */
export async function signedByItsActor(federation: Federation<void>, request: Request): Promise<boolean> {
  const body = new Uint8Array(await request.clone().arrayBuffer());
  let activity: unknown;
  try {
    activity = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return false;
  }
  const actor = actorIdOf(activity);
  if (!actor) return false;
  const ctx = federation.createContext(request, undefined);
  const owner = await mastodonSignatureOwner(request, body, { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader });
  return owner?.href === actor;
}
