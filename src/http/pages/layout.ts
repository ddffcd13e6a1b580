// The shell of the public pages (/, /@username, /@username/:id): head with the page's
// description, Open Graph tags and alternate links, one inline stylesheet, no scripts. Every answer carries
// a weak ETag of its bytes (a matching If-None-Match gets 304) and Vary: Accept, since the same URLs give
// ActivityPub JSON to servers (src/federation/route.ts).
import { createHash } from "node:crypto";
import type { Config } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";
import { SOFTWARE_VERSION } from "../../domain/limits.ts";
import { SOURCE_URL } from "../../domain/instance/info.ts";
import { iconUrl } from "../../entities/instance.ts";

const STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#222;background:#f6f3ee}
main{max-width:42rem;margin:0 auto;padding:1.5rem}a{color:#2f6a2a}h2{margin-top:2rem;font-size:1.2rem}
.header{width:100%;height:auto;max-height:14rem;object-fit:cover;border-radius:.5rem;display:block}
.avatar{border-radius:.5rem;background:#ddd}.profile .avatar{margin-top:-3rem;border:4px solid #f6f3ee}
h1{margin:.25rem 0 0;overflow-wrap:anywhere}h1.thread{font-size:1.3rem;margin:1rem 0}.acct{margin:0;color:#555;overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:minmax(6rem,auto) 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.counts{display:flex;gap:1.25rem;padding:0;list-style:none}.notice{background:#fde8e8;padding:.75rem;border-radius:.5rem}
article{background:#fff;border-radius:.5rem;padding:1rem;margin:1rem 0;box-shadow:0 1px 3px #0002;overflow-wrap:anywhere}
article.focus{border-left:4px solid #2f6a2a}.author{display:flex;gap:.75rem;align-items:center}
.author a{text-decoration:none;color:inherit}.author span{display:block;color:#555;font-size:.9rem}
.media{display:grid;gap:.5rem;margin:.5rem 0}.media img,.media video{max-width:100%;height:auto;border-radius:.25rem}
.invisible{display:none}.ellipsis::after{content:"…"}summary{cursor:pointer;font-weight:600}
.meta{font-size:.9rem;color:#555}nav{margin:2rem 0;text-align:center}
footer{margin-top:3rem;font-size:.9rem;color:#666}
.thumbnail{width:100%;height:auto;border-radius:.5rem}.button{display:inline-block;padding:.5rem 1rem;background:#2f6a2a;color:#fff;border-radius:.25rem;text-decoration:none}
.hint{background:#fff;padding:.75rem;border-radius:.5rem}`;

const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

/** Media of any server may be shown; nothing else is loaded, nothing runs, and the page is never framed. */
const CSP = `default-src 'none'; img-src http: https: data:; media-src http: https:; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export interface Head {
  title: string;
  /** Plain text for <meta name="description"> and og:description. */
  description: string;
  /** The page's own URL (canonical, og:url); null for the not-found page. */
  url: string | null;
  image: string | null;
  ogType: "profile" | "article" | "website";
  /** Alternate forms of the page: the ActivityPub object, the RSS feed. */
  alternates: { type: string; href: string; title?: string }[];
  noindex?: boolean;
}

const attr = (text: string) => escapeHtml(text);

/** Descriptions are cut as Mastodon cuts them (160 characters). */
function short(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

export function htmlPage(config: Config, head: Head, body: string): string {
  const description = short(head.description);
  const meta = [
    `<meta name="description" content="${attr(description)}">`,
    `<meta property="og:site_name" content="${attr(config.instanceTitle)}">`,
    `<meta property="og:type" content="${head.ogType}">`,
    `<meta property="og:title" content="${attr(head.title)}">`,
    `<meta property="og:description" content="${attr(description)}">`,
    head.url ? `<meta property="og:url" content="${attr(head.url)}">` : "",
    head.image ? `<meta property="og:image" content="${attr(head.image)}">` : "",
    `<meta name="twitter:card" content="summary">`,
    head.noindex ? `<meta name="robots" content="noindex, noarchive">` : "",
    head.url ? `<link rel="canonical" href="${attr(head.url)}">` : "",
    ...head.alternates.map((a) => `<link rel="alternate" type="${attr(a.type)}" href="${attr(a.href)}"${a.title ? ` title="${attr(a.title)}"` : ""}>`),
  ].filter(Boolean);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(head.title)}</title>
${meta.join("\n")}
<link rel="icon" type="image/png" href="${iconUrl(config, 48)}">
<style>${STYLE}</style>
</head>
<body><main>
${body}
<footer><a href="${config.url}/about">About ${escapeHtml(config.instanceTitle)}</a> ·
Powered by <a href="${SOURCE_URL}">Warren</a> ${SOFTWARE_VERSION}</footer>
</main></body>
</html>
`;
}

/** The answer for a page or feed: 200 with its ETag, or 304 when the client holds these bytes already. */
export function pageResponse(request: Request, body: string, contentType: string, status = 200): Response {
  const etag = `W/"${Bun.hash(body).toString(36)}"`;
  const headers: Record<string, string> = { "content-type": contentType, etag, vary: "Accept, Authorization" };
  if (contentType.startsWith("text/html")) {
    Object.assign(headers, { "content-security-policy": CSP, "x-content-type-options": "nosniff", "referrer-policy": "same-origin" });
  }
  const held = request.headers.get("if-none-match");
  if (status === 200 && held && held.split(",").some((tag) => tag.trim() === etag || tag.trim() === "*")) {
    return new Response(null, { status: 304, headers: { etag, vary: headers.vary! } });
  }
  return new Response(body, { status, headers });
}

export const HTML = "text/html; charset=utf-8";

/** Unknown people and posts, and those nobody may see: one page for all, so none can be told apart. */
export function notFoundPage(config: Config, request: Request): Response {
  const head: Head = { title: "Not found", description: "This page does not exist, or is not public.", url: null, image: null, ogType: "article", alternates: [], noindex: true };
  return pageResponse(request, htmlPage(config, head, "<h1>Not found</h1>\n<p>This page does not exist, or is not public.</p>"), HTML, 404);
}
