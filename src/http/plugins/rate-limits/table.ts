// Mastodon's rack-attack throttles (API.md §11), by route and method. Each names what it counts: a client
// address bucket (client-ip.ts), an access token, a user, or the account a sign-in is for.
import type { Limit } from "./windows.ts";

export interface RequestFacts {
  method: string;
  path: string;
  /** The query carries max_id, min_id, since_id or page. */
  paging: boolean;
  /** The client's address bucket, worked out on first use: requests with a user token rarely need it. */
  ip(): string;
  /** Valid tokens only; an unknown token is an unauthenticated request. */
  tokenId: string | null;
  /** The account behind a user token (null for app tokens). */
  userId: string | null;
}

export interface SignInFacts {
  ip: string;
  /** The account the login names, or the login itself when it names none; null when none is known (a settings form without a session). */
  subject: string | null;
}

export interface Throttle<Facts> extends Limit {
  /** What this request counts against, or null when the throttle does not apply to it. */
  key(facts: Facts): string | null;
}

const MINUTES = 60;
const HOUR = 60 * MINUTES;

const isApi = (f: RequestFacts) => f.path.startsWith("/api");
const STATUS_DELETE = /^\/api\/v1\/statuses\/[^/]+\/?$/;
const UNREBLOG = /^\/api\/v1\/statuses\/[^/]+\/unreblog\/?$/;
const MEDIA_UPLOAD = /^\/api\/v[12]\/media\/?$/;
const isPost = (f: RequestFacts, path: string) => f.method === "POST" && (f.path === path || f.path === `${path}/`);

/** Checked before the body is read; applied in this order, the first exceeded one answers 429. */
export const REQUEST_THROTTLES: Throttle<RequestFacts>[] = [
  { name: "api_authenticated", limit: 1500, periodSeconds: 5 * MINUTES, key: (f) => (isApi(f) ? f.userId : null) },
  { name: "api_token", limit: 300, periodSeconds: 5 * MINUTES, key: (f) => (isApi(f) ? f.tokenId : null) },
  // App tokens have no user: their requests count per address as well, as Mastodon's do.
  { name: "api_unauthenticated", limit: 300, periodSeconds: 5 * MINUTES, key: (f) => (isApi(f) && !f.userId ? f.ip() : null) },
  {
    name: "media_upload",
    limit: 30,
    periodSeconds: 30 * MINUTES,
    key: (f) => (f.method === "POST" && MEDIA_UPLOAD.test(f.path) ? f.userId : null),
  },
  {
    name: "deletes",
    limit: 30,
    periodSeconds: 30 * MINUTES,
    key: (f) => ((f.method === "DELETE" && STATUS_DELETE.test(f.path)) || (f.method === "POST" && UNREBLOG.test(f.path)) ? f.userId : null),
  },
  // Mastodon's `reports` limiter family (400 a day per account); here counted per request, like the others.
  { name: "reports", limit: 400, periodSeconds: 24 * HOUR, key: (f) => (isPost(f, "/api/v1/reports") ? f.userId : null) },
  { name: "sign_up", limit: 5, periodSeconds: 30 * MINUTES, key: (f) => (isPost(f, "/api/v1/accounts") ? f.ip() : null) },
  { name: "app_registration", limit: 5, periodSeconds: 10 * MINUTES, key: (f) => (isPost(f, "/api/v1/apps") ? f.ip() : null) },
  // The people-facing pages (docs/web.md): Mastodon's limits per address on /auth
  { name: "web_sign_up", limit: 25, periodSeconds: 5 * MINUTES, key: (f) => (isPost(f, "/auth/sign_up") ? f.ip() : null) },
  { name: "password_resets_ip", limit: 25, periodSeconds: 5 * MINUTES, key: (f) => (isPost(f, "/auth/password/new") ? f.ip() : null) },
  {
    name: "email_confirmations_ip",
    limit: 25,
    periodSeconds: 5 * MINUTES,
    key: (f) => (isPost(f, "/auth/confirmation/new") || isPost(f, "/api/v1/emails/confirmations") ? f.ip() : null),
  },
  { name: "email_confirmations_user", limit: 5, periodSeconds: 30 * MINUTES, key: (f) => (isPost(f, "/api/v1/emails/confirmations") ? f.userId : null) },
  { name: "paging_authenticated", limit: 300, periodSeconds: 15 * MINUTES, key: (f) => (isApi(f) && f.paging ? f.userId : null) },
  { name: "paging_unauthenticated", limit: 300, periodSeconds: 15 * MINUTES, key: (f) => (isApi(f) && f.paging && !f.userId ? f.ip() : null) },
];

/**
 * Password checks: the password grant, the sign-in forms (/auth/sign_in, the authorization page) and the
 * settings forms asking for the current password. Mastodon's web sign-in limits; per address first, so that a
 * refused guess does not also use up the account's allowance.
 */
export const SIGN_IN_THROTTLES: Throttle<SignInFacts>[] = [
  { name: "sign_in_ip", limit: 25, periodSeconds: 5 * MINUTES, key: (f) => f.ip },
  { name: "sign_in_account", limit: 25, periodSeconds: HOUR, key: (f) => f.subject },
];

export interface MailFacts {
  path: string;
  /** The address the form names, trimmed and lower-cased. */
  email: string;
}

/** Forms that send mail to the address they name: 5 per address per 30 minutes, as Mastodon's. */
export const MAIL_THROTTLES: Throttle<MailFacts>[] = [
  { name: "password_resets_email", limit: 5, periodSeconds: 30 * MINUTES, key: (f) => (f.path === "/auth/password/new" ? f.email : null) },
  { name: "email_confirmations_email", limit: 5, periodSeconds: 30 * MINUTES, key: (f) => (f.path === "/auth/confirmation/new" ? f.email : null) },
];
