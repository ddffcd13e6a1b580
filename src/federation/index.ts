// Fedify wired onto Warren (docs/federation.md): one Federation per store and thread (the server's main
// thread and each job worker), with its KvStore on our LMDB store and its MessageQueue on our job queue.
// Routes: actors at /users/{identifier} (our account URIs: `${url}/users/${username}`; the instance actor's
// identifier is `instance.actor`, which no username can be), their inboxes, the shared inbox /inbox,
// outboxes and featured collections (outbox.ts), followers/following collections (collections.ts) and
// statuses with their activities and our quote authorizations (status-objects.ts), our Follows and Blocks
// (relationship-objects.ts). GETs of them obey
// WARREN_AUTHORIZED_FETCH (authorized-fetch.ts). WebFinger and NodeInfo stay ours
// (src/http/wellknown): requests for them never reach Fedify.
import { createFederation, type Federation } from "@fedify/fedify";
import { Accept, Announce, Block, Create, Delete, EmojiReact, Flag, Follow, Like, Move, QuoteRequest, Reject, Tombstone, Undo, Update } from "@fedify/vocab";
import type { Store } from "../store/db.ts";
import type { Deps } from "../deps.ts";
import { findAccountByAcct } from "../store/accounts.ts";
import { accountVisible } from "../domain/accounts/read.ts";
import { LmdbKvStore } from "./kv.ts";
import { federationRemote } from "./remote.ts";
import { JobMessageQueue } from "./queue.ts";
import { accountKeyPairs, instanceKeyPairs } from "./keys.ts";
import { instanceActor, localActor } from "./actor.ts";
import { documentLoaders } from "./loader.ts";
import { deliveryOptions, messageGate } from "./delivery.ts";
import { INSTANCE_ACTOR_IDENTIFIER, type FederationDeps, type ThreadDeps, type WarrenFederation } from "./context.ts";
import { onAccept, onFollow, onReject } from "./follows.ts";
import { onUndo } from "./undo.ts";
import { onBlock } from "./blocks.ts";
import { onDelete, onUpdate } from "./profiles.ts";
import { onCreate } from "./inbound-notes.ts";
import { onFlag } from "./inbound-flag.ts";
import { onAnnounce, onLike, onStatusDelete, onStatusUpdate } from "./inbound-interactions.ts";
import { setFollowCollections } from "./collections.ts";
import { setStatusCollections } from "./outbox.ts";
import { setQuoteAuthorizations, setStatusObjects } from "./status-objects.ts";
import { setEmojiObjects } from "./emojis.ts";
import { fetchPolicy, reducedActor } from "./authorized-fetch.ts";
import { onMove } from "./moves.ts";
import { setRelationshipObjects } from "./relationship-objects.ts";
import { onAuthorizationDelete, onQuoteAccept, onQuoteReject, onQuoteRequest } from "./quote-inbox.ts";
import type { AccountRecord } from "../model/accounts.ts";


const built = new WeakMap<Store, WarrenFederation>();
const preverified = new WeakMap<Store, WarrenFederation>();


/** The local account an identifier names, if the public may see it. */
function localAccount(store: Store, identifier: string): AccountRecord | null {
  const account = findAccountByAcct(store, identifier, null);
  return account && accountVisible(store, account) ? account : null;
}

/** This thread's federation for `deps.store`, built on first use; it listens on its queue at once. */
export function federationFor(deps: ThreadDeps): WarrenFederation {
  let existing = built.get(deps.store);
  if (!existing) {
    existing = buildFederation(deps);
    built.set(deps.store, existing);
  }
  return existing;
}

/** A second federation of the same store that takes inbox POSTs as verified: only for those whose signature
 * was verified by Mastodon's rules (inbox-fallback.ts). It never listens on the queue: the first one does. */
export function preverifiedFederationFor(deps: ThreadDeps): WarrenFederation {
  let existing = preverified.get(deps.store);
  if (!existing) {
    existing = buildFederation(deps, true);
    preverified.set(deps.store, existing);
  }
  return existing;
}

function buildFederation({ store, config, jobs }: ThreadDeps, signatureVerified = false): WarrenFederation {
  // What the inbox listeners hand the domain cores: this thread's Deps.
  const deps: Deps = { store, config, jobs, remote: federationRemote };
  const queue = new JobMessageQueue(store, jobs, messageGate({ store, config }));
  const federation = createFederation<void>({
    kv: new LmdbKvStore(store),
    queue,
    manuallyStartQueue: true,
    origin: config.url,
    // Retries, permanent failures and the circuit breaker for failing servers (delivery.ts).
    ...deliveryOptions(config),
    // Every fetch through lib/safe-fetch.ts (loader.ts): private addresses only when
    // WARREN_ALLOW_PRIVATE_ADDRESSES is on, size and time limits. Fedify refuses its own allowPrivateAddress
    // and userAgent options beside these factories; the loaders set the User-Agent themselves. GETs no user
    // is behind are signed by the instance actor.
    ...documentLoaders(config, async () => ({
      keyId: new URL(`/users/${INSTANCE_ACTOR_IDENTIFIER}#main-key`, config.url),
      privateKey: (await instanceKeyPairs(store))[0]!.privateKey,
    })),
    // Signed requests older or newer than an hour are refused (401): a captured request replays for an hour at
    // most, and inbox idempotency (a day per activity id) outlasts that window.
    signatureTimeWindow: { hours: 1 },
    skipSignatureVerification: signatureVerified,
  });
  const instance = INSTANCE_ACTOR_IDENTIFIER;
  // WARREN_AUTHORIZED_FETCH (authorized-fetch.ts): who may GET actors and collections.
  const policy = fetchPolicy(deps, instance);

  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      if (identifier === instance) return instanceActor(ctx, identifier, await ctx.getActorKeyPairs(identifier));
      const account = localAccount(store, identifier);
      if (!account) return null;
      // Its data was deleted for good: gone (410), as Mastodon answers for a permanently unavailable account.
      if (account.dataDeletedAt) {
        return new Tombstone({ id: ctx.getActorUri(identifier), deleted: Temporal.Instant.fromEpochMilliseconds(account.dataDeletedAt) });
      }
      const keys = await ctx.getActorKeyPairs(identifier);
      if (await policy.servesReducedActor(ctx, identifier)) return reducedActor(ctx, account, keys);
      return localActor(ctx, store, config, account, keys);
    })
    .authorize(policy.actor)
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      if (identifier === instance) return instanceKeyPairs(store);
      const account = localAccount(store, identifier);
      return account ? accountKeyPairs(store, account.id) : [];
    });

  setInboxListeners(federation, deps);

  setStatusCollections(federation, deps, policy.collection);
  setFollowCollections(federation, deps, policy.collection);
  setStatusObjects(federation, deps);
  setQuoteAuthorizations(federation, deps);
  setRelationshipObjects(federation, deps);
  setEmojiObjects(federation, store, config);

  if (!signatureVerified) void federation.startQueue(undefined);
  return { federation, queue };
}

/** The inbox listeners, personal and shared inboxes alike. */
function setInboxListeners(federation: Federation<void>, deps: FederationDeps): void {
  // Fedify verifies each activity's signature before a listener runs; unsigned or forged ones are 401.
  federation
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    .on(Follow, (ctx, activity) => onFollow(deps, ctx, activity))
    // Of a Follow (follows.ts) or of our QuoteRequest (quote-inbox.ts): each ignores the other kind.
    .on(Accept, async (ctx, activity) => {
      await onAccept(deps, ctx, activity);
      await onQuoteAccept(deps, ctx, activity);
    })
    .on(Reject, async (ctx, activity) => {
      await onReject(deps, ctx, activity);
      await onQuoteReject(deps, activity);
    })
    .on(QuoteRequest, (ctx, activity) => onQuoteRequest(deps, ctx, activity))
    .on(Undo, (ctx, activity) => onUndo(deps, ctx, activity))
    .on(Block, (ctx, activity) => onBlock(deps, ctx, activity))
    // Of an actor itself (profiles.ts) or of a status (inbound-interactions.ts): each ignores the other kind.
    .on(Update, async (ctx, activity) => {
      await onUpdate(deps, ctx, activity);
      await onStatusUpdate(deps, ctx, activity);
    })
    .on(Delete, async (ctx, activity) => {
      await onDelete(deps, ctx, activity);
      await onStatusDelete(deps, activity);
      await onAuthorizationDelete(deps, activity);
    })
    .on(Create, (ctx, activity) => onCreate(deps, ctx, activity))
    .on(Announce, (ctx, activity) => onAnnounce(deps, ctx, activity))
    .on(Like, (ctx, activity) => onLike(deps, ctx, activity))
    .on(Move, (ctx, activity) => onMove(deps, ctx, activity))
    // An emoji reaction counts as a favourite (inbound-interactions.ts).
    .on(EmojiReact, (ctx, activity) => onLike(deps, ctx, activity))

    .on(Flag, (ctx, activity) => onFlag(deps, ctx, activity));
}
