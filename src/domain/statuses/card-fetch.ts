// Fetching a page for a link card, within limits: one time budget for the whole fetch (redirects and the
// oEmbed document included), at most 1 MiB read, at most 3 redirects, and every URL on the way checked by
// lib/url-safety.ts. Failures return null: a missing card is never an error the client sees.
import type { Config } from "../../config.ts";
import { SOFTWARE_VERSION } from "../limits.ts";
import { assertFetchableUrl } from "../../lib/url-safety.ts";
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

/** Reads at most maxBytes of the body; a longer page is cut there (its <head> is what matters). */
async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.subarray(0, maxBytes - size));
      size += Math.min(value.length, maxBytes - size);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset as ConstructorParameters<typeof TextDecoder>[0]).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}

async function fetchLimited(start: URL, config: Config, signal: AbortSignal, accept: string): Promise<Fetched | null> {
  let url = start;
  for (let hop = 0; hop <= CARD_LIMITS.maxRedirects; hop++) {
    await assertFetchableUrl(url, config.allowPrivateAddresses);
    const response = await fetch(url, {
      redirect: "manual",
      signal,
      headers: { "user-agent": `Warren/${SOFTWARE_VERSION} (+${config.url}/)`, accept },
    });
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get("location");
      await response.body?.cancel().catch(() => {});
      if (!location) return null;
      url = new URL(location, url);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return null;
    }
    const contentType = response.headers.get("content-type") ?? "";
    const bytes = await readLimited(response, CARD_LIMITS.maxBytes);
    return { url, contentType, body: decode(bytes, contentType) };
  }
  return null;
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
