// POST /api/v1/statuses, GET /api/v1/statuses/:id, GET /api/v1/statuses?id[]=, DELETE /api/v1/statuses/:id.
import { refetchOnRead } from "../../../../federation/remote-media.ts";
import { Elysia, t, type Static } from "elysia";
import type { PollInput } from "../../../../domain/polls/input.ts";
import type { Deps } from "../../../../deps.ts";
import { postOrSchedule, scheduledMedia } from "../../../../domain/statuses/scheduled.ts";
import { UnexpectedMentions } from "../../../../domain/statuses/create.ts";
import { AccountSchema, presentAccounts } from "../../../../entities/account.ts";
import { ApiError } from "../../../../lib/errors.ts";
import { presentScheduledStatus, ScheduledStatusSchema } from "../../../../entities/scheduled-status.ts";
import { deleteStatus } from "../../../../domain/statuses/delete.ts";
import { MAX_STATUSES_BY_ID, visibleStatus, visibleStatuses } from "../../../../domain/statuses/read.ts";
import { POLL_LIMITS, STATUS_LIMITS } from "../../../../domain/limits.ts";
import { sha256 } from "../../../../lib/secrets.ts";
import { DeletedStatusSchema, StatusSchema, type Status } from "../../../../entities/status.ts";
import { deletedStatusFor, statusesFor, statusFor, statusJsonFor } from "../../../present.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { ErrorBody, Flag, toBool, type FlagValue } from "../../../schemas.ts";
import { actionErrors, readErrors, StatusIdParams } from "./shared.ts";
import { QuotePolicyParam } from "./quotes.ts";

/** GET /api/v1/statuses/:id is sent as JSON text rendered from kept parts, checked where it is rendered (present.ts). */
const StatusText = { ...StatusSchema, noValidate: true };

const Visibility = t.Union([t.Literal("public"), t.Literal("unlisted"), t.Literal("private"), t.Literal("direct"), t.Literal("")], {
  description: "public, unlisted, private or direct; a reply without one takes its parent's",
});

/** poll[…] of POST and PUT /api/v1/statuses. */
export const PollParams = t.Object(
  {
    options: t.Optional(t.Union([t.String(), t.Array(t.String())])),
    expires_in: t.Optional(t.Union([t.String(), t.Number()], { description: `Seconds, ${POLL_LIMITS.minExpiration} to ${POLL_LIMITS.maxExpiration}` })),
    multiple: t.Optional(Flag()),
    hide_totals: t.Optional(Flag()),
  },
  { description: `A poll of 2 to ${POLL_LIMITS.maxOptions} options of at most ${POLL_LIMITS.maxCharactersPerOption} characters; not with media (422)` },
);

const NewStatusBody = t.Object({
  status: t.Optional(t.String({ description: `Text; at most ${STATUS_LIMITS.maxCharacters} characters with the spoiler text, each URL counting ${STATUS_LIMITS.charactersReservedPerUrl}` })),
  spoiler_text: t.Optional(t.String({ description: "Content warning; a non-blank one makes the status sensitive" })),
  sensitive: t.Optional(Flag({ description: "Mark media as sensitive (default: the user's preference)" })),
  visibility: t.Optional(Visibility),
  in_reply_to_id: t.Optional(t.String({ description: "Id of the status replied to; 404 if you cannot see it" })),
  language: t.Optional(t.String({ description: "ISO 639 code; others fall back to the user's language" })),
  media_ids: t.Optional(t.Union([t.String(), t.Array(t.String())], { description: `Attachment ids (media_ids[]=…), at most ${STATUS_LIMITS.maxMediaAttachments}` })),
  scheduled_at: t.Optional(t.String({ description: "ISO 8601 time at least 5 minutes ahead: scheduled (25 per day, 300 waiting); a past time posts now" })),
  poll: t.Optional(PollParams),
  quoted_status_id: t.Optional(t.String({ description: "A status to quote; 404 unless you may see and quote it (docs/statuses.md#quotes)" })),
  quote_approval_policy: t.Optional(QuotePolicyParam),
  allowed_mentions: t.Optional(
    t.Union([t.String(), t.Array(t.String())], {
      description: "Account ids the text may mention (allowed_mentions[]=…); mentioning anyone else is a 422 listing them in unexpected_accounts",
    }),
  ),
});

const UnexpectedMentionsBody = t.Object(
  { error: t.String(), unexpected_accounts: t.Array(AccountSchema) },
  { description: "The text mentions accounts allowed_mentions[] does not list" },
);

export const optionalFlag = (value: FlagValue | undefined) => (value === undefined || value === "" ? undefined : toBool(value));
export const list = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]).filter((v) => v !== "");

export const pollInput = (poll: Static<typeof PollParams> | undefined): PollInput | undefined =>
  poll && { options: list(poll.options), expiresIn: poll.expires_in, multiple: optionalFlag(poll.multiple), hideTotals: optionalFlag(poll.hide_totals) };

export const statusCoreRoutes = (deps: Deps) =>
  new Elysia({ name: "status-core-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .post(
      "/api/v1/statuses",
      async ({ viewer, body, request }) => {
        const key = request.headers.get("idempotency-key");
        const posted = await postOrSchedule(deps, viewer, {
          status: body.status,
          spoilerText: body.spoiler_text,
          sensitive: optionalFlag(body.sensitive),
          visibility: body.visibility || undefined,
          inReplyToId: body.in_reply_to_id,
          language: body.language,
          mediaIds: list(body.media_ids),
          poll: pollInput(body.poll),
          quotedStatusId: body.quoted_status_id,
          quoteApprovalPolicy: body.quote_approval_policy,
          allowedMentions: body.allowed_mentions === undefined ? undefined : list(body.allowed_mentions),
          idempotencyKey: key ? sha256(key) : null,
        }, body.scheduled_at).catch((error: unknown) => {
          if (!(error instanceof UnexpectedMentions)) throw error;
          throw new ApiError(422, error.message, { unexpected_accounts: presentAccounts(deps.config, error.accounts, viewer.account.id) });
        });
        if (posted.scheduled) return presentScheduledStatus(deps.config, posted.scheduled, scheduledMedia(deps.store, posted.scheduled));
        return statusFor(deps, viewer, posted.status);
      },
      {
        auth: ["write:statuses"],
        body: NewStatusBody,
        headers: t.Object({ "idempotency-key": t.Optional(t.String({ description: "Repeat within an hour returns the first status" })) }),
        response: { 200: t.Union([StatusSchema, ScheduledStatusSchema]), ...actionErrors, 422: t.Union([ErrorBody, UnexpectedMentionsBody]) },
        detail: { summary: "Post a status, or schedule it (scheduled_at): then the answer is a ScheduledStatus", tags: ["statuses"] },
      },
    )
    .get(
      "/api/v1/statuses/:id",
      ({ viewer, params, set }) => {
        const status = visibleStatus(deps.store, viewer?.account?.id ?? null, params.id);
        // Remote attachments without a copy here (never fetched, or removed from the cache) are fetched again.
        refetchOnRead(deps, [status]);
        return statusJsonFor(deps, set, viewer, status, "thread") as unknown as Status;
      },
      {
        maybeAuth: ["read:statuses"],
        publicCache: 15,
        params: StatusIdParams,
        response: { 200: StatusText, ...readErrors },
        detail: { summary: "One status; 404 if you may not see it", tags: ["statuses"] },
      },
    )
    .get(
      "/api/v1/statuses",
      ({ viewer, query }) => statusesFor(deps, viewer, visibleStatuses(deps.store, viewer?.account?.id ?? null, list(query.id))),
      {
        maybeAuth: ["read:statuses"],
        publicCache: 15,
        query: t.Object({ id: t.Union([t.String(), t.Array(t.String())], { description: `Status ids (id[]=…), at most ${MAX_STATUSES_BY_ID}` }) }),
        response: { 200: t.Array(StatusSchema), 400: ErrorBody, ...readErrors, 422: ErrorBody },
        detail: { summary: "Several statuses by id, in the order given; those you may not see are left out", tags: ["statuses"] },
      },
    )
    .delete(
      "/api/v1/statuses/:id",
      async ({ viewer, params, query, body }) =>
        // In the query or the body (Mastodon.py sends it form-encoded), as Rails' params merge both.
        deletedStatusFor(deps, viewer, await deleteStatus(deps, viewer, params.id, toBool(query.delete_media ?? body.delete_media))),
      {
        auth: ["write:statuses"],
        params: StatusIdParams,
        query: t.Object({ delete_media: t.Optional(Flag({ description: "Remove the attachments now; by default they are freed for a redraft and removed a day later" })) }),
        body: t.Object({ delete_media: t.Optional(Flag({ description: "The same, in the body" })) }),
        response: { 200: DeletedStatusSchema, ...actionErrors },
        detail: {
          summary: "Delete your status: answered at once with its source text; the rest of the removal runs in the background",
          tags: ["statuses"],
        },
      },
    );
