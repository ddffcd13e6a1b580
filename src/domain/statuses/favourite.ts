// Favourite (idempotent) and unfavourite. Unfavouriting is asynchronous (spec rule 2): the request only
// stops the account counting as having favourited the status, and lowers the counter with it, so every
// read shows `favourited: false` and the lowered count at once; the `favourites.removal` subscriber of
// `favourite.removed` then removes the list rows and withdraws the notification. A favourite made again
// before the job runs is a new favourite with its own id, which the job leaves alone.
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { adjustStatusCounter, getStatus } from "../../store/statuses.ts";
import {
  favouriteIdOf,
  forgetFavourite,
  insertFavourite,
  removeFavouriteRows,
  type JoinRow,
} from "../../store/statuses-interactions.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { notify } from "../notifications/notify.ts";
import { recordEvent, type Origin } from "../events.ts";
import { assertCanFavourite } from "../policy/interaction.ts";
import { interactionTarget } from "./reblog.ts";
import { removeInteractionNotification } from "./remove.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export async function favouriteStatus(deps: Deps, viewer: UserViewer, rawId: string): Promise<StatusRecord> {
  return favourite(deps, viewer.account, interactionTarget(deps, viewer.account.id, rawId));
}

/** The core, for any actor: idempotent; returns the status with its new count. */
export async function favourite(deps: Deps, actor: AccountRecord, status: StatusRecord, origin: Origin = "local"): Promise<StatusRecord> {
  const { store } = deps;
  assertCanFavourite(store, actor.id, status);
  if (favouriteIdOf(store, actor.id, status.id)) return status;
  return store.write(() => {
    if (!favouriteIdOf(store, actor.id, status.id)) {
      const now = Date.now();
      const favouriteId = newId(now);
      insertFavourite(store, { id: favouriteId, accountId: actor.id, statusId: status.id });
      adjustStatusCounter(store, status.id, "favouritesCount", 1);
      notify(deps, { type: "favourite", recipientId: status.accountId, fromAccountId: actor.id, statusId: status.id }, now);
      recordEvent(deps, "favourite.created", { favouriteId, accountId: actor.id, statusId: status.id }, origin, now);
    }
    return getStatus(store, status.id)!;
  });
}

/** Returns the status as the client should now see it: not favourited, counter lowered. */
export async function unfavouriteStatus(deps: Deps, viewer: UserViewer, rawId: string): Promise<StatusRecord> {
  return unfavourite(deps, viewer.account, interactionTarget(deps, viewer.account.id, rawId));
}

/** The core: the favourite is forgotten and counted down at once; `favourite.removed`'s subscriber does the rest. */
export async function unfavourite(deps: Deps, actor: AccountRecord, status: StatusRecord, origin: Origin = "local"): Promise<StatusRecord> {
  const { store } = deps;
  return store.write(() => {
    const id = favouriteIdOf(store, actor.id, status.id);
    if (id) {
      const row: JoinRow = { id, accountId: actor.id, statusId: status.id };
      if (forgetFavourite(store, row)) adjustStatusCounter(store, status.id, "favouritesCount", -1);
      recordEvent(deps, "favourite.removed", { favouriteId: id, accountId: actor.id, statusId: status.id }, origin);
    }
    return getStatus(store, status.id) ?? status;
  });
}

/** A favourite removed by someone else's action (block clean-up): forgotten, counted down and its rows
 * removed, as an unfavourite and its job would. Idempotent. */
export async function removeFavourite(store: Store, row: JoinRow): Promise<void> {
  await store.write(() => {
    if (forgetFavourite(store, row)) adjustStatusCounter(store, row.statusId, "favouritesCount", -1);
  });
  await completeFavouriteRemoval(store, row);
}

/** The job: idempotent, since it only removes (the request already forgot the favourite and moved the counter). */
export async function completeFavouriteRemoval(store: Store, row: JoinRow): Promise<void> {
  await store.write(() => {
    if (!removeFavouriteRows(store, row)) return;
    const status = getStatus(store, row.statusId);
    if (status && !favouriteIdOf(store, row.accountId, row.statusId)) removeInteractionNotification(store, "favourite", row.accountId, status);
  });
}
