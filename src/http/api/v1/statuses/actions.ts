// What a user does to a status: reblog/unreblog, favourite/unfavourite, bookmark/unbookmark, pin/unpin.
// Each answers with the status as the user now sees it (reblog: the new wrapper; unreblog: the original).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { bookmarkStatus, unbookmarkStatus } from "../../../../domain/statuses/bookmark.ts";
import { favouriteStatus, unfavouriteStatus } from "../../../../domain/statuses/favourite.ts";
import { pinStatus, unpinStatus } from "../../../../domain/statuses/pin.ts";
import { reblogStatus, unreblogStatus } from "../../../../domain/statuses/reblog.ts";
import { StatusSchema } from "../../../../entities/status.ts";
import { statusFor } from "../../../present.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { actionErrors, StatusIdParams } from "./shared.ts";

const response = { 200: StatusSchema, ...actionErrors };
const tags = ["statuses"];

export const statusActionRoutes = (deps: Deps) =>
  new Elysia({ name: "status-action-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .post(
      "/api/v1/statuses/:id/reblog",
      async ({ viewer, params, body }) => statusFor(deps, viewer, await reblogStatus(deps, viewer, params.id, body.visibility || undefined)),
      {
        auth: ["write:statuses"],
        params: StatusIdParams,
        body: t.Object({
          visibility: t.Optional(t.Union([t.Literal("public"), t.Literal("unlisted"), t.Literal("private"), t.Literal("")], {
            description: "Who sees the boost (default: your posting preference)",
          })),
        }),
        response,
        detail: { summary: "Reblog a status (again: the existing reblog). Private statuses: 422; direct: 403", tags },
      },
    )
    .post("/api/v1/statuses/:id/unreblog", async ({ viewer, params }) => statusFor(deps, viewer, await unreblogStatus(deps, viewer, params.id)), {
      auth: ["write:statuses"],
      params: StatusIdParams,
      response,
      detail: { summary: "Undo your reblog; answers with the original status", tags },
    })
    .post("/api/v1/statuses/:id/favourite", async ({ viewer, params }) => statusFor(deps, viewer, await favouriteStatus(deps, viewer, params.id)), {
      auth: ["write:favourites"],
      params: StatusIdParams,
      response,
      detail: { summary: "Favourite a status (idempotent)", tags },
    })
    .post("/api/v1/statuses/:id/unfavourite", async ({ viewer, params }) => statusFor(deps, viewer, await unfavouriteStatus(deps, viewer, params.id)), {
      auth: ["write:favourites"],
      params: StatusIdParams,
      response,
      detail: { summary: "Unfavourite: answered at once with favourited false; the removal completes in the background", tags },
    })
    .post("/api/v1/statuses/:id/bookmark", async ({ viewer, params }) => statusFor(deps, viewer, await bookmarkStatus(deps, viewer, params.id)), {
      auth: ["write:bookmarks"],
      params: StatusIdParams,
      response,
      detail: { summary: "Bookmark a status", tags },
    })
    .post("/api/v1/statuses/:id/unbookmark", async ({ viewer, params }) => statusFor(deps, viewer, await unbookmarkStatus(deps, viewer, params.id)), {
      auth: ["write:bookmarks"],
      params: StatusIdParams,
      response,
      detail: { summary: "Remove a bookmark", tags },
    })
    .post("/api/v1/statuses/:id/pin", async ({ viewer, params }) => statusFor(deps, viewer, await pinStatus(deps, viewer, params.id)), {
      auth: ["write:accounts"],
      params: StatusIdParams,
      response,
      detail: { summary: "Pin your own status to your profile (not boosts or direct statuses; at most 5)", tags },
    })
    .post("/api/v1/statuses/:id/unpin", async ({ viewer, params }) => statusFor(deps, viewer, await unpinStatus(deps, viewer, params.id)), {
      auth: ["write:accounts"],
      params: StatusIdParams,
      response,
      detail: { summary: "Unpin a status", tags },
    });
