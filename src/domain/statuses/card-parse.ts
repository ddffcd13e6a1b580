// Link card metadata from HTML (htmlparser2): OpenGraph first, then Twitter tags, then <title> and
// <meta name="description">; plus oEmbed (the discovery link and the JSON document) for photo, video and
// rich cards. Embed HTML is rebuilt from a single https <iframe>, never passed through.
import { Parser } from "htmlparser2";
import type { PreviewCardRecord } from "../../model/statuses.ts";

export type CardData = Omit<PreviewCardRecord, "v" | "fetchedAt">;

const MAX_TITLE = 1000;
const MAX_DESCRIPTION = 2000;

function httpUrl(raw: string | undefined, base: URL): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

function int(raw: unknown): number {
  const n = typeof raw === "number" ? raw : parseInt(String(raw ?? ""), 10);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

function clean(text: string | undefined, max: number): string {
  return (text ?? "").replace(/\s+/g, " ").trim().slice(0, max);
}

function languageOf(raw: string | undefined): string | null {
  const code = raw?.trim().toLowerCase().split(/[-_]/)[0];
  return code && /^[a-z]{2,3}$/.test(code) ? code : null;
}

function dateOf(raw: string | undefined): number | null {
  if (!raw) return null;
  const ms = Date.parse(raw);
  return Number.isFinite(ms) ? ms : null;
}

export interface ParsedPage {
  card: CardData;
  oembedUrl: string | null;
}

/** `pageUrl` is where the page was finally fetched from; `linkedUrl` is the URL as written in the status. */
export function parseCardPage(html: string, pageUrl: URL, linkedUrl: string): ParsedPage {
  const meta = new Map<string, string>();
  let title = "";
  let inTitle = false;
  let lang: string | undefined;
  let canonical: string | undefined;
  let oembed: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === "html") lang = attrs.lang;
        else if (name === "title" && !title) inTitle = true;
        else if (name === "meta") {
          const key = (attrs.property ?? attrs.name ?? "").toLowerCase();
          if (key && attrs.content !== undefined && !meta.has(key)) meta.set(key, attrs.content);
        } else if (name === "link") {
          const rel = (attrs.rel ?? "").toLowerCase().split(/\s+/);
          if (rel.includes("canonical")) canonical ??= attrs.href;
          if (rel.includes("alternate") && (attrs.type ?? "").toLowerCase() === "application/json+oembed") oembed ??= attrs.href;
        }
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();

  const og = (key: string) => meta.get(key)?.trim() || undefined;
  const sameOrigin = (raw: string | undefined) => {
    const url = httpUrl(raw, pageUrl);
    return url && new URL(url).origin === pageUrl.origin ? url : null;
  };
  const card: CardData = {
    url: sameOrigin(og("og:url")) ?? sameOrigin(canonical) ?? linkedUrl,
    title: clean(og("og:title") ?? og("twitter:title") ?? title, MAX_TITLE),
    description: clean(og("og:description") ?? og("twitter:description") ?? og("description"), MAX_DESCRIPTION),
    type: "link",
    authorName: clean(og("author") ?? og("article:author"), MAX_TITLE),
    authorUrl: "",
    providerName: clean(og("og:site_name"), MAX_TITLE),
    providerUrl: "",
    html: "",
    width: int(og("og:image:width")),
    height: int(og("og:image:height")),
    image: httpUrl(og("og:image") ?? og("og:image:url") ?? og("og:image:secure_url") ?? og("twitter:image"), pageUrl),
    imageDescription: clean(og("og:image:alt") ?? og("twitter:image:alt"), MAX_DESCRIPTION),
    embedUrl: "",
    language: languageOf(og("og:locale") ?? lang),
    publishedAt: dateOf(og("article:published_time")),
  };
  return { card, oembedUrl: httpUrl(oembed, pageUrl) };
}

/** An oEmbed <iframe>, rebuilt with only safe attributes; "" when the HTML holds none. */
export function sanitiseEmbed(html: string): string {
  let out = "";
  const parser = new Parser({
    onopentag(name, attrs) {
      if (out || name !== "iframe") return;
      const src = attrs.src && /^https:\/\//i.test(attrs.src) ? attrs.src : null;
      if (!src) return;
      const esc = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
      const size = (k: "width" | "height") => (int(attrs[k]) ? ` ${k}="${int(attrs[k])}"` : "");
      out = `<iframe src="${esc(src)}"${size("width")}${size("height")} frameborder="0" allowfullscreen="true"></iframe>`;
    },
  }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return out;
}

/** The oEmbed JSON document merged over the page's card; null when it is not usable. */
export function parseOEmbed(json: string, page: CardData): CardData | null {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(json);
  } catch {
    return null;
  }
  if (!doc || typeof doc !== "object") return null;
  const str = (k: string) => (typeof doc[k] === "string" ? (doc[k] as string) : undefined);
  const base = new URL(page.url);
  const card: CardData = {
    ...page,
    title: clean(str("title") ?? page.title, MAX_TITLE),
    authorName: clean(str("author_name") ?? page.authorName, MAX_TITLE),
    authorUrl: httpUrl(str("author_url"), base) ?? "",
    providerName: clean(str("provider_name") ?? page.providerName, MAX_TITLE),
    providerUrl: httpUrl(str("provider_url"), base) ?? "",
    image: httpUrl(str("thumbnail_url"), base) ?? page.image,
  };
  switch (str("type")) {
    case "photo": {
      const image = httpUrl(str("url"), base);
      if (!image) return null;
      return { ...card, type: "photo", image, embedUrl: image, width: int(doc.width), height: int(doc.height) };
    }
    case "video":
    case "rich": {
      const html = sanitiseEmbed(str("html") ?? "");
      if (!html) return card.title ? card : null;
      return { ...card, type: str("type") as "video" | "rich", html, width: int(doc.width), height: int(doc.height) };
    }
    default:
      return card.title ? card : null;
  }
}
