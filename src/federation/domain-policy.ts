// Instance domain blocks (src/domain/admin/domain-blocks.ts) applied to federation, as Mastodon applies
// DomainBlock.blocked?: only a block of severity "suspend", on the domain itself or on any parent domain, cuts
// a server off ("silence" and "noop" limit what is shown, not what is exchanged). A cut-off server's
// activities are refused at the inbox before Fedify reads them (route.ts) and dropped if one was queued
// before the block (delivery.ts), its accounts are neither resolved nor fetched (remote-accounts.ts), and
// nothing is delivered to it, queued deliveries included (delivery.ts checks at send time).
import type { Store } from "../store/db.ts";
import { domainBlockFor } from "../domain/admin/domain-blocks.ts";

/** The host name of a URL's authority or of an acct's domain part ("example.com:8443" → "example.com"). */
function hostnameOf(authority: string): string | null {
  try {
    return new URL(`http://${authority}`).hostname;
  } catch {
    return null;
  }
}

/** Whether an instance domain block cuts `host` (a host name, with or without a port) off. */
export function isBlockedHost(store: Store, host: string): boolean {
  const name = hostnameOf(host);
  return name !== null && domainBlockFor(store, name)?.severity === "suspend";
}

/** Whether the server at `url` is cut off; URLs that do not parse are not a domain's. */
export function isBlockedUrl(store: Store, url: string | URL): boolean {
  try {
    return isBlockedHost(store, new URL(url).host);
  } catch {
    return false;
  }
}

/** The ids an activity's `actor` names, as sent: a string, an object with an id, or an array of either. */
export function actorIdsOf(activity: unknown): string[] {
  if (typeof activity !== "object" || activity === null) return [];
  const actor = (activity as { actor?: unknown }).actor;
  const ids: string[] = [];
  for (const entry of Array.isArray(actor) ? actor : [actor]) {
    if (typeof entry === "string") ids.push(entry);
    else if (typeof entry === "object" && entry !== null && typeof (entry as { id?: unknown }).id === "string") ids.push((entry as { id: string }).id);
  }
  return ids;
}

/** The key ids of a request's signatures: draft-cavage `Signature: keyId="…"`, RFC 9421 `Signature-Input: …;keyid="…"`. */
function signatureKeyIds(headers: Headers): string[] {
  const text = `${headers.get("signature") ?? ""}\n${headers.get("signature-input") ?? ""}`;
  return [...text.matchAll(/keyid="([^"]*)"/gi)].map((match) => match[1]!);
}

/**
 * Whether an inbox POST comes from a cut-off server: its signature's key or the activity's actor on a blocked
 * domain. Only claims are read (nothing is verified yet), which is enough to refuse: a forged claim can only
 * get its own sender refused.
 */
export function fromBlockedDomain(store: Store, headers: Headers, activity: unknown): boolean {
  if (signatureKeyIds(headers).some((keyId) => isBlockedUrl(store, keyId))) return true;
  return actorIdsOf(activity).some((id) => isBlockedUrl(store, id));
}
