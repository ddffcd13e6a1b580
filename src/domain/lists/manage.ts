// Lists: create, rename / re-configure, delete, and read one's own. Only the owner ever sees a list; any
// other id is 404. A deleted list's memberships go with it and its feed rows are removed by a job.
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { countLists, getList, listsOf, putList, removeList } from "../../store/lists.ts";
import { LIST_LIMITS } from "../limits.ts";
import { recordEvent } from "../events.ts";
import type { ListRecord, RepliesPolicy } from "../../model/relationships.ts";

export const REPLIES_POLICIES: readonly RepliesPolicy[] = ["followed", "list", "none"];

export interface ListInput {
  title?: string;
  repliesPolicy?: string;
  exclusive?: boolean;
}

/** The viewer's list with this id, or 404. */
/** The viewer's lists, for GET /api/v1/lists. */
export function ownLists(store: Store, ownerId: string): ListRecord[] {
  return listsOf(store, ownerId);
}

export function findOwnList(store: Store, ownerId: string, rawId: string): ListRecord {
  const id = normaliseId(rawId);
  const list = id ? getList(store, ownerId, id) : undefined;
  if (!list) throw new NotFound();
  return list;
}

function validTitle(raw: string | undefined): string {
  const title = (raw ?? "").trim();
  if (title === "") throw new Unprocessable("Validation failed: Title can't be blank");
  if ([...title].length > LIST_LIMITS.maxTitleLength) {
    throw new Unprocessable(`Validation failed: Title is too long (maximum is ${LIST_LIMITS.maxTitleLength} characters)`);
  }
  return title;
}

function validPolicy(raw: string | undefined, fallback: RepliesPolicy): RepliesPolicy {
  if (raw === undefined || raw === "") return fallback;
  if (!(REPLIES_POLICIES as readonly string[]).includes(raw)) throw new Unprocessable(`'${raw}' is not a valid replies_policy`);
  return raw as RepliesPolicy;
}

export async function createList(deps: Deps, ownerId: string, input: ListInput): Promise<ListRecord> {
  const { store } = deps;
  const title = validTitle(input.title);
  const repliesPolicy = validPolicy(input.repliesPolicy, "list");
  const now = Date.now();
  const list: ListRecord = { v: 1, id: newId(now), accountId: ownerId, title, repliesPolicy, exclusive: input.exclusive ?? false, createdAt: now };
  await store.write(() => {
    if (countLists(store, ownerId) >= LIST_LIMITS.maxListsPerAccount) {
      throw new Unprocessable("Validation failed: You have reached the maximum number of lists");
    }
    putList(store, list);
  });
  return list;
}

/** PUT: each field given replaces the stored one (a given title must not be blank). */
export async function updateList(deps: Deps, ownerId: string, rawId: string, input: ListInput): Promise<ListRecord> {
  const { store } = deps;
  const list = findOwnList(store, ownerId, rawId);
  const updated: ListRecord = {
    ...list,
    title: input.title === undefined ? list.title : validTitle(input.title),
    repliesPolicy: validPolicy(input.repliesPolicy, list.repliesPolicy),
    exclusive: input.exclusive ?? list.exclusive,
  };
  await store.write(() => {
    if (getList(store, ownerId, list.id)) putList(store, updated);
  });
  return updated;
}

export async function deleteList(deps: Deps, ownerId: string, rawId: string): Promise<void> {
  const { store } = deps;
  const list = findOwnList(store, ownerId, rawId);
  await store.write(() => {
    const current = getList(store, ownerId, list.id);
    if (!current) return;
    removeList(store, current);
    recordEvent(deps, "list.deleted", { listId: list.id });
  });
}
