// Status entity (API.md §4.2): every key Mastodon 4.6 sends for the features Warren has. presentStatuses
// renders a whole page at once (synchronous LMDB reads): the viewer's flags and cards per status, accounts
// once per commit, applications once (they never change); counters come from the stored records.
import { t, type Static, type TSchema } from "elysia";
import { Int } from "./integer.ts";
import type { Deps } from "../deps.ts";
import { publicId } from "../lib/ids.ts";
import { Nullable } from "../http/schemas.ts";
import type { Viewer } from "../domain/auth/viewer.ts";
import { commitScoped } from "../domain/snapshot.ts";
import { getAccount } from "../store/accounts.ts";
import { getApp } from "../store/oauth.ts";
import type { StatusRecord } from "../store/records.ts";
import { getStatus, reblogIdOf } from "../store/statuses.ts";
import { getCard } from "../store/statuses-cards.ts";
import { bookmarkIdOf, favouriteIdOf, pinIdOf } from "../store/statuses-interactions.ts";
import { AccountSchema, presentAccount, type Account } from "./account.ts";
import { presentStatusApplication, StatusApplicationSchema } from "./application.ts";
import { MentionSchema, presentMention, type Mention } from "./mention.ts";
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

type StatusApplication = Static<typeof StatusApplicationSchema>;

/**
 * `Status.application` by app id. Applications are never changed or removed once registered (store/oauth.ts
 * only inserts them), so what was read once stays exact: the record is not decoded again for every status.
 */
const applications = new WeakMap<Deps["store"], Map<string, StatusApplication | null>>();
const MAX_APPLICATIONS = 10_000;

function statusApplication(deps: Deps, id: string): StatusApplication | null {
  let known = applications.get(deps.store);
  if (!known || known.size >= MAX_APPLICATIONS) applications.set(deps.store, (known = new Map()));
  let hit = known.get(id);
  if (hit === undefined) {
    const app = getApp(deps.store, id);
    hit = app ? presentStatusApplication(app) : null;
    // An unknown id may be an app registered after this read: only found ones are kept.
    if (app) known.set(id, hit);
  }
  return hit;
}

interface ViewerFlags {
  favourited: boolean;
  reblogged: boolean;
  muted: boolean;
  bookmarked: boolean;
}

/**
 * Accounts as statuses show them (author and mentions). Kept while nothing has been committed (so they are
 * exact: an account changes only by a commit), shared by every page presented meanwhile: a client re-reading
 * a status, a thread or a timeline does not decode and present the same accounts again. Shared objects:
 * nothing may modify them after presentation.
 */
type People = Map<string, Account | Mention | null>;

/** Per-page state: the accounts of the current commit, and each status's viewer flags read once. */
class PageContext {
  private people: People;
  private flagsOf = new Map<string, ViewerFlags>();
  constructor(
    readonly deps: Deps,
    readonly viewerId: string | null,
    readonly source: boolean,
  ) {
    this.people = commitScoped(deps.store, "status-people");
  }

  /** The Account entity; its only viewer-dependent part (feature_approval) depends on being signed in. */
  account(id: string): Account | null {
    const key = this.viewerId ? `a+${id}` : `a-${id}`;
    let hit = this.people.get(key) as Account | null | undefined;
    if (hit === undefined) {
      const record = getAccount(this.deps.store, id);
      hit = record ? presentAccount(this.deps.config, record, this.viewerId) : null;
      this.people.set(key, hit);
    }
    return hit;
  }

  mention(id: string): Mention | null {
    const key = `m${id}`;
    let hit = this.people.get(key) as Mention | null | undefined;
    if (hit === undefined) {
      const record = getAccount(this.deps.store, id);
      hit = record ? presentMention(record) : null;
      this.people.set(key, hit);
    }
    return hit;
  }

  /** The viewer's flags on a status (a reblog wrapper and the status it wraps share them). */
  flags(viewerId: string, statusId: string): ViewerFlags {
    let hit = this.flagsOf.get(statusId);
    if (hit === undefined) {
      const { store } = this.deps;
      hit = {
        favourited: !!favouriteIdOf(store, viewerId, statusId),
        reblogged: !!reblogIdOf(store, viewerId, statusId),
        muted: false,
        bookmarked: !!bookmarkIdOf(store, viewerId, statusId),
      };
      this.flagsOf.set(statusId, hit);
    }
    return hit;
  }
}

function present(ctx: PageContext, status: StatusRecord, reblog: AnyStatus | null): AnyStatus | null {
  const { deps, viewerId } = ctx;
  const { store, config } = deps;
  const account = ctx.account(status.accountId);
  if (!account) return null;
  const mentions: Mention[] = [];
  for (const id of status.mentionIds) {
    const mention = ctx.mention(id);
    if (mention) mentions.push(mention);
  }
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
    const flags = ctx.flags(viewerId, status.reblogOfId ?? status.id);
    out.favourited = flags.favourited;
    out.reblogged = flags.reblogged;
    out.muted = flags.muted;
    out.bookmarked = flags.bookmarked;
    if (viewerId === status.accountId && !status.reblogOfId && status.visibility !== "direct") {
      out.pinned = !!pinIdOf(store, viewerId, status.id);
    }
    out.filtered = [];
  }
  if (ctx.source) out.text = status.text;
  else out.content = status.content;
  out.reblog = reblog;
  if (status.local) out.application = status.applicationId ? statusApplication(deps, status.applicationId) : null;
  out.account = account;
  out.media_attachments = [];
  out.mentions = mentions;
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
