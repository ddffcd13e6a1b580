// OAuth scopes (API.md §2.1). Routes name the most specific scopes they accept; `grants` decides whether a
// token's scopes imply one of them (`read` implies `read:accounts`, `follow` implies `write:follows`…).

// `collections`: Mastodon 4.6's collections API (domain/collections, docs/collections.md).
const READ = ["accounts", "blocks", "bookmarks", "collections", "favourites", "filters", "follows", "lists", "mutes", "notifications", "search", "statuses"];
const WRITE = ["accounts", "blocks", "bookmarks", "collections", "conversations", "favourites", "filters", "follows", "lists", "media", "mutes", "notifications", "reports", "statuses"];
const ADMIN = ["accounts", "reports", "domain_allows", "domain_blocks", "ip_blocks", "email_domain_blocks", "canonical_email_blocks"];
const FOLLOW_IMPLIES = ["read:blocks", "read:follows", "read:mutes", "write:blocks", "write:follows", "write:mutes"];

export const ALL_SCOPES: readonly string[] = [
  "read",
  ...READ.map((s) => `read:${s}`),
  "write",
  ...WRITE.map((s) => `write:${s}`),
  "follow",
  "push",
  "profile",
  "admin:read",
  ...ADMIN.map((s) => `admin:read:${s}`),
  "admin:write",
  ...ADMIN.map((s) => `admin:write:${s}`),
];

const KNOWN = new Set(ALL_SCOPES);

export const DEFAULT_SCOPES = ["read"];

/** Splits a space/plus separated scope string or an array; returns null when any scope is unknown. */
export function parseScopes(input: string | string[] | undefined | null): string[] | null {
  const words = (Array.isArray(input) ? input.join(" ") : (input ?? "")).split(/[\s+]+/).filter(Boolean);
  if (words.length === 0) return [...DEFAULT_SCOPES];
  const unique = [...new Set(words)];
  return unique.every((s) => KNOWN.has(s)) ? unique : null;
}

/** Does a single granted scope satisfy a required one? */
function implies(granted: string, required: string): boolean {
  if (granted === required) return true;
  if (granted === "follow") return FOLLOW_IMPLIES.includes(required);
  // read → read:x, write → write:x, admin:read → admin:read:x
  return required.startsWith(granted + ":") && granted !== "profile" && granted !== "push";
}

/**
 * The known scopes a granted list implies, worked out once per list: every request checks its token's scopes,
 * the same array while the token's viewer is kept (domain/auth/viewer.ts).
 */
const impliedBy = new WeakMap<readonly string[], ReadonlySet<string>>();

function impliedScopes(granted: readonly string[]): ReadonlySet<string> {
  let implied = impliedBy.get(granted);
  if (!implied) impliedBy.set(granted, (implied = new Set(ALL_SCOPES.filter((known) => granted.some((g) => implies(g, known))))));
  return implied;
}

/** True when the granted scopes satisfy at least one of the required ones. */
export function grants(granted: readonly string[], anyOf: readonly string[]): boolean {
  const implied = impliedScopes(granted);
  for (const required of anyOf) {
    if (implied.has(required) || (!KNOWN.has(required) && granted.some((g) => implies(g, required)))) return true;
  }
  return false;
}

/** True when every requested scope is covered by the allowed set (an app's scopes). */
export function subsetOf(requested: readonly string[], allowed: readonly string[]): boolean {
  return requested.every((r) => allowed.some((a) => implies(a, r)));
}
