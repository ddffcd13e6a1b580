// POST /api/v1/statuses/:id/mute and /unmute: the thread's notifications stop (or start again) for you; the
// Status is answered with `muted`. Any status you may see; others are 404.
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { muteThread, unmuteThread } from "../../../domain/statuses/thread-mute.ts";
import { StatusSchema } from "../../../entities/status.ts";
import { statusFor } from "../../present.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { actionErrors, StatusIdParams } from "./statuses/shared.ts";

export const threadMuteRoutes = (deps: Deps) =>
  new Elysia({ name: "thread-mute-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .post("/api/v1/statuses/:id/mute", async ({ viewer, params }) => statusFor(deps, viewer, await muteThread(deps, viewer.account, params.id)), {
      auth: ["write:mutes"],
      params: StatusIdParams,
      response: { 200: StatusSchema, ...actionErrors },
      detail: { summary: "Mute the status's thread: no more notifications from it", tags: ["statuses"] },
    })
    .post("/api/v1/statuses/:id/unmute", async ({ viewer, params }) => statusFor(deps, viewer, await unmuteThread(deps, viewer.account, params.id)), {
      auth: ["write:mutes"],
      params: StatusIdParams,
      response: { 200: StatusSchema, ...actionErrors },
      detail: { summary: "Unmute the status's thread", tags: ["statuses"] },
    });
