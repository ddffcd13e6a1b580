// The Follows and Blocks of local accounts served at their ids (domain/relationships/activity-uris.ts):
// `/users/{u}/follows/{targetId}/{id}` and `/users/{u}/blocks/{targetId}/{id}` answer the activity while the
// follow (or request) or block stands, and 404 once it is gone, so a receiver can dereference what an Undo,
// Accept or Reject names. Who may read: a Follow as the account's following collection (anyone, signed under
// WARREN_AUTHORIZED_FETCH), but only the followed account's server when the account hides its collections; a
// Block only a signed GET from the blocked account's server (its id is time-based, so guessable: a block must
// not be found out by probing). Anyone else gets 404, as for an id that names nothing.
import type { Federation, RequestContext } from "@fedify/fedify";
import { Block, Follow } from "@fedify/vocab";
import type { Context } from "@fedify/fedify";
import { findAccountByAcct, getAccount } from "../store/accounts.ts";
import { getBlock, getFollow, getFollowRequest } from "../store/relationships.ts";
import { blockUriOf, followUriOf } from "../domain/relationships/activity-uris.ts";
import type { FederationDeps } from "./context.ts";
import { refuse, refusalOf, signerOf } from "./authorized-fetch.ts";
import type { AccountRecord } from "../model/accounts.ts";

type RelationPath = { identifier: string; target: string; id: string };
type Found = { owner: AccountRecord; target: AccountRecord; uri: string };

const FOLLOW_PATH = "/users/{identifier}/follows/{target}/{id}";
const BLOCK_PATH = "/users/{identifier}/blocks/{target}/{id}";

function parties(deps: FederationDeps, values: RelationPath): { owner: AccountRecord; target: AccountRecord } | null {
  const owner = findAccountByAcct(deps.store, values.identifier, null);
  const target = getAccount(deps.store, values.target);
  return owner && target && !owner.suspended ? { owner, target } : null;
}

/** The standing follow (or request) whose id is `uri`, or null. */
function followAt(deps: FederationDeps, values: RelationPath, uri: string): Found | null {
  const found = parties(deps, values);
  if (!found) return null;
  const follow = getFollow(deps.store, found.owner.id, found.target.id);
  if (follow && followUriOf(found.owner, follow, false) === uri) return { ...found, uri };
  const request = getFollowRequest(deps.store, found.owner.id, found.target.id);
  return request && followUriOf(found.owner, request, true) === uri ? { ...found, uri } : null;
}

/** The standing block whose id is `uri`, or null. */
function blockAt(deps: FederationDeps, values: RelationPath, uri: string): Found | null {
  const found = parties(deps, values);
  const block = found && getBlock(deps.store, found.owner.id, found.target.id);
  return found && block && blockUriOf(found.owner, block) === uri ? { ...found, uri } : null;
}

/** Whether the request is signed by an actor on `target`'s server, not suspended (the owner's block of the
 * target does not count: the blocked server is the one that may read the Block). */
async function signedByServerOf(deps: FederationDeps, ctx: RequestContext<void>, target: AccountRecord): Promise<boolean> {
  const signer = await signerOf(ctx);
  if (!signer || refusalOf(deps, null, signer)) return false;
  return target.domain !== null && new URL(signer.href).origin === new URL(target.uri).origin;
}

async function mayReadFollow(deps: FederationDeps, ctx: RequestContext<void>, values: RelationPath): Promise<boolean> {
  const found = followAt(deps, values, ctx.getObjectUri(Follow, values).href);
  if (!found) return refuse(ctx, 404);
  if (found.owner.hideCollections) return (await signedByServerOf(deps, ctx, found.target)) || refuse(ctx, 404);
  if (!deps.config.authorizedFetch) return true;
  const signer = await signerOf(ctx);
  if (!signer) return refuse(ctx, 401);
  const refusal = refusalOf(deps, found.owner, signer);
  return refusal ? refuse(ctx, refusal) : true;
}

export function setRelationshipObjects(federation: Federation<void>, deps: FederationDeps): void {
  federation
    .setObjectDispatcher(Follow, FOLLOW_PATH, (ctx, values) => {
      const found = followAt(deps, values, ctx.getObjectUri(Follow, values).href);
      return found ? new Follow({ id: new URL(found.uri), actor: new URL(found.owner.uri), object: new URL(found.target.uri) }) : null;
    })
    .authorize((ctx, values) => mayReadFollow(deps, ctx, values));
  federation
    .setObjectDispatcher(Block, BLOCK_PATH, (ctx, values) => {
      const found = blockAt(deps, values, ctx.getObjectUri(Block, values).href);
      return found ? new Block({ id: new URL(found.uri), actor: new URL(found.owner.uri), object: new URL(found.target.uri) }) : null;
    })
    .authorize(async (ctx, values) => {
      const found = blockAt(deps, values, ctx.getObjectUri(Block, values).href);
      return (found && (await signedByServerOf(deps, ctx, found.target))) || refuse(ctx, 404);
    });
}

/** The local account whose Follow `uri` names (an Accept or Reject may name our Follow by its id alone). */
export function followOwnerOf(ctx: Context<void>, deps: FederationDeps, uri: URL | null): AccountRecord | null {
  const parsed = uri ? ctx.parseUri(uri) : null;
  if (parsed?.type !== "object" || parsed.class !== Follow) return null;
  const account = findAccountByAcct(deps.store, parsed.values.identifier!, null);
  return account && !account.suspended ? account : null;
}
