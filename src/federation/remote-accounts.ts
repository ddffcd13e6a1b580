// Remote accounts: `user@domain` resolved through WebFinger, then the actor document, stored as an
// AccountRecord with `domain` set (its RSA public key in account_keys) and refreshed once a day when used.
// WebFinger is fetched here, not by Fedify's lookupWebFinger: that one always speaks https, and the
// two-instance tests run plain http on loopback; the fetch goes through the same guard (lib/safe-fetch.ts).
// Plain http is tried only when this server itself runs on http with private addresses allowed (test mode).
import { threadFederation } from "./thread-federation.ts";
import { FRESH_ACCOUNT_STATE } from "../domain/accounts/create.ts";
import { isActor, type Actor } from "@fedify/vocab";
import type { Config } from "../config.ts";
import { newId } from "../lib/ids.ts";
import { safeFetch } from "../lib/safe-fetch.ts";
import { warrenUserAgent } from "../domain/limits.ts";
import { findAccountByAcct, findAccountByUri, insertAccount, putAccount, putAccountKeys } from "../store/accounts.ts";
import { recordEvent } from "../domain/events.ts";
import type { FederationDeps } from "./context.ts";
import { FETCH_LIMITS } from "./loader.ts";
import { LmdbKvStore } from "./kv.ts";
import { actorFetchedKey, isFresh } from "./background-asks.ts";
import { isBlockedHost, isBlockedUrl } from "./domain-policy.ts";
import { deliverableEndpoints } from "./delivery.ts";
import { actorProfile, ownPublicKeyPem } from "./actor-profile.ts";
import { enqueueRemoteFetch, REMOTE_ACCOUNT_COMPLETE } from "./remote-jobs.ts";
import { keptImages, queueProfileImageFetches } from "./remote-media.ts";
import { accountEmojis } from "../domain/media/remote-emojis.ts";
import { isKeptCopy } from "../domain/media/remote-cache.ts";
import { deleteMediaFile } from "../media/storage.ts";
import type { AccountRecord } from "../model/accounts.ts";

/** How long a fetched actor is used as stored before it is fetched again. */
export const REFRESH_AFTER_MS = 24 * 60 * 60 * 1000;

/** The actor URL WebFinger gives for `acct:username@domain`, or null. */
export async function webfinger(config: Config, username: string, domain: string): Promise<URL | null> {
  const scheme = config.allowPrivateAddresses && config.url.startsWith("http:") ? "http" : "https";
  const url = new URL(`${scheme}://${domain}/.well-known/webfinger`);
  url.searchParams.set("resource", `acct:${username}@${domain}`);
  const response = await safeFetch(url, {
    ...FETCH_LIMITS,
    allowPrivateAddresses: config.allowPrivateAddresses,
    headers: { accept: "application/jrd+json, application/json", "user-agent": warrenUserAgent(config.url) },
  });
  if (response.status !== 200 || response.truncated) return null;
  let jrd: { links?: { rel?: string; type?: string; href?: string }[] };
  try {
    jrd = JSON.parse(new TextDecoder().decode(response.body));
  } catch {
    return null;
  }
  const self = jrd.links?.find((link) => link.rel === "self" && /application\/(activity\+json|ld\+json)/.test(link.type ?? "") && link.href);
  try {
    return self?.href ? new URL(self.href) : null;
  } catch {
    return null;
  }
}

/** The remote account `username@domain`: stored if fresh (and `refetch` is not asked), else resolved (null
 * when it cannot be). */
export async function resolveRemoteAccount(deps: FederationDeps, username: string, domain: string, refetch = false): Promise<AccountRecord | null> {
  if (isBlockedHost(deps.store, domain)) return null; // cut off by an instance domain block: never fetched
  const known = findAccountByAcct(deps.store, username, domain);
  if (known && !refetch && (await isFresh(deps, known.id))) return known;
  try {
    const actorUrl = await webfinger(deps.config, username, domain);
    if (!actorUrl) return known ?? null;
    const actor = await fetchActor(deps, actorUrl);
    return actor ? await storeActor(deps, actor, domain) : (known ?? null);
  } catch {
    return known ?? null;
  }
}

/** The account of the actor at `uri`: stored if fresh (and `refetch` is not asked), else fetched (null when
 * it cannot be; the stored one when the fetch fails). */
export async function remoteAccountByUri(deps: FederationDeps, uri: URL, refetch = false): Promise<AccountRecord | null> {
  if (isBlockedUrl(deps.store, uri)) return null; // cut off by an instance domain block: never fetched
  const known = findAccountByUri(deps.store, uri.href);
  if (known && (known.domain === null || (!refetch && (await isFresh(deps, known.id))))) return known;
  try {
    const actor = await fetchActor(deps, uri);
    return actor ? await storeActor(deps, actor) : (known ?? null);
  } catch {
    return known ?? null;
  }
}

/** The remote account a URL names (`resolve=true` search): its actor id, or any URL serving the actor. */
export async function resolveRemoteAccountByUrl(deps: FederationDeps, text: string): Promise<AccountRecord | null> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.origin === new URL(deps.config.url).origin) return null;
  const account = await remoteAccountByUri(deps, url);
  return account && account.domain !== null ? account : null;
}

/**
 * A remote actor deleted by its own server (an incoming Delete of itself): suspended from there for good,
 * so it shows nowhere and its later activities are refused, and its data is removed by the same subscriber
 * as staff's data deletion (domain/admin/accounts-removal.ts), whose events are then of remote origin so
 * nothing is sent back. The record stays, so its URI is never stored again from a later fetch.
 */
export async function deleteRemoteActor(deps: FederationDeps, uri: URL): Promise<void> {
  const { store } = deps;
  await store.write(() => {
    const account = findAccountByUri(store, uri.href);
    if (!account || account.domain === null || account.dataDeletedAt) return;
    const now = Date.now();
    putAccount(store, { ...account, suspended: true, suspendedAt: account.suspendedAt ?? now, suspensionOrigin: "remote", dataDeletedAt: now });
    recordEvent(deps, "account.updated", { accountId: account.id }, "remote", now);
    recordEvent(deps, "account.data_deletion", { accountId: account.id }, "remote", now);
  });
}

async function fetchActor(deps: FederationDeps, url: URL): Promise<Actor | null> {
  const ctx = (await threadFederation(deps)).federation.createContext(new URL(deps.config.url), undefined);
  const object = await ctx.lookupObject(url.href);
  return isActor(object) && object.id ? object : null;
}

/** Stores (or updates) the account of a fetched remote actor; `domain` is the WebFinger domain when known. */
export async function storeActor(deps: FederationDeps, actor: Actor, domain?: string): Promise<AccountRecord | null> {
  const { store, config } = deps;
  const uri = actor.id!;
  const username = actor.preferredUsername?.toString();
  const host = (domain ?? uri.host).toLowerCase();
  if (!username || !actor.inboxId || host === config.domain.toLowerCase()) return null;
  // Deliveries go to these: on the actor's own origin, over http(s), or the actor is not stored.
  if (!deliverableEndpoints(uri, actor.inboxId, actor.endpoints?.sharedInbox ?? null)) return null;
  const publicKeyPem = await ownPublicKeyPem(actor, uri);
  const fresh = await actorProfile(actor, uri, username, host);
  const now = Date.now();
  let replaced: (string | null)[] = [];
  const account = await store.write(() => {
    const existing = findAccountByUri(store, uri.href) ?? findAccountByAcct(store, username, host);
    let record: AccountRecord;
    if (existing) {
      // Local, or deleted by its server (deleteRemoteActor): never filled in again.
      if (existing.domain === null || existing.dataDeletedAt) return existing;
      // Username and domain never change on a record (its acct index stays right).
      record = { ...existing, ...fresh, ...keptImages(store, fresh, existing), username: existing.username, domain: existing.domain };
      replaced = [existing.avatarUrl, existing.headerUrl].filter((path) => isKeptCopy(path) && path !== record.avatarUrl && path !== record.headerUrl);
      // Its emojis name the copies kept here, and will once they are (domain/media/remote-emojis.ts).
      record.emojis = accountEmojis(store, record.id, fresh.emojis);
      putAccount(store, record);
      if (publicKeyPem) putAccountKeys(store, record.id, { v: 1, publicKeyPem, privateKeyPem: null });
      recordEvent(deps, "account.updated", { accountId: record.id }, "remote", now);
    } else {
      record = {
        v: 1,
        id: newId(now),
        ...fresh,
        ...keptImages(store, fresh),
        noteSource: "",
        hideCollections: false,
        avatarDescription: "",
        headerDescription: "",
        createdAt: actor.published ? Number(actor.published.epochMilliseconds) : now,
        ...FRESH_ACCOUNT_STATE,
        memorial: actor.memorial ?? false,
      };
      record.emojis = accountEmojis(store, record.id, fresh.emojis);
      insertAccount(store, record, undefined, publicKeyPem ? { v: 1, publicKeyPem, privateKeyPem: null } : undefined);
      recordEvent(deps, "account.created", { accountId: record.id }, "remote", now);
    }
    queueProfileImageFetches(deps, record);
    // Counts, pins, featured tags, a move and (first time) the newest posts: fetched in the background.
    enqueueRemoteFetch(deps, REMOTE_ACCOUNT_COMPLETE, { accountId: record.id, first: !existing }, record.uri);
    return record;
  });
  // Copies of an avatar or header replaced by a new one go once no record names them.
  await Promise.all(replaced.map((path) => deleteMediaFile(config, path)));
  if (account.domain !== null) await new LmdbKvStore(store).set(actorFetchedKey(account.id), now, { ttl: Temporal.Duration.from({ milliseconds: REFRESH_AFTER_MS }) });
  return account;
}
