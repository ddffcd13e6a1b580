// /settings/export (docs/web.md): the signed-in user's follows, blocks and mutes as Mastodon's CSV files,
// which Mastodon (and /settings/import) read back. Addresses are always `user@domain`, local ones too.
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import { END } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { BlockRecord, FollowRecord, MuteRecord } from "../../model/relationships.ts";

export const EXPORT_KINDS = ["following_accounts", "blocked_accounts", "muted_accounts"] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** A CSV cell: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

const address = (config: Pick<Config, "domain">, account: AccountRecord) => `${account.username}@${account.domain ?? config.domain}`;

function* rows(store: Store, config: Pick<Config, "domain">, kind: ExportKind, accountId: string, now: number): Iterable<string> {
  const keyspace = kind === "following_accounts" ? store.db.follows : kind === "blocked_accounts" ? store.db.blocks : store.db.mutes;
  for (const { value } of keyspace.getRange({ start: [accountId], end: [accountId, END] })) {
    const record = value as FollowRecord | BlockRecord | MuteRecord;
    if (record.accountId !== accountId) continue;
    const target = getAccount(store, record.targetId);
    if (!target || target.suspended) continue;
    const who = cell(address(config, target));
    if (kind === "following_accounts") {
      const follow = record as FollowRecord;
      yield `${who},${follow.reblogs},${follow.notify},${cell((follow.languages ?? []).join(", "))}`;
    } else if (kind === "muted_accounts") {
      const mute = record as MuteRecord;
      if (mute.expiresAt !== null && mute.expiresAt <= now) continue;
      yield `${who},${mute.notifications}`;
    } else {
      yield who;
    }
  }
}

const HEADERS: Record<ExportKind, string | null> = {
  following_accounts: "Account address,Show boosts,Notify on new posts,Languages",
  blocked_accounts: null,
  muted_accounts: "Account address,Hide notifications",
};

/** The whole file, lines ended with "\n" as Mastodon writes them. */
export function exportCsv(store: Store, config: Pick<Config, "domain">, kind: ExportKind, accountId: string, now = Date.now()): string {
  const lines = [...rows(store, config, kind, accountId, now)];
  const header = HEADERS[kind];
  if (header) lines.unshift(header);
  return lines.length ? `${lines.join("\n")}\n` : "";
}
