// GET /api/v1/statuses/:id/context and GET /api/v1/statuses/:id/card.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { contextLimits, statusContext, visibleStatus } from "../../../../domain/statuses/read.ts";
import { cardOf } from "../../../../domain/statuses/card.ts";
import { askForReplies } from "../../../../federation/background-asks.ts";
import { StatusSchema } from "../../../../entities/status.ts";
import { keptThread, threadAnswer } from "../../../cache/thread-answers.ts";
import { PageCache } from "../../../cache/timeline-pages.ts";
import { keptAnswerHook } from "../../../metrics/instrument.ts";
import { presentPreviewCard, PreviewCardSchema } from "../../../../entities/preview-card.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { EmptyObject } from "../../../schemas.ts";
import { readErrors, StatusIdParams } from "./shared.ts";

const CONTEXT_ROUTE = "/api/v1/statuses/:id/context";
// Threads are sent as pre-rendered text (thread-answers.ts), checked where they are rendered (rendered-statuses.ts).
const ContextSchema = Object.assign(t.Object({ ancestors: t.Array(StatusSchema), descendants: t.Array(StatusSchema) }), { noValidate: true });

export const statusThreadRoutes = (deps: Deps) => {
  const threads = new PageCache();
  return new Elysia({ name: "status-thread-routes", seed: deps.store.dir })
    // Sent before routing, so no route records it: the hook does (src/http/metrics).
    .onRequest(keptAnswerHook((request, set) => keptThread(deps, threads, request, set), () => CONTEXT_ROUTE))
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      CONTEXT_ROUTE,
      ({ viewer, params, request, set }) => {
        const viewerId = viewer?.account?.id ?? null;
        return threadAnswer(deps, threads, request, set, viewer, () => {
          const root = visibleStatus(deps.store, viewerId, params.id);
          askForReplies(deps, root);
          return { root, thread: statusContext(deps.store, viewerId, root, contextLimits(viewerId !== null)) };
        });
      },
      {
        maybeAuth: ["read:statuses"],
        publicCache: 15,
        params: StatusIdParams,
        response: { 200: ContextSchema, ...readErrors },
        detail: { summary: "The thread around a status: ancestors and descendants you may see", tags: ["statuses"] },
      },
    )
    .get(
      "/api/v1/statuses/:id/card",
      ({ viewer, params }) => {
        const viewerId = viewer?.account?.id ?? null;
        const status = visibleStatus(deps.store, viewerId, params.id);
        const card = cardOf(deps.store, status);
        return card ? presentPreviewCard(deps.config, card, viewerId !== null) : {};
      },
      {
        maybeAuth: ["read:statuses"],
        publicCache: 15,
        params: StatusIdParams,
        response: { 200: t.Union([PreviewCardSchema, EmptyObject]), ...readErrors },
        detail: { summary: "The status's link card, or {} when it has none", tags: ["statuses"] },
      },
    );
};
