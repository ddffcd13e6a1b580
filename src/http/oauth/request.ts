// Transport helpers of the OAuth endpoints: string-only parameters, HTTP Basic client credentials, cookies.
import type { ClientCredentials } from "../../domain/oauth/apps.ts";

/**
 * OAuth parameters are plain strings. Anything else (arrays from `x[]=`, nested objects, JSON booleans) is
 * dropped before validation, so garbage reads as a missing parameter and gets an OAuth error, not a 422.
 */
export function onlyStrings(bag: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!bag || typeof bag !== "object") return out;
  for (const [key, value] of Object.entries(bag)) if (typeof value === "string") out[key] = value;
  return out;
}

function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** client_secret_basic (RFC 6749 §2.3.1) wins over client_secret_post; a malformed Basic header fails. */
export function clientCredentials(request: Request, body: { client_id?: string; client_secret?: string }): ClientCredentials {
  const header = request.headers.get("authorization");
  if (header && /^basic\s/i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return {};
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  }
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function setCookie(name: string, value: string, options: { path: string; maxAgeSeconds?: number; secure: boolean }): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, "HttpOnly", "SameSite=Lax"];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}
