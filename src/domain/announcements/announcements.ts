// Announcements (docs/instance.md#announcements): published by the operator (`warren announcements add`),
// shown to every signed-in user until they end, dismissed per user, reacted to with emoji (at most 8 different
// ones per announcement, as Mastodon's ReactionValidator).
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import { findAccountByAcct } from "../../store/accounts.ts";
import {
  allAnnouncements,
  getAnnouncement,
  hasReaction,
  isDismissed,
  putAnnouncement,
  putDismissal,
  putReaction,
  reactionsOf,
  removeAnnouncement,
  removeReaction,
} from "../../store/announcements.ts";
import type { Store } from "../../store/db.ts";
import { parseStatusText } from "../statuses/format.ts";
import { recordEvent } from "../events.ts";
import { getEmoji } from "../../store/emojis.ts";
import { emojisInText } from "../emojis/in-text.ts";
import { isReactionName, isUnicodeEmoji } from "./reaction-name.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { AnnouncementRecord, ReactionCount } from "../../model/instance.ts";
import type { CustomEmojiRecord } from "../../model/media.ts";

/** Different reactions one announcement may have. */
export const REACTION_LIMIT = 8;
export const ANNOUNCEMENT_MAX_LENGTH = 10_000;

export interface AnnouncementDraft {
  text: string;
  startsAt: number | null;
  endsAt: number | null;
  allDay: boolean;
}

type WriteDeps = Pick<Deps, "store" | "jobs">;

export async function publishAnnouncement(deps: WriteDeps, draft: AnnouncementDraft, now = Date.now()): Promise<AnnouncementRecord> {
  const text = draft.text.trim();
  if (!text || text.length > ANNOUNCEMENT_MAX_LENGTH) throw new Unprocessable(`Validation failed: Text must be 1 to ${ANNOUNCEMENT_MAX_LENGTH} characters`);
  if (draft.startsAt !== null && draft.endsAt !== null && draft.endsAt < draft.startsAt) throw new Unprocessable("Validation failed: Ends at must be after starts at");
  const record: AnnouncementRecord = { v: 1, id: newId(now), ...draft, text, publishedAt: now, updatedAt: now };
  await deps.store.write(() => {
    putAnnouncement(deps.store, record);
    recordEvent(deps, "announcement.published", { announcementId: record.id }, "local", now);
  });
  return record;
}

export async function deleteAnnouncement(deps: WriteDeps, rawId: string): Promise<void> {
  const id = normaliseId(rawId);
  await deps.store.write(() => {
    if (!id || !getAnnouncement(deps.store, id)) throw new NotFound();
    removeAnnouncement(deps.store, id);
    recordEvent(deps, "announcement.deleted", { announcementId: id });
  });
}

/** Not over yet: shown to users. */
const active = (a: AnnouncementRecord, now: number) => a.endsAt === null || a.endsAt > now;

export function listAnnouncements(store: Store): AnnouncementRecord[] {
  return allAnnouncements(store);
}

export interface LoadedAnnouncement {
  announcement: AnnouncementRecord;
  read: boolean;
  reactions: ReactionCount[];
  tags: string[];
  mentions: AccountRecord[];
  /** the custom emojis its text names (`:shortcode:`) */
  emojis: CustomEmojiRecord[];
  /** the custom emojis among its reactions, by shortcode */
  reactionEmojis: Map<string, CustomEmojiRecord>;
}

function load(store: Store, viewerId: string, a: AnnouncementRecord): LoadedAnnouncement {
  const segments = parseStatusText(a.text);
  const tags = [...new Set(segments.flatMap((s) => (s.kind === "tag" ? [s.name.toLowerCase()] : [])))];
  const mentions = segments.flatMap((s) => {
    const account = s.kind === "mention" ? findAccountByAcct(store, s.username, s.domain) : undefined;
    return account && !account.suspended ? [account] : [];
  });
  const emojis = emojisInText(store, a.text);
  const reactions = reactionsOf(store, a.id, viewerId);
  const reactionEmojis = new Map(reactions.flatMap((r) => (isUnicodeEmoji(r.name) ? [] : [[r.name, getEmoji(store, r.name)!] as const])).filter(([, e]) => e));
  return { announcement: a, read: isDismissed(store, viewerId, a.id), reactions, tags, mentions, emojis, reactionEmojis };
}

/** The active announcements, oldest first; dismissed ones only `withDismissed`. */
export function announcementsFor(store: Store, viewerId: string, withDismissed: boolean, now = Date.now()): LoadedAnnouncement[] {
  return allAnnouncements(store)
    .filter((a) => active(a, now) && (withDismissed || !isDismissed(store, viewerId, a.id)))
    .map((a) => load(store, viewerId, a));
}

/** One active announcement as `viewerId` sees it (a stream push), or null. */
export function announcementFor(store: Store, viewerId: string, id: string, now = Date.now()): LoadedAnnouncement | null {
  const a = getAnnouncement(store, id);
  return a && active(a, now) ? load(store, viewerId, a) : null;
}

export function reactionCount(store: Store, id: string, name: string): number {
  return reactionsOf(store, id, null).find((r) => r.name === name)?.count ?? 0;
}

function findActive(store: Store, rawId: string, now = Date.now()): AnnouncementRecord {
  const id = normaliseId(rawId);
  const a = id ? getAnnouncement(store, id) : undefined;
  if (!a || !active(a, now)) throw new NotFound();
  return a;
}

export async function dismissAnnouncement(deps: WriteDeps, viewerId: string, rawId: string, now = Date.now()): Promise<void> {
  await deps.store.write(() => putDismissal(deps.store, viewerId, findActive(deps.store, rawId, now).id, now));
}

export async function addReaction(deps: WriteDeps, viewerId: string, rawId: string, name: string, now = Date.now()): Promise<void> {
  await deps.store.write(() => {
    const a = findActive(deps.store, rawId, now);
    if (!isReactionName(deps.store, name)) throw new Unprocessable("Validation failed: Name is not a recognized emoji");
    if (hasReaction(deps.store, a.id, name, viewerId)) return;
    const names = reactionsOf(deps.store, a.id, null).map((r) => r.name);
    if (!names.includes(name) && names.length >= REACTION_LIMIT) throw new Unprocessable("Validation failed: Maximum number of different reactions reached");
    putReaction(deps.store, a.id, name, viewerId, now);
    recordEvent(deps, "announcement.reacted", { announcementId: a.id, name }, "local", now);
  });
}

export async function withdrawReaction(deps: WriteDeps, viewerId: string, rawId: string, name: string): Promise<void> {
  await deps.store.write(() => {
    const a = findActive(deps.store, rawId);
    if (!hasReaction(deps.store, a.id, name, viewerId)) throw new NotFound();
    removeReaction(deps.store, a.id, name, viewerId);
    recordEvent(deps, "announcement.reacted", { announcementId: a.id, name });
  });
}
