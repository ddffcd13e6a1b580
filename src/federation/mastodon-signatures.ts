// draft-cavage HTTP signatures verified by Mastodon's rules where Fedify's verifier is stricter than what
// Mastodon sends and accepts: a verification step of our own, run only after Fedify found no signer (GETs:
// authorized-fetch.ts, status-objects.ts) or where Fedify is sure to refuse (inbox POSTs: inbox-fallback.ts).
//
// Fedify 2.3's verifyRequest (draft-cavage) builds `(request-target)` from the path without the query string
// and refuses any signature that does not cover `date`. Mastodon 4.x signs `(request-target)` with the query
// (`get /users/alice/followers?page=1`, http_signature_draft.rb) and does not retry, and Mastodon accepts an
// `hs2019` signature over `(created)` without a Date header. Here a signature is verified as Mastodon verifies
// it (app/lib/signed_request.rb): rsa-sha256 or hs2019; `(request-target)` covered, `host` on GETs, `digest`
// on POSTs (and the body's SHA-256 matching it); `date` or `(created)` covered and within the signature time
// window; `(expires)` not passed; the signed string tried with the query, then without. The key is fetched by
// Fedify's fetchKey through our document loader and its owner found by Fedify's getKeyOwner, so the
// key-to-actor rules are Fedify's.
import { createHash } from "node:crypto";
import { fetchKey, getKeyOwner, type DocumentLoader, type RequestContext } from "@fedify/fedify";
import { CryptographicKey } from "@fedify/vocab";

/** How far a signature's date (or `created`) may be from now: Warren's signatureTimeWindow (index.ts). */
const TIME_WINDOW_MS = 3600_000;

/** The signer found for each GET, so that several predicates on one request verify it once. */
const signers = new WeakMap<Request, Promise<URL | null>>();

interface CavageSignature {
  keyId: URL;
  covered: string[];
  params: Record<string, string>;
  signature: Uint8Array<ArrayBuffer>;
}

export interface Loaders {
  documentLoader: DocumentLoader;
  contextLoader: DocumentLoader;
}

function parseSignature(header: string): CavageSignature | null {
  const params: Record<string, string> = Object.create(null);
  for (const match of header.matchAll(/([A-Za-z]+)="?([^",]*)"?/g)) params[match[1]!] = match[2]!;
  const algorithm = (params.algorithm ?? "hs2019").toLowerCase();
  if (!params.keyId || !params.signature || !["rsa-sha256", "hs2019"].includes(algorithm)) return null;
  try {
    const covered = (params.headers ?? (algorithm === "hs2019" ? "(created)" : "date")).toLowerCase().split(/\s+/).filter(Boolean);
    return { keyId: new URL(params.keyId), covered, params, signature: new Uint8Array(Buffer.from(params.signature, "base64")) };
  } catch {
    return null;
  }
}

/** The headers a draft-cavage `Signature` covers (lower case), or null when there is none to read. */
export function coveredHeaders(request: Request): string[] | null {
  const header = request.headers.get("signature");
  return header && !request.headers.has("signature-input") ? (parseSignature(header)?.covered ?? null) : null;
}

/** Whether the body's SHA-256 is the one the Digest header gives (Mastodon reads only SHA-256). */
function digestMatches(request: Request, body: Uint8Array): boolean {
  const given = /(?:^|,)\s*sha-256=([^,\s]+)/i.exec(request.headers.get("digest") ?? "")?.[1];
  return given !== undefined && given === createHash("sha256").update(body).digest("base64");
}

/** Mastodon's checks that come before the key: what must be covered, the body, and when it was signed. */
function acceptable(request: Request, body: Uint8Array | null, { covered, params }: CavageSignature, now = Date.now()): boolean {
  if (!covered.includes("(request-target)")) return false;
  if (request.method === "POST" ? !covered.includes("digest") || !body || !digestMatches(request, body) : !covered.includes("host")) return false;
  const hs2019 = (params.algorithm ?? "hs2019").toLowerCase() === "hs2019";
  if ((covered.includes("(created)") || covered.includes("(expires)")) && !hs2019) return false;
  const date = request.headers.get("date");
  let signedAt: number;
  if (covered.includes("(created)") && params.created) signedAt = Number(params.created) * 1000;
  else if (covered.includes("date") && date) signedAt = Date.parse(date);
  else return false;
  if (!Number.isFinite(signedAt) || Math.abs(now - signedAt) > TIME_WINDOW_MS) return false;
  return !(params.expires && Number(params.expires) * 1000 < now);
}

function signedString(request: Request, { covered, params }: CavageSignature, withQuery: boolean): string {
  const url = new URL(request.url);
  return covered
    .map((name) => {
      if (name === "(request-target)") return `${name}: ${request.method.toLowerCase()} ${url.pathname}${withQuery ? url.search : ""}`;
      if (name === "(created)" || name === "(expires)") return `${name}: ${params[name.slice(1, -1)] ?? ""}`;
      if (name === "host") return `host: ${request.headers.get("host") ?? url.host}`;
      return `${name}: ${request.headers.get(name) ?? ""}`;
    })
    .join("\n");
}

/** The key owner of a draft-cavage signature Mastodon would accept on `request` (with `body` for a POST), or null. */
export async function mastodonSignatureOwner(request: Request, body: Uint8Array | null, loaders: Loaders): Promise<URL | null> {
  const header = request.headers.get("signature");
  if (!header || request.headers.has("signature-input")) return null;
  const signature = parseSignature(header);
  if (!signature || !acceptable(request, body, signature)) return null;
  const { key } = await fetchKey(signature.keyId, CryptographicKey, loaders).catch(() => ({ key: null }));
  if (!key?.publicKey) return null;
  for (const withQuery of [true, false]) {
    const data = new TextEncoder().encode(signedString(request, signature, withQuery));
    if (await crypto.subtle.verify("RSASSA-PKCS1-v1_5", key.publicKey, signature.signature, data)) {
      const owner = await getKeyOwner(key, loaders).catch(() => null);
      return owner?.id ?? null;
    }
  }
  return null;
}

/** The key owner of a valid signature on a GET (Fedify's verification, then Mastodon's rules), or null. */
export function signerOf(ctx: RequestContext<void>): Promise<URL | null> {
  let found = signers.get(ctx.request);
  if (!found) {
    const request = ctx.request;
    const get = request.method === "GET" || request.method === "HEAD";
    const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
    found = (async () => (await ctx.getSignedKeyOwner())?.id ?? (get ? await mastodonSignatureOwner(request, null, loaders) : null))();
    signers.set(request, found);
  }
  return found;
}
