// Conversations: GET /api/v1/conversations (paged by last status), DELETE /api/v1/conversations/:id (gone for
// you only), POST /api/v1/conversations/:id/read and /unread. Only your own conversations exist for you: any
// other id is 404.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { conversationsPage, markConversationRead, removeViewerConversation } from "../../../domain/conversations/read.ts";
import { NotFound } from "../../../lib/errors.ts";
import { ConversationSchema, presentConversations } from "../../../entities/conversation.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { linkHeader, pageQuery } from "../../plugins/paging.ts";
import { EmptyObject, ErrorBody, pagingQuery } from "../../schemas.ts";

/** 20 by default, at most 40 (API.md §9). */
const CONVERSATION_LIMIT = 20;
const IdParams = t.Object({ id: t.String({ description: "Conversation id" }) });
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

export const conversationRoutes = (deps: Deps) =>
  new Elysia({ name: "conversation-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .get(
      "/api/v1/conversations",
      ({ viewer, query, request, set }) => {
        const paging = pageQuery(query, CONVERSATION_LIMIT);
        const { page, cursors } = conversationsPage(deps, viewer.account.id, paging);
        // As Mastodon: `next` only after a full page, `prev` (min_id) on any non-empty one.
        const link = linkHeader({
          baseUrl: deps.config.url, request, first: cursors[0], last: cursors.at(-1), next: cursors.length === paging.limit, prevParam: "min_id",
        });
        if (link) set.headers["link"] = link;
        return presentConversations(deps.config, page);
      },
      {
        auth: ["read:statuses"],
        query: t.Object(pagingQuery),
        response: { 200: t.Array(ConversationSchema), ...errors },
        detail: { summary: "Your direct conversations, newest status first (use the Link header)", tags: ["conversations"] },
      },
    )
    .delete(
      "/api/v1/conversations/:id",
      async ({ viewer, params }) => {
        await removeViewerConversation(deps, viewer.account.id, params.id);
        return {};
      },
      {
        auth: ["write:conversations"],
        params: IdParams,
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Remove a conversation from your list (the others keep theirs)", tags: ["conversations"] },
      },
    )
    .post("/api/v1/conversations/:id/read", ({ viewer, params }) => marked(deps, viewer.account.id, params.id, false), {
      auth: ["write:conversations"],
      params: IdParams,
      response: { 200: ConversationSchema, ...errors },
      detail: { summary: "Mark a conversation read", tags: ["conversations"] },
    })
    .post("/api/v1/conversations/:id/unread", ({ viewer, params }) => marked(deps, viewer.account.id, params.id, true), {
      auth: ["write:conversations"],
      params: IdParams,
      response: { 200: ConversationSchema, ...errors },
      detail: { summary: "Mark a conversation unread again (Mastodon 4.6)", tags: ["conversations"] },
    });

async function marked(deps: Deps, viewerId: string, id: string, unread: boolean) {
  const [conversation] = presentConversations(deps.config, await markConversationRead(deps, viewerId, id, unread));
  // Gone between the write and the read (its last status deleted meanwhile).
  if (!conversation) throw new NotFound();
  return conversation;
}
