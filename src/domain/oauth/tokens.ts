// Issuing access tokens. The raw token is returned once; only its SHA-256 digest is stored.
import { newId } from "../../lib/ids.ts";
import { randomSecret, sha256 } from "../../lib/secrets.ts";
import type { Store } from "../../store/db.ts";
import { insertToken } from "../../store/oauth.ts";
import type { TokenRecord } from "../../model/auth.ts";

export interface IssuedToken {
  raw: string;
  record: TokenRecord;
}

/** Inside a write: creates a token for an app, and for an account unless it is an app token. */
export function issueToken(store: Store, appId: string, accountId: string | null, scopes: string[]): IssuedToken {
  const raw = randomSecret(32);
  const now = Date.now();
  const record: TokenRecord = { v: 1, id: newId(now), hash: sha256(raw), appId, accountId, scopes, createdAt: now, revokedAt: null };
  insertToken(store, record);
  return { raw, record };
}
