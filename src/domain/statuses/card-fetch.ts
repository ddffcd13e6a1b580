// Fetching a page for a link card through the outgoing-fetch guard (lib/safe-fetch.ts), within limits: one
// time budget for the whole fetch (redirects and the oEmbed document included), at most 1 MiB read (a longer
// page is cut there: its <head> is what matters), at most 3 redirects. Failures return null: a missing card
// is never an error the client sees.
import type { Config } from "../../config.ts";
import { warrenUserAgent } from "../limits.ts";
import { safeFetch } from "../../lib/safe-fetch.ts";
import { parseCardPage, parseOEmbed, type CardData } from "./card-parse.ts";

export const CARD_LIMITS = {
  maxBytes: 1024 * 1024,
  timeoutMs: 5000,
  maxRedirects: 3,
} as const;

interface Fetched {
  url: URL;
  contentType: string;
  body: string;
}

function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset as ConstructorParameters<typeof TextDecoder>[0]).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

/** The page at `url` read within CARD_LIMITS, or null when it did not answer 2xx. */
async function fetchLimited(url: URL, config: Config, signal: AbortSignal, accept: string): Promise<Fetched | null> {
  const response = await safeFetch(url, {
    ...CARD_LIMITS,
    allowPrivateAddresses: config.allowPrivateAddresses,
    signal,
    headers: { "user-agent": warrenUserAgent(config.url), accept },
  });
  if (response.status < 200 || response.status >= 300) return null;
  const contentType = response.headers.get("content-type") ?? "";
  return { url: response.url, contentType, body: decode(response.body, contentType) };
}

/** Card data for `rawUrl`, or null when there is none (or it could not be fetched safely). */
export async function fetchCardData(rawUrl: string, config: Config): Promise<CardData | null> {
  const signal = AbortSignal.timeout(CARD_LIMITS.timeoutMs);
  try {
    const page = await fetchLimited(new URL(rawUrl), config, signal, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1");
    if (!page || !/^(text\/html|application\/xhtml\+xml)/i.test(page.contentType)) return null;
    const parsed = parseCardPage(page.body, page.url, rawUrl);
    if (parsed.oembedUrl) {
      const doc = await fetchLimited(new URL(parsed.oembedUrl), config, signal, "application/json").catch(() => null);
      const fromOEmbed = doc ? parseOEmbed(doc.body, parsed.card) : null;
      if (fromOEmbed) return fromOEmbed;
    }
    return parsed.card.title ? parsed.card : null;
  } catch {
    return null;
  }
}
