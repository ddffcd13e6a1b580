// What is checked of any Note another server sends, before and while it is read (inbound-notes.ts,
// note-draft.ts, quotes-in.ts, threads.ts): size limits, its kinds, public addressing, same origin.
import { Article, Note, Question } from "@fedify/vocab";

export const NOTE_LIMITS = {
  /** Characters of HTML; a longer Note is refused (Mastodon keeps 500 characters of text, but others differ). */
  content: 100_000,
  summary: 5_000,
  /** Tags and to/cc entries read; the rest is ignored. */
  tags: 100,
  addresses: 200,
  attachments: 16,
  /** Ids and URLs longer than this are refused (they are index keys). */
  uri: 1_000,
  description: 1_500,
} as const;

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

export type NoteLike = Note | Article | Question;
export const isNoteLike = (object: unknown): object is NoteLike => object instanceof Note || object instanceof Article || object instanceof Question;

/** `Public`, `as:Public` and the full IRI all mean public (API.md §14.5); a bare `Public` arrives resolved
 * against the document's id. */
export function isPublic(url: URL): boolean {
  return url.href === PUBLIC || (url.pathname.endsWith("/Public") && !url.search && !url.hash);
}

export const sameOrigin = (a: URL | string, b: URL | string): boolean => new URL(a).origin === new URL(b).origin;
