// Which language an answer is in: the `lang` query parameter first (Mastodon's), then the best supported
// language of Accept-Language, English otherwise. Regional tags fall back to their language (de-AT → de).
import { LOCALES, type Locale } from "./catalogue.ts";

const isLocale = (tag: string): tag is Locale => (LOCALES as readonly string[]).includes(tag);
const baseOf = (tag: string) => tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";

/** The locale for `request`; cheap when neither `lang` nor Accept-Language is sent. */
export function requestLocale(request: Request): Locale {
  const query = request.url.indexOf("?");
  if (query >= 0) {
    const lang = new URLSearchParams(request.url.slice(query + 1)).get("lang");
    if (lang && isLocale(baseOf(lang))) return baseOf(lang) as Locale;
  }
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
