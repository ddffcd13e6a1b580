// Fields of a Note another server sends, read as a status's (note-draft.ts): its visibility from its
// addressing, its language, its hashtags' names, its date.
import { isPublic, type NoteLike } from "./note-checks.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { Visibility } from "../model/statuses.ts";

const TAG_NAME = /^[\p{L}\p{N}_·]*[\p{L}_·][\p{L}\p{N}_·]*$/u;

/** A Hashtag's name as a tag of ours (lower case, no `#`), or null when it is not one (too long, no letter, other signs). */
export function hashtagName(written: string): string | null {
  const name = written.replace(/^#/, "").toLowerCase();
  return name.length <= 200 && TAG_NAME.test(name) ? name : null;
}

/** When a Note was published, as a status's createdAt: never in the future (it would stay on top of every
 * timeline), never before the epoch of our ids. */
export const createdAtOf = (published: number, now: number) => Math.min(Math.max(published, 0), now);

/** Mastodon's reading of to/cc: Public in `to` is public, in `cc` unlisted; the author's followers private; else direct. */
export function visibilityOf(to: URL[], cc: URL[], author: AccountRecord): Visibility {
  if (to.some(isPublic)) return "public";
  if (cc.some(isPublic)) return "unlisted";
  if (author.followersUrl && [...to, ...cc].some((url) => url.href === author.followersUrl)) return "private";
  return "direct";
}

/** The language of the first `contentMap` entry, if it names one. */
export function languageOf(note: NoteLike): string | null {
  for (const value of note.contents) {
    if (typeof value === "string") continue;
    const code = value.locale.language.toLowerCase();
    if (/^[a-z]{2,3}$/.test(code)) return code;
  }
  return null;
}
