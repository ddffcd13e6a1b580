// Plain status text → Mastodon-style HTML: paragraphs and line breaks, linkified URLs (shortened display,
// rel="nofollow noopener"), @mentions resolved to known accounts and #hashtags. Also the character count
// of the 500-character rule, where every URL weighs 23 and `@user@domain` counts as `@user`.
import { escapeHtml, linkHtml } from "../../lib/html.ts";
import { STATUS_LIMITS } from "../limits.ts";

export type Segment =
  | { kind: "text"; text: string }
  | { kind: "url"; text: string }
  | { kind: "mention"; text: string; username: string; domain: string | null }
  | { kind: "tag"; text: string; name: string };

const URL_RE = /(?<![\p{L}\p{N}_@#$/.])https?:\/\/[^\s<>"'`]+/giu;
// A domain may carry a port (`@bob@host:8443`): acct names of servers on another port than the default have one.
const MENTION_RE = /(?<![=/\p{L}\p{N}_])@([a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_])?)(?:@([\p{L}\p{N}_]+(?:[.-]+[\p{L}\p{N}_]+)*(?::\d{1,5}(?![\p{L}\p{N}_]))?))?/giu;
const TAG_RE = /(?<![=/)\p{L}\p{N}_&])#([\p{L}\p{N}_·]*[\p{L}_·][\p{L}\p{N}_·]*)/gu;
const TRAILING_PUNCTUATION = /[.,:;!?'"]+$/;

/** Drops trailing punctuation and a closing bracket that has no opening one inside the URL. */
function trimUrl(url: string): string {
  let out = url;
  for (;;) {
    const before = out;
    out = out.replace(TRAILING_PUNCTUATION, "");
    for (const [open, close] of [["(", ")"], ["[", "]"]] as const) {
      if (out.endsWith(close) && out.split(open).length < out.split(close).length) out = out.slice(0, -1);
    }
    if (out === before) return out;
  }
}

function isValidUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Longest hashtag name, in UTF-16 units (a 4-byte letter is 2): keeps tag timeline keys far below LMDB's limit. */
const MAX_TAG_LENGTH = 200;

/** Mentions and hashtags inside a stretch of text that holds no URL. */
function splitWords(text: string, out: Segment[]): void {
  const hits: { index: number; segment: Segment }[] = [];
  for (const m of text.matchAll(MENTION_RE)) {
    hits.push({ index: m.index!, segment: { kind: "mention", text: m[0], username: m[1]!, domain: m[2] ?? null } });
  }
  for (const m of text.matchAll(TAG_RE)) {
    // A name longer than any real hashtag stays plain text (it could not be a timeline key either).
    if (m[1]!.length > MAX_TAG_LENGTH) continue;
    hits.push({ index: m.index!, segment: { kind: "tag", text: m[0], name: m[1]! } });
  }
  hits.sort((a, b) => a.index - b.index);
  let at = 0;
  for (const hit of hits) {
    if (hit.index < at) continue;
    if (hit.index > at) out.push({ kind: "text", text: text.slice(at, hit.index) });
    out.push(hit.segment);
    at = hit.index + hit.segment.text.length;
  }
  if (at < text.length) out.push({ kind: "text", text: text.slice(at) });
}

export function parseStatusText(text: string): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(URL_RE)) {
    const url = trimUrl(m[0]);
    if (!isValidUrl(url)) continue;
    if (m.index! > at) splitWords(text.slice(at, m.index!), out);
    out.push({ kind: "url", text: url });
    at = m.index! + url.length;
  }
  if (at < text.length) splitWords(text.slice(at), out);
  return out;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export function graphemeLength(text: string): number {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

/** Length as the 500-character rule counts it. */
export function countableLength(spoilerText: string, segments: Segment[]): number {
  let urls = 0;
  let text = spoilerText;
  for (const s of segments) {
    if (s.kind === "url") urls++;
    else if (s.kind === "mention") text += `@${s.username}`;
    else text += s.text;
  }
  return graphemeLength(text) + urls * STATUS_LIMITS.charactersReservedPerUrl;
}

export interface MentionTarget {
  id: string;
  username: string;
  url: string;
}

export interface FormattedStatus {
  html: string;
  mentionIds: string[];
  /** lower-case, unique, in order of appearance */
  tags: string[];
  /** the first linkified URL (the link-card candidate) */
  firstUrl: string | null;
}

export interface RenderOptions {
  /** `rel="… me"` on links (profile field values, for rel=me verification). */
  relMe?: boolean;
  /** Paragraphs and line breaks (default); false for one line (field values). */
  multiline?: boolean;
}

/** Each hashtag of the segments once, by lower-case name, as its author first wrote it (`#WarrenDev`). */
export function hashtagsAsWritten(segments: Segment[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of segments) if (s.kind === "tag" && !names.has(s.name.toLowerCase())) names.set(s.name.toLowerCase(), s.name);
  return names;
}

/** Renders parsed text; `resolve` maps a mention to a known account (unknown ones stay plain text). */
export function renderStatus(
  segments: Segment[],
  baseUrl: string,
  resolve: (username: string, domain: string | null) => MentionTarget | undefined,
  options: RenderOptions = {},
): FormattedStatus {
  const mentionIds: string[] = [];
  const tags: string[] = [];
  let firstUrl: string | null = null;
  let html = "";
  for (const s of segments) {
    switch (s.kind) {
      case "text":
        html += escapeHtml(s.text);
        break;
      case "url":
        firstUrl ??= s.text;
        html += linkHtml(s.text, { relMe: options.relMe });
        break;
      case "mention": {
        const target = resolve(s.username, s.domain);
        if (!target) {
          html += escapeHtml(s.text);
          break;
        }
        if (!mentionIds.includes(target.id)) mentionIds.push(target.id);
        html += `<span class="h-card" translate="no"><a href="${escapeHtml(target.url)}" class="u-url mention">@<span>${escapeHtml(target.username)}</span></a></span>`;
        break;
      }
      case "tag": {
        const name = s.name.toLowerCase();
        if (!tags.includes(name)) tags.push(name);
        html += `<a href="${escapeHtml(`${baseUrl}/tags/${encodeURIComponent(name)}`)}" class="mention hashtag" rel="tag">#<span>${escapeHtml(s.name)}</span></a>`;
        break;
      }
    }
  }
  return { html: options.multiline === false ? html : paragraphs(html), mentionIds, tags, firstUrl };
}

/** Rails' simple_format as Mastodon uses it: blank lines split paragraphs, single newlines become <br />. */
function paragraphs(html: string): string {
  const text = html.replace(/\r\n?/g, "\n");
  if (text.trim() === "") return "";
  return text
    .split(/\n\n+/)
    .map((p) => `<p>${p.replace(/\n/g, "<br />")}</p>`)
    .join("");
}
