// Which language an answer is in: the `lang` parameter first (Mastodon's; in the query, or in the body as
// Mastodon.py sends it with a form), then the best supported language of Accept-Language, English otherwise.
// Regional tags fall back to their language (de-AT → de).
import { LOCALES, type Locale } from "./catalogue.ts";

const isLocale = (tag: string): tag is Locale => (LOCALES as readonly string[]).includes(tag);
const baseOf = (tag: string) => tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";

/** `lang` from each request's body, noted by the parameter plugin before the route's schema drops it. */
const bodyLang = new WeakMap<Request, string>();

export function noteBodyLang(request: Request, lang: unknown): void {
  if (typeof lang === "string") bodyLang.set(request, lang);
}

/** The locale for `request`; cheap when neither `lang` nor Accept-Language is sent. */
export function requestLocale(request: Request): Locale {
  const query = request.url.indexOf("?");
  const lang = (query >= 0 ? new URLSearchParams(request.url.slice(query + 1)).get("lang") : null) ?? bodyLang.get(request);
  if (lang && isLocale(baseOf(lang))) return baseOf(lang) as Locale;
  const header = request.headers.get("accept-language");
  if (!header) return "en";
  const ranked = header
    .slice(0, 256)
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";");
      const q = Number(params.find((p) => p.trim().startsWith("q="))?.trim().slice(2) ?? 1);
      return { base: baseOf(tag), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0 && isLocale(entry.base))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.base as Locale | undefined) ?? "en";
}
