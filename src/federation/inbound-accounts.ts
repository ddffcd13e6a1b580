// The accounts an incoming activity names: the remote account that sent it, and the local account of ours an
// actor URI in it designates.
import type { Context } from "@fedify/fedify";
import { findAccountByAcct } from "../store/accounts.ts";
import type { FederationDeps } from "./context.ts";
import { remoteAccountByUri } from "./remote-accounts.ts";
import type { AccountRecord } from "../model/accounts.ts";

/** The local account an actor URI of ours names, if any. */
export function localAccountOf(ctx: Context<void>, deps: FederationDeps, uri: URL | null): AccountRecord | null {
  if (!uri) return null;
  const bare = new URL(uri.href);
  bare.hash = "";
  const parsed = ctx.parseUri(bare);
  if (parsed?.type !== "actor") return null;
  const account = findAccountByAcct(deps.store, parsed.identifier, null);
  return account && !account.suspended ? account : null;
}

/** The remote sender of an activity, stored or fetched; null unless it is a remote account. */
export async function remoteSender(deps: FederationDeps, actorId: URL | null): Promise<AccountRecord | null> {
  if (!actorId) return null;
  const account = await remoteAccountByUri(deps, actorId);
  return account && account.domain !== null && !account.suspended ? account : null;
}
