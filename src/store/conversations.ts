// Conversations (keyspace `conversations`): each local participant's view of a thread of direct statuses,
// Mastodon's AccountConversation. Four families, told apart by the key's first element:
//   ["c", accountId, conversationId]                → ConversationRecord
//   ["l", accountId, lastStatusId, conversationId]  → null  (the list, paged by last status as on Mastodon)
//   ["k", accountId, threadId]                      → conversationId
//   ["t", statusId]                                 → ThreadEntry (a direct status's thread and where it went)
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { PageQuery } from "../model/paging.ts";
import type { ConversationRecord } from "../model/statuses.ts";

/** Where a direct status went: its thread and the [accountId, conversationId] pairs it was added to. */
export interface ThreadEntry {
  threadId: string;
  members: [string, string][];
}

export function getConversation(store: Store, accountId: string, id: string): ConversationRecord | undefined {
  return store.db.conversations.get(["c", accountId, id]);
}

export function conversationOfThread(store: Store, accountId: string, threadId: string): ConversationRecord | undefined {
  const id = store.db.conversations.get(["k", accountId, threadId]) as string | undefined;
  return id ? getConversation(store, accountId, id) : undefined;
}

export function getThreadEntry(store: Store, statusId: string): ThreadEntry | undefined {
  return store.db.conversations.get(["t", statusId]);
}

/** Inside a write. */
export function putThreadEntry(store: Store, statusId: string, entry: ThreadEntry): void {
  store.db.conversations.put(["t", statusId], entry);
}

/** Inside a write. */
export function removeThreadEntry(store: Store, statusId: string): void {
  store.db.conversations.remove(["t", statusId]);
}

/** Inside a write: stores the record and moves its list row to its last status. */
export function putConversation(store: Store, record: ConversationRecord): void {
  const before = getConversation(store, record.accountId, record.id);
  if (before && before.lastStatusId !== record.lastStatusId) store.db.conversations.remove(["l", record.accountId, before.lastStatusId, record.id]);
  store.db.conversations.put(["c", record.accountId, record.id], record);
  store.db.conversations.put(["l", record.accountId, record.lastStatusId, record.id], null);
  store.db.conversations.put(["k", record.accountId, record.threadId], record.id);
}

/** Inside a write; false when there was none. */
export function removeConversation(store: Store, accountId: string, id: string): boolean {
  const record = getConversation(store, accountId, id);
  if (!record) return false;
  store.db.conversations.remove(["c", accountId, id]);
  store.db.conversations.remove(["l", accountId, record.lastStatusId, id]);
  if (store.db.conversations.get(["k", accountId, record.threadId]) === id) store.db.conversations.remove(["k", accountId, record.threadId]);
  return true;
}

/** A page of the account's conversations, newest last status first, with their cursors (last status ids). */
export function pageConversations(
  store: Store,
  accountId: string,
  query: PageQuery,
  accept: (record: ConversationRecord) => boolean,
): { items: ConversationRecord[]; cursors: string[] } {
  const items: ConversationRecord[] = [];
  const cursors: string[] = [];
  const rows = scanPage<null>(store.db.conversations, ["l", accountId], query, (row) => {
    const record = getConversation(store, accountId, row.key[3]);
    return record !== undefined && accept(record);
  });
  for (const row of rows) {
    items.push(getConversation(store, accountId, row.key[3])!);
    cursors.push(row.key[2]);
  }
  return { items, cursors };
}

/** Inside a write: every conversation of the account (its data removal). */
export function removeConversationsOf(store: Store, accountId: string): void {
  const ids: string[] = [];
  for (const key of store.db.conversations.getKeys({ start: ["c", accountId], end: ["c", accountId, END] })) ids.push((key as string[])[2]!);
  for (const id of ids) removeConversation(store, accountId, id);
}
