// The one place a StatusRecord is made: posting, reblogging and (with federation) the inbox all build theirs
// here, so every status starts with the same defaults (no counts, not edited, not deleted).
import { publicId } from "../../lib/ids.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { QuoteOfStatus, QuotePolicy, StatusRecord, Visibility } from "../../model/statuses.ts";

export interface StatusFields {
  id: string;
  author: AccountRecord;
  visibility: Visibility;
  createdAt: number;
  /** Remote statuses bring their own; local ones get theirs from the author's. */
  uri?: string;
  url?: string | null;
  text?: string;
  content?: string;
  spoilerText?: string;
  sensitive?: boolean;
  language?: string | null;
  inReplyTo?: StatusRecord | null;
  reblogOf?: StatusRecord | null;
  /** The OAuth app that posted it; null for reblogs' wrappers and for statuses from other servers. */
  applicationId?: string | null;
  mentionIds?: string[];
  tags?: string[];
  mediaIds?: string[];
  hasPoll?: boolean;
  /** Who may quote it (domain/quotes/policy.ts); left out: nobody */
  quotePolicy?: QuotePolicy;
  /** The status it quotes (domain/quotes/attach.ts) */
  quote?: QuoteOfStatus | null;
}

/** Where a local status lives: its ActivityPub id and its web page. */
function statusUrls(account: AccountRecord, id: string, reblog = false) {
  const uri = `${account.uri}/statuses/${publicId(id)}`;
  return { uri: reblog ? `${uri}/activity` : uri, url: `${account.url}/${publicId(id)}` };
}

export function newStatusRecord(fields: StatusFields): StatusRecord {
  const { author, id } = fields;
  const local = author.domain === null;
  const urls = local ? statusUrls(author, id, !!fields.reblogOf) : { uri: fields.uri!, url: fields.url ?? null };
  return {
    v: 1,
    id,
    accountId: author.id,
    uri: fields.uri ?? urls.uri,
    url: fields.url === undefined ? urls.url : fields.url,
    local,
    text: fields.text ?? "",
    content: fields.content ?? "",
    spoilerText: fields.spoilerText ?? "",
    sensitive: fields.sensitive ?? false,
    visibility: fields.visibility,
    language: fields.language ?? null,
    inReplyToId: fields.inReplyTo?.id ?? null,
    inReplyToAccountId: fields.inReplyTo?.accountId ?? null,
    reblogOfId: fields.reblogOf?.id ?? null,
    applicationId: fields.applicationId ?? null,
    mentionIds: fields.mentionIds ?? [],
    tags: fields.tags ?? [],
    mediaIds: fields.mediaIds ?? [],
    ...(fields.hasPoll ? { hasPoll: true } : {}),
    ...(fields.quotePolicy && fields.quotePolicy !== "nobody" ? { quotePolicy: fields.quotePolicy } : {}),
    ...(fields.quote ? { quote: fields.quote } : {}),
    repliesCount: 0,
    reblogsCount: 0,
    favouritesCount: 0,
    createdAt: fields.createdAt,
    editedAt: null,
    deletedAt: null,
  };
}
