// GET /api/v1/conversations and what a viewer does to one: mark it read, remove it (for the viewer only; a
// later status in the thread starts it again, as on Mastodon). The loader reads what a page shows: the other
// participants and the newest status of each that the viewer may still see; a conversation with none left is
// not shown.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getConversation, pageConversations, putConversation, removeConversation } from "../../store/conversations.ts";
import { getStatus } from "../../store/statuses.ts";
import { accountVisible, cachedAccount } from "../accounts/read.ts";
import { canSeeStatus } from "../policy/visibility.ts";
import { loadStatuses } from "../statuses/load.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { PageQuery } from "../../model/paging.ts";
import type { ConversationRecord, StatusRecord } from "../../model/statuses.ts";
import type { LoadedStatus } from "../statuses/loaded.ts";

export interface LoadedConversation {
  record: ConversationRecord;
  accounts: AccountRecord[];
  lastStatus: LoadedStatus;
}

export interface LoadedConversations {
  viewerId: string;
  conversations: LoadedConversation[];
}

/** The newest of its statuses the viewer may see. */
function lastVisible(store: Store, record: ConversationRecord): StatusRecord | null {
  for (let i = record.statusIds.length - 1; i >= 0; i--) {
    const status = getStatus(store, record.statusIds[i]!);
    if (status && canSeeStatus(store, record.accountId, status)) return status;
  }
  return null;
}

/** Conversations as their owner sees them; those with no status left to show are left out. */
export function loadConversations(deps: Deps, viewerId: string, records: readonly ConversationRecord[]): LoadedConversations {
  const conversations: LoadedConversation[] = [];
  for (const record of records) {
    const last = lastVisible(deps.store, record);
    const [lastStatus] = last ? loadStatuses(deps, viewerId, [last]).statuses : [];
    if (!lastStatus) continue;
    // As Mastodon: a conversation with nobody else (a direct status mentioning no one) lists its owner.
    const ids = record.participantIds.length > 0 ? record.participantIds : [viewerId];
    const accounts = ids
      .map((id) => cachedAccount(deps.store, id))
      .filter((account): account is AccountRecord => account !== null && accountVisible(deps.store, account));
    conversations.push({ record, accounts, lastStatus });
  }
  return { viewerId, conversations };
}

/** A page of the viewer's conversations, newest last status first; cursors are last status ids. */
export function conversationsPage(deps: Deps, viewerId: string, query: PageQuery): { page: LoadedConversations; cursors: string[] } {
  const { items, cursors } = pageConversations(deps.store, viewerId, query, (record) => lastVisible(deps.store, record) !== null);
  return { page: loadConversations(deps, viewerId, items), cursors };
}

/** One conversation of the viewer's as a page shows it (none when it is gone): what the streaming hub pushes. */
export function loadConversationById(deps: Deps, viewerId: string, conversationId: string): LoadedConversations {
  const record = getConversation(deps.store, viewerId, conversationId);
  return loadConversations(deps, viewerId, record ? [record] : []);
}

/** One of the viewer's conversations that it lists (with a status left to show). */
function ownConversation(store: Store, viewerId: string, rawId: string): ConversationRecord {
  const id = normaliseId(rawId);
  const record = id ? getConversation(store, viewerId, id) : undefined;
  if (!record || !lastVisible(store, record)) throw new NotFound();
  return record;
}

/**
 * POST /api/v1/conversations/:id/read (unread = false) and /unread (unread = true, Mastodon 4.6): the
 * conversation as it is then (one, since it has a status to show).
 */
export async function markConversationRead(deps: Deps, viewerId: string, rawId: string, unread = false): Promise<LoadedConversations> {
  const record = await deps.store.write(() => {
    const current = ownConversation(deps.store, viewerId, rawId);
    const marked = { ...current, unread };
    if (current.unread !== unread) putConversation(deps.store, marked);
    return marked;
  });
  return loadConversations(deps, viewerId, [record]);
}

/** DELETE /api/v1/conversations/:id: gone from the viewer's list only. */
export async function removeViewerConversation(deps: Deps, viewerId: string, rawId: string): Promise<void> {
  await deps.store.write(() => {
    const record = ownConversation(deps.store, viewerId, rawId);
    removeConversation(deps.store, viewerId, record.id);
  });
}
