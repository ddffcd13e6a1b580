// What hostile-input tests check in the HTML Warren emits, parsed with htmlparser2 (not matched as text):
// `fragmentProblems` for the HTML inside JSON (API entities, ActivityPub objects), which may hold only the
// elements, attributes, classes and http(s) links Mastodon's own HTML uses; `pageProblems` for whole pages,
// which may hold no script, no event handler or inline style, and no link or source outside http(s) (or a
// relative one). Each returns a list of what it found wrong, empty when the HTML is safe.
import { Parser } from "htmlparser2";

const FRAGMENT_TAGS = new Set(["p", "br", "span", "a", "del", "s", "pre", "code", "em", "strong", "b", "i", "u", "ul", "ol", "li", "blockquote"]);
const FRAGMENT_ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(["href", "rel", "target", "class", "translate"]),
  span: new Set(["class", "translate"]),
  p: new Set(["class"]),
};
const CLASSES = new Set(["h-card", "u-url", "mention", "hashtag", "invisible", "ellipsis", "quote-inline"]);
const REL = new Set(["nofollow", "noopener", "noreferrer", "me", "tag"]);
const URL_ATTRIBUTES = new Set(["href", "src", "poster", "action", "formaction", "srcset", "background", "cite", "data", "xlink:href"]);

function walk(html: string, visit: (name: string, attributes: Record<string, string>) => void, xmlMode = false): void {
  const parser = new Parser({ onopentag: visit }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, xmlMode });
  parser.write(html);
  parser.end();
}

function schemeOf(url: string): string | null {
  const match = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url);
  return match ? match[1]!.toLowerCase() : null;
}

/** HTML inside JSON: Mastodon's elements and attributes only, absolute http(s) links. */
export function fragmentProblems(html: string): string[] {
  const problems: string[] = [];
  walk(html, (name, attributes) => {
    if (!FRAGMENT_TAGS.has(name)) problems.push(`<${name}>`);
    for (const [attribute, value] of Object.entries(attributes)) {
      if (!FRAGMENT_ATTRIBUTES[name]?.has(attribute)) problems.push(`<${name} ${attribute}>`);
      else if (attribute === "href" && !["http", "https"].includes(schemeOf(value) ?? "")) problems.push(`<${name} href="${value}">`);
      else if (attribute === "class") problems.push(...value.split(/\s+/).filter((c) => c && !CLASSES.has(c)).map((c) => `class ${c}`));
      else if (attribute === "rel") problems.push(...value.split(/\s+/).filter((r) => r && !REL.has(r)).map((r) => `rel ${r}`));
      else if (attribute === "target" && value !== "_blank") problems.push(`target ${value}`);
    }
  });
  return problems;
}

/** A whole page (or an RSS item's HTML): no script, handler, inline style or non-http(s) URL. */
export function pageProblems(html: string): string[] {
  const problems: string[] = [];
  walk(html, (name, attributes) => {
    if (["script", "iframe", "object", "embed", "base", "form", "frame", "frameset"].includes(name)) problems.push(`<${name}>`);
    if (name === "meta" && attributes["http-equiv"]) problems.push(`<meta http-equiv>`);
    for (const [attribute, value] of Object.entries(attributes)) {
      if (attribute.startsWith("on") || attribute === "style" || attribute === "srcdoc") problems.push(`<${name} ${attribute}>`);
      const scheme = URL_ATTRIBUTES.has(attribute) ? schemeOf(value) : null;
      if (scheme && scheme !== "http" && scheme !== "https") problems.push(`<${name} ${attribute}="${value}">`);
    }
  });
  return problems;
}

/** The text of an XML document's elements named `tag` (an RSS feed's descriptions), entities decoded. */
export function xmlTexts(xml: string, tag: string): string[] {
  const texts: string[] = [];
  let current: string | null = null;
  const parser = new Parser(
    {
      onopentag: (name) => (current = name === tag ? "" : current),
      ontext: (text) => (current = current === null ? null : current + text),
      onclosetag: (name) => {
        if (name === tag && current !== null) texts.push(current);
        if (name === tag) current = null;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return texts;
}

/** The text content of HTML, entities decoded. */
export function textOf(html: string): string {
  let out = "";
  const parser = new Parser({ ontext: (text) => (out += text) }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return out;
}
