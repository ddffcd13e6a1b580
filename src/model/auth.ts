// Applications, tokens, sessions and the per-user records of signing in.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.

export interface AppRecord {
  v: 1;
  id: string;
  name: string;
  website: string | null;
  redirectUris: string[];
  scopes: string[];
  clientId: string;
  /** sha256 of the secret; the secret itself is shown once, at creation */
  clientSecretHash: string;
  createdAt: number;
}

export interface TokenRecord {
  v: 1;
  id: string;
  hash: string;
  appId: string;
  /** null for app (client_credentials) tokens */
  accountId: string | null;
  scopes: string[];
  createdAt: number;
  revokedAt: number | null;
}

export interface AuthorizationCodeRecord {
  v: 1;
  hash: string;
  appId: string;
  accountId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
  expiresAt: number;
  usedAt: number | null;
  /** hash of the token the code was exchanged for: revoked if the code is presented again */
  tokenHash?: string | null;
}

export type UserTokenPurpose = "confirmation" | "password_reset";

export interface UserTokenRecord {
  v: 1;
  hash: string;
  purpose: UserTokenPurpose;
  accountId: string;
  /** What the token is for: the address to confirm, or a digest of the password hash it may replace. */
  stamp: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export interface UserIp {
  ip: string;
  usedAt: number;
}

export interface WebSessionRecord {
  v: 1;
  /** sha256 of the cookie's session id */
  hash: string;
  /** Snowflake: names the session on /settings/sessions; its time is the creation time */
  id: string;
  accountId: string;
  createdAt: number;
  lastUsedAt: number;
  /** The address it signed in from (null when unknown) */
  ip: string | null;
  /** The browser's User-Agent at sign-in, capped */
  userAgent: string;
}
