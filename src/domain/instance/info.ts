// The facts behind /api/v1/instance, /api/v2/instance and nodeinfo: user statistics, known peers, the
// contact account and the operator's description. See docs/instance.md for what is counted.
import { feedAccessOf, type FeedAccess, type FeedKind } from "./feed-access.ts";
import type { Deps } from "../../deps.ts";
import type { RegistrationMode } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import { getSetting, putSetting } from "../../store/settings.ts";
import { accountIndexSize, remoteAccountDomains } from "../../store/instance.ts";
import { isActiveMember, memberTotals, membersActiveSince, ownerIds } from "../../store/member-figures.ts";
import { getAccount, getUser } from "../../store/accounts.ts";
import { appVapidKey } from "../oauth/apps.ts";
import { THUMBNAIL_BLURHASH } from "./artwork.ts";
import { SERVER_LANGUAGES } from "./languages.ts";
import { registrationMode } from "./registrations.ts";
import { instanceRules } from "./rules.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { RuleRecord } from "../../model/instance.ts";

/** Where Warren's source code lives (`source_url`). */
export const SOURCE_URL = "https://github.com/warren-social/warren";

const DAY_MS = 86_400_000;
const MONTH_MS = 30 * DAY_MS;
const HALF_YEAR_MS = 180 * DAY_MS;
/** Peers are recomputed when the account index changes size, and at least this often (an addition and a
 * removal can cancel out). */
const PEERS_TTL_MS = 10 * 60_000;

export interface InstanceUsage {
  /** users who may use the server: confirmed, approved, not disabled, not suspended */
  total: number;
  /** of those, active (signed up, signed in or posted) in the last 30 days */
  activeMonth: number;
  /** … in the last 180 days */
  activeHalfyear: number;
  /** statuses and reblogs of local accounts (the sum of their stored counters, as Mastodon counts) */
  localPosts: number;
}

export function instanceUsage(deps: Deps, now = Date.now()): InstanceUsage {
  // Kept figures (store/member-figures.ts): a few keys, however many users and tokens there are.
  const { members, posts } = memberTotals(deps.store);
  return {
    total: members,
    activeMonth: membersActiveSince(deps.store, now - MONTH_MS),
    activeHalfyear: membersActiveSince(deps.store, now - HALF_YEAR_MS),
    localPosts: posts,
  };
}

const peersMemo = new WeakMap<Store, { size: number; at: number; domains: string[] }>();

/** Domains of the remote accounts this server knows, sorted. */
export function knownPeers(deps: Deps, now = Date.now()): string[] {
  const size = accountIndexSize(deps.store);
  const memo = peersMemo.get(deps.store);
  if (memo && memo.size === size && now - memo.at < PEERS_TTL_MS) return memo.domains;
  const domains = [...remoteAccountDomains(deps.store)].sort();
  peersMemo.set(deps.store, { size, at: now, domains });
  return domains;
}

/** The instance's contact: the oldest Owner who is an active member, or null. */
export function contactAccount(deps: Deps): AccountRecord | null {
  // Only Owners are read (an index of them): this runs at every start (cli/owner-hint.ts) and for every instance answer.
  for (const id of ownerIds(deps.store)) {
    const user = getUser(deps.store, id);
    const account = getAccount(deps.store, id);
    if (user && account && isActiveMember(user, account)) return account;
  }
  return null;
}

export interface InstanceDescription {
  /** plain text as the operator wrote it; "" when unset */
  text: string;
  /** when it was last set; null when never */
  updatedAt: number | null;
}

export function instanceDescription(deps: Deps): InstanceDescription {
  return getSetting<InstanceDescription>(deps.store, "description") ?? { text: "", updatedAt: null };
}

/** Sets (or with "" clears) the description shown to clients, nodeinfo and the about page. */
export async function setInstanceDescription(deps: Deps, text: string, now = Date.now()): Promise<InstanceDescription> {
  const description: InstanceDescription = { text: text.trim(), updatedAt: now };
  await deps.store.write(() => putSetting(deps.store, "description", description));
  return description;
}

/** Everything the instance entities (v1 and v2) show besides configuration and limits. */
export interface InstanceFacts {
  registrations: RegistrationMode;
  usage: InstanceUsage;
  rules: RuleRecord[];
  contact: AccountRecord | null;
  description: InstanceDescription;
  languages: string[];
  vapidPublicKey: string;
  thumbnailBlurhash: string | null;
  /** Who may read the live (public) and topic (hashtag) feeds: feed-access.ts */
  feedAccess: Record<FeedKind, { local: FeedAccess; remote: FeedAccess }>;
}

export function instanceFacts(deps: Deps): InstanceFacts {
  return {
    registrations: registrationMode(deps),
    usage: instanceUsage(deps),
    rules: instanceRules(deps),
    contact: contactAccount(deps),
    description: instanceDescription(deps),
    languages: SERVER_LANGUAGES,
    vapidPublicKey: appVapidKey(deps.store),
    thumbnailBlurhash: THUMBNAIL_BLURHASH,
    feedAccess: { live: feedAccessOf(deps, "live"), topic: feedAccessOf(deps, "topic") },
  };
}

/** What NodeInfo reports. */
export function nodeFacts(deps: Deps): { usage: InstanceUsage; registrations: RegistrationMode; description: InstanceDescription } {
  return { usage: instanceUsage(deps), registrations: registrationMode(deps), description: instanceDescription(deps) };
}
