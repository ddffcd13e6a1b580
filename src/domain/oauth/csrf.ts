// CSRF protection of the authorization form: a signed double submit. The browser holds a random nonce in
// an HttpOnly cookie; the form carries HMAC(instance secret, nonce). Another site can neither read the
// form nor mint a matching pair, so a POST without both halves is refused.
import { randomSecret } from "../../lib/secrets.ts";
import { sign, validSignature } from "./signing.ts";

const NONCE_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export function newCsrfNonce(): string {
  return randomSecret(24);
}

export function isCsrfNonce(value: string | undefined): value is string {
  return typeof value === "string" && NONCE_PATTERN.test(value);
}

export function csrfToken(secret: string, nonce: string): string {
  return sign(secret, "csrf", nonce);
}

export function csrfValid(secret: string, nonce: string | undefined, token: string | undefined): boolean {
  return isCsrfNonce(nonce) && validSignature(secret, token, "csrf", nonce);
}
