// Random secrets and their stored hashes. Tokens, client secrets and authorization codes are stored as
// SHA-256 digests only: a copy of the data directory does not hand out working credentials.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
