// A Note's attachments as other servers send them (docs/federation.md, "Attachments"): Document, Image, Video
// or Audio; alt text from `name` or, as GoToSocial sends it, `summary`; width and height; `url` as a string, a
// Link, or an array of Links (Pleroma); Mastodon's `blurhash` and `focalPoint`, which Fedify's vocabulary has no
// fields for, read from the JSON as the server sent it (Mastodon reads them as plain keys too). Only what the
// Note embeds is read, never fetched; counts and lengths are bounded (note-checks.ts).
import { Audio, Document, Image, Link, Video } from "@fedify/vocab";
import type { DocumentLoader } from "@fedify/vocab-runtime";
import { plainText } from "../lib/sanitize.ts";
import type { RemoteAttachment } from "../domain/statuses/remote.ts";
import { NOTE_LIMITS, type NoteLike } from "./note-checks.ts";
import type { MediaType } from "../model/media.ts";

/** Only what a Note embeds is read: its tags and attachments are never fetched. */
const embeddedOnly: DocumentLoader = async (url) => {
  throw new Error(`not fetched: ${url}`);
};
export const readOptions = { documentLoader: embeddedOnly, suppressError: true } as const;

/** An http(s) URL of bounded length, or null. */
export function httpUrl(value: URL | Link | null | undefined): string | null {
  const url = value instanceof Link ? value.href : value;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.href.length > NOTE_LIMITS.uri) return null;
  return url.href;
}

/** The JSON Fedify parsed an object from, when it was a document of its own (Fedify keeps it, protected). */
const cachedJson = (object: unknown): unknown => (object as { _cachedJsonLd?: unknown } | null | undefined)?._cachedJsonLd;

/** A Note's JSON as its server sent it: the fetched document, or the object embedded in the activity. */
export function rawJsonOf(note: NoteLike, activity?: object | null): Record<string, unknown> | null {
  const own = cachedJson(note);
  if (isRecord(own) && !Array.isArray(own)) return own;
  const activityJson = cachedJson(activity);
  const embedded = isRecord(activityJson) ? activityJson.object : null;
  return isRecord(embedded) && embedded.id === note.id?.href ? embedded : null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

interface Extras {
  blurhash: string | null;
  focus: { x: number; y: number } | null;
}

/** `blurhash` and `focalPoint` of each raw attachment, by its URLs. */
function extrasByUrl(raw: Record<string, unknown> | null): Map<string, Extras> {
  const out = new Map<string, Extras>();
  const list = raw?.attachment;
  for (const item of (Array.isArray(list) ? list : [list]).slice(0, NOTE_LIMITS.attachments)) {
    if (!isRecord(item)) continue;
    const blurhash = typeof item.blurhash === "string" && /^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{6,100}$/.test(item.blurhash) ? item.blurhash : null;
    const point = item.focalPoint;
    const inRange = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n >= -1 && n <= 1;
    const focus = Array.isArray(point) && point.length === 2 && inRange(point[0]) && inRange(point[1]) ? { x: point[0], y: point[1] } : null;
    for (const url of urlsOf(item.url)) out.set(url, { blurhash, focus });
  }
  return out;
}

/** The URLs a raw `url` names: a string, a Link, or an array of either. */
function urlsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value.slice(0, 8) : [value];
  return list.flatMap((entry) => (typeof entry === "string" ? [entry] : isRecord(entry) && typeof entry.href === "string" ? [entry.href] : []));
}

function mediaType(attachment: Document | Image | Video | Audio, contentType: string | null): MediaType | null {
  const kind = contentType?.split("/")[0];
  if (kind === "image" || kind === "video" || kind === "audio") return kind;
  if (attachment instanceof Image) return "image";
  if (attachment instanceof Video) return "video";
  if (attachment instanceof Audio) return "audio";
  return null;
}

/** The first http(s) URL among an attachment's `url` values, with the media type its Link gives. */
function fileOf(item: Document | Image | Video | Audio): { url: string; linkType: string | null } | null {
  for (const value of item.urls.slice(0, 8)) {
    const url = httpUrl(value);
    if (url) return { url, linkType: value instanceof Link ? value.mediaType : null };
  }
  return null;
}

const dimension = (n: number | null) => (n !== null && Number.isSafeInteger(n) && n > 0 && n <= 100_000 ? n : null);

export async function attachmentsOf(note: NoteLike, raw: Record<string, unknown> | null): Promise<RemoteAttachment[]> {
  const out: RemoteAttachment[] = [];
  const extras = extrasByUrl(raw);
  for await (const item of note.getAttachments(readOptions)) {
    if (out.length >= NOTE_LIMITS.attachments) break;
    if (!(item instanceof Document || item instanceof Image || item instanceof Video || item instanceof Audio)) continue;
    const file = fileOf(item);
    const contentType = item.mediaType ?? file?.linkType ?? null;
    const type = mediaType(item, contentType);
    if (!file || !type) continue;
    const alt = item.name?.toString() || item.summary?.toString() || "";
    const description = alt ? plainText(alt).slice(0, NOTE_LIMITS.description) : null;
    const { blurhash = null, focus = null } = extras.get(file.url) ?? {};
    out.push({
      type, url: file.url, contentType: contentType?.slice(0, 255) ?? null, description,
      width: dimension(item.width), height: dimension(item.height), blurhash, focus,
    });
  }
  return out;
}
