// HTML from other servers (remote bios and profile field values now, statuses with federation part 2),
// reduced to what Mastodon itself serves: a few text elements, links to http(s) only, the classes its
// mentions, hashtags and shortened links use. Other elements are unwrapped (their text kept); script-like
// ones are dropped with their content; every other attribute goes. The output is well-formed.
import { Parser } from "htmlparser2";
import { escapeHtml } from "./html.ts";

const KEPT = new Set(["p", "br", "span", "a", "del", "s", "pre", "code", "em", "strong", "b", "i", "u", "ul", "ol", "li", "blockquote"]);
const VOID = new Set(["br"]);
/** Dropped with everything inside them. */
const DROPPED = new Set(["script", "style", "template", "iframe", "object", "embed", "noscript", "svg", "math", "head", "title", "textarea", "select"]);
const CLASSES = new Set(["h-card", "u-url", "mention", "hashtag", "invisible", "ellipsis"]);
/** Mastodon's limit on nesting is generous; ours keeps a hostile document from growing the stack. */
const MAX_DEPTH = 64;

function safeHref(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

function openTag(name: string, attributes: Record<string, string>): string | null {
  if (name === "a") {
    const href = safeHref(attributes.href);
    if (!href) return null;
    const classes = (attributes.class ?? "").split(/\s+/).filter((c) => CLASSES.has(c));
    const cls = classes.length ? ` class="${classes.join(" ")}"` : "";
    return `<a href="${escapeHtml(href)}" rel="nofollow noopener noreferrer" target="_blank"${cls}>`;
  }
  if (name === "span") {
    const classes = (attributes.class ?? "").split(/\s+/).filter((c) => CLASSES.has(c));
    return classes.length ? `<span class="${classes.join(" ")}">` : "<span>";
  }
  return VOID.has(name) ? `<${name} />` : `<${name}>`;
}

export function sanitizeHtml(html: string): string {
  let out = "";
  const open: (string | null)[] = [];
  let dropping = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (dropping || DROPPED.has(name)) {
          if (!VOID.has(name)) dropping++;
          return;
        }
        if (VOID.has(name)) {
          if (KEPT.has(name)) out += openTag(name, attributes) ?? "";
          return;
        }
        const tag = KEPT.has(name) && open.length < MAX_DEPTH ? openTag(name, attributes) : null;
        if (tag) out += tag;
        open.push(tag ? name : null);
      },
      ontext(text) {
        if (!dropping) out += escapeHtml(text);
      },
      onclosetag(name) {
        if (VOID.has(name)) return;
        if (dropping) {
          dropping--;
          return;
        }
        const kept = open.pop();
        if (kept) out += `</${kept}>`;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

/** Remote plain-text fields (display names): no markup at all, and not the text of script-like elements. */
export function plainText(html: string): string {
  let out = "";
  // htmlparser2 closes every element it opens (void ones at once), so a depth count finds the ends.
  let dropping = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (dropping || DROPPED.has(name)) dropping++;
      },
      onclosetag() {
        if (dropping) dropping--;
      },
      ontext(text) {
        if (!dropping) out += text;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out;
}
