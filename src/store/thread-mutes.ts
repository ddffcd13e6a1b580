// Muted threads (Mastodon's ConversationMute; keyspace `account_choices`, family by the key's first element):
//   ["m", accountId, threadId] → mutedAt (ms); threadId is the thread's root status id (domain/statuses/thread-mute.ts)
import { END, type Store } from "./handle.ts";

export function mutesThread(store: Store, accountId: string, threadId: string): boolean {
  return store.db.accountChoices.doesExist(["m", accountId, threadId]);
}

/** Has the account muted any thread? (Most have not: their reads skip finding threads' roots.) */
export function mutesAnyThread(store: Store, accountId: string): boolean {
  for (const _ of store.db.accountChoices.getKeys({ start: ["m", accountId], end: ["m", accountId, END], limit: 1 })) return true;
  return false;
}

/** Inside a write. */
export function putThreadMute(store: Store, accountId: string, threadId: string, at: number): void {
  if (!mutesThread(store, accountId, threadId)) store.db.accountChoices.put(["m", accountId, threadId], at);
}

/** Inside a write. */
export function removeThreadMute(store: Store, accountId: string, threadId: string): void {
  store.db.accountChoices.remove(["m", accountId, threadId]);
}

/** Inside a write: every thread the account muted, unmuted (its data removal). */
export function removeThreadMutesOf(store: Store, accountId: string): void {
  for (const key of [...store.db.accountChoices.getKeys({ start: ["m", accountId], end: ["m", accountId, END] })]) store.db.accountChoices.remove(key);
}
