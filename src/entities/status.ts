// Status entity (API.md §4.2): every key Mastodon 4.6 sends for the features Warren has. presentStatuses
// renders a whole page at once: accounts, applications, cards and the viewer's flags are read once per
// page (synchronous LMDB reads), counters come from the stored records.
import { t, type Static, type TSchema } from "elysia";
import { Int } from "./integer.ts";
import type { Deps } from "../deps.ts";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "../http/schemas.ts";
import type { Viewer } from "../domain/auth/viewer.ts";
import { getAccount } from "../store/accounts.ts";
import { getApp } from "../store/oauth.ts";
import type { AccountRecord, AppRecord, StatusRecord } from "../store/records.ts";
import { getStatus, reblogIdOf } from "../store/statuses.ts";
import { getCard } from "../store/statuses-cards.ts";
import { bookmarkIdOf, favouriteIdOf, pinIdOf } from "../store/statuses-interactions.ts";
import { AccountSchema, presentAccount, type Account } from "./account.ts";
import { presentStatusApplication, StatusApplicationSchema } from "./application.ts";
import { MentionSchema, presentMention } from "./mention.ts";
import { PreviewCardSchema, presentPreviewCard } from "./preview-card.ts";
import { presentStatusTag, StatusTagSchema } from "./tag.ts";

const VisibilitySchema = t.Union([t.Literal("public"), t.Literal("unlisted"), t.Literal("private"), t.Literal("direct")]);

const QuoteApprovalSchema = t.Object({
  automatic: t.Array(t.String()),
  manual: t.Array(t.String()),
  current_user: t.String({ description: "automatic, manual, denied or unknown" }),
});

const EmojiSchema = t.Object({ shortcode: t.String(), url: t.String(), static_url: t.String(), visible_in_picker: t.Boolean() });

/** The keys every status carries, without `content`/`text` and `reblog`. */
const baseProperties = {
  id: t.String(),
  created_at: t.String(),
  in_reply_to_id: Nullable(t.String()),
  in_reply_to_account_id: Nullable(t.String()),
  sensitive: t.Boolean(),
  spoiler_text: t.String(),
  visibility: VisibilitySchema,
  language: Nullable(t.String()),
  uri: t.String(),
  url: Nullable(t.String()),
  replies_count: Int(),
  reblogs_count: Int(),
  favourites_count: Int(),
  quotes_count: Int(),
  edited_at: Nullable(t.String()),
  favourited: t.Optional(t.Boolean({ description: "Signed-in viewers only" })),
  reblogged: t.Optional(t.Boolean({ description: "Signed-in viewers only" })),
  muted: t.Optional(t.Boolean({ description: "Signed-in viewers only: conversation muted" })),
  bookmarked: t.Optional(t.Boolean({ description: "Signed-in viewers only" })),
  pinned: t.Optional(t.Boolean({ description: "Only for the author's own pinnable statuses" })),
  filtered: t.Optional(t.Array(t.Unknown(), { description: "Signed-in viewers only (filters come later: always [])" })),
  application: t.Optional(Nullable(StatusApplicationSchema)),
  account: AccountSchema,
  media_attachments: t.Array(t.Unknown(), { description: "MediaAttachment[] (media upload comes later)" }),
  mentions: t.Array(MentionSchema),
  tags: t.Array(StatusTagSchema),
  emojis: t.Array(EmojiSchema),
  card: Nullable(PreviewCardSchema),
  poll: t.Null({ description: "Polls are not supported yet" }),
  quote: t.Null({ description: "Quote posts are not supported" }),
  quote_approval: QuoteApprovalSchema,
  tagged_collections: t.Array(t.Unknown()),
};

const withContent = <R extends TSchema>(reblog: R, description: string) =>
  t.Object({ ...baseProperties, content: t.String({ description: "HTML" }), reblog }, { description });
const withText = <R extends TSchema>(reblog: R, description: string) =>
  t.Object({ ...baseProperties, text: t.String({ description: "Source text" }), reblog }, { description });

export const StatusSchema = withContent(Nullable(withContent(t.Null(), "The reblogged Status")), "Mastodon Status");
/** DELETE /api/v1/statuses/:id: the deleted status with `text` (its source) instead of `content`. */
export const DeletedStatusSchema = withText(Nullable(withText(t.Null(), "The reblogged Status, with its source text")), "Deleted Status with its source text");

export type Status = Static<typeof StatusSchema>;
export type DeletedStatus = Static<typeof DeletedStatusSchema>;
type AnyStatus = Record<string, unknown>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Per-page caches: each account, app and original status is read once. */
class PageContext {
  private accounts = new Map<string, Account | null>();
  private apps = new Map<string, AppRecord | null>();
  constructor(
    readonly deps: Deps,
    readonly viewerId: string | null,
    readonly source: boolean,
  ) {}

  account(id: string): Account | null {
    let hit = this.accounts.get(id);
    if (hit === undefined) {
      const record = getAccount(this.deps.store, id);
      hit = record ? presentAccount(this.deps.config, record, this.viewerId) : null;
      this.accounts.set(id, hit);
    }
    return hit;
  }

  app(id: string): AppRecord | null {
    let hit = this.apps.get(id);
    if (hit === undefined) {
      hit = getApp(this.deps.store, id) ?? null;
      this.apps.set(id, hit);
    }
    return hit;
  }
}

function present(ctx: PageContext, status: StatusRecord, reblog: AnyStatus | null): AnyStatus | null {
  const { deps, viewerId } = ctx;
  const { store, config } = deps;
  const account = ctx.account(status.accountId);
  if (!account) return null;
  const mentioned = status.mentionIds.map((id) => getAccount(store, id)).filter((a): a is AccountRecord => !!a);
  const card = reblog ? undefined : getCard(store, status.id);
  const out: AnyStatus = {
    id: publicId(status.id),
    created_at: new Date(status.createdAt).toISOString(),
    in_reply_to_id: status.inReplyToId ? publicId(status.inReplyToId) : null,
    in_reply_to_account_id: status.inReplyToAccountId ? publicId(status.inReplyToAccountId) : null,
    sensitive: status.sensitive,
    spoiler_text: status.spoilerText,
    visibility: status.visibility,
    language: status.language,
    uri: status.uri,
    url: status.url,
    replies_count: status.repliesCount,
    reblogs_count: status.reblogsCount,
    favourites_count: status.favouritesCount,
    quotes_count: 0,
    edited_at: iso(status.editedAt),
  };
  if (viewerId) {
    // A reblog wrapper reports the viewer's flags of the status it wraps, as Mastodon does.
    const target = status.reblogOfId ?? status.id;
    out.favourited = !!favouriteIdOf(store, viewerId, target);
    out.reblogged = !!reblogIdOf(store, viewerId, target);
    out.muted = false;
    out.bookmarked = !!bookmarkIdOf(store, viewerId, target);
    if (viewerId === status.accountId && !status.reblogOfId && status.visibility !== "direct") {
      out.pinned = !!pinIdOf(store, viewerId, status.id);
    }
    out.filtered = [];
  }
  if (ctx.source) out.text = status.text;
  else out.content = status.content;
  out.reblog = reblog;
  if (status.local) {
    const app = status.applicationId ? ctx.app(status.applicationId) : null;
    out.application = app ? presentStatusApplication(app) : null;
  }
  out.account = account;
  out.media_attachments = [];
  out.mentions = mentioned.map(presentMention);
  out.tags = status.tags.map((name) => presentStatusTag(config, name));
  out.emojis = [];
  out.card = card ? presentPreviewCard(config, card, viewerId !== null) : null;
  out.poll = null;
  out.quote = null;
  out.quote_approval = { automatic: [], manual: [], current_user: viewerId ? "denied" : "unknown" };
  out.tagged_collections = [];
  return out;
}

export interface PresentOptions {
  /** DELETE's response: `text` (the source) instead of `content`. */
  source?: boolean;
}

function viewerIdOf(viewer: Pick<Viewer, "account"> | null): string | null {
  return viewer?.account?.id ?? null;
}

/** A page of statuses; reblog wrappers carry the status they wrap. Statuses whose author is gone are left out. */
export function presentStatuses(deps: Deps, viewer: Pick<Viewer, "account"> | null, statuses: readonly StatusRecord[], options: PresentOptions = {}): Status[] {
  const ctx = new PageContext(deps, viewerIdOf(viewer), options.source ?? false);
  const out: AnyStatus[] = [];
  for (const status of statuses) {
    let reblog: AnyStatus | null = null;
    if (status.reblogOfId) {
      const original = getStatus(deps.store, status.reblogOfId);
      reblog = original ? present(ctx, original, null) : null;
      if (!reblog) continue;
    }
    const presented = present(ctx, status, reblog);
    if (presented) out.push(presented);
  }
  return out as Status[];
}

export function presentStatus(deps: Deps, viewer: Pick<Viewer, "account"> | null, status: StatusRecord): Status {
  const [presented] = presentStatuses(deps, viewer, [status]);
  if (!presented) throw new Error(`status ${status.id} has no author`);
  return presented;
}

export function presentDeletedStatus(deps: Deps, viewer: Pick<Viewer, "account"> | null, status: StatusRecord): DeletedStatus {
  const [presented] = presentStatuses(deps, viewer, [status], { source: true });
  if (!presented) throw new Error(`status ${status.id} has no author`);
  return presented as unknown as DeletedStatus;
}
