// OAuth client applications (API.md §2.2): registration with Mastodon's validation messages, and client
// authentication for the token and revocation endpoints. Client secrets are stored as SHA-256 digests.
import type { Deps } from "../../deps.ts";
import { newId } from "../../lib/ids.ts";
import { OAuthError, Unprocessable } from "../../lib/errors.ts";
import { randomSecret, sameSecret, sha256 } from "../../lib/secrets.ts";
import type { Store } from "../../store/db.ts";
import { findAppByClientId, insertApp, vapidPublicKey } from "../../store/oauth.ts";
import { APP_LIMITS } from "../limits.ts";
import { parseScopes } from "../scopes.ts";
import type { AppRecord } from "../../model/auth.ts";

export const OOB_REDIRECT_URI = "urn:ietf:wg:oauth:2.0:oob";
const FORBIDDEN_SCHEMES = new Set(["data:", "javascript:", "vbscript:"]);

export interface NewAppInput {
  client_name?: string;
  redirect_uris?: string | string[];
  scopes?: string | string[];
  website?: string;
}

/** Doorkeeper's redirect URI validation; returns the problem as Rails would word it, or null. */
function redirectUriProblem(uri: string): string | null {
  if (uri === OOB_REDIRECT_URI) return null;
  if (uri.includes("#")) return "cannot contain a fragment.";
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return "must be an absolute URI.";
  }
  if (FORBIDDEN_SCHEMES.has(parsed.protocol)) return "is forbidden by the server.";
  return null;
}

function splitRedirectUris(input: string | string[] | undefined): string[] {
  const parts = Array.isArray(input) ? input : [input ?? ""];
  return [...new Set(parts.flatMap((p) => p.split(/\s+/)).filter(Boolean))];
}

function isWebsite(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** Checks a registration; throws 422 `Validation failed: …` naming every problem, as Mastodon does. */
export function validateNewApp(input: NewAppInput): Omit<AppRecord, "v" | "id" | "clientId" | "clientSecretHash" | "createdAt"> {
  const problems: string[] = [];
  const name = (input.client_name ?? "").trim();
  if (!name) problems.push("Name can't be blank");
  else if (name.length > APP_LIMITS.maxNameLength) problems.push(`Name is too long (maximum is ${APP_LIMITS.maxNameLength} characters)`);

  const redirectUris = splitRedirectUris(input.redirect_uris);
  if (redirectUris.length === 0) problems.push("Redirect URI can't be blank");
  else if (redirectUris.join("\n").length > APP_LIMITS.maxRedirectUrisLength) {
    problems.push(`Redirect URI is too long (maximum is ${APP_LIMITS.maxRedirectUrisLength} characters)`);
  } else {
    const problem = redirectUris.map(redirectUriProblem).find((p) => p !== null);
    if (problem) problems.push(`Redirect URI ${problem}`);
  }

  const scopes = parseScopes(input.scopes);
  if (!scopes) problems.push("Scopes doesn't match configured on the server.");

  const website = (input.website ?? "").trim();
  if (website.length > APP_LIMITS.maxWebsiteLength) problems.push(`Website is too long (maximum is ${APP_LIMITS.maxWebsiteLength} characters)`);
  else if (website && !isWebsite(website)) problems.push("Website is invalid");

  if (problems.length) throw new Unprocessable(`Validation failed: ${problems.join(", ")}`);
  return { name, website: website || null, redirectUris, scopes: scopes! };
}

/** Registers an app; the client secret is returned once and only its digest is kept. */
export async function registerApp(deps: Deps, input: NewAppInput): Promise<{ app: AppRecord; clientSecret: string }> {
  const fields = validateNewApp(input);
  const clientSecret = randomSecret(32);
  const now = Date.now();
  const app: AppRecord = {
    v: 1,
    id: newId(now),
    ...fields,
    clientId: randomSecret(32),
    clientSecretHash: sha256(clientSecret),
    createdAt: now,
  };
  await deps.store.write(() => insertApp(deps.store, app));
  return { app, clientSecret };
}

export interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

/** RFC 6749 §2.3 client authentication: 401 invalid_client unless the id and secret match an app. */
export function authenticateClient(store: Store, credentials: ClientCredentials): AppRecord {
  const { clientId, clientSecret } = credentials;
  // Client ids are 43 characters; anything much longer is not one (and must not reach an LMDB key lookup).
  const app = clientId && clientId.length <= 256 ? findAppByClientId(store, clientId) : undefined;
  if (!app || !clientSecret || !sameSecret(sha256(clientSecret), app.clientSecretHash)) {
    throw new OAuthError(401, "invalid_client", "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.");
  }
  return app;
}

/** What apps report as `vapid_key`: the instance's Web Push public key (made on first start: domain/push/vapid.ts;
 * "" only for a store opened without it). */
export function appVapidKey(store: Store): string {
  return vapidPublicKey(store) ?? "";
}
