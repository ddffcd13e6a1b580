// Plain text → the HTML Mastodon serves (bios, profile field values, later statuses): escaped, paragraphs on
// blank lines, `<br />` for single newlines, and http(s) URLs turned into Mastodon's shortened links.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Candidate URLs; trailing punctuation is trimmed in `trimUrl`. */
const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'\u00a0]+/gi;
const URL_PREFIX = /^https?:\/\/(www\.)?/i;
const DISPLAY_LENGTH = 30;

/** Drops sentence punctuation after a URL, and a closing bracket the URL did not open. */
function trimUrl(url: string): string {
  let out = url;
  for (;;) {
    const last = out.at(-1);
    if (last && ".,;:!?*".includes(last)) out = out.slice(0, -1);
    else if (last === ")" && count(out, "(") < count(out, ")")) out = out.slice(0, -1);
    else if (last === "]" && count(out, "[") < count(out, "]")) out = out.slice(0, -1);
    else return out;
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

function isValidUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname.length > 0;
  } catch {
    return false;
  }
}

export interface LinkOptions {
  /** Adds `me` to `rel` (profile field values, for rel=me verification). */
  relMe?: boolean;
}

/** Mastodon's shortened link: the scheme hidden, the rest cut to 30 characters with an ellipsis class. */
export function linkHtml(url: string, options: LinkOptions = {}): string {
  const prefix = URL_PREFIX.exec(url)?.[0] ?? "";
  const rest = url.slice(prefix.length);
  const display = rest.slice(0, DISPLAY_LENGTH);
  const suffix = rest.slice(DISPLAY_LENGTH);
  const rel = options.relMe ? "nofollow noopener me" : "nofollow noopener";
  return (
    `<a href="${escapeHtml(url)}" target="_blank" rel="${rel}" translate="no">` +
    `<span class="invisible">${escapeHtml(prefix)}</span>` +
    `<span class="${suffix ? "ellipsis" : ""}">${escapeHtml(display)}</span>` +
    `<span class="invisible">${escapeHtml(suffix)}</span></a>`
  );
}

/** One line of text: escaped, with its URLs linked. No paragraph or line-break markup. */
export function linkifyText(text: string, options: LinkOptions = {}): string {
  let html = "";
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = trimUrl(match[0]);
    if (!isValidUrl(url)) continue;
    html += escapeHtml(text.slice(at, match.index)) + linkHtml(url, options);
    at = match.index! + url.length;
  }
  return html + escapeHtml(text.slice(at));
}

/** Multi-line text as Mastodon renders it (Rails' simple_format): `<p>` per paragraph, `<br />` per newline. */
export function textToHtml(text: string, options: LinkOptions = {}): string {
  const normalised = text.replace(/\r\n?/g, "\n").trim();
  if (!normalised) return "";
  return normalised
    .split(/\n[ \t]*\n\s*/)
    .map((paragraph) => `<p>${paragraph.split("\n").map((line) => linkifyText(line, options)).join("<br />")}</p>`)
    .join("");
}

/** Length as Mastodon counts it for bios and statuses: every URL weighs `urlWeight` characters. */
export function countableLength(text: string, urlWeight: number): number {
  let length = 0;
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = trimUrl(match[0]);
    if (!isValidUrl(url)) continue;
    length += [...text.slice(at, match.index)].length + urlWeight;
    at = match.index! + url.length;
  }
  return length + [...text.slice(at)].length;
}
