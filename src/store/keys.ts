// Every keyspace (a named LMDB sub-database) in one place. Keys are arrays that sort element by element:
// owner first, time-sortable id last, so Mastodon's max_id/since_id/min_id paging is one range scan.
// Ids inside keys are the fixed-width decimal strings of lib/ids.ts.

export const KEYSPACES = {
  /** "schema_version" → number; other instance-wide facts (e.g. "registrations") → value */
  meta: "meta",
  /** accountId → AccountRecord (local and remote) */
  accounts: "accounts",
  /** [usernameLower, domain | ""] → accountId */
  accountsByAcct: "accounts_by_acct",
  /** actor uri → accountId (remote and local) */
  accountsByUri: "accounts_by_uri",
  /** accountId → UserRecord (local sign-in: e-mail, password, role, approval) */
  users: "users",
  /** emailLower → accountId */
  usersByEmail: "users_by_email",
  /** appId → AppRecord */
  apps: "apps",
  /** clientId → appId */
  appsByClientId: "apps_by_client_id",
  /** sha256(token) → TokenRecord */
  tokens: "tokens",
  /** [accountId | appId, tokenHash] → true: lets revocation and account changes find tokens */
  tokensByOwner: "tokens_by_owner",
  /** sha256(code) → AuthorizationCodeRecord */
  authCodes: "auth_codes",
  /** jobs: [runAt (ms), jobId] → JobRecord */
  jobs: "jobs",
  /** jobId → ClaimedJob: taken by a worker, released on restart */
  jobsClaimed: "jobs_claimed",
  /** jobId → DeadJob: gave up after the attempt limit */
  jobsDead: "jobs_dead",
} as const;

export type KeyspaceName = keyof typeof KEYSPACES;
