// HTTP signatures for the test peer, written from Mastodon's rules (app/lib/signed_request.rb, read as
// reference) with node:crypto only, so Fedify's own reading of the specs is not what judges Fedify's output.
// Verification: draft-cavage (`Signature: keyId=…,algorithm=…,headers=…,signature=…`) and, when
// `Signature-Input` is present, RFC 9421. Signing: draft-cavage as Mastodon sends it, or as variants Mastodon
// also accepts (hs2019 over `(created)` without `date`).
import { createHash, createVerify, createSign, type KeyObject } from "node:crypto";

/** Mastodon: a signature is valid until `created + 5 min` (or `expires`, capped at 12 h), plus 1 h of skew. */
const VALIDITY_MS = 5 * 60_000;
const EXPIRATION_LIMIT_MS = 12 * 3600_000;
const CLOCK_SKEW_MS = 3600_000;

export interface Verification {
  scheme: "draft-cavage" | "rfc9421" | "none";
  keyId: string | null;
  /** The actor owning the key, once fetched. */
  owner: string | null;
  ok: boolean;
  /** Why it failed, in Mastodon's words where it has some. */
  error?: string;
  algorithm?: string;
  /** Signed headers (draft-cavage) or components (RFC 9421), lower case. */
  covered: string[];
  /** draft-cavage: whether `(request-target)` matched with the query string (Mastodon's first try). */
  targetWithQuery?: boolean;
}

/** Fetches the public key `keyId` names: the PEM and the key's owner. */
export type KeyFetcher = (keyId: string) => Promise<{ pem: string; owner: string }>;

/** What the verifier needs of a received request (the body read once, as text). */
export interface RawRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}

const sha256 = (body: string) => createHash("sha256").update(body).digest("base64");

/** `a="x",b=123` (draft-cavage Signature header) as a map; values unquoted. */
export function parseCavageParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of header.matchAll(/([A-Za-z]+)=(?:"([^"]*)"|([^,\s]*))/g)) params[match[1]!] = match[2] ?? match[3] ?? "";
  return params;
}

function timeWindowError(createdMs: number | null, expiresMs: number | null, now = Date.now()): string | undefined {
  if (createdMs === null || Number.isNaN(createdMs)) return undefined;
  const expires = Math.min(expiresMs ?? createdMs + VALIDITY_MS, createdMs + EXPIRATION_LIMIT_MS);
  if (createdMs > now + CLOCK_SKEW_MS || now > expires + CLOCK_SKEW_MS) return "Signed request date outside acceptable time window";
}

function rsaVerify(pem: string | KeyObject, data: string, signature: Buffer): boolean {
  try {
    return createVerify("RSA-SHA256").update(data).verify(pem, signature);
  } catch {
    return false;
  }
}

function cavageSignedString(request: RawRequest, covered: string[], params: Record<string, string>, withQuery: boolean): string {
  return covered
    .map((name) => {
      if (name === "(request-target)") return `${name}: ${request.method.toLowerCase()} ${request.url.pathname}${withQuery ? request.url.search : ""}`;
      if (name === "(created)" || name === "(expires)") return `${name}: ${params[name.slice(1, -1)]}`;
      return `${name}: ${request.headers.get(name) ?? ""}`;
    })
    .join("\n");
}

/** The checks Mastodon makes before it looks at the key (strength, time, digest): the first error, if any. */
function cavageRulesError(request: RawRequest, params: Record<string, string>, covered: string[]): string | undefined {
  if (!params.keyId || !params.signature) return "Incompatible request signature. keyId and signature are required";
  const algorithm = params.algorithm ?? "hs2019";
  if (!["rsa-sha256", "hs2019"].includes(algorithm)) return "Unsupported signature algorithm (only rsa-sha256 and hs2019 are supported)";
  for (const pseudo of ["(created)", "(expires)"]) {
    if (!covered.includes(pseudo)) continue;
    if (algorithm !== "hs2019") return `Invalid pseudo-header ${pseudo} for rsa-sha256`;
    if (!params[pseudo.slice(1, -1)]) return `Pseudo-header ${pseudo} used but corresponding argument missing`;
  }
  const date = request.headers.get("date");
  const created = algorithm === "hs2019" && params.created ? Number(params.created) * 1000 : date ? Date.parse(date) : null;
  if (date && Number.isNaN(Date.parse(date))) return "Invalid Date header";
  const expires = params.expires ? Number(params.expires) * 1000 : null;
  const window = timeWindowError(created, expires);
  if (window) return window;
  if (!covered.includes("date") && !covered.includes("(created)")) return "Mastodon requires the Date header or (created) pseudo-header to be signed";
  if (!covered.includes("(request-target)") && !covered.includes("digest")) return "Mastodon requires the Digest header or (request-target) pseudo-header to be signed";
  if (request.method === "GET" && !covered.includes("host")) return "Mastodon requires the Host header to be signed when doing a GET request";
  if (request.method === "POST" && !covered.includes("digest")) return "Mastodon requires the Digest header to be signed when doing a POST request";
  if (covered.includes("digest")) {
    const digest = request.headers.get("digest");
    if (!digest) return "Digest header missing";
    const values = new Map(digest.split(",").map((part) => { const [k, ...v] = part.trim().split("="); return [k!.toLowerCase(), v.join("=")] as const; }));
    const given = values.get("sha-256");
    if (given === undefined) return `Mastodon only supports SHA-256 in Digest header. Offered algorithms: ${[...values.keys()].join(", ")}`;
    if (given !== sha256(request.body)) return `Invalid Digest value. Computed SHA-256 digest: ${sha256(request.body)}; given: ${given}`;
  }
}

async function verifyCavage(request: RawRequest, fetchKey: KeyFetcher): Promise<Verification> {
  const params = parseCavageParams(request.headers.get("signature")!);
  const algorithm = params.algorithm ?? "hs2019";
  const covered = (params.headers ?? (algorithm === "hs2019" ? "(created)" : "date")).toLowerCase().split(/\s+/).filter(Boolean);
  const result: Verification = { scheme: "draft-cavage", keyId: params.keyId ?? null, owner: null, ok: false, algorithm, covered };
  const error = cavageRulesError(request, params, covered);
  if (error) return { ...result, error };
  const key = await fetchKey(params.keyId!).catch((e) => ({ error: String(e) }));
  if ("error" in key) return { ...result, error: `key ${params.keyId} could not be fetched: ${key.error}` };
  const signature = Buffer.from(params.signature!, "base64");
  for (const withQuery of [true, false]) {
    if (rsaVerify(key.pem, cavageSignedString(request, covered, params, withQuery), signature)) {
      return { ...result, owner: key.owner, ok: true, targetWithQuery: withQuery };
    }
  }
  return { ...result, owner: key.owner, error: "Verification failed" };
}

interface Rfc9421Input {
  label: string;
  components: string[];
  /** The parameters exactly as sent, after the inner list (`;alg=…;keyid=…;created=…`). */
  rawParams: string;
  params: Record<string, string>;
}

/** The first member of a Signature-Input dictionary (Mastodon reads the first signature). */
export function parseSignatureInput(header: string): Rfc9421Input | null {
  const match = /^\s*([a-z*][a-z0-9_.*-]*)=\(([^)]*)\)((?:;[a-z*][a-z0-9_.*-]*=(?:"[^"]*"|[^;,\s]*))*)/.exec(header);
  if (!match) return null;
  const components = [...match[2]!.matchAll(/"([^"]*)"/g)].map((m) => m[1]!.toLowerCase());
  const params: Record<string, string> = {};
  for (const p of match[3]!.matchAll(/;([a-z*][a-z0-9_.*-]*)=(?:"([^"]*)"|([^;,\s]*))/g)) params[p[1]!] = p[2] ?? p[3] ?? "";
  return { label: match[1]!, components, rawParams: match[3]!.slice(1), params };
}

function componentValue(request: RawRequest, name: string): string | null {
  const url = request.url;
  switch (name) {
    case "@method": return request.method.toUpperCase();
    case "@target-uri": return url.href;
    case "@authority": return url.host.toLowerCase();
    case "@scheme": return url.protocol.slice(0, -1);
    case "@path": return url.pathname;
    case "@query": return url.search || "?";
    case "@request-target": return `${url.pathname}${url.search}`;
    default: return name.startsWith("@") ? null : request.headers.get(name);
  }
}

function rfc9421RulesError(request: RawRequest, input: Rfc9421Input): string | undefined {
  if (!input.params.keyid || !input.params.created) return "Incompatible request signature. keyid and created are required";
  if (input.params.alg && input.params.alg !== "rsa-v1_5-sha256") return `Unsupported algorithm ${input.params.alg}`;
  const window = timeWindowError(Number(input.params.created) * 1000, input.params.expires ? Number(input.params.expires) * 1000 : null);
  if (window) return window;
  if (!input.components.includes("@method") || !input.components.includes("@target-uri")) return "Mastodon requires the @method and @target-uri derived components to be signed";
  if (request.method === "POST" && !input.components.includes("content-digest")) return "Mastodon requires the Content-Digest header to be signed when doing a POST request";
  if (input.components.includes("content-digest")) {
    const header = request.headers.get("content-digest");
    if (!header) return "Content-Digest header missing";
    const given = /(?:^|,)\s*sha-256=:([^:]*):/.exec(header)?.[1];
    if (given === undefined) return "Mastodon only supports SHA-256 in Content-Digest header";
    if (given !== sha256(request.body)) return `Invalid Digest value. Computed SHA-256 digest: ${sha256(request.body)}; given: ${given}`;
  }
}

async function verifyRfc9421(request: RawRequest, fetchKey: KeyFetcher): Promise<Verification> {
  const input = parseSignatureInput(request.headers.get("signature-input")!);
  const base: Verification = { scheme: "rfc9421", keyId: input?.params.keyid ?? null, owner: null, ok: false, covered: input?.components ?? [] };
  if (!input) return { ...base, error: "Signature-Input could not be parsed" };
  base.algorithm = input.params.alg;
  const error = rfc9421RulesError(request, input);
  if (error) return { ...base, error };
  const lines: string[] = [];
  for (const name of input.components) {
    const value = componentValue(request, name);
    if (value === null) return { ...base, error: `component ${name} missing from the request` };
    lines.push(`"${name}": ${value}`);
  }
  lines.push(`"@signature-params": (${input.components.map((c) => `"${c}"`).join(" ")});${input.rawParams}`);
  const signature = new RegExp(`(?:^|,)\\s*${input.label}=:([^:]*):`).exec(request.headers.get("signature") ?? "")?.[1];
  if (signature === undefined) return { ...base, error: `no signature labelled ${input.label}` };
  const key = await fetchKey(input.params.keyid!).catch((e) => ({ error: String(e) }));
  if ("error" in key) return { ...base, error: `key ${input.params.keyid} could not be fetched: ${key.error}` };
  const ok = rsaVerify(key.pem, lines.join("\n"), Buffer.from(signature, "base64"));
  return { ...base, owner: key.owner, ok, ...(ok ? {} : { error: "Verification failed" }) };
}

/** Verifies `request` as Mastodon 4.4+ would (RFC 9421 when Signature-Input is present, draft-cavage else). */
export async function verifySignature(request: RawRequest, fetchKey: KeyFetcher): Promise<Verification> {
  if (request.headers.get("signature-input")) return verifyRfc9421(request, fetchKey);
  if (request.headers.get("signature")) return verifyCavage(request, fetchKey);
  return { scheme: "none", keyId: null, owner: null, ok: false, covered: [], error: "Request not signed" };
}

export interface SignOptions {
  keyId: string;
  privateKey: KeyObject;
  /** Mastodon's way (default): rsa-sha256 over (request-target) with the query, host, date (and digest). */
  style?: "mastodon" | "hs2019-created";
  /** Leave the query out of (request-target) (what old Mastodon and Fedify's verifier expect). */
  targetWithoutQuery?: boolean;
  /** Signs as if it were this many seconds from now (negative: a stale signature). */
  createdOffsetSeconds?: number;
}

/** Headers for a draft-cavage-signed request (Date, Digest for a body, Signature). */
export function signCavage(method: string, url: URL, headers: Record<string, string>, body: string | null, options: SignOptions): Record<string, string> {
  const out: Record<string, string> = { ...headers, host: url.host };
  const created = Math.floor(Date.now() / 1000) + (options.createdOffsetSeconds ?? 0);
  const target = `(request-target): ${method.toLowerCase()} ${url.pathname}${options.targetWithoutQuery ? "" : url.search}`;
  const lines = [target, `host: ${url.host}`];
  const covered = ["(request-target)", "host"];
  if (options.style === "hs2019-created") {
    lines.push(`(created): ${created}`);
    covered.push("(created)");
  } else {
    out.date = new Date(created * 1000).toUTCString();
    lines.push(`date: ${out.date}`);
    covered.push("date");
  }
  if (body !== null) {
    out.digest = `SHA-256=${sha256(body)}`;
    lines.push(`digest: ${out.digest}`);
    covered.push("digest");
  }
  const signature = createSign("RSA-SHA256").update(lines.join("\n")).sign(options.privateKey, "base64");
  const algorithm = options.style === "hs2019-created" ? `algorithm="hs2019",created=${created}` : `algorithm="rsa-sha256"`;
  out.signature = `keyId="${options.keyId}",${algorithm},headers="${covered.join(" ")}",signature="${signature}"`;
  return out;
}
