// Domain and e-mail blocks, warnings and reports.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.

export type DomainBlockSeverity = "silence" | "suspend" | "noop";

export interface DomainBlockRecord {
  v: 1;
  id: string;
  /** normalised: lower case, ASCII (punycode), no trailing dot */
  domain: string;
  severity: DomainBlockSeverity;
  rejectMedia: boolean;
  rejectReports: boolean;
  privateComment: string | null;
  publicComment: string | null;
  /** show the domain partly masked in public lists */
  obfuscate: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface EmailDomainBlockRecord {
  v: 1;
  id: string;
  domain: string;
  /** sign-ups from the domain are taken, but wait for approval, instead of being refused */
  allowWithApproval: boolean;
  createdAt: number;
}

export type WarningAction = "none" | "disable" | "sensitive" | "silence" | "suspend";

export interface AccountWarningRecord {
  v: 1;
  id: string;
  accountId: string;
  /** the staff member's account; null for the operator at the console */
  actorId: string | null;
  action: WarningAction;
  text: string;
  reportId: string | null;
  createdAt: number;
}

export type ReportCategory = "spam" | "legal" | "violation" | "other";

export interface ReportRecord {
  v: 1;
  id: string;
  /** the reporter (a local account today; remote ones with incoming `Flag`s) */
  accountId: string;
  targetAccountId: string;
  statusIds: string[];
  /** null when the report names no rules (Mastodon renders `rule_ids: null`) */
  ruleIds: string[] | null;
  comment: string;
  category: ReportCategory;
  /** The reporter asked for the report to be forwarded to the remote account's server (remote targets only). */
  forwarded: boolean;
  /** OAuth app the report was filed with (null for remote reports) */
  applicationId: string | null;
  /** ActivityPub id of the `Flag` (reports that arrived from other servers; null for local ones) */
  uri: string | null;
  assignedAccountId: string | null;
  actionTakenAt: number | null;
  actionTakenByAccountId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface CanonicalEmailBlockRecord {
  v: 1;
  id: string;
  /** hexadecimal SHA-256 of the canonical address (domain/admin/canonical-email-blocks.ts) */
  hash: string;
  createdAt: number;
}

export interface DomainAllowRecord {
  v: 1;
  id: string;
  /** normalised as a domain block's */
  domain: string;
  createdAt: number;
}

export type IpBlockSeverity = "sign_up_requires_approval" | "sign_up_block" | "no_access";

export interface IpBlockRecord {
  v: 1;
  id: string;
  /** the network as "address/prefix", the address masked to the prefix */
  ip: string;
  severity: IpBlockSeverity;
  comment: string;
  createdAt: number;
  /** ms since the epoch; null: never */
  expiresAt: number | null;
}
