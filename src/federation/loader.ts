// Fedify's document loaders on lib/safe-fetch.ts: every actor, key and object Fedify fetches goes through the
// same guard as link cards (no loopback or private addresses unless WARREN_ALLOW_PRIVATE_ADDRESSES=true, the
// address checked is the address connected to, redirects checked hop by hop), within a size and time limit.
// JSON-LD contexts Fedify ships with are answered from memory, never fetched. Every document GET is signed
// (draft-cavage, as Mastodon expects), so peers in secure mode (authorized fetch) answer it: the authenticated
// loader with the key it is given (a user's, when one is behind the fetch: its inbox's key fetches), the
// default loader with the instance actor's key (actor lookups, WebFinger-discovered actors, other key
// fetches), as Mastodon signs fetches no user is behind. Contexts are fetched unsigned.
import { FetchError, signRequest, type DocumentLoader } from "@fedify/fedify";
import { preloadedContexts } from "@fedify/vocab-runtime";
import type { Config } from "../config.ts";
import { safeFetch } from "../lib/safe-fetch.ts";

export const FETCH_LIMITS = { maxBytes: 1024 * 1024, timeoutMs: 10_000, maxRedirects: 3 } as const;

const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

export function userAgent(config: Config): string {
  return `Warren/0.1.0 (+${config.url}/)`;
}

/** GETs an ActivityPub document through the guard; `sign` adds signature headers to the request first. */
export async function fetchJsonDocument(
  config: Config,
  url: URL,
  sign?: (request: Request) => Promise<Request>,
): Promise<{ url: URL; document: unknown }> {
  let headers: Record<string, string> = { accept: ACCEPT, "user-agent": userAgent(config) };
  if (sign) {
    const signed = await sign(new Request(url.href, { headers }));
    headers = Object.fromEntries(signed.headers.entries());
  }
  const response = await safeFetch(url, { ...FETCH_LIMITS, allowPrivateAddresses: config.allowPrivateAddresses, headers });
  if (response.status < 200 || response.status >= 300) throw new FetchError(url, `HTTP ${response.status} from ${url.href}`);
  if (response.truncated) throw new FetchError(url, `${url.href} is larger than ${FETCH_LIMITS.maxBytes} bytes`);
  try {
    return { url: response.url, document: JSON.parse(new TextDecoder().decode(response.body)) };
  } catch {
    throw new FetchError(url, `${url.href} is not JSON`);
  }
}

export interface SigningKey {
  keyId: URL;
  privateKey: CryptoKey;
}

const signer = (key: SigningKey) => (request: Request) => signRequest(request, key.privateKey, key.keyId);

function loader(config: Config, sign?: (request: Request) => Promise<Request>): DocumentLoader {
  return async (href: string) => {
    if (Object.hasOwn(preloadedContexts, href)) {
      return { contextUrl: null, documentUrl: href, document: preloadedContexts[href] };
    }
    const { url, document } = await fetchJsonDocument(config, new URL(href), sign);
    return { contextUrl: null, documentUrl: url.href, document };
  };
}

/** Fedify's loader factories for `config` (createFederation's documentLoaderFactory and the others);
 * `instanceKey` gives the instance actor's RSA key, which signs the default loader's GETs. */
export function documentLoaders(config: Config, instanceKey: () => Promise<SigningKey>) {
  return {
    documentLoaderFactory: () => loader(config, async (request) => signer(await instanceKey())(request)),
    contextLoaderFactory: () => loader(config),
    authenticatedDocumentLoaderFactory: (identity: SigningKey) => loader(config, signer(identity)),
  };
}
