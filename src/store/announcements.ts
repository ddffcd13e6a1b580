// Announcements (keyspace `announcements`; docs/instance.md#announcements): what the operator publishes to
// every user, who dismissed which, and reactions. Families told apart by the key's first element:
//   ["a", announcementId]                   → AnnouncementRecord
//   ["d", accountId, announcementId]        → dismissedAt (ms)
//   ["r", announcementId, name, accountId]  → reactedAt (ms); the name percent-encoded (ASCII, so that it
//                                             sorts below END whatever the emoji)
import { END, type Store } from "./handle.ts";
import type { AnnouncementRecord, ReactionCount } from "../model/instance.ts";

const db = (store: Store) => store.db.announcements;
const nameKey = (name: string) => encodeURIComponent(name);

export function getAnnouncement(store: Store, id: string): AnnouncementRecord | undefined {
  return db(store).get(["a", id]);
}

/** Every announcement, oldest first. */
export function allAnnouncements(store: Store): AnnouncementRecord[] {
  const out: AnnouncementRecord[] = [];
  for (const { value } of db(store).getRange({ start: ["a"], end: ["a", END] })) out.push(value as AnnouncementRecord);
  return out;
}

/** Inside a write. */
export function putAnnouncement(store: Store, announcement: AnnouncementRecord): void {
  db(store).put(["a", announcement.id], announcement);
}

/** Inside a write: the announcement with its reactions (dismissals are left, keyed by a gone id). */
export function removeAnnouncement(store: Store, id: string): void {
  db(store).remove(["a", id]);
  for (const key of db(store).getKeys({ start: ["r", id], end: ["r", id, END] })) db(store).remove(key);
}

export function isDismissed(store: Store, accountId: string, id: string): boolean {
  return db(store).doesExist(["d", accountId, id]);
}

/** Inside a write. */
export function putDismissal(store: Store, accountId: string, id: string, at: number): void {
  if (!isDismissed(store, accountId, id)) db(store).put(["d", accountId, id], at);
}

/** The reactions to an announcement, by name. */
export function reactionsOf(store: Store, id: string, viewerId: string | null): ReactionCount[] {
  const byName = new Map<string, ReactionCount>();
  for (const key of db(store).getKeys({ start: ["r", id], end: ["r", id, END] })) {
    const [, , encoded, accountId] = key as string[];
    const name = decodeURIComponent(encoded!);
    const entry = byName.get(name) ?? { name, count: 0, me: false };
    entry.count++;
    if (accountId === viewerId) entry.me = true;
    byName.set(name, entry);
  }
  return [...byName.values()];
}

export function hasReaction(store: Store, id: string, name: string, accountId: string): boolean {
  return db(store).doesExist(["r", id, nameKey(name), accountId]);
}

/** Inside a write. */
export function putReaction(store: Store, id: string, name: string, accountId: string, at: number): void {
  db(store).put(["r", id, nameKey(name), accountId], at);
}

/** Inside a write. */
export function removeReaction(store: Store, id: string, name: string, accountId: string): void {
  db(store).remove(["r", id, nameKey(name), accountId]);
}
