// Account, CredentialAccount and Role entities (API.md §4.1): the only place account records become JSON.
// Every key Mastodon 4.6 sends is here (reference/mastodon-4.6-keys.json); `suspended`, `limited` and
// `memorial` appear only when true, `noindex` and `roles` only for local accounts, `moved` only for an account
// that moved (its target, given by the caller's loader: domain/accounts/read.ts movedTargetOf), never nested twice.
// A remote account's counts are the larger of the stored counter and its collection's `totalItems`
// (federation/account-completion.ts).
import { t, type Static } from "elysia";
import { Int } from "./integer.ts";
import type { Config } from "../config.ts";
import { mediaUrl } from "../media/storage.ts";
import { publicId } from "../lib/ids.ts";
import { roleOf, type Role } from "../domain/accounts/roles.ts";
import { fieldValueHtml } from "../domain/accounts/field-html.ts";
import { Nullable } from "./nullable.ts";
import { presentRemoteEmoji } from "./custom-emoji.ts";
import type { AccountRecord, ProfileField, UserRecord } from "../model/accounts.ts";

const FieldSchema = t.Object({
  name: t.String(),
  value: t.String({ description: "HTML (plain text in `source.fields`)" }),
  verified_at: Nullable(t.String({ description: "ISO 8601 datetime of the rel=me verification" })),
});

const EmojiSchema = t.Object({
  shortcode: t.String(),
  url: t.String(),
  static_url: t.String(),
  visible_in_picker: t.Boolean(),
  category: t.Optional(Nullable(t.String())),
});

const BadgeSchema = t.Object({ id: t.String(), name: t.String(), color: t.String() }, { description: "Highlighted role" });

const FeatureApprovalSchema = t.Object({
  automatic: t.Array(t.String()),
  manual: t.Array(t.String()),
  current_user: t.Union([t.Literal("automatic"), t.Literal("manual"), t.Literal("missing"), t.Literal("unknown"), t.Literal("denied")], {
    description: "Whether the viewer may feature this account in a collection",
  }),
});

const accountProperties = {
  id: t.String(),
  username: t.String(),
  acct: t.String({ description: "username for local accounts, username@domain for remote ones" }),
  display_name: t.String(),
  locked: t.Boolean(),
  bot: t.Boolean(),
  discoverable: Nullable(t.Boolean()),
  indexable: t.Boolean(),
  group: t.Boolean(),
  created_at: t.String({ description: "Midnight UTC of the creation day" }),
  note: t.String({ description: "HTML bio" }),
  url: t.String(),
  uri: t.String(),
  avatar: t.String(),
  avatar_static: t.String(),
  avatar_description: t.String(),
  header: t.String(),
  header_static: t.String(),
  header_description: t.String(),
  followers_count: Int(),
  following_count: Int(),
  statuses_count: Int(),
  last_status_at: Nullable(t.String({ description: "YYYY-MM-DD" })),
  hide_collections: Nullable(t.Boolean()),
  show_media: t.Boolean(),
  show_media_replies: t.Boolean(),
  show_featured: t.Boolean(),
  noindex: t.Optional(t.Boolean({ description: "Local accounts only" })),
  emojis: t.Array(EmojiSchema),
  fields: t.Array(FieldSchema),
  roles: t.Optional(t.Array(BadgeSchema, { description: "Local accounts only" })),
  feature_approval: FeatureApprovalSchema,
  suspended: t.Optional(t.Literal(true)),
  limited: t.Optional(t.Literal(true)),
  memorial: t.Optional(t.Literal(true)),
};

/** The account a moved account points to: an Account without its own `moved`. */
const MovedSchema = t.Object(accountProperties, { description: "The account this one moved to (never with its own `moved`)" });

export const AccountSchema = t.Object({ ...accountProperties, moved: t.Optional(MovedSchema) }, { description: "Mastodon Account" });
export type Account = Static<typeof AccountSchema>;

export const RoleSchema = t.Object(
  {
    id: t.String(),
    name: t.String(),
    permissions: t.String({ description: "Permission bitmask as a decimal string" }),
    color: t.String(),
    highlighted: t.Boolean(),
    collection_limit: Int(),
  },
  { description: "Mastodon Role" },
);
type RoleEntity = Static<typeof RoleSchema>;

const SourceSchema = t.Object({
  privacy: t.String(),
  sensitive: t.Boolean(),
  language: Nullable(t.String()),
  note: t.String({ description: "Plain-text bio" }),
  fields: t.Array(FieldSchema),
  follow_requests_count: Int(),
  hide_collections: Nullable(t.Boolean()),
  discoverable: Nullable(t.Boolean()),
  indexable: t.Boolean(),
  attribution_domains: t.Array(t.String()),
  quote_policy: t.String(),
});

export const CredentialAccountSchema = t.Object(
  { ...accountProperties, source: SourceSchema, role: RoleSchema },
  { description: "Mastodon CredentialAccount: the signed-in user's own account" },
);
export type CredentialAccount = Static<typeof CredentialAccountSchema>;

function absolute(config: Config, url: string | null, fallback: string): string {
  return url ? mediaUrl(config, url)! : `${config.url}${fallback}`;
}

const DAY_MS = 86_400_000;

function midnight(ms: number): string {
  return new Date(ms - (ms % DAY_MS)).toISOString();
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function acctOf(account: AccountRecord): string {
  return account.domain ? `${account.username}@${account.domain}` : account.username;
}

function presentField(config: Config, account: AccountRecord, field: ProfileField) {
  return {
    name: field.name,
    value: fieldValueHtml(account, field, config.url),
    verified_at: isoOrNull(field.verifiedAt),
  };
}

/** Mastodon's Account#feature_policy_for_account, for accounts with no federated policy stored yet. */
function featureApproval(account: AccountRecord, viewerAccountId: string | null) {
  const local = account.domain === null;
  const shareable = local && account.discoverable;
  let current: "automatic" | "missing" | "denied";
  if (!viewerAccountId || (local && !account.discoverable)) current = "denied";
  else if (local || viewerAccountId === account.id) current = "automatic";
  else current = "missing";
  return { automatic: shareable ? ["public"] : [], manual: [], current_user: current };
}

export const DEFAULT_AVATAR_PATH = "/avatars/original/missing.png";
export const DEFAULT_HEADER_PATH = "/headers/original/missing.png";

/**
 * The Account entity. `viewerAccountId` (the signed-in viewer's account, if any) only affects
 * `feature_approval.current_user`. Suspended accounts are blanked as Mastodon does.
 */
export function presentAccount(config: Config, account: AccountRecord, viewerAccountId: string | null = null, movedTo: AccountRecord | null = null): Account {
  const local = account.domain === null;
  const gone = account.suspended;
  const avatar = absolute(config, gone ? null : account.avatarUrl, DEFAULT_AVATAR_PATH);
  const header = absolute(config, gone ? null : account.headerUrl, DEFAULT_HEADER_PATH);
  const role = roleOf(account.role);
  const out: Account = {
    id: publicId(account.id),
    username: account.username,
    acct: acctOf(account),
    display_name: gone ? "" : account.displayName,
    locked: gone ? false : account.locked,
    bot: gone ? false : account.bot,
    discoverable: gone ? false : account.discoverable,
    indexable: gone ? false : account.indexable,
    group: account.group,
    created_at: midnight(account.createdAt),
    note: gone ? "" : account.note,
    url: account.url || account.uri,
    uri: account.uri,
    avatar,
    avatar_static: avatar,
    avatar_description: gone ? "" : account.avatarDescription,
    header,
    header_static: header,
    header_description: gone ? "" : account.headerDescription,
    followers_count: Math.max(account.followersCount, account.collectionCounts?.followers ?? 0),
    following_count: Math.max(account.followingCount, account.collectionCounts?.following ?? 0),
    statuses_count: Math.max(account.statusesCount, account.collectionCounts?.statuses ?? 0),
    last_status_at: account.lastStatusAt === null ? null : new Date(account.lastStatusAt).toISOString().slice(0, 10),
    hide_collections: account.hideCollections,
    show_media: true,
    show_media_replies: true,
    show_featured: true,
    emojis: gone ? [] : (account.emojis ?? []).map((emoji) => presentRemoteEmoji(config, emoji)),
    fields: gone ? [] : account.fields.map((field) => presentField(config, account, field)),
    feature_approval: featureApproval(account, viewerAccountId),
  };
  if (local) {
    out.noindex = false;
    out.roles = !gone && role.highlighted ? [{ id: role.id, name: role.name, color: role.color }] : [];
  }
  if (account.suspended) out.suspended = true;
  if (account.silenced) out.limited = true;
  if (account.memorial) out.memorial = true;
  if (movedTo && account.movedToAccountId === movedTo.id) out.moved = presentAccount(config, movedTo, viewerAccountId);
  return out;
}

/** `movedTo`: the target of each moved account in the list (movedTargetOf), for its `moved`. */
export function presentAccounts(config: Config, accounts: readonly AccountRecord[], viewerAccountId: string | null = null, movedTo: (account: AccountRecord) => AccountRecord | null = () => null): Account[] {
  return accounts.map((account) => presentAccount(config, account, viewerAccountId, movedTo(account)));
}

export function presentRole(role: Role): RoleEntity {
  return {
    id: role.id,
    name: role.name,
    permissions: String(role.permissions),
    color: role.color,
    highlighted: role.highlighted,
    collection_limit: role.collectionLimit,
  };
}

interface CredentialExtras {
  /** Pending follow requests to this account (Mastodon caps the count at 40). */
  followRequestsCount?: number;
}

/** The signed-in user's own account: Account + `source` (plain-text originals, posting defaults) + `role`. */
export function presentCredentialAccount(
  config: Config,
  account: AccountRecord,
  user: UserRecord,
  extras: CredentialExtras = {},
): CredentialAccount {
  return {
    ...presentAccount(config, account, account.id),
    source: {
      privacy: user.privacy,
      sensitive: user.sensitive,
      language: user.language,
      note: account.noteSource,
      fields: account.fields.map((field) => ({ name: field.name, value: field.value, verified_at: isoOrNull(field.verifiedAt) })),
      follow_requests_count: Math.min(extras.followRequestsCount ?? 0, 40),
      hide_collections: account.hideCollections,
      discoverable: account.discoverable,
      indexable: account.indexable,
      attribution_domains: account.attributionDomains ?? [],
      quote_policy: user.quotePolicy ?? "public",
    },
    role: presentRole(roleOf(user.role)),
  };
}
