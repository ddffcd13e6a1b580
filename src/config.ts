// Environment → typed configuration. Every variable is optional: `npm start` on a fresh checkout serves a
// working instance. An invalid value stops start-up with one line naming the variable (ConfigError).
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import ipaddr from "ipaddr.js";
import { MAX_JOB_WORKERS } from "./lib/ids.ts";

export type RegistrationMode = "open" | "approval" | "closed";

export interface Config {
  port: number;
  dataDir: string;
  /** Public base URL without trailing slash, e.g. https://social.example */
  url: string;
  /** Host part of `url` (with port when not default), used for acct and WebFinger. */
  domain: string;
  registrations: RegistrationMode;
  passwordGrant: boolean;
  requireEmailConfirmation: boolean;
  /** Worker threads for the job queue; 0 runs jobs on the main thread. */
  jobWorkers: number;
  /** Server processes `warren serve` starts on the one data directory (src/cluster, docs/scaling.md). */
  processes: number;
  /** WARREN_PROCESS_HEADER: answers carry X-Warren-Pid (src/http/plugins/process-header.ts). */
  processHeader: boolean;
  /** Extra job handler modules (absolute paths) from WARREN_JOB_HANDLERS_EXTRA; see docs/jobs.md. */
  jobHandlerModules: string[];
  smtp: SmtpConfig | null;
  instanceTitle: string;
  contactEmail: string;
  /** Mastodon's rack-attack throttles (src/http/plugins/rate-limits.ts); off only for benchmarks and tests. */
  rateLimits: boolean;
  /** Every rate limit is multiplied by this (an instance behind one shared NAT may want more). */
  rateLimitFactor: number;
  /** Proxies (addresses or CIDR ranges) besides loopback whose X-Forwarded-For names the client. */
  trustedProxies: string[];
  allowPrivateAddresses: boolean;
  /** First retry delay of a failed delivery (doubling, 10 attempts, at most 12 h apart): docs/federation.md. */
  deliveryRetryMs: number;
  /** How long deliveries to a failing server (circuit open) are held before one probe is sent. */
  deliveryRecoveryMs: number;
  /** How long after a vote on a local poll its new counts go out as an Update (votes meanwhile share it). */
  pollUpdateDelayMs: number;
  /** Mastodon's secure mode: ActivityPub GETs of collections need a signature, unsigned actor GETs get a reduced
   * actor, signers from suspended domains or blocked by the owner are refused (docs/federation.md). */
  authorizedFetch: boolean;
  /** Visitors without an account see public posts (front page, public and hashtag timelines); the CLI setting wins. */
  timelinePreview: boolean;
  /** Check every response against its schema (a mismatch is a logged 500). On under tests and development. */
  checkResponses: boolean;
  /** Largest JSON, form or multipart body a route without uploads accepts (uploads declare their own). */
  maxBodyBytes: number;
  /** How long a whole request body may take to arrive; slower senders get 408. */
  bodyTimeoutMs: number;
  /** Send `X-Warren-Cache: hit|miss` on timeline pages (tests and benchmarks check the page cache with it). */
  cacheStatusHeader: boolean;
  /** Cut timeline pages below a max_id from windows of the feed (http/cache/page-windows.ts); off: build each. */
  pageWindows: boolean;
  /** A Meilisearch server for search (src/search/meilisearch.ts); null: the embedded index (docs/search.md). */
  meilisearch: MeilisearchConfig | null;
  /** Days a suspended account's data is kept (unsuspending restores it) before it is deleted; 0: at once (docs/admin.md). */
  suspensionRetentionDays: number;
  /** Hard cap of one video/audio transcode (its budget is proportional to the work, at most this): docs/media.md. */
  mediaTranscodeMaxMs: number;
  /** Days copies of remote media are kept before the daily clean-up removes them (re-fetched when read); 0: kept (docs/media.md). */
  mediaCacheDays: number;
  /** Bearer token that may read /metrics from anywhere (loopback may without it); null: loopback only (docs/metrics.md). */
  metricsToken: string | null;
  /** Log lines as text or as one JSON object each, with the request's id. Checked here; src/lib/log.ts reads the
   * variable itself, since it logs in worker threads and before the configuration is loaded. */
  logFormat: "text" | "json";
  /** Media on S3-compatible object storage (src/media/s3-store.ts); null or absent: files under `<dataDir>/media` (docs/media.md). */
  s3?: S3Config | null;
}

export interface S3Config {
  /** The S3 API's base URL, e.g. https://s3.eu-central-1.amazonaws.com or http://127.0.0.1:9000 */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Public base URL of the bucket or its CDN without trailing slash (Mastodon's S3_ALIAS_HOST): media URLs start with it. */
  publicUrl: string;
}

export interface MeilisearchConfig {
  /** base URL, e.g. http://127.0.0.1:7700 */
  url: string;
  /** API key (a master or search+documents key); null when the server runs without one */
  key: string | null;
}

export interface SmtpConfig {
  url?: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  from: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return n;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (["true", "1", "yes", "on"].includes(raw.toLowerCase())) return true;
  if (["false", "0", "no", "off"].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function choice<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(", ")}, got "${raw}"`);
  }
  return raw as T;
}

/** Comma or space separated IP addresses and CIDR ranges, e.g. "10.0.0.0/8, 2001:db8::1". */
function addressRanges(env: Env, name: string): string[] {
  const entries = (env[name] || "").split(/[\s,]+/).filter(Boolean);
  const invalid = entries.find((entry) => !ipaddr.isValidCIDR(entry) && !(isIP(entry) && ipaddr.isValid(entry)));
  if (invalid) throw new ConfigError(`${name} must list IP addresses or CIDR ranges, got "${invalid}"`);
  return entries;
}

function baseUrl(env: Env, port: number): URL {
  const raw = env.WARREN_URL || `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`WARREN_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (!["http:", "https:"].includes(url.protocol) || url.pathname !== "/" || url.search || url.hash) {
    throw new ConfigError(`WARREN_URL must be an http(s) origin without path, got "${raw}"`);
  }
  return url;
}

function smtp(env: Env): SmtpConfig | null {
  const from = env.WARREN_SMTP_FROM || "warren@localhost";
  if (env.WARREN_SMTP_URL) return { url: env.WARREN_SMTP_URL, from };
  if (!env.WARREN_SMTP_HOST) return null;
  return {
    host: env.WARREN_SMTP_HOST,
    port: integer(env, "WARREN_SMTP_PORT", 587, 1, 65535),
    user: env.WARREN_SMTP_USER,
    password: env.WARREN_SMTP_PASSWORD,
    from,
  };
}

function meilisearch(env: Env): MeilisearchConfig | null {
  const raw = env.WARREN_MEILISEARCH_URL;
  if (!raw) {
    if (env.WARREN_MEILISEARCH_KEY) throw new ConfigError("WARREN_MEILISEARCH_KEY is set but WARREN_MEILISEARCH_URL is not");
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`WARREN_MEILISEARCH_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (!["http:", "https:"].includes(url.protocol) || url.search || url.hash) {
    throw new ConfigError(`WARREN_MEILISEARCH_URL must be an http(s) URL without query, got "${raw}"`);
  }
  return { url: url.href.replace(/\/+$/, ""), key: env.WARREN_MEILISEARCH_KEY || null };
}

const S3_REQUIRED = ["WARREN_S3_ENDPOINT", "WARREN_S3_BUCKET", "WARREN_S3_ACCESS_KEY_ID", "WARREN_S3_SECRET_ACCESS_KEY", "WARREN_S3_PUBLIC_URL"] as const;

function httpUrl(env: Env, name: string): string {
  const raw = env[name]!;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {}
  if (!url || !["http:", "https:"].includes(url.protocol) || url.search || url.hash || url.username) {
    throw new ConfigError(`${name} must be an absolute http(s) URL without query, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, "");
}

/** All or nothing: with any WARREN_S3_* variable set, every required one must be (a half-configured bucket is an error, not local files). */
function s3(env: Env): S3Config | null {
  const present = S3_REQUIRED.filter((name) => env[name]);
  if (present.length === 0) {
    if (env.WARREN_S3_REGION) throw new ConfigError(`WARREN_S3_REGION is set but ${S3_REQUIRED.join(", ")} are not`);
    return null;
  }
  const missing = S3_REQUIRED.filter((name) => !env[name]);
  if (missing.length) throw new ConfigError(`object storage needs ${missing.join(", ")} as well (${present.join(", ")} ${present.length === 1 ? "is" : "are"} set)`);
  const bucket = env.WARREN_S3_BUCKET!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError(`WARREN_S3_BUCKET must be a bucket name (3-63 of a-z 0-9 . -), got "${bucket}"`);
  return {
    endpoint: httpUrl(env, "WARREN_S3_ENDPOINT"),
    bucket,
    region: env.WARREN_S3_REGION || "us-east-1",
    accessKeyId: env.WARREN_S3_ACCESS_KEY_ID!,
    secretAccessKey: env.WARREN_S3_SECRET_ACCESS_KEY!,
    publicUrl: httpUrl(env, "WARREN_S3_PUBLIC_URL"),
  };
}

/** WARREN_PROCESSES: a count, or `auto` for one per core. */
/**
 * The most server processes one supervisor runs: each needs an id tag of its own (lib/ids.ts: 15, one kept
 * for a rolling restart's extra process; the CLI commands beside them have 16 more).
 */
export const MAX_PROCESSES = 14;

function processCount(env: Env): number {
  if (env.WARREN_PROCESSES?.trim() === "auto") return Math.min(availableParallelism(), MAX_PROCESSES);
  return integer(env, "WARREN_PROCESSES", 1, 1, MAX_PROCESSES);
}

/** A guessable token would open /metrics to anyone: at least 16 characters without spaces. */
function metricsToken(env: Env): string | null {
  const raw = env.WARREN_METRICS_TOKEN;
  if (raw === undefined || raw === "") return null;
  if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError("WARREN_METRICS_TOKEN must be at least 16 characters without spaces");
  return raw;
}

/** The most WARREN_MEDIA_TRANSCODE_MAX_SECONDS may be; the media job's own time limit is set above it. */
export const MAX_TRANSCODE_SECONDS = 3600;

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, "WARREN_PORT", 3000, 0, 65535);
  const url = baseUrl(env, port);
  return {
    port,
    dataDir: resolve(env.WARREN_DATA_DIR || "./data"),
    url: url.origin,
    domain: url.host,
    registrations: choice(env, "WARREN_REGISTRATIONS", ["open", "approval", "closed"] as const, "approval"),
    passwordGrant: flag(env, "WARREN_PASSWORD_GRANT", true),
    requireEmailConfirmation: flag(env, "WARREN_REQUIRE_EMAIL_CONFIRMATION", false),
    jobWorkers: integer(env, "WARREN_JOB_WORKERS", 2, 0, MAX_JOB_WORKERS),
    processes: processCount(env),
    processHeader: flag(env, "WARREN_PROCESS_HEADER", false),
    jobHandlerModules: (env.WARREN_JOB_HANDLERS_EXTRA || "").split(",").filter((p) => p.trim()).map((p) => resolve(p.trim())),
    smtp: smtp(env),
    instanceTitle: env.WARREN_TITLE || "Warren",
    contactEmail: env.WARREN_CONTACT_EMAIL || "",
    rateLimits: flag(env, "WARREN_RATE_LIMITS", true),
    rateLimitFactor: integer(env, "WARREN_RATE_LIMIT_FACTOR", 1, 1, 1_000_000),
    trustedProxies: addressRanges(env, "WARREN_TRUSTED_PROXIES"),
    allowPrivateAddresses: flag(env, "WARREN_ALLOW_PRIVATE_ADDRESSES", false),
    deliveryRetryMs: integer(env, "WARREN_DELIVERY_RETRY_MS", 1000, 1, 24 * 60 * 60 * 1000),
    deliveryRecoveryMs: integer(env, "WARREN_DELIVERY_RECOVERY_MS", 30 * 60 * 1000, 1, 7 * 24 * 60 * 60 * 1000),
    pollUpdateDelayMs: integer(env, "WARREN_POLL_UPDATE_DELAY_MS", 3 * 60 * 1000, 0, 60 * 60 * 1000),
    authorizedFetch: flag(env, "WARREN_AUTHORIZED_FETCH", false),
    timelinePreview: flag(env, "WARREN_TIMELINE_PREVIEW", true),
    checkResponses: flag(env, "WARREN_CHECK_RESPONSES", env.NODE_ENV === "test" || env.NODE_ENV === "development"),
    maxBodyBytes: integer(env, "WARREN_MAX_BODY_BYTES", 1024 * 1024, 1024, 1024 * 1024 * 1024),
    bodyTimeoutMs: integer(env, "WARREN_BODY_TIMEOUT_SECONDS", 30, 1, 3600) * 1000,
    cacheStatusHeader: flag(env, "WARREN_CACHE_STATUS_HEADER", false),
    pageWindows: flag(env, "WARREN_PAGE_WINDOWS", true),
    meilisearch: meilisearch(env),
    suspensionRetentionDays: integer(env, "WARREN_SUSPENSION_RETENTION_DAYS", 30, 0, 3650),
    mediaTranscodeMaxMs: integer(env, "WARREN_MEDIA_TRANSCODE_MAX_SECONDS", 300, 1, MAX_TRANSCODE_SECONDS) * 1000,
    mediaCacheDays: integer(env, "WARREN_MEDIA_CACHE_DAYS", 7, 0, 36500),
    metricsToken: metricsToken(env),
    logFormat: choice(env, "WARREN_LOG_FORMAT", ["text", "json"] as const, "text"),
    s3: s3(env),
  };
}
