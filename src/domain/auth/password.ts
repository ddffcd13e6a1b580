// Passwords are hashed with Bun.password (argon2id) and never stored or logged in the clear.
import { randomSecret } from "../../lib/secrets.ts";

// OWASP's recommended argon2id floor (19 MiB, 2 passes): about a third of Bun's default cost, which took
// ~600 ms per hash on a small shared VPS and made every sign-up and sign-in slow.
const ARGON2 = { algorithm: "argon2id", memoryCost: 19_456, timeCost: 2 } as const;

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, ARGON2);
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
