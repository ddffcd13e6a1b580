// Featured hashtags: GET/POST /api/v1/featured_tags, DELETE /api/v1/featured_tags/:id,
// GET /api/v1/featured_tags/suggestions and GET /api/v1/accounts/:id/featured_tags (public).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { findVisibleAccount } from "../../../domain/accounts/read.ts";
import { createFeaturedTag, deleteFeaturedTag, featuredTagsOfAccount, featuredTagSuggestions } from "../../../domain/tags/featured.ts";
import { FeaturedTagSchema, presentFeaturedTag } from "../../../entities/featured-tag.ts";
import { presentTag, TagSchema } from "../../../entities/tag.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { EmptyObject, ErrorBody } from "../../schemas.ts";

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

export const featuredTagRoutes = (deps: Deps) =>
  new Elysia({ name: "featured-tag-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v1/featured_tags",
      ({ viewer }) => featuredTagsOfAccount(deps, viewer.account).map((tag) => presentFeaturedTag(deps.config, tag)),
      {
        auth: ["read:accounts"],
        response: { 200: t.Array(FeaturedTagSchema), ...errors },
        detail: { summary: "The hashtags featured on your profile", tags: ["tags"] },
      },
    )
    .post(
      "/api/v1/featured_tags",
      async ({ viewer, body }) => presentFeaturedTag(deps.config, await createFeaturedTag(deps, viewer.account, body?.name)),
      {
        auth: ["write:accounts"],
        body: t.Optional(t.Object({ name: t.Optional(t.String({ description: "The hashtag, with or without #" })) })),
        response: { 200: FeaturedTagSchema, ...errors },
        detail: { summary: "Feature a hashtag on your profile (at most 10); one featured already is answered as is", tags: ["tags"] },
      },
    )
    .delete(
      "/api/v1/featured_tags/:id",
      async ({ viewer, params }) => {
        await deleteFeaturedTag(deps, viewer.account.id, params.id);
        return {};
      },
      {
        auth: ["write:accounts"],
        params: t.Object({ id: t.String({ description: "Featured tag id" }) }),
        response: { 200: EmptyObject, ...errors },
        detail: { summary: "Stop featuring a hashtag", tags: ["tags"] },
      },
    )
    .get(
      "/api/v1/featured_tags/suggestions",
      ({ viewer }) => featuredTagSuggestions(deps, viewer.account.id).map((tag) => presentTag(deps.config, tag.name, tag.history, tag.flags)),
      {
        auth: ["read:accounts"],
        response: { 200: t.Array(TagSchema), ...errors },
        detail: { summary: "Hashtags of your newest statuses that you do not feature yet", tags: ["tags"] },
      },
    )
    .get(
      "/api/v1/accounts/:id/featured_tags",
      ({ params }) => featuredTagsOfAccount(deps, findVisibleAccount(deps, params.id)).map((tag) => presentFeaturedTag(deps.config, tag)),
      {
        maybeAuth: ["read:accounts"],
        publicCache: 15,
        params: t.Object({ id: t.String({ description: "Account id" }) }),
        response: { 200: t.Array(FeaturedTagSchema), ...errors },
        detail: { summary: "The hashtags an account features on its profile", tags: ["tags"] },
      },
    );
