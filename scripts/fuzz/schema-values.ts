// Valid values from a schema: the request a careful client would send, with ids and names that exist.
import { bag, type Bag } from "./encode.ts";
import type { Random } from "./random.ts";
import type { Schema } from "./spec.ts";
import { text, valueByName, type Pools } from "./values.ts";

export function validValue(rng: Random, schema: Schema, name: string, path: string, pools: Pools): unknown {
  if (schema.enum) return rng.pick(schema.enum);
  if ("const" in schema) return schema.const;
  const named = valueByName(rng, name, path, pools);
  if (named !== undefined) return named;
  if (schema.anyOf && schema.anyOf.length > 0) return validValue(rng, rng.pick(schema.anyOf), name, path, pools);
  switch (schema.type) {
    case "boolean":
      return rng.chance(0.5);
    case "integer":
    case "number":
      return String(rng.int(0, 100));
    case "array":
      return Array.from({ length: rng.int(0, Math.min(3, schema.maxItems ?? 3)) }, () => validValue(rng, schema.items ?? {}, name, path, pools));
    case "object":
      return validObject(rng, schema, path, pools);
    default: {
      const value = text(rng);
      return schema.maxLength !== undefined ? value.slice(0, schema.maxLength) : value;
    }
  }
}

/**
 * Parameters a route needs although its schema leaves them optional (so that their absence gets the
 * route's own error, as on Mastodon): a valid request always sends them.
 */
const NEEDED = new Set(["client_id", "client_secret", "redirect_uri", "redirect_uris", "response_type", "grant_type", "client_name",
  "username", "password", "email", "agreement", "status", "title", "authenticity_token", "decision", "code_challenge_method", "acct", "resource", "account_ids"]);

/** Whether a valid request sends a parameter: always when required or needed, otherwise half of the time. */
export function included(rng: Random, name: string, required: boolean): boolean {
  return required || NEEDED.has(name) || rng.chance(0.5);
}

export function validObject(rng: Random, schema: Schema, path: string, pools: Pools): Bag {
  const out = bag();
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (included(rng, key, required.has(key))) out[key] = validValue(rng, property, key, path, pools);
  }
  return out;
}
