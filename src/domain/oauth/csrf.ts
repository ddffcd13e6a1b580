// CSRF protection of the web forms. Before sign-in: a signed double submit, the browser holding a random
// nonce in an HttpOnly cookie and the form carrying HMAC(instance secret, nonce). Once signed in, the token is
// HMAC(instance secret, session id) instead, and a nonce token is refused: a nonce cookie planted by someone
// else (a sibling subdomain can set cookies) together with its token does not work with the victim's session.
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

/** The token of a signed-in browser's forms: bound to its session id. */
export function sessionCsrfToken(secret: string, sessionId: string): string {
  return sign(secret, "csrf-session", sessionId);
}

export function sessionCsrfValid(secret: string, sessionId: string, token: string | undefined): boolean {
  return validSignature(secret, token, "csrf-session", sessionId);
}
