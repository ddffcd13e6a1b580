// GET /api/v1/statuses/:id/context and GET /api/v1/statuses/:id/card.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { contextLimits, statusContext, visibleStatus } from "../../../../domain/statuses/read.ts";
import { cardOf } from "../../../../domain/statuses/card.ts";
import { askForReplies } from "../../../../federation/thread-fetch.ts";
import { StatusSchema } from "../../../../entities/status.ts";
import { statusesFor } from "../../../present.ts";
import { presentPreviewCard, PreviewCardSchema } from "../../../../entities/preview-card.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { cachePlugin } from "../../../plugins/cache.ts";
import { EmptyObject } from "../../../schemas.ts";
import { readErrors, StatusIdParams } from "./shared.ts";

export const statusThreadRoutes = (deps: Deps) =>
  new Elysia({ name: "status-thread-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/statuses/:id/context",
      ({ viewer, params }) => {
        const viewerId = viewer?.account?.id ?? null;
        const status = visibleStatus(deps.store, viewerId, params.id);
        askForReplies(deps, status);
        const thread = statusContext(deps.store, viewerId, status, contextLimits(viewerId !== null));
        return { ancestors: statusesFor(deps, viewer, thread.ancestors, "thread"), descendants: statusesFor(deps, viewer, thread.descendants, "thread") };
      },
      {
        maybeAuth: ["read:statuses"],
        publicCache: 15,
        params: StatusIdParams,
        response: { 200: t.Object({ ancestors: t.Array(StatusSchema), descendants: t.Array(StatusSchema) }), ...readErrors },
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
