// What an API read asks of federation in passing, without waiting: a remote profile viewed is queued for a
// refresh (account-completion.ts does the work), a remote status's context for its replies (thread-fetch.ts).
// Each only queues a `remote` job, so this module imports neither Fedify nor the modules that do: the API
// routes import it, and the server starts without loading Fedify (docs/benchmarks.md, start-up).
import type { Deps } from "../deps.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";
import type { FederationDeps } from "./context.ts";
import { LmdbKvStore } from "./kv.ts";
import { enqueueRemoteFetch, REMOTE_ACCOUNT_REFRESH, REMOTE_REPLIES_FETCH } from "./remote-jobs.ts";

/** The KV key marking an actor fetched within REFRESH_AFTER_MS (remote-accounts.ts writes it with that TTL). */
export const actorFetchedKey = (accountId: string) => ["warren", "actor_fetched", accountId] as const;

/** Whether the actor was fetched within REFRESH_AFTER_MS. */
export async function isFresh(deps: Pick<FederationDeps, "store">, accountId: string): Promise<boolean> {
  return (await new LmdbKvStore(deps.store).get(actorFetchedKey(accountId))) !== undefined;
}

/** Accounts whose refresh was queued lately (main thread, bounded): account id → when. */
const refreshAsked = new Map<string, number>();
const REFRESH_ASKED_EVERY_MS = 60 * 60_000;

/** A remote profile viewed: queued for a refresh, at most once an hour, if its actor is a day old. */
export function askForRefresh(deps: FederationDeps, account: AccountRecord, now = Date.now()): void {
  if (account.domain === null || account.suspended) return;
  const last = refreshAsked.get(account.id);
  if (last !== undefined && now - last < REFRESH_ASKED_EVERY_MS) return;
  void isFresh(deps, account.id)
    .then((fresh) => {
      const queued = refreshAsked.get(account.id);
      if (fresh || (queued !== undefined && now - queued < REFRESH_ASKED_EVERY_MS)) return;
      // Remembered only once queued: a fresh profile is looked at again on its next view.
      refreshAsked.delete(account.id);
      refreshAsked.set(account.id, now);
      if (refreshAsked.size > 10_000) refreshAsked.delete(refreshAsked.keys().next().value!);
      return deps.store.write(() => enqueueRemoteFetch(deps, REMOTE_ACCOUNT_REFRESH, { accountId: account.id }, account.uri));
    })
    .catch(() => {});
}

export const REPLIES_EVERY_MS = 15 * 60_000;
/** Statuses whose replies were asked for lately (main thread, bounded): status id → when. */
const repliesAsked = new Map<string, number>();
const REMEMBERED = 10_000;

/** GET …/context of a remote status: its replies collection is asked for, at most every REPLIES_EVERY_MS. */
export function askForReplies(deps: Deps, status: StatusRecord, now = Date.now()): void {
  if (status.local || status.reblogOfId || status.deletedAt) return;
  const last = repliesAsked.get(status.id);
  if (last !== undefined && now - last < REPLIES_EVERY_MS) return;
  repliesAsked.delete(status.id);
  repliesAsked.set(status.id, now);
  if (repliesAsked.size > REMEMBERED) repliesAsked.delete(repliesAsked.keys().next().value!);
  void deps.store.write(() => enqueueRemoteFetch(deps, REMOTE_REPLIES_FETCH, { statusId: status.id }, status.uri)).catch(() => {});
}
