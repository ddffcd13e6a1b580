// Passwords are hashed with Bun.password (argon2id) and never stored or logged in the clear.
import { randomSecret } from "../../lib/secrets.ts";

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}

/** A password for accounts created by an operator (printed once by the CLI). */
export function generatePassword(): string {
  return randomSecret(24);
}
