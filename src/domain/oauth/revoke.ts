// POST /oauth/revoke (API.md §2.6, RFC 7009) as Doorkeeper answers it for Mastodon: a client revokes one of its
// own tokens. A client that does not authenticate (Phanpy's logout sends client_id=undefined) is refused with 403
// unauthorized_client before any token is looked at, and the token keeps working; a missing, unknown or already
// revoked token is answered as success, so the endpoint tells nothing about tokens the client does not hold.
import type { Deps } from "../../deps.ts";
import { OAuthError } from "../../lib/errors.ts";
import { sha256 } from "../../lib/secrets.ts";
import { findToken, revokeToken } from "../../store/oauth.ts";
import { authenticateClient, type ClientCredentials } from "./apps.ts";

export async function revokeClientToken(deps: Deps, credentials: ClientCredentials, rawToken: string | undefined, now = Date.now()): Promise<void> {
  const app = authenticatedOrRefused(deps, credentials);
  if (!rawToken || rawToken.length > 256) return;
  const hash = sha256(rawToken);
  const token = findToken(deps.store, hash);
  if (!token || token.revokedAt) return;
  if (token.appId !== app.id) throw refused();
  await deps.store.write(() => {
    const current = findToken(deps.store, hash);
    if (current && !current.revokedAt) revokeToken(deps.store, current, now);
  });
}

const refused = () => new OAuthError(403, "unauthorized_client", "You are not authorized to revoke this token");

/** Doorkeeper's validate_presence_of_client: no authenticated client, no revocation. */
function authenticatedOrRefused(deps: Deps, credentials: ClientCredentials) {
  try {
    return authenticateClient(deps.store, credentials);
  } catch (error) {
    if (error instanceof OAuthError) throw refused();
    throw error;
  }
}
