// Quotes of your own status (docs/statuses.md#quotes): GET /api/v1/statuses/:id/quotes, POST
// /api/v1/statuses/:id/quotes/:quoting_status_id/revoke and PUT /api/v1/statuses/:id/interaction_policy.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { quotesOf, revokeQuote, setQuotePolicy } from "../../../../domain/quotes/manage.ts";
import { StatusSchema } from "../../../../entities/status.ts";
import { statusesFor, statusFor } from "../../../present.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { linkHeader, pageQuery } from "../../../plugins/paging.ts";
import { pagingQuery } from "../../../schemas.ts";
import { actionErrors, STATUS_LIST_LIMIT, StatusIdParams } from "./shared.ts";

const tags = ["statuses"];

export const QuotePolicyParam = t.Union([t.Literal("public"), t.Literal("followers"), t.Literal("nobody")], {
  description: "Who may quote it: public, followers or nobody (a private or direct status keeps nobody)",
});

export const statusQuoteRoutes = (deps: Deps) =>
  new Elysia({ name: "status-quote-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .get(
      "/api/v1/statuses/:id/quotes",
      ({ viewer, params, query, request, set }) => {
        const page = pageQuery(query, STATUS_LIST_LIMIT);
        const statuses = quotesOf(deps.store, viewer.account.id, params.id, page);
        const link = linkHeader({
          baseUrl: deps.config.url,
          request,
          first: statuses[0]?.id,
          last: statuses.at(-1)?.id,
          next: page.limit > 0 && statuses.length >= page.limit,
          prevParam: "since_id",
        });
        if (link) set.headers["link"] = link;
        return statusesFor(deps, viewer, statuses);
      },
      {
        auth: ["read:statuses"],
        params: StatusIdParams,
        query: t.Object(pagingQuery),
        response: { 200: t.Array(StatusSchema), ...actionErrors },
        detail: { summary: "The accepted quotes of a status you may see, newest first", tags },
      },
    )
    .post(
      "/api/v1/statuses/:id/quotes/:quoting_status_id/revoke",
      async ({ viewer, params }) => statusFor(deps, viewer, await revokeQuote(deps, viewer.account.id, params.id, params.quoting_status_id)),
      {
        auth: ["write:statuses"],
        params: t.Object({ id: t.String({ description: "Your quoted status" }), quoting_status_id: t.String({ description: "The status quoting it" }) }),
        response: { 200: StatusSchema, ...actionErrors },
        detail: { summary: "Revoke a quote of your status: it shows `revoked` and stops counting; answers with the quoting status", tags },
      },
    )
    .put(
      "/api/v1/statuses/:id/interaction_policy",
      async ({ viewer, params, body }) => {
        const policy = body.quote_approval_policy ?? viewer.user.quotePolicy ?? "public";
        return statusFor(deps, viewer, await setQuotePolicy(deps, viewer.account.id, params.id, policy));
      },
      {
        auth: ["write:statuses"],
        params: StatusIdParams,
        body: t.Object({ quote_approval_policy: t.Optional(QuotePolicyParam) }, { description: "Without a policy: your default (source[quote_policy])" }),
        response: { 200: StatusSchema, ...actionErrors },
        detail: { summary: "Change who may quote your status (past quotes stay)", tags },
      },
    );
