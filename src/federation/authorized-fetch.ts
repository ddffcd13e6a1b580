// Mastodon's secure mode (WARREN_AUTHORIZED_FETCH=true), on Fedify's `.authorize()` predicates. Collections
// (and, later, objects) need a valid HTTP signature: unsigned or unverifiable GETs are 401. An actor stays
// fetchable unsigned, reduced as Mastodon reduces it (id, type, preferredUsername, inbox, outbox, keys,
// endpoints): enough to verify its signatures and deliver to it, nothing of the profile. The instance actor is
// always served whole, signed or not: peers fetch it to verify our signed GETs. A signer from a suspended
// domain (instance domain block, or a remote account suspended here) gets 403; one the owner blocks gets 404,
// as if nothing were there. Without the setting every GET is answered as before, signed or not.
import type { ActorKeyPair, AuthorizePredicate, Context, RequestContext } from "@fedify/fedify";
import { Endpoints, Person, Service } from "@fedify/vocab";
import { domainBlockFor } from "../domain/admin/domain-blocks.ts";
import { findAccountByAcct, findAccountByUri } from "../store/accounts.ts";
import { isBlocking } from "../store/relationships.ts";
import type { FederationDeps } from "./context.ts";
import { signerOf } from "./mastodon-signatures.ts";
import type { AccountRecord } from "../model/accounts.ts";

type Refusal = 401 | 403 | 404;

/** Why a request was refused, for `refusalResponse` (Fedify's onUnauthorized gets only the request). */
const refusals = new WeakMap<Request, Refusal>();

/** The key owner of a valid signature on the request, or null (unsigned, forged, stale, owner unreachable):
 * Fedify's verification, then Mastodon's rules where they are laxer (mastodon-signatures.ts). */
export { signerOf };

/** 403 for a signer from a suspended domain or suspended here, 404 for one `owner` blocks, else null. */
export function refusalOf(deps: FederationDeps, owner: AccountRecord | null, signer: URL): 403 | 404 | null {
  if (domainBlockFor(deps.store, signer.hostname)?.severity === "suspend") return 403;
  const account = findAccountByUri(deps.store, signer.href);
  if (account?.suspended) return 403;
  if (owner && account && isBlocking(deps.store, owner.id, account.id)) return 404;
  return null;
}

export function refuse(ctx: RequestContext<void>, refusal: Refusal): false {
  refusals.set(ctx.request, refusal);
  return false;
}

/** Whether `ctx` is a GET (or HEAD) of `uri` itself, not a POST to its inbox that looks the actor up. */
export function isGetOf(ctx: Context<void>, uri: URL): boolean {
  const request = (ctx as Partial<RequestContext<void>>).request;
  return !!request && (request.method === "GET" || request.method === "HEAD") && new URL(request.url).pathname === uri.pathname;
}

export interface FetchPolicy {
  /** For the actor dispatcher: refuses blocked signers (unsigned GETs are served the reduced actor). */
  actor: AuthorizePredicate<void>;
  /** For collections: a valid signature from a signer who is not refused. */
  collection: AuthorizePredicate<void>;
  /** Whether the actor `identifier` should be served reduced to this request (an unsigned GET of it). */
  servesReducedActor(ctx: RequestContext<void>, identifier: string): Promise<boolean>;
}

export function fetchPolicy(deps: FederationDeps, instanceIdentifier: string): FetchPolicy {
  const secure = deps.config.authorizedFetch;
  const owner = (identifier: string) => findAccountByAcct(deps.store, identifier, null) ?? null;
  return {
    async actor(ctx, identifier) {
      if (!secure || identifier === instanceIdentifier) return true;
      const signer = await signerOf(ctx);
      const refusal = signer && refusalOf(deps, owner(identifier), signer);
      return refusal ? refuse(ctx, refusal) : true;
    },
    async collection(ctx, identifier) {
      if (!secure) return true;
      const signer = await signerOf(ctx);
      if (!signer) return refuse(ctx, 401);
      const refusal = refusalOf(deps, owner(identifier), signer);
      return refusal ? refuse(ctx, refusal) : true;
    },
    async servesReducedActor(ctx, identifier) {
      if (!secure || identifier === instanceIdentifier || !isGetOf(ctx, ctx.getActorUri(identifier))) return false;
      return (await signerOf(ctx)) === null;
    },
  };
}

/** The actor as Mastodon serves it to an unsigned GET in secure mode: who it is, where to deliver, its keys. */
export function reducedActor(ctx: RequestContext<void>, account: AccountRecord, keys: ActorKeyPair[]): Person | Service {
  const identifier = account.username;
  const values = {
    id: ctx.getActorUri(identifier),
    preferredUsername: account.username,
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
  };
  return account.bot ? new Service(values) : new Person(values);
}

const REFUSAL_MESSAGES: Record<Refusal, string> = {
  401: "Request not signed",
  403: "This action is not allowed",
  404: "Record not found",
};

/** Fedify's onUnauthorized: the refusal a predicate recorded for this request, Mastodon-style. */
export function refusalResponse(request: Request): Response {
  const status = refusals.get(request) ?? 401;
  let error = REFUSAL_MESSAGES[status];
  if (status === 401 && (request.headers.has("signature") || request.headers.has("signature-input"))) {
    error = "Request signature could not be verified";
  }
  return Response.json({ error }, { status, headers: { vary: "Accept, Signature" } });
}
