// Hashtags: GET /api/v1/tags/:name, POST /api/v1/tags/:name/follow|unfollow|feature|unfeature (feature: Mastodon
// 4.4), GET /api/v1/followed_tags (paged by follow). A name that is not a hashtag is 404.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { featureTag, unfeatureTag } from "../../../domain/tags/featured.ts";
import { followedTags, followTag, showTag, unfollowTag, type LoadedTag } from "../../../domain/tags/follow.ts";
import type { Config } from "../../../config.ts";
import { presentTag, TagSchema } from "../../../entities/tag.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { linkHeader, pageQuery } from "../../plugins/paging.ts";
import { ErrorBody, pagingQuery } from "../../schemas.ts";

/** followed_tags: 100 by default, at most 200 (API.md §9). */
const FOLLOWED_TAGS_LIMIT = 100;
const NameParams = t.Object({ name: t.String({ description: "Hashtag name, without #" }) });
const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 422: ErrorBody };

const present = (config: Config, tag: LoadedTag) => presentTag(config, tag.name, tag.history, tag.flags);

export const tagRoutes = (deps: Deps) =>
  new Elysia({ name: "tag-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get("/api/v1/tags/:name", ({ viewer, params }) => present(deps.config, showTag(deps, viewer?.account?.id ?? null, params.name)), {
      maybeAuth: ["read"],
      publicCache: 15,
      params: NameParams,
      response: { 200: TagSchema, ...errors },
      detail: { summary: "A hashtag with its last week of use; following and featuring for signed-in users", tags: ["tags"] },
    })
    .post("/api/v1/tags/:name/follow", async ({ viewer, params }) => present(deps.config, await followTag(deps, viewer.account.id, params.name)), {
      auth: ["write:follows"],
      params: NameParams,
      response: { 200: TagSchema, ...errors },
      detail: { summary: "Follow a hashtag: its public statuses come to your home timeline", tags: ["tags"] },
    })
    .post("/api/v1/tags/:name/unfollow", async ({ viewer, params }) => present(deps.config, await unfollowTag(deps, viewer.account.id, params.name)), {
      auth: ["write:follows"],
      params: NameParams,
      response: { 200: TagSchema, ...errors },
      detail: { summary: "Stop following a hashtag", tags: ["tags"] },
    })
    .post("/api/v1/tags/:name/feature", async ({ viewer, params }) => present(deps.config, await featureTag(deps, viewer.account, params.name)), {
      auth: ["write:accounts"],
      params: NameParams,
      response: { 200: TagSchema, ...errors },
      detail: { summary: "Feature a hashtag on your profile (at most 10)", tags: ["tags"] },
    })
    .post("/api/v1/tags/:name/unfeature", async ({ viewer, params }) => present(deps.config, await unfeatureTag(deps, viewer.account, params.name)), {
      auth: ["write:accounts"],
      params: NameParams,
      response: { 200: TagSchema, ...errors },
      detail: { summary: "Stop featuring a hashtag on your profile", tags: ["tags"] },
    })
    .get(
      "/api/v1/followed_tags",
      ({ viewer, query, request, set }) => {
        const paging = pageQuery(query, FOLLOWED_TAGS_LIMIT);
        const { tags, cursors } = followedTags(deps, viewer.account.id, paging);
        // As Mastodon: `next` only after a full page; `prev` with since_id.
        const link = linkHeader({
          baseUrl: deps.config.url, request, first: cursors[0], last: cursors.at(-1), next: cursors.length === paging.limit, prevParam: "since_id",
        });
        if (link) set.headers["link"] = link;
        return tags.map((tag) => present(deps.config, tag));
      },
      {
        auth: ["read:follows"],
        query: t.Object(pagingQuery),
        response: { 200: t.Array(TagSchema), ...errors },
        detail: { summary: "The hashtags you follow, newest follow first (use the Link header)", tags: ["tags"] },
      },
    );
