// HMAC signing with a random per-instance secret kept in the store: CSRF tokens and the session cookie of
// the authorization page. The secret is created on first use and never leaves the data directory.
import { createHmac } from "node:crypto";
import type { Deps } from "../../deps.ts";
import { randomSecret, sameSecret } from "../../lib/secrets.ts";
import type { Store } from "../../store/db.ts";
import { getInstanceSecret, putInstanceSecret } from "../../store/oauth.ts";

const PURPOSE = "oauth-signing";
const cache = new WeakMap<Store, string>();

export async function signingSecret(deps: Deps): Promise<string> {
  const known = cache.get(deps.store) ?? getInstanceSecret(deps.store, PURPOSE);
  const secret =
    known ??
    (await deps.store.write(() => {
      const existing = getInstanceSecret(deps.store, PURPOSE);
      if (existing) return existing;
      const fresh = randomSecret(32);
      putInstanceSecret(deps.store, PURPOSE, fresh);
      return fresh;
    }));
  cache.set(deps.store, secret);
  return secret;
}

/** HMAC-SHA256 over the parts (joined unambiguously), base64url. */
export function sign(secret: string, ...parts: string[]): string {
  return createHmac("sha256", secret).update(parts.map((p) => `${p.length}:${p}`).join("|")).digest("base64url");
}

export function validSignature(secret: string, signature: string | undefined, ...parts: string[]): boolean {
  return typeof signature === "string" && sameSecret(signature, sign(secret, ...parts));
}
