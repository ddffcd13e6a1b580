// GET /api/v1/polls/:id and POST /api/v1/polls/:id/votes (choices[]): a poll is seen by whoever may see its status.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { readPoll } from "../../../domain/polls/poll.ts";
import { voteOnPoll } from "../../../domain/polls/vote.ts";
import { PollSchema, presentPoll } from "../../../entities/poll.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { ErrorBody } from "../../schemas.ts";

const PollIdParams = t.Object({ id: t.String({ description: "Poll id" }) });
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

export const pollRoutes = (deps: Deps) =>
  new Elysia({ name: "poll-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/api/v1/polls/:id", ({ viewer, params }) => presentPoll(readPoll(deps.store, viewer?.account?.id ?? null, params.id)), {
      maybeAuth: ["read:statuses"],
      publicCache: 15,
      params: PollIdParams,
      response: { 200: PollSchema, ...errors },
      detail: { summary: "A poll; 404 unless you may see its status", tags: ["polls"] },
    })
    .post(
      "/api/v1/polls/:id/votes",
      async ({ viewer, params, body }) => presentPoll(await voteOnPoll(deps, viewer, params.id, Array.isArray(body.choices) ? body.choices : [body.choices])),
      {
        auth: ["write:statuses"],
        params: PollIdParams,
        body: t.Object({
          choices: t.Union([t.String(), t.Array(t.String())], { description: "Option indices from 0 (choices[]=…); one unless the poll is multiple" }),
        }),
        response: { 200: PollSchema, ...errors, 422: ErrorBody },
        detail: { summary: "Vote once on a poll that has not ended", tags: ["polls"] },
      },
    );
