// POST /oauth/token grants (API.md §2.5): authorization_code (with PKCE), client_credentials and, unless the
// operator turns it off, password. The client is already authenticated. Errors are RFC 6749's.
import { noteUserIp } from "../../store/user-ips.ts";
import { createHash } from "node:crypto";
import type { Deps } from "../../deps.ts";
import { OAuthError } from "../../lib/errors.ts";
import { sameSecret, sha256 } from "../../lib/secrets.ts";
import { getAccount, getUser } from "../../store/accounts.ts";
import { findAuthorizationCode, findToken, putAuthorizationCode, revokeToken } from "../../store/oauth.ts";
import { parseScopes, subsetOf } from "../scopes.ts";
import { authenticateClient, type ClientCredentials } from "./apps.ts";
import { PKCE_PATTERN } from "./authorize.ts";
import { mayUseLogin, signIn } from "./sign-in.ts";
import { issueToken, type IssuedToken } from "./tokens.ts";
import type { AppRecord } from "../../model/auth.ts";

export interface TokenRequest {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  scope?: string;
  username?: string;
  password?: string;
}

/** Grant types this instance accepts (the discovery document lists the same). */
export function grantTypes(deps: Deps): string[] {
  return deps.config.passwordGrant ? ["authorization_code", "client_credentials", "password"] : ["authorization_code", "client_credentials"];
}

const invalidGrant = () =>
  new OAuthError(
    400,
    "invalid_grant",
    "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
  );

const missing = (name: string) => new OAuthError(400, "invalid_request", `Missing required parameter: ${name}.`);

/** Requested scopes, defaulting to `read`; they must be known and within the app's registration. */
function requestedScopes(app: AppRecord, scope: string | undefined): string[] {
  const scopes = (scope ?? "").length <= 1024 ? parseScopes(scope) : null;
  if (!scopes || !subsetOf(scopes, app.scopes)) {
    throw new OAuthError(400, "invalid_scope", "The requested scope is invalid, unknown, or malformed.");
  }
  return scopes;
}

function pkceChallenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

async function authorizationCodeGrant(deps: Deps, app: AppRecord, input: TokenRequest, now: number, clientIp: string | null): Promise<IssuedToken> {
  if (!input.code) throw missing("code");
  if (!input.redirect_uri) throw missing("redirect_uri");
  const hash = input.code.length <= 256 ? sha256(input.code) : "";
  const code = hash ? findAuthorizationCode(deps.store, hash) : undefined;
  if (!code || code.appId !== app.id || code.expiresAt <= now || code.redirectUri !== input.redirect_uri) throw invalidGrant();
  if (code.codeChallenge) {
    const verifier = input.code_verifier ?? "";
    if (!verifier) throw missing("code_verifier");
    if (!PKCE_PATTERN.test(verifier) || !sameSecret(pkceChallenge(verifier), code.codeChallenge)) throw invalidGrant();
  } else if (input.code_verifier) {
    // PKCE downgrade (RFC 9700 §2.1.1): a verifier for a code issued without a challenge means the code
    // was not issued to the party that holds the verifier.
    throw invalidGrant();
  }
  const account = getAccount(deps.store, code.accountId);
  const user = getUser(deps.store, code.accountId);
  if (!account || !user || !mayUseLogin(account, user)) throw invalidGrant();

  // Checked again inside the transaction, so two concurrent exchanges cannot both succeed. A code presented
  // a second time revokes the token it was exchanged for (RFC 6749 §4.1.2).
  const issued = await deps.store.write(() => {
    const current = findAuthorizationCode(deps.store, code.hash);
    if (!current || current.usedAt) {
      const earlier = current?.tokenHash ? findToken(deps.store, current.tokenHash) : undefined;
      if (earlier && !earlier.revokedAt) revokeToken(deps.store, earlier, now);
      return null;
    }
    const token = issueToken(deps.store, app.id, code.accountId, code.scopes);
    putAuthorizationCode(deps.store, { ...current, usedAt: now, tokenHash: token.record.hash });
    if (clientIp) noteUserIp(deps.store, code.accountId, clientIp, now);
    return token;
  });
  if (!issued) throw invalidGrant();
  return issued;
}

async function passwordGrant(deps: Deps, app: AppRecord, input: TokenRequest, now: number, clientIp: string | null): Promise<IssuedToken> {
  if (!input.username) throw missing("username");
  if (!input.password) throw missing("password");
  const scopes = requestedScopes(app, input.scope);
  const result = await signIn(deps.store, input.username, input.password);
  if (!result.ok) throw invalidGrant();
  return deps.store.write(() => {
    if (clientIp) noteUserIp(deps.store, result.account.id, clientIp, now);
    return issueToken(deps.store, app.id, result.account.id, scopes);
  });
}

/** Authenticates the client, then runs the grant. The grant type is checked first: an unsupported one is
 * refused whoever asks. A user's sign-in is recorded with `clientIp` (Admin::Account `ips`). */
export async function exchangeToken(
  deps: Deps,
  credentials: ClientCredentials,
  input: TokenRequest,
  clientIp: string | null = null,
  now = Date.now(),
): Promise<IssuedToken> {
  if (!input.grant_type) throw missing("grant_type");
  if (!grantTypes(deps).includes(input.grant_type)) {
    throw new OAuthError(400, "unsupported_grant_type", "The authorization grant type is not supported by the authorization server.");
  }
  const app = authenticateClient(deps.store, credentials);
  switch (input.grant_type) {
    case "authorization_code":
      return authorizationCodeGrant(deps, app, input, now, clientIp);
    case "password":
      return passwordGrant(deps, app, input, now, clientIp);
    default: {
      const scopes = requestedScopes(app, input.scope);
      return deps.store.write(() => issueToken(deps.store, app.id, null, scopes));
    }
  }
}
