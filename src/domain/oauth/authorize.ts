// The authorization request of the code flow (API.md §2.4, RFC 6749 §4.1, RFC 7636 PKCE): checking it and
// issuing the authorization code. Problems found before the redirect URI is known to be registered are
// shown to the user, never sent to an unverified URI; later problems go back to the client's redirect URI.
import type { Deps } from "../../deps.ts";
import { randomSecret, sha256 } from "../../lib/secrets.ts";
import type { Store } from "../../store/db.ts";
import { findAppByClientId, putAuthorizationCode, removeExpiredAuthorizationCodes } from "../../store/oauth.ts";
import { parseScopes, subsetOf } from "../scopes.ts";
import { OOB_REDIRECT_URI } from "./apps.ts";
import type { AppRecord, AuthorizationCodeRecord } from "../../model/auth.ts";

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const MAX_STATE_LENGTH = 2048;
export const PKCE_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface AuthorizationParams {
  response_type?: string;
  response_mode?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export interface AuthorizationRequest {
  app: AppRecord;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string | null;
  responseMode: "query" | "fragment";
}

/** The request cannot be trusted to redirect anywhere: the user sees this message. */
export class AuthorizationPageError extends Error {}

/** Reported to the client through its registered redirect URI (`error`, `error_description`, `state`). */
export class AuthorizationRedirectError extends Error {
  constructor(
    readonly request: Pick<AuthorizationRequest, "redirectUri" | "state" | "responseMode">,
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export function checkAuthorizationRequest(store: Store, params: AuthorizationParams): AuthorizationRequest {
  const clientId = params.client_id ?? "";
  const app = clientId && clientId.length <= 256 ? findAppByClientId(store, clientId) : undefined;
  if (!app) throw new AuthorizationPageError("The application that sent you here is not registered on this server.");
  const redirectUri = params.redirect_uri ?? "";
  if (!redirectUri) throw new AuthorizationPageError("The request does not say where to return to (redirect_uri is missing).");
  if (!app.redirectUris.includes(redirectUri)) {
    throw new AuthorizationPageError("The redirect URI included is not valid: it is not one the application registered.");
  }
  // An over-long state is refused, and not echoed back truncated.
  const state = params.state && params.state.length <= MAX_STATE_LENGTH ? params.state : null;
  const responseMode = params.response_mode === "fragment" ? "fragment" : "query";
  const fail = (code: string, description: string) => new AuthorizationRedirectError({ redirectUri, state, responseMode }, code, description);

  if (params.response_mode && !["query", "fragment"].includes(params.response_mode)) {
    throw fail("invalid_request", "The requested response mode is not supported.");
  }
  if (params.state && params.state.length > MAX_STATE_LENGTH) throw fail("invalid_request", "The state parameter is too long.");
  if (!params.response_type) throw fail("invalid_request", "Missing required parameter: response_type.");
  if (params.response_type !== "code") {
    throw fail("unsupported_response_type", "The authorization server does not support this response type.");
  }
  const scopes = (params.scope ?? "").length <= 1024 ? parseScopes(params.scope) : null;
  if (!scopes || !subsetOf(scopes, app.scopes)) {
    throw fail("invalid_scope", "The requested scope is invalid, unknown, or malformed.");
  }
  const method = params.code_challenge_method;
  const challenge = params.code_challenge || null;
  if ((method && method !== "S256") || (challenge && method !== "S256")) {
    throw fail("invalid_request", "Only the S256 code challenge method is supported.");
  }
  if (challenge && !PKCE_PATTERN.test(challenge)) throw fail("invalid_request", "The code challenge is malformed.");
  return { app, redirectUri, scopes, state, codeChallenge: challenge, responseMode };
}

export function isOutOfBand(request: Pick<AuthorizationRequest, "redirectUri">): boolean {
  return request.redirectUri === OOB_REDIRECT_URI;
}

/** Where the browser goes next: the redirect URI with the result (and the state) in its query or fragment. */
export function redirectLocation(
  request: Pick<AuthorizationRequest, "redirectUri" | "state" | "responseMode">,
  result: Record<string, string>,
): string {
  const params = new URLSearchParams(result);
  if (request.state !== null) params.set("state", request.state);
  const base = request.redirectUri;
  if (request.responseMode === "fragment") return `${base}#${params}`;
  return `${base}${base.includes("?") ? "&" : "?"}${params}`;
}

/** Issues a single-use code bound to the app, account, redirect URI, scopes and PKCE challenge. */
export async function issueAuthorizationCode(deps: Deps, request: AuthorizationRequest, accountId: string, now = Date.now()): Promise<string> {
  const raw = randomSecret(32);
  const record: AuthorizationCodeRecord = {
    v: 1,
    hash: sha256(raw),
    appId: request.app.id,
    accountId,
    redirectUri: request.redirectUri,
    scopes: request.scopes,
    codeChallenge: request.codeChallenge,
    expiresAt: now + CODE_LIFETIME_MS,
    usedAt: null,
    tokenHash: null,
  };
  await deps.store.write(() => {
    removeExpiredAuthorizationCodes(deps.store, now);
    putAuthorizationCode(deps.store, record);
  });
  return raw;
}
