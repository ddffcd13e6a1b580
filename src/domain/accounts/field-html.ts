// A profile's text as HTML, the one rendering the API (entities/account.ts) and the ActivityPub actor
// (federation/actor.ts) both serve, as Mastodon's TextFormatter renders account text:
// - a field value (Formatter#format_field): a local value is stored as typed (plain text), so it is escaped,
//   its URLs linked with rel="me" for verification and its #hashtags linked, on one line; @mentions stay
//   text (rendering needs no store lookup); a remote value was sanitised on arrival (lib/sanitize.ts) and is
//   served as stored;
// - the bio (rendered once, when it is saved): paragraphs, links, #hashtags and @mentions of known accounts
//   linked as in a status (domain/statuses/format.ts), which the actor's `tag` lists (profileTags).
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import { findAccountByAcct } from "../../store/accounts.ts";
import { hashtagsAsWritten, parseStatusText, renderStatus, type MentionTarget } from "../statuses/format.ts";
import type { AccountRecord, ProfileField } from "../../model/accounts.ts";

/** Texts longer than this are not parsed for links (a bio is at most 500 characters, a value 255). */
const MAX_PARSED_LENGTH = 10_000;

export function fieldValueHtml(account: AccountRecord, field: ProfileField, baseUrl: string): string {
  if (account.domain !== null) return field.value;
  return renderStatus(parseStatusText(field.value.slice(0, MAX_PARSED_LENGTH)), baseUrl, () => undefined, { relMe: true, multiline: false }).html;
}

/** A `@user` or `@user@domain` of a known, unsuspended account as a mention target. */
function knownAccount(store: Store, config: Config) {
  return (username: string, domain: string | null): (MentionTarget & { uri: string; acct: string }) | undefined => {
    const local = domain === null || domain.toLowerCase() === config.domain.toLowerCase();
    const account = findAccountByAcct(store, username, local ? null : domain);
    if (!account || account.suspended) return undefined;
    return { id: account.id, username: account.username, url: account.url || account.uri, uri: account.uri, acct: `@${account.username}@${account.domain ?? config.domain}` };
  };
}

/** The bio as HTML: paragraphs, links, hashtags and mentions of known accounts. */
export function bioHtml(store: Store, config: Config, text: string): string {
  return renderStatus(parseStatusText(text.slice(0, MAX_PARSED_LENGTH)), config.url, knownAccount(store, config)).html;
}

export interface ProfileTags {
  /** Mentioned accounts: ActivityPub id and `@user@domain`. */
  mentions: { uri: string; acct: string }[];
  /** Hashtags as the author wrote them, without `#`. */
  hashtags: string[];
}

/** What a local bio mentions and tags (for the actor's `tag`), each once, in order. */
export function profileTags(store: Store, config: Config, account: AccountRecord): ProfileTags {
  const segments = parseStatusText(account.noteSource.slice(0, MAX_PARSED_LENGTH));
  const resolve = knownAccount(store, config);
  const mentions = new Map<string, { uri: string; acct: string }>();
  for (const s of segments) {
    const target = s.kind === "mention" ? resolve(s.username, s.domain) : undefined;
    if (target) mentions.set(target.uri, { uri: target.uri, acct: target.acct });
  }
  return { mentions: [...mentions.values()], hashtags: [...hashtagsAsWritten(segments).values()] };
}
