// The keys of real Mastodon 4.6 responses per endpoint (a copy of the project's reference file): our
// entities must carry every key of the features we implement.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const REFERENCE = join(import.meta.dir, "../fixtures/mastodon-4.6-keys.json");

export function referenceKeys(endpoint: string): string[] {
  const all = JSON.parse(readFileSync(REFERENCE, "utf8")) as Record<string, string[]>;
  const keys = all[endpoint];
  if (!keys) throw new Error(`no reference keys for ${endpoint}`);
  return keys;
}

/** Dotted keys (`fields.name`, `role.permissions`) missing from `body`; arrays must hold the key in every element. */
export function missingKeys(body: unknown, keys: readonly string[]): string[] {
  const missing: string[] = [];
  for (const key of keys) {
    const parts = key.split(".");
    if (!has(body, parts)) missing.push(key);
  }
  return missing;
}

function has(node: unknown, parts: string[]): boolean {
  if (parts.length === 0) return true;
  if (Array.isArray(node)) return node.length > 0 && node.every((item) => has(item, parts));
  if (typeof node !== "object" || node === null) return false;
  const [head, ...rest] = parts;
  return head! in node && has((node as Record<string, unknown>)[head!], rest);
}
