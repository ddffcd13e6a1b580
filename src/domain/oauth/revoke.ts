// POST /oauth/revoke (API.md §2.6, RFC 7009): a client revokes one of its own tokens. Unknown and already
// revoked tokens are answered as success, so the endpoint tells nothing about tokens the client does not hold.
import type { Deps } from "../../deps.ts";
import { OAuthError } from "../../lib/errors.ts";
import { sha256 } from "../../lib/secrets.ts";
import { findToken, revokeToken } from "../../store/oauth.ts";
import { authenticateClient, type ClientCredentials } from "./apps.ts";

export async function revokeClientToken(deps: Deps, credentials: ClientCredentials, rawToken: string | undefined, now = Date.now()): Promise<void> {
  const app = authenticateClient(deps.store, credentials);
  if (!rawToken) throw new OAuthError(400, "invalid_request", "Missing required parameter: token.");
  if (rawToken.length > 256) return;
  const hash = sha256(rawToken);
  const token = findToken(deps.store, hash);
  if (!token || token.revokedAt) return;
  if (token.appId !== app.id) {
    throw new OAuthError(403, "unauthorized_client", "You are not authorized to revoke this token");
  }
  await deps.store.write(() => {
    const current = findToken(deps.store, hash);
    if (current && !current.revokedAt) revokeToken(deps.store, current, now);
  });
}
