// The shapes stored in LMDB. Times are unix milliseconds. `v` is the record's schema version.

export type RoleName = "Owner" | "Admin" | "Moderator" | "User";

export interface ProfileField {
  name: string;
  value: string;
  verifiedAt: number | null;
}

export interface AccountRecord {
  v: 1;
  id: string;
  username: string;
  /** null for local accounts */
  domain: string | null;
  displayName: string;
  /** HTML bio as shown to clients */
  note: string;
  /** Plain-text bio as the owner typed it (local accounts) */
  noteSource: string;
  fields: ProfileField[];
  locked: boolean;
  bot: boolean;
  group: boolean;
  discoverable: boolean;
  indexable: boolean;
  hideCollections: boolean;
  avatarUrl: string | null;
  avatarDescription: string;
  headerUrl: string | null;
  headerDescription: string;
  createdAt: number;
  /** ActivityPub actor and endpoints (local ones are derived from the instance URL at creation) */
  uri: string;
  url: string;
  inbox: string;
  sharedInbox: string | null;
  outbox: string;
  followersUrl: string;
  followingUrl: string;
  publicKeyPem: string;
  /** local accounts only */
  privateKeyPem: string | null;
  statusesCount: number;
  followersCount: number;
  followingCount: number;
  lastStatusAt: number | null;
  suspended: boolean;
  silenced: boolean;
  memorial: boolean;
}

export interface UserRecord {
  v: 1;
  accountId: string;
  email: string;
  passwordHash: string;
  role: RoleName;
  approved: boolean;
  confirmedAt: number | null;
  disabled: boolean;
  locale: string;
  /** reason given at sign-up when approval is required */
  reason: string | null;
  createdAt: number;
  createdByAppId: string | null;
  /** posting defaults (CredentialAccount.source) */
  privacy: "public" | "unlisted" | "private" | "direct";
  sensitive: boolean;
  language: string | null;
}

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
}
