// What a filter's keywords are matched against: a status's spoiler text, its content as plain text and its
// media descriptions (Mastodon's Status#searchable_text), joined by blank lines. The content is HTML for
// every status (local ones are rendered on posting), so it is stripped here: line breaks and paragraphs
// become newlines, tags go, entities are decoded.
import type { StatusRecord } from "../../model/statuses.ts";

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeEntity(entity: string, body: string): string {
  if (body[0] === "#") {
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : entity;
  }
  return NAMED[body.toLowerCase()] ?? entity;
}

/** HTML (a status's content) as the text a reader sees. */
export function htmlToText(html: string): string {
  if (!html.includes("<") && !html.includes("&")) return html;
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/p>\s*<p(\s[^>]*)?>/gi, "\n\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, decodeEntity)
    .trim();
}

/**
 * The text part of a status (spoiler and content), kept per record object: records are never changed in
 * place (an edit is a new record), and the statuses keyspace hands out the same object while it is unchanged.
 */
const textOf = new WeakMap<StatusRecord, string>();

function statusText(status: StatusRecord): string {
  let text = textOf.get(status);
  if (text === undefined) {
    text = [status.spoilerText, htmlToText(status.content)].filter(Boolean).join("\n\n");
    textOf.set(status, text);
  }
  return text;
}

/** Spoiler text, content and the descriptions of its attachments (`descriptions`, in order). */
export function searchableText(status: StatusRecord, descriptions: readonly (string | null | undefined)[]): string {
  const text = statusText(status);
  const media = descriptions.filter((d): d is string => !!d);
  return media.length === 0 ? text : [text, ...media].filter(Boolean).join("\n\n");
}
